package tournament

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/engine"
)

// scriptResults sets the results of a round robin's games from a script:
// for each pair of players (first letter of the lower Berger number
// first), one code per match game as seen by the first player: W won,
// L lost, D drawn, w won because the opponent ran out of time, l lost on
// time (time-outs are ordinary losses, §4.2), - not finished.
func scriptResults(t *testing.T, games []Game, script map[string]string) {
	t.Helper()
	used := map[string]bool{}
	for k := range games {
		g := &games[k]
		a, d := g.Attackers[:1], g.Defenders[:1]
		first, second := min(a, d), max(a, d)
		codes, ok := script[first+second]
		if !ok || len(codes) < g.MatchGame {
			t.Fatalf("no result for game %d of %s–%s", g.MatchGame, first, second)
		}
		used[first+second] = true
		c := codes[g.MatchGame-1]
		firstWon := c == 'W' || c == 'w'
		switch {
		case c == '-':
			g.Result = engine.Ongoing
		case c == 'D':
			g.Result = engine.Draw
		case firstWon == (a == first):
			g.Result = engine.AttackersWin
		default:
			g.Result = engine.DefendersWin
		}
	}
	if len(used) != len(script) {
		t.Fatalf("script has %d pairs, the games %d", len(script), len(used))
	}
}

