package tournament

import (
	"fmt"
	"testing"

	"github.com/taflmail/taflmail/engine"
)

// BenchmarkRoundRobin100: the games of a 100-player round robin with
// matches of two games (9,900 games; issue 11 asks for < 5 s).
func BenchmarkRoundRobin100(b *testing.B) {
	ps := numbered(100)
	b.ReportAllocs()
	for b.Loop() {
		games, err := RoundRobin(ps, Options{})
		if err != nil || len(games) != 9900 {
			b.Fatal(len(games), err)
		}
	}
}

// BenchmarkStandings100: the standings of that event with every game
// finished and two withdrawals (issue 11 asks for < 100 ms).
func BenchmarkStandings100(b *testing.B) {
	ps := numbered(100)
	games, _ := RoundRobin(ps, Options{})
	for k := range games {
		// A spread of results: attackers win 45%, defenders 40%, draws
		// 15%, deterministic.
		switch x := (k * 7919) % 20; {
		case x < 9:
			games[k].Result = engine.AttackersWin
		case x < 17:
			games[k].Result = engine.DefendersWin
		default:
			games[k].Result = engine.Draw
		}
	}
	sec := Section{Event: "Open", Players: ps, Games: games, Withdrawn: []string{ps[3], ps[50]}}
	b.ReportAllocs()
	for b.Loop() {
		st, err := sec.Standings()
		if err != nil || len(st.Rows) != 100 {
			b.Fatal(err)
		}
	}
}

// BenchmarkStandingsText100: the ranked list of that event as text.
func BenchmarkStandingsText100(b *testing.B) {
	ps := numbered(100)
	games, _ := RoundRobin(ps, Options{})
	for k := range games {
		games[k].Result = engine.Result(1 + k%3)
	}
	st, _ := (&Section{Players: ps, Games: games}).Standings()
	b.ReportAllocs()
	for b.Loop() {
		if len(st.Text()) == 0 {
			b.Fatal("no text")
		}
	}
}

// BenchmarkRateAll10000: Glicko-2 over 10,000 games among 200 players,
// without reading records.
func BenchmarkRateAll10000(b *testing.B) {
	games := make([]RatedGame, 10000)
	for i := range games {
		games[i] = RatedGame{
			Variant:   "copenhagen",
			Attackers: fmt.Sprintf("p%d", i%200), Defenders: fmt.Sprintf("p%d", (i*7+1)%200),
			Result: engine.Result(1 + i%3), End: day(i / 10),
		}
		if games[i].Attackers == games[i].Defenders {
			games[i].Defenders = "other"
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RateAll(games); err != nil {
			b.Fatal(err)
		}
	}
}
