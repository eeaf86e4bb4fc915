package mailer

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync/atomic"
)

// maxGreetingBytes bounds the greeting line (and each line of the
// STARTTLS exchange) read before imapclient takes over.
const maxGreetingBytes = 4 << 10

// startTLSTag tags the STARTTLS command sent before imapclient takes over;
// imapclient's own tags start with "T".
const startTLSTag = "S0"

// plainIMAP reads the greeting of the IMAP server on conn, a connection
// without TLS, itself rather than leaving it to imapclient, and with
// SecurityStartTLS upgrades the connection: STARTTLS (RFC 9051 §6.2.1),
// then the TLS handshake. It returns the connection imapclient is to use,
// which first replays a greeting: the server's own for SecurityNone, a
// plain "* OK" without capabilities after STARTTLS, so that imapclient
// asks for them again over TLS as RFC 9051 §6.2.1 wants.
//
// imapclient.NewStartTLS sends STARTTLS before the greeting has come, so
// a port that speaks TLS from the first byte (993) took it for a broken
// TLS handshake and hung up, and the operator read "unexpected EOF"
// (issue 21 §3). Reading the greeting first tells that case apart: such
// a server sends nothing, and the error after dctx ends is the documented
// hint to set imap.security to "tls". A greeting that is a TLS record, or
// a server that hangs up before any greeting, gets the same hint.
//
// conn is closed by the caller when dctx ends; debug, when not nil,
// receives what is read and written.
func plainIMAP(dctx context.Context, conn net.Conn, cfg *IMAPConfig, tlsConfig *tls.Config, debug io.Writer) (net.Conn, error) {
	br := bufio.NewReaderSize(conn, maxGreetingBytes)
	noGreeting := func(err error) error {
		if dctx.Err() != nil {
			return greetingTimeout("IMAP", "imap", cfg.Addr, cfg.Security, cfg.DialTimeout, errors.Join(dctx.Err(), err))
		}
		return hungUp("IMAP", "imap", cfg.Addr, cfg.Security, err)
	}
	first, err := br.Peek(1)
	if err != nil {
		return nil, noGreeting(err)
	}
	if first[0] == recordTypeAlert || first[0] == recordTypeHandshake {
		return nil, answersInTLS("IMAP", "imap", cfg.Addr)
	}
	greeting, err := readLine(br, debug)
	if err != nil {
		return nil, noGreeting(err)
	}
	kind := strings.ToUpper(strings.SplitN(strings.TrimPrefix(greeting, "* "), " ", 2)[0])
	if !strings.HasPrefix(greeting, "* ") || kind != "OK" && kind != "PREAUTH" && kind != "BYE" {
		return nil, &connectError{msg: fmt.Sprintf("the server at %s is not an IMAP server: it greets with %q: check imap.addr", cfg.Addr, clip(greeting)), cause: errNotIMAP, imap: true}
	}
	if cfg.Security == SecurityNone {
		// the greeting and whatever came with it, as they came
		rest, _ := br.Peek(br.Buffered())
		return &replayConn{Conn: conn, r: io.MultiReader(strings.NewReader(greeting+"\r\n"), bytes.NewReader(bytes.Clone(rest)), conn)}, nil
	}
	switch kind {
	case "BYE":
		return nil, fmt.Errorf("%w: the IMAP server at %s refuses the connection: %s", ErrConnection, cfg.Addr, clip(greeting))
	case "PREAUTH":
		// RFC 9051 §7.1.4: a client doing STARTTLS must close a
		// connection that is authenticated before TLS.
		return nil, fmt.Errorf("%w: the IMAP server at %s sent PREAUTH on a connection without TLS", ErrConnection, cfg.Addr)
	}
	cmd := startTLSTag + " STARTTLS\r\n"
	if debug != nil {
		io.WriteString(debug, cmd)
	}
	if _, err := io.WriteString(conn, cmd); err != nil {
		return nil, fmt.Errorf("%w: STARTTLS: %v", ErrConnection, err)
	}
	for {
		line, err := readLine(br, debug)
		if err != nil {
			if dctx.Err() != nil {
				return nil, fmt.Errorf("%w: STARTTLS: no answer within %v", ErrConnection, cfg.DialTimeout)
			}
			return nil, fmt.Errorf("%w: STARTTLS: %v", ErrConnection, err)
		}
		tagged, ok := strings.CutPrefix(line, startTLSTag+" ")
		if !ok {
			continue // untagged data, such as a CAPABILITY response
		}
		if !strings.HasPrefix(strings.ToUpper(tagged), "OK") {
			return nil, fmt.Errorf("%w: the IMAP server at %s refuses STARTTLS (%s): check imap.security", ErrConfig, cfg.Addr, clip(tagged))
		}
		break
	}
	if br.Buffered() > 0 {
		// bytes sent before the handshake would be read as if they came
		// over TLS: a man in the middle injecting commands (CVE-2011-0411)
		return nil, fmt.Errorf("%w: the IMAP server at %s sent data after its STARTTLS answer, before TLS", ErrConnection, cfg.Addr)
	}
	tc := tls.Client(conn, tlsConfig)
	if err := tc.HandshakeContext(dctx); err != nil {
		if dctx.Err() != nil {
			return nil, fmt.Errorf("%w: TLS handshake after STARTTLS: %w", ErrConnection, dctx.Err())
		}
		return nil, dialFailure("IMAP", "imap", cfg.Addr, cfg.Security, err)
	}
	return &replayConn{Conn: tc, r: io.MultiReader(strings.NewReader("* OK TLS started\r\n"), tc)}, nil
}

