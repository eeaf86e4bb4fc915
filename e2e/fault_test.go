package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server"
)

// replyHold is an SMTP proxy in front of the mail system's SMTP server.
// Armed with holdNext, it forwards a message completely but holds back
// the server's answer to the end of its DATA: the mail is delivered, and
// the sender does not know yet.
type replyHold struct {
	ln       net.Listener
	upstream string

	mu        sync.Mutex
	held      chan struct{} // not nil: armed; closed when an answer is held
	release   chan struct{} // closed to let the held answer through
	releaseFn func()        // closes release once
}

func newReplyHold(t *testing.T, upstream string) *replyHold {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := &replyHold{ln: ln, upstream: upstream}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); h.releaseAll(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() { defer wg.Done(); h.serve(c) }()
		}
	}()
	return h
}

func (h *replyHold) addr() string { return h.ln.Addr().String() }

// holdNext arms the proxy for the next message's end of DATA; held is
// closed when its answer is being held, and release lets it through.
func (h *replyHold) holdNext() (held <-chan struct{}, release func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.held, h.release = make(chan struct{}), make(chan struct{})
	rel := h.release
	var once sync.Once
	h.releaseFn = func() { once.Do(func() { close(rel) }) }
	return h.held, h.releaseFn
}

// releaseAll lets a held answer through, at the end of the test.
func (h *replyHold) releaseAll() {
	h.mu.Lock()
	f := h.releaseFn
	h.mu.Unlock()
	if f != nil {
		f()
	}
}

// serve relays one SMTP session. The client's "\r\n.\r\n" ends a message
// (dot-stuffing keeps it out of the text); the server's next bytes are the
// answer to it.
func (h *replyHold) serve(c net.Conn) {
	defer c.Close()
	u, err := net.Dial("tcp", h.upstream)
	if err != nil {
		return
	}
	defer u.Close()
	var ended atomic.Int32 // message ends forwarded, answers not yet relayed
	go func() {
		var tail []byte
		buf := make([]byte, 32<<10)
		for {
			n, err := c.Read(buf)
			if n > 0 {
				seen := append(tail, buf[:n]...)
				if bytes.Contains(seen, []byte("\r\n.\r\n")) {
					ended.Add(1)
				}
				tail = append([]byte(nil), seen[max(0, len(seen)-4):]...)
				if _, werr := u.Write(buf[:n]); werr != nil {
					return
				}
			}
			if err != nil {
				u.Close()
				return
			}
		}
	}()
	buf := make([]byte, 32<<10)
	for {
		n, err := u.Read(buf)
		if n > 0 {
			if ended.Load() > 0 {
				ended.Add(-1)
				h.mu.Lock()
				held, release := h.held, h.release
				h.held = nil
				h.mu.Unlock()
				if held != nil {
					close(held)
					select {
					case <-release:
					case <-time.After(time.Minute):
					}
				}
			}
			if _, werr := c.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// TestGameByMailStopDuringReply stops the referee while the SMTP server
// has taken a reply (it is delivered) but has not yet answered 250. The
// daemon must not abandon that transaction: after the restart every
// player must still get every reply exactly once.
//
// Fixed bug (server.FlushOutbox with mailer.Sender): Send ran under Run's
// context, so the stop closes the SMTP connection while the client waits
// for the 250, Send fails as temporary, the reply stays pending, and the
// restarted daemon sends it a second time. TestGameByMailRestart hit this
// by chance when it stopped the referee right after the players saw their
// mails. Fix: send and record each outbox mail under
// context.WithoutCancel(ctx) (the Sender's own timeout still bounds it),
// and look at ctx only between mails.
func TestGameByMailStopDuringReply(t *testing.T) {
	t.Parallel()
	eachSystem(t, func(t *testing.T, sys *mailSystem) {
		m := newMatch(t, sys)
		proxy := newReplyHold(t, sys.smtpAddr)
		m.ref.sender.next = sys.senderVia(proxy.addr(), sys.domain)
		m.ref.start()
		m.challenge()
		for i := range 2 {
			m.ply(i)
		}
		held, release := proxy.holdNext()
		m.sendPly(2)
		select {
		case <-held:
		case <-time.After(sys.wait):
			t.Fatal("the referee sent no reply to ply 3")
		}
		stopped := make(chan struct{})
		go func() { m.ref.stop(); close(stopped) }()
		time.Sleep(300 * time.Millisecond) // the stop is under way: then SMTP answers
		release()
		<-stopped
		m.ref.start()
		m.both("ply 3 after the restart", brandubhEscape[2])
		for i := 3; i < len(brandubhEscape); i++ {
			m.ply(i)
		}
		m.finish()
	})
}

// doneFails makes the first Done or DoneAll after arm fail as a lost
// connection, after the mail was committed and its replies sent.
type doneFails struct {
	*mailer.Inbox
	armed atomic.Bool
	hit   chan struct{}
}

// Done implements server.Inbox.
func (d *doneFails) Done(ctx context.Context, uid uint32) error {
	if d.armed.CompareAndSwap(true, false) {
		close(d.hit)
		return fmt.Errorf("test: %w while moving the mail", mailer.ErrConnection)
	}
	return d.Inbox.Done(ctx, uid)
}

// DoneAll implements server.BatchInbox: the referee marks a chunk's mails
// done with it, so it fails as Done does.
func (d *doneFails) DoneAll(ctx context.Context, uids []uint32) error {
	if d.armed.CompareAndSwap(true, false) {
		close(d.hit)
		return fmt.Errorf("test: %w while moving the mails", mailer.ErrConnection)
	}
	return d.Inbox.DoneAll(ctx, uids)
}

// TestGameByMailDoneFails loses the IMAP connection as the referee marks
// a handled mail done (\Seen, moved to Processed). The daemon reconnects
// and goes on; the mail must still end up in Processed, not stay in the
// INBOX until the next restart.
//
// Fixed bug (server.Run): after the first poll Run fetched only UIDs above the
// one stored with the last commit, and a failed Done does not bring back
// the rescan, so the mail stays unseen in the INBOX while the daemon runs.
// Fix: set rescan = true in Run whenever Poll (or Wait) fails, so the
// next poll reads the whole INBOX again (a handled mail is then only
// marked done: HandleMail finds it processed).
func TestGameByMailDoneFails(t *testing.T) {
	t.Parallel()
	eachSystem(t, func(t *testing.T, sys *mailSystem) {
		m := newMatch(t, sys)
		var inbox *doneFails
		m.ref.wrap = func(in *mailer.Inbox) server.Inbox {
			inbox = &doneFails{Inbox: in, hit: make(chan struct{})}
			return inbox
		}
		m.ref.start()
		m.challenge()
		inbox.armed.Store(true)
		for i := range brandubhEscape {
			m.ply(i)
		}
		select {
		case <-inbox.hit:
		default:
			t.Fatal("Done never failed")
		}
		m.finish()
	})
}
