// Package devstack runs a complete mail system in memory on loopback: an
// IMAP server (go-imap's imapserver with the imapmemserver backend,
// IMAP4rev1 + IMAP4rev2, plain-text LOGIN allowed) and an SMTP server
// (go-smtp) that delivers each recipient's copy into that user's INBOX.
//
// Both servers take a password (IMAP LOGIN, SASL PLAIN) or an OAuth2
// access token (SASL XOAUTH2 and OAUTHBEARER, RFC 7628), which is checked
// against the token set for the user with [Options].Tokens or
// [Stack.SetToken], as a provider's server checks the tokens it issued.
//
// Tests use it to exercise package mailer over real sockets, and
// `taflmail demo` to play without a mail account. It is not a mail server
// for real use: no queue, everything is lost on Close; TLS (STARTTLS or
// implicit, Options.TLS) only with a certificate of its own test CA
// (NewTLS).
package devstack

import (
	"bytes"
	"cmp"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/mail"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/taflmail/taflmail/mailer"
)

// Options configure [StartOptions]. The zero value is usable.
type Options struct {
	// Domain is the mail domain; empty means "taflmail.test".
	Domain string
	// Users maps local parts to passwords; they log in to IMAP with the
	// local part ("alice"), to SMTP AUTH with the local part or the address.
	Users map[string]string
	// Tokens maps local parts of Users to the OAuth2 access token each may
	// log in with (XOAUTH2, OAUTHBEARER; user name as for the password).
	// A user without one cannot log in with a token.
	Tokens map[string]string
	// LegacyIMAP makes the IMAP server announce IMAP4rev1 alone (no MOVE,
	// UIDPLUS, ESEARCH), to test clients' fallbacks.
	LegacyIMAP bool
	// IMAPAddr and SMTPAddr are the addresses the servers listen on;
	// empty means "127.0.0.1:0", a port the system chooses. Give fixed
	// ports (e.g. "127.0.0.1:1143") to point a mail client or `taflmail
	// serve` at a stack that restarts; a port in use fails StartOptions.
	IMAPAddr, SMTPAddr string
	// TLS, when set, makes both servers offer STARTTLS with this
	// configuration (see NewTLS); with ImplicitTLS they speak TLS from
	// the first byte instead, as on ports 993 and 465.
	TLS         *tls.Config
	ImplicitTLS bool
	// MaxMessageBytes is the SMTP size limit; 0 means 32 MiB.
	MaxMessageBytes int64
	// Debug, when set, receives both servers' raw protocol traffic.
	Debug io.Writer
	// Logger receives the servers' error messages; nil discards them.
	Logger *log.Logger
}

// Stack is a running in-memory mail system. Its methods are safe for
// concurrent use.
type Stack struct {
	domain string

	mem     *imapmemserver.Server
	imapSrv *imapserver.Server
	imapLn  net.Listener
	smtpSrv *smtp.Server // replaced by StartSMTP; guarded by mu after Start
	smtpLn  net.Listener // the same
	done    sync.WaitGroup

	smtpAddr   string                          // where the SMTP server listens, also after StartSMTP
	newSMTP    func() *smtp.Server             // builds an SMTP server of the stack's options
	smtpListen func(net.Listener) net.Listener // wraps the listener for implicit TLS

	implicitTLS bool // the IMAP port speaks TLS from the first byte

	mu       sync.Mutex
	users    map[string]*user // by local part
	failNext int              // SMTP code for the next DATA, 0 for none
	closed   bool
	smtpDown bool // StopSMTP was called
}

type user struct {
	password string
	token    string // OAuth2 access token; "" accepts none
	mem      *imapmemserver.User
	failUID  uint32 // FailFetch: the INBOX UID whose FETCH fails, 0 for none
	failDrop bool   // FailFetch: drop the connection rather than answer NO
}

// Start starts a stack for domain (empty means "taflmail.test") with the
// given users (local part → password) on 127.0.0.1 with ports chosen by
// the system. Call Close when done.
func Start(domain string, users map[string]string) (*Stack, error) {
	return StartOptions(Options{Domain: domain, Users: users})
}

