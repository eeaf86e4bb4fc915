package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/mailer/devstack"
)

// TestConfigCheckConnect: config check --connect logs in to IMAP and SMTP
// as serve would, prints what worked, sends and creates nothing, and
// exits 0 only when both log-ins work (issue 21 §4).
func TestConfigCheckConnect(t *testing.T) {
	stack, err := devstack.Start("taflmail.test", map[string]string{"games": "right", "alice": "pw"})
	if err != nil {
		t.Fatal(err)
	}
	defer stack.Close()
	if err := stack.Deliver("games", []byte("From: alice@taflmail.test\r\nSubject: help\r\n\r\nhelp\r\n")); err != nil {
		t.Fatal(err)
	}
	file := writeConfig(t, fmt.Sprintf(`imap:
  addr: %q
  username: games
  security: none
smtp:
  addr: %q
  username: games
  security: none
archive:
  path: %q
server:
  address: games@taflmail.test
`, stack.IMAPAddr(), stack.SMTPAddr(), filepath.Join(t.TempDir(), "taflmail.db")))

	check := func(imapPassword, smtpPassword string) result {
		t.Setenv("TAFLMAIL_IMAP_PASSWORD", imapPassword)
		t.Setenv("TAFLMAIL_SMTP_PASSWORD", smtpPassword)
		return run(t, "config", "check", "--connect", "--config", file)
	}
	r := check("right", "right")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("config check --connect = code %d, stderr %q\n%s", r.code, r.stderr, r.stdout)
	}
	for _, want := range []string{
		"imap: ok: logged in to " + stack.IMAPAddr() + " as games (none, LOGIN); INBOX holds 1 message; Processed does not exist yet (serve creates it); IDLE offered\n",
		"smtp: ok: connected to " + stack.SMTPAddr() + " (none, AUTH PLAIN as games); nothing sent\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	// it only looked: nothing moved, created or sent
	if msgs, err := stack.Messages("games"); err != nil || len(msgs) != 1 {
		t.Errorf("INBOX after the check = %v, %v; want the one mail", msgs, err)
	}
	if _, err := stack.MailboxMessages("games", "Processed"); err == nil {
		t.Error("the check created Processed")
	}
	if msgs, _ := stack.Messages("alice"); len(msgs) != 0 {
		t.Errorf("the check sent %d mails", len(msgs))
	}

	r = check("wrong", "right")
	if r.code != exitFailure || !strings.Contains(r.stderr, "imap: mailer: login: IMAP login rejected") ||
		!strings.Contains(r.stdout, "imap: FAILED") || !strings.Contains(r.stdout, "smtp: ok:") {
		t.Errorf("with a wrong IMAP password = code %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	r = check("right", "wrong")
	if r.code != exitFailure || !strings.Contains(r.stderr, "smtp: mailer: send (temporary, 535): SMTP login rejected") ||
		!strings.Contains(r.stdout, "imap: ok:") {
		t.Errorf("with a wrong SMTP password = code %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	// a section with problems is not tried
	t.Setenv("TAFLMAIL_SMTP_ADDR", "nohost")
	r = check("right", "right")
	if r.code != exitFailure || !strings.Contains(r.stdout, "smtp: not tried") || !strings.Contains(r.stdout, "imap: ok:") {
		t.Errorf("with a bad smtp.addr = code %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}
