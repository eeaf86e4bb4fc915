package server

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/tournament"
)

// createEvent stores a tournament with the given players entered (in
// that order), as `taflmail tournament create` does: brandubh, 30d+1d,
// rated, starting today, the players named by the director.
func (h *harness) createEvent(id string, players []string, edit func(*archive.Tournament)) *archive.Tournament {
	h.t.Helper()
	y, m, d := h.now.Date()
	t := &archive.Tournament{ID: id, Name: "Cup " + id, Variant: "brandubh", TimeControl: "30d+1d", Groups: 1, GamesPerPairing: 2,
		StartDate: time.Date(y, m, d, 0, 0, 0, 0, time.UTC), Rated: true, LeaveDays: 30, Status: archive.TournamentCreated}
	if edit != nil {
		edit(t)
	}
	tc := &archive.TournamentChange{Tournaments: []*archive.Tournament{t}}
	for i, p := range players {
		tc.Entries = append(tc.Entries, archive.Entry{TournamentID: id, Player: p, Key: "key" + string(rune('a'+i)), Seq: i + 1})
	}
	if err := h.store.Commit(context.Background(), archive.Change{Writes: []archive.Write{tc}}); err != nil {
		h.t.Fatal(err)
	}
	return t
}

// inGame delivers a mail from player about game id with the game's tag
// and the player's key in the subject, as a player copying the tag line
// of the start list does.
func (h *harness) inGame(id, player, body string) []sentMail {
	h.t.Helper()
	g, err := h.store.Game(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return h.deliver(player, "[taflmail "+id+" "+referee.TokenOf(g, player)+"]", body, nil)
}

// eventGames returns a tournament's games in schedule order.
func (h *harness) eventGames(id string) []*archive.Game {
	h.t.Helper()
	gs, err := h.store.TournamentGames(context.Background(), id, false)
	if err != nil {
		h.t.Fatal(err)
	}
	return gs
}

var tagLine = regexp.MustCompile(`\[taflmail [0-9A-Z]{6} [0-9a-z]{10}\]`)

// gameMail returns the mail in ms to addr about game id.
func gameMail(t *testing.T, ms []sentMail, addr, id string) *mailer.Message {
	t.Helper()
	for _, m := range ms {
		if m.to == addr && strings.Contains(m.msg.Subject, "[taflmail "+id) {
			return m.msg
		}
	}
	t.Fatalf("no mail to %s about game %s among %d sent", addr, id, len(ms))
	return nil
}

var confirmLine = regexp.MustCompile(`(?m)^\s*(withdraw|abmelden) (\S+) (confirm|bestätigen) (\S+)\s*$`)

// joinConfirmLine finds the line that confirms a join request.
var joinConfirmLine = regexp.MustCompile(`(?m)^\s*(join|anmelden) (\S+) (confirm|bestätigen) (\S+)\s*$`)

// joinByMail has player enter tournament id by mail: the request, then
// the confirmation line the reply gives; it returns the confirmation's
// mails.
func (h *harness) joinByMail(id, player, keyword string) []sentMail {
	h.t.Helper()
	sent := h.deliver(player, "entering", keyword+" "+id, nil)
	m := joinConfirmLine.FindStringSubmatch(to(h.t, sent, player).Text)
	if m == nil {
		h.t.Fatalf("the join request's reply gives no confirmation line:\n%s", to(h.t, sent, player).Text)
	}
	return h.deliver(player, "entering", m[0], nil)
}

// withdrawByMail has player withdraw from tournament id by mail: the
// request, then the confirmation line the reply gives.
func (h *harness) withdrawByMail(id, player string) []sentMail {
	h.t.Helper()
	sent := h.deliver(player, "leaving", "withdraw "+id, nil)
	m := confirmLine.FindStringSubmatch(to(h.t, sent, player).Text)
	if m == nil {
		h.t.Fatalf("the withdrawal request's reply gives no confirmation line:\n%s", to(h.t, sent, player).Text)
	}
	return h.deliver(player, "leaving", m[0], nil)
}

// TestTournamentStart: a started event's games all run with the event's
// control and its tag; each player gets exactly one mail listing their
// games with the tag lines that reach them, and a reply with one tag
// line is a move. Nothing starts twice.
func TestTournamentStart(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	players := []string{alice, bob, "carol@player.test", "dave@player.test"}
	h.createEvent("spring", players, nil)
	before := len(h.sender.sent)
	ids, err := StartTournament(h.srv, ctx, "spring")
	if err != nil || len(ids) != 12 {
		t.Fatalf("StartTournament = %d games, %v; want 12", len(ids), err)
	}
	h.srv.FlushOutbox(ctx)
	sent := h.sender.sent[before:]
	if len(sent) != 4 {
		t.Fatalf("%d mails at the start, want one per player:\n%s", len(sent), subjects(sent))
	}
	for _, p := range players {
		m := to(t, sent, p)
		mustContain(t, p+"'s start list", m.Subject, "Cup spring starts")
		mustContain(t, p+"'s start list", m.Text, "Your 6 games:", "30d+1d", "rated", "4 players, 12 games")
		if n := len(tagLine.FindAllString(m.Text, -1)); n != 6 {
			t.Errorf("%s's list has %d tag lines, want 6:\n%s", p, n, m.Text)
		}
	}
	gs := h.eventGames("spring")
	if len(gs) != 12 {
		t.Fatalf("%d games stored, want 12", len(gs))
	}
	for _, g := range gs {
		if g.Status != archive.Active || g.TimeControl != "30d+1d" || !g.Rated || g.TournamentID != "spring" || g.Event == nil {
			t.Errorf("game %s: %+v", g.ID, g)
		}
	}
	tm, _ := h.store.Tournament(ctx, "spring")
	if tm.Status != archive.TournamentRunning || !tm.StartedAt.Equal(h.now) {
		t.Errorf("tournament after the start: %+v", tm)
	}
	es, _ := h.store.Entries(ctx, "spring")
	for _, e := range es {
		if e.Section != 1 || e.Number < 1 || e.Number > 4 || e.Rating != 1500 {
			t.Errorf("entry after the start: %+v", e)
		}
	}
	if _, err := StartTournament(h.srv, ctx, "spring"); !errors.Is(err, ErrTournamentState) {
		t.Errorf("second start = %v, want ErrTournamentState", err)
	}
	if _, err := StartTournament(h.srv, ctx, "nope"); !errors.Is(err, ErrNoTournament) {
		t.Errorf("start of an unknown id = %v, want ErrNoTournament", err)
	}

	// a reply to the list keeping one game's tag line plays in that game
	g := gs[0]
	list := to(t, sent, g.Attackers)
	var line string
	for _, l := range strings.Split(list.Text, "\n") {
		if strings.Contains(l, "[taflmail "+g.ID+" ") {
			line = strings.TrimSpace(l)
		}
	}
	got := h.deliver(g.Attackers, "Re: "+list.Subject, "d1-e1\n"+line, map[string]string{"In-Reply-To": "<" + list.MessageID + ">"})
	mustContain(t, "the opponent's mail", gameMail(t, got, g.Defenders, g.ID).Text, "d1-e1", "Cup spring, round 1.")
	if r, _ := h.store.Game(ctx, g.ID); r.PlyCount != 1 {
		t.Errorf("game %s has %d plies after the reply, want 1", g.ID, r.PlyCount)
	}
	rec, err := (&referee.Table{Game: mustGame(t, h, g.ID)}).Game.Replay()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := notation.WriteNative(&b, rec); err != nil {
		t.Fatal(err)
	}
	mustContain(t, "the game's record", b.String(), `[Event "Cup spring"]`, `[Round "`, `[TimeControl "30d+1d"]`)
}

// ctx is the tests' context.
func (h *harness) ctx() context.Context { return context.Background() }

// contains reports whether text contains sub.
func contains(text, sub string) bool { return strings.Contains(text, sub) }

func mustGame(t *testing.T, h *harness, id string) *archive.Game {
	t.Helper()
	g, err := h.store.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestTournamentTooFew: an event that cannot start for lack of players
// is refused by the director's start and cancelled by the scheduler on
// its start date, its players told.
func TestTournamentTooFew(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	h.createEvent("tiny", []string{alice, bob}, func(t *archive.Tournament) { t.StartDate = t.StartDate.AddDate(0, 0, 2) })
	if _, err := StartTournament(h.srv, ctx, "tiny"); !errors.Is(err, ErrTooFewPlayers) {
		t.Fatalf("StartTournament(2 players) = %v, want ErrTooFewPlayers", err)
	}
	if n, err := h.srv.RunTimers(ctx); err != nil || n != 0 {
		t.Fatalf("RunTimers before the start date = %d, %v", n, err)
	}
	h.now = h.now.AddDate(0, 0, 2)
	before := len(h.sender.sent)
	if n, err := h.srv.RunTimers(ctx); err != nil || n != 1 {
		t.Fatalf("RunTimers on the start date = %d, %v; want 1", n, err)
	}
	h.srv.FlushOutbox(ctx)
	sent := h.sender.sent[before:]
	mustContain(t, "alice's notice", to(t, sent, alice).Text, "cannot start", "2 players", "cancelled")
	tm, _ := h.store.Tournament(ctx, "tiny")
	if tm.Status != archive.TournamentCancelled {
		t.Errorf("status = %s, want cancelled", tm.Status)
	}
}

// TestTournamentStartsOnItsDate: the scheduler starts an event at 00:00
// UTC of its start date, once; Run's wait ends then.
func TestTournamentStartsOnItsDate(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	tm := h.createEvent("dated", []string{alice, bob, "carol@player.test"}, func(t *archive.Tournament) { t.StartDate = t.StartDate.AddDate(0, 0, 1) })
	if d := h.srv.UntilNextTimer(ctx); d != time.Minute {
		t.Errorf("untilNextTimer a day before = %v, want the cap (1m)", d)
	}
	h.now = tm.StartDate.Add(-30 * time.Second)
	if d := h.srv.UntilNextTimer(ctx); d != 30*time.Second {
		t.Errorf("untilNextTimer 30 s before the start = %v, want 30s", d)
	}
	h.now = tm.StartDate
	if n, err := h.srv.RunTimers(ctx); err != nil || n != 1 {
		t.Fatalf("RunTimers at the start = %d, %v", n, err)
	}
	if gs := h.eventGames("dated"); len(gs) != 6 || !gs[0].StartedAt.Equal(tm.StartDate) {
		t.Fatalf("after the start: %d games", len(gs))
	}
	if n, err := h.srv.RunTimers(ctx); err != nil || n != 0 {
		t.Errorf("RunTimers again = %d, %v; want nothing", n, err)
	}
}

// TestTournamentSeeding: eight players in two groups are seeded by
// their ratings in snake order (CORRESPONDENCE.md §6.2): groups {1, 4,
// 5, 8} and {2, 3, 6, 7} by seed, each a round robin of its own with the
// best seed as Berger number 1; nobody meets a player of the other group.
func TestTournamentSeeding(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	var players []string
	for _, n := range "abcdefgh" {
		players = append(players, string(n)+"@player.test")
	}
	// ratings: h is the best (1800), then g (1750), … a the worst (1450)
	var ratings []archive.Rating
	for i, p := range players {
		ratings = append(ratings, archive.Rating{Player: p, Variant: "brandubh", Value: archive.RatingValue{R: 1450 + 50*float64(i), RD: 100, Volatility: 0.06},
			Games: 5, LastEnd: h.now.Add(-day)})
	}
	if err := h.store.Commit(ctx, archive.Change{Writes: []archive.Write{&archive.TournamentChange{Ratings: []archive.RatingUpdate{{Variant: "brandubh", Ratings: ratings}}}}}); err != nil {
		t.Fatal(err)
	}
	h.createEvent("groups", players, func(t *archive.Tournament) { t.Groups = 2 })
	if _, err := StartTournament(h.srv, ctx, "groups"); err != nil {
		t.Fatal(err)
	}
	es, _ := h.store.Entries(ctx, "groups")
	got := map[string][2]int{}
	for _, e := range es {
		got[e.Player[:1]] = [2]int{e.Section, e.Number}
	}
	// seeds: 1 h, 2 g, 3 f, 4 e, 5 d, 6 c, 7 b, 8 a
	want := map[string][2]int{"h": {1, 1}, "e": {1, 2}, "d": {1, 3}, "a": {1, 4}, "g": {2, 1}, "f": {2, 2}, "c": {2, 3}, "b": {2, 4}}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s: group %d number %d, want group %d number %d", p, got[p][0], got[p][1], w[0], w[1])
		}
	}
	gs := h.eventGames("groups")
	if len(gs) != 24 {
		t.Fatalf("%d games, want 2 groups × 6 pairings × 2", len(gs))
	}
	for _, g := range gs {
		a, d := got[g.Attackers[:1]], got[g.Defenders[:1]]
		if a[0] != d[0] || a[0] != g.Event.Pairing.Section {
			t.Errorf("game %s: %s (group %d) against %s (group %d) in section %d", g.ID, g.Attackers, a[0], g.Defenders, d[0], g.Event.Pairing.Section)
		}
	}
	// the start list names the group
	h.srv.FlushOutbox(ctx)
	mustContain(t, "h's start list", h.last("h@player.test").msg.Text, "group 1 of 2 (4 players)")
}

