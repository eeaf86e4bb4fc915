package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/config"
	"github.com/taflmail/taflmail/health"
	"github.com/taflmail/taflmail/web"
)

// httpServer is the HTTP listener of `taflmail serve` (http.addr): the
// club's web pages at /, read-only. Its Mux is where other read-only
// handlers go (/healthz, /metrics): the pages take every path the mux
// does not match otherwise.
type httpServer struct {
	Mux *http.ServeMux
	// Monitor answers /healthz and /metrics; serve attaches the inbox,
	// the sender and the referee to it as it builds them.
	Monitor *health.Monitor
	Addr    net.Addr // where it listens
	srv     *http.Server
	done    chan error
}

// webHandler returns the live pages of store: a snapshot read by
// club.Load, read again when store.ChangeStamp changes.
func webHandler(cfg config.Config, store *archive.Store, logger *slog.Logger) *web.Handler {
	return web.NewHandler(web.Source{
		Load: func(ctx context.Context) (*club.Club, error) {
			return club.Load(ctx, store, club.LoadOptions{JoinAddress: cfg.Server.Address})
		},
		Stamp: store.ChangeStamp,
	}, web.HandlerOptions{Site: web.Options{Title: cfg.HTTP.Title}, Logger: logger})
}

// startHTTP listens on cfg.HTTP.Addr and serves the web pages until ctx
// ends or Close is called. The listener is open when it returns, so a
// port that is taken fails the start.
func startHTTP(ctx context.Context, cfg config.Config, store *archive.Store, logger *slog.Logger) (*httpServer, error) {
	ln, err := net.Listen("tcp", cfg.HTTP.ListenAddr())
	if err != nil {
		return nil, fmt.Errorf("http.addr %s: %w", cfg.HTTP.Addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", webHandler(cfg, store, logger))
	mon := health.New(health.Options{Version: buildVersion(), Outbox: store.OutboxStats, Timers: store.TimerStats,
		MaxPollAge: maxPollAge(cfg), SMTPWindow: cfg.Health.SMTPMaxFailing, LateAfter: cfg.Health.TimersLateAfter})
	mux.Handle("GET /healthz", mon.HealthHandler())
	mux.Handle("GET /metrics", mon.MetricsHandler())
	s := &httpServer{Mux: mux, Monitor: mon, Addr: ln.Addr(), done: make(chan error, 1),
		srv: &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
			WriteTimeout: time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10,
			BaseContext: func(net.Listener) context.Context { return ctx }}}
	go func() {
		err := s.srv.Serve(ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		s.done <- err
	}()
	go func() {
		<-ctx.Done()
		s.Close()
	}()
	logger.Info("web pages served", "http", s.Addr.String())
	return s, nil
}

// maxPollAge is how old the inbox's last poll may be before /healthz
// fails: health.imap_max_poll_age, but at least three rounds of a daemon
// that reads the mailbox every imap.poll_interval.
func maxPollAge(cfg config.Config) time.Duration {
	return max(cfg.Health.IMAPMaxPollAge, 3*cfg.IMAP.PollInterval)
}

// Close stops the listener, letting requests under way finish for up to
// five seconds, and returns the server's error, if any.
func (s *httpServer) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = s.srv.Shutdown(ctx)
	select {
	case err := <-s.done:
		s.done <- err
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
