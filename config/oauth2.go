package config

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Values of imap.auth and smtp.auth.
const (
	// AuthPassword logs in with the password (IMAP LOGIN, SMTP AUTH PLAIN).
	AuthPassword = "password"
	// AuthXOAUTH2 sends an OAuth2 access token with SASL XOAUTH2 (Gmail,
	// Microsoft 365).
	AuthXOAUTH2 = "xoauth2"
	// AuthOAuthBearer sends an OAuth2 access token with SASL OAUTHBEARER
	// (RFC 7628; Gmail).
	AuthOAuthBearer = "oauthbearer"
)

// TokenCommandTimeout bounds one run of an oauth2_token_command.
const TokenCommandTimeout = time.Minute

// maxTokenBytes bounds what a token command may print or a token file hold.
const maxTokenBytes = 64 << 10

// UsesOAuth2 reports whether imap.auth asks for an access token.
func (c IMAP) UsesOAuth2() bool { return isOAuth2(c.Auth) }

// UsesOAuth2 reports whether smtp.auth asks for an access token.
func (c SMTP) UsesOAuth2() bool { return isOAuth2(c.Auth) }

func isOAuth2(auth string) bool { return auth == AuthXOAUTH2 || auth == AuthOAuthBearer }

// Token returns the current OAuth2 access token for IMAP: what
// imap.oauth2_token_command prints on standard output, or what
// imap.oauth2_token_file holds, white space around it removed. It runs the
// command (with /bin/sh -c, at most [TokenCommandTimeout]) or reads the
// file anew at each call, so a tool that refreshes the token is followed
// without a restart. Errors are [*KeyError]s naming the key; they never
// hold the token.
func (c IMAP) Token(ctx context.Context) (string, error) {
	return oauth2Token(ctx, "imap", c.OAuth2TokenCommand, c.OAuth2TokenFile)
}

// Token returns the current OAuth2 access token for SMTP, from
// smtp.oauth2_token_command or smtp.oauth2_token_file, as [IMAP.Token]
// does.
func (c SMTP) Token(ctx context.Context) (string, error) {
	return oauth2Token(ctx, "smtp", c.OAuth2TokenCommand, c.OAuth2TokenFile)
}

func oauth2Token(ctx context.Context, section, command, file string) (string, error) {
	switch {
	case strings.TrimSpace(command) != "":
		key := section + ".oauth2_token_command"
		out, err := runTokenCommand(ctx, command)
		if err != nil {
			return "", &KeyError{Key: key, Problem: err.Error()}
		}
		return checkToken(key, out, "printed")
	case file != "":
		key := section + ".oauth2_token_file"
		text, err := readTokenFile(file)
		if err != nil {
			return "", &KeyError{Key: key, Problem: err.Error()}
		}
		return checkToken(key, text, "holds")
	}
	return "", &KeyError{Key: section + ".oauth2_token_command", Problem: "not set, nor " + section + ".oauth2_token_file"}
}

// runTokenCommand runs command with /bin/sh -c, standard input empty, and
// returns its standard output. A failure is described by the exit status
// and the last line of standard error. When ctx ends or the command takes
// longer than TokenCommandTimeout, the shell and its children are killed.
func runTokenCommand(ctx context.Context, command string) (string, error) {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, TokenCommandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	stdout := &cappedBuffer{max: maxTokenBytes}
	stderr := &cappedBuffer{max: 4 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// a child that keeps the pipes open must not keep us waiting
	cmd.WaitDelay = 5 * time.Second
	killGroupOnCancel(cmd)
	err := cmd.Run()
	switch {
	case parent.Err() != nil:
		return "", fmt.Errorf("stopped: %w", parent.Err())
	case ctx.Err() != nil:
		return "", fmt.Errorf("did not finish within %v", TokenCommandTimeout)
	case err != nil:
		if msg := lastLine(stderr.String()); msg != "" {
			return "", fmt.Errorf("%v: %s", err, msg)
		}
		return "", err
	case stdout.over:
		return "", fmt.Errorf("printed more than %d bytes", maxTokenBytes)
	}
	return stdout.String(), nil
}

// readTokenFile reads a token file of at most maxTokenBytes.
func readTokenFile(file string) (string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer f.Close()
	text, err := io.ReadAll(io.LimitReader(f, maxTokenBytes+1))
	if err != nil {
		return "", err
	}
	if len(text) > maxTokenBytes {
		return "", fmt.Errorf("%s holds more than %d bytes", file, maxTokenBytes)
	}
	return string(text), nil
}

// checkToken trims text and checks that it is a bearer token (RFC 6750
// §2.1: letters, digits and -._~+/ followed by any number of =), so that
// a command printing JSON or a message is caught here and not by the
// server. The problem text never holds the token.
func checkToken(key, text, verb string) (string, error) {
	token := strings.TrimSpace(text)
	if token == "" {
		return "", &KeyError{Key: key, Problem: verb + " no token"}
	}
	body := strings.TrimRight(token, "=")
	for i := 0; i < len(body); i++ {
		c := body[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~+/", c) >= 0) {
			return "", &KeyError{Key: key, Problem: verb + " something that is not an OAuth2 access token " +
				"(one word of letters, digits and -._~+/=, RFC 6750 §2.1); it must output the bare token"}
		}
	}
	return token, nil
}

// lastLine returns the last non-empty line of s, cut to 200 bytes.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	line := strings.TrimSpace(lines[len(lines)-1])
	if len(line) > 200 {
		line = line[:200] + "…"
	}
	return line
}

// cappedBuffer keeps the first max bytes written and notes that more came;
// it never fails a write, so a chatty command is not stopped by a full
// pipe. (It does not embed bytes.Buffer, whose ReadFrom io.Copy would use
// instead of Write.)
type cappedBuffer struct {
	buf  bytes.Buffer
	max  int
	over bool
}

// Write implements io.Writer.
func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); len(p) > room {
		b.over = true
		b.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.buf.Write(p)
}

// String returns what was kept.
func (b *cappedBuffer) String() string { return b.buf.String() }
