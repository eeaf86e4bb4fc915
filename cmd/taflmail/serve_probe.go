package main

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/config"
	"github.com/taflmail/taflmail/health"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server"
)

// startSMTPProbe runs health.ProbeSMTP beside the referee (issue 21 §1):
// while the relay is away it is checked as `config check --connect`
// does (sender.Check), and once it answers, the replies it deferred are
// made due (requeueDeferred) and Run is woken to send them. It runs with
// or without http.addr: the replies wait either way. The returned stop
// ends it and waits for it, before the archive is closed.
func startSMTPProbe(ctx context.Context, cfg config.Config, store *archive.Store, sender *mailer.Sender, srv *server.Server, logger *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		health.ProbeSMTP(ctx, health.ProbeOptions{
			Status: sender.Status, Check: sender.Check, Interval: probeInterval(cfg), Logger: logger,
			Recovered: func(ctx context.Context) (int, error) {
				n, err := requeueDeferred(ctx, store, time.Now())
				srv.Wake()
				return n, err
			},
		})
	}()
	return func() { cancel(); <-done }
}

// probeInterval is how often a relay that is away is checked: every
// minute (health.DefaultProbeInterval), or every third of
// health.smtp_max_failing when that is shorter, at least every second,
// so that a relay back within the threshold is seen before /healthz
// fails.
func probeInterval(cfg config.Config) time.Duration {
	return min(health.DefaultProbeInterval, max(time.Second, cfg.Health.SMTPMaxFailing/3))
}

// requeueDeferred makes every outbox mail that waits for a retry (Pending,
// due after now) due at now, with the archive's call behind `taflmail
// outbox --retry` (Store.Requeue), and returns how many it made due. Mails
// given up for good (Failed) stay so: only the operator sends them again.
// Mails due already are left to Run; a mail sent meanwhile (ErrConflict)
// or gone is skipped.
func requeueDeferred(ctx context.Context, store *archive.Store, now time.Time) (int, error) {
	mails, err := store.Outbox(ctx, archive.Pending)
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, m := range mails {
		if !m.NextAttempt.After(now) || m.ClaimedBy != "" {
			continue // Run's already, or being sent
		}
		switch err := store.Requeue(ctx, m.ID, now); {
		case err == nil:
			n++
		case errors.Is(err, archive.ErrConflict), errors.Is(err, archive.ErrNotFound):
		default:
			errs = append(errs, err)
		}
	}
	return n, errors.Join(errs...)
}
