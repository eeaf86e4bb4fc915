package tournament

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// parseTable reads a Berger table written as in the FIDE Handbook (C.05,
// annex 1): one round a line, pairings "White-Black" separated by commas.
func parseTable(t *testing.T, s string) []Pairing {
	t.Helper()
	var out []Pairing
	for r, line := range strings.Split(strings.TrimSpace(s), "\n") {
		for b, p := range strings.Split(line, ",") {
			var w, k int
			if _, err := fmt.Sscanf(strings.TrimSpace(p), "%d-%d", &w, &k); err != nil {
				t.Fatalf("bad table entry %q: %v", p, err)
			}
			out = append(out, Pairing{Round: r + 1, Board: b + 1, White: w, Black: k})
		}
	}
	return out
}

// TestBergerFIDE compares Berger(6) and Berger(8) with the tables of the
// FIDE Handbook, C.05 annex 1.
func TestBergerFIDE(t *testing.T) {
	tables := map[int]string{
		6: `
1-6, 2-5, 3-4
6-4, 5-3, 1-2
2-6, 3-1, 4-5
6-5, 1-4, 2-3
3-6, 4-2, 5-1`,
		8: `
1-8, 2-7, 3-6, 4-5
8-5, 6-4, 7-3, 1-2
2-8, 3-1, 4-7, 5-6
8-6, 7-5, 1-4, 2-3
3-8, 4-2, 5-1, 6-7
8-7, 1-6, 2-5, 3-4
4-8, 5-3, 6-2, 7-1`,
	}
	for n, table := range tables {
		want := parseTable(t, table)
		if got := Berger(n); !slices.Equal(got, want) {
			t.Errorf("Berger(%d) =\n%v\nwant\n%v", n, got, want)
		}
	}
	// Five players: the table for six with number 6 as the bye, boards
	// renumbered.
	want := parseTable(t, `
2-5, 3-4
5-3, 1-2
3-1, 4-5
1-4, 2-3
4-2, 5-1`)
	if got := Berger(5); !slices.Equal(got, want) {
		t.Errorf("Berger(5) =\n%v\nwant\n%v", got, want)
	}
}

// TestBergerProperties: for 2 to 40 players every pair meets exactly
// once, nobody plays twice in a round, the round count is n−1 (even n) or
// n (odd n), and every player's White and Black counts differ by at most
// one.
func TestBergerProperties(t *testing.T) {
	for n := 2; n <= 40; n++ {
		table := Berger(n)
		if want := n * (n - 1) / 2; len(table) != want {
			t.Errorf("Berger(%d) has %d pairings, want %d", n, len(table), want)
		}
		met := map[[2]int]int{}
		white := make([]int, n+1)
		black := make([]int, n+1)
		inRound := map[[2]int]bool{}
		rounds := 0
		for _, p := range table {
			if p.White < 1 || p.White > n || p.Black < 1 || p.Black > n || p.White == p.Black {
				t.Fatalf("Berger(%d): bad pairing %+v", n, p)
			}
			met[[2]int{min(p.White, p.Black), max(p.White, p.Black)}]++
			white[p.White]++
			black[p.Black]++
			for _, x := range []int{p.White, p.Black} {
				if inRound[[2]int{p.Round, x}] {
					t.Errorf("Berger(%d): player %d twice in round %d", n, x, p.Round)
				}
				inRound[[2]int{p.Round, x}] = true
			}
			rounds = max(rounds, p.Round)
		}
		if len(met) != n*(n-1)/2 {
			t.Errorf("Berger(%d): %d distinct pairs meet, want %d", n, len(met), n*(n-1)/2)
		}
		if want := n - 1 + n%2; rounds != want {
			t.Errorf("Berger(%d): %d rounds, want %d", n, rounds, want)
		}
		for x := 1; x <= n; x++ {
			if d := white[x] - black[x]; d < -1 || d > 1 {
				t.Errorf("Berger(%d): player %d has %d White, %d Black", n, x, white[x], black[x])
			}
		}
	}
}

func numbered(n int) []string {
	ps := make([]string, n)
	for i := range ps {
		ps[i] = fmt.Sprintf("p%02d@example.org", i+1)
	}
	return ps
}

