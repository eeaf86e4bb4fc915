package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/mailer/devstack"
)

// TestServeStartExitStatus: serve stops at start with status 78
// (EX_CONFIG) when restarting cannot help — a configuration that is not
// valid, a password the IMAP server rejects, a mailbox that does not
// exist — and with 1 when it may (the server is not reachable), so that
// systemd's RestartPreventExitStatus=78 keeps a wrong password from being
// tried every 30 seconds (issue 21).
func TestServeStartExitStatus(t *testing.T) {
	stack, err := devstack.Start("taflmail.test", map[string]string{"games": "right"})
	if err != nil {
		t.Fatal(err)
	}
	defer stack.Close()
	conf := func(imapAddr, mailbox string) string {
		return serveConfigMailbox(t, imapAddr, mailbox, stack.SMTPAddr(), filepath.Join(t.TempDir(), "taflmail.db"))
	}
	closed := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	tests := []struct {
		name     string
		password string
		file     string
		code     int
		want     string
	}{
		{"invalid configuration", "right", writeConfig(t, "imap:\n  addr: x\n"), exitConfig, "configuration:"},
		{"wrong password", "wrong", conf(stack.IMAPAddr(), "INBOX"), exitConfig, "IMAP login rejected"},
		{"no such mailbox", "right", conf(stack.IMAPAddr(), "Moves"), exitConfig, "check imap.mailbox"},
		{"server down", "right", conf(closed, "INBOX"), exitFailure, "connection refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("TAFLMAIL_IMAP_PASSWORD", tt.password)
			r := run(t, "serve", "--config", tt.file)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("serve = code %d, stderr %q; want %d and %q", r.code, r.stderr, tt.code, tt.want)
			}
		})
	}
	// serve asks the SMTP server at start too: a rejected log-in stops it
	t.Run("wrong SMTP password", func(t *testing.T) {
		t.Setenv("TAFLMAIL_IMAP_PASSWORD", "right")
		t.Setenv("TAFLMAIL_SMTP_USERNAME", "games")
		t.Setenv("TAFLMAIL_SMTP_PASSWORD", "wrong")
		r := run(t, "serve", "--config", conf(stack.IMAPAddr(), "INBOX"))
		if r.code != exitConfig || !strings.Contains(r.stderr, "SMTP login rejected") {
			t.Errorf("serve = code %d, stderr %q; want 78 and SMTP login rejected", r.code, r.stderr)
		}
	})
}