// TestTenPlayerRoundRobin plays out a 10-player round robin with matches
// of two games (45 pairings, 90 games), every pairing's results scripted,
// with draws, time-outs and two withdrawals (Decision T3):
//
//   - J withdrew after finishing 4 of 18 games (lost twice to A, drew twice
//     with B): 4 < 9, so all of J's games are annulled and J leaves the
//     table; A loses 2 points and B 1 point with them.
//   - I withdrew after finishing 12 of 18 (all against A–F): 12 ≥ 9, so I's
//     unfinished games are lost: both against G and both against H (the
//     two against J are annulled with J's).
//
// Match scores after that, row player against column player (the script
// below gives them game by game):
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
// Sonneborn–Berger, each match score times the opponent's points (a
// player's two games against one opponent share that opponent's points):
//
//	A: 1×11 + 1½×9½ + 2×7 + 1×7½ + 2×5½ + 1×7½ + 2×6½ + 2×5
//	   = 11 + 14¼ + 14 + 7½ + 11 + 7½ + 13 + 10                 = 88¼
//	B: 1×12½ + 1×9½ + 1½×7 + 2×7½ + 1×5½ + 1×7½ + 2×6½ + 1½×5
//	   = 12½ + 9½ + 10½ + 15 + 5½ + 7½ + 13 + 7½                = 81
//	C: ½×12½ + 1×11 + 1×7 + 1½×7½ + 2×5½ + 1×7½ + 1½×6½ + 1×5
//	   = 6¼ + 11 + 7 + 11¼ + 11 + 7½ + 9¾ + 5                   = 68¾
//	D: 0 + ½×11 + 1×9½ + 1×7½ + 1×5½ + 2×7½ + ½×6½ + 1×5
//	   = 5½ + 9½ + 7½ + 5½ + 15 + 3¼ + 5                         = 51¼
//	E: 1×12½ + 0 + ½×9½ + 1×7 + 1½×5½ + ½×7½ + 2×6½ + 1×5
//	   = 12½ + 4¾ + 7 + 8¼ + 3¾ + 13 + 5                         = 54¼
//	F: 0 + 1×11 + 0 + 1×7 + ½×7½ + 1½×7½ + 1×6½ + ½×5
//	   = 11 + 7 + 3¾ + 11¼ + 6½ + 2½                             = 42
//	G: 1×12½ + 1×11 + 1×9½ + 0 + 1½×7½ + ½×5½ + ½×6½ + 2×5
//	   = 12½ + 11 + 9½ + 11¼ + 2¾ + 3¼ + 10                      = 60¼
//	H: 0 + 0 + ½×9½ + 1½×7 + 0 + 1×5½ + 1½×7½ + 2×5
//	   = 4¾ + 10½ + 5½ + 11¼ + 10                                = 42
//	I: 0 + ½×11 + 1×9½ + 1×7 + 1×7½ + 1½×5½ + 0 + 0
//	   = 5½ + 9½ + 7 + 7½ + 8¼                                   = 37¾
//
// Wins, counted from the script (forfeits count as wins): A 10, B 8, C 7,
// D 3, E 6, F 2, G 5 (2 of them I's forfeits), H 5 (2 forfeits), I 3.
//
// Standings: A 12½, B 11, C 9½; G and E are level on 7½ and S–B decides
// (60¼ before 54¼, although E has more wins: S–B comes first); D 7;
// H 6½; F 5½; I 5 (withdrawn). 72 games count (90 less J's 18), all of
// them finished or forfeited.
func TestTenPlayerRoundRobin(t *testing.T) {
	names := []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"}
	for i := range names {
		names[i] += "@example.org"
	}
	games, err := RoundRobin(names, Options{})
	if err != nil {
		t.Fatal(err)
	}
	scriptResults(t, games, tenScript)

	// The withdrawals as the referee sees them when they happen.
	wJ, err := Withdraw(games, "J@example.org")
	if err != nil || !wJ.Annulled || wJ.Finished != 4 || wJ.Games != 18 || len(wJ.Unfinished) != 14 {
		t.Errorf("Withdraw(J) = %+v, %v; want annulled, 4 of 18 finished, 14 unfinished", wJ, err)
	}
	wI, err := Withdraw(games, "I@example.org")
	if err != nil || wI.Annulled || wI.Finished != 12 || len(wI.Unfinished) != 6 {
		t.Errorf("Withdraw(I) = %+v, %v; want not annulled, 12 finished, 6 unfinished", wI, err)
	}

	sec := Section{Event: "Club championship", Players: names, Games: games, Withdrawn: []string{"J@example.org", "I@example.org"}}
	st, err := sec.Standings()
	if err != nil {
		t.Fatal(err)
	}
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
		t.Fatalf("%d rows, want %d", len(st.Rows), len(want))
	}
	for i, w := range want {
		r := st.Rows[i]
		if r.Player != w.player+"@example.org" || r.Points != w.pts || r.SonnebornBerger != w.sb || r.Wins != w.wins ||
			r.Place != i+1 || r.LastPlace != i+1 || r.Shared || r.Withdrawn != w.withdrawn || r.TiedPoints != nil {
			t.Errorf("row %d = %s %v pts, S–B %v, %d wins, place %s, withdrawn %v; want %s %v, %v, %d, place %d, withdrawn %v",
				i+1, r.Player, r.Points, r.SonnebornBerger, r.Wins, r.PlaceText(), r.Withdrawn, w.player, w.pts, w.sb, w.wins, i+1, w.withdrawn)
		}
		if r.Games != 16 || r.Played != 16 || r.Wins+r.Draws+r.Losses != 16 {
			t.Errorf("%s: %d of %d games, %d+%d+%d; want all 16 (18 less the 2 against J)", r.Player, r.Played, r.Games, r.Wins, r.Draws, r.Losses)
		}
	}
	if !slices.Equal(st.Annulled, []string{"J@example.org"}) {
		t.Errorf("Annulled = %v, want [J@example.org]", st.Annulled)
	}
	if st.Games != 72 || st.Finished != 72 {
		t.Errorf("Games, Finished = %d, %d; want 72, 72", st.Games, st.Finished)
	}
	// The match cells: A's row against B (column 2) is 1, G's against I
	// is 2 (I's forfeits), and every row's cells add up to its points.
	if m := st.Rows[0].Matches[0]; m.Opponent != "B@example.org" || m.Score != 1 || m.Played != 2 {
		t.Errorf("A against B = %+v, want 1 from 2 games", m)
	}
	for _, r := range st.Rows {
		sum := 0.0
		for _, m := range r.Matches {
			sum += m.Score
			if r.Player == "G@example.org" && m.Opponent == "I@example.org" && m.Score != 2 {
				t.Errorf("G against I = %v, want 2 (forfeited by I)", m.Score)
			}
		}
		if sum != r.Points {
			t.Errorf("%s: cells add up to %v, points %v", r.Player, sum, r.Points)
		}
	}

	// Nobody withdrawn: I's 4 unfinished games against G and H and J's
	// 14 (J–I among them) count as not yet played.
	sec.Withdrawn = nil
	st2, err := sec.Standings()
	if err != nil {
		t.Fatal(err)
	}
	if st2.Games != 90 || st2.Finished != 90-4-14 {
		t.Errorf("without withdrawals: Games, Finished = %d, %d; want 90, 72", st2.Games, st2.Finished)
	}
}

