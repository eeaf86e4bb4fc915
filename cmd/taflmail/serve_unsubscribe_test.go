package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/config"
	"github.com/taflmail/taflmail/server"
)

// TestServeUnsubscribe: serve's one-click unsubscribe (RFC 8058) answers
// on the HTTP listener (http.addr), at the path of
// server.unsubscribe_url, beside the web pages: a POST of a digest's URI
// ends that player's digest in the archive, and the pages are still
// served.
func TestServeUnsubscribe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store, err := archive.Open(ctx, filepath.Join(t.TempDir(), "taflmail.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	due := time.Date(2026, 12, 1, 7, 30, 0, 0, time.UTC)
	if err := store.Commit(ctx, archive.Change{Players: []archive.Player{{Address: "bob@player.test", Digest: true, DigestAt: 450, DigestDue: due}}}); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Server.Address = "tafl@game.test"
	cfg.Server.UnsubscribeURL, cfg.HTTP.Addr = "https://tafl.example.org/tafl/unsubscribe", "127.0.0.1:0"
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	hs, err := startHTTP(ctx, cfg, store, logger)
	if err != nil {
		t.Fatal(err)
	}
	defer hs.Close()
	srv, err := server.New(serverOptions(cfg, store, nil, nil, logger))
	if err != nil {
		t.Fatal(err)
	}
	if err := mountUnsubscribe(hs, cfg, srv, logger); err != nil {
		t.Fatal(err)
	}
	base := "http://" + hs.Addr.String()
	q := url.Values{"a": {"bob@player.test"}, "stop": {"notify each"}}.Encode()
	resp, err := http.Post(base+"/tafl/unsubscribe?"+q, "application/x-www-form-urlencoded", strings.NewReader("List-Unsubscribe=One-Click"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST: %s", resp.Status)
	}
	if p, err := store.Player(ctx, "bob@player.test"); err != nil || p.Digest {
		t.Errorf("after the POST: %+v, %v; want no digest", p, err)
	}
	resp, err = http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("the web pages beside it: GET / %s", resp.Status)
	}
	if err := mountUnsubscribe(nil, cfg, srv, logger); err == nil {
		t.Error("mountUnsubscribe without a listener: no error")
	}
}
