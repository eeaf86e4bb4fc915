package mailer

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
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
	// it is called before each connection: for each Send, and for each
	// connection a [Session] opens.
	Token TokenFunc
	// Security is SecurityNone, SecurityStartTLS or SecurityTLS; empty means
	// SecurityStartTLS. With SecurityNone, AUTH is only sent to a loopback
	// address, unless AllowInsecure is set.
	Security string
	// AllowInsecure lets SecurityNone send AUTH to a host that is not
	// this machine, in clear text.
	AllowInsecure bool
	// HeloName is the name given in EHLO; empty means "localhost".
	HeloName string
	// Timeout bounds one Send from dial to QUIT, one Send of a [Session]
	// (with the connection it opens, if any), and each reply within them;
	// 0 means DefaultSMTPTimeout.
	Timeout time.Duration
	// TLSConfig is used for STARTTLS and implicit TLS, e.g. to trust a
	// private CA; nil means the system roots and the host of Addr.
	TLSConfig *tls.Config
	// Debug, when set, receives the raw SMTP conversation, credentials
	// included.
	Debug io.Writer
	// AuthRetryMinDelay and AuthRetryMaxDelay bound the pause after a
	// rejected log-in (AUTH), during which Send fails at once without
	// connecting: AuthRetryDelay of the rejections in a row; 0 means
	// DefaultAuthRetryMinDelay (1 minute) and DefaultAuthRetryMaxDelay
	// (30 minutes).
	AuthRetryMinDelay, AuthRetryMaxDelay time.Duration
}

// ErrSMTPAuth is wrapped by the error of a Send or Check whose log-in the
// relay rejected (a wrong password, a refused token), and of a Send that
// was not tried because the last log-ins were rejected (SMTPConfig
// AuthRetryMinDelay). Such a *SendError is temporary: the mail is not at
// fault, and it goes out once the credentials are right.
var ErrSMTPAuth = errors.New("SMTP login rejected")

// Sender sends raw messages over SMTP: one connection per message with
// Send, several messages over one connection with a [Session]. It is safe
// for concurrent use.
type Sender struct {
	cfg SMTPConfig

	mu     sync.Mutex // guards status
	status SMTPStatus
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
	if cfg.AuthRetryMinDelay <= 0 {
		cfg.AuthRetryMinDelay = DefaultAuthRetryMinDelay
	}
	if cfg.AuthRetryMaxDelay <= 0 {
		cfg.AuthRetryMaxDelay = DefaultAuthRetryMaxDelay
	}
	cfg.AuthRetryMaxDelay = max(cfg.AuthRetryMaxDelay, cfg.AuthRetryMinDelay)
	return &Sender{cfg: cfg}
}

// Status returns what the Sender knows of the relay's health. It is safe
// to call from any goroutine.
func (s *Sender) Status() SMTPStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status
}

// held returns the error of a Send made while the pause after rejected
// log-ins lasts, nil when a log-in may be tried.
func (s *Sender) held() *SendError {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := &s.status
	if st.AuthRejections == 0 || !time.Now().Before(st.NextAuth) {
		return nil
	}
	return &SendError{Temporary: true, Err: fmt.Errorf("%w %d times in a row (last: %s); not trying again before %s",
		ErrSMTPAuth, st.AuthRejections, st.LastError, st.NextAuth.UTC().Format(time.RFC3339))}
}

// note records the outcome of one connection in the status: contact tells
// that the relay answered EHLO and took the log-in, delivered that it
// took the mail.
func (s *Sender) note(err error, contact, delivered bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := &s.status
	now := time.Now()
	if contact {
		st.LastContact = now
		st.AuthRejections, st.NextAuth = 0, time.Time{}
	}
	if delivered {
		st.LastDelivery = now
		st.FailingSince = time.Time{}
	}
	if err == nil {
		st.LastError, st.LastErrorAt = "", time.Time{}
		return
	}
	st.LastError, st.LastErrorAt = err.Error(), now
	if ar := (*authRejectedError)(nil); errors.As(err, &ar) {
		st.AuthRejections++
		st.NextAuth = now.Add(AuthRetryDelay(st.AuthRejections, s.cfg.AuthRetryMinDelay, s.cfg.AuthRetryMaxDelay))
	}
}

