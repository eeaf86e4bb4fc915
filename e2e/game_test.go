package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/mailer"
)

// brandubhEscape is a short Brandubh game (the one of server's
// TestWholeGameByMail): the attackers (alice) move first, and the king
// escapes to the corner a1 on ply 6.
var brandubhEscape = []string{"d1-e1", "d3-e3", "d2-e2", "d4-d1", "e1-f1", "d1-a1"}

// fromTo finds the squares of a stored ply, which may also name the
// piece and the captures ("Kd4-d1", "d1-e1xe2").
var fromTo = regexp.MustCompile(`[a-z][0-9]+-[a-z][0-9]+`)

// gameTag finds the game id in a referee's subject, "[taflmail K7QX2M ...]".
var gameTag = regexp.MustCompile(`\[taflmail ([0-9A-Z]{6})`)

// match is one game between alice (attackers) and bob (defenders) through
// the referee, with the bookkeeping the final checks need.
type match struct {
	t          *testing.T
	sys        *mailSystem
	ref        *referee
	alice, bob *player
	id         string
	// toReferee holds the Message-ID of every mail a player sent to the
	// referee, in order.
	toReferee []string
	// plyMail holds the Message-ID of the mail that carried each ply.
	plyMail []string
	// last is the last mail each player got from the referee: the one a
	// move answers, in its thread.
	last map[*player]*mailer.Message
}

func newMatch(t *testing.T, sys *mailSystem) *match {
	t.Helper()
	m := &match{t: t, sys: sys, ref: newReferee(t, sys), alice: newPlayer(t, sys, "alice"), bob: newPlayer(t, sys, "bob"),
		last: map[*player]*mailer.Message{}}
	return m
}

// both waits for the one mail each player gets after a mail to the
// referee, checks that it contains want, and keeps it for the next reply.
func (m *match) both(step string, want ...string) {
	m.t.Helper()
	for _, p := range []*player{m.alice, m.bob} {
		got := p.next(m.t)
		if got.From != m.ref.addr {
			m.t.Fatalf("%s: %s got a mail from %s, want the referee %s", step, p.name, got.From, m.ref.addr)
		}
		for _, w := range want {
			if !strings.Contains(got.Text, w) {
				m.t.Fatalf("%s: the mail to %s does not contain %q:\n%s", step, p.name, w, got.Text)
			}
		}
		m.last[p] = got
	}
}

// challenge has alice challenge bob to Brandubh as the attackers and bob
// accept, in the invitation's thread.
func (m *match) challenge() {
	m.t.Helper()
	m.toReferee = append(m.toReferee, m.alice.send(m.t, m.ref.addr, "a game?", "Hi!\nnew brandubh with "+m.bob.addr+" as attackers\nAlice", nil))
	m.both("challenge")
	if !strings.Contains(m.last[m.bob].Text, m.alice.addr+" challenges you") {
		m.t.Fatalf("bob's first mail is no invitation:\n%s", m.last[m.bob].Text)
	}
	tag := gameTag.FindStringSubmatch(m.last[m.bob].Subject)
	if tag == nil {
		m.t.Fatalf("invitation subject %q names no game", m.last[m.bob].Subject)
	}
	m.id = tag[1]
	m.toReferee = append(m.toReferee, m.bob.send(m.t, m.ref.addr, "", "accept", m.last[m.bob]))
	m.both("accept", "Brandubh")
}

// mover returns the player of ply i (0-based): alice attacks and moves
// first.
func (m *match) mover(i int) *player {
	if i%2 == 0 {
		return m.alice
	}
	return m.bob
}

// sendPly has the player of ply i reply to their last mail with the move,
// under a greeting and above a signature and the quoted history.
func (m *match) sendPly(i int) {
	m.t.Helper()
	p := m.mover(i)
	id := p.send(m.t, m.ref.addr, "", "my move:\n"+brandubhEscape[i]+"\n-- \nsent from my phone", m.last[p])
	m.toReferee = append(m.toReferee, id)
	m.plyMail = append(m.plyMail, id)
}

// ply plays ply i and waits for both players' mails about it.
func (m *match) ply(i int) {
	m.t.Helper()
	m.sendPly(i)
	m.both("ply "+brandubhEscape[i], brandubhEscape[i], "Moves so far:")
}

