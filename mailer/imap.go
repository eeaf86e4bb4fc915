package mailer

import (
	"cmp"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// Errors of [Inbox]. Test them with errors.Is.
var (
	// ErrConnection is wrapped by every Inbox error caused by the network or
	// a broken session (including a ctx that ended mid-command, which closes
	// the connection). The Inbox is unusable until [Inbox.Reconnect]
	// succeeds.
	ErrConnection = errors.New("IMAP connection lost")
	// ErrAuth is wrapped when the server rejects the login or refuses it
	// (LOGINDISABLED). Reconnecting will not help.
	ErrAuth = errors.New("IMAP login rejected")
	// ErrClosed is returned by every method after [Inbox.Close].
	ErrClosed = errors.New("mailer: inbox closed")
	// ErrUnfetchable is wrapped by the ParseError of a [Message] that
	// [Inbox.Fetch] gave up fetching after MaxFetchAttempts failures.
	ErrUnfetchable = errors.New("message could not be fetched")
	// ErrUIDValidity is wrapped by [Inbox.Done] when the mailbox's
	// UIDVALIDITY changed after the last Fetch: the UID no longer names the
	// message that was fetched. Fetch again.
	ErrUIDValidity = errors.New("UIDVALIDITY changed since Fetch")
	// ErrConfig is wrapped by errors of the Inbox and the Sender that come
	// from the configuration rather than the server or the network: an
	// address that is not host:port, an unknown security or log-in
	// method, a password that would go out in clear text, a certificate
	// that does not verify, a mailbox that does not exist. Trying again
	// will not help; a *SendError wrapping it is never temporary.
	ErrConfig = errors.New("configuration")
)

// Defaults of [IMAPConfig].
const (
	DefaultMailbox           = "INBOX"
	DefaultProcessedMailbox  = "Processed"
	DefaultPollInterval      = time.Minute
	DefaultReconnectMaxDelay = time.Minute
	DefaultReconnectMinDelay = 500 * time.Millisecond
	DefaultMaxIdle           = 10 * time.Minute
	DefaultDialTimeout       = 30 * time.Second
)

// MaxFetchAttempts is how many times [Inbox.Fetch] tries to fetch one
// message, across calls and reconnections, before it returns the message
// as unreadable (ParseError wrapping ErrUnfetchable) instead of failing
// again: one message the server cannot serve must not block the mailbox
// (trial report §2).
const MaxFetchAttempts = 3

// IMAPConfig says where the referee's mail arrives. The zero value of every
// field but Addr, Username and Password is usable.
type IMAPConfig struct {
	// Addr is the server's host:port, e.g. "imap.example.org:993".
	Addr string
	// Username and Password are sent with LOGIN. With OAuth2 Username is
	// the account the token is for, and Password is not used.
	Username, Password string
	// Auth is AuthPassword (LOGIN; empty means the same), AuthXOAUTH2 or
	// AuthOAuthBearer (AUTHENTICATE with the access token of Token).
	Auth string
	// Token returns the access token for AuthXOAUTH2 and AuthOAuthBearer;
	// it is called before each connection.
	Token TokenFunc
	// Security is SecurityNone, SecurityStartTLS or SecurityTLS; empty means
	// SecurityTLS. With SecurityNone the log-in is only sent to a loopback
	// address, unless AllowInsecure is set.
	Security string
	// AllowInsecure lets SecurityNone log in to a host that is not this
	// machine, in clear text.
	AllowInsecure bool
	// Mailbox is read for new mail; empty means "INBOX".
	Mailbox string
	// ProcessedMailbox receives handled mail (see Inbox.Done); empty means
	// "Processed". It is created when missing.
	ProcessedMailbox string
	// PollInterval is how long Wait sleeps when IDLE is not available or
	// disabled; 0 means DefaultPollInterval (1 minute).
	PollInterval time.Duration
	// Debug, when set, receives the raw IMAP conversation, password
	// included.
	Debug io.Writer

	// TLSConfig is used for TLS and STARTTLS, e.g. to trust a private CA;
	// nil means the system roots and the host of Addr.
	TLSConfig *tls.Config
	// DisableIdle makes Wait poll even when the server offers IDLE.
	DisableIdle bool
	// MaxIdle bounds one IDLE in Wait; 0 means DefaultMaxIdle (10 minutes).
	// Wait then returns nil so the caller fetches, which also proves the
	// connection alive.
	MaxIdle time.Duration
	// ReconnectMinDelay and ReconnectMaxDelay bound the pause between two
	// attempts of Reconnect (exponential, with jitter); 0 means 500 ms and
	// 1 minute.
	ReconnectMinDelay, ReconnectMaxDelay time.Duration
	// DialTimeout bounds the TCP and TLS handshake; 0 means 30 seconds.
	DialTimeout time.Duration
	// Logger receives a warning for each failed attempt to fetch a
	// message (see Inbox.Fetch); nil discards them.
	Logger *slog.Logger
}

func (cfg *IMAPConfig) setDefaults() {
	if cfg.Security == "" {
		cfg.Security = SecurityTLS
	}
	if cfg.Mailbox == "" {
		cfg.Mailbox = DefaultMailbox
	}
	if cfg.ProcessedMailbox == "" {
		cfg.ProcessedMailbox = DefaultProcessedMailbox
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = DefaultPollInterval
	}
	if cfg.MaxIdle <= 0 {
		cfg.MaxIdle = DefaultMaxIdle
	}
	if cfg.ReconnectMinDelay <= 0 {
		cfg.ReconnectMinDelay = DefaultReconnectMinDelay
	}
	if cfg.ReconnectMaxDelay <= 0 {
		cfg.ReconnectMaxDelay = DefaultReconnectMaxDelay
	}
	if cfg.ReconnectMaxDelay < cfg.ReconnectMinDelay {
		cfg.ReconnectMaxDelay = cfg.ReconnectMinDelay
	}
	if cfg.DialTimeout <= 0 {
		cfg.DialTimeout = DefaultDialTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
}

// Inbox is a logged-in IMAP session on IMAPConfig.Mailbox.
//
// Use it from one goroutine at a time; only Close may be called
// concurrently (it interrupts a running Wait).
type Inbox struct {
	cfg     IMAPConfig
	newMail chan struct{} // a message may have arrived

	mu            sync.Mutex // held by every method but Close
	broken        bool
	validity      uint32 // UIDVALIDITY of the selected mailbox
	fetchValidity uint32 // UIDVALIDITY seen by the last Fetch
	canIdle       bool
	beforeIdle    func() // test hook: runs between Wait's NOOP and IDLE
	trouble       fetchTrouble

	cmu    sync.Mutex // guards the connection fields for Close
	c      *imapclient.Client
	conn   net.Conn
	st     *connState
	closed atomic.Bool

	smu    sync.Mutex // guards status, which Status reads while Wait runs
	status IMAPStatus
}

// connState is what the client's reader goroutine updates.
type connState struct {
	exists atomic.Uint32 // messages in the selected mailbox
}

// DialInbox connects to cfg.Addr, logs in, creates ProcessedMailbox when it
// is missing and selects Mailbox. It tries once; use [Inbox.Reconnect] to
// retry.
//
// Errors wrap ErrConnection for network trouble (and when ctx ends) and
// ErrAuth for a rejected login or token; other errors are configuration
// mistakes, server refusals (e.g. Mailbox does not exist) or the error of
// IMAPConfig.Token as it is.
func DialInbox(ctx context.Context, cfg IMAPConfig) (*Inbox, error) {
	cfg.setDefaults()
	in := &Inbox{cfg: cfg, newMail: make(chan struct{}, 1)}
	in.mu.Lock()
	defer in.mu.Unlock()
	if err := in.login(ctx); err != nil {
		return nil, err
	}
	return in, nil
}

// login is connect, noted in the status; in.mu is held.
func (in *Inbox) login(ctx context.Context) error {
	err := in.connect(ctx)
	in.smu.Lock()
	defer in.smu.Unlock()
	st := &in.status
	now := time.Now()
	switch {
	case err == nil:
		if !st.LastLogin.IsZero() {
			st.Reconnects++
		}
		st.LoggedIn, st.LastLogin, st.LoginRejections = true, now, 0
		st.LastError, st.LastErrorAt = "", time.Time{}
	case errors.Is(err, ErrClosed):
		st.LoggedIn = false
	default:
		st.LoggedIn = false
		st.LastError, st.LastErrorAt = err.Error(), now
		if errors.Is(err, ErrAuth) {
			st.LoginRejections++
		}
	}
	return err
}

// Status returns what the Inbox knows of its health. It is safe to call
// from any goroutine, also while Wait runs.
func (in *Inbox) Status() IMAPStatus {
	in.smu.Lock()
	defer in.smu.Unlock()
	return in.status
}

// markBroken notes that the session is unusable until Reconnect; in.mu is
// held.
func (in *Inbox) markBroken() {
	in.broken = true
	in.smu.Lock()
	in.status.LoggedIn = false
	in.smu.Unlock()
}

// noteError notes a failed command in the status.
func (in *Inbox) noteError(err error) {
	in.smu.Lock()
	in.status.LastError, in.status.LastErrorAt = err.Error(), time.Now()
	in.smu.Unlock()
}

// connect opens a new session; in.mu is held. With check set it only
// looks: it notes what it finds there, creates nothing, selects the
// mailbox read-only (EXAMINE), and logs out at once.
//
// The steps, each failing as DialInbox documents: check the settings and
// get the OAuth2 token ([Inbox.prepare]), dial ([Inbox.dial]) and, without
// implicit TLS, upgrade the plain connection (plainIMAP), wait for the
// greeting, log in ([Inbox.authenticate]), list the processed mailbox,
// then either look (check) or create it if missing and select the mailbox
// ([Inbox.selectMailbox]). The whole of it is bounded by cfg.DialTimeout.
func (in *Inbox) connect(ctx context.Context, check ...*IMAPCheck) error {
	cfg := &in.cfg
	mech, token, tlsConfig, err := in.prepare(ctx)
	if err != nil {
		return err
	}

	dctx, cancel := context.WithTimeout(ctx, cfg.DialTimeout)
	defer cancel()
	conn, err := in.dial(ctx, dctx, tlsConfig)
	if err != nil {
		return err
	}
	stop := context.AfterFunc(dctx, func() { conn.Close() })
	defer stop()
	if cfg.Security != SecurityTLS {
		if conn, err = plainIMAP(dctx, conn, cfg, tlsConfig, cfg.Debug); err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("mailer: dial: %w: %w", ErrConnection, ctx.Err())
			}
			return fmt.Errorf("mailer: dial: %w", err)
		}
	}

	st := &connState{}
	opts := &imapclient.Options{
		DebugWriter:           cfg.Debug,
		UnilateralDataHandler: in.unilateral(st),
	}
	sconn := &saslConn{Conn: conn}
	conn = sconn
	c := imapclient.New(conn, opts)
	fail := func(op string, err error) error {
		c.Close()
		if dctx.Err() != nil {
			return fmt.Errorf("mailer: %s: %w: %w", op, ErrConnection, dctx.Err())
		}
		return in.sessionError(op, err)
	}
	if err := c.WaitGreeting(); err != nil {
		if ctx.Err() == nil && errors.Is(dctx.Err(), context.DeadlineExceeded) {
			c.Close()
			return fmt.Errorf("mailer: greeting: %w", greetingTimeout("IMAP", "imap", cfg.Addr, cfg.Security, cfg.DialTimeout, err))
		}
		return fail("greeting", err)
	}
	if err := in.authenticate(c, sconn, mech, token, fail); err != nil {
		return err
	}
	list, err := c.List("", cfg.ProcessedMailbox, nil).Collect()
	if err != nil {
		return fail("list", err)
	}
	if len(check) > 0 {
		return in.look(c, check[0], mech, len(list) > 0, fail)
	}
	data, err := in.selectMailbox(c, len(list) > 0, fail)
	if err != nil {
		return err
	}
	st.exists.Store(data.NumMessages)

	in.cmu.Lock()
	in.c, in.conn, in.st = c, conn, st
	in.cmu.Unlock()
	in.broken = false
	in.validity = data.UIDValidity
	in.canIdle = c.Caps().Has(imap.CapIdle)
	if in.closed.Load() { // Close raced with us
		c.Close()
		return ErrClosed
	}
	return nil
}

