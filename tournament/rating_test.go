package tournament

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/tournament/glicko2"
)

var t0 = time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)

func day(n int) time.Time { return t0.AddDate(0, 0, n) }

// TestRateOneGame: a game is one rating period for each player, both
// computed from the ratings before it (R1): two new players, the
// attackers win; the winner gains exactly what the loser loses, and each
// new rating is glicko2.Update of the old one against the other's old one.
func TestRateOneGame(t *testing.T) {
	r := NewRatings()
	if err := r.Rate(RatedGame{"copenhagen", "a", "b", engine.AttackersWin, day(0)}); err != nil {
		t.Fatal(err)
	}
	a, _ := r.Get("a", "copenhagen")
	b, _ := r.Get("b", "copenhagen")
	n := glicko2.New()
	wantA := glicko2.Update(n, []glicko2.Result{{Opponent: n, Score: 1}})
	wantB := glicko2.Update(n, []glicko2.Result{{Opponent: n, Score: 0}})
	if a.Rating != wantA || b.Rating != wantB {
		t.Errorf("ratings = %+v, %+v; want %+v, %+v", a.Rating, b.Rating, wantA, wantB)
	}
	if math.Abs((a.Rating.R-1500)-(1500-b.Rating.R)) > 1e-9 || a.Rating.R <= 1500 {
		t.Errorf("winner %v, loser %v: want symmetric gains", a.Rating.R, b.Rating.R)
	}
	if a.Games != 1 || len(a.History) != 1 || a.History[0].Side != engine.Attackers || a.History[0].Opponent != "b" || a.History[0].Score != 1 {
		t.Errorf("a's history = %+v", a.History)
	}
	// Both sides count the same: the same game with sides swapped gives
	// the same ratings.
	r2 := NewRatings()
	r2.Rate(RatedGame{"copenhagen", "b", "a", engine.DefendersWin, day(0)})
	if a2, _ := r2.Get("a", "copenhagen"); a2.Rating != a.Rating {
		t.Errorf("a as defenders = %+v, as attackers %+v; want equal", a2.Rating, a.Rating)
	}
}

// TestRatingOrder: games are rated in the order they ended, games that
// ended together in the order given (R1).
func TestRatingOrder(t *testing.T) {
	g1 := RatedGame{"copenhagen", "a", "b", engine.AttackersWin, day(5)}
	g2 := RatedGame{"copenhagen", "a", "c", engine.DefendersWin, day(3)}
	g3 := RatedGame{"copenhagen", "b", "c", engine.Draw, day(5)}
	got, err := RateAll([]RatedGame{g1, g2, g3})
	if err != nil {
		t.Fatal(err)
	}
	want := NewRatings()
	for _, g := range []RatedGame{g2, g1, g3} {
		if err := want.Rate(g); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"a", "b", "c"} {
		x, _ := got.Get(p, "copenhagen")
		y, _ := want.Get(p, "copenhagen")
		if x.Rating != y.Rating {
			t.Errorf("%s: RateAll %+v, by hand in end order %+v", p, x.Rating, y.Rating)
		}
	}
	// g3 before g1 (same end) gives other ratings: the order matters.
	other, _ := RateAll([]RatedGame{g3, g2, g1})
	x, _ := other.Get("b", "copenhagen")
	y, _ := got.Get("b", "copenhagen")
	if x.Rating == y.Rating {
		t.Error("the order of games that ended together made no difference; want record order to count")
	}
	// A game that ended before the last one rated is refused.
	if err := got.Rate(RatedGame{"copenhagen", "a", "b", engine.Draw, day(4)}); !errors.Is(err, ErrOutOfOrder) {
		t.Errorf("Rate(earlier game) = %v, want ErrOutOfOrder", err)
	}
}

