package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/mailer/devstack"
)

// TestServeTLS runs serve against mail servers with a certificate from a
// private CA for a name other than the address dialled: with
// imap/smtp.tls_ca_file and tls_server_name a player's mail is answered;
// without tls_ca_file serve stops with status 78 and the hint (issue 21
// §3).
func TestServeTLS(t *testing.T) {
	srvTLS, caPEM, err := devstack.NewTLS("mail.club.test")
	if err != nil {
		t.Fatal(err)
	}
	stack, err := devstack.StartOptions(devstack.Options{
		Users: map[string]string{"games": "pw", "alice": "pw"}, TLS: srvTLS, ImplicitTLS: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stack.Close()
	dir := t.TempDir()
	ca := filepath.Join(dir, "club-ca.pem")
	if err := os.WriteFile(ca, caPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	conf := func(tlsLines string) string {
		return writeConfig(t, fmt.Sprintf(`imap:
  addr: %q
  username: games
  security: tls
%s
smtp:
  addr: %q
  username: games
  security: tls
%s
archive:
  path: %q
  records_dir: ""
server:
  address: games@taflmail.test
`, stack.IMAPAddr(), tlsLines, stack.SMTPAddr(), tlsLines, filepath.Join(dir, "taflmail.db")))
	}
	t.Setenv("TAFLMAIL_IMAP_PASSWORD", "pw")
	t.Setenv("TAFLMAIL_SMTP_PASSWORD", "pw")

	r := run(t, "serve", "--config", conf("  tls_server_name: mail.club.test"))
	if r.code != exitConfig || !strings.Contains(r.stderr, ".tls_ca_file to that CA's PEM file") {
		t.Errorf("serve without the CA = code %d, stderr %q; want 78 and the hint", r.code, r.stderr)
	}

	cfg, err := loadConfig(nil, conf("  tls_ca_file: "+ca+"\n  tls_server_name: mail.club.test"))
	if err != nil {
		t.Fatalf("loadConfig = %v", err)
	}
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, slog.New(slog.NewTextHandler(&logs, nil))) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve = %v", err)
		}
	}()
	mail := "From: alice@taflmail.test\r\nTo: games@taflmail.test\r\nSubject: help\r\nMessage-ID: <help-tls@taflmail.test>\r\n\r\nhelp\r\n"
	if err := stack.Deliver("games", []byte(mail)); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		msgs, err := stack.Messages("alice")
		if err != nil {
			t.Fatal(err)
		}
		if len(msgs) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no reply over TLS after 15 s; log:\n%s", logs.String())
		}
	}
	if bytes.Contains([]byte(logs.String()), []byte("level=ERROR")) {
		t.Errorf("errors in the log:\n%s", logs.String())
	}
}