// prepare checks, before any connection, that the settings allow one: a
// host:port address, TLS unless the server is this machine or
// AllowInsecure is set, a known authentication. For OAuth2 it returns the
// SASL mechanism and gets the token now, so that a slow token command
// keeps no connection waiting; mech is "" for a password log-in. The TLS
// configuration returned is a copy of cfg.TLSConfig naming the host when
// it names no server. Errors wrap ErrConfig, or are the Token function's.
func (in *Inbox) prepare(ctx context.Context) (mech, token string, tlsConfig *tls.Config, err error) {
	cfg := &in.cfg
	host, _, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return "", "", nil, fmt.Errorf("mailer: dial: %w: IMAP address %q: %v", ErrConfig, cfg.Addr, err)
	}
	if cfg.Security == SecurityNone && !isLoopback(host) && !cfg.AllowInsecure {
		return "", "", nil, fmt.Errorf("mailer: dial: %w: refusing to send the IMAP log-in in clear text to %s (imap.allow_insecure)", ErrConfig, host)
	}
	mech, err = oauthMechanism(cfg.Auth)
	if err != nil {
		return "", "", nil, fmt.Errorf("mailer: login: %w: IMAP: %v", ErrConfig, err)
	}
	if mech != "" {
		if cfg.Token == nil {
			return "", "", nil, fmt.Errorf("mailer: login: %w: IMAP authentication %s needs a Token function", ErrConfig, cfg.Auth)
		}
		if token, err = cfg.Token(ctx); err != nil {
			return "", "", nil, fmt.Errorf("mailer: login: %w", err)
		}
	}
	tlsConfig = cfg.TLSConfig.Clone()
	if tlsConfig == nil {
		tlsConfig = &tls.Config{}
	}
	if tlsConfig.ServerName == "" {
		tlsConfig.ServerName = host
	}
	return mech, token, tlsConfig, nil
}