// StartOptions is Start with every option.
func StartOptions(o Options) (*Stack, error) {
	o = o.withDefaults()
	s, err := newStack(o)
	if err != nil {
		return nil, err
	}
	imapLn, err := s.listenIMAP(o)
	if err != nil {
		return nil, err
	}
	if err := s.listenSMTP(o); err != nil {
		s.imapLn.Close()
		return nil, err
	}
	s.done.Add(2)
	go func() { defer s.done.Done(); _ = s.imapSrv.Serve(imapLn) }()
	go s.serveSMTP(s.smtpSrv, s.smtpLn)
	return s, nil
}

// withDefaults returns o with its zero fields that stand for a default
// filled in: Domain, MaxMessageBytes and Logger (one that discards).
func (o Options) withDefaults() Options {
	if o.Domain == "" {
		o.Domain = "taflmail.test"
	}
	if o.MaxMessageBytes <= 0 {
		o.MaxMessageBytes = 32 << 20
	}
	if o.Logger == nil {
		o.Logger = log.New(io.Discard, "", 0)
	}
	return o
}

// startTLS returns the configuration both servers offer by STARTTLS: o.TLS
// unless the servers speak TLS from the first byte; nil for none.
func (o Options) startTLS() *tls.Config {
	if o.ImplicitTLS {
		return nil
	}
	return o.TLS
}

// wrapListener returns ln as a server of o listens on it: under TLS from
// the first byte with ImplicitTLS and a TLS configuration, else as it is.
func (o Options) wrapListener(ln net.Listener) net.Listener {
	if o.TLS != nil && o.ImplicitTLS {
		return tls.NewListener(ln, o.TLS)
	}
	return ln
}

// newStack returns a stack of o's domain, not yet listening, with o's
// users and tokens added; it returns the error of the first user, then of
// the first token, that cannot be added.
func newStack(o Options) (*Stack, error) {
	s := &Stack{
		domain: strings.ToLower(o.Domain),
		mem:    imapmemserver.New(),
		users:  make(map[string]*user),

		implicitTLS: o.TLS != nil && o.ImplicitTLS,
	}
	for local, pw := range o.Users {
		if err := s.AddUser(local, pw); err != nil {
			return nil, err
		}
	}
	for local, token := range o.Tokens {
		if err := s.SetToken(local, token); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// listenIMAP makes the stack's IMAP server (IMAP4rev2 and IMAP4rev1, or
// rev1 alone with LegacyIMAP) and its listener on o.IMAPAddr, and returns
// the listener to serve it on, under TLS with ImplicitTLS.
func (s *Stack) listenIMAP(o Options) (net.Listener, error) {
	caps := imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}}
	if o.LegacyIMAP {
		caps = imap.CapSet{imap.CapIMAP4rev1: {}}
	}
	s.imapSrv = imapserver.New(&imapserver.Options{
		NewSession: func(conn *imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			mem := &idleSession{s.mem.NewSession().(imapserver.SessionIMAP4rev2)}
			return &imapSession{SessionIMAP4rev2: mem, stack: s, conn: conn}, nil, nil
		},
		Caps:         caps,
		TLSConfig:    o.startTLS(),
		InsecureAuth: true,
		Logger:       o.Logger,
		DebugWriter:  o.Debug,
	})
	var err error
	if s.imapLn, err = net.Listen("tcp", cmp.Or(o.IMAPAddr, "127.0.0.1:0")); err != nil {
		return nil, fmt.Errorf("devstack: imap listen: %w", err)
	}
	return o.wrapListener(s.imapLn), nil
}

// listenSMTP sets up the stack's SMTP side: newSMTP and smtpListen, which
// StartSMTP uses again, the first server and its listener on o.SMTPAddr.
func (s *Stack) listenSMTP(o Options) error {
	s.newSMTP = func() *smtp.Server {
		srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
			return &session{stack: s}, nil
		}))
		srv.Domain = "mail." + s.domain
		srv.AllowInsecureAuth = true
		srv.MaxMessageBytes = o.MaxMessageBytes
		srv.MaxRecipients = 100
		srv.ReadTimeout = time.Minute
		srv.WriteTimeout = time.Minute
		srv.ErrorLog = o.Logger
		srv.Debug = o.Debug
		srv.EnableSMTPUTF8 = true
		srv.TLSConfig = o.startTLS()
		return srv
	}
	s.smtpListen = o.wrapListener
	s.smtpSrv = s.newSMTP()
	var err error
	if s.smtpLn, err = net.Listen("tcp", cmp.Or(o.SMTPAddr, "127.0.0.1:0")); err != nil {
		return fmt.Errorf("devstack: smtp listen: %w", err)
	}
	s.smtpAddr = s.smtpLn.Addr().String()
	return nil
}

