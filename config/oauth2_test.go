package config_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/config"
)

// oauth2Config is minimal with both sections logging in by token.
func oauth2Config(imapSource, smtpSource string) string {
	return strings.NewReplacer(
		"imap:\n", "imap:\n  auth: xoauth2\n"+imapSource,
		"smtp:\n", "smtp:\n  auth: oauthbearer\n  username: games@example.org\n"+smtpSource,
	).Replace(minimal)
}

// TestOAuth2Token runs token commands and reads token files as serve
// would before each connection.
func TestOAuth2Token(t *testing.T) {
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	write := func(text string) {
		if err := os.WriteFile(tokenFile, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("ya29.first-token\n")
	c, err := load(t, writeFile(t, "taflmail.yaml", oauth2Config(
		"  oauth2_token_command: \"printf ' %s \\\\n' \\\"$(cat "+tokenFile+")\\\"\"\n",
		"  oauth2_token_file: "+tokenFile+"\n")))
	if err != nil {
		t.Fatalf("Load = %v", err)
	}
	if !c.IMAP.UsesOAuth2() || !c.SMTP.UsesOAuth2() {
		t.Fatalf("UsesOAuth2 = %v, %v; want true, true", c.IMAP.UsesOAuth2(), c.SMTP.UsesOAuth2())
	}
	ctx := context.Background()
	for round, want := range []string{"ya29.first-token", "eyJ0eXAi.second_token-="} {
		if round > 0 {
			write("  " + want + "\r\n") // the tool refreshed the token
		}
		if got, err := c.IMAP.Token(ctx); got != want || err != nil {
			t.Errorf("round %d: IMAP.Token (command) = %q, %v; want %q", round, got, err, want)
		}
		if got, err := c.SMTP.Token(ctx); got != want || err != nil {
			t.Errorf("round %d: SMTP.Token (file) = %q, %v; want %q", round, got, err, want)
		}
	}
}

// TestOAuth2TokenErrors: each failure names its key and never shows the
// token.
func TestOAuth2TokenErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, command, file, key, want string
	}{
		{"command fails", "echo 'Error: invalid_grant: token has been revoked' >&2; exit 3", "",
			"imap.oauth2_token_command", "exit status 3: Error: invalid_grant: token has been revoked"},
		{"no such command", "taflmail-no-such-token-tool", "",
			"imap.oauth2_token_command", "exit status 127: "},
		{"prints nothing", "true", "", "imap.oauth2_token_command", "printed no token"},
		{"prints JSON", `echo '{"access_token": "ya29.secret-in-json", "expires_in": 3599}'`, "",
			"imap.oauth2_token_command", "printed something that is not an OAuth2 access token"},
		{"prints too much", "yes ya29 | head -c 100000", "", "imap.oauth2_token_command", "printed more than 65536 bytes"},
		{"missing file", "", filepath.Join(dir, "missing"), "imap.oauth2_token_file", "no such file or directory"},
		{"empty file", "", writeFile(t, "empty", " \n"), "imap.oauth2_token_file", "holds no token"},
		{"two tokens in file", "", writeFile(t, "two", "ya29.secret-one\nya29.secret-two\n"),
			"imap.oauth2_token_file", "holds something that is not an OAuth2 access token"},
		{"no source", "", "", "imap.oauth2_token_command", "not set, nor imap.oauth2_token_file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := config.IMAP{Auth: config.AuthXOAUTH2, OAuth2TokenCommand: tc.command, OAuth2TokenFile: tc.file}
			token, err := c.Token(context.Background())
			var ke *config.KeyError
			if token != "" || !errors.As(err, &ke) || ke.Key != tc.key || !strings.Contains(ke.Problem, tc.want) {
				t.Fatalf("Token = %q, %v; want a *KeyError for %s containing %q", token, err, tc.key, tc.want)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("Token = %v: the error shows the token", err)
			}
		})
	}
}

// TestOAuth2TokenCancel: a command, and the children it started, are
// stopped when the caller gives up.
func TestOAuth2TokenCancel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	c := config.SMTP{Auth: config.AuthXOAUTH2, OAuth2TokenCommand: "sleep 30; echo late"}
	start := time.Now()
	_, err := c.Token(ctx)
	var ke *config.KeyError
	if !errors.As(err, &ke) || ke.Key != "smtp.oauth2_token_command" || !strings.Contains(ke.Problem, "stopped") {
		t.Errorf("Token = %v, want a *KeyError saying it was stopped", err)
	}
	if time.Since(start) > 4*time.Second { // before exec's WaitDelay of 5 s

		t.Errorf("Token took %v after its context ended", time.Since(start))
	}
}

// TestOAuth2LoadChecksTokenFile: Load reports a token file it cannot read,
// and does not run a token command.
func TestOAuth2LoadChecksTokenFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	marker := filepath.Join(t.TempDir(), "ran")
	_, err := load(t, writeFile(t, "taflmail.yaml", oauth2Config(
		"  oauth2_token_command: \"touch "+marker+"; echo tok\"\n",
		"  oauth2_token_file: "+missing+"\n")))
	if err == nil || !strings.Contains(err.Error(), "smtp.oauth2_token_file: open "+missing+": no such file or directory") {
		t.Errorf("Load = %v, want the missing token file named", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("Load ran the token command")
	}
}
