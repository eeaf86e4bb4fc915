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

// TestServeOAuth2 runs serve against the devstack with OAuth2 tokens from a
// command (IMAP, XOAUTH2) and a file (SMTP, OAUTHBEARER): a player's mail
// is answered, and after the token is renewed the next one is too.
func TestServeOAuth2(t *testing.T) {
	stack, err := devstack.StartOptions(devstack.Options{
		Users:  map[string]string{"games": "not-used", "alice": "pw"},
		Tokens: map[string]string{"games": "ya29.token-1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stack.Close()
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte("ya29.token-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	file := writeConfig(t, fmt.Sprintf(`imap:
  addr: %q
  username: games
  auth: xoauth2
  oauth2_token_command: "cat %s"
  security: none
  processed_mailbox: ""
smtp:
  addr: %q
  username: games@taflmail.test
  auth: oauthbearer
  oauth2_token_file: %q
  security: none
archive:
  path: %q
  records_dir: ""
server:
  address: games@taflmail.test
`, stack.IMAPAddr(), tokenFile, stack.SMTPAddr(), tokenFile, filepath.Join(dir, "taflmail.db")))
	cfg, err := loadConfig(nil, file)
	if err != nil {
		t.Fatalf("loadConfig = %v", err)
	}
	var logs bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, slog.New(slog.NewTextHandler(&logs, nil))) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve = %v", err)
		}
		if strings.Contains(logs.String(), "ya29.") {
			t.Errorf("the log shows a token:\n%s", logs.String())
		}
	}()

	ask := func(n int) {
		t.Helper()
		mail := fmt.Sprintf("From: alice@taflmail.test\r\nTo: games@taflmail.test\r\nSubject: help\r\nMessage-ID: <help-%d@taflmail.test>\r\n\r\nhelp\r\n", n)
		if err := stack.Deliver("games", []byte(mail)); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(15 * time.Second)
		for {
			msgs, err := stack.Messages("alice")
			if err != nil {
				t.Fatal(err)
			}
			if len(msgs) == n {
				if want := fmt.Sprintf("help-%d@taflmail.test", n); msgs[n-1].InReplyTo != want {
					t.Errorf("reply %d answers %q, want %q", n, msgs[n-1].InReplyTo, want)
				}
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("alice has %d replies after 15 s, want %d; log:\n%s", len(msgs), n, logs.String())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	ask(1)
	// processed_mailbox "" is the default mailbox, Processed
	// (docs/configuration.md).
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		done, err := stack.MailboxMessages("games", "Processed")
		if err == nil && len(done) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Processed holds %d mails (%v) after 10 s, want the handled one", len(done), err)
		}
	}
	// the provider's token expires and the operator's tool writes a new one
	if err := stack.SetToken("games", "ya29.token-2"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tokenFile, []byte("ya29.token-2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ask(2)
}

// TestConfigCheckOAuth2: config check gets each token once, never prints
// it, and names the key of a token command that fails.
func TestConfigCheckOAuth2(t *testing.T) {
	dir := t.TempDir()
	tokenFile, ran := filepath.Join(dir, "token"), filepath.Join(dir, "ran")
	if err := os.WriteFile(tokenFile, []byte("ya29.Secret-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	oauth := func(command string) string {
		return `imap:
  addr: imap.example.org:993
  username: games@example.org
  auth: xoauth2
  oauth2_token_command: '` + command + `'
smtp:
  addr: smtp.example.org:465
  username: games@example.org
  auth: oauthbearer
  oauth2_token_file: ` + tokenFile + `
archive:
  path: /var/lib/taflmail/taflmail.db
server:
  address: games@example.org
`
	}
	r := run(t, "config", "check", "--config", writeConfig(t, oauth("touch "+ran+"; cat "+tokenFile)))
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("config check = code %d, stderr %q\n%s", r.code, r.stderr, r.stdout)
	}
	if strings.Contains(r.stdout, "Secret") || !strings.Contains(r.stdout, "  auth: \"xoauth2\"\n") {
		t.Errorf("config check output:\n%s", r.stdout)
	}
	if _, err := os.Stat(ran); err != nil {
		t.Errorf("config check did not run the token command: %v", err)
	}

	r = run(t, "config", "check", "--config", writeConfig(t, oauth("echo invalid_grant >&2; exit 2")))
	want := "taflmail: configuration: 1 problem:\nimap.oauth2_token_command: exit status 2: invalid_grant\n"
	if r.code != exitFailure || r.stderr != want {
		t.Errorf("config check with a failing command = code %d, stderr %q; want 1, %q", r.code, r.stderr, want)
	}
}