// TestTournamentBerger: with one game per pairing the sides follow the
// Berger table: five players play 10 games, each player 4, two with
// each side.
func TestTournamentBerger(t *testing.T) {
	h := newHarness(t)
	players := []string{"a@player.test", "b@player.test", "c@player.test", "d@player.test", "e@player.test"}
	h.createEvent("single", players, func(t *archive.Tournament) { t.GamesPerPairing = 1 })
	if _, err := StartTournament(h.srv, context.Background(), "single"); err != nil {
		t.Fatal(err)
	}
	gs := h.eventGames("single")
	if len(gs) != 10 {
		t.Fatalf("%d games, want 10", len(gs))
	}
	att, def := map[string]int{}, map[string]int{}
	pairs := map[string]bool{}
	for _, g := range gs {
		att[g.Attackers]++
		def[g.Defenders]++
		pairs[min(g.Attackers, g.Defenders)+max(g.Attackers, g.Defenders)] = true
		if g.Event.Pairing.MatchGame != 1 || g.Event.RoundTag() == "" || strings.Count(g.Event.RoundTag(), ".") != 1 {
			t.Errorf("game %s: pairing %+v, round tag %q", g.ID, g.Event.Pairing, g.Event.RoundTag())
		}
	}
	for _, p := range players {
		if att[p] != 2 || def[p] != 2 {
			t.Errorf("%s: %d games as attackers, %d as defenders; want 2 and 2", p, att[p], def[p])
		}
	}
	if len(pairs) != 10 {
		t.Errorf("%d distinct pairings, want 10", len(pairs))
	}
}

