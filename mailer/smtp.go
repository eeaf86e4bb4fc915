package mailer

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Security values for [SMTPConfig] and [IMAPConfig].
const (
	// SecurityNone is a plain TCP connection; passwords are then only sent
	// to loopback addresses.
	SecurityNone = "none"
	// SecurityStartTLS upgrades a plain connection with STARTTLS (RFC 3207,
	// RFC 9051 §6.2.1) and fails if the server does not offer it.
	SecurityStartTLS = "starttls"
	// SecurityTLS is implicit TLS from the first byte (ports 465, 993).
	SecurityTLS = "tls"
)

// DefaultSMTPTimeout bounds one [Sender.Send] when SMTPConfig.Timeout is 0.
const DefaultSMTPTimeout = time.Minute

// SMTPConfig says how to reach the relay that takes the referee's replies.
// The zero value of every field but Addr is usable.
type SMTPConfig struct {
	// Addr is the relay's host:port, e.g. "smtp.example.org:587".
	Addr string
	// Username and Password enable AUTH PLAIN (RFC 4616) when Username is
	// not empty. With OAuth2 Username is the account the token is for, and
	// Password is not used.
	Username, Password string
	// Auth is AuthPassword (AUTH PLAIN; empty means the same), AuthXOAUTH2
	// or AuthOAuthBearer (AUTH with the access token of Token; Username
	// must then be set).
	Auth string
	// Token returns the access token for AuthXOAUTH2 and AuthOAuthBearer;
	// it is called before each connection, that is for each Send.
	Token TokenFunc
	// Security is SecurityNone, SecurityStartTLS or SecurityTLS; empty means
	// SecurityStartTLS.
	Security string
	// HeloName is the name given in EHLO; empty means "localhost".
	HeloName string
	// Timeout bounds one Send from dial to QUIT, and each reply within it;
	// 0 means DefaultSMTPTimeout.
	Timeout time.Duration
	// TLSConfig is used for STARTTLS and implicit TLS, e.g. to trust a
	// private CA; nil means the system roots and the host of Addr.
	TLSConfig *tls.Config
	// Debug, when set, receives the raw SMTP conversation, credentials
	// included.
	Debug io.Writer
}

// Sender sends raw messages over SMTP, one connection per message. It is
// safe for concurrent use.
type Sender struct {
	cfg SMTPConfig
}

// NewSender returns a Sender for cfg. It does not connect; configuration
// errors show up as permanent [*SendError]s from Send.
func NewSender(cfg SMTPConfig) *Sender {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultSMTPTimeout
	}
	if cfg.HeloName == "" {
		cfg.HeloName = "localhost"
	}
	if cfg.Security == "" {
		cfg.Security = SecurityStartTLS
	}
	return &Sender{cfg: cfg}
}

// SendError is the error of [Sender.Send]. Temporary tells the caller
// whether trying again later may help: 4xx replies and network trouble are
// temporary, 5xx replies and configuration mistakes are not. With OAuth2 a
// failure to get a token and a rejected token are temporary too: the token
// may have expired between the tool that made it and its use, and the next
// Send asks for a fresh one.
type SendError struct {
	// Temporary reports that a retry may succeed.
	Temporary bool
	// Code is the SMTP reply code (RFC 5321 §4.2), 0 when the server gave
	// none (network error, configuration error).
	Code int
	// EnhancedCode is the RFC 3463 status, e.g. "5.1.1", when the server
	// gave one.
	EnhancedCode string
	// Err is the underlying error.
	Err error
}

// Error implements error.
func (e *SendError) Error() string {
	kind := "permanent"
	if e.Temporary {
		kind = "temporary"
	}
	if e.Code != 0 {
		return fmt.Sprintf("mailer: send (%s, %d): %v", kind, e.Code, e.Err)
	}
	return fmt.Sprintf("mailer: send (%s): %v", kind, e.Err)
}

// Unwrap returns Err.
func (e *SendError) Unwrap() error { return e.Err }