// dial opens the connection to cfg.Addr within dctx: plain TCP for
// SecurityNone and SecurityStartTLS, TLS with tlsConfig for SecurityTLS.
// Errors wrap ErrConfig for an unknown security, else ErrConnection
// (with ctx's error when the caller's ctx ended).
func (in *Inbox) dial(ctx, dctx context.Context, tlsConfig *tls.Config) (net.Conn, error) {
	cfg := &in.cfg
	d := &net.Dialer{}
	var conn net.Conn
	var err error
	switch cfg.Security {
	case SecurityNone, SecurityStartTLS:
		conn, err = d.DialContext(dctx, "tcp", cfg.Addr)
	case SecurityTLS:
		conn, err = (&tls.Dialer{NetDialer: d, Config: tlsConfig}).DialContext(dctx, "tcp", cfg.Addr)
	default:
		return nil, fmt.Errorf("mailer: dial: %w: unknown IMAP security %q", ErrConfig, cfg.Security)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("mailer: dial: %w: %w", ErrConnection, ctx.Err())
		}
		return nil, fmt.Errorf("mailer: dial: %w", dialFailure("IMAP", "imap", cfg.Addr, cfg.Security, err))
	}
	return conn, nil
}

// unilateral returns the handler of the server's unsolicited responses
// for a session with state st: a rise in the message count (EXISTS)
// signals in.newMail without blocking, and each EXPUNGE lowers the count.
func (in *Inbox) unilateral(st *connState) *imapclient.UnilateralDataHandler {
	return &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil && *d.NumMessages > st.exists.Swap(*d.NumMessages) {
				select {
				case in.newMail <- struct{}{}:
				default:
				}
			}
		},
		Expunge: func(uint32) {
			for {
				n := st.exists.Load()
				if n == 0 || st.exists.CompareAndSwap(n, n-1) {
					return
				}
			}
		},
	}
}