// TestTournamentExportRatings: after a few rated games the referee's
// ratings are what tournament.RateAll computes from the exported records,
// also when a game ended (its last ply) before games rated earlier, and
// the export's standings are the referee's.
func TestTournamentExportRatings(t *testing.T) {
	h := newHarness(t)
	h.step = time.Minute
	ctx := context.Background()
	players := []string{alice, bob, "carol@player.test"}
	h.createEvent("rated", players, nil)
	if _, err := StartTournament(h.srv, ctx, "rated"); err != nil {
		t.Fatal(err)
	}
	gs := h.eventGames("rated")
	// every game gets its first ply, in schedule order
	for _, g := range gs {
		h.inGame(g.ID, g.Attackers, "d1-e1")
	}
	// then they end in the reverse order: each game's end (its last ply)
	// lies before the ends of the games rated before it, so the referee
	// rates the variant again each time
	for i := len(gs) - 1; i >= 0; i-- {
		g := gs[i]
		switch i % 3 {
		case 0:
			sent := h.inGame(g.ID, g.Defenders, "resign")
			mustContain(t, "the winner's mail", gameMail(t, sent, g.Attackers, g.ID).Text, "you have", " point", "Your rating in Brandubh")
		case 1:
			h.inGame(g.ID, g.Attackers, "resign")
		case 2:
			h.inGame(g.ID, g.Defenders, "offer draw")
			h.inGame(g.ID, g.Attackers, "accept draw")
		}
	}
	tm, _ := h.store.Tournament(ctx, "rated")
	if tm.Status != archive.TournamentFinished {
		t.Fatalf("status after the last game = %s", tm.Status)
	}
	full, recs := exportedRecords(t, h, "rated", 6)
	want := rateRecords(t, recs, 6)
	for _, p := range players {
		got, err := h.store.Rating(ctx, p, "brandubh")
		w, _ := want.Get(p, "brandubh")
		if err != nil || got.Games != 4 || !nearly(got.Value.R, w.Rating.R) || !nearly(got.Value.RD, w.Rating.RD) ||
			!nearly(got.Value.Volatility, w.Rating.Volatility) || !got.LastEnd.Equal(w.Last) {
			t.Errorf("%s: referee %+v, %v; RateAll over the export %+v", p, got, err, w)
		}
		hist, _ := h.store.RatingHistory(ctx, p, "brandubh")
		if len(hist) != 4 || hist[3].After.R != got.Value.R {
			t.Errorf("%s: history %+v", p, hist)
		}
	}
	secs, errs := tournament.SectionsFromRecords(recs)
	if len(errs) > 0 || len(secs) != 1 {
		t.Fatalf("sections of the export: %v, %v", secs, errs)
	}
	fromRecords, _ := secs[0].Standings()
	es, _ := h.store.Entries(ctx, "rated")
	referee, err := EventStandings(tm, es, full)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := standingsKey(fromRecords), standingsKey(referee[0]); a != b {
		t.Errorf("standings of the export:\n%s\nthe referee's:\n%s", a, b)
	}
}

