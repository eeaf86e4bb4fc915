package server

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/search"
)

// Games against the engine with the features of issue 12: spectators,
// messages, takebacks and conditional moves (internal/opponent, correspondence.go).

// TestEngineSpectators: a spectator of a game against the engine gets a
// mail for the engine's ply too, with the ply and the board, and none is
// sent to the engine.
func TestEngineSpectators(t *testing.T) {
	h := newEngineHarness(t)
	id, _ := startEngineGame(t, h, "new brandubh with engine level 2")
	if sent := h.confirmed(watcher, "watch "+strings.ToLower(id), nil); len(sent) != 1 || sent[0].to != watcher {
		t.Fatalf("watch: %d mails:\n%s", len(sent), texts(sent))
	}
	h.reply(alice, h.firstMove(id))
	want := h.wantMove(id, 2)
	sent := h.engineTurns(nil)
	var toWatcher []sentMail
	for _, s := range sent {
		if s.to == watcher {
			toWatcher = append(toWatcher, s)
		}
	}
	if len(sent) != 2 || len(toWatcher) != 1 {
		t.Fatalf("the engine's turn sent %d mails, %d to the spectator; want one to alice and one to the spectator:\n%s",
			len(sent), len(toWatcher), texts(sent))
	}
	ply := h.state(id).Plies[1]
	if !strings.Contains(ply, want.String()) {
		t.Fatalf("the engine played %s, want %s", ply, want)
	}
	mustContain(t, "the spectator's mail", toWatcher[0].msg.Text, ply)
	if strings.Contains(toWatcher[0].msg.Text, h.tableOf(id).Game.AttackerToken) {
		t.Error("the spectator's mail holds alice's key")
	}
	h.noMailToEngine()
}

// TestEngineNoMessages: prose to the engine is not kept for it (it reads
// no mail): the player is told so in English and German, and the move
// in the same mail is played.
func TestEngineNoMessages(t *testing.T) {
	for _, tc := range []struct{ lang, cmd, prose, want string }{
		{"en", "new brandubh with engine", "Good luck, machine!", "The engine reads no messages"},
		{"de", "neu brandubh mit engine", "Viel Glück, Maschine!", "Die Engine liest keine Nachrichten"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			h := newEngineHarness(t)
			id, _ := startEngineGame(t, h, tc.cmd)
			sent := h.reply(alice, h.firstMove(id)+"\n\n"+tc.prose)
			if len(sent) != 1 {
				t.Fatalf("%d mails:\n%s", len(sent), texts(sent))
			}
			mustContain(t, "the reply", sent[0].msg.Text, tc.want)
			g := h.tableOf(id).Game
			if g.MessageToDefenders != "" || g.MessageToAttackers != "" || len(g.Plies) != 1 {
				t.Errorf("game after the mail: messages %q, %q, %d plies; want none kept, the move played",
					g.MessageToAttackers, g.MessageToDefenders, len(g.Plies))
			}
			h.engineTurns(nil)
			if strings.Contains(h.last(alice).msg.Text, tc.prose) {
				t.Error("alice's own prose came back to her")
			}
		})
	}
}

// TestEngineNoTakebacks: the engine takes back nothing, so a takeback in
// a game against it is refused at once with the reason, before and
// after the engine's reply, and nothing changes.
func TestEngineNoTakebacks(t *testing.T) {
	h := newEngineHarness(t)
	id, _ := startEngineGame(t, h, "new brandubh with engine")
	h.reply(alice, h.firstMove(id))
	for _, when := range []string{"the engine to move", "after its reply"} {
		before := h.state(id)
		sent := h.reply(alice, "takeback")
		if len(sent) != 1 {
			t.Fatalf("%s: %d mails:\n%s", when, len(sent), texts(sent))
		}
		mustContain(t, when, sent[0].msg.Text, "takes back no moves")
		h.unchanged(when, id, before)
		if g := h.tableOf(id).Game; g.TakebackBy != "" {
			t.Errorf("%s: a takeback request stands: %q", when, g.TakebackBy)
		}
		h.engineTurns(nil)
	}
	if n := len(h.state(id).Plies); n != 2 {
		t.Errorf("%d plies, want alice's and the engine's", n)
	}
}