// authenticate logs c in: with LOGIN and the password when mech is "",
// else with the SASL mechanism mech and token, sconn (c's connection)
// told that a SASL exchange is under way. A refusal, or a server that
// offers no such log-in, closes c and returns an error wrapping ErrAuth;
// other failures go through fail.
func (in *Inbox) authenticate(c *imapclient.Client, sconn *saslConn, mech, token string, fail func(string, error) error) error {
	cfg := &in.cfg
	if mech == "" {
		if c.Caps().Has(imap.CapLoginDisabled) {
			c.Close()
			return fmt.Errorf("mailer: login: %w: server announces LOGINDISABLED", ErrAuth)
		}
		if err := c.Login(cfg.Username, cfg.Password).Wait(); err != nil {
			var ie *imap.Error
			if errors.As(err, &ie) {
				c.Close()
				return fmt.Errorf("mailer: login: %w: %s", ErrAuth, describe(ie))
			}
			return fail("login", err)
		}
		return nil
	}
	if !c.Caps().Has(imap.Cap("AUTH=" + mech)) {
		c.Close()
		return fmt.Errorf("mailer: login: %w: server does not offer AUTH=%s", ErrAuth, mech)
	}
	sc := newOAuthClient(mech, cfg.Username, token, cfg.Addr)
	sconn.authenticating.Store(true)
	err := c.Authenticate(sc)
	sconn.authenticating.Store(false)
	if err != nil {
		var ie *imap.Error
		if errors.As(err, &ie) {
			c.Close()
			return fmt.Errorf("mailer: login: %w: %s rejected: %s%s", ErrAuth, mech, describe(ie), sc.rejection())
		}
		return fail("authenticate", err)
	}
	return nil
}

// selectMailbox creates the processed mailbox unless processed says it
// exists (one created meanwhile is fine), then selects cfg.Mailbox and
// returns what the server says of it. A mailbox that does not exist
// closes c and is an error wrapping ErrConfig; other failures go through
// fail.
func (in *Inbox) selectMailbox(c *imapclient.Client, processed bool, fail func(string, error) error) (*imap.SelectData, error) {
	cfg := &in.cfg
	if !processed {
		if err := c.Create(cfg.ProcessedMailbox, nil).Wait(); err != nil {
			var ie *imap.Error
			if !errors.As(err, &ie) || ie.Code != imap.ResponseCodeAlreadyExists {
				return nil, fail("create "+cfg.ProcessedMailbox, err)
			}
		}
	}
	data, err := c.Select(cfg.Mailbox, nil).Wait()
	if ie := (*imap.Error)(nil); errors.As(err, &ie) && ie.Code == imap.ResponseCodeNonExistent {
		c.Close()
		return nil, fmt.Errorf("mailer: select %s: %w: no such mailbox (%s): check imap.mailbox", cfg.Mailbox, ErrConfig, describe(ie))
	}
	if err != nil {
		return nil, fail("select "+cfg.Mailbox, err)
	}
	return data, nil
}

// IMAPCheck is what [CheckIMAP] found.
type IMAPCheck struct {
	// Mechanism is how it logged in: "LOGIN", "XOAUTH2" or "OAUTHBEARER".
	Mechanism string
	// Messages is the number of messages in IMAPConfig.Mailbox.
	Messages uint32
	// ProcessedExists reports whether IMAPConfig.ProcessedMailbox is
	// there already; DialInbox creates it when it is not.
	ProcessedExists bool
	// Idle reports whether the server offers IDLE (RFC 2177); without it
	// the referee polls every PollInterval.
	Idle bool
}

// CheckIMAP connects to cfg.Addr as [DialInbox] does, with the same TLS
// and log-in, and looks: whether IMAPConfig.ProcessedMailbox exists
// (without creating it) and how many messages IMAPConfig.Mailbox holds
// (selected read-only, with EXAMINE, so nothing is marked or moved); then
// it logs out. It is the IMAP half of `taflmail config check --connect`.
// Its errors are DialInbox's.
func CheckIMAP(ctx context.Context, cfg IMAPConfig) (IMAPCheck, error) {
	cfg.setDefaults()
	in := &Inbox{cfg: cfg, newMail: make(chan struct{}, 1)}
	in.mu.Lock()
	defer in.mu.Unlock()
	var found IMAPCheck
	err := in.connect(ctx, &found)
	return found, err
}

