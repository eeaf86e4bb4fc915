package mailer

import (
	"bufio"
	"context"
	"encoding/base64"
	"errors"
	"net"
	"strings"
	"testing"
	"time"
)

// strictIMAP is a one-connection IMAP server on loopback that plays
// Dovecot's part in a refused token exchange: it answers AUTHENTICATE with
// the JSON error as a challenge, then checks the client's response as
// base64, as Dovecot's imap-login does, and ends the command with NO for
// a valid one and BAD ("Invalid base64 data in continued response") for
// one that is not. got receives the client's lines.
func strictIMAP(t *testing.T) (addr string, got <-chan []string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lines := make(chan []string, 1)
	go func() {
		defer ln.Close()
		conn, err := ln.Accept()
		if err != nil {
			lines <- nil
			return
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		var seen []string
		defer func() { lines <- seen }()
		br := bufio.NewReader(conn)
		write := func(s string) { conn.Write([]byte(s + "\r\n")) }
		write("* OK [CAPABILITY IMAP4rev1 SASL-IR AUTH=PLAIN AUTH=XOAUTH2 AUTH=OAUTHBEARER] Dovecot ready.")
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimRight(line, "\r\n")
			seen = append(seen, line)
			tag, rest, _ := strings.Cut(line, " ")
			switch {
			case strings.HasPrefix(strings.ToUpper(rest), "AUTHENTICATE "):
				write("+ " + base64.StdEncoding.EncodeToString([]byte(`{"status":"401","schemes":"bearer","scope":"mail"}`)))
				resp, err := br.ReadString('\n')
				if err != nil {
					return
				}
				resp = strings.TrimRight(resp, "\r\n")
				seen = append(seen, resp)
				if _, err := base64.StdEncoding.Strict().DecodeString(resp); err != nil || resp == "=" {
					write(tag + " BAD Invalid base64 data in continued response")
				} else {
					write(tag + " NO [AUTHENTICATIONFAILED] Authentication failed.")
				}
			case strings.EqualFold(rest, "LOGOUT"):
				write("* BYE Logging out")
				write(tag + " OK Logout completed.")
				return
			default:
				write(tag + " BAD Error in IMAP command")
			}
		}
	}()
	return ln.Addr().String(), lines
}

// TestInboxOAuth2RefusedStrict: a refused XOAUTH2 token, with a server as
// strict as Dovecot about the base64 of the client's answer to the error
// challenge, shows the server's NO line (issue 21 §9): the empty answer
// goes out as an empty line, not as the "=" go-imap writes
// (emersion/go-imap#760), which Dovecot refused with BAD. OAUTHBEARER
// answers with %x01 and was never affected.
func TestInboxOAuth2RefusedStrict(t *testing.T) {
	for _, tc := range []struct {
		auth, answer string
	}{{AuthXOAUTH2, ""}, {AuthOAuthBearer, "AQ=="}} {
		t.Run(tc.auth, func(t *testing.T) {
			addr, got := strictIMAP(t)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, err := DialInbox(ctx, IMAPConfig{Addr: addr, Username: "game@club.test", Security: SecurityNone, Auth: tc.auth,
				Token: func(context.Context) (string, error) { return "ya29.revoked", nil }})
			if !errors.Is(err, ErrAuth) || !strings.Contains(err.Error(), "NO [AUTHENTICATIONFAILED] Authentication failed.") ||
				!strings.Contains(err.Error(), `OAuth2 status "401"`) || strings.Contains(err.Error(), "BAD") {
				t.Errorf("DialInbox with a refused token = %v, want ErrAuth with the server's NO line and the OAuth2 status", err)
			}
			lines := <-got
			if len(lines) < 2 || lines[1] != tc.answer {
				t.Errorf("client wrote %q, want the answer %q after AUTHENTICATE", lines, tc.answer)
			}
		})
	}
}
