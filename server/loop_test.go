package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"mime"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// mailNet is a tiny mail system for loop tests: servers and responders
// send into one queue; pump delivers the queue until it is empty or a step
// limit is reached, and counts the mails between each pair of addresses.
type mailNet struct {
	t     *testing.T
	now   *time.Time // the clock of every server on the net
	queue []netMail
	// servers and responders by address; anything else is a person whose
	// mail is only counted.
	servers    map[string]*referee.Server
	responders map[string]func(m *mailer.Message) []byte
	// strip lists header fields a relay on the way removes.
	strip []string
	pairs map[string]int // "from -> to" → mails delivered
	total int
}

type netMail struct {
	from, to string
	raw      []byte
}

func newMailNet(t *testing.T) *mailNet {
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	return &mailNet{t: t, now: &now,
		servers: map[string]*referee.Server{}, responders: map[string]func(*mailer.Message) []byte{}, pairs: map[string]int{}}
}

// netSender is a Sender that puts mail into the net's queue.
type netSender struct{ n *mailNet }

func (s netSender) Send(_ context.Context, from string, to []string, raw []byte) error {
	for _, rcpt := range to {
		s.n.queue = append(s.n.queue, netMail{from: from, to: strings.ToLower(rcpt), raw: raw})
	}
	return nil
}

// addServer starts a referee at addr with its own archive.
func (n *mailNet) addServer(addr string, seed byte) *referee.Server {
	n.t.Helper()
	clock := func() time.Time { return *n.now }
	st, err := archive.OpenWith(context.Background(), n.t.TempDir()+"/taflmail.db", archive.Options{Now: clock})
	if err != nil {
		n.t.Fatal(err)
	}
	n.t.Cleanup(func() { st.Close() })
	srv, err := referee.New(referee.Options{Address: addr, Store: st, Sender: netSender{n}, Now: clock,
		Rand: rand.NewChaCha8([32]byte{seed}), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		n.t.Fatal(err)
	}
	n.servers[addr] = srv
	return srv
}

// post puts a person's mail into the queue.
func (n *mailNet) post(from, to, subject, body string) {
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%d.%s>\r\nDate: %s\r\n\r\n%s\r\n",
		from, to, subject, n.total+len(n.queue), from, n.now.Format(time.RFC1123Z), body)
	n.queue = append(n.queue, netMail{from: from, to: to, raw: []byte(raw)})
}

// postRaw puts a raw mail into the queue.
func (n *mailNet) postRaw(from, to string, raw []byte) {
	n.queue = append(n.queue, netMail{from: from, to: to, raw: raw})
}

// pump delivers until the queue is empty or limit mails were delivered;
// it reports whether the queue ran empty.
func (n *mailNet) pump(limit int) bool {
	n.t.Helper()
	for len(n.queue) > 0 {
		if n.total >= limit {
			return false
		}
		m := n.queue[0]
		n.queue = n.queue[1:]
		n.total++
		n.pairs[m.from+" -> "+m.to]++
		*n.now = n.now.Add(10 * time.Second)
		raw := m.raw
		for _, h := range n.strip {
			raw = stripHeader(raw, h)
		}
		if srv, ok := n.servers[m.to]; ok {
			msg, err := mailer.Parse(bytes.NewReader(raw), 0)
			if err != nil {
				n.t.Fatalf("%s cannot read a mail from %s: %v", m.to, m.from, err)
			}
			msg.UID, msg.UIDValidity = uint32(n.total), 1
			if err := srv.HandleMail(context.Background(), msg); err != nil {
				n.t.Fatalf("%s: HandleMail: %v", m.to, err)
			}
			srv.FlushOutbox(context.Background())
			continue
		}
		if resp, ok := n.responders[m.to]; ok {
			msg, err := mailer.Parse(bytes.NewReader(raw), 0)
			if err != nil {
				n.t.Fatalf("responder %s cannot read a mail: %v", m.to, err)
			}
			if out := resp(msg); out != nil {
				n.queue = append(n.queue, netMail{from: m.to, to: msg.From, raw: out})
			}
		}
	}
	return true
}

// between counts the mails delivered from a to b and from b to a.
func (n *mailNet) between(a, b string) int { return n.pairs[a+" -> "+b] + n.pairs[b+" -> "+a] }

// stripHeader removes every field name (and its folded lines) from the
// header of raw.
func stripHeader(raw []byte, name string) []byte {
	var out bytes.Buffer
	lines := bytes.SplitAfter(raw, []byte("\n"))
	inHeader, skipping := true, false
	for _, l := range lines {
		if inHeader && (len(bytes.TrimRight(l, "\r\n")) == 0) {
			inHeader = false
		}
		if inHeader {
			if skipping && (l[0] == ' ' || l[0] == '\t') {
				continue
			}
			skipping = bytes.HasPrefix(bytes.ToLower(l), []byte(strings.ToLower(name)+":"))
			if skipping {
				continue
			}
		}
		out.Write(l)
	}
	return out.Bytes()
}

// vacation returns a responder that answers every mail it gets, once per
// mail, as the simplest out-of-office programs do: "Re: " and the
// subject, In-Reply-To, a fixed text; with auto set it marks its replies
// as RFC 3834 asks (Auto-Submitted, Precedence, X-Autoreply).
func vacation(addr string, auto bool, text string) func(m *mailer.Message) []byte {
	n := 0
	return func(m *mailer.Message) []byte {
		n++
		var b strings.Builder
		fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <vacation-%d@player.test>\r\nIn-Reply-To: <%s>\r\nReferences: <%s>\r\n",
			addr, m.From, mime.BEncoding.Encode("utf-8", m.Subject), n, m.MessageID, m.MessageID)
		if auto {
			b.WriteString("Auto-Submitted: auto-replied\r\nPrecedence: bulk\r\nX-Autoreply: yes\r\n")
		}
		b.WriteString("Content-Type: text/plain; charset=utf-8\r\n\r\n" + text + "\r\n")
		return []byte(b.String())
	}
}