// look is the end of connect for CheckIMAP: EXAMINE the mailbox, note
// what is there, log out.
func (in *Inbox) look(c *imapclient.Client, found *IMAPCheck, mech string, processed bool, fail func(string, error) error) error {
	cfg := &in.cfg
	data, err := c.Select(cfg.Mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if ie := (*imap.Error)(nil); errors.As(err, &ie) && ie.Code == imap.ResponseCodeNonExistent {
		c.Close()
		return fmt.Errorf("mailer: examine %s: %w: no such mailbox (%s): check imap.mailbox", cfg.Mailbox, ErrConfig, describe(ie))
	}
	if err != nil {
		return fail("examine "+cfg.Mailbox, err)
	}
	*found = IMAPCheck{Mechanism: cmp.Or(mech, "LOGIN"), Messages: data.NumMessages, ProcessedExists: processed, Idle: c.Caps().Has(imap.CapIdle)}
	_ = c.Logout().Wait()
	c.Close()
	return nil
}

// describe renders a server status response without exposing its type.
func describe(ie *imap.Error) string {
	s := string(ie.Type)
	if ie.Code != "" {
		s += " [" + string(ie.Code) + "]"
	}
	if ie.Text != "" {
		s += " " + ie.Text
	}
	return s
}

// sessionError turns a go-imap error into ours: a status response (NO, BAD)
// keeps the session usable; anything else breaks it.
func (in *Inbox) sessionError(op string, err error) error {
	var ie *imap.Error
	if errors.As(err, &ie) {
		return fmt.Errorf("mailer: %s: server replied %s", op, describe(ie))
	}
	in.markBroken()
	return fmt.Errorf("mailer: %s: %w: %v", op, ErrConnection, err)
}

// do runs f on the session, closing the connection when ctx ends; in.mu is
// held.
func (in *Inbox) do(ctx context.Context, op string, f func(c *imapclient.Client) error) error {
	if in.closed.Load() {
		return ErrClosed
	}
	if in.c == nil || in.broken {
		return fmt.Errorf("mailer: %s: %w", op, ErrConnection)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("mailer: %s: %w", op, err)
	}
	conn := in.conn
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	err := f(in.c)
	if !stop() {
		in.markBroken()
		err := fmt.Errorf("mailer: %s: %w: %w", op, ErrConnection, ctx.Err())
		in.noteError(err)
		return err
	}
	if err != nil {
		if in.closed.Load() {
			return ErrClosed
		}
		err = in.sessionError(op, err)
		in.noteError(err)
		return err
	}
	return nil
}

// Fetch returns the messages of the mailbox with a UID above afterUID, in
// UID order, each parsed with [Parse] and with Mailbox, UIDValidity and UID
// set, plus the mailbox's current UIDVALIDITY.
//
// When the server's UIDVALIDITY differs from uidValidity (or uidValidity is
// 0), the old UIDs mean nothing and Fetch returns every message: a rescan.
// The caller should store (validity, last UID) and pass them next time.
//
// Messages are read with BODY.PEEK, so nothing is marked \Seen, and only as
// far as needed: a message of at most [MaxTextPartBytes] whole; a larger
// one as its header and its text/plain and text/html parts that are not
// attachments, found with BODYSTRUCTURE, each read up to MaxTextPartBytes
// (attachments, photos included, are never fetched); a message larger than
// maxBytes (≤ 0 means [DefaultMaxBytes]) as its header only, returned with
// TooLarge set. Size is the server's RFC822.SIZE and Arrived its
// INTERNALDATE. A message Parse rejects is returned with ParseError set
// rather than failing the batch. Errors wrap ErrConnection when the
// session broke.
//
// One message the server cannot serve does not block the others (trial
// report §2): when the FETCH of every new message's metadata fails, Fetch
// returns the error and, from then on, fetches message by message. Each
// failed attempt at a message is logged (IMAPConfig.Logger) and counted by
// UIDVALIDITY and UID, across calls and Reconnect; the call fails while
// fewer than MaxFetchAttempts have failed (the caller retries as for any
// error), and after that the message is returned without being fetched
// again: with only Mailbox, UIDValidity, UID and a synthetic MessageID set
// and ParseError wrapping ErrUnfetchable, so the caller can record it as
// unreadable and move it out with Done. A failure while ctx ends is not
// counted.
func (in *Inbox) Fetch(ctx context.Context, uidValidity, afterUID uint32, maxBytes int64) (msgs []*Message, validity uint32, err error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	select { // this Fetch sees whatever arrived so far
	case <-in.newMail:
	default:
	}
	err = in.do(ctx, "fetch", func(c *imapclient.Client) error {
		// SELECT again each time: it is how a changed UIDVALIDITY shows.
		data, err := c.Select(in.cfg.Mailbox, nil).Wait()
		if err != nil {
			return err
		}
		in.st.exists.Store(data.NumMessages)
		in.validity, validity = data.UIDValidity, data.UIDValidity
		if validity != uidValidity {
			afterUID = 0
		}
		tr := &in.trouble
		tr.reset(validity)
		if data.NumMessages == 0 || afterUID == math.MaxUint32 {
			return nil
		}
		msgs, err = in.fetchAfter(ctx, c, tr, validity, afterUID, maxBytes)
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	in.fetchValidity = validity
	in.smu.Lock()
	in.status.LastPoll = time.Now()
	in.status.LastError, in.status.LastErrorAt = "", time.Time{}
	in.smu.Unlock()
	return msgs, validity, nil
}

// metaOptions are the items Fetch reads of each message before its text.
var metaOptions = &imap.FetchOptions{
	UID: true, RFC822Size: true, InternalDate: true,
	BodyStructure: &imap.FetchItemBodyStructure{Extended: true},
}

// fetchAfter fetches the messages with a UID above afterUID on the
// selected mailbox of UIDVALIDITY validity, in one FETCH of their metadata
// or, after trouble, one by one; in.mu is held.
func (in *Inbox) fetchAfter(ctx context.Context, c *imapclient.Client, tr *fetchTrouble, validity, afterUID uint32, maxBytes int64) ([]*Message, error) {
	set := imap.UIDSet{{Start: imap.UID(afterUID + 1), Stop: 0}}
	var metas map[uint32]*imapclient.FetchMessageBuffer // nil: one by one
	var uids []uint32
	if !tr.batchFailed && !tr.pendingAbove(afterUID) {
		list, err := c.Fetch(set, metaOptions).Collect()
		if err != nil {
			if ctx.Err() != nil || in.closed.Load() {
				return nil, err
			}
			tr.batchFailed = true
			in.cfg.Logger.Warn("mailer: fetching the new messages failed; fetching them one by one",
				"mailbox", in.cfg.Mailbox, "uidvalidity", validity, "after_uid", afterUID, "err", err)
			if !isStatus(err) {
				return nil, err // the session broke: one by one after Reconnect
			}
		} else {
			metas = make(map[uint32]*imapclient.FetchMessageBuffer, len(list))
			for _, m := range list {
				metas[uint32(m.UID)] = m
				uids = append(uids, uint32(m.UID))
			}
		}
	}
	if metas == nil {
		list, err := c.Fetch(set, &imap.FetchOptions{UID: true}).Collect()
		if err != nil {
			return nil, err
		}
		for _, m := range list {
			uids = append(uids, uint32(m.UID))
		}
	}
	// "n:*" includes the highest UID even when below n.
	uids = slices.DeleteFunc(uids, func(uid uint32) bool { return uid <= afterUID })
	slices.Sort(uids)
	uids = slices.Compact(uids)
	tr.forgetGone(afterUID, uids)

	var msgs []*Message
	for _, uid := range uids {
		if tr.attempts[uid] >= MaxFetchAttempts {
			msgs = append(msgs, tr.unfetchable(in.cfg.Mailbox, uid))
			continue
		}
		m, err := in.fetchUID(c, uid, metas, maxBytes)
		if err != nil {
			if ctx.Err() != nil || in.closed.Load() {
				return nil, err
			}
			n := tr.fail(uid, err)
			in.cfg.Logger.Warn("mailer: fetching a message failed",
				"mailbox", in.cfg.Mailbox, "uidvalidity", validity, "uid", uid,
				"attempt", n, "max_attempts", MaxFetchAttempts, "err", err)
			if n < MaxFetchAttempts || !isStatus(err) {
				return nil, fmt.Errorf("UID %d (attempt %d of %d): %w", uid, n, MaxFetchAttempts, err)
			}
			msgs = append(msgs, tr.unfetchable(in.cfg.Mailbox, uid))
			continue
		}
		delete(tr.attempts, uid)
		if m != nil {
			m.UIDValidity = validity
			msgs = append(msgs, m)
		}
	}
	tr.batchFailed = false
	return msgs, nil
}

// fetchUID fetches the message uid, with its metadata from metas or, when
// metas is nil, fetched first; nil, nil when it vanished.
func (in *Inbox) fetchUID(c *imapclient.Client, uid uint32, metas map[uint32]*imapclient.FetchMessageBuffer, maxBytes int64) (*Message, error) {
	var meta *imapclient.FetchMessageBuffer
	if metas != nil {
		meta = metas[uid]
	} else {
		list, err := c.Fetch(imap.UIDSetNum(imap.UID(uid)), metaOptions).Collect()
		if err != nil {
			return nil, err
		}
		for _, m := range list {
			if uint32(m.UID) == uid {
				meta = m
			}
		}
	}
	if meta == nil {
		return nil, nil
	}
	return in.fetchOne(c, meta, maxBytes)
}

// isStatus reports whether err is the server's NO or BAD, after which the
// session is still usable.
func isStatus(err error) bool {
	var ie *imap.Error
	return errors.As(err, &ie)
}

// fetchTrouble is what Fetch remembers of messages it failed to fetch, for
// one UIDVALIDITY of the mailbox.
type fetchTrouble struct {
	validity    uint32
	batchFailed bool              // the FETCH of all new messages' metadata failed: go one by one
	attempts    map[uint32]int    // UID → failed attempts
	last        map[uint32]string // UID → the last failure
}

// reset forgets everything when the mailbox's UIDVALIDITY is not the one
// remembered: the UIDs named other messages.
func (tr *fetchTrouble) reset(validity uint32) {
	if tr.validity == validity && tr.attempts != nil {
		return
	}
	*tr = fetchTrouble{validity: validity, attempts: map[uint32]int{}, last: map[uint32]string{}}
}

// pendingAbove reports whether a message above afterUID failed before.
func (tr *fetchTrouble) pendingAbove(afterUID uint32) bool {
	for uid := range tr.attempts {
		if uid > afterUID {
			return true
		}
	}
	return false
}

// forgetGone forgets the messages above afterUID that are no longer in the
// mailbox (uids lists those that are).
func (tr *fetchTrouble) forgetGone(afterUID uint32, uids []uint32) {
	for uid := range tr.attempts {
		if _, found := slices.BinarySearch(uids, uid); uid > afterUID && !found {
			delete(tr.attempts, uid)
			delete(tr.last, uid)
		}
	}
}

// fail counts a failed attempt at uid and returns the count.
func (tr *fetchTrouble) fail(uid uint32, err error) int {
	tr.attempts[uid]++
	tr.last[uid] = err.Error()
	return tr.attempts[uid]
}

// unfetchable is the Message standing for uid, given up: ParseError wraps
// ErrUnfetchable and the last failure, and the synthetic MessageID is the
// hash of the mailbox, UIDVALIDITY and UID, the same at every Fetch.
func (tr *fetchTrouble) unfetchable(mailbox string, uid uint32) *Message {
	sum := sha256.Sum256(fmt.Appendf(nil, "unfetchable %s %d %d", mailbox, tr.validity, uid))
	return &Message{
		Mailbox: mailbox, UIDValidity: tr.validity, UID: uid,
		MessageID: "sha256:" + hex.EncodeToString(sum[:]), Synthetic: true,
		ParseError: fmt.Errorf("mailer: fetch: %w: UID %d of %s failed %d times (last: %s)",
			ErrUnfetchable, uid, mailbox, tr.attempts[uid], tr.last[uid]),
	}
}

// Done marks the message with this UID \Seen and moves it to
// ProcessedMailbox: with MOVE (RFC 6851) when the server has it, else COPY,
// STORE \Deleted and UID EXPUNGE (plain EXPUNGE without UIDPLUS). A UID that
// no longer exists is not an error.
//
// It acts on the UIDVALIDITY of the last Fetch; if the mailbox changed
// since (seen after a Reconnect), it returns an error wrapping
// ErrUIDValidity. Errors wrap ErrConnection when the session broke.
func (in *Inbox) Done(ctx context.Context, uid uint32) error {
	return in.done(ctx, []uint32{uid})
}

// DoneAll marks the messages with these UIDs done as [Inbox.Done] marks
// one, in two commands for the whole set instead of two per message: one
// UID STORE +FLAGS.SILENT (\Seen) and one UID MOVE to ProcessedMailbox
// (without MOVE, the fallback Done uses: UID COPY, UID STORE \Deleted,
// UID EXPUNGE or EXPUNGE). So a chunk of handled mails costs two round
// trips to the server, not two per mail. UIDs that no longer exist are
// skipped by the server, not an error; no UIDs is nil without a command.
// The UIDs go out as one set in one command line each, so a caller passes
// tens of them, not many thousands (servers bound a line's length, e.g.
// Dovecot at 64 KiB).
//
// Errors are Done's (ErrUIDValidity before any command, ErrConnection when
// the session broke, ErrClosed). On an error the messages may be in any of
// these states: all still in the mailbox (the STORE or the MOVE failed;
// some may be \Seen), or all moved (the MOVE took effect but its reply was
// lost): a server with MOVE moves a set as one, RFC 6851 section 3.1. After
// the fallback's COPY, a failed STORE \Deleted or EXPUNGE leaves copies in
// ProcessedMailbox with the originals still in the mailbox, and an EXPUNGE
// cut short may have removed some of them. (The client sends the
// fallback's three commands without waiting for the replies, as for Done:
// a COPY the server refuses does not stop the STORE \Deleted and the
// EXPUNGE.) A caller that cannot tell must
// treat every message of the set as possibly still in the mailbox and
// call Done or DoneAll for it again after the next Fetch.
func (in *Inbox) DoneAll(ctx context.Context, uids []uint32) error {
	if len(uids) == 0 {
		return nil
	}
	return in.done(ctx, uids)
}

// done marks the messages with the UIDs uids done, for Done and DoneAll.
func (in *Inbox) done(ctx context.Context, uids []uint32) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.fetchValidity != 0 && in.fetchValidity != in.validity && !in.broken {
		return fmt.Errorf("mailer: done: %w (was %d, now %d)", ErrUIDValidity, in.fetchValidity, in.validity)
	}
	return in.do(ctx, "done", func(c *imapclient.Client) error {
		var set imap.UIDSet
		for _, uid := range uids {
			set.AddNum(imap.UID(uid))
		}
		err := c.Store(set, &imap.StoreFlags{
			Op:     imap.StoreFlagsAdd,
			Silent: true,
			Flags:  []imap.Flag{imap.FlagSeen},
		}, nil).Close()
		if err != nil {
			return err
		}
		_, err = c.Move(set, in.cfg.ProcessedMailbox).Wait()
		return err
	})
}

// Wait returns when new mail may have arrived since the last Fetch. It
// first sends NOOP and returns nil at once if that reports new messages.
// With IDLE (RFC 2177) it returns nil once the server reports a new message, or
// after MaxIdle; IDLE is always ended before Wait returns. Without IDLE (or
// with DisableIdle) it sleeps PollInterval and returns nil. It may return
// nil without new mail; the caller just fetches.
//
// When ctx ends, Wait returns ctx.Err() (unwrapped) and the session stays
// usable. Errors wrap ErrConnection when the session broke, and Wait
// returns ErrClosed when Close interrupted it.
func (in *Inbox) Wait(ctx context.Context) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.closed.Load() {
		return ErrClosed
	}
	if in.c == nil || in.broken {
		return fmt.Errorf("mailer: wait: %w", ErrConnection)
	}
	// NOOP collects updates the server holds back until the next command
	// (imapmemserver does not send them when IDLE starts): mail that came
	// after the last Fetch wakes us at once.
	// The NOOP runs under its own timeout, not ctx: a Wait whose deadline
	// passes during the NOOP must not close the connection (the session
	// stays usable when ctx ends, as documented).
	if ctx.Err() != nil {
		return ctx.Err()
	}
	noopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), DefaultDialTimeout)
	err := in.do(noopCtx, "wait", func(c *imapclient.Client) error { return c.Noop().Wait() })
	cancel()
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	select {
	case <-in.newMail:
		return nil
	default:
	}
	if in.beforeIdle != nil {
		in.beforeIdle()
	}
	if in.cfg.DisableIdle || !in.canIdle {
		t := time.NewTimer(in.cfg.PollInterval)
		defer t.Stop()
		select {
		case <-t.C:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-in.c.Closed():
			if in.closed.Load() {
				return ErrClosed
			}
			in.markBroken()
			return fmt.Errorf("mailer: wait: %w", ErrConnection)
		}
	}
	return in.idle(ctx)
}