// serveSMTP runs srv on ln until either is closed; s.done counts it.
func (s *Stack) serveSMTP(srv *smtp.Server, ln net.Listener) {
	defer s.done.Done()
	_ = srv.Serve(s.smtpListen(ln))
}

// Domain returns the stack's mail domain, lower-cased.
func (s *Stack) Domain() string { return s.domain }

// IMAPAddr returns the IMAP server's host:port (plain TCP, no TLS).
func (s *Stack) IMAPAddr() string { return s.imapLn.Addr().String() }

// SMTPAddr returns the SMTP server's host:port (plain TCP, no TLS).
func (s *Stack) SMTPAddr() string { return s.smtpAddr }

// Address returns local@domain as it is written in a mail or an SMTP
// path: lower-cased, the local part quoted when it is not a dot-atom
// (`"john doe"@taflmail.test`).
func (s *Stack) Address(local string) string {
	a := (&mail.Address{Address: strings.ToLower(local) + "@" + s.domain}).String()
	return a[1 : len(a)-1]
}

// AddUser creates the user local (lower-cased) with an empty INBOX. local
// is the local part unquoted: "john doe" is the user of
// `"john doe"@taflmail.test` (it logs in to IMAP as "john doe"). It fails
// if the user exists or local is empty or holds a control character, a
// double quote or a backslash.
func (s *Stack) AddUser(local, password string) error {
	local = strings.ToLower(local)
	if local == "" || strings.ContainsAny(local, "\"\\\x00\t\r\n") {
		return fmt.Errorf("devstack: bad user name %q", local)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.users[local] != nil {
		return fmt.Errorf("devstack: user %q exists", local)
	}
	u := imapmemserver.NewUser(local, password)
	if err := u.Create("INBOX", nil); err != nil {
		return fmt.Errorf("devstack: creating INBOX of %q: %w", local, err)
	}
	s.mem.AddUser(u)
	s.users[local] = &user{password: password, mem: u}
	return nil
}

// SetToken sets the OAuth2 access token the user local may log in with,
// replacing the one before (which then fails, as an expired token does);
// "" allows no token. It fails if there is no such user.
func (s *Stack) SetToken(local, token string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[strings.ToLower(local)]
	if u == nil {
		return fmt.Errorf("devstack: no user %q", local)
	}
	u.token = token
	return nil
}

// StopSMTP stops the SMTP server alone, closing its listener and its
// sessions; its port then refuses connections while IMAP goes on, as a
// relay that went down. For tests of what a client makes of that.
func (s *Stack) StopSMTP() error {
	s.mu.Lock()
	if s.closed || s.smtpDown {
		s.mu.Unlock()
		return nil
	}
	s.smtpDown = true
	srv, ln := s.smtpSrv, s.smtpLn
	s.mu.Unlock()
	err := srv.Close()
	_ = ln.Close() // as in Close: Serve may not have registered it yet
	return err
}

// StartSMTP starts the SMTP server again after StopSMTP, on the same
// address, as a relay that comes back; the users' mail and the stack's
// options are as before. It does nothing while the server runs; the
// error is that of listening (the port taken meanwhile).
func (s *Stack) StartSMTP() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || !s.smtpDown {
		return nil
	}
	ln, err := net.Listen("tcp", s.smtpAddr)
	if err != nil {
		return fmt.Errorf("devstack: smtp listen again: %w", err)
	}
	s.smtpSrv, s.smtpLn, s.smtpDown = s.newSMTP(), ln, false
	s.done.Add(1)
	go s.serveSMTP(s.smtpSrv, s.smtpLn)
	return nil
}

// FailNextSMTP makes the next DATA command (of any session) fail with the
// reply code (e.g. 451 or 554), for retry tests. 0 cancels.
func (s *Stack) FailNextSMTP(code int) {
	s.mu.Lock()
	s.failNext = code
	s.mu.Unlock()
}

// FailFetch makes the IMAP server fail every UID FETCH in the INBOX of
// the user local that reads the message with this UID (asks for its
// BODYSTRUCTURE or a body section, in a UID set containing it): with a NO
// reply, or, when drop is set, by closing the connection, as imapmemserver
// did for a message whose MIME structure it could not describe (trial
// report §2). For tests of a client's recovery; uid 0 ends it. The set is
// matched by number: a UID that was moved out still fails "UID FETCH 1:*".
func (s *Stack) FailFetch(local string, uid uint32, drop bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[strings.ToLower(local)]
	if u == nil {
		return fmt.Errorf("devstack: no user %q", local)
	}
	u.failUID, u.failDrop = uid, drop
	return nil
}

