package mailer_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/mailer/devstack"
)

// deadAddr returns a loopback address where nothing listens.
func deadAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// silentAddr returns a loopback address that accepts connections and
// says nothing, as a TLS port does to a client waiting for a greeting.
func silentAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
		}
	}()
	return ln.Addr().String()
}

// TestDialErrors: a server that cannot be reached at start is not a "lost"
// connection, and a security setting that does not fit the port is named
// (trial report §9.2). IMAP errors still wrap ErrConnection, so that
// Reconnect retries them.
func TestDialErrors(t *testing.T) {
	s, err := devstack.Start("", map[string]string{"tafl": "pw"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	dead, silent := deadAddr(t), silentAddr(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	for _, tc := range []struct {
		name     string
		addr     string
		security string
		want     []string
	}{
		{"refused", dead, mailer.SecurityNone, []string{"mailer: dial: cannot connect to the IMAP server at " + dead + ": connection refused"}},
		{"TLS to a plain port", s.IMAPAddr(), mailer.SecurityTLS, []string{"the IMAP server at " + s.IMAPAddr() + " does not answer in TLS", "imap.security"}},
		{"plain to a silent port", silent, mailer.SecurityNone, []string{"no IMAP greeting from " + silent + " within 300ms", "imap.security", "tls"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mailer.DialInbox(ctx, mailer.IMAPConfig{Addr: tc.addr, Username: "tafl", Password: "pw", Security: tc.security, DialTimeout: 300 * time.Millisecond})
			if !errors.Is(err, mailer.ErrConnection) {
				t.Errorf("DialInbox = %v, want an error wrapping ErrConnection", err)
			}
			for _, w := range tc.want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("DialInbox = %v, want it to contain %q", err, w)
				}
			}
			if err != nil && strings.Contains(err.Error(), "connection lost") {
				t.Errorf("DialInbox = %v: a connection never made is not lost", err)
			}
		})
	}

	for _, tc := range []struct {
		name     string
		addr     string
		security string
		want     []string
	}{
		{"refused", dead, mailer.SecurityNone, []string{"cannot connect to the SMTP server at " + dead + ": connection refused"}},
		{"TLS to a plain port", s.SMTPAddr(), mailer.SecurityTLS, []string{"the SMTP server at " + s.SMTPAddr() + " does not answer in TLS", "smtp.security"}},
		{"plain to a silent port", silent, mailer.SecurityStartTLS, []string{"no SMTP greeting from " + silent, "smtp.security", "tls"}},
	} {
		t.Run("smtp "+tc.name, func(t *testing.T) {
			snd := mailer.NewSender(mailer.SMTPConfig{Addr: tc.addr, Security: tc.security, Timeout: 500 * time.Millisecond})
			err := snd.Send(ctx, "tafl@taflmail.test", []string{"tafl@taflmail.test"}, []byte("Subject: x\r\n\r\nx\r\n"))
			var se *mailer.SendError
			if !errors.As(err, &se) || !se.Temporary {
				t.Errorf("Send = %v, want a temporary SendError", err)
			}
			for _, w := range tc.want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("Send = %v, want it to contain %q", err, w)
				}
			}
		})
	}
}