// errNotIMAP is the cause of a greeting that is not IMAP's.
var errNotIMAP = errors.New("not an IMAP greeting")

// The first byte of a TLS record of type alert and handshake (RFC 8446
// §5.1): what a TLS server sends a client that speaks plain text to it.
const (
	recordTypeAlert     = 0x15
	recordTypeHandshake = 0x16
)

// readLine reads one line of at most maxGreetingBytes, without its line
// end, copying it to debug.
func readLine(br *bufio.Reader, debug io.Writer) (string, error) {
	line, err := br.ReadSlice('\n')
	if debug != nil && len(line) > 0 {
		debug.Write(line)
	}
	if errors.Is(err, bufio.ErrBufferFull) {
		return "", fmt.Errorf("a line longer than %d bytes", maxGreetingBytes)
	}
	if err != nil {
		return "", err
	}
	return strings.TrimRight(string(line), "\r\n"), nil
}

// clip shortens a server's line for an error message.
func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// replayConn is a connection whose reads first return bytes already read
// from it (the greeting), then the rest.
type replayConn struct {
	net.Conn
	r io.Reader
}

// Read implements net.Conn.
func (c *replayConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// saslConn is the connection imapclient writes to. While authenticating is
// set (during AUTHENTICATE) it writes a response line that is a lone "="
// as the empty line RFC 9051 §6.2.2 wants for an empty response.
//
// imapclient encodes every SASL response with the rule of RFC 4959 for an
// initial response, where "=" stands for an empty one; in a continuation
// that is not base64, and Dovecot answers "BAD Invalid base64 data in
// continued response" (emersion/go-imap#760, fixed upstream by PR #761,
// not released). XOAUTH2's answer to the server's error challenge is
// such an empty response, so a refused token showed that BAD line instead
// of the provider's NO (issue 21 §9). imapclient writes each response
// with one flush, so the line arrives here as one Write of exactly "=\r\n";
// the command line itself, which carries an initial response, never looks
// like that.
type saslConn struct {
	net.Conn
	authenticating atomic.Bool
}

// emptyInitialResponse is how imapclient writes an empty SASL response.
var emptyInitialResponse = []byte("=\r\n")

// Write implements net.Conn.
func (c *saslConn) Write(p []byte) (int, error) {
	if c.authenticating.Load() && bytes.Equal(p, emptyInitialResponse) {
		if _, err := c.Conn.Write(emptyInitialResponse[1:]); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return c.Conn.Write(p)
}