// TestLoopTwoServers: two taflmail instances that mail each other stop
// after a bounded number of mails. With the headers our mails carry
// (Auto-Submitted, X-Taflmail) the first mail from one to the other is not
// answered. A relay that strips Auto-Submitted changes nothing, since
// X-Taflmail still marks our mail. One that strips both leaves the hourly
// caps: 5 refusals and 30 answers per sender.
func TestLoopTwoServers(t *testing.T) {
	const a, b = "tafl@a.test", "tafl@b.test"
	stripAuto := []string{"Auto-Submitted"}
	stripAll := []string{"Auto-Submitted", referee.LoopHeader, "X-Taflmail-Game"}
	invite := func(n *mailNet) { n.post(alice, a, "game", "new brandubh with "+b) }
	forgedBoard := func(n *mailNet) { n.post(b, a, "board", "board") }
	forgedHelp := func(n *mailNet) { n.post(b, a, "help", "") }
	cases := []struct {
		name  string
		strip []string
		start func(n *mailNet)
		bound int // counting the forged mail, when there is one
	}{
		// A person challenges server B on server A: A invites B.
		{"invitation", nil, invite, 1},
		// A forger writes to A in B's name: A's refusal goes to B.
		{"forged-from", nil, forgedBoard, 2},
		{"forged-help", nil, forgedHelp, 2},
		{"invitation-headers-stripped", stripAuto, invite, 1},
		{"forged-from-headers-stripped", stripAuto, forgedBoard, 2},
		// This one looped for ever until 1fdffbe: "Re: help" was read as
		// help again (docs/reliability.md, bug 7).
		{"forged-help-headers-stripped", stripAuto, forgedHelp, 2},
		{"invitation-all-stripped", stripAll, invite, 1 + 2*referee.MaxRepliesPerHour},
		{"forged-from-all-stripped", stripAll, forgedBoard, 1 + 2*referee.MaxRepliesPerHour},
		{"forged-help-all-stripped", stripAll, forgedHelp, 1 + 2*referee.MaxRepliesPerHour},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := newMailNet(t)
			n.addServer(a, 1)
			n.addServer(b, 2)
			n.strip = tc.strip
			tc.start(n)
			if !n.pump(500) {
				t.Fatalf("still mailing after 500 mails: %v", n.pairs)
			}
			got := n.between(a, b)
			if got > tc.bound || got == 0 {
				t.Fatalf("%d mails between the servers, want 1 to %d: %v", got, tc.bound, n.pairs)
			}
			t.Logf("%d mails between the two servers (bound %d)", got, tc.bound)
		})
	}
}

// TestLoopVacation: taflmail and a vacation responder that answers every
// mail stop after a bounded number of mails: at once when the responder
// marks its replies as automatic; when it does not, after the hourly
// refusal cap (5 for a keyless mail, maxKeyedRefusals for one that quotes
// our subject and so carries the key: its first text is passed on to the
// opponent, a message and no refusal, and the same text again is
// refused); and after the hourly answer cap (30) when its text is itself
// a command the referee carries out.
func TestLoopVacation(t *testing.T) {
	const srvAddr = "tafl@game.test"
	const away = "I am on holiday until 6 December and read no mail."
	askHelp := func(h *harness, n *mailNet, id string) { n.post(bob, srvAddr, "help", "") }
	cases := []struct {
		name  string
		auto  bool
		text  string // the responder's text
		start func(h *harness, n *mailNet, id string)
		bound int
	}{
		// alice moves; the server tells bob, whose responder answers.
		{"move-marked", true, away, aliceMoves, 2},
		{"move-unmarked", false, away, aliceMoves, 2 + 2*(1+referee.MaxKeyedRefusals)},
		// bob asked for help by subject before he left. Unmarked, this
		// looped for ever until 1fdffbe (docs/reliability.md, bug 7).
		{"help-marked", true, away, askHelp, 3},
		{"help-unmarked", false, away, askHelp, 3 + 2*5},
		// A responder whose text is a command ("variants"): each answer is
		// carried out, so only the cap on answers per hour stops it.
		{"command-unmarked", false, "variants", aliceMoves, 2 + 2*referee.MaxRepliesPerHour},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			id := startBrandubh(t, h)
			n := newMailNet(t)
			n.now = &h.now // one clock for the server, its archive and the net
			h.srv.Opts.Sender = netSender{n}
			n.servers[srvAddr] = h.srv
			n.responders[bob] = vacation(bob, tc.auto, tc.text)
			h.now = h.now.Add(time.Hour)
			tc.start(h, n, id)
			if !n.pump(300) {
				t.Fatalf("still mailing after 300 mails: %v", n.pairs)
			}
			got := n.between(srvAddr, bob)
			if got > tc.bound {
				t.Fatalf("%d mails between the server and the responder, want at most %d: %v", got, tc.bound, n.pairs)
			}
			if got < 2 {
				t.Fatalf("%d mails: the responder never answered", got)
			}
			t.Logf("%d mails between the server and the responder (bound %d)", got, tc.bound)
			if g := h.state(id); len(g.Plies) > 1 {
				t.Fatalf("the responder played: %v", g.Plies)
			}
		})
	}
}

// aliceMoves posts alice's reply with her move.
func aliceMoves(h *harness, n *mailNet, id string) {
	n.postRaw(alice, "tafl@game.test", h.loadMail("quote-gmail-top.eml", h.mailVars(alice, id)))
}
