package mailer_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/mailer/devstack"
)

// boundarylessMail is the mail of the trial report §2, word for word: a
// multipart/mixed without a boundary parameter. go-imap's imapmemserver
// could not describe it and dropped the connection on FETCH BODYSTRUCTURE,
// which stopped the referee for good.
func boundarylessMail(to string) []byte {
	return []byte("From: carol@taflmail.test\r\n" +
		"To: " + to + "\r\n" +
		"Subject: mp\r\n" +
		"Message-ID: <mp2@x>\r\n" +
		"MIME-Version: 1.0\r\n" +
		"Content-Type: multipart/mixed\r\n" +
		"\r\n" +
		"--x\r\n" +
		"Content-Type: text/plain\r\n" +
		"\r\n" +
		"variants\r\n" +
		"--x--\r\n")
}

// testBoundarylessMultipart sends the mail of the trial report §2 between
// two good ones: Fetch must return all three (the bad one readable, with
// no text, as Dovecot describes it: a multipart with one empty part), and
// Done must move them all out.
func testBoundarylessMultipart(t *testing.T, e *mailEnv) {
	user := e.newUser(t)
	e.send(t, user, "first", "a1-a2")
	e.sendRaw(t, user, boundarylessMail(e.addr(user)))
	e.send(t, user, "third", "b1-b2")
	in := e.dial(t, e.imapConfig(user))
	msgs, _ := e.fetchUntil(t, in, 0, 0, 3)
	if len(msgs) != 3 {
		t.Fatalf("Fetch = %d messages, want 3", len(msgs))
	}
	// Postfix may deliver the three in any order.
	bySubject := map[string]*mailer.Message{}
	for _, m := range msgs {
		bySubject[m.Subject] = m
	}
	if a, b := bySubject["first"], bySubject["third"]; a == nil || b == nil || a.Reply != "a1-a2" || b.Reply != "b1-b2" {
		t.Errorf("good mails around the bad one: %+v and %+v, want replies a1-a2 and b1-b2", a, b)
	}
	m := bySubject["mp"]
	if m == nil {
		t.Fatalf("Fetch did not return the boundaryless mail (subject mp)")
	}
	if m.MessageID != "mp2@x" || m.ParseError != nil || m.Text != "" {
		t.Errorf("boundaryless mail: MessageID %q, ParseError %v, Text %q; want mp2@x, nil, empty",
			m.MessageID, m.ParseError, m.Text)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, m := range msgs {
		if err := in.Done(ctx, m.UID); err != nil {
			t.Fatalf("Done(%d) = %v", m.UID, err)
		}
	}
	if p := e.peek(t, user, "INBOX"); p.count != 0 {
		t.Errorf("after Done INBOX has %d messages, want 0", p.count)
	}
}

// TestFetchUnfetchableMessage makes the devstack fail every FETCH that
// reads one message (trial report §2: one mail the server cannot serve
// blocked the whole mailbox). Fetch is called as the referee's loop calls
// it — after an error wrapping ErrConnection it reconnects, and it rescans
// from UID 0 — and must, within a few rounds, return the mails around the
// bad one parsed, and the bad one with ParseError wrapping ErrUnfetchable,
// so the referee can record it and move it out with Done.
func TestFetchUnfetchableMessage(t *testing.T) {
	for _, drop := range []bool{false, true} {
		t.Run(fmt.Sprintf("drop=%v", drop), func(t *testing.T) {
			s, err := devstack.Start("", nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			if err := s.AddUser("tafl", "pw"); err != nil {
				t.Fatal(err)
			}
			for i, body := range []string{"a1-a2", "b1-b2", "c1-c2"} {
				raw := fmt.Sprintf("From: p%d@taflmail.test\r\nSubject: m%d\r\nMessage-ID: <m%d@p>\r\n\r\n%s\r\n", i, i, i, body)
				if err := s.Deliver("tafl", []byte(raw)); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.FailFetch("tafl", 2, drop); err != nil { // a fresh INBOX numbers its mails from UID 1
				t.Fatal(err)
			}
			var logs syncBuffer
			in := dialTafl(t, s, slog.New(slog.NewTextHandler(&logs, nil)))
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()

			var msgs []*mailer.Message
			failures := 0
			for round := 0; ; round++ {
				if round == 8 {
					t.Fatalf("Fetch still failing after %d rounds (%d failures); last log:\n%s", round, failures, logs.String())
				}
				var err error
				msgs, _, err = in.Fetch(ctx, 0, 0, 0)
				if err == nil {
					break
				}
				failures++
				if errors.Is(err, mailer.ErrConnection) {
					if err := in.Reconnect(ctx); err != nil {
						t.Fatalf("Reconnect = %v", err)
					}
				}
			}
			// One batch failure names no message; then three attempts
			// at the bad one, the last of which gives it up (on a
			// dropped connection only on the next Fetch).
			if maxFailures := 1 + mailer.MaxFetchAttempts; failures > maxFailures {
				t.Errorf("Fetch failed %d times before giving the message up, want at most %d", failures, maxFailures)
			}
			if len(msgs) != 3 {
				t.Fatalf("Fetch = %d messages, want 3", len(msgs))
			}
			if msgs[0].Reply != "a1-a2" || msgs[2].Reply != "c1-c2" {
				t.Errorf("good mails read %q and %q, want a1-a2 and c1-c2", msgs[0].Reply, msgs[2].Reply)
			}
			bad := msgs[1]
			if bad.UID != 2 || !errors.Is(bad.ParseError, mailer.ErrUnfetchable) || !bad.Synthetic ||
				!strings.HasPrefix(bad.MessageID, "sha256:") || bad.Mailbox != "INBOX" || bad.UIDValidity == 0 {
				t.Errorf("unfetchable message = UID %d, ParseError %v, Synthetic %v, MessageID %q, Mailbox %q, UIDValidity %d",
					bad.UID, bad.ParseError, bad.Synthetic, bad.MessageID, bad.Mailbox, bad.UIDValidity)
			}
			log := logs.String()
			if !strings.Contains(log, "uid=2") || !strings.Contains(log, "attempt=1") ||
				!strings.Contains(log, fmt.Sprintf("attempt=%d", mailer.MaxFetchAttempts)) {
				t.Errorf("log lacks the failed attempts at UID 2:\n%s", log)
			}

			// Given up, the message is not fetched again: the next Fetch
			// returns it at once, without a failure, until Done moves it.
			again, _, err := in.Fetch(ctx, 0, 0, 0)
			if err != nil || len(again) != 3 || !errors.Is(again[1].ParseError, mailer.ErrUnfetchable) {
				t.Fatalf("Fetch after giving up = %d messages, %v; want 3, the second unfetchable", len(again), err)
			}
			for _, m := range msgs {
				if err := in.Done(ctx, m.UID); err != nil {
					t.Fatalf("Done(%d) = %v", m.UID, err)
				}
			}
			if err := s.FailFetch("tafl", 0, false); err != nil {
				t.Fatal(err)
			}
			// A later mail is fetched as usual.
			if err := s.Deliver("tafl", []byte("From: p@taflmail.test\r\nSubject: later\r\n\r\nd1-d2\r\n")); err != nil {
				t.Fatal(err)
			}
			later, _, err := in.Fetch(ctx, 0, 0, 0)
			if err != nil || len(later) != 1 || later[0].Reply != "d1-d2" || later[0].ParseError != nil {
				t.Fatalf("Fetch of a later mail = %d messages, %v", len(later), err)
			}
		})
	}
}

// dialTafl logs in to the devstack as tafl (password pw) with log.
func dialTafl(t *testing.T, s *devstack.Stack, log *slog.Logger) *mailer.Inbox {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	in, err := mailer.DialInbox(ctx, mailer.IMAPConfig{
		Addr: s.IMAPAddr(), Username: "tafl", Password: "pw", Security: mailer.SecurityNone,
		ReconnectMinDelay: 10 * time.Millisecond, ReconnectMaxDelay: 50 * time.Millisecond, Logger: log,
	})
	if err != nil {
		t.Fatalf("DialInbox = %v", err)
	}
	t.Cleanup(func() { in.Close() })
	return in
}
