package server

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/tournament"
)

// tenScript is the results of TestTournamentTenPlayers pair by pair: for
// each pair of players (lower letter first) one code per game of their
// match as seen by the first player: W won, L lost, D drawn, w won on
// time, l lost on time, - not played (ended by a withdrawal). It is the
// script of the tournament package's TestTenPlayerRoundRobin, so the
// expected table below is the one worked out by hand there.
var tenScript = map[string]string{
	"AB": "DD", "AC": "WD", "AD": "WW", "AE": "Wl", "AF": "WW", "AG": "DD", "AH": "WW", "AI": "WW", "AJ": "WW",
	"BC": "WL", "BD": "WD", "BE": "WW", "BF": "DD", "BG": "Wl", "BH": "WW", "BI": "WD", "BJ": "DD",
	"CD": "DD", "CE": "WD", "CF": "WW", "CG": "lW", "CH": "DW", "CI": "WL", "CJ": "--",
	"DE": "WL", "DF": "DD", "DG": "WW", "DH": "LD", "DI": "DD", "DJ": "--",
	"EF": "WD", "EG": "DL", "EH": "Ww", "EI": "LW", "EJ": "--",
	"FG": "WD", "FH": "LW", "FI": "LD", "FJ": "--",
	"GH": "DL", "GI": "--", "GJ": "--",
	"HI": "--", "HJ": "--",
	"IJ": "--",
}

// tenGame is one game of the ten-player event with what the script
// wants of it.
type tenGame struct {
	g      *archive.Game
	code   byte
	winner string // "" for a draw or a game not played
	loser  string
}

