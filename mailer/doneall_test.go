package mailer_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/mailer/devstack"
)

// testDoneAll sends three mails and marks the first and the third done
// in one DoneAll: they are in Processed, \Seen, and the second is still
// in the INBOX, unseen. On a server with MOVE this takes one UID STORE
// and one UID MOVE. DoneAll of no UIDs, and of a UID moved out before
// together with the one left, is not an error.
func testDoneAll(t *testing.T, e *mailEnv) {
	user := e.newUser(t)
	for _, s := range []string{"one", "two", "three"} {
		e.send(t, user, s, "a1-a2")
	}
	var wire syncBuffer
	cfg := e.imapConfig(user)
	cfg.Debug = &wire
	in := e.dial(t, cfg)
	msgs, _ := e.fetchUntil(t, in, 0, 0, 3)
	if len(msgs) != 3 {
		t.Fatalf("Fetch = %d messages, want 3", len(msgs))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := in.DoneAll(ctx, nil); err != nil {
		t.Errorf("DoneAll(nil) = %v", err)
	}
	before := wire.String()
	if err := in.DoneAll(ctx, []uint32{msgs[0].UID, msgs[2].UID}); err != nil {
		t.Fatalf("DoneAll(%d, %d) = %v", msgs[0].UID, msgs[2].UID, err)
	}
	if p := e.peek(t, user, "INBOX"); p.count != 1 || p.seen[0] {
		t.Errorf("after DoneAll of two INBOX has %d messages, seen %v; want 1, unseen", p.count, p.seen)
	}
	if p := e.peek(t, user, mailer.DefaultProcessedMailbox); p.count != 2 || !p.seen[0] || !p.seen[1] {
		t.Errorf("after DoneAll of two Processed has %d messages, seen %v; want 2, seen", p.count, p.seen)
	}
	sent := strings.TrimPrefix(wire.String(), before)
	if e.name == "devstack" && strings.Contains(sent, " UID MOVE ") {
		s, m := 0, 0
		for _, line := range strings.Split(sent, "\n") {
			switch f := strings.Fields(line); {
			case len(f) > 2 && f[1] == "UID" && f[2] == "STORE":
				s++
			case len(f) > 2 && f[1] == "UID" && f[2] == "MOVE":
				m++
			}
		}
		if s != 1 || m != 1 {
			t.Errorf("DoneAll of two sent %d UID STORE and %d UID MOVE, want one each:\n%s", s, m, sent)
		}
	}
	if err := in.DoneAll(ctx, []uint32{msgs[0].UID, msgs[1].UID}); err != nil {
		t.Fatalf("DoneAll of a UID done before and one left = %v", err)
	}
	if p := e.peek(t, user, "INBOX"); p.count != 0 {
		t.Errorf("after the second DoneAll INBOX has %d messages, want 0", p.count)
	}
	if p := e.peek(t, user, mailer.DefaultProcessedMailbox); p.count != 3 {
		t.Errorf("after the second DoneAll Processed has %d messages, want 3", p.count)
	}
}

// cutIMAP is a proxy between an IMAP client and a server that breaks the
// connection at the client's first command line containing verb: before
// passing it on (after false) or after the server has carried it out and
// before its tagged reply reaches the client (after true). Before passing
// it on means also after the server answered the command passed on before
// it: a client that sends its commands without waiting for the replies
// (go-imap's COPY, STORE \Deleted and EXPUNGE) would otherwise leave it to
// chance whether the server carried that one out before the cut.
type cutIMAP struct {
	ln    net.Listener
	to    string
	verb  string
	after bool

	mu       sync.Mutex
	answered *sync.Cond      // signalled at every tagged reply; uses mu
	replied  map[string]bool // the tags the server has answered
	tag      string          // the tag of the command cut after, once seen
	cut      bool            // the connection was cut once; later ones pass untouched
}

func newCutIMAP(t *testing.T, to, verb string, after bool) *cutIMAP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutIMAP{ln: ln, to: to, verb: verb, after: after, replied: map[string]bool{}}
	p.answered = sync.NewCond(&p.mu)
	t.Cleanup(func() { ln.Close() })
	go p.serve()
	return p
}

func (p *cutIMAP) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.to)
		if err != nil {
			c.Close()
			continue
		}
		go p.pass(c, s)
	}
}