// TestRoundRobinMatches: 10 players, matches of two games: 45 pairings,
// 90 games; each pairing's two games have the sides swapped, share round
// and board, and every player has 9 games with each side (Decision T1).
func TestRoundRobinMatches(t *testing.T) {
	games, err := RoundRobin(numbered(10), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 90 {
		t.Fatalf("RoundRobin(10 players) = %d games, want 90", len(games))
	}
	att, def := map[string]int{}, map[string]int{}
	pairs := map[[2]string]bool{}
	for i := 0; i < len(games); i += 2 {
		g1, g2 := games[i], games[i+1]
		if g1.MatchGame != 1 || g2.MatchGame != 2 || g1.Round != g2.Round || g1.Board != g2.Board ||
			g1.Attackers != g2.Defenders || g1.Defenders != g2.Attackers || g1.Section != 1 {
			t.Errorf("games %d, %d = %+v, %+v; want one match with sides swapped", i, i+1, g1, g2)
		}
		pairs[[2]string{min(g1.Attackers, g1.Defenders), max(g1.Attackers, g1.Defenders)}] = true
		for _, g := range []Game{g1, g2} {
			att[g.Attackers]++
			def[g.Defenders]++
		}
	}
	if len(pairs) != 45 {
		t.Errorf("%d pairings, want 45", len(pairs))
	}
	for _, p := range numbered(10) {
		if att[p] != 9 || def[p] != 9 {
			t.Errorf("%s: %d as attackers, %d as defenders; want 9 and 9", p, att[p], def[p])
		}
	}
	// Deterministic: the same call gives the same list.
	again, _ := RoundRobin(numbered(10), Options{})
	if !slices.Equal(games, again) {
		t.Error("RoundRobin is not deterministic")
	}
}

// TestRoundRobinSingle: one game per pairing; sides balanced by the
// Berger table for even and odd player counts.
func TestRoundRobinSingle(t *testing.T) {
	for _, n := range []int{3, 4, 7, 10, 11} {
		games, err := RoundRobin(numbered(n), Options{GamesPerPairing: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(games) != n*(n-1)/2 {
			t.Errorf("n=%d: %d games, want %d", n, len(games), n*(n-1)/2)
		}
		att, def := map[string]int{}, map[string]int{}
		for _, g := range games {
			att[g.Attackers]++
			def[g.Defenders]++
			if g.MatchGame != 1 {
				t.Errorf("n=%d: game %+v has MatchGame %d, want 1", n, g, g.MatchGame)
			}
		}
		for _, p := range numbered(n) {
			if d := att[p] - def[p]; d < -1 || d > 1 || att[p]+def[p] != n-1 {
				t.Errorf("n=%d: %s plays %d as attackers, %d as defenders", n, p, att[p], def[p])
			}
		}
	}
}

// TestSeedGroups: 8 players into 2 groups in snake order: seeds 1, 4, 5,
// 8 in group 1 and 2, 3, 6, 7 in group 2 (§6.2).
func TestSeedGroups(t *testing.T) {
	// Given in an order unrelated to rating; "h" and "c" share 1600 and
	// keep the order given (h first).
	seeds := []Seed{
		{"a", 1500}, {"h", 1600}, {"b", 1900}, {"g", 1420}, {"c", 1600},
		{"f", 2050}, {"d", 1710}, {"e", 1350},
	}
	// By rating: f 2050, b 1900, d 1710, h 1600, c 1600, a 1500, g 1420, e 1350.
	groups, err := SeedGroups(seeds, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"f", "h", "c", "e"}, {"b", "d", "a", "g"}}
	if !slices.EqualFunc(groups, want, slices.Equal) {
		t.Errorf("SeedGroups = %v, want %v", groups, want)
	}
	games, err := GroupRoundRobin(groups, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2*12 {
		t.Errorf("GroupRoundRobin: %d games, want 24 (two groups of 4, 6 matches each)", len(games))
	}
	for _, g := range games {
		grp := groups[g.Section-1]
		if !slices.Contains(grp, g.Attackers) || !slices.Contains(grp, g.Defenders) {
			t.Errorf("game %+v crosses groups", g)
		}
	}
	// Ten players in three groups: seeds 1–3 forwards, 4–6 backwards,
	// 7–9 forwards, and seed 10 starts the next backward pass in group 3.
	ten := make([]Seed, 10)
	for i := range ten {
		ten[i] = Seed{fmt.Sprint(i + 1), float64(2000 - 10*i)}
	}
	g3, err := SeedGroups(ten, 3)
	if err != nil {
		t.Fatal(err)
	}
	want3 := [][]string{{"1", "6", "7"}, {"2", "5", "8"}, {"3", "4", "9", "10"}}
	if !slices.EqualFunc(g3, want3, slices.Equal) {
		t.Errorf("SeedGroups(10, 3) = %v, want %v", g3, want3)
	}
}

func TestPairingErrors(t *testing.T) {
	if _, err := RoundRobin([]string{"a"}, Options{}); !errors.Is(err, ErrTooFewPlayers) {
		t.Errorf("RoundRobin(1 player) = %v, want ErrTooFewPlayers", err)
	}
	if _, err := RoundRobin([]string{"a", "b", "a"}, Options{}); !errors.Is(err, ErrDuplicatePlayer) {
		t.Errorf("RoundRobin(a twice) = %v, want ErrDuplicatePlayer", err)
	}
	if _, err := RoundRobin([]string{"a", ""}, Options{}); !errors.Is(err, ErrDuplicatePlayer) {
		t.Errorf("RoundRobin(empty name) = %v, want ErrDuplicatePlayer", err)
	}
	if _, err := RoundRobin([]string{"a", "b"}, Options{GamesPerPairing: 3}); !errors.Is(err, ErrBadOptions) {
		t.Errorf("RoundRobin(3 per pairing) = %v, want ErrBadOptions", err)
	}
	if _, err := SeedGroups([]Seed{{"a", 1}, {"b", 2}, {"c", 3}}, 2); !errors.Is(err, ErrBadOptions) {
		t.Errorf("SeedGroups(3 players, 2 groups) = %v, want ErrBadOptions", err)
	}
	if _, err := GroupRoundRobin([][]string{{"a", "b"}, {"c", "a"}}, Options{}); !errors.Is(err, ErrDuplicatePlayer) {
		t.Errorf("GroupRoundRobin(a in two groups) = %v, want ErrDuplicatePlayer", err)
	}
}

// TestGroupGames: the games of GroupGames, made one at a time, are a
// complete round robin in each group (every two players of a group meet
// in one game or in a match with the sides swapped, no one meets a player
// of another group), in schedule order, as many as it says; and a loop
// that stops early stops the sequence.
func TestGroupGames(t *testing.T) {
	groups := [][]string{{"a", "b", "c"}, {"d", "e", "f", "g"}, {"h", "i", "j", "k", "l"}}
	for _, per := range []int{1, 2} {
		seq, n, err := GroupGames(groups, Options{GamesPerPairing: per})
		if err != nil {
			t.Fatal(err)
		}
		if want := (3 + 6 + 10) * per; n != want {
			t.Errorf("per %d: n = %d, want %d", per, n, want)
		}
		group := map[string]int{}
		for i, g := range groups {
			for _, p := range g {
				group[p] = i + 1
			}
		}
		met := map[[2]string]int{}
		var last [4]int
		count := 0
		for g := range seq {
			count++
			if group[g.Attackers] != g.Section || group[g.Defenders] != g.Section {
				t.Errorf("per %d: %s vs %s in section %d", per, g.Attackers, g.Defenders, g.Section)
			}
			key := [4]int{g.Section, g.Round, g.Board, g.MatchGame}
			if slices.Compare(key[:], last[:]) <= 0 {
				t.Errorf("per %d: game %v comes after %v", per, key, last)
			}
			last = key
			met[[2]string{g.Attackers, g.Defenders}]++
		}
		if count != n {
			t.Errorf("per %d: %d games, n = %d", per, count, n)
		}
		for _, grp := range groups {
			for i, a := range grp {
				for _, b := range grp[i+1:] {
					ab, ba := met[[2]string{a, b}], met[[2]string{b, a}]
					if per == 2 && (ab != 1 || ba != 1) || per == 1 && ab+ba != 1 {
						t.Errorf("per %d: %s and %s meet %d+%d times", per, a, b, ab, ba)
					}
				}
			}
		}
		stopped := 0
		for range seq {
			if stopped++; stopped == 4 {
				break
			}
		}
		if stopped != 4 {
			t.Errorf("per %d: a loop that stops at 4 ran %d times", per, stopped)
		}
	}
	if _, _, err := GroupGames([][]string{{"a", "b"}, {"b", "c"}}, Options{}); !errors.Is(err, ErrDuplicatePlayer) {
		t.Errorf("a player in two groups: %v, want ErrDuplicatePlayer", err)
	}
}
