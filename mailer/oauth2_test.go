package mailer_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/mailer/devstack"
)

// tokenSource is a TokenFunc whose token the test changes, counting calls.
type tokenSource struct {
	mu    sync.Mutex
	token string
	err   error
	calls int
}

func (ts *tokenSource) set(token string) {
	ts.mu.Lock()
	ts.token = token
	ts.mu.Unlock()
}

func (ts *tokenSource) get(context.Context) (string, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.calls++
	return ts.token, ts.err
}

func (ts *tokenSource) count() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.calls
}

// syncBuffer is a bytes.Buffer that a writer on another goroutine (a
// client's Debug trace, a logger) and the test may use at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestInboxOAuth2 logs in to the devstack's IMAP server with an access
// token by XOAUTH2 and by OAUTHBEARER: accepted, read anew at a reconnect
// (after the server has moved on to a new token), and rejected.
func TestInboxOAuth2(t *testing.T) {
	for _, auth := range []string{mailer.AuthXOAUTH2, mailer.AuthOAuthBearer} {
		t.Run(auth, func(t *testing.T) {
			s, err := devstack.StartOptions(devstack.Options{
				Users:  map[string]string{"tafl": "password-unused"},
				Tokens: map[string]string{"tafl": "token-1"},
			})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			ts := &tokenSource{token: "token-1"}
			var trace syncBuffer
			cfg := mailer.IMAPConfig{Addr: s.IMAPAddr(), Username: "tafl", Security: mailer.SecurityNone,
				Auth: auth, Token: ts.get, Debug: &trace}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()

			in, err := mailer.DialInbox(ctx, cfg)
			if err != nil {
				t.Fatalf("DialInbox with a good token = %v", err)
			}
			defer in.Close()
			mech := strings.ToUpper(auth)
			if tr := trace.String(); !strings.Contains(tr, " AUTHENTICATE "+mech) || strings.Contains(tr, " LOGIN ") {
				t.Errorf("trace does not show AUTHENTICATE %s without LOGIN:\n%s", mech, tr)
			}
			if err := s.Deliver("tafl", []byte("From: a@player.test\r\nSubject: hi\r\nMessage-ID: <1@player.test>\r\n\r\nd1-d3\r\n")); err != nil {
				t.Fatal(err)
			}
			if msgs, _, err := in.Fetch(ctx, 0, 0, 1<<20); err != nil || len(msgs) != 1 {
				t.Fatalf("Fetch after a token log-in = %d messages, %v; want 1, nil", len(msgs), err)
			}

			// the provider issues a new token and the old one expires:
			// the reconnect reads the new one
			if err := s.SetToken("tafl", "token-2"); err != nil {
				t.Fatal(err)
			}
			ts.set("token-2")
			in.BreakConnection()
			if err := in.Reconnect(ctx); err != nil {
				t.Fatalf("Reconnect with the new token = %v", err)
			}
			if n := ts.count(); n != 2 {
				t.Errorf("Token called %d times for two connections, want 2", n)
			}

			// the old token is refused
			ts.set("token-1")
			_, err = mailer.DialInbox(ctx, cfg)
			if !errors.Is(err, mailer.ErrAuth) || errors.Is(err, mailer.ErrConnection) {
				t.Fatalf("DialInbox with an expired token = %v, want ErrAuth", err)
			}
			if strings.Contains(err.Error(), "token-1") || !strings.Contains(err.Error(), mech+" rejected") {
				t.Errorf("DialInbox = %q: want it to name the rejected mechanism, not the token", err)
			}
		})
	}
}