// pass copies one connection's lines both ways, cutting it as p says.
func (p *cutIMAP) pass(c, s net.Conn) {
	closeBoth := func() { c.Close(); s.Close() }
	go func() { // server to client
		defer closeBoth()
		br := bufio.NewReader(s)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			p.mu.Lock()
			if tag, _, _ := strings.Cut(line, " "); tag != "*" && tag != "+" {
				p.replied[tag] = true
				p.answered.Broadcast()
			}
			drop := p.tag != "" && strings.HasPrefix(line, p.tag+" ")
			if drop {
				p.tag, p.cut = "", true
			}
			p.mu.Unlock()
			if drop {
				return
			}
			if _, err := io.WriteString(c, line); err != nil {
				return
			}
		}
	}()
	defer closeBoth()
	br := bufio.NewReader(c)
	last := "" // the tag of the last command passed on
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return
		}
		p.mu.Lock()
		hit := !p.cut && p.tag == "" && strings.Contains(line, p.verb)
		if hit && !p.after {
			p.cut = true
			p.waitReply(last)
		}
		if hit && p.after {
			p.tag, _, _ = strings.Cut(line, " ")
		}
		p.mu.Unlock()
		if hit && !p.after {
			return
		}
		if _, err := io.WriteString(s, line); err != nil {
			return
		}
		last, _, _ = strings.Cut(line, " ")
	}
}

// waitReply waits, p.mu held, until the server has answered the command
// tagged tag ("" for none), or for at most ten seconds: a server that
// never answers then meets the cut all the same.
func (p *cutIMAP) waitReply(tag string) {
	if tag == "" {
		return
	}
	timeout := time.AfterFunc(10*time.Second, func() {
		p.mu.Lock()
		p.replied[tag] = true
		p.answered.Broadcast()
		p.mu.Unlock()
	})
	defer timeout.Stop()
	for !p.replied[tag] {
		p.answered.Wait()
	}
}

// TestDoneAllCut breaks the connection in the middle of a DoneAll of
// three mails, at each of the commands that move them, and checks the
// states DoneAll documents: DoneAll fails with ErrConnection; before the
// MOVE all three are still in the INBOX (\Seen), after it all three are
// in Processed; after the fallback's COPY and before its STORE \Deleted
// they are in both. (The client sends the fallback's COPY, STORE and
// EXPUNGE without waiting for the replies, so a cut after the COPY's
// reply comes too late to stop the other two.) After a
// Reconnect, a Fetch finds the mails left, and a DoneAll of them empties
// the INBOX.
func TestDoneAllCut(t *testing.T) {
	cases := []struct {
		name         string
		legacy       bool
		verb         string
		after        bool
		inbox, moved int // the messages in INBOX and Processed after the cut
	}{
		{"before-move", false, " UID MOVE ", false, 3, 0},
		{"after-move", false, " UID MOVE ", true, 0, 3},
		{"after-copy-before-delete", true, `(\Deleted)`, false, 3, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := devEnv(t, devstack.Options{LegacyIMAP: c.legacy})
			user := e.newUser(t)
			for _, s := range []string{"one", "two", "three"} {
				e.send(t, user, s, "a1-a2")
			}
			p := newCutIMAP(t, e.imapAddr, c.verb, c.after)
			cfg := e.imapConfig(user)
			cfg.Addr = p.ln.Addr().String()
			in := e.dial(t, cfg)
			msgs, _ := e.fetchUntil(t, in, 0, 0, 3)
			if len(msgs) != 3 {
				t.Fatalf("Fetch = %d messages, want 3", len(msgs))
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			uids := []uint32{msgs[0].UID, msgs[1].UID, msgs[2].UID}
			if err := in.DoneAll(ctx, uids); !errors.Is(err, mailer.ErrConnection) {
				t.Fatalf("DoneAll cut at %s = %v, want ErrConnection", c.verb, err)
			}
			left := e.peek(t, user, "INBOX")
			if left.count != c.inbox {
				t.Errorf("after the cut INBOX has %d messages, want %d", left.count, c.inbox)
			}
			for i, seen := range left.seen {
				if !seen {
					t.Errorf("after the cut message %d of the INBOX is not \\Seen", i+1)
				}
			}
			moved := e.peek(t, user, mailer.DefaultProcessedMailbox).count
			if moved != c.moved {
				t.Errorf("after the cut Processed has %d messages, want %d", moved, c.moved)
			}
			if err := in.Reconnect(ctx); err != nil {
				t.Fatalf("Reconnect = %v", err)
			}
			again, _, err := in.Fetch(ctx, 0, 0, 1<<20)
			if err != nil || len(again) != c.inbox {
				t.Fatalf("Fetch after Reconnect = %d messages, %v; want %d", len(again), err, c.inbox)
			}
			var rest []uint32
			for _, m := range again {
				rest = append(rest, m.UID)
			}
			if err := in.DoneAll(ctx, rest); err != nil {
				t.Fatalf("DoneAll of the mails left = %v", err)
			}
			if n := e.peek(t, user, "INBOX").count; n != 0 {
				t.Errorf("after the second DoneAll INBOX has %d messages, want 0", n)
			}
			if n, want := e.peek(t, user, mailer.DefaultProcessedMailbox).count, moved+len(rest); n != want {
				t.Errorf("after the second DoneAll Processed has %d messages, want %d", n, want)
			}
		})
	}
}
