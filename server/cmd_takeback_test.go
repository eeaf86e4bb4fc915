package server

import (
	"strings"
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// TestTakeback: alice asks to take back her last ply, bob accepts: the
// ply leaves the game, alice is to move again, both and the spectator get
// the board; alice's conditional moves, which belonged to the undone
// position, are dropped; the record keeps the fact as a comment and
// replays to the position as it stands.
func TestTakeback(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.confirmed(watcher, "watch "+id, nil)
	h.reply(alice, "d1-e1")
	h.reply(bob, "d3-f3")
	h.reply(alice, "d2-c2\nif e4-e3 then a4-a5")
	h.reply(alice, "takeback")
	sent := h.reply(bob, "decline takeback")
	mustContain(t, "declined", to(t, sent, alice).Text, referee.Tr(referee.English, "takeback.declined", bob))
	mustContain(t, "declined", to(t, sent, bob).Text, referee.Tr(referee.English, "takeback.declined.you"))
	mustNotContain(t, "declined", to(t, sent, bob).Text, bob+" declined")
	sent = h.reply(alice, "takeback")
	mustContain(t, "asked", to(t, sent, alice).Text, referee.Tr(referee.English, "takeback.asked", bob, "d2-c2"))
	mustContain(t, "offered", to(t, sent, bob).Text, referee.Tr(referee.English, "takeback.offered", alice, "d2-c2"))
	if g := h.state(id); len(g.Plies) != 3 {
		t.Fatalf("asking changed the plies: %v", g.Plies)
	}
	sent = h.reply(bob, "accept takeback")
	if len(sent) != 3 {
		t.Fatalf("the takeback caused %d mails, want alice, bob, watcher:\n%s", len(sent), texts(sent))
	}
	done := referee.Tr(referee.English, "takeback.done", alice, "d2-c2", bob)
	// each player reads of their own part as "You …" (trial 3 report §2)
	mustContain(t, "alice's mail", to(t, sent, alice).Text, referee.Tr(referee.English, "takeback.done.asker", "d2-c2", bob), referee.Trn(referee.English, "cond.dropped", 1, 1), referee.Tr(referee.English, "move.yours", 2, "attackers"))
	mustContain(t, "bob's mail", to(t, sent, bob).Text, referee.Tr(referee.English, "takeback.done.you", alice, "d2-c2"), referee.Tr(referee.English, "move.theirs", 2, "attackers"))
	mustNotContain(t, "the players' mails", to(t, sent, alice).Text+to(t, sent, bob).Text, done)
	mustContain(t, "watcher's mail", to(t, sent, watcher).Text, done, referee.Tr(referee.English, "watch.tomove", 2, "attackers"))
	g, err := h.store.Game(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Plies) != 2 || len(g.TakenBack) != 1 || g.TakenBack[0].Move != "d2-c2" || g.TakebackBy != "" || !g.AttackersConditions.Empty() {
		t.Fatalf("after the takeback: plies %v, taken back %+v, request %q, conditions %+v", g.Plies, g.TakenBack, g.TakebackBy, g.AttackersConditions)
	}

	// alice plays another second move; the record names the undone one
	// and replays as the game stands
	h.reply(alice, "d2-f2xf3")
	g, _ = h.store.Game(t.Context(), id)
	r, err := g.Replay()
	if err != nil || !r.Legal || len(r.Plies) != 3 {
		t.Fatalf("Replay: %v, %v", err, r)
	}
	var b strings.Builder
	if err := notation.WriteNative(&b, r); err != nil {
		t.Fatal(err)
	}
	mustContain(t, "record", strings.Join(strings.Fields(b.String()), " "), "1. d1-e1 d3-f3 {ply 3 d2-c2 taken back by agreement} 2. d2-f2xf3")
	mustContain(t, "history", to(t, h.reply(alice, "history"), alice).Text, "{ply 3 d2-c2 taken back by agreement}")
}

// TestTakebackAnswers: a declined request, a lapsed one (bob moves
// instead), and the requests that are refused: not one's own last ply, a
// second one, an answer without a request; German words.
func TestTakebackAnswers(t *testing.T) {
	h := newHarness(t)
	id := startGame(t, h, "brandubh", referee.German)
	before := h.state(id)
	refusedWith(t, h, id, before, h.reply(alice, "zurücknehmen"), alice, referee.German, "err.takeback.notyours")
	h.reply(alice, "d1-e1")
	refusedWith(t, h, id, h.state(id), h.reply(bob, "zurücknehmen"), bob, referee.German, "err.takeback.notyours")
	refusedWith(t, h, id, h.state(id), h.reply(bob, "rücknahme annehmen"), bob, referee.German, "err.takeback.none")
	h.reply(alice, "zurücknehmen")
	refusedWith(t, h, id, h.state(id), h.reply(alice, "zurücknehmen"), alice, referee.German, "err.takeback.pending")
	refusedWith(t, h, id, h.state(id), h.reply(alice, "rücknahme annehmen"), alice, referee.German, "err.takeback.none")
	sent := h.reply(bob, "rücknahme ablehnen")
	mustContain(t, "declined", to(t, sent, alice).Text, referee.Tr(referee.German, "takeback.declined", bob))
	checkGerman(t, "abgelehnt", to(t, sent, alice).Text, alice, bob, "Brandubh 7×7 (Federation Brandubh)")
	if g := h.state(id); g.DrawOfferBy != "" || len(g.Plies) != 1 {
		t.Fatal(g)
	}
	if g, _ := h.store.Game(t.Context(), id); g.TakebackBy != "" {
		t.Fatalf("request stands after the decline: %q", g.TakebackBy)
	}
	h.reply(alice, "zurücknehmen")
	sent = h.reply(bob, "d3-f3")
	mustContain(t, "lapsed", to(t, sent, alice).Text, referee.Tr(referee.German, "takeback.lapsed", bob))
	if g, _ := h.store.Game(t.Context(), id); g.TakebackBy != "" || len(g.Plies) != 2 {
		t.Fatalf("after bob's move: request %q, %d plies", g.TakebackBy, len(g.Plies))
	}
	// a standing draw offer lapses with an accepted takeback
	h.reply(bob, "remis anbieten")
	h.reply(bob, "zurücknehmen")
	sent = h.reply(alice, "rücknahme annehmen")
	mustContain(t, "draw lapsed", to(t, sent, bob).Text, referee.Tr(referee.German, "takeback.drawlapsed"), referee.Tr(referee.German, "takeback.done.asker", "d3-f3", alice))
	if g := h.state(id); g.DrawOfferBy != "" || len(g.Plies) != 1 {
		t.Fatalf("after the takeback: %v", g)
	}
}

// TestTakebackBarred: a game with a time control or in a tournament
// allows no takeback; the refusal says why, and nothing changes.
func TestTakebackBarred(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(g *archive.Game)
		key  string
		arg  string
	}{
		{"timed", func(g *archive.Game) { g.TimeControl = "3d/move" }, "err.takeback.timed", "3d/move"},
		{"tournament", func(g *archive.Game) { g.TournamentID = "autumn-2026" }, "err.takeback.tournament", "autumn-2026"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			id := startBrandubh(t, h)
			h.reply(alice, "d1-e1")
			h.setGame(id, c.set)
			before := h.state(id)
			refusedOnly(t, h, id, before, h.reply(alice, "takeback"), alice, referee.Tr(referee.English, c.key, id, c.arg))
			// a request made before the game got its clock cannot be accepted either
			h.setGame(id, func(g *archive.Game) { g.TakebackBy = "attackers" })
			refusedOnly(t, h, id, h.state(id), h.reply(bob, "accept takeback"), bob, referee.Tr(referee.English, c.key, id, c.arg))
			if g := h.state(id); len(g.Plies) != 1 {
				t.Fatalf("plies %v", g.Plies)
			}
		})
	}
}