// tenScript is the results of TestTenPlayerRoundRobin, pair by pair.
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

// TestTieBreaks: each tie-break of Decision T2 on its own, one game per
// pairing.
func TestTieBreaks(t *testing.T) {
	tests := []struct {
		name    string
		players string
		results string // per pair in Berger-independent order AB AC AD … BC …: W/D/L for the first
		want    string // "place player points S–B wins" per row
	}{
		{
			// A beats B and C, draws D; B draws C, beats D; D beats C.
			// Points: A 2½, B 1½, D 1½, C ½. S–B: B 0×2½ + ½×½ + 1×1½ =
			// 1¾; D ½×2½ + 0×1½ + 1×½ = 1¾. Wins: both 1. Between them B
			// beat D: B is 2nd.
			name: "head to head", players: "ABCD", results: "WWD DW L",
			want: "1 A 2.5 2.75 2|2 B 1.5 1.75 1|3 D 1.5 1.75 1|4 C 0.5 0.75 0",
		},
		{
			// A: W B, W C, W D, D E = 3½. B: L A, W C, L D, W E = 2.
			// C: L A, L B, W D, D E = 1½. D: L A, W B, L C, L E = 1.
			// E: D A, L B, D C, W D = 2. B and E: 2 points; S–B B
			// 1×1½ + 1×2 = 3½, E ½×3½ + ½×1½ + 1×1 = 3½; wins B 2, E 1.
			name: "wins", players: "ABCDE", results: "WWWD WLW WD L",
			want: "1 A 3.5 5.5 3|2 B 2 3.5 2|3 E 2 3.5 1|4 C 1.5 2 1|5 D 1 2 1",
		},
		{
			// A beats B, B beats C, C beats A: 1 point, S–B 1, 1 win and
			// 1 point among the three each: a shared place 1–3, listed in
			// Players order.
			name: "shared", players: "ABC", results: "WL W",
			want: "1–3 A 1 1 1|1–3 B 1 1 1|1–3 C 1 1 1",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := strings.Split(tt.players, "")
			codes := strings.ReplaceAll(tt.results, " ", "")
			var games []Game
			k := 0
			for i := range ps {
				for j := i + 1; j < len(ps); j++ {
					g := Game{Section: 1, MatchGame: 1, Attackers: ps[i], Defenders: ps[j]}
					switch codes[k] {
					case 'W':
						g.Result = engine.AttackersWin
					case 'L':
						g.Result = engine.DefendersWin
					case 'D':
						g.Result = engine.Draw
					}
					games = append(games, g)
					k++
				}
			}
			sec := Section{Players: ps, Games: games}
			st, err := sec.Standings()
			if err != nil {
				t.Fatal(err)
			}
			var rows []string
			for _, r := range st.Rows {
				rows = append(rows, fmt.Sprintf("%s %s %v %v %d", r.PlaceText(), r.Player, r.Points, r.SonnebornBerger, r.Wins))
			}
			if got := strings.Join(rows, "|"); got != tt.want {
				t.Errorf("standings = %s\nwant        %s", got, tt.want)
			}
			if tt.name == "shared" {
				for _, r := range st.Rows {
					if r.Place != 1 || r.LastPlace != 3 || !r.Shared || r.TiedPoints == nil || *r.TiedPoints != 1 {
						t.Errorf("%s: place %d–%d shared %v tied %v; want best place 1 for all", r.Player, r.Place, r.LastPlace, r.Shared, r.TiedPoints)
					}
				}
			}
		})
	}
}