// TestInboxOAuth2TokenError: a token that cannot be had fails the dial
// with that error, before any connection, and is neither ErrAuth nor
// ErrConnection.
func TestInboxOAuth2TokenError(t *testing.T) {
	s, err := devstack.Start("", map[string]string{"tafl": "pw"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	errCmd := errors.New("imap.oauth2_token_command: exit status 1")
	ts := &tokenSource{err: errCmd}
	var trace syncBuffer
	_, err = mailer.DialInbox(context.Background(), mailer.IMAPConfig{Addr: s.IMAPAddr(), Username: "tafl",
		Security: mailer.SecurityNone, Auth: mailer.AuthXOAUTH2, Token: ts.get, Debug: &trace})
	if !errors.Is(err, errCmd) || errors.Is(err, mailer.ErrAuth) || errors.Is(err, mailer.ErrConnection) {
		t.Errorf("DialInbox = %v, want the token's error alone", err)
	}
	if trace.String() != "" {
		t.Errorf("DialInbox connected although it had no token:\n%s", trace.String())
	}
}

// TestSendOAuth2 sends through the devstack's SMTP server with a token by
// XOAUTH2 and OAUTHBEARER, and has a wrong token refused.
func TestSendOAuth2(t *testing.T) {
	for _, auth := range []string{mailer.AuthXOAUTH2, mailer.AuthOAuthBearer} {
		t.Run(auth, func(t *testing.T) {
			s, err := devstack.StartOptions(devstack.Options{
				Users:  map[string]string{"tafl": "pw", "alice": "pw"},
				Tokens: map[string]string{"tafl": "good-token"},
			})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			ts := &tokenSource{token: "good-token"}
			var trace syncBuffer
			sender := mailer.NewSender(mailer.SMTPConfig{Addr: s.SMTPAddr(), Security: mailer.SecurityNone,
				Username: s.Address("tafl"), Auth: auth, Token: ts.get, Timeout: 10 * time.Second, Debug: &trace})
			raw := []byte("From: tafl@taflmail.test\r\nSubject: your move\r\nMessage-ID: <r1@taflmail.test>\r\n\r\nboard\r\n")
			ctx := context.Background()
			if err := sender.Send(ctx, s.Address("tafl"), []string{s.Address("alice")}, raw); err != nil {
				t.Fatalf("Send with a good token = %v", err)
			}
			if msgs, err := s.Messages("alice"); err != nil || len(msgs) != 1 || msgs[0].MessageID != "r1@taflmail.test" {
				t.Errorf("alice's INBOX = %v, %v; want the one mail", msgs, err)
			}
			if !strings.Contains(trace.String(), "AUTH "+strings.ToUpper(auth)+" ") {
				t.Errorf("trace does not show AUTH %s:\n%s", strings.ToUpper(auth), trace.String())
			}

			ts.set("forged-token")
			err = sender.Send(ctx, s.Address("tafl"), []string{s.Address("alice")}, raw)
			var se *mailer.SendError
			if !errors.As(err, &se) || !se.Temporary || se.Code != 535 {
				t.Fatalf("Send with a wrong token = %v, want a temporary *SendError with code 535", err)
			}
			if strings.Contains(err.Error(), "forged-token") {
				t.Errorf("Send = %q shows the token", err)
			}
			if n := ts.count(); n != 2 {
				t.Errorf("Token called %d times for two mails, want 2", n)
			}
			if msgs, _ := s.Messages("alice"); len(msgs) != 1 {
				t.Errorf("alice has %d mails after the refused one, want 1", len(msgs))
			}
		})
	}
}

// TestInboxStatus: Status tells a health check what the Inbox knows: a
// log-in, a poll, a broken session, a log-in the server rejected (as
// after a revoked token), a reconnect and the end.
func TestInboxStatus(t *testing.T) {
	s, err := devstack.StartOptions(devstack.Options{
		Users:  map[string]string{"tafl": "password-unused"},
		Tokens: map[string]string{"tafl": "token-1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ts := &tokenSource{token: "token-1"}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	in, err := mailer.DialInbox(ctx, mailer.IMAPConfig{Addr: s.IMAPAddr(), Username: "tafl", Security: mailer.SecurityNone,
		Auth: mailer.AuthXOAUTH2, Token: ts.get})
	if err != nil {
		t.Fatalf("DialInbox = %v", err)
	}
	defer in.Close()
	st := in.Status()
	if !st.LoggedIn || st.LastLogin.IsZero() || !st.LastPoll.IsZero() || st.Reconnects != 0 || st.LastError != "" {
		t.Errorf("Status after DialInbox = %+v", st)
	}
	if _, _, err := in.Fetch(ctx, 0, 0, 0); err != nil {
		t.Fatal(err)
	}
	if st := in.Status(); st.LastPoll.Before(st.LastLogin) {
		t.Errorf("Status after Fetch = %+v, want LastPoll set", st)
	}

	// the token is revoked while the connection breaks
	if err := s.SetToken("tafl", "token-2"); err != nil {
		t.Fatal(err)
	}
	in.BreakConnection()
	if _, _, err := in.Fetch(ctx, 0, 0, 0); !errors.Is(err, mailer.ErrConnection) {
		t.Fatalf("Fetch on a broken session = %v", err)
	}
	if st := in.Status(); st.LoggedIn || st.LastError == "" {
		t.Errorf("Status after a broken Fetch = %+v, want logged out with the error", st)
	}
	if err := in.Reconnect(ctx); !errors.Is(err, mailer.ErrAuth) {
		t.Fatalf("Reconnect with a revoked token = %v, want ErrAuth", err)
	}
	if err := in.Reconnect(ctx); !errors.Is(err, mailer.ErrAuth) {
		t.Fatalf("Reconnect with a revoked token = %v, want ErrAuth", err)
	}
	if st := in.Status(); st.LoggedIn || st.LoginRejections != 2 || !strings.Contains(st.LastError, "XOAUTH2 rejected") {
		t.Errorf("Status after two rejected log-ins = %+v", st)
	}

	// the operator's tool hands out the new token
	ts.set("token-2")
	if err := in.Reconnect(ctx); err != nil {
		t.Fatalf("Reconnect with the new token = %v", err)
	}
	if st := in.Status(); !st.LoggedIn || st.LoginRejections != 0 || st.Reconnects != 1 || st.LastError != "" {
		t.Errorf("Status after the reconnect = %+v", st)
	}
	in.Close()
	if st := in.Status(); st.LoggedIn {
		t.Errorf("Status after Close = %+v, want logged out", st)
	}
}

// tokenEndpoint is an OAuth2 token introspection endpoint (RFC 7662) for
// Dovecot's oauth2 passdb of scripts/mailstack-up.sh: a POST of
// token=… is answered {"active": true, "username": …} for a token of
// tokens, {"active": false} for any other.
type tokenEndpoint struct {
	mu     sync.Mutex
	tokens map[string]string // token → user
	asked  int
}

func (te *tokenEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil || r.Method != http.MethodPost {
		http.Error(w, "want a form POST", http.StatusBadRequest)
		return
	}
	te.mu.Lock()
	te.asked++
	user, ok := te.tokens[r.PostForm.Get("token")]
	te.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if !ok {
		fmt.Fprint(w, `{"active": false}`)
		return
	}
	fmt.Fprintf(w, `{"active": true, "username": %q}`, user)
}

// TestInboxOAuth2Mailstack logs in to Dovecot with tokens that its oauth2
// passdb checks at a local token endpoint (MAILSTACK_OAUTH2_ADDR): a good
// token by XOAUTH2 and OAUTHBEARER is accepted, and a refused one shows
// Dovecot's NO line, for XOAUTH2 too (issue 21 §9: go-imap's "=" for the
// empty answer got "BAD Invalid base64 data in continued response",
// emersion/go-imap#760).
func TestInboxOAuth2Mailstack(t *testing.T) {
	e := mailstackEnv(t)
	addr := os.Getenv("MAILSTACK_OAUTH2_ADDR")
	if addr == "" {
		msg := "MAILSTACK_OAUTH2_ADDR not set: a mail stack from an older scripts/mailstack-up.sh"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("the token endpoint cannot listen on %s: %v", addr, err)
	}
	user := e.newUser(t)
	te := &tokenEndpoint{tokens: map[string]string{"ya29.good-" + user: user}}
	srv := &http.Server{Handler: te, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, auth := range []string{mailer.AuthXOAUTH2, mailer.AuthOAuthBearer} {
		t.Run(auth, func(t *testing.T) {
			cfg := e.imapConfig(user)
			cfg.Password, cfg.Auth = "", auth
			cfg.Token = func(context.Context) (string, error) { return "ya29.good-" + user, nil }
			in, err := mailer.DialInbox(ctx, cfg)
			if err != nil {
				t.Fatalf("DialInbox with a good token = %v", err)
			}
			if _, _, err := in.Fetch(ctx, 0, 0, 0); err != nil {
				t.Errorf("Fetch after a token log-in = %v", err)
			}
			in.Close()

			cfg.Token = func(context.Context) (string, error) { return "ya29.revoked", nil }
			_, err = mailer.DialInbox(ctx, cfg)
			if !errors.Is(err, mailer.ErrAuth) || !strings.Contains(err.Error(), strings.ToUpper(auth)+" rejected: NO") ||
				strings.Contains(err.Error(), "BAD") || strings.Contains(err.Error(), "ya29.") {
				t.Errorf("DialInbox with a refused token = %v, want ErrAuth with Dovecot's NO line", err)
			}
		})
	}
	te.mu.Lock()
	defer te.mu.Unlock()
	if te.asked < 4 {
		t.Errorf("Dovecot asked the token endpoint %d times, want at least 4", te.asked)
	}
}