// TestIdleGrowth: before a game a player's RD grows by step 6 once per
// full 30 days since their previous game (R1), never above 350.
func TestIdleGrowth(t *testing.T) {
	r := NewRatings()
	r.Rate(RatedGame{"copenhagen", "a", "b", engine.AttackersWin, day(0)})
	r.Rate(RatedGame{"copenhagen", "a", "c", engine.Draw, day(1)})
	// 89 days: two full periods; 90 days: three.
	for _, tt := range []struct{ days, periods int }{{1 + 89, 2}, {1 + 89 + 90, 3}} {
		prev, _ := r.Get("a", "copenhagen")
		if err := r.Rate(RatedGame{"copenhagen", "d", "a", engine.AttackersWin, day(tt.days)}); err != nil {
			t.Fatal(err)
		}
		cur, _ := r.Get("a", "copenhagen")
		h := cur.History[len(cur.History)-1]
		want := glicko2.Idle(prev.Rating, tt.periods)
		if h.IdlePeriods != tt.periods || h.Before != want || h.Before.RD <= prev.Rating.RD {
			t.Errorf("game on day %d: %d idle periods, before %+v; want %d, %+v", tt.days, h.IdlePeriods, h.Before, tt.periods, want)
		}
	}
	// A new player's first game has no idle growth; d's second game,
	// 90 days after the first, has three periods.
	d, _ := r.Get("d", "copenhagen")
	if d.History[0].IdlePeriods != 0 || d.History[1].IdlePeriods != 3 {
		t.Errorf("d's idle periods = %d, %d; want 0, 3", d.History[0].IdlePeriods, d.History[1].IdlePeriods)
	}
	// A hundred years idle: the RD reaches the cap and stops there.
	if err := r.Rate(RatedGame{"copenhagen", "a", "b", engine.Draw, day(36600)}); err != nil {
		t.Fatal(err)
	}
	a, _ := r.Get("a", "copenhagen")
	if h := a.History[len(a.History)-1]; h.Before.RD != glicko2.InitialRD {
		t.Errorf("after 100 idle years RD = %v, want 350", h.Before.RD)
	}
	// Current applies the growth up to a moment without rating a game.
	if cur := r.Current("a", "copenhagen", day(36600+60)); cur.RD <= a.Rating.RD || cur.R != a.Rating.R {
		t.Errorf("Current 60 days later = %+v, want RD above %v and the same rating", cur, a.Rating.RD)
	}
	if cur := r.Current("nobody", "copenhagen", day(0)); cur != glicko2.New() {
		t.Errorf("Current(new player) = %+v, want 1500/350/0.06", cur)
	}
}

// TestRatingPerVariant: one rating per player and variant.
func TestRatingPerVariant(t *testing.T) {
	rs, err := RateAll([]RatedGame{
		{"copenhagen", "a", "b", engine.AttackersWin, day(0)},
		{"brandubh", "b", "a", engine.AttackersWin, day(1)},
		{"brandubh", "b", "a", engine.AttackersWin, day(2)},
	})
	if err != nil {
		t.Fatal(err)
	}
	ac, _ := rs.Get("a", "copenhagen")
	ab, _ := rs.Get("a", "brandubh")
	if ac.Games != 1 || ab.Games != 2 || ac.Rating.R <= 1500 || ab.Rating.R >= 1500 {
		t.Errorf("a: copenhagen %+v (%d games), brandubh %+v (%d games)", ac.Rating, ac.Games, ab.Rating, ab.Games)
	}
	all := rs.All()
	if len(all) != 4 || all[0].Variant != "brandubh" || all[0].Player != "b" || all[3].Player != "b" {
		t.Errorf("All() = %+v, want brandubh b, a, then copenhagen a, b", all)
	}
}

func TestRateErrors(t *testing.T) {
	r := NewRatings()
	for _, g := range []RatedGame{
		{"copenhagen", "a", "b", engine.Ongoing, day(0)},
		{"copenhagen", "a", "a", engine.Draw, day(0)},
		{"copenhagen", "", "b", engine.Draw, day(0)},
	} {
		if err := r.Rate(g); !errors.Is(err, ErrNotRatable) {
			t.Errorf("Rate(%+v) = %v, want ErrNotRatable", g, err)
		}
	}
	if len(r.All()) != 0 {
		t.Errorf("refused games left ratings: %+v", r.All())
	}
}

// TestRestore: rating a game from restored ratings gives what rating
// every game from the start gives.
func TestRestore(t *testing.T) {
	games := []RatedGame{
		{Variant: "copenhagen", Attackers: "a", Defenders: "b", Result: engine.AttackersWin, End: day(0)},
		{Variant: "copenhagen", Attackers: "c", Defenders: "a", Result: engine.Draw, End: day(10)},
		{Variant: "copenhagen", Attackers: "b", Defenders: "c", Result: engine.DefendersWin, End: day(60)},
	}
	all, err := RateAll(games)
	if err != nil {
		t.Fatal(err)
	}
	first, err := RateAll(games[:2])
	if err != nil {
		t.Fatal(err)
	}
	r := NewRatings()
	for _, p := range []string{"b", "c"} {
		pr, _ := first.Get(p, "copenhagen")
		r.Restore(pr)
	}
	if err := r.Rate(games[2]); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"b", "c"} {
		got, _ := r.Get(p, "copenhagen")
		want, _ := all.Get(p, "copenhagen")
		if got.Rating != want.Rating || got.Games != want.Games || !got.Last.Equal(want.Last) {
			t.Errorf("%s: restored then rated = %+v, rated from the start = %+v", p, got.Rating, want.Rating)
		}
	}
	// a game that ended before b's restored last game is out of order
	late := RatedGame{Variant: "copenhagen", Attackers: "b", Defenders: "c", Result: engine.Draw, End: day(30)}
	if err := r.Rate(late); !errors.Is(err, ErrOutOfOrder) {
		t.Errorf("Rate(late) = %v, want ErrOutOfOrder", err)
	}
}