// idle waits until the referee has moved every mail sent to it to
// Processed. It marks a mail done after its replies went out, so then it
// is between mails: waiting in IDLE, or about to.
func (m *match) idle() {
	m.t.Helper()
	m.sys.eventually(m.t, func() string {
		inbox, done := m.sys.mailbox(m.t, m.ref.user, "INBOX"), m.sys.mailbox(m.t, m.ref.user, mailer.DefaultProcessedMailbox)
		if len(inbox) != 0 || len(done) != len(m.toReferee) {
			return fmt.Sprintf("the referee's INBOX holds %d mails and Processed %d; want 0 and %d",
				len(inbox), len(done), len(m.toReferee))
		}
		return ""
	})
}

// finish checks the finished game: in the archive, in every mailbox and
// in the outbox; nothing lost, nothing doubled. The referee is running
// when it is called and stopped when it returns.
func (m *match) finish() {
	t := m.t
	t.Helper()
	final := m.last[m.alice].Text
	if !strings.Contains(final, "The game is over: the defenders win, the king escaped") {
		t.Errorf("alice's last mail does not announce the king's escape:\n%s", final)
	}

	// Every mail to the referee ends up \Seen in Processed, none stays in
	// the INBOX.
	m.idle()
	m.ref.stop()
	time.Sleep(m.sys.settle) // a late duplicate would be delivered by now

	processed := m.sys.mailbox(t, m.ref.user, mailer.DefaultProcessedMailbox)
	if got := m.sys.mailbox(t, m.ref.user, "INBOX"); len(got) != 0 {
		t.Errorf("after the game the referee's INBOX holds %d mails, want 0", len(got))
	}
	seen := map[string]int{}
	for _, b := range processed {
		seen[b.messageID]++
		if !b.seen {
			t.Errorf("mail %s in Processed is not \\Seen", b.messageID)
		}
	}
	for _, id := range m.toReferee {
		if seen[id] != 1 {
			t.Errorf("mail %s to the referee is %d times in Processed, want once", id, seen[id])
		}
	}
	if len(processed) != len(m.toReferee) {
		t.Errorf("Processed holds %d mails, the players sent %d", len(processed), len(m.toReferee))
	}

	// Each player got exactly one mail from the referee per mail sent to
	// it (a confirmation or invitation, the start of the game, one per
	// ply), no Message-ID twice, each after the first in a thread.
	want := len(m.toReferee)
	ids := map[string]string{}
	for _, p := range []*player{m.alice, m.bob} {
		box := m.sys.mailbox(t, p.user, "INBOX")
		if len(box) != want || len(p.received) != want {
			t.Errorf("%s's INBOX holds %d mails (%d read by the player), want %d", p.name, len(box), len(p.received), want)
		}
		for _, b := range box {
			if b.from != m.ref.addr {
				t.Errorf("%s got mail %s from %s, want only the referee", p.name, b.messageID, b.from)
			}
			if other, dup := ids[b.messageID]; dup {
				t.Errorf("Message-ID %s reached %s and %s: a mail was sent twice", b.messageID, other, p.name)
			}
			ids[b.messageID] = p.name
		}
		for i, r := range p.received {
			if i > 0 && r.InReplyTo == "" {
				t.Errorf("%s's mail %d (%q) has no In-Reply-To", p.name, i+1, r.Subject)
			}
		}
	}

	// The archive: the game with every ply once, in order, each from the
	// mail that carried it; one processed-mail record per mail; every
	// reply sent, none pending or failed.
	st := m.ref.archive()
	ctx := context.Background()
	g, err := st.Game(ctx, m.id)
	if err != nil {
		t.Fatalf("game %s: %v", m.id, err)
	}
	if g.Status != archive.Finished || g.Result != "defenders" || g.Reason != "escape" {
		t.Errorf("game %s: status %s, result %q, reason %q; want finished, defenders, escape", g.ID, g.Status, g.Result, g.Reason)
	}
	if len(g.Plies) != len(brandubhEscape) || g.PlyCount != len(brandubhEscape) {
		t.Errorf("game %s has %d plies (count %d), want %d", g.ID, len(g.Plies), g.PlyCount, len(brandubhEscape))
	}
	for i, p := range g.Plies {
		if i >= len(brandubhEscape) {
			break
		}
		move := fromTo.FindString(p.Move) // "Kd4-d1xe1" → "d4-d1"
		if p.N != i+1 || move != brandubhEscape[i] || p.MessageID != m.plyMail[i] {
			t.Errorf("ply %d stored as N %d %q from %s; want N %d %s from %s", i+1, p.N, p.Move, p.MessageID, i+1, brandubhEscape[i], m.plyMail[i])
		}
	}
	n := 0
	for _, p := range []*player{m.alice, m.bob} {
		c, err := st.CountRecent(ctx, p.addr, "", time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		applied, _ := st.CountRecent(ctx, p.addr, "applied", time.Time{})
		if applied != c {
			t.Errorf("%d of %s's %d processed mails were applied, want all", applied, p.name, c)
		}
		n += c
	}
	if n != len(m.toReferee) {
		t.Errorf("the archive records %d processed mails, the players sent %d", n, len(m.toReferee))
	}
	all, err := st.Outbox(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2*want {
		t.Errorf("the outbox holds %d mails, want %d", len(all), 2*want)
	}
	for _, o := range all {
		if o.Status != archive.Sent {
			t.Errorf("outbox mail %d to %v is %s after %d attempts (%s), want sent", o.ID, o.To, o.Status, o.Attempts, o.LastError)
		}
		if _, ok := ids[o.MessageID]; !ok {
			t.Errorf("outbox mail %s (%v) reached no player", o.MessageID, o.To)
		}
	}

	// The record file of the finished game parses back to six plies.
	data, err := os.ReadFile(filepath.Join(m.ref.recs, m.id+".tafl"))
	if err != nil {
		t.Fatalf("record file: %v", err)
	}
	recs, err := grammar.ParseRecords(m.id+".tafl", data)
	if err != nil || len(recs) != 1 || len(recs[0].Plies()) != len(brandubhEscape) {
		t.Errorf("record file does not parse back to one game of %d plies: %v\n%s", len(brandubhEscape), err, data)
	}
}

// TestGameByMailRestart plays a whole game through IMAP and SMTP, stops
// the referee after ply 3 (once it is idle), has bob mail ply 4 while it is down, starts it
// again on the same mailbox and archive, and finishes the game: every ply
// stored once, every reply delivered once, every mail in Processed.
func TestGameByMailRestart(t *testing.T) {
	t.Parallel()
	eachSystem(t, func(t *testing.T, sys *mailSystem) {
		m := newMatch(t, sys)
		m.ref.start()
		m.challenge()
		for i := range 3 {
			m.ply(i)
		}
		// Between two mails, as a SIGTERM usually finds it. A stop in the
		// middle of a mail is TestGameByMailRestartBeforeSend (and, for
		// the moment SMTP answers, TestGameByMailStopDuringReply).
		m.idle()
		m.ref.stop()
		m.sendPly(3) // bob moves while the referee is down
		m.ref.start()
		m.both("ply 4 after the restart", brandubhEscape[3])
		for i := 4; i < len(brandubhEscape); i++ {
			m.ply(i)
		}
		m.finish()
		if m.ref.starts != 2 {
			t.Errorf("the referee started %d times, want 2", m.ref.starts)
		}
	})
}

// TestGameByMailRestartBeforeSend stops the referee at the worst moment:
// ply 3 is committed with its replies queued in the outbox, and the first
// reply hangs in SMTP when the daemon is told to stop. After the restart
// the replies go out, each exactly once, and the mail that carried ply 3
// is not applied again.
func TestGameByMailRestartBeforeSend(t *testing.T) {
	t.Parallel()
	eachSystem(t, func(t *testing.T, sys *mailSystem) {
		m := newMatch(t, sys)
		m.ref.start()
		m.challenge()
		for i := range 2 {
			m.ply(i)
		}
		hung := m.ref.sender.hangNext()
		m.sendPly(2)
		select {
		case <-hung:
		case <-time.After(sys.wait):
			t.Fatal("the referee sent nothing for ply 3")
		}
		m.ref.stop()

		st := m.ref.archive()
		ctx := context.Background()
		pending, err := st.Outbox(ctx, archive.Pending)
		if err != nil {
			t.Fatal(err)
		}
		if len(pending) != 2 {
			t.Fatalf("after the stop the outbox holds %d pending mails, want the 2 replies to ply 3", len(pending))
		}
		if g, err := st.Game(ctx, m.id); err != nil || len(g.Plies) != 3 {
			t.Fatalf("after the stop game %s has %v plies (%v), want 3 committed", m.id, g, err)
		}
		if done, err := st.Processed(ctx, m.plyMail[2], ""); err != nil || !done {
			t.Fatalf("after the stop the mail of ply 3 is not recorded as processed (%v)", err)
		}
		st.Close()
		t.Logf("after the stop the referee's INBOX holds %d mails (the one of ply 3 is marked done after its replies are sent)",
			len(sys.mailbox(t, m.ref.user, "INBOX")))

		m.ref.start()
		m.both("ply 3 after the restart", brandubhEscape[2])
		for i := 3; i < len(brandubhEscape); i++ {
			m.ply(i)
		}
		m.finish()
	})
}