// TestTournamentTenPlayers plays a 10-player round robin with matches of
// two games (45 pairings, 90 games) to its end through the referee, mail
// by mail, with a fake clock: draws, resignations, four time-outs, one
// withdrawal before half the player's games and one after.
//
//   - Every game gets its first ply (and a time-out game a second one
//     when its loser would not be to move), so every game's end has its own
//     %ts; the games then end in the reverse of that order, so most games
//     end (at their last ply) before games rated earlier and the referee
//     rates the variant again.
//   - J plays four games (loses twice to A, draws twice with B) and
//     withdraws by mail, confirming with the key the reply gives: 4 < 9 of
//     18 finished, so all J's games are annulled (the 14 running end
//     without result); A loses 2 points and B 1 with them.
//   - I finishes all 12 games against A–F, then withdraws: 12 ≥ 9, so the
//     4 games against G and H still running are lost (the 2 against J were
//     annulled with J's).
//   - The four time-outs (A–E game 2, B–G game 2, C–G game 1, E–H game
//     2) are declared by the scheduler at their deadlines, 30 days on; the
//     last one ends the event.
//
// Match scores then, row player against column player:
//
//	     A   B   C   D   E   F   G   H   I | points
//	A    ·   1   1½  2   1   2   1   2   2 | 12½
//	B    1   ·   1   1½  2   1   1   2   1½| 11
//	C    ½   1   ·   1   1½  2   1   1½  1 |  9½
//	D    0   ½   1   ·   1   1   2   ½   1 |  7
//	E    1   0   ½   1   ·   1½  ½   2   1 |  7½
//	F    0   1   0   1   ½   ·   1½  1   ½ |  5½
//	G    1   1   1   0   1½  ½   ·   ½   2 |  7½
//	H    0   0   ½   1½  0   1   1½  ·   2 |  6½
//	I    0   ½   1   1   1   1½  0   0   · |  5
//
// Sonneborn–Berger, each match score times the opponent's points:
//
//	A: 1×11 + 1½×9½ + 2×7 + 1×7½ + 2×5½ + 1×7½ + 2×6½ + 2×5  = 88¼
//	B: 1×12½ + 1×9½ + 1½×7 + 2×7½ + 1×5½ + 1×7½ + 2×6½ + 1½×5 = 81
//	C: ½×12½ + 1×11 + 1×7 + 1½×7½ + 2×5½ + 1×7½ + 1½×6½ + 1×5 = 68¾
//	D: ½×11 + 1×9½ + 1×7½ + 1×5½ + 2×7½ + ½×6½ + 1×5          = 51¼
//	E: 1×12½ + ½×9½ + 1×7 + 1½×5½ + ½×7½ + 2×6½ + 1×5         = 54¼
//	F: 1×11 + 1×7 + ½×7½ + 1½×7½ + 1×6½ + ½×5                  = 42
//	G: 1×12½ + 1×11 + 1×9½ + 1½×7½ + ½×5½ + ½×6½ + 2×5        = 60¼
//	H: ½×9½ + 1½×7 + 1×5½ + 1½×7½ + 2×5                        = 42
//	I: ½×11 + 1×9½ + 1×7 + 1×7½ + 1½×5½                        = 37¾
//
// Wins (forfeits and time-outs count): A 10, B 8, C 7, D 3, E 6, F 2,
// G 5, H 5, I 3. G and E are level on 7½ and S–B decides (60¼ before
// 54¼). 72 games count (90 less J's 18), all finished.
func TestTournamentTenPlayers(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 90 games mail by mail")
	}
	h := newHarness(t)
	h.step = time.Minute
	ctx := context.Background()
	var players []string
	for _, c := range "abcdefghij" {
		players = append(players, string(c)+"@player.test")
	}
	letter := func(addr string) string { return strings.ToUpper(addr[:1]) }
	h.createEvent("club", players, func(t *archive.Tournament) { t.Name = "Club championship" })
	before := len(h.sender.sent)
	ids, err := StartTournament(h.srv, ctx, "club")
	if err != nil || len(ids) != 90 {
		t.Fatalf("StartTournament = %d games, %v", len(ids), err)
	}
	h.srv.FlushOutbox(ctx)
	if sent := h.sender.sent[before:]; len(sent) != 10 {
		t.Fatalf("%d mails at the start, want 10", len(sent))
	}
	for _, p := range players {
		if n := len(tagLine.FindAllString(h.last(p).msg.Text, -1)); n != 18 {
			t.Errorf("%s's start list has %d games, want 18", p, n)
		}
	}

	var games []tenGame
	for _, g := range h.eventGames("club") {
		a, d := letter(g.Attackers), letter(g.Defenders)
		first, second := g.Attackers, g.Defenders
		if d < a {
			first, second = second, first
		}
		pair := letter(first) + letter(second)
		c := tenScript[pair][g.Event.Pairing.MatchGame-1]
		tg := tenGame{g: g, code: c}
		switch c {
		case 'W', 'w':
			tg.winner, tg.loser = first, second
		case 'L', 'l':
			tg.winner, tg.loser = second, first
		}
		games = append(games, tg)
	}
	if len(games) != 90 {
		t.Fatalf("%d games, want 90", len(games))
	}
	timeout := func(tg tenGame) bool { return tg.code == 'w' || tg.code == 'l' }

	// every game's first ply; a time-out game whose loser attacks gets the
	// defenders' reply too, so that its loser is the side to move
	for _, tg := range games {
		h.inGame(tg.g.ID, tg.g.Attackers, "d1-e1")
	}
	for _, tg := range games {
		if timeout(tg) && tg.loser == tg.g.Attackers {
			h.inGame(tg.g.ID, tg.g.Defenders, "d3-e3")
		}
	}
	end := func(tg tenGame) {
		t.Helper()
		switch tg.code {
		case 'W', 'L':
			h.inGame(tg.g.ID, tg.loser, "resign")
		case 'D':
			h.inGame(tg.g.ID, tg.g.Defenders, "offer draw")
			h.inGame(tg.g.ID, tg.g.Attackers, "accept draw")
		}
	}
	involves := func(tg tenGame, p string) bool { return tg.g.Attackers == p || tg.g.Defenders == p }
	i, j := "i@player.test", "j@player.test"

	// J's four games, then J withdraws: annulled
	for _, tg := range games {
		if involves(tg, j) {
			end(tg)
		}
	}
	sent := h.withdrawByMail("club", j)
	mustContain(t, "J's withdrawal", to(t, sent, j).Text, "finished 4 of your 18 games: all your games are annulled")
	for _, tg := range games {
		g := mustGame(t, h, tg.g.ID)
		if involves(tg, j) && tg.code == '-' && (g.Status != archive.Finished || g.Result != "" || g.Reason != "annulled") {
			t.Errorf("J's running game %s after the withdrawal: %s %q %q", g.ID, g.Status, g.Result, g.Reason)
		}
	}
	mustContain(t, "J's opponent's mail", gameMail(t, sent, "c@player.test", gameWith(games, "c@player.test", j)).Text,
		"j@player.test withdrew from Club championship before finishing half", "no result")

	// every other game the script decides by play, in reverse order
	for k := len(games) - 1; k >= 0; k-- {
		if tg := games[k]; !involves(tg, j) && !timeout(tg) {
			end(tg)
		}
	}
	// I withdraws having finished 12: the games against G and H are lost
	sent = h.withdrawByMail("club", i)
	mustContain(t, "I's withdrawal", to(t, sent, i).Text, "finished 12 of your 18 games: your running games are lost")
	for _, tg := range games {
		if involves(tg, i) && tg.code == '-' && !involves(tg, j) {
			g := mustGame(t, h, tg.g.ID)
			if g.Reason != "withdrawal" || referee.AddressOf(g, g.Result) == i {
				t.Errorf("I's game %s after the withdrawal: %q won, %q", g.ID, g.Result, g.Reason)
			}
		}
	}
	tm, _ := h.store.Tournament(ctx, "club")
	if tm.Status != archive.TournamentRunning {
		t.Fatalf("status before the time-outs: %s", tm.Status)
	}

	// the time-outs, each at its deadline once its grace has passed
	var outs []tenGame
	for _, tg := range games {
		if timeout(tg) {
			outs = append(outs, tg)
		}
	}
	slices.SortFunc(outs, func(a, b tenGame) int { return h.deadlineOf(a.g.ID).Compare(h.deadlineOf(b.g.ID)) })
	before = len(h.sender.sent)
	for _, tg := range outs {
		h.now = h.deadlineOf(tg.g.ID).Add(referee.DefaultArrivalGrace) // the deadline and its grace (scheduler.go)
		if _, err := h.srv.RunTimers(ctx); err != nil {
			t.Fatal(err)
		}
		h.srv.FlushOutbox(ctx)
		g := mustGame(t, h, tg.g.ID)
		if g.Reason != "timeout" || referee.AddressOf(g, g.Result) != tg.winner {
			t.Errorf("time-out game %s: %q won by %q, want %s", g.ID, g.Result, g.Reason, tg.winner)
		}
	}
	tm, _ = h.store.Tournament(ctx, "club")
	if tm.Status != archive.TournamentFinished || !tm.FinishedAt.Equal(h.now) {
		t.Fatalf("after the last game: %+v", tm)
	}

	// the final standings
	es, _ := h.store.Entries(ctx, "club")
	full, err := h.store.TournamentGames(ctx, "club", true)
	if err != nil {
		t.Fatal(err)
	}
	sts, err := EventStandings(tm, es, full)
	if err != nil || len(sts) != 1 {
		t.Fatalf("EventStandings = %v, %v", sts, err)
	}
	st := sts[0]
	want := []struct {
		player    string
		pts, sb   float64
		wins      int
		withdrawn bool
	}{
		{"A", 12.5, 88.25, 10, false},
		{"B", 11, 81, 8, false},
		{"C", 9.5, 68.75, 7, false},
		{"G", 7.5, 60.25, 5, false},
		{"E", 7.5, 54.25, 6, false},
		{"D", 7, 51.25, 3, false},
		{"H", 6.5, 42, 5, false},
		{"F", 5.5, 42, 2, false},
		{"I", 5, 37.75, 3, true},
	}
	if len(st.Rows) != len(want) {
		t.Fatalf("%d rows, want %d:\n%s", len(st.Rows), len(want), st.Text())
	}
	for k, w := range want {
		r := st.Rows[k]
		if letter(r.Player) != w.player || r.Points != w.pts || r.SonnebornBerger != w.sb || r.Wins != w.wins ||
			r.Place != k+1 || r.Shared || r.Withdrawn != w.withdrawn || r.Played != 16 || r.Games != 16 {
			t.Errorf("row %d = %s %v pts, S–B %v, %d wins, place %s, withdrawn %v, %d of %d; want %s %v, %v, %d",
				k+1, r.Player, r.Points, r.SonnebornBerger, r.Wins, r.PlaceText(), r.Withdrawn, r.Played, r.Games, w.player, w.pts, w.sb, w.wins)
		}
	}
	if !slices.Equal(st.Annulled, []string{j}) || st.Games != 72 || st.Finished != 72 {
		t.Errorf("annulled %v, %d games, %d finished; want [J], 72, 72", st.Annulled, st.Games, st.Finished)
	}

	// the records say the same: standings with the withdrawals named,
	// and ratings
	data, err := TournamentExport(full)
	if err != nil {
		t.Fatal(err)
	}

	// everyone got the final crosstable, and the records attached
	finals := 0
	for _, m := range h.sender.sent[before:] {
		if strings.Contains(m.msg.Subject, "final standings") {
			finals++
			mustContain(t, "the final mail", m.msg.Text, "Club championship", "1 a@player.test", "72 of 72 games finished",
				"Withdrawn", "The records of all 90 games are attached: club.tafl")
			if files := attachedFiles(t, m.raw); len(files) != 1 {
				t.Errorf("the final mail to %s has %d attachments, want 1", m.to, len(files))
			} else {
				checkRecordsFile(t, "the final mail to "+m.to, files[0], "club", data, 90)
			}
		}
	}
	if finals != 10 {
		t.Errorf("%d final mails, want 10", finals)
	}
	recs, err := notation.ReadGames("club.tafl", data, notation.ReadOptions{})
	if err != nil || len(recs) != 90 {
		t.Fatalf("export: %d records, %v", len(recs), err)
	}
	secs, errs := tournament.SectionsFromRecords(recs)
	if len(errs) > 0 || len(secs) != 1 {
		t.Fatalf("sections of the export: %d, %v", len(secs), errs)
	}
	secs[0].Withdrawn = []string{j, i}
	fromRecords, err := secs[0].Standings()
	if err != nil {
		t.Fatal(err)
	}
	if a, b := standingsKey(fromRecords), standingsKey(st); a != b {
		t.Errorf("standings of the export:\n%s\nthe referee's:\n%s", a, b)
	}
	rated, errs := tournament.RatedGamesFromRecords(recs)
	if len(errs) > 0 || len(rated) != 4+72 {
		t.Fatalf("rated games of the export: %d (want J's 4 and the 72 that count), %v", len(rated), errs)
	}
	rs, err := tournament.RateAll(rated)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range players {
		got, err := h.store.Rating(ctx, p, "brandubh")
		w, _ := rs.Get(p, "brandubh")
		if err != nil || got.Games != w.Games || !nearly(got.Value.R, w.Rating.R) || !nearly(got.Value.RD, w.Rating.RD) {
			t.Errorf("%s: referee %+v, %v; RateAll over the export %+v", p, got, err, w.Rating)
		}
	}
}

// gameWith returns the id of a game between a and b.
func gameWith(games []tenGame, a, b string) string {
	for _, tg := range games {
		if tg.g.Attackers == a && tg.g.Defenders == b || tg.g.Attackers == b && tg.g.Defenders == a {
			return tg.g.ID
		}
	}
	return ""
}