// failFetch returns the UID FailFetch set for the user local and whether
// to drop the connection; 0 when none.
func (s *Stack) failFetch(local string) (uint32, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u := s.users[local]; u != nil {
		return u.failUID, u.failDrop
	}
	return 0, false
}

// Deliver appends raw to the INBOX of local as the SMTP server would,
// without SMTP. A message the IMAP server could not describe is stored
// mended or refused with ErrUndescribable, as at SMTP (see servable).
func (s *Stack) Deliver(local string, raw []byte) error {
	s.mu.Lock()
	u := s.users[strings.ToLower(local)]
	s.mu.Unlock()
	if u == nil {
		return fmt.Errorf("devstack: no user %q", local)
	}
	raw, err := servable(raw)
	if err != nil {
		return err
	}
	_, err = u.mem.Append("INBOX", bytes.NewReader(raw), &imap.AppendOptions{Time: time.Now()})
	return err
}

// Messages reads the INBOX of user (a local part) through a real IMAP
// client, without setting \Seen, and returns its messages in UID order,
// parsed by mailer.Parse with a 32 MiB limit and with Mailbox, UIDValidity,
// UID and Arrived (INTERNALDATE) set.
func (s *Stack) Messages(local string) ([]*mailer.Message, error) {
	return s.MailboxMessages(local, "INBOX")
}

// MailboxMessages is Messages for any mailbox of the user.
func (s *Stack) MailboxMessages(local, mailbox string) ([]*mailer.Message, error) {
	s.mu.Lock()
	u := s.users[strings.ToLower(local)]
	s.mu.Unlock()
	if u == nil {
		return nil, fmt.Errorf("devstack: no user %q", local)
	}
	var c *imapclient.Client
	var err error
	if s.implicitTLS {
		// the stack reading its own server over loopback: the certificate
		// is the test's, not for checking here
		c, err = imapclient.DialTLS(s.IMAPAddr(), &imapclient.Options{TLSConfig: &tls.Config{InsecureSkipVerify: true}})
	} else {
		c, err = imapclient.DialInsecure(s.IMAPAddr(), nil)
	}
	if err != nil {
		return nil, fmt.Errorf("devstack: %w", err)
	}
	defer c.Close()
	if err := c.Login(strings.ToLower(local), u.password).Wait(); err != nil {
		return nil, fmt.Errorf("devstack: login: %w", err)
	}
	data, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		return nil, fmt.Errorf("devstack: select %s: %w", mailbox, err)
	}
	if data.NumMessages == 0 {
		return nil, c.Logout().Wait()
	}
	section := &imap.FetchItemBodySection{Peek: true}
	bufs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{
		UID:          true,
		Flags:        true,
		InternalDate: true,
		BodySection:  []*imap.FetchItemBodySection{section},
	}).Collect()
	if err != nil {
		return nil, fmt.Errorf("devstack: fetch: %w", err)
	}
	var out []*mailer.Message
	for _, b := range bufs {
		m, err := mailer.Parse(bytes.NewReader(b.FindBodySection(section)), 32<<20)
		if err != nil {
			return nil, fmt.Errorf("devstack: message %d: %w", b.UID, err)
		}
		m.Mailbox, m.UIDValidity, m.UID, m.Arrived = mailbox, data.UIDValidity, uint32(b.UID), b.InternalDate
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b *mailer.Message) int { return cmp.Compare(a.UID, b.UID) })
	return out, c.Logout().Wait()
}

// Close stops both servers and waits for them.
func (s *Stack) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	smtpDown := s.smtpDown
	smtpSrv, smtpLn := s.smtpSrv, s.smtpLn
	s.mu.Unlock()
	var err error
	if !smtpDown {
		err = smtpSrv.Close()
	}
	err = errors.Join(err, s.imapSrv.Close())
	// A server closes only the listeners its Serve has registered; a
	// Close right after Start can come first, and go-smtp's Serve would
	// then accept for ever. Closing them here ends Serve either way (a
	// second close only reports an error, which is dropped).
	_ = smtpLn.Close()
	_ = s.imapLn.Close()
	s.done.Wait()
	return err
}