// TestTournamentGameRefusals: in a game of a started event, through the
// referee, "takeback" and "accept takeback" are refused with the reason
// that takebacks are never allowed in tournaments (not "no request" nor
// "timed"), and "private" with the reason that tournament games are
// public; English and German, nothing changes. Before the fix "accept
// takeback" said there was no request, and the takeback refusal called
// every tournament rated.
func TestTournamentGameRefusals(t *testing.T) {
	h := newHarness(t)
	h.createEvent("cup", []string{alice, bob, "carol@player.test"}, func(t *archive.Tournament) { t.Rated = false })
	if _, err := StartTournament(h.srv, h.ctx(), "cup"); err != nil {
		t.Fatal(err)
	}
	h.srv.FlushOutbox(h.ctx())
	var g *archive.Game
	for _, e := range h.eventGames("cup") {
		if e.Attackers == alice && e.Defenders == bob {
			g = e
		}
	}
	if g == nil {
		t.Fatal("no game of alice against bob")
	}
	h.inGame(g.ID, alice, h.firstMove(g.ID))
	for _, c := range []struct{ who, line, lang, key string }{
		{alice, "takeback", referee.English, "err.takeback.tournament"},
		{bob, "accept takeback", referee.English, "err.takeback.tournament"},
		{bob, "private", referee.English, "err.private.tournament"},
		{alice, "zurücknehmen", referee.German, "err.takeback.tournament"},
		{bob, "rücknahme ablehnen", referee.German, "err.takeback.tournament"},
		{alice, "privat", referee.German, "err.private.tournament"},
		{bob, "accept", referee.German, "err.notinvited"}, // a pairing was never a challenge: not "you already accepted"
	} {
		before := h.state(g.ID)
		want := referee.Tr(c.lang, c.key, g.ID)
		if c.key == "err.takeback.tournament" {
			want = referee.Tr(c.lang, c.key, g.ID, "cup")
		}
		refusedOnly(t, h, g.ID, before, h.inGame(g.ID, c.who, c.line), c.who, want)
	}
	if !contains(referee.Tr(referee.English, "err.takeback.tournament", "X", "y"), "never allowed in tournaments") || contains(referee.Tr(referee.English, "err.takeback.tournament", "X", "y"), "rated") {
		t.Errorf("the reason must be \"never in tournaments\", whether rated or not: %q", referee.Tr(referee.English, "err.takeback.tournament", "X", "y"))
	}
}
