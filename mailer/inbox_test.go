package mailer_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/mailer/devstack"
)

// mailEnv is a mail system the network tests run against: the in-process
// devstack, or Dovecot + Postfix started by scripts/mailstack-up.sh.
type mailEnv struct {
	name               string
	imapAddr, smtpAddr string
	domain, password   string
	// newUser returns the login (= local part) of a fresh, empty account.
	newUser func(t *testing.T) string
	// failNext injects an SMTP failure; nil when the system cannot.
	failNext func(code int)
	// deliveryWait is how long a sent mail may take to reach the mailbox,
	// and a woken Wait to return.
	deliveryWait time.Duration
}

func randomName(prefix string) string {
	var b [5]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// devEnv starts a devstack for one test.
func devEnv(t *testing.T, opts devstack.Options) *mailEnv {
	t.Helper()
	s, err := devstack.StartOptions(opts)
	if err != nil {
		t.Fatalf("devstack.Start = %v", err)
	}
	t.Cleanup(func() { s.Close() })
	const password = "secret"
	return &mailEnv{
		name:     "devstack",
		imapAddr: s.IMAPAddr(),
		smtpAddr: s.SMTPAddr(),
		domain:   s.Domain(),
		password: password,
		newUser: func(t *testing.T) string {
			u := randomName("u")
			if err := s.AddUser(u, password); err != nil {
				t.Fatal(err)
			}
			return u
		},
		failNext:     s.FailNextSMTP,
		deliveryWait: time.Second,
	}
}

// mailstackEnv returns the Dovecot + Postfix stack described by the
// MAILSTACK_* variables, skipping (or, with CI=true, failing) when they are
// not set.
func mailstackEnv(t *testing.T) *mailEnv {
	t.Helper()
	imapAddr, smtpAddr := os.Getenv("MAILSTACK_IMAP_ADDR"), os.Getenv("MAILSTACK_SMTP_ADDR")
	password, domains := os.Getenv("MAILSTACK_PASSWORD"), strings.Fields(os.Getenv("MAILSTACK_DOMAINS"))
	if imapAddr == "" || smtpAddr == "" || password == "" || len(domains) == 0 {
		msg := "MAILSTACK_IMAP_ADDR, MAILSTACK_SMTP_ADDR, MAILSTACK_PASSWORD and MAILSTACK_DOMAINS not set; " +
			"run scripts/mailstack-up.sh with MAILSTACK_USERS='*' and source its env file"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if users := os.Getenv("MAILSTACK_USERS"); users != "" && users != "*" {
		t.Fatalf("MAILSTACK_USERS=%q: these tests need wildcard mode (MAILSTACK_USERS='*') for fresh accounts", users)
	}
	return &mailEnv{
		name:         "mailstack",
		imapAddr:     imapAddr,
		smtpAddr:     smtpAddr,
		domain:       domains[0],
		password:     password,
		newUser:      func(*testing.T) string { return randomName("t") },
		deliveryWait: 5 * time.Second,
	}
}

func (e *mailEnv) addr(local string) string { return local + "@" + e.domain }

func (e *mailEnv) imapConfig(user string) mailer.IMAPConfig {
	return mailer.IMAPConfig{
		Addr:              e.imapAddr,
		Username:          user,
		Password:          e.password,
		Security:          mailer.SecurityNone,
		ReconnectMinDelay: 20 * time.Millisecond,
		ReconnectMaxDelay: 200 * time.Millisecond,
	}
}

func (e *mailEnv) sender() *mailer.Sender {
	return mailer.NewSender(mailer.SMTPConfig{Addr: e.smtpAddr, Security: mailer.SecurityNone, Timeout: 10 * time.Second})
}

// send mails a move from a player to user.
func (e *mailEnv) send(t *testing.T, user, subject, body string) *mailer.Outgoing {
	t.Helper()
	o := &mailer.Outgoing{
		From:    "Player <player@" + e.domain + ">",
		To:      []string{e.addr(user)},
		Subject: subject,
		Body:    body,
	}
	raw, err := o.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := e.sender().Send(ctx, "player@"+e.domain, []string{e.addr(user)}, raw); err != nil {
		t.Fatalf("Send = %v", err)
	}
	return o
}

func (e *mailEnv) dial(t *testing.T, cfg mailer.IMAPConfig) *mailer.Inbox {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	in, err := mailer.DialInbox(ctx, cfg)
	if err != nil {
		t.Fatalf("DialInbox = %v", err)
	}
	t.Cleanup(func() { in.Close() })
	return in
}

// fetchUntil fetches until at least n messages are there or the delivery
// time is over.
func (e *mailEnv) fetchUntil(t *testing.T, in *mailer.Inbox, validity, after uint32, n int) ([]*mailer.Message, uint32) {
	t.Helper()
	deadline := time.Now().Add(e.deliveryWait)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		msgs, v, err := in.Fetch(ctx, validity, after, 1<<20)
		cancel()
		if err != nil {
			t.Fatalf("Fetch(%d, %d) = %v", validity, after, err)
		}
		if len(msgs) >= n || time.Now().After(deadline) {
			return msgs, v
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// peek is a second IMAP client that looks at a mailbox the way a test
// needs: flags and message count, without touching \Seen.
type peekResult struct {
	count int
	seen  []bool
}

func (e *mailEnv) peek(t *testing.T, user, mailbox string) peekResult {
	t.Helper()
	c := e.rawClient(t, user)
	defer c.Close()
	data, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatalf("SELECT %s = %v", mailbox, err)
	}
	res := peekResult{count: int(data.NumMessages)}
	if data.NumMessages > 0 {
		bufs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{Flags: true}).Collect()
		if err != nil {
			t.Fatalf("FETCH FLAGS = %v", err)
		}
		for _, b := range bufs {
			res.seen = append(res.seen, slices.Contains(b.Flags, imap.FlagSeen))
		}
	}
	_ = c.Logout().Wait()
	return res
}

func (e *mailEnv) rawClient(t *testing.T, user string) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(e.imapAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Login(user, e.password).Wait(); err != nil {
		c.Close()
		t.Fatalf("LOGIN %s = %v", user, err)
	}
	return c
}

// runInboxSuite runs every Inbox and Sender test that both mail systems
// support.
func runInboxSuite(t *testing.T, newEnv func(t *testing.T) *mailEnv) {
	t.Run("SendFetchDone", func(t *testing.T) { testSendFetchDone(t, newEnv(t)) })
	t.Run("DoneAll", func(t *testing.T) { testDoneAll(t, newEnv(t)) })
	t.Run("WaitIdle", func(t *testing.T) { testWaitIdle(t, newEnv(t)) })
	t.Run("WaitPoll", func(t *testing.T) { testWaitPoll(t, newEnv(t)) })
	t.Run("UIDValidityRescan", func(t *testing.T) { testUIDValidityRescan(t, newEnv(t)) })
	t.Run("Reconnect", func(t *testing.T) { testReconnect(t, newEnv(t)) })
	t.Run("LoginRejected", func(t *testing.T) { testLoginRejected(t, newEnv(t)) })
	t.Run("SendErrors", func(t *testing.T) { testSendErrors(t, newEnv(t)) })
	t.Run("TooLarge", func(t *testing.T) { testTooLarge(t, newEnv(t)) })
	t.Run("CloseDuringWait", func(t *testing.T) { testCloseDuringWait(t, newEnv(t)) })
	t.Run("BigMailTextOnly", func(t *testing.T) { testBigMailTextOnly(t, newEnv(t)) })
	t.Run("LongTextCut", func(t *testing.T) { testLongTextCut(t, newEnv(t)) })
	t.Run("Arrived", func(t *testing.T) { testArrived(t, newEnv(t)) })
	t.Run("WaitRace", func(t *testing.T) { testWaitRace(t, newEnv(t)) })
	t.Run("BoundarylessMultipart", func(t *testing.T) { testBoundarylessMultipart(t, newEnv(t)) })
	t.Run("Attachment", func(t *testing.T) { testAttachment(t, newEnv(t)) })
}

// testCloseDuringWait closes the Inbox from another goroutine while Wait
// idles; Wait must return ErrClosed promptly.
func testCloseDuringWait(t *testing.T, e *mailEnv) {
	in := e.dial(t, e.imapConfig(e.newUser(t)))
	errc := make(chan error, 1)
	go func() { errc <- in.Wait(context.Background()) }()
	time.Sleep(300 * time.Millisecond)
	if err := in.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	select {
	case err := <-errc:
		if !errors.Is(err, mailer.ErrClosed) {
			t.Errorf("Wait interrupted by Close = %v, want ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Wait did not return within 5 s of Close")
	}
}

func TestInboxDevstack(t *testing.T) {
	runInboxSuite(t, func(t *testing.T) *mailEnv { return devEnv(t, devstack.Options{}) })
}

// TestInboxLegacyIMAP runs the suite against a server announcing IMAP4rev1
// alone: Done must fall back to COPY + STORE + EXPUNGE.
func TestInboxLegacyIMAP(t *testing.T) {
	runInboxSuite(t, func(t *testing.T) *mailEnv { return devEnv(t, devstack.Options{LegacyIMAP: true}) })
}

// TestInboxMailstack runs the suite against Dovecot + Postfix (see
// scripts/mailstack-up.sh). It skips without the MAILSTACK_* environment,
// and fails instead when CI=true.
func TestInboxMailstack(t *testing.T) {
	mailstackEnv(t)
	runInboxSuite(t, mailstackEnv)
}

func testSendFetchDone(t *testing.T, e *mailEnv) {
	user := e.newUser(t)
	out := e.send(t, user, "Re: [taflmail #1] Your move", "e7-e5\n\nOn Tue, 12 Mar 2024, Referee wrote:\n> Your move.\n")
	in := e.dial(t, e.imapConfig(user))

	msgs, validity := e.fetchUntil(t, in, 0, 0, 1)
	if len(msgs) != 1 {
		t.Fatalf("Fetch = %d messages, want 1", len(msgs))
	}
	m := msgs[0]
	if m.MessageID != out.MessageID && out.MessageID != "" {
		t.Errorf("MessageID = %q, want %q", m.MessageID, out.MessageID)
	}
	if m.Reply != "e7-e5" || m.From != "player@"+e.domain || m.Subject != out.Subject {
		t.Errorf("Fetch gave Reply %q From %q Subject %q", m.Reply, m.From, m.Subject)
	}
	if m.UID == 0 || validity == 0 || m.UIDValidity != validity || m.Mailbox != "INBOX" {
		t.Errorf("UID %d, UIDValidity %d, validity %d, Mailbox %q", m.UID, m.UIDValidity, validity, m.Mailbox)
	}
	if in.UIDValidity() != validity {
		t.Errorf("UIDValidity() = %d, want %d", in.UIDValidity(), validity)
	}
	if p := e.peek(t, user, "INBOX"); p.count != 1 || p.seen[0] {
		t.Errorf("after Fetch INBOX has %d messages, seen %v; want 1, unseen", p.count, p.seen)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	again, v2, err := in.Fetch(ctx, validity, m.UID, 1<<20)
	if err != nil || len(again) != 0 || v2 != validity {
		t.Errorf("Fetch after last UID = %d messages, %d, %v; want 0, %d, nil", len(again), v2, err, validity)
	}

	if err := in.Done(ctx, m.UID); err != nil {
		t.Fatalf("Done(%d) = %v", m.UID, err)
	}
	if p := e.peek(t, user, "INBOX"); p.count != 0 {
		t.Errorf("after Done INBOX has %d messages, want 0", p.count)
	}
	if p := e.peek(t, user, mailer.DefaultProcessedMailbox); p.count != 1 || !p.seen[0] {
		t.Errorf("after Done Processed has %d messages, seen %v; want 1, seen", p.count, p.seen)
	}
	for _, after := range []uint32{m.UID, 0} {
		if again, _, err := in.Fetch(ctx, validity, after, 1<<20); err != nil || len(again) != 0 {
			t.Errorf("Fetch(%d, %d) after Done = %d messages, %v; want none", validity, after, len(again), err)
		}
	}

	// A second mail gets a higher UID and is the only one fetched.
	e.send(t, user, "second", "f1-f3")
	msgs, _ = e.fetchUntil(t, in, validity, m.UID, 1)
	if len(msgs) != 1 || msgs[0].UID <= m.UID || msgs[0].Reply != "f1-f3" {
		t.Errorf("second Fetch = %+v; want one message with UID > %d", msgs, m.UID)
	}
}

func testWaitIdle(t *testing.T, e *mailEnv) {
	user := e.newUser(t)
	in := e.dial(t, e.imapConfig(user))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, validity, err := in.Fetch(ctx, 0, 0, 0)
	if err != nil {
		t.Fatal(err)
	}

	woke := make(chan time.Time, 1)
	errc := make(chan error, 1)
	go func() {
		err := in.Wait(ctx)
		woke <- time.Now()
		errc <- err
	}()
	time.Sleep(300 * time.Millisecond) // let IDLE start
	select {
	case <-woke:
		t.Fatalf("Wait returned before any mail: %v", <-errc)
	default:
	}
	sent := time.Now()
	e.send(t, user, "wake up", "d1-d4")
	select {
	case at := <-woke:
		if err := <-errc; err != nil {
			t.Fatalf("Wait = %v", err)
		}
		if d := at.Sub(sent); d > e.deliveryWait {
			t.Errorf("Wait woke %v after delivery, want within %v", d, e.deliveryWait)
		} else {
			t.Logf("Wait woke %v after the SMTP send", d.Round(time.Millisecond))
		}
	case <-time.After(e.deliveryWait + 2*time.Second):
		t.Fatalf("Wait did not wake within %v of the delivery", e.deliveryWait+2*time.Second)
	}
	msgs, _, err := in.Fetch(ctx, validity, 0, 0)
	if err != nil || len(msgs) != 1 {
		t.Fatalf("Fetch after Wait = %d messages, %v; want 1", len(msgs), err)
	}

	// A cancelled Wait ends IDLE and leaves the session usable.
	wctx, wcancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer wcancel()
	if err := in.Wait(wctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Wait(expiring ctx) = %v, want context.DeadlineExceeded", err)
	}
	if _, _, err := in.Fetch(ctx, validity, 0, 0); err != nil {
		t.Errorf("Fetch after a cancelled Wait = %v", err)
	}

	// Mail that arrives between Fetch and Wait wakes Wait at once.
	e.send(t, user, "between", "d2-d5")
	time.Sleep(e.deliveryWait / 2)
	start := time.Now()
	wctx2, wcancel2 := context.WithTimeout(ctx, e.deliveryWait+2*time.Second)
	defer wcancel2()
	if err := in.Wait(wctx2); err != nil {
		t.Errorf("Wait with mail already there = %v", err)
	} else if d := time.Since(start); d > e.deliveryWait {
		t.Errorf("Wait with mail already there took %v", d)
	}
}

func testWaitPoll(t *testing.T, e *mailEnv) {
	user := e.newUser(t)
	cfg := e.imapConfig(user)
	cfg.DisableIdle = true
	cfg.PollInterval = 150 * time.Millisecond
	in := e.dial(t, cfg)
	start := time.Now()
	if err := in.Wait(context.Background()); err != nil {
		t.Fatalf("Wait = %v", err)
	}
	if d := time.Since(start); d < 140*time.Millisecond || d > 2*time.Second {
		t.Errorf("polling Wait took %v, want about 150ms", d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := in.Wait(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Wait(cancelled) = %v, want context.Canceled", err)
	}
}

// testUIDValidityRescan deletes and recreates the mailbox from a second
// client; the next Fetch must see the new UIDVALIDITY and return every
// message, even though their UIDs are not above the old last UID.
func testUIDValidityRescan(t *testing.T, e *mailEnv) {
	user := e.newUser(t)
	mailbox := randomName("Games")
	c := e.rawClient(t, user)
	defer c.Close()
	appendN := func(n int, tag string) {
		for i := range n {
			raw := fmt.Sprintf("From: p@%s\r\nSubject: %s %d\r\nMessage-ID: <%s-%d@%s>\r\n\r\nmove %d\r\n", e.domain, tag, i, tag, i, e.domain, i)
			cmd := c.Append(mailbox, int64(len(raw)), nil)
			if _, err := cmd.Write([]byte(raw)); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := cmd.Wait(); err != nil {
				t.Fatalf("APPEND = %v", err)
			}
		}
	}
	if err := c.Create(mailbox, nil).Wait(); err != nil {
		t.Fatalf("CREATE = %v", err)
	}
	appendN(3, "old")

	cfg := e.imapConfig(user)
	cfg.Mailbox = mailbox
	in := e.dial(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	msgs, v1, err := in.Fetch(ctx, 0, 0, 0)
	if err != nil || len(msgs) != 3 {
		t.Fatalf("first Fetch = %d messages, %v; want 3", len(msgs), err)
	}
	last := msgs[2].UID
	for i, m := range msgs {
		if m.Mailbox != mailbox || (i > 0 && m.UID <= msgs[i-1].UID) {
			t.Errorf("message %d: Mailbox %q UID %d; want %q, ascending UIDs", i, m.Mailbox, m.UID, mailbox)
		}
	}

	if err := c.Delete(mailbox).Wait(); err != nil {
		t.Fatalf("DELETE = %v", err)
	}
	if err := c.Create(mailbox, nil).Wait(); err != nil {
		t.Fatalf("CREATE again = %v", err)
	}
	appendN(2, "new")

	msgs, v2, err := in.Fetch(ctx, v1, last, 0)
	if errors.Is(err, mailer.ErrConnection) {
		// Dovecot ends a session whose selected mailbox was deleted.
		t.Logf("Fetch after DELETE = %v; reconnecting", err)
		if err := in.Reconnect(ctx); err != nil {
			t.Fatalf("Reconnect = %v", err)
		}
		msgs, v2, err = in.Fetch(ctx, v1, last, 0)
	}
	if err != nil {
		t.Fatalf("Fetch after recreate = %v", err)
	}
	if v2 == v1 {
		t.Fatalf("UIDVALIDITY stayed %d after DELETE + CREATE", v1)
	}
	if len(msgs) != 2 || !strings.HasPrefix(msgs[0].Subject, "new") {
		t.Fatalf("rescan Fetch = %d messages; want the 2 new ones", len(msgs))
	}
	if msgs[0].UIDValidity != v2 {
		t.Errorf("rescanned message has UIDValidity %d, want %d", msgs[0].UIDValidity, v2)
	}
}

func testReconnect(t *testing.T, e *mailEnv) {
	user := e.newUser(t)
	e.send(t, user, "before", "a1-a2")
	in := e.dial(t, e.imapConfig(user))
	msgs, validity := e.fetchUntil(t, in, 0, 0, 1)
	if len(msgs) != 1 {
		t.Fatalf("Fetch = %d messages, want 1", len(msgs))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	in.BreakConnection()
	if _, _, err := in.Fetch(ctx, validity, 0, 0); !errors.Is(err, mailer.ErrConnection) {
		t.Fatalf("Fetch on a broken connection = %v, want ErrConnection", err)
	}
	if err := in.Done(ctx, msgs[0].UID); !errors.Is(err, mailer.ErrConnection) {
		t.Errorf("Done on a broken connection = %v, want ErrConnection", err)
	}
	if err := in.Wait(ctx); !errors.Is(err, mailer.ErrConnection) {
		t.Errorf("Wait on a broken connection = %v, want ErrConnection", err)
	}
	if err := in.Reconnect(ctx); err != nil {
		t.Fatalf("Reconnect = %v", err)
	}
	again, v2, err := in.Fetch(ctx, validity, 0, 0)
	if err != nil || len(again) != 1 || v2 != validity || again[0].UID != msgs[0].UID {
		t.Fatalf("Fetch after Reconnect = %d messages, %d, %v", len(again), v2, err)
	}
	if err := in.Done(ctx, again[0].UID); err != nil {
		t.Errorf("Done after Reconnect = %v", err)
	}

	// A server that is gone: Reconnect keeps trying until ctx ends.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	cfg := e.imapConfig(user)
	cfg.Addr = dead
	if _, err := mailer.DialInbox(ctx, cfg); !errors.Is(err, mailer.ErrConnection) {
		t.Errorf("DialInbox(dead address) = %v, want ErrConnection", err)
	}
	// Close ends every later call with ErrClosed.
	if err := in.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	if _, _, err := in.Fetch(ctx, 0, 0, 0); !errors.Is(err, mailer.ErrClosed) {
		t.Errorf("Fetch after Close = %v, want ErrClosed", err)
	}
	if err := in.Reconnect(ctx); !errors.Is(err, mailer.ErrClosed) {
		t.Errorf("Reconnect after Close = %v, want ErrClosed", err)
	}
}

func testLoginRejected(t *testing.T, e *mailEnv) {
	user := e.newUser(t)
	cfg := e.imapConfig(user)
	cfg.Password = "wrong-" + e.password
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := mailer.DialInbox(ctx, cfg); !errors.Is(err, mailer.ErrAuth) {
		t.Errorf("DialInbox(wrong password) = %v, want ErrAuth", err)
	}
}

func testSendErrors(t *testing.T, e *mailEnv) {
	user := e.newUser(t)
	raw := []byte("From: p@" + e.domain + "\r\nSubject: x\r\n\r\nbody\r\n")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s := e.sender()
	from := "p@" + e.domain

	var se *mailer.SendError
	err := s.Send(ctx, from, []string{"someone@example.invalid"}, raw)
	if !errors.As(err, &se) || se.Temporary || se.Code/100 != 5 {
		t.Errorf("Send(off-box recipient) = %v, want a permanent 5xx SendError", err)
	}

	if e.failNext != nil {
		e.failNext(451)
		err = s.Send(ctx, from, []string{e.addr(user)}, raw)
		if !errors.As(err, &se) || !se.Temporary || se.Code != 451 {
			t.Errorf("Send(451) = %v, want a temporary SendError with code 451", err)
		}
		e.failNext(554)
		err = s.Send(ctx, from, []string{e.addr(user)}, raw)
		if !errors.As(err, &se) || se.Temporary || se.Code != 554 {
			t.Errorf("Send(554) = %v, want a permanent SendError with code 554", err)
		}
		// After the injected failures, mail flows again.
		if err := s.Send(ctx, from, []string{e.addr(user)}, raw); err != nil {
			t.Errorf("Send after failures = %v", err)
		}
		err = s.Send(ctx, from, []string{"nobody-" + user + "@" + e.domain}, raw)
		if !errors.As(err, &se) || se.Temporary || se.Code != 550 || se.EnhancedCode != "5.1.1" {
			t.Errorf("Send(unknown user) = %v, want permanent 550 5.1.1", err)
		}
	}

	// Nobody listening: temporary.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	err = mailer.NewSender(mailer.SMTPConfig{Addr: dead, Security: mailer.SecurityNone}).Send(ctx, from, []string{e.addr(user)}, raw)
	if !errors.As(err, &se) || !se.Temporary || se.Code != 0 {
		t.Errorf("Send(dead server) = %v, want a temporary SendError without code", err)
	}
	// STARTTLS demanded from a server without it: a configuration error.
	err = mailer.NewSender(mailer.SMTPConfig{Addr: e.smtpAddr, Security: mailer.SecurityStartTLS}).Send(ctx, from, []string{e.addr(user)}, raw)
	if !errors.As(err, &se) || se.Temporary {
		t.Errorf("Send(starttls to a plain server) = %v, want a permanent SendError", err)
	}
}

// testTooLarge sends a mail over the Fetch limit: Fetch returns its header
// only, flagged TooLarge, with the server's size.
func testTooLarge(t *testing.T, e *mailEnv) {
	user := e.newUser(t)
	big := strings.Repeat(strings.Repeat("x", 70)+"\n", 3000) // ~210 kB
	out := e.send(t, user, "big one", "a1-a3\n"+big)
	in := e.dial(t, e.imapConfig(user))
	deadline := time.Now().Add(e.deliveryWait)
	var msgs []*mailer.Message
	for len(msgs) == 0 && time.Now().Before(deadline) {
		var err error
		msgs, _, err = in.Fetch(context.Background(), 0, 0, 64<<10)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(msgs) != 1 {
		t.Fatalf("Fetch = %d messages, want 1", len(msgs))
	}
	m := msgs[0]
	if !m.TooLarge || m.Text != "" || m.Size < 200_000 || m.Subject != "big one" || m.MessageID == "" {
		t.Errorf("TooLarge %v, Text %d bytes, Size %d, Subject %q, MessageID %q", m.TooLarge, len(m.Text), m.Size, m.Subject, m.MessageID)
	}
	_ = out
	if p := e.peek(t, user, "INBOX"); p.count != 1 || p.seen[0] {
		t.Errorf("after Fetch of a large mail INBOX has %d, seen %v; want 1, unseen", p.count, p.seen)
	}
	if err := in.Done(context.Background(), m.UID); err != nil {
		t.Errorf("Done = %v", err)
	}
}

// TestDevstackMessages checks the test helper itself and SMTP AUTH.
func TestDevstackMessages(t *testing.T) {
	s, err := devstack.Start("example.test", map[string]string{"alice": "pw", "Bob": "pw2"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	o := &mailer.Outgoing{From: "alice@example.test", To: []string{"bob@example.test"}, Subject: "hi", Body: "g1-g2"}
	raw, err := o.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	auth := mailer.NewSender(mailer.SMTPConfig{Addr: s.SMTPAddr(), Security: mailer.SecurityNone, Username: "alice", Password: "pw"})
	if err := auth.Send(ctx, "alice@example.test", []string{"bob@example.test"}, raw); err != nil {
		t.Fatalf("Send with AUTH = %v", err)
	}
	bad := mailer.NewSender(mailer.SMTPConfig{Addr: s.SMTPAddr(), Security: mailer.SecurityNone, Username: "alice", Password: "nope"})
	var se *mailer.SendError
	if err := bad.Send(ctx, "alice@example.test", []string{"bob@example.test"}, raw); !errors.As(err, &se) || !se.Temporary || se.Code != 535 || !errors.Is(err, mailer.ErrSMTPAuth) {
		t.Errorf("Send with a wrong password = %v, want a temporary 535 wrapping ErrSMTPAuth", err)
	}
	if err := s.Deliver("bob", raw); err != nil {
		t.Fatal(err)
	}
	msgs, err := s.Messages("bob")
	if err != nil {
		t.Fatalf("Messages = %v", err)
	}
	if len(msgs) != 2 || msgs[0].Reply != "g1-g2" || msgs[0].UID >= msgs[1].UID || msgs[0].UIDValidity == 0 {
		t.Fatalf("Messages = %+v", msgs)
	}
	if !bytes.Contains([]byte(strings.Join(msgs[0].Header["Return-Path"], "")), []byte("alice@example.test")) {
		t.Errorf("delivered mail lacks Return-Path: %v", msgs[0].Header["Return-Path"])
	}
	if msgs, err := s.Messages("alice"); err != nil || len(msgs) != 0 {
		t.Errorf("Messages(alice) = %d, %v; want empty", len(msgs), err)
	}
	if _, err := s.Messages("nobody"); err == nil {
		t.Error("Messages(nobody) = nil error")
	}
	if err := s.AddUser("alice", "x"); err == nil {
		t.Error("AddUser(existing) = nil error")
	}
}