// deliveryFailed notes in the status that a Send failed with err: when
// err is temporary, the relay is failing (SMTPStatus.FailingSince). It
// leaves LastError to note.
func (s *Sender) deliveryFailed(err error) {
	if se := (*SendError)(nil); !errors.As(err, &se) || !se.Temporary {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := &s.status
	st.LastFailedDelivery = time.Now()
	if st.FailingSince.IsZero() {
		st.FailingSince = st.LastFailedDelivery
	}
}

// SendError is the error of [Sender.Send]. Temporary tells the caller
// whether trying again later may help: 4xx replies and network trouble are
// temporary, 5xx replies and configuration mistakes are not. A rejected
// log-in (AUTH, with a password or a token; it wraps ErrSMTPAuth) is
// temporary whatever its code: the mail is not at fault, the operator
// fixes the password, or the token tool hands out a fresh token, and the
// mail goes out then. A failure to get a token is temporary too.
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
// and the error (temporary) wraps ctx.Err(). After a rejected log-in, Send
// does not connect at all until the pause of SMTPConfig.AuthRetryMinDelay
// has passed (doubling with each rejection in a row, up to
// AuthRetryMaxDelay): it fails at once with a temporary error wrapping
// ErrSMTPAuth, so that a wrong password is not tried once per mail in the
// outbox (issue 21). Each outcome is noted in [Sender.Status]; a
// temporary failure also as a failed delivery (SMTPStatus.FailingSince).
func (s *Sender) Send(ctx context.Context, from string, to []string, raw []byte) (err error) {
	if len(to) == 0 {
		return &SendError{Err: errors.New("no recipients")}
	}
	defer func() {
		if err != nil {
			s.deliveryFailed(err)
		}
	}()
	if err := s.held(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	c, _, err := s.connect(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := transact(c, from, to, raw); err != nil {
		se := classify(ctx, err)
		s.note(se, true, false)
		return se
	}
	// The mail was accepted with the final "250"; a failed QUIT does not
	// undo that, so it is not reported.
	_ = c.Quit()
	s.note(nil, true, true)
	return nil
}

// Check connects to the relay as Send does, with the same TLS and log-in
// (EHLO, STARTTLS, AUTH), and says QUIT without sending anything: the
// SMTP half of `taflmail config check --connect`, and what serve asks at
// start. Unlike Send it tries even during the pause after rejected
// log-ins. Its errors are Send's *SendErrors; the outcome is noted in
// Status.
func (s *Sender) Check(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	c, _, err := s.connect(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	s.note(nil, true, false)
	_ = c.Quit()
	return nil
}

// connect gets the token, if any, dials and logs in, noting a failure in
// the status; its errors are *SendErrors. The connection is closed when
// ctx ends, unless stop (that of [context.AfterFunc]) is called first.
func (s *Sender) connect(ctx context.Context) (c *smtp.Client, stop func() bool, err error) {
	mech, err := oauthMechanism(s.cfg.Auth)
	if err != nil {
		return nil, nil, &SendError{Err: fmt.Errorf("%w: SMTP: %v", ErrConfig, err)}
	}
	var token string
	if mech != "" {
		if s.cfg.Token == nil || s.cfg.Username == "" {
			return nil, nil, &SendError{Err: fmt.Errorf("%w: SMTP authentication %s needs a Username and a Token function", ErrConfig, s.cfg.Auth)}
		}
		if token, err = s.cfg.Token(ctx); err != nil {
			se := &SendError{Temporary: true, Err: err}
			s.note(se, false, false)
			return nil, nil, se
		}
	}
	c, stop, err = s.dial(ctx, mech, token)
	if err != nil {
		se := classify(ctx, err)
		s.note(se, false, false)
		return nil, nil, se
	}
	return c, stop, nil
}

// authRejectedError is a log-in the relay refused, with a password or an
// OAuth2 token: always temporary (ErrSMTPAuth).
type authRejectedError struct {
	oauth2 bool
	detail string // the server's OAuth2 status, e.g. ` (OAuth2 status "401")`
	err    error  // the server's reply, a *smtp.SMTPError
}

func (e *authRejectedError) what() string {
	if e.oauth2 {
		return "OAuth2 token rejected" + e.detail
	}
	return ErrSMTPAuth.Error()
}

func (e *authRejectedError) Error() string { return e.what() + ": " + e.err.Error() }

func (e *authRejectedError) Unwrap() []error { return []error{ErrSMTPAuth, e.err} }

// dial connects and authenticates: with mech ("XOAUTH2", "OAUTHBEARER")
// and token, or with the password when mech is "". The steps: check the
// settings ([Sender.tlsConfig]), open the connection ([Sender.dialConn]),
// greet (with STARTTLS first for SecurityStartTLS), then log in when a
// user name is set ([Sender.login]). ctx ending closes the connection,
// unless stop is called first.
func (s *Sender) dial(ctx context.Context, mech, token string) (_ *smtp.Client, stop func() bool, _ error) {
	tlsConfig, err := s.tlsConfig()
	if err != nil {
		return nil, nil, err
	}
	conn, err := s.dialConn(ctx, tlsConfig)
	if err != nil {
		return nil, nil, err
	}
	// Closing the connection is the only way to interrupt go-smtp.
	stop = context.AfterFunc(ctx, func() { conn.Close() })
	// A server that sends nothing at all (a TLS port reached without TLS)
	// is told from a slow one by whether any byte came.
	rc := &readCounter{Conn: conn}
	start := time.Now()
	silent := func(err error) error { return s.greetingError(ctx, rc, start, err) }

	var c *smtp.Client
	if s.cfg.Security == SecurityStartTLS {
		c, err = smtp.NewClientStartTLS(rc, tlsConfig)
		if err != nil {
			if strings.Contains(err.Error(), "doesn't support STARTTLS") {
				err = fmt.Errorf("%w: %v", ErrConfig, err)
			}
			conn.Close()
			return nil, nil, silent(err)
		}
	} else {
		c = smtp.NewClient(rc)
	}
	c.CommandTimeout = s.cfg.Timeout
	c.SubmissionTimeout = s.cfg.Timeout
	c.DebugWriter = s.cfg.Debug
	if err := c.Hello(s.cfg.HeloName); err != nil {
		c.Close()
		return nil, nil, silent(err)
	}
	if s.cfg.Username != "" {
		if err := s.login(c, mech, token); err != nil {
			return nil, nil, err
		}
	}
	return c, stop, nil
}

// tlsConfig checks the address and that a log-in goes over TLS unless
// the server is this machine or AllowInsecure is set, and returns a copy
// of cfg.TLSConfig naming the host when it names no server. Errors wrap
// ErrConfig.
func (s *Sender) tlsConfig() (*tls.Config, error) {
	host, _, err := net.SplitHostPort(s.cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("%w: SMTP address %q: %v", ErrConfig, s.cfg.Addr, err)
	}
	tlsConfig := s.cfg.TLSConfig.Clone()
	if tlsConfig == nil {
		tlsConfig = &tls.Config{}
	}
	if tlsConfig.ServerName == "" {
		tlsConfig.ServerName = host
	}
	if s.cfg.Username != "" && s.cfg.Security == SecurityNone && !isLoopback(host) && !s.cfg.AllowInsecure {
		return nil, fmt.Errorf("%w: refusing AUTH over a plain connection to %s (smtp.allow_insecure)", ErrConfig, host)
	}
	return tlsConfig, nil
}

// dialConn opens the connection to cfg.Addr: plain TCP for SecurityNone
// and SecurityStartTLS, TLS with tlsConfig for SecurityTLS. Errors: one
// wrapping ErrConfig for an unknown security; the dialer's own when ctx
// ended; else a [dialFailure] saying what to check.
func (s *Sender) dialConn(ctx context.Context, tlsConfig *tls.Config) (net.Conn, error) {
	d := &net.Dialer{}
	var conn net.Conn
	var err error
	switch s.cfg.Security {
	case SecurityNone, SecurityStartTLS:
		conn, err = d.DialContext(ctx, "tcp", s.cfg.Addr)
	case SecurityTLS:
		td := &tls.Dialer{NetDialer: d, Config: tlsConfig}
		conn, err = td.DialContext(ctx, "tcp", s.cfg.Addr)
	default:
		return nil, fmt.Errorf("%w: unknown SMTP security %q", ErrConfig, s.cfg.Security)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, dialFailure("SMTP", "smtp", s.cfg.Addr, s.cfg.Security, err)
	}
	return conn, nil
}

// greetingError explains err, a failure of the greeting or STARTTLS on a
// connection read through rc since start: a certificate not trusted, or,
// when the server sent no byte at all, a wait for the greeting that ctx
// ended or a server that hung up. Any other err is returned as it is.
func (s *Sender) greetingError(ctx context.Context, rc *readCounter, start time.Time, err error) error {
	if cv := (*tls.CertificateVerificationError)(nil); errors.As(err, &cv) {
		// after STARTTLS the handshake runs with the first command
		return dialFailure("SMTP", "smtp", s.cfg.Addr, s.cfg.Security, err)
	}
	if rc.n.Load() != 0 {
		return err
	}
	if ctx.Err() != nil {
		waited := time.Since(start).Round(time.Millisecond)
		return greetingTimeout("SMTP", "smtp", s.cfg.Addr, s.cfg.Security, waited, errors.Join(ctx.Err(), err))
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) {
		return hungUp("SMTP", "smtp", s.cfg.Addr, s.cfg.Security, err)
	}
	return err
}

// login authenticates c as cfg.Username: with PLAIN and the password when
// mech is "", else with the SASL mechanism mech and token. On failure it
// closes c; errors: one wrapping ErrConfig when the server offers no AUTH
// or not mech, an [authRejectedError] when the server refuses, else the
// client's.
func (s *Sender) login(c *smtp.Client, mech, token string) error {
	if ok, _ := c.Extension("AUTH"); !ok {
		c.Close()
		return fmt.Errorf("%w: server offers no AUTH", ErrConfig)
	}
	if mech == "" {
		if err := c.Auth(sasl.NewPlainClient("", s.cfg.Username, s.cfg.Password)); err != nil {
			c.Close()
			if isReply(err) {
				return &authRejectedError{err: err}
			}
			return err
		}
		return nil
	}
	if _, mechs := c.Extension("AUTH"); !slices.Contains(strings.Fields(strings.ToUpper(mechs)), mech) {
		c.Close()
		return fmt.Errorf("%w: server offers AUTH %s, not %s", ErrConfig, mechs, mech)
	}
	sc := newOAuthClient(mech, s.cfg.Username, token, s.cfg.Addr)
	if err := c.Auth(sc); err != nil {
		c.Close()
		if isReply(err) {
			return &authRejectedError{oauth2: true, detail: sc.rejection(), err: err}
		}
		return err
	}
	return nil
}

// isReply reports whether err is the server's answer, not trouble on
// the way to it.
func isReply(err error) bool {
	var se *smtp.SMTPError
	return errors.As(err, &se)
}

// transact hands one message to the relay over c, logged in: MAIL (with
// SMTPUTF8 when an address is not ASCII), RCPT for each recipient, DATA
// and the message. The first rejected recipient ends it. dotSent reports
// that the message was written to its end (the "." line) before err:
// until then the relay cannot hold it, whatever became of the
// connection; after, a lost reply leaves open whether it took it.
func transact(c *smtp.Client, from string, to []string, raw []byte) (dotSent bool, err error) {
	var opts *smtp.MailOptions
	if !ascii(from) || slices.ContainsFunc(to, func(a string) bool { return !ascii(a) }) {
		opts = &smtp.MailOptions{UTF8: true}
	}
	if err := c.Mail(from, opts); err != nil {
		return false, err
	}
	for _, rcpt := range to {
		if err := c.Rcpt(rcpt, nil); err != nil {
			return false, err
		}
	}
	w, err := c.Data()
	if err != nil {
		return false, err
	}
	if _, err := w.Write(raw); err != nil {
		return false, err
	}
	return true, w.Close()
}

// ascii reports whether s is 7-bit ASCII.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
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
		if ar := (*authRejectedError)(nil); errors.As(err, &ar) {
			e.Temporary = true
			e.Err = &authRejectedError{oauth2: ar.oauth2, detail: ar.detail, err: e.Err}
		}
		return e
	}
	if errors.Is(err, ErrConfig) {
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