// idle runs one IDLE command; in.mu is held.
func (in *Inbox) idle(ctx context.Context) error {
	c, conn := in.c, in.conn
	var idle *imapclient.IdleCommand
	// Starting IDLE, like the NOOP in Wait, runs under its own timeout so
	// that ctx ending meanwhile leaves the session usable; ctx is watched
	// once IDLE runs.
	startCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), DefaultDialTimeout)
	defer cancel()
	err := in.do(startCtx, "idle", func(c *imapclient.Client) error {
		var err error
		idle, err = c.Idle()
		return err
	})
	if err != nil {
		return err
	}
	t := time.NewTimer(in.cfg.MaxIdle)
	defer t.Stop()
	var result error
	select {
	case <-in.newMail:
	case <-t.C:
	case <-ctx.Done():
		result = ctx.Err()
	case <-c.Closed():
	}
	done := make(chan error, 1)
	go func() {
		if err := idle.Close(); err != nil {
			done <- err
			return
		}
		done <- idle.Wait()
	}()
	stopTimer := time.NewTimer(10 * time.Second)
	defer stopTimer.Stop()
	select {
	case err = <-done:
	case <-stopTimer.C:
		conn.Close()
		err = errors.New("server did not end IDLE")
	}
	if in.closed.Load() {
		return ErrClosed
	}
	if err != nil {
		return in.sessionError("idle", err)
	}
	return result
}