// TestEngineConditionalMoves: a conditional line set while the engine
// thinks, or in the mail with the player's move after it, answers the
// engine's ply at once when it starts with that ply, and the engine then
// replies to the answer; a line that starts with another ply is
// cancelled, and alice is told. Either way the engine's plies are the
// depth-2 search's.
func TestEngineConditionalMoves(t *testing.T) {
	for _, tc := range []struct {
		name            string
		match, sameMail bool
	}{
		{"answered", true, false},
		{"answered-same-mail", true, true},
		{"cancelled", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			match := tc.match
			h := newEngineHarness(t)
			id, _ := startEngineGame(t, h, "new brandubh with engine level 2")
			pos := h.tableOf(id).Pos.Clone()
			mine := sortedMoves(pos)[0]
			if _, err := pos.Play(mine); err != nil {
				t.Fatal(err)
			}
			r, err := depthSearch(2)(context.Background(), pos, 2, search.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			engineMove := r.Move
			first := engineMove
			if !match {
				first = otherMove(t, pos, engineMove)
			}
			after := pos.Clone()
			if _, err := after.Play(first); err != nil {
				t.Fatal(err)
			}
			answer := sortedMoves(after)[0]
			line := "if " + first.String() + " then " + answer.String()
			if tc.sameMail {
				line = mine.String() + "\n" + line
			} else {
				h.reply(alice, mine.String())
			}
			sent := h.reply(alice, line)
			if len(sent) != 1 || len(h.state(id).Plies) != 1 {
				t.Fatalf("%q: %d mails, plies %v:\n%s", line, len(sent), h.state(id).Plies, texts(sent))
			}
			mustContain(t, "the conditional line", sent[0].msg.Text, "conditional")

			turns := h.engineTurns(nil)
			st := h.state(id)
			if !strings.Contains(st.Plies[1], engineMove.String()) {
				t.Fatalf("the engine played %s, want %s", st.Plies[1], engineMove)
			}
			text := h.last(alice).msg.Text
			if !match {
				if len(st.Plies) != 2 {
					t.Fatalf("plies %v: a cancelled line was played", st.Plies)
				}
				mustContain(t, "the engine's reply", text, "Your 1 conditional line did not expect")
				return
			}
			if len(st.Plies) != 4 || !strings.Contains(st.Plies[2], answer.String()) {
				t.Fatalf("plies %v: want alice's, the engine's, her answer %s and the engine's reply to it", st.Plies, answer)
			}
			if h.engineDue() {
				t.Error("an engine timer is still due")
			}
			told := 0
			for _, m := range turns {
				if m.to == alice && strings.Contains(m.msg.Text, "Your conditional move "+st.Plies[2]+" was played in answer to the engine (level 2)'s "+st.Plies[1]) {
					told++
				}
			}
			if told != 1 || len(turns) != 2 {
				t.Errorf("the engine's two turns sent %d mails, %d telling alice her conditional move was played; want 2 and 1\n%s", len(turns), told, texts(turns))
			}
			mustContain(t, "the last mail", text, "The engine played "+st.Plies[3]+".")
		})
	}
}

// sortedMoves returns the legal moves of pos in text order.
func sortedMoves(pos *engine.Position) []engine.Move {
	ms := pos.LegalMoves(nil)
	sort.Slice(ms, func(i, j int) bool { return ms[i].String() < ms[j].String() })
	return ms
}

// otherMove returns a legal move of pos other than m.
func otherMove(t *testing.T, pos *engine.Position, m engine.Move) engine.Move {
	t.Helper()
	for _, o := range sortedMoves(pos) {
		if o != m {
			return o
		}
	}
	t.Fatal("no other legal move")
	return m
}

// TestEngineDigest: a player who chose the daily digest still gets the
// engine's reply at once, by itself (decision: a game against the engine
// is a session the player started and waits for; the digest holds the
// news of a person's ply), and it is not held for the digest.
func TestEngineDigest(t *testing.T) {
	h := newEngineHarness(t)
	h.confirmed(alice, "notify digest 07:30", nil) // she plays no game yet: she confirms it
	if p, err := h.store.Player(context.Background(), alice); err != nil || !p.Digest {
		t.Fatalf("alice's digest is not set: %+v, %v", p, err)
	}
	id, _ := startEngineGame(t, h, "new brandubh with engine level 2")
	h.reply(alice, h.firstMove(id))
	sent := h.engineTurns(nil)
	if len(sent) != 1 || sent[0].to != alice {
		t.Fatalf("the engine's reply: %d mails, want one to alice at once:\n%s", len(sent), texts(sent))
	}
	mustContain(t, "the engine's reply", sent[0].msg.Text, "The engine played "+h.state(id).Plies[1]+".")
}
