package e2e

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/mailer/devstack"
	"github.com/taflmail/taflmail/server"
)

// mailSystem is a running IMAP + SMTP system the tests play through: the
// in-process devstack, or Dovecot + Postfix from scripts/mailstack-up.sh.
type mailSystem struct {
	name               string
	imapAddr, smtpAddr string
	domain, password   string
	// newUser returns the login (the local part) of a fresh, empty account.
	newUser func(t testing.TB, prefix string) string
	// settle is how long a mail the SMTP server accepted may take to reach
	// its mailbox: Postfix queues and delivers over LMTP, devstack delivers
	// before it answers DATA.
	settle time.Duration
	// wait bounds every wait for a mail or a mailbox state.
	wait time.Duration
}

// randomName returns prefix and ten random hex digits: a fresh account on
// the wildcard mail stack, unique across test runs and packages.
func randomName(prefix string) string {
	var b [5]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// devSystem starts a devstack for one test.
func devSystem(t testing.TB) *mailSystem {
	t.Helper()
	s, err := devstack.Start("", nil)
	if err != nil {
		t.Fatalf("devstack.Start: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return devSystemOf(s)
}

// devSystemOf is the mail system of a running devstack, for a test that
// also needs the stack's own hooks.
func devSystemOf(s *devstack.Stack) *mailSystem {
	const password = "secret"
	return &mailSystem{
		name: "devstack", imapAddr: s.IMAPAddr(), smtpAddr: s.SMTPAddr(), domain: s.Domain(), password: password,
		newUser: func(t testing.TB, prefix string) string {
			u := randomName(prefix)
			if err := s.AddUser(u, password); err != nil {
				t.Fatal(err)
			}
			return u
		},
		wait: 30 * time.Second,
	}
}

// mailstackSystem returns the Dovecot + Postfix system described by the
// MAILSTACK_* environment. Without it the test is skipped, or fails when
// CI=true: CI must play through the real servers.
func mailstackSystem(t testing.TB) *mailSystem {
	t.Helper()
	imapAddr, smtpAddr := os.Getenv("MAILSTACK_IMAP_ADDR"), os.Getenv("MAILSTACK_SMTP_ADDR")
	password, domains := os.Getenv("MAILSTACK_PASSWORD"), strings.Fields(os.Getenv("MAILSTACK_DOMAINS"))
	if imapAddr == "" || smtpAddr == "" || password == "" || len(domains) == 0 {
		msg := "no Dovecot + Postfix: MAILSTACK_IMAP_ADDR, MAILSTACK_SMTP_ADDR, MAILSTACK_PASSWORD and MAILSTACK_DOMAINS " +
			"are not all set; start the stack with `sudo bash scripts/mailstack-up.sh` and export its env file " +
			"(set -a; . /tmp/taflmail-mailstack/env; set +a), or run .ci/run"
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true: " + msg)
		}
		t.Skip(msg)
	}
	if users := os.Getenv("MAILSTACK_USERS"); users != "" && users != "*" {
		t.Fatalf("MAILSTACK_USERS=%q: the end-to-end tests need wildcard mode (MAILSTACK_USERS='*') for fresh accounts", users)
	}
	return &mailSystem{
		name: "mailstack", imapAddr: imapAddr, smtpAddr: smtpAddr, domain: domains[0], password: password,
		newUser: func(_ testing.TB, prefix string) string { return randomName(prefix) },
		settle:  2 * time.Second,
		wait:    60 * time.Second,
	}
}

// eachSystem runs f as a subtest against devstack, always, and against
// Dovecot + Postfix (see mailstackSystem).
func eachSystem(t *testing.T, f func(t *testing.T, sys *mailSystem)) {
	t.Run("devstack", func(t *testing.T) { t.Parallel(); f(t, devSystem(t)) })
	t.Run("mailstack", func(t *testing.T) { t.Parallel(); f(t, mailstackSystem(t)) })
}

func (sys *mailSystem) address(user string) string { return user + "@" + sys.domain }

func (sys *mailSystem) imapConfig(user, processed string) mailer.IMAPConfig {
	return mailer.IMAPConfig{
		Addr: sys.imapAddr, Username: user, Password: sys.password, Security: mailer.SecurityNone,
		ProcessedMailbox:  processed,
		ReconnectMinDelay: 20 * time.Millisecond, ReconnectMaxDelay: 500 * time.Millisecond,
		DialTimeout: 10 * time.Second,
	}
}

func (sys *mailSystem) sender(helo string) *mailer.Sender { return sys.senderVia(sys.smtpAddr, helo) }

// senderVia is sender through another SMTP address, e.g. a proxy.
func (sys *mailSystem) senderVia(addr, helo string) *mailer.Sender {
	return mailer.NewSender(mailer.SMTPConfig{Addr: addr, Security: mailer.SecurityNone, HeloName: helo, Timeout: 20 * time.Second})
}

// boxMail is one message of a mailbox as a second IMAP client sees it.
type boxMail struct {
	messageID string
	from      string
	seen      bool
}

// mailbox lists a mailbox of user through a separate read-only IMAP
// session, without touching any flag. A mailbox that does not exist is
// empty.
func (sys *mailSystem) mailbox(t testing.TB, user, name string) []boxMail {
	t.Helper()
	c, err := imapclient.DialInsecure(sys.imapAddr, nil)
	if err != nil {
		t.Fatalf("mailbox %s of %s: %v", name, user, err)
	}
	defer c.Close()
	if err := c.Login(user, sys.password).Wait(); err != nil {
		t.Fatalf("mailbox %s of %s: login: %v", name, user, err)
	}
	data, err := c.Select(name, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		var ie *imap.Error
		if errors.As(err, &ie) && ie.Type == imap.StatusResponseTypeNo {
			return nil
		}
		t.Fatalf("mailbox %s of %s: select: %v", name, user, err)
	}
	var out []boxMail
	if data.NumMessages > 0 {
		bufs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{UID: true, Flags: true, Envelope: true}).Collect()
		if err != nil {
			t.Fatalf("mailbox %s of %s: fetch: %v", name, user, err)
		}
		slices.SortFunc(bufs, func(a, b *imapclient.FetchMessageBuffer) int { return int(a.UID) - int(b.UID) })
		for _, b := range bufs {
			m := boxMail{seen: slices.Contains(b.Flags, imap.FlagSeen)}
			if b.Envelope != nil {
				m.messageID = strings.Trim(b.Envelope.MessageID, "<>")
				if len(b.Envelope.From) > 0 {
					m.from = strings.ToLower(b.Envelope.From[0].Addr())
				}
			}
			out = append(out, m)
		}
	}
	_ = c.Logout().Wait()
	return out
}

// eventually calls cond every 50 ms until it returns "" or the system's
// wait is over, then fails with cond's last complaint.
func (sys *mailSystem) eventually(t testing.TB, cond func() string) {
	t.Helper()
	deadline := time.Now().Add(sys.wait)
	for {
		why := cond()
		if why == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", sys.wait, why)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// logWriter sends the referee's log to t.Log, shown for failed tests and
// with -v.
type logWriter struct{ t testing.TB }

// Write logs one slog line.
func (w logWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// faultSender passes mails to the real SMTP sender, except that it can be
// told to hang in its next Send until the daemon is stopped: the state a
// crash between committing a mail and sending its replies leaves behind.
type faultSender struct {
	next server.Sender
	// stopping is closed when the daemon is told to stop (the referee's
	// run context); a hung Send then fails like a timed-out connection,
	// also when the daemon sends under a context that is not cancelled.
	stopping <-chan struct{}

	mu      sync.Mutex
	hang    chan struct{} // not nil: the next Send closes it and hangs
	handed  int           // mails handed to the SMTP server
	refused int           // Sends that hung or failed
}

// hangNext makes the next Send hang until its ctx ends; the returned
// channel is closed when that Send has begun.
func (f *faultSender) hangNext() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hang = make(chan struct{})
	return f.hang
}

// Send implements server.Sender.
func (f *faultSender) Send(ctx context.Context, from string, to []string, raw []byte) error {
	f.mu.Lock()
	hang := f.hang
	f.hang = nil
	f.mu.Unlock()
	if hang != nil {
		f.mu.Lock()
		stopping := f.stopping
		f.mu.Unlock()
		close(hang)
		select {
		case <-ctx.Done():
		case <-stopping:
		}
		f.mu.Lock()
		f.refused++
		f.mu.Unlock()
		return &mailer.SendError{Temporary: true, Err: errors.New("test: hung until the daemon was stopped")}
	}
	err := f.next.Send(ctx, from, to, raw)
	f.mu.Lock()
	if err == nil {
		f.handed++
	} else {
		f.refused++
	}
	f.mu.Unlock()
	return err
}

// referee is the daemon under test: server.Server.Run with its own IMAP
// inbox, the SMTP sender and an archive file that outlive restarts.
type referee struct {
	t      *testing.T
	sys    *mailSystem
	user   string
	addr   string
	dbPath string
	recs   string
	sender *faultSender
	// wrap, when set, stands between the daemon and its IMAP inbox.
	wrap func(*mailer.Inbox) server.Inbox

	// while running
	store  *archive.Store
	inbox  *mailer.Inbox
	cancel context.CancelFunc
	done   chan error
	starts int
}

// newReferee creates the referee's account and archive folder; start runs
// it.
func newReferee(t *testing.T, sys *mailSystem) *referee {
	t.Helper()
	user := sys.newUser(t, "tafl")
	dir := t.TempDir()
	r := &referee{
		t: t, sys: sys, user: user, addr: sys.address(user),
		dbPath: filepath.Join(dir, "taflmail.db"), recs: filepath.Join(dir, "records"),
		sender: &faultSender{next: sys.sender(sys.domain)},
	}
	t.Cleanup(r.stop)
	return r
}

// start opens the archive, logs in to IMAP and runs the daemon in a
// goroutine, as `taflmail serve` does.
func (r *referee) start() {
	r.t.Helper()
	if r.cancel != nil {
		r.t.Fatal("referee started twice")
	}
	ctx := context.Background()
	store, err := archive.Open(ctx, r.dbPath)
	if err != nil {
		r.t.Fatalf("referee start %d: archive: %v", r.starts+1, err)
	}
	inbox, err := mailer.DialInbox(ctx, r.sys.imapConfig(r.user, mailer.DefaultProcessedMailbox))
	if err != nil {
		store.Close()
		r.t.Fatalf("referee start %d: IMAP: %v", r.starts+1, err)
	}
	r.starts++
	var in server.Inbox = inbox
	if r.wrap != nil {
		in = r.wrap(inbox)
	}
	srv, err := server.New(server.Options{
		Address: r.addr, Store: store, Inbox: in, Sender: r.sender,
		Logger:     slog.New(slog.NewTextHandler(logWriter{r.t}, nil)).With("run", r.starts),
		RecordsDir: r.recs,
		RetryAfter: 200 * time.Millisecond,
		WaitCap:    time.Second,
	})
	if err != nil {
		inbox.Close()
		store.Close()
		r.t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	r.sender.mu.Lock()
	r.sender.stopping = runCtx.Done()
	r.sender.mu.Unlock()
	r.store, r.inbox, r.cancel, r.done = store, inbox, cancel, make(chan error, 1)
	go func() { r.done <- srv.Run(runCtx) }()
}

// stop stops the daemon the way a SIGTERM stops `taflmail serve`: cancel
// Run's context, wait for it, close the inbox and the archive.
func (r *referee) stop() {
	if r.cancel == nil {
		return
	}
	r.cancel()
	select {
	case err := <-r.done:
		if err != nil {
			r.t.Errorf("referee run %d: Run = %v", r.starts, err)
		}
	case <-time.After(30 * time.Second):
		r.t.Errorf("referee run %d: Run did not return within 30 s of cancel", r.starts)
	}
	r.inbox.Close()
	if err := r.store.Close(); err != nil {
		r.t.Errorf("referee run %d: closing the archive: %v", r.starts, err)
	}
	r.cancel, r.store, r.inbox = nil, nil, nil
}

// archive opens the archive file for a look while the referee is stopped
// (or beside it: SQLite in WAL mode allows a second reader).
func (r *referee) archive() *archive.Store {
	r.t.Helper()
	s, err := archive.Open(context.Background(), r.dbPath)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { s.Close() })
	return s
}

// player is a scripted person with an IMAP inbox and an SMTP sender of
// their own.
type player struct {
	sys              *mailSystem
	name, user, addr string
	inbox            *mailer.Inbox
	sender           *mailer.Sender
	validity         uint32
	lastUID          uint32
	queue            []*mailer.Message // fetched, not yet taken by next
	received         []*mailer.Message // every mail taken by next, in order
	seq              int
	// date, when set, is the Date: field of the mails the player sends
	// (a client with a wrong clock, or a cheat); zero: now.
	date time.Time
}

func newPlayer(t *testing.T, sys *mailSystem, name string) *player {
	t.Helper()
	user := sys.newUser(t, name)
	ctx, cancel := context.WithTimeout(context.Background(), sys.wait)
	defer cancel()
	in, err := mailer.DialInbox(ctx, sys.imapConfig(user, "Read"))
	if err != nil {
		t.Fatalf("player %s: %v", name, err)
	}
	t.Cleanup(func() { in.Close() })
	return &player{sys: sys, name: name, user: user, addr: sys.address(user), inbox: in, sender: sys.sender("player.test")}
}

// send mails body to the referee and returns the mail's Message-ID. With
// re it is a reply as a mail client writes it: "Re: " subject,
// In-Reply-To, References and the old text quoted below.
func (p *player) send(t testing.TB, to, subject, body string, re *mailer.Message) string {
	t.Helper()
	p.seq++
	o := mailer.Outgoing{
		MessageID: fmt.Sprintf("%s.%d.%s@player.test", p.name, p.seq, randomName("")),
		From:      p.addr, To: []string{to}, Subject: subject, Body: body + "\n",
		Headers: map[string]string{"Auto-Submitted": "no"}, Date: p.date,
	}
	if re != nil {
		o.Subject = "Re: " + re.Subject
		o.InReplyTo = re.MessageID
		o.References = append(append([]string(nil), re.References...), re.MessageID)
		o.Body = body + "\n\nOn " + re.Date.Format("Mon, 2 Jan 2006") + ", taflmail wrote:\n> " +
			strings.ReplaceAll(strings.TrimSpace(re.Text), "\n", "\n> ") + "\n"
	}
	raw, err := o.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), p.sys.wait)
	defer cancel()
	if err := p.sender.Send(ctx, p.addr, []string{to}, raw); err != nil {
		t.Fatalf("%s sends %q: %v", p.name, body, err)
	}
	return o.MessageID
}

// reconnect logs in again after the player's IMAP session broke.
func (p *player) reconnect(t testing.TB, why error) {
	t.Helper()
	t.Logf("%s: reconnecting to IMAP after: %v", p.name, why)
	ctx, cancel := context.WithTimeout(context.Background(), p.sys.wait)
	defer cancel()
	if err := p.inbox.Reconnect(ctx); err != nil {
		t.Fatalf("%s: reconnect: %v", p.name, err)
	}
}

// next returns the next mail in the player's INBOX, waiting for it.
func (p *player) next(t testing.TB) *mailer.Message {
	t.Helper()
	deadline := time.Now().Add(p.sys.wait)
	for len(p.queue) == 0 {
		ctx, cancel := context.WithTimeout(context.Background(), p.sys.wait)
		msgs, v, err := p.inbox.Fetch(ctx, p.validity, p.lastUID, 0)
		cancel()
		if errors.Is(err, mailer.ErrConnection) && time.Now().Before(deadline) {
			p.reconnect(t, err)
			continue
		}
		if err != nil {
			t.Fatalf("%s: fetch: %v", p.name, err)
		}
		if v != p.validity && p.validity != 0 {
			t.Fatalf("%s: UIDVALIDITY of INBOX changed from %d to %d", p.name, p.validity, v)
		}
		p.validity = v
		if len(msgs) > 0 {
			p.queue = msgs
			p.lastUID = msgs[len(msgs)-1].UID
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: no mail from the referee within %v (received %d so far)", p.name, p.sys.wait, len(p.received))
		}
		// A short IDLE: the in-memory server may miss waking an IDLE
		// that starts as the mail lands, so look again soon anyway.
		wctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		err = p.inbox.Wait(wctx)
		cancel()
		switch {
		case errors.Is(err, mailer.ErrConnection):
			// Wait's deadline fell into its NOOP (a loaded machine), which
			// closes the connection.
			p.reconnect(t, err)
		case err != nil && !errors.Is(err, context.DeadlineExceeded):
			t.Fatalf("%s: wait: %v", p.name, err)
		}
	}
	m := p.queue[0]
	p.queue = p.queue[1:]
	for _, r := range p.received {
		if r.MessageID == m.MessageID {
			t.Fatalf("%s got Message-ID %s twice (%q): the referee sent a mail again", p.name, m.MessageID, m.Subject)
		}
	}
	p.received = append(p.received, m)
	return m
}

// silence returns an empty discard logger, for benchmarks.
func silence() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
