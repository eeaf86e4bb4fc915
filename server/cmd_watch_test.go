package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/correspondence"
	"github.com/taflmail/taflmail/server/internal/referee"
)

const (
	watcher = "carol@watch.test"
	viewer  = "dave@watch.test"
)

// setGame changes the stored game id with mod, as an operator or another
// stream (tournaments, clocks) would set its columns.
func (h *harness) setGame(id string, mod func(g *archive.Game)) {
	h.t.Helper()
	g, err := h.store.Game(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	mod(g)
	if err := h.store.Commit(context.Background(), archive.Change{Games: []*archive.Game{g}}); err != nil {
		h.t.Fatal(err)
	}
}

// keysOf returns both players' keys of game id.
func (h *harness) keysOf(id string) []string {
	h.t.Helper()
	g, err := h.store.Game(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return []string{g.AttackerToken, g.DefenderToken}
}

// noKeys fails when a mail to a spectator holds a player's key anywhere:
// its header fields, its Message-ID and thread, its text.
func noKeys(t *testing.T, what string, m sentMail, keys []string) {
	t.Helper()
	raw := strings.ToLower(string(m.raw))
	for _, k := range keys {
		if strings.Contains(raw, k) {
			t.Errorf("%s to %s holds a player's key %s:\n%s", what, m.to, k, m.raw)
		}
	}
	if ref := referee.FindGame(m.msg.Subject, m.msg.MessageID, m.msg.References); len(ref.Tokens) > 0 {
		t.Errorf("%s to %s: its subject or thread carries keys %v", what, m.to, ref.Tokens)
	}
}

// spectatorsOf returns the stored spectators of game id.
func (h *harness) spectatorsOf(id string) []archive.Spectator {
	h.t.Helper()
	sp, err := h.store.Spectators(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return sp
}

// TestWatch: watcher asks to watch a game, confirms it with the key the
// answer gave her, and gets, after every move, a mail with
// the board and the move list, in a thread of her own, without a key;
// viewer watches for the result only and gets one mail, at the end, with the
// record; a reply "unwatch" to a spectator's mail ends the mails.
func TestWatch(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	keys := h.keysOf(id)
	sent := h.deliver(watcher, "tafl?", "watch "+strings.ToLower(id), nil)
	if len(sent) != 1 || sent[0].to != watcher {
		t.Fatalf("watch: %d mails, want one to watcher:\n%s", len(sent), texts(sent))
	}
	ask := sent[0]
	mustContain(t, "request to confirm", ask.msg.Text, referee.Tr(referee.English, "confirm.watch", id, alice, bob), "    watch "+id+" confirm ")
	noKeys(t, "the request to confirm", ask, keys)
	if sp := h.spectatorsOf(id); len(sp) != 0 {
		t.Fatalf("the request alone made spectators: %+v", sp)
	}
	line := confirmationRE.FindStringSubmatch(ask.msg.Text)[1]
	sent = h.deliver(watcher, "tafl?", line, map[string]string{"Message-ID": "<watch-1@watch.test>"})
	if len(sent) != 1 || sent[0].to != watcher {
		t.Fatalf("watch confirmed: %d mails, want one to watcher:\n%s", len(sent), texts(sent))
	}
	conf := sent[0]
	mustContain(t, "confirmation", conf.msg.Text, referee.Tr(referee.English, "watch.started", id, alice, bob), referee.Tr(referee.English, "watch.how", id),
		"a  b  c  d  e  f  g", referee.Tr(referee.English, "move.list"))
	mustContain(t, "confirmation subject", conf.msg.Subject, "[taflmail "+id+"] ", referee.Tr(referee.English, "subject.watch", "Brandubh 7×7 (Federation Brandubh)"))
	noKeys(t, "the confirmation", conf, keys)
	h.confirmed(viewer, "watch "+id+" results", nil)
	mustContain(t, "results only", h.last(viewer).msg.Text, referee.Tr(referee.English, "watch.results", id, alice, bob))

	sent = h.reply(alice, "d1-e1")
	if len(sent) != 3 {
		t.Fatalf("a move with two spectators (one for results) caused %d mails, want 3 (alice, bob, watcher):\n%s", len(sent), texts(sent))
	}
	spec := sent[2]
	if spec.to != watcher {
		t.Fatalf("the third mail went to %s, want the watcher", spec.to)
	}
	noKeys(t, "the spectator's mail", spec, keys)
	mustContain(t, "spectator's mail", spec.msg.Text, "alice@player.test played d1-e1.", referee.Tr(referee.English, "watch.tomove", 1, "defenders"),
		"(.)[A]", "1. d1-e1", referee.Tr(referee.English, "watch.how", id))
	if !strings.HasPrefix(spec.msg.MessageID, "tm."+id+".watch.") || spec.msg.InReplyTo != "watch-1@watch.test" {
		t.Errorf("spectator's Message-ID %q, In-Reply-To %q; want tm.%s.watch.… answering watcher's watch mail", spec.msg.MessageID, spec.msg.InReplyTo, id)
	}
	if got := spec.msg.Header["List-Unsubscribe"]; len(got) != 1 || !strings.Contains(got[0], "subject=unwatch%20"+id) {
		t.Errorf("List-Unsubscribe = %q", got)
	}
	if strings.Contains(spec.msg.Text, referee.Tr(referee.English, "move.yours", 1, "defenders")) {
		t.Errorf("the spectator is told it is his move:\n%s", spec.msg.Text)
	}

	sent = h.reply(bob, "d3-f3")
	mustContain(t, "second spectator mail", to(t, sent, watcher).Text, "bob@player.test played d3-f3.", "1. d1-e1", " d3-f3\n")

	// watcher stops by replying to a spectator's mail; she is told, and
	// gets nothing more
	sent = h.reply(watcher, "unwatch")
	mustContain(t, "unwatch", to(t, sent, watcher).Text, referee.Tr(referee.English, "watch.stopped", id))
	if sp := h.spectatorsOf(id); len(sp) != 1 || sp[0].Address != viewer {
		t.Fatalf("spectators after watcher's unwatch: %+v, want viewer only", sp)
	}
	sent = h.reply(alice, "resign")
	if len(sent) != 3 || sent[2].to != viewer {
		t.Fatalf("the resignation caused %d mails, want alice, bob and viewer:\n%s", len(sent), texts(sent))
	}
	noKeys(t, "the result mail", sent[2], keys)
	mustContain(t, "result mail", sent[2].msg.Text, referee.Tr(referee.English, "over.result", "the defenders win, the attackers resigned", id),
		"[Result \"defenders\"]", "1. d1-e1 d3-f3")
	mustContain(t, "result subject", sent[2].msg.Subject, "[taflmail "+id+"] ", "game over")
	// the game is over: nothing is left to stop watching
	mustNotContain(t, "result mail", sent[2].msg.Text, referee.Tr(referee.English, "watch.how", id))
}

// TestWatchGerman: "zuschauen" and "zuschauen beenden" in German, the
// spectator's mails German throughout.
func TestWatchGerman(t *testing.T) {
	h := newHarness(t)
	id := startGame(t, h, "brandubh", referee.German)
	sent := h.deliver(watcher, "x", "zuschauen "+id, nil)
	checkGerman(t, "Bitte um Bestätigung", to(t, sent, watcher).Text, watcher, alice, bob, id)
	mustContain(t, "Bitte um Bestätigung", to(t, sent, watcher).Text, referee.Tr(referee.German, "confirm.watch", id, alice, bob), "    zuschauen "+id+" bestätigen ")
	sent = h.deliver(watcher, "x", confirmationRE.FindStringSubmatch(to(t, sent, watcher).Text)[1], nil)
	checkGerman(t, "Bestätigung", to(t, sent, watcher).Text, watcher, alice, bob, "Brandubh 7×7 (Federation Brandubh)")
	mustContain(t, "Bestätigung", to(t, sent, watcher).Text, referee.Tr(referee.German, "watch.started", id, alice, bob))
	sent = h.reply(alice, "d1-e1")
	spec := to(t, sent, watcher)
	checkGerman(t, "Zuschauermail", spec.Text, watcher, alice, bob, "Brandubh 7×7 (Federation Brandubh)")
	mustContain(t, "Zuschauermail", spec.Text, referee.Tr(referee.German, "move.played", alice, "d1-e1"), referee.Tr(referee.German, "watch.tomove", 1, "Verteidiger"))
	sent = h.deliver(watcher, "x", "zuschauen beenden "+id, nil)
	mustContain(t, "beenden", to(t, sent, watcher).Text, referee.Tr(referee.German, "watch.stopped", id))
	if sp := h.spectatorsOf(id); len(sp) != 0 {
		t.Errorf("spectators after zuschauen beenden: %+v", sp)
	}
}

// TestWatchRefusals: a game that does not exist, a tournament's name, the
// sender's own game, a game not started or over, the limits.
func TestWatchRefusals(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.deliver(alice, "x", "new tablut with carol@player.test", nil)
	invited := referee.FindGame(h.last("carol@player.test").msg.Subject, "", nil).ID
	for _, c := range []struct{ from, line, lang, key string }{
		{watcher, "watch ABCDEF", referee.English, "err.watch.unknown"},
		{watcher, "watch autumn2026", referee.English, "err.watch.unknown"},
		{alice, "watch " + id, referee.English, "err.watch.player"},
		{watcher, "watch " + invited, referee.English, "err.watch.notstarted"},
		{watcher, "unwatch " + id, referee.English, "err.unwatch.not"},
		{watcher, "unwatch", referee.English, "err.unwatch.which"},
		{viewer, "zuschauen beenden", referee.German, "err.unwatch.which"},
	} {
		sent := h.deliver(c.from, "x", c.line, nil)
		h.mustRefuse(c.key)
		mustContain(t, c.line, to(t, sent, c.from).Text, "> "+c.line, referee.Tr(c.lang, "err.nothing"))
		if len(sent) != 1 {
			t.Errorf("%s: %d mails, want the refusal only", c.line, len(sent))
		}
	}
	if sp := h.spectatorsOf(id); len(sp) != 0 {
		t.Fatalf("refused watches left spectators: %+v", sp)
	}

	// the limits: maxSpectators per game, maxWatched per address
	h.step = time.Minute
	for i := 0; i < correspondence.MaxSpectators; i++ {
		h.confirmed(fmt.Sprintf("s%02d@watch.test", i), "watch "+id, nil)
	}
	sent := h.deliver(watcher, "x", "watch "+id, nil)
	to(t, sent, watcher)
	h.mustRefuse("err.watch.full")
	var games []string
	for i := 0; i < correspondence.MaxWatched; i++ {
		h.deliver(fmt.Sprintf("p%02d@player.test", i), "x", fmt.Sprintf("new brandubh with q%02d@player.test", i), nil)
		g := referee.FindGame(h.last(fmt.Sprintf("q%02d@player.test", i)).msg.Subject, "", nil).ID
		h.reply(fmt.Sprintf("q%02d@player.test", i), "accept")
		games = append(games, g)
	}
	// one mail asks for all ten: one request mail, one confirmation
	var lines []string
	for _, g := range games {
		lines = append(lines, "watch "+g)
	}
	h.confirmed(viewer, strings.Join(lines, "\n"), nil)
	h.deliver(alice, "x", "new brandubh with erin@player.test", nil)
	extra := referee.FindGame(h.last("erin@player.test").msg.Subject, "", nil).ID
	h.reply("erin@player.test", "accept")
	sent = h.deliver(viewer, "x", "watch "+extra, nil)
	to(t, sent, viewer)
	h.mustRefuse("err.watch.toomany")
	if w, _ := h.store.Watching(context.Background(), viewer); len(w) != correspondence.MaxWatched {
		t.Errorf("viewer watches %d games, want %d", len(w), correspondence.MaxWatched)
	}

	// over: refused with the result
	h.deliver(alice, "[taflmail "+id+" "+h.keysOf(id)[0]+"]", "resign", nil)
	sent = h.deliver("late@watch.test", "x", "watch "+id, nil)
	to(t, sent, "late@watch.test")
	h.mustRefuse("err.over")
}

// TestStolenSpectatorMail: a spectator's mail moves nothing, whoever
// replies to it: the spectator himself, a forger writing in a player's
// name with the spectator mail's thread, a player it was forwarded to.
// Each is refused, the game does not change, and the spectator's mail
// never carried a key that could help.
func TestStolenSpectatorMail(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.confirmed(watcher, "watch "+id, nil)
	h.reply(alice, "d1-e1")
	stolen := h.last(watcher)
	noKeys(t, "the spectator's mail", stolen, h.keysOf(id))
	before := h.state(id)

	// watcher replies with bob's move
	sent := h.replyTo(watcher, stolen, "d3-f3")
	refusedWith(t, h, id, before, sent, watcher, referee.English, "err.notplayer")

	// a forger writes in bob's name, answering watcher's mail: its thread and
	// subject, but no key
	sent = h.replyTo(bob, stolen, "d3-f3")
	refusedWith(t, h, id, before, sent, bob, referee.English, "err.badkey")

	// watcher forwards her mail to bob, who replies to the forward
	fwd := h.deliver(bob, "Fwd: "+stolen.msg.Subject, "d3-f3\n\n---------- Forwarded message ---------\n"+stolen.msg.Text,
		map[string]string{"References": "<" + stolen.msg.MessageID + ">", "In-Reply-To": "<fwd-1@watch.test>"})
	refusedWith(t, h, id, before, fwd, bob, referee.English, "err.badkey")

	// a forger who adds a made-up key to the spectator's subject tag
	sent = h.deliver(bob, "Re: [taflmail "+id+" abcdefghjk]", "d3-f3",
		map[string]string{"In-Reply-To": "<" + stolen.msg.MessageID + ">"})
	refusedWith(t, h, id, before, sent, bob, referee.English, "err.badkey")

	// bob's real reply to his own mail still plays
	if sent = h.reply(bob, "d3-f3"); len(h.state(id).Plies) != 2 {
		t.Fatalf("bob's own keyed move was not played:\n%s", texts(sent))
	}
}

// TestSpectatorsAreStrangers: "watch" carries no key, so watch mails count
// against the budget for junk; past it they are ignored and ask nobody
// to confirm, while the players' keyed moves go on. Those who were asked
// and confirm become spectators.
func TestSpectatorsAreStrangers(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.srv.Opts.JunkReplies = 3
	h.step = time.Minute
	var asked []sentMail
	for i := 0; i < 6; i++ {
		asked = append(asked, h.deliver(fmt.Sprintf("w%d@watch.test", i), "x", "watch "+id, nil)...)
	}
	// (alice's keyless challenge, a valid command, spent nothing of the
	// budget for junk)
	if len(asked) > 3 || len(h.spectatorsOf(id)) != 0 {
		t.Errorf("6 watch mails over a budget of 3: %d answered, %d spectators before any confirmation", len(asked), len(h.spectatorsOf(id)))
	}
	if sent := h.reply(alice, "d1-e1"); len(sent) != 2 {
		t.Errorf("alice's keyed move caused %d mails, want 2 (no spectator has confirmed)", len(sent))
	}
	h.srv.Opts.JunkReplies = referee.DefaultJunkReplies
	for _, a := range asked {
		h.deliver(a.to, "x", confirmationRE.FindStringSubmatch(a.msg.Text)[1], nil)
	}
	if n := len(h.spectatorsOf(id)); n != len(asked) {
		t.Errorf("%d of the %d asked confirmed, %d spectators", len(asked), len(asked), n)
	}
	if sent := h.reply(bob, "d3-f3"); len(sent) != 2+len(asked) {
		t.Errorf("bob's keyed move caused %d mails, want 2 and one per spectator (%d)", len(sent), len(asked))
	}
}

// TestWatchInGameThread: a player who writes "watch" above his move in the
// thread of his own game gets the answer about his game, its tag with his
// key first; the watched game's board comes in the text.
func TestWatchInGameThread(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.deliver("erin@player.test", "x", "new brandubh with frank@player.test", nil)
	other := referee.FindGame(h.last("frank@player.test").msg.Subject, "", nil).ID
	h.reply("frank@player.test", "accept")
	sent := h.reply(alice, "watch "+other+"\nd1-e1")
	m := to(t, sent, alice)
	mustContain(t, "alice's answer", m.Subject, "[taflmail "+id+" "+h.keysOf(id)[0]+"]")
	mustContain(t, "alice's answer", m.Text, referee.Tr(referee.English, "watch.started", other, "erin@player.test", "frank@player.test"), "You played d1-e1.")
	if strings.Count(m.Text, "a  b  c  d  e  f  g") != 4 {
		t.Errorf("want two boards (her game's and the watched one's):\n%s", m.Text)
	}
	// a bare "unwatch" in this thread would name alice's game: the
	// answer names the watched one; each board says whose game it shows,
	// the watched game's first
	mustContain(t, "alice's answer", m.Text, referee.Tr(referee.English, "watch.how.send", other))
	mustNotContain(t, "alice's answer", m.Text, referee.Tr(referee.English, "watch.how", other))
	mine, theirs := strings.Index(m.Text, referee.Tr(referee.English, "board.of", id)+"\n"), strings.Index(m.Text, referee.Tr(referee.English, "board.of", other)+"\n")
	if theirs < 0 || mine < theirs {
		t.Errorf("want the watched game's board labelled, then alice's:\n%s", m.Text)
	}
	sent = h.reply(alice, "unwatch "+other)
	mustContain(t, "unwatch with the id", to(t, sent, alice).Text, referee.Tr(referee.English, "watch.stopped", other))
}

// TestWatchTournament: "watch ID" before the start follows every game of
// the event, those its start creates included: a move in any of them
// brings the spectator a mail without either key, whose way to stop names
// the tournament; "zuschauen ID ergebnis" brings only results; "unwatch
// ID", or a bare "unwatch" in reply to such a mail, stops it. An unknown
// id and a finished event are refused. Before the fix every tournament id
// was refused ("not possible yet").
func TestWatchTournament(t *testing.T) {
	h := newHarness(t)
	h.createEvent("cup-27", []string{alice, bob, "erin@player.test"}, nil)
	ask := to(t, h.deliver(watcher, "x", "watch cup-27", nil), watcher)
	mustContain(t, "request", ask.Text, referee.Tr(referee.English, "confirm.watch.event", "Cup cup-27", "cup-27"), "    watch cup-27 confirm ")
	mustContain(t, "watch", to(t, h.deliver(watcher, "x", confirmationRE.FindStringSubmatch(ask.Text)[1], nil), watcher).Text,
		referee.Tr(referee.English, "watch.event", "Cup cup-27", "cup-27"))
	mustContain(t, "German results", to(t, h.confirmed(viewer, "zuschauen cup-27 ergebnis", nil), viewer).Text,
		referee.Tr(referee.German, "watch.event.results", "Cup cup-27", "cup-27"))
	if _, err := StartTournament(h.srv, h.ctx(), "cup-27"); err != nil {
		t.Fatal(err)
	}
	h.srv.FlushOutbox(h.ctx())
	games := h.eventGames("cup-27")
	g := games[len(games)-1]
	first := g.Attackers
	sent := h.inGame(g.ID, first, h.firstMove(g.ID))
	m := sentTo(sent, watcher)
	if m == nil || sentTo(sent, viewer) != nil {
		t.Fatalf("a move in game %s: mail to the spectator %v, to the results-only one %v; want only the first", g.ID, m != nil, sentTo(sent, viewer) != nil)
	}
	noKeys(t, "tournament spectator", *m, h.keysOf(g.ID))
	mustContain(t, "spectator mail", m.msg.Text, referee.Tr(referee.English, "watch.how", "cup-27"))
	if u := string(m.raw); !contains(u, "unwatch%20cup-27") {
		t.Errorf("List-Unsubscribe does not name the tournament:\n%s", u)
	}
	// the result reaches both
	sent = h.inGame(g.ID, first, "resign")
	for _, addr := range []string{watcher, viewer} {
		if sentTo(sent, addr) == nil {
			t.Errorf("the resignation in %s sent nothing to %s", g.ID, addr)
		}
	}
	// a bare unwatch in reply to the spectator mail stops the tournament
	sent = h.replyTo(watcher, *m, "unwatch")
	mustContain(t, "unwatch reply", to(t, sent, watcher).Text, referee.Tr(referee.English, "watch.event.stopped", "cup-27"))
	mustContain(t, "German unwatch", to(t, h.deliver(viewer, "x", "zuschauen beenden cup-27", nil), viewer).Text,
		referee.Tr(referee.German, "watch.event.stopped", "cup-27"))
	if sp, _ := h.store.TournamentSpectators(h.ctx(), "cup-27"); len(sp) != 0 {
		t.Errorf("spectators after unwatch: %+v", sp)
	}
	other := games[0]
	if sent := h.inGame(other.ID, other.Attackers, h.firstMove(other.ID)); sentTo(sent, watcher) != nil || sentTo(sent, viewer) != nil {
		t.Error("a move after unwatch still reached a spectator")
	}
	to(t, h.deliver(watcher, "x", "watch nope-27", nil), watcher)
	h.mustRefuse("err.watch.unknown")
	h.createEvent("old-26", []string{alice, bob, "erin@player.test"}, func(t *archive.Tournament) { t.Status = archive.TournamentFinished })
	to(t, h.deliver(watcher, "x", "watch old-26", nil), watcher)
	h.mustRefuse("err.watch.eventover")
}

// sentTo returns the mail to addr among sent, or nil.
func sentTo(sent []sentMail, addr string) *sentMail {
	for i := range sent {
		if sent[i].to == addr {
			return &sent[i]
		}
	}
	return nil
}

// TestWatchInGameThreadSubject: a "watch" alone in the thread of the
// sender's own game, even one that is over, is answered with that game's
// tag and a subject that names the watched game, as the mail says nothing
// else; with a move of the sender's beside it the subject stays about
// the move.
func TestWatchInGameThreadSubject(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.deliver("erin@player.test", "x", "new brandubh with frank@player.test", nil)
	other := referee.FindGame(h.last("frank@player.test").msg.Subject, "", nil).ID
	h.reply("frank@player.test", "accept")
	h.reply(bob, "resign")
	title := "Brandubh 7×7 (Federation Brandubh)"
	m := to(t, h.reply(alice, "watch "+other), alice)
	mustContain(t, "alice's answer", m.Text, referee.Tr(referee.English, "watch.started", other, "erin@player.test", "frank@player.test"))
	if want := "[taflmail " + id + " " + h.keysOf(id)[0] + "] " + referee.Tr(referee.English, "subject.watch.other", other, title); m.Subject != want {
		t.Errorf("subject %q, want %q", m.Subject, want)
	}

	h2 := newHarness(t)
	id = startBrandubh(t, h2)
	h2.deliver("erin@player.test", "x", "new brandubh with frank@player.test", nil)
	other = referee.FindGame(h2.last("frank@player.test").msg.Subject, "", nil).ID
	h2.reply("frank@player.test", "accept")
	m = to(t, h2.reply(alice, "watch "+other+"\nd1-e1"), alice)
	mustContain(t, "alice's answer with a move", m.Subject, "[taflmail "+id+" ", referee.Tr(referee.English, "subject.move", title, 1, "defenders"))
	mustNotContain(t, "alice's answer with a move", m.Subject, other)
}