// TestWithdrawalHalf: exactly half finished is not "fewer than half".
// Three players, matches of two games: 4 games each.
func TestWithdrawalHalf(t *testing.T) {
	games, _ := RoundRobin([]string{"A", "B", "C"}, Options{})
	// Finish two of C's games (both against A: A wins one, draws one).
	n := 0
	for k, g := range games {
		if (g.Attackers == "C" || g.Defenders == "C") && (g.Attackers == "A" || g.Defenders == "A") {
			games[k].Result = engine.Draw
			if n == 0 {
				games[k].Result = engine.AttackersWin
				if g.Attackers == "C" {
					games[k].Result = engine.DefendersWin
				}
			}
			n++
		}
	}
	w, err := Withdraw(games, "C")
	if err != nil || w.Annulled || w.Finished != 2 || w.Games != 4 {
		t.Fatalf("Withdraw(C with 2 of 4) = %+v, %v; want not annulled", w, err)
	}
	st, err := (&Section{Games: games, Withdrawn: []string{"C"}}).Standings()
	if err != nil {
		t.Fatal(err)
	}
	// A: 1½ against C; B: 2 by forfeit against C; A–B not played.
	got := map[string]float64{}
	for _, r := range st.Rows {
		got[r.Player] = r.Points
	}
	if got["A"] != 1.5 || got["B"] != 2 || got["C"] != 0.5 || len(st.Annulled) != 0 {
		t.Errorf("points = %v, annulled %v; want A 1.5, B 2, C 0.5, none", got, st.Annulled)
	}
	// One game fewer finished: annulled, and C's games leave every score.
	for k, g := range games {
		if g.Result == engine.Draw {
			games[k].Result = engine.Ongoing
		}
	}
	st, err = (&Section{Games: games, Withdrawn: []string{"C"}}).Standings()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Rows) != 2 || st.Rows[0].Points != 0 || st.Games != 2 || !slices.Equal(st.Annulled, []string{"C"}) {
		t.Errorf("C with 1 of 4 finished: rows %+v, games %d, annulled %v; want A and B on 0, 2 games, C annulled", st.Rows, st.Games, st.Annulled)
	}
	if st.Rows[0].Place != 1 || st.Rows[0].LastPlace != 2 {
		t.Errorf("A and B with nothing played: place %s, want 1–2", st.Rows[0].PlaceText())
	}
}

func TestStandingsErrors(t *testing.T) {
	games := []Game{{Attackers: "A", Defenders: "B"}}
	for _, sec := range []Section{
		{Players: []string{"A"}, Games: games},
		{Games: games, Withdrawn: []string{"Z"}},
		{Games: []Game{{Attackers: "A", Defenders: "A"}}},
	} {
		if _, err := sec.Standings(); !errors.Is(err, ErrUnknownPlayer) {
			t.Errorf("Standings(%+v) = %v, want ErrUnknownPlayer", sec, err)
		}
	}
	if _, err := (&Section{Players: []string{"A", "A"}}).Standings(); !errors.Is(err, ErrDuplicatePlayer) {
		t.Errorf("Standings(A twice) = %v, want ErrDuplicatePlayer", err)
	}
	if _, err := Withdraw(games, "Z"); !errors.Is(err, ErrUnknownPlayer) {
		t.Errorf("Withdraw(Z) = %v, want ErrUnknownPlayer", err)
	}
}