// Reconnect closes the current session, if any, and dials again until it
// succeeds, ctx ends, or the server rejects the login (ErrAuth) or the
// configuration (neither is retried). Attempts are spaced by exponential
// backoff from ReconnectMinDelay to ReconnectMaxDelay with jitter (each
// pause is between half and all of the nominal delay).
func (in *Inbox) Reconnect(ctx context.Context) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.closed.Load() {
		return ErrClosed
	}
	in.cmu.Lock()
	if in.c != nil {
		in.c.Close()
	}
	in.cmu.Unlock()
	in.markBroken()
	for attempt := 0; ; attempt++ {
		err := in.login(ctx)
		if err == nil || !errors.Is(err, ErrConnection) {
			return err
		}
		t := time.NewTimer(backoff(attempt, in.cfg.ReconnectMinDelay, in.cfg.ReconnectMaxDelay))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("mailer: reconnect: %w: %w (last attempt: %v)", ErrConnection, ctx.Err(), err)
		}
		if in.closed.Load() {
			return ErrClosed
		}
	}
}

// backoff returns the pause after failed attempt n (0-based): min·2ⁿ capped
// at max, then a random point in its upper half.
func backoff(n int, minDelay, maxDelay time.Duration) time.Duration {
	d := maxDelay
	if n < 62 {
		if e := minDelay << n; e > 0 && e < maxDelay {
			d = e
		}
	}
	half := d / 2
	return half + rand.N(d-half+1)
}

// UIDValidity returns the UIDVALIDITY of the mailbox as last selected
// (by DialInbox, Fetch or Reconnect).
func (in *Inbox) UIDValidity() uint32 {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.validity
}

// Close logs out (waiting at most two seconds) and closes the connection.
// It may be called concurrently with Wait, which then returns ErrClosed.
// Later calls of any method return ErrClosed; Close itself returns nil
// after the first call.
func (in *Inbox) Close() error {
	if in.closed.Swap(true) {
		return nil
	}
	in.smu.Lock()
	in.status.LoggedIn = false
	in.smu.Unlock()
	in.cmu.Lock()
	c, conn := in.c, in.conn
	in.cmu.Unlock()
	if c == nil {
		return nil
	}
	if in.mu.TryLock() { // not in the middle of Wait: say goodbye
		t := time.AfterFunc(2*time.Second, func() { conn.Close() })
		_ = c.Logout().Wait()
		t.Stop()
		in.mu.Unlock()
	}
	_ = c.Close() // after LOGOUT the server has closed it already
	return nil
}