// idlePoll is how often an IDLE session of the IMAP server looks for
// changes to report.
const idlePoll = 20 * time.Millisecond

// idleSession is an imapmemserver session whose IDLE reports every change,
// also one made before IDLE started.
//
// imapmemserver's own IDLE only wakes for changes made after it started:
// a message appended between a client's last command and its IDLE waited
// for the next change or the end of the IDLE, a poll interval later (issue
// 8 §6). This IDLE sends what is pending at once and then looks again every
// idlePoll, which cannot miss anything. Dovecot reports pending changes
// when IDLE starts, as this does.
type idleSession struct {
	imapserver.SessionIMAP4rev2
}

var _ imapserver.SessionIMAP4rev2 = (*idleSession)(nil)

// Idle implements imapserver.Session.
func (s *idleSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	t := time.NewTicker(idlePoll)
	defer t.Stop()
	for {
		if err := s.Poll(w, true); err != nil {
			return err
		}
		select {
		case <-stop:
			return nil
		case <-t.C:
		}
	}
}

// session is one SMTP connection's transaction state.
type session struct {
	stack *Stack
	from  string
	rcpts []*user
	auth  bool
}

var _ smtp.AuthSession = (*session)(nil)

// AuthMechanisms implements smtp.AuthSession.
func (se *session) AuthMechanisms() []string { return mechanisms }

// Auth implements smtp.AuthSession: PLAIN, XOAUTH2 and OAUTHBEARER with
// the local part or the address as user name.
func (se *session) Auth(mech string) (sasl.Server, error) {
	if mech == sasl.Plain {
		return sasl.NewPlainServer(func(identity, username, password string) error {
			u, _ := se.stack.user(username)
			if u == nil || u.password != password || (identity != "" && identity != username) {
				return smtp.ErrAuthFailed
			}
			se.auth = true
			return nil
		}), nil
	}
	srv := se.stack.tokenServer(mech, func(string) error { se.auth = true; return nil }, smtp.ErrAuthFailed)
	if srv == nil {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return srv, nil
}

// Mail implements smtp.Session.
func (se *session) Mail(from string, _ *smtp.MailOptions) error {
	se.from = from
	return nil
}

// Rcpt implements smtp.Session: local users of the stack's domain only.
// go-smtp hands over the path with a quoted local part unquoted
// (`john doe@taflmail.test`), which is how users are named.
func (se *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	to = strings.ToLower(to)
	i := strings.LastIndexByte(to, '@')
	if i < 0 || to[i+1:] != se.stack.domain {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "Relaying denied"}
	}
	se.stack.mu.Lock()
	u := se.stack.users[to[:i]]
	se.stack.mu.Unlock()
	if u == nil {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user here"}
	}
	se.rcpts = append(se.rcpts, u)
	return nil
}

// Data implements smtp.Session: it prepends Return-Path and Received and
// appends one copy per recipient to the recipient's INBOX. A message the
// IMAP server could not describe is stored mended, or refused with 554
// 5.6.0 (see servable).
func (se *session) Data(r io.Reader) error {
	body, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	se.stack.mu.Lock()
	code := se.stack.failNext
	se.stack.failNext = 0
	se.stack.mu.Unlock()
	if code != 0 {
		return &smtp.SMTPError{Code: code, EnhancedCode: smtp.EnhancedCodeNotSet, Message: "Injected failure (devstack FailNextSMTP)"}
	}
	now := time.Now()
	var hdr bytes.Buffer
	fmt.Fprintf(&hdr, "Return-Path: <%s>\r\n", se.from)
	fmt.Fprintf(&hdr, "Received: by mail.%s (taflmail devstack); %s\r\n", se.stack.domain, now.Format(time.RFC1123Z))
	msg, err := servable(append(hdr.Bytes(), body...))
	if err != nil {
		return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0}, Message: "Message refused: " + strings.TrimPrefix(err.Error(), "devstack: ")}
	}
	for _, u := range se.rcpts {
		if _, err := u.mem.Append("INBOX", bytes.NewReader(msg), &imap.AppendOptions{Time: now}); err != nil {
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Delivery failed: " + err.Error()}
		}
	}
	return nil
}

// Reset implements smtp.Session.
func (se *session) Reset() {
	se.from, se.rcpts = "", nil
}

// Logout implements smtp.Session.
func (se *session) Logout() error { return nil }