func nearly(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// standingsKey writes the places, points, S–B and wins of a table.
func standingsKey(st *tournament.Standings) string {
	var b strings.Builder
	for _, r := range st.Rows {
		b.WriteString(r.PlaceText() + " " + r.Player + " " + tournament.FormatScore(r.Points) + " " + tournament.FormatScore(r.SonnebornBerger) + " " + string(rune('0'+r.Wins)) + "\n")
	}
	return b.String()
}

// TestTournamentMailsSpendNoBudget: the mails the referee sends of its
// own accord for a tournament (the start lists, the standings after each
// game, the final crosstable) are no replies to anybody's mail: they
// record no processed mail, so they spend nothing of the budget for
// mails without a key (issue 8), and a stranger is answered after
// them as before. The players' keyed mails are handled whatever the
// budget.
func TestTournamentMailsSpendNoBudget(t *testing.T) {
	h := newHarness(t)
	h.srv.Opts.JunkReplies = 1
	var players []string
	for _, c := range "abcdef" {
		players = append(players, string(c)+"@player.test")
	}
	h.createEvent("cup", players, nil)
	if _, err := StartTournament(h.srv, h.ctx(), "cup"); err != nil {
		t.Fatal(err)
	}
	h.srv.FlushOutbox(h.ctx())
	// the first games end by keyed mails (standings to both players)
	for _, g := range h.eventGames("cup")[:5] {
		if sent := h.inGame(g.ID, g.Attackers, "resign"); len(sent) != 2 {
			t.Fatalf("a keyed resignation was answered with %d mails, want 2", len(sent))
		}
	}
	n, err := h.store.CountMails(h.ctx(), archive.MailFilter{Auth: archive.OnlyUnauthenticated, AnsweredOnly: true})
	if err != nil || n != 0 {
		t.Fatalf("answered mails without a key = %d, %v; want 0", n, err)
	}
	h.step = time.Minute // within the junk budget's 10 minutes
	if sent := h.deliver("stranger@player.test", "x", "standings cup", nil); len(sent) != 1 {
		t.Errorf("the stranger got %d mails, want the standings", len(sent))
	}
	// the budget of 1 is now spent: the next stranger is not answered,
	// but the players' keyed mails still are
	if sent := h.deliver("other@player.test", "x", "tournaments", nil); len(sent) != 0 {
		t.Errorf("a second stranger got %d mails past the budget of 1", len(sent))
	}
	g := h.eventGames("cup")[6]
	if sent := h.inGame(g.ID, g.Attackers, "resign"); len(sent) != 2 {
		t.Errorf("a keyed resignation past the stranger budget got %d mails, want 2", len(sent))
	}
}

var ratingAfter = regexp.MustCompile(`Your rating in Brandubh .*? is now ([0-9.]+) \(RD ([0-9.]+)\) after (\d+) rated game`)

// TestTournamentRatingsOneOrder: games that end with no move to date them
// (a resignation as the first ply, one while the opponent is to move, a
// draw agreed before any move) used to end, in their records, at 00:00 of
// their Date, all at one instant: the referee rated them in the order it
// saw them, the export in schedule order and a folder of records in file
// order, three different ratings, and the referee's later rating again
// changed the figures it had mailed. Each record now says when its game
// ended, so the ratings mailed, the ratings stored and RateAll over the
// export in either order are one.
func TestTournamentRatingsOneOrder(t *testing.T) {
	h := newHarness(t)
	h.step = time.Minute
	ctx := context.Background()
	players := []string{alice, bob, "carol@player.test"}
	h.createEvent("order", players, nil)
	if _, err := StartTournament(h.srv, ctx, "order"); err != nil {
		t.Fatal(err)
	}
	gs := h.eventGames("order")
	type mailed struct {
		player, figure string
		n              int
	}
	var mails []mailed
	for i := len(gs) - 1; i >= 0; i-- {
		g := gs[i]
		var sent []sentMail
		switch i % 3 {
		case 0:
			sent = h.inGame(g.ID, g.Defenders, "resign") // the attackers are to move
		case 1:
			sent = h.inGame(g.ID, g.Attackers, "resign") // the first ply
		case 2:
			h.inGame(g.ID, g.Defenders, "offer draw")
			sent = h.inGame(g.ID, g.Attackers, "accept draw")
		}
		for _, p := range []string{g.Attackers, g.Defenders} {
			var m []string
			for _, s := range sent {
				if s.to == p && m == nil {
					m = ratingAfter.FindStringSubmatch(s.msg.Text)
				}
			}
			if m == nil {
				t.Fatalf("game %s: no rating in the mail to %s", g.ID, p)
			}
			n, _ := strconv.Atoi(m[3])
			mails = append(mails, mailed{p, m[1] + "/" + m[2], n})
		}
	}
	_, recs := exportedRecords(t, h, "order", 6)
	reversed := slices.Clone(recs)
	slices.Reverse(reversed)
	for name, rs := range map[string][]*notation.Game{"schedule order": recs, "reverse order": reversed} {
		want := rateRecords(t, rs, 6)
		for _, p := range players {
			got, err := h.store.Rating(ctx, p, "brandubh")
			w, _ := want.Get(p, "brandubh")
			if err != nil || got.Games != 4 || !nearly(got.Value.R, w.Rating.R) || !nearly(got.Value.RD, w.Rating.RD) {
				t.Errorf("%s: referee %+v, %v; RateAll over the export in %s %+v", p, got, err, name, w.Rating)
			}
		}
	}
	for _, m := range mails {
		hist, err := h.store.RatingHistory(ctx, m.player, "brandubh")
		if err != nil || len(hist) < m.n {
			t.Fatalf("%s: history %+v, %v", m.player, hist, err)
		}
		if now := fmt.Sprintf("%.1f/%.1f", hist[m.n-1].After.R, hist[m.n-1].After.RD); now != m.figure {
			t.Errorf("%s: mailed %s after %d games, the history now says %s", m.player, m.figure, m.n, now)
		}
	}
}

// exportedRecords exports tournament id's games as `taflmail tournament
// export` writes them (TournamentExport) and reads the file back, failing
// the test unless it holds want records; it returns the stored games and
// the records read.
func exportedRecords(t *testing.T, h *harness, id string, want int) ([]*archive.Game, []*notation.Game) {
	t.Helper()
	full, err := h.store.TournamentGames(context.Background(), id, true)
	if err != nil {
		t.Fatal(err)
	}
	data, err := TournamentExport(full)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := notation.ReadGames("export.tafl", data, notation.ReadOptions{})
	if err != nil || len(recs) != want {
		t.Fatalf("export of %s reads back as %d records, %v; want %d", id, len(recs), err, want)
	}
	return full, recs
}

// rateRecords rates the records recs as `taflmail ratings` does
// (tournament.RatedGamesFromRecords, then RateAll), failing the test
// unless all of them are read and wantGames are rated games.
func rateRecords(t *testing.T, recs []*notation.Game, wantGames int) *tournament.Ratings {
	t.Helper()
	rated, errs := tournament.RatedGamesFromRecords(recs)
	if len(errs) > 0 || len(rated) != wantGames {
		t.Fatalf("rated games of the export: %d, %v; want %d", len(rated), errs, wantGames)
	}
	want, err := tournament.RateAll(rated)
	if err != nil {
		t.Fatal(err)
	}
	return want
}
