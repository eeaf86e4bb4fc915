package mailer

import (
	"context"
	"encoding/base64"
	"errors"
	"net"
	"strings"
	"testing"
)

// TestSendOAuth2Transcript compares what the Sender writes for XOAUTH2 and
// OAUTHBEARER with the wire format of Google's XOAUTH2 description and RFC
// 7628 §3.1, for an accepted and a rejected token.
func TestSendOAuth2Transcript(t *testing.T) {
	const token = "ya29.vF9dft4qmTc2Nvb3RlckBhdHRhdmlzdGEuY29tCg"
	b64 := base64.StdEncoding.EncodeToString
	// the JSON error Google documents for a rejected XOAUTH2 token
	rejection := "334 " + b64([]byte(`{"status":"401","schemes":"bearer","scope":"https://mail.google.com/"}`))
	tests := []struct {
		name, auth string
		replies    map[string]string
		wantAuth   func(port string) []string // the client's lines from AUTH on
		rejected   bool
	}{
		{"xoauth2", AuthXOAUTH2, map[string]string{"AUTH": "235 2.7.0 accepted"},
			func(string) []string {
				return []string{"AUTH XOAUTH2 " + b64([]byte("user=game@taflmail.test\x01auth=Bearer "+token+"\x01\x01"))}
			}, false},
		{"oauthbearer", AuthOAuthBearer, map[string]string{"AUTH": "235 2.7.0 accepted"},
			func(port string) []string {
				return []string{"AUTH OAUTHBEARER " + b64([]byte("n,a=game@taflmail.test,\x01host=127.0.0.1\x01port="+port+"\x01auth=Bearer "+token+"\x01\x01"))}
			}, false},
		// the client ends a rejected exchange with an empty response, so
		// the server says 535
		{"xoauth2 rejected", AuthXOAUTH2, map[string]string{"AUTH": rejection, "": "535 5.7.8 Username and Password not accepted"},
			func(string) []string {
				return []string{"AUTH XOAUTH2 " + b64([]byte("user=game@taflmail.test\x01auth=Bearer "+token+"\x01\x01")), ""}
			}, true},
		// … and for OAUTHBEARER with %x01 (RFC 7628 §3.2.3)
		{"oauthbearer rejected", AuthOAuthBearer, map[string]string{"AUTH": rejection, "AQ==": "535 5.7.8 invalid token"},
			func(port string) []string {
				return []string{"AUTH OAUTHBEARER " + b64([]byte("n,a=game@taflmail.test,\x01host=127.0.0.1\x01port="+port+"\x01auth=Bearer "+token+"\x01\x01")), "AQ=="}
			}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			replies := map[string]string{"EHLO": "250-mx.test\n250 AUTH PLAIN LOGIN XOAUTH2 OAUTHBEARER", "DATA": "354 go ahead", ".": "250 queued", "QUIT": "221 bye"}
			for k, v := range tt.replies {
				replies[k] = v
			}
			srv := startScripted(t, "220 mx.test ESMTP", replies)
			_, port, _ := net.SplitHostPort(srv.addr)
			calls := 0
			s := NewSender(SMTPConfig{Addr: srv.addr, Security: SecurityNone, Username: "game@taflmail.test", Auth: tt.auth,
				Token: func(context.Context) (string, error) { calls++; return token, nil }})
			err := s.Send(context.Background(), "game@taflmail.test", []string{"a@example.org"}, []byte("Subject: x\r\n\r\nx\r\n"))
			got := <-srv.got
			if len(got) < 2 {
				t.Fatalf("client wrote %q", got)
			}
			want := tt.wantAuth(port)
			if gotAuth := got[1:min(len(got), 1+len(want))]; strings.Join(gotAuth, "\n") != strings.Join(want, "\n") {
				t.Errorf("client wrote after EHLO:\n%q\nwant:\n%q", gotAuth, want)
			}
			if calls != 1 {
				t.Errorf("Token called %d times, want 1", calls)
			}
			if !tt.rejected {
				if err != nil {
					t.Errorf("Send = %v", err)
				}
				return
			}
			var se *SendError
			if !errors.As(err, &se) || !se.Temporary || se.Code != 535 {
				t.Fatalf("Send = %v, want a temporary *SendError with code 535", err)
			}
			if strings.Contains(err.Error(), token) || !strings.Contains(err.Error(), "OAuth2 token rejected") {
				t.Errorf("Send = %q: want it to say the token was rejected, without the token", err)
			}
			if tt.auth == AuthXOAUTH2 && !strings.Contains(err.Error(), `OAuth2 status "401"`) {
				t.Errorf("Send = %q, want the server's OAuth2 status in it", err)
			}
		})
	}
}

// TestSendOAuth2Errors: a token that cannot be had is temporary; a server
// without the mechanism, or a Sender without Token, is a permanent
// configuration error.
func TestSendOAuth2Errors(t *testing.T) {
	errNoToken := errors.New("smtp.oauth2_token_command: exit status 1")
	tests := []struct {
		name      string
		ehlo      string
		cfg       SMTPConfig
		temporary bool
		is        error
	}{
		{"token fails", "250 AUTH XOAUTH2", SMTPConfig{Auth: AuthXOAUTH2, Username: "u",
			Token: func(context.Context) (string, error) { return "", errNoToken }}, true, errNoToken},
		{"not offered", "250 AUTH PLAIN", SMTPConfig{Auth: AuthOAuthBearer, Username: "u",
			Token: func(context.Context) (string, error) { return "t", nil }}, false, ErrConfig},
		{"no token func", "250 AUTH XOAUTH2", SMTPConfig{Auth: AuthXOAUTH2, Username: "u"}, false, ErrConfig},
		{"no username", "250 AUTH XOAUTH2", SMTPConfig{Auth: AuthXOAUTH2,
			Token: func(context.Context) (string, error) { return "t", nil }}, false, ErrConfig},
		{"unknown auth", "250 AUTH XOAUTH2", SMTPConfig{Auth: "cram-md5", Username: "u", Password: "p"}, false, ErrConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := startScripted(t, "220 mx.test", map[string]string{"EHLO": "250-mx.test\n" + tt.ehlo})
			cfg := tt.cfg
			cfg.Addr, cfg.Security = srv.addr, SecurityNone
			err := NewSender(cfg).Send(context.Background(), "a@x.test", []string{"b@x.test"}, []byte("Subject: x\r\n\r\nx\r\n"))
			var se *SendError
			if !errors.As(err, &se) || se.Temporary != tt.temporary || !errors.Is(err, tt.is) {
				t.Errorf("Send = %v, want a *SendError with Temporary %v wrapping %v", err, tt.temporary, tt.is)
			}
		})
	}
}
