package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club/clubtest"
	"github.com/taflmail/taflmail/config"
)

// TestServeHTTP: the listener of serve --http answers with the pages of
// the archive, refuses to write, stops with its context, and leaves
// room on its mux for other handlers.
func TestServeHTTP(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := newHTTPFixture(t, ctx, func(cfg *config.Config) {
		cfg.HTTP.Addr, cfg.HTTP.Title, cfg.Server.Address = "127.0.0.1:0", "Live Club", "club@tafl.example"
	})
	cfg, store, hs := f.cfg, f.store, f.hs
	base := "http://" + hs.Addr.String()
	get := func(method, path string) (int, string) {
		req, _ := http.NewRequest(method, base+path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("GET", "/"); code != 200 || !strings.Contains(body, "Live Club") || !strings.Contains(body, f.site.Running) {
		t.Errorf("GET / = %d %.200s", code, body)
	}
	if code, body := get("GET", "/events/"+f.site.Running+".html"); code != 200 || strings.Contains(body, "@") {
		t.Errorf("GET event = %d", code)
	}
	// no inbox is attached here: health fails, naming IMAP
	if code, body := get("GET", "/healthz"); code != 503 || !strings.Contains(body, `"problem":"not connected yet"`) {
		t.Errorf("GET /healthz = %d %q", code, body)
	}
	if code, body := get("GET", "/metrics"); code != 200 || !strings.Contains(body, "taflmail_outbox_pending 0") || !strings.Contains(body, "taflmail_build_info{") {
		t.Errorf("GET /metrics = %d %.300s", code, body)
	}
	if code, _ := get("POST", "/index.html"); code != http.StatusMethodNotAllowed {
		t.Errorf("POST = %d", code)
	}
	// a second listener on the same port fails to start
	cfg2 := cfg
	cfg2.HTTP.Addr = hs.Addr.String()
	if _, err := startHTTP(ctx, cfg2, store, slog.New(slog.NewTextHandler(io.Discard, nil))); err == nil {
		t.Error("two listeners on one port")
	}
	cancel()
	if err := hs.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	if _, err := http.Get(base + "/"); err == nil {
		t.Error("the listener still answers after its context ended")
	}
}

// TestServeHTTPFlag: --http is http.addr, checked as such.
func TestServeHTTPFlag(t *testing.T) {
	r := run(t, "serve", "--http", "localhost")
	if r.code == exitOK || !strings.Contains(r.stderr, `http.addr: must be host:port (127.0.0.1:8080) or empty, not "localhost"`) {
		t.Errorf("serve --http localhost = %d, stderr %s", r.code, r.stderr)
	}
}

// TestServeHTTPLoopbackByDefault (issue 21 §1): http.addr without a host
// listens on loopback only, so /metrics is nobody else's by default.
func TestServeHTTPLoopbackByDefault(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hs := newHTTPFixture(t, ctx, func(cfg *config.Config) { cfg.HTTP.Addr = ":0" }).hs
	tcp, ok := hs.Addr.(*net.TCPAddr)
	if !ok || !tcp.IP.IsLoopback() {
		t.Errorf("http.addr :0 listens on %v, want a loopback address", hs.Addr)
	}
}

// httpFixture is serve's HTTP listener on the archive of a club
// (siteFixture), as startHTTP starts it.
type httpFixture struct {
	site  *clubtest.Fixture
	cfg   config.Config
	store *archive.Store
	hs    *httpServer
}

// newHTTPFixture opens a club's archive and starts the listener on it
// with config.Default() as set changes it, until ctx ends; the test's
// cleanup closes both.
func newHTTPFixture(t *testing.T, ctx context.Context, set func(*config.Config)) httpFixture {
	t.Helper()
	f := httpFixture{site: siteFixture(t), cfg: config.Default()}
	var err error
	if f.store, err = archive.Open(ctx, f.site.Path); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.store.Close() })
	set(&f.cfg)
	if f.hs, err = startHTTP(ctx, f.cfg, f.store, slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.hs.Close() })
	return f
}