// Send delivers raw (an RFC 5322 message, e.g. from [Outgoing.Bytes]) to the
// relay with envelope sender from and recipients to. It gets an OAuth2 token
// if configured, dials, says EHLO, does STARTTLS and AUTH (PLAIN, XOAUTH2
// or OAUTHBEARER) as configured, sends MAIL, RCPT for each
// recipient, DATA and QUIT. The first rejected recipient aborts the
// transaction, so either all recipients were accepted or the mail was not
// sent.
//
// Every error is a [*SendError]. When ctx ends, the connection is closed
// and the error (temporary) wraps ctx.Err().
func (s *Sender) Send(ctx context.Context, from string, to []string, raw []byte) error {
	if len(to) == 0 {
		return &SendError{Err: errors.New("no recipients")}
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()

	mech, err := oauthMechanism(s.cfg.Auth)
	if err != nil {
		return &SendError{Err: fmt.Errorf("%w: SMTP: %v", errConfig, err)}
	}
	var token string
	if mech != "" {
		if s.cfg.Token == nil || s.cfg.Username == "" {
			return &SendError{Err: fmt.Errorf("%w: SMTP authentication %s needs a Username and a Token function", errConfig, s.cfg.Auth)}
		}
		if token, err = s.cfg.Token(ctx); err != nil {
			return &SendError{Temporary: true, Err: err}
		}
	}
	c, err := s.dial(ctx, mech, token)
	if err != nil {
		return classify(ctx, err)
	}
	defer c.Close()
	if err := s.send(c, from, to, raw); err != nil {
		return classify(ctx, err)
	}
	return nil
}

// errConfig marks mistakes of configuration: never temporary.
var errConfig = errors.New("configuration")

// tokenRejectedError is a refused OAuth2 token: always temporary.
type tokenRejectedError struct {
	detail string // the server's OAuth2 status, e.g. ` (OAuth2 status "401")`
	err    error
}

func (e *tokenRejectedError) Error() string {
	return "OAuth2 token rejected" + e.detail + ": " + e.err.Error()
}

func (e *tokenRejectedError) Unwrap() error { return e.err }

// dial connects and authenticates: with mech ("XOAUTH2", "OAUTHBEARER")
// and token, or with the password when mech is "".
func (s *Sender) dial(ctx context.Context, mech, token string) (*smtp.Client, error) {
	host, _, err := net.SplitHostPort(s.cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("%w: SMTP address %q: %v", errConfig, s.cfg.Addr, err)
	}
	tlsConfig := s.cfg.TLSConfig.Clone()
	if tlsConfig == nil {
		tlsConfig = &tls.Config{}
	}
	if tlsConfig.ServerName == "" {
		tlsConfig.ServerName = host
	}
	if s.cfg.Username != "" && s.cfg.Security == SecurityNone && !isLoopback(host) {
		return nil, fmt.Errorf("%w: refusing AUTH over a plain connection to %s", errConfig, host)
	}

	d := &net.Dialer{}
	var conn net.Conn
	switch s.cfg.Security {
	case SecurityNone, SecurityStartTLS:
		conn, err = d.DialContext(ctx, "tcp", s.cfg.Addr)
	case SecurityTLS:
		td := &tls.Dialer{NetDialer: d, Config: tlsConfig}
		conn, err = td.DialContext(ctx, "tcp", s.cfg.Addr)
	default:
		return nil, fmt.Errorf("%w: unknown SMTP security %q", errConfig, s.cfg.Security)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, dialFailure("SMTP", "smtp", s.cfg.Addr, s.cfg.Security, err)
	}
	// Closing the connection is the only way to interrupt go-smtp.
	context.AfterFunc(ctx, func() { conn.Close() })
	// A server that sends nothing at all (a TLS port reached without TLS)
	// is told from a slow one by whether any byte came.
	rc := &readCounter{Conn: conn}
	start := time.Now()
	silent := func(err error) error {
		if ctx.Err() != nil && rc.n.Load() == 0 {
			waited := time.Since(start).Round(time.Millisecond)
			return greetingTimeout("SMTP", "smtp", s.cfg.Addr, s.cfg.Security, waited, errors.Join(ctx.Err(), err))
		}
		return err
	}

	var c *smtp.Client
	if s.cfg.Security == SecurityStartTLS {
		c, err = smtp.NewClientStartTLS(rc, tlsConfig)
		if err != nil {
			if strings.Contains(err.Error(), "doesn't support STARTTLS") {
				err = fmt.Errorf("%w: %v", errConfig, err)
			}
			conn.Close()
			return nil, silent(err)
		}
	} else {
		c = smtp.NewClient(rc)
	}
	c.CommandTimeout = s.cfg.Timeout
	c.SubmissionTimeout = s.cfg.Timeout
	c.DebugWriter = s.cfg.Debug
	if err := c.Hello(s.cfg.HeloName); err != nil {
		c.Close()
		return nil, silent(err)
	}
	if s.cfg.Username != "" {
		if ok, _ := c.Extension("AUTH"); !ok {
			c.Close()
			return nil, fmt.Errorf("%w: server offers no AUTH", errConfig)
		}
		if mech == "" {
			if err := c.Auth(sasl.NewPlainClient("", s.cfg.Username, s.cfg.Password)); err != nil {
				c.Close()
				return nil, err
			}
			return c, nil
		}
		if _, mechs := c.Extension("AUTH"); !slices.Contains(strings.Fields(strings.ToUpper(mechs)), mech) {
			c.Close()
			return nil, fmt.Errorf("%w: server offers AUTH %s, not %s", errConfig, mechs, mech)
		}
		sc := newOAuthClient(mech, s.cfg.Username, token, s.cfg.Addr)
		if err := c.Auth(sc); err != nil {
			c.Close()
			return nil, &tokenRejectedError{detail: sc.rejection(), err: err}
		}
	}
	return c, nil
}

func (s *Sender) send(c *smtp.Client, from string, to []string, raw []byte) error {
	if err := c.SendMail(from, to, bytes.NewReader(raw)); err != nil {
		return err
	}
	// The mail was accepted with the final "250"; a failed QUIT does not
	// undo that, so it is not reported.
	_ = c.Quit()
	return nil
}

// classify wraps err in a *SendError.
func classify(ctx context.Context, err error) *SendError {
	var se *smtp.SMTPError
	if errors.As(err, &se) {
		e := &SendError{Temporary: se.Temporary(), Code: se.Code, Err: fmt.Errorf("%03d %s", se.Code, se.Message)}
		if se.EnhancedCode != (smtp.EnhancedCode{}) && se.EnhancedCode != smtp.NoEnhancedCode {
			e.EnhancedCode = fmt.Sprintf("%d.%d.%d", se.EnhancedCode[0], se.EnhancedCode[1], se.EnhancedCode[2])
			e.Err = fmt.Errorf("%03d %s %s", se.Code, e.EnhancedCode, se.Message)
		}
		if tr := (*tokenRejectedError)(nil); errors.As(err, &tr) {
			e.Temporary = true
			e.Err = fmt.Errorf("OAuth2 token rejected%s: %w", tr.detail, e.Err)
		}
		return e
	}
	if tr := (*tokenRejectedError)(nil); errors.As(err, &tr) {
		return &SendError{Temporary: true, Err: err}
	}
	if errors.Is(err, errConfig) {
		return &SendError{Err: err}
	}
	if ce := (*connectError)(nil); errors.As(err, &ce) {
		return &SendError{Temporary: true, Err: ce}
	}
	if ctx.Err() != nil {
		return &SendError{Temporary: true, Err: fmt.Errorf("%w (%v)", ctx.Err(), err)}
	}
	return &SendError{Temporary: true, Err: err}
}

// readCounter is a connection that counts the bytes read from it.
type readCounter struct {
	net.Conn
	n atomic.Int64
}

func (r *readCounter) Read(p []byte) (int, error) {
	n, err := r.Conn.Read(p)
	r.n.Add(int64(n))
	return n, err
}

// isLoopback reports whether host names this machine.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
