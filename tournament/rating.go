package tournament

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/tournament/glicko2"
)

// RatingPeriod is the idle time after which a player's RD grows by one
// step (Decision R1: once for each full 30 days between the end of the
// player's previous rated game and the end of the next one).
const RatingPeriod = 30 * 24 * time.Hour

// Errors of rating.
var (
	// ErrNotRatable: a game without a result, or with the same player (or
	// nobody) on a side.
	ErrNotRatable = errors.New("tournament: game cannot be rated")
	// ErrOutOfOrder: a game ended before one already rated (Decision R1
	// rates games in the order they ended); rate them all again with
	// RateAll.
	ErrOutOfOrder = errors.New("tournament: game ended before one already rated")
)

// RatedGame is a finished game to rate.
type RatedGame struct {
	// Variant names the rules ("copenhagen"): each player has one rating
	// per variant.
	Variant              string
	Attackers, Defenders string
	// Result is AttackersWin, DefendersWin or Draw.
	Result engine.Result
	// End is when the game ended (GameEnd for a record).
	End time.Time
}

// RatingChange is one rated game in a player's history.
type RatingChange struct {
	End      time.Time
	Opponent string
	// Side is the side the player had.
	Side engine.Side
	// Score is the player's: 1, 0.5 or 0.
	Score float64
	// IdlePeriods is how many RD growth steps came before the game.
	IdlePeriods int
	// Before is the rating the game was rated from (after the idle
	// growth), After the rating it gave.
	Before, After glicko2.Rating
}

// PlayerRating is a player's rating in one variant.
type PlayerRating struct {
	Player, Variant string
	// Rating is the rating after the player's last rated game; the RD
	// has not grown since (Ratings.Current applies that).
	Rating glicko2.Rating
	// Games is the number of rated games, Last the end of the last one.
	Games int
	Last  time.Time
	// History lists every rated game, oldest first.
	History []RatingChange
}

type ratingKey struct{ player, variant string }

// Ratings rates games one at a time in the order they ended (Decision
// R1, CORRESPONDENCE.md §7.2) and keeps each player's rating per variant
// and its history. The zero value is not ready; use NewRatings.
type Ratings struct {
	// Options are Glicko-2's system constants (zero: §7.1's).
	Options glicko2.Options
	players map[ratingKey]*PlayerRating
	last    time.Time
}

// NewRatings returns an empty set of ratings: every player starts at
// 1500, RD 350, volatility 0.06 (§7.1).
func NewRatings() *Ratings {
	return &Ratings{players: map[ratingKey]*PlayerRating{}}
}

// RateAll rates games in the order they ended, games that ended at the
// same moment in the order given (Decision R1). It stops at the first
// game that cannot be rated (ErrNotRatable).
func RateAll(games []RatedGame) (*Ratings, error) {
	order := make([]int, len(games))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return games[i].End.Compare(games[j].End) })
	r := NewRatings()
	for _, i := range order {
		if err := r.Rate(games[i]); err != nil {
			return r, err
		}
	}
	return r, nil
}

// Rate rates one game (Decision R1): each player's RD first grows by one
// step for each full RatingPeriod since their previous rated game in the
// variant (never above 350); then the game is one Glicko-2 rating period
// for each of the two players, both computed from the ratings before the
// game. Both sides count the same.
//
// Errors: ErrNotRatable (no result, a missing player, one player on both
// sides), ErrOutOfOrder (the game ended before the last game rated); in
// both cases nothing changes.
func (r *Ratings) Rate(g RatedGame) error {
	var sa float64
	switch g.Result {
	case engine.AttackersWin:
		sa = 1
	case engine.DefendersWin:
		sa = 0
	case engine.Draw:
		sa = 0.5
	default:
		return fmt.Errorf("%w: %s–%s has no result", ErrNotRatable, g.Attackers, g.Defenders)
	}
	if g.Attackers == "" || g.Defenders == "" || g.Attackers == g.Defenders {
		return fmt.Errorf("%w: players %q and %q", ErrNotRatable, g.Attackers, g.Defenders)
	}
	if g.End.Before(r.last) {
		return fmt.Errorf("%w: %s–%s ended %s, after it %s", ErrOutOfOrder, g.Attackers, g.Defenders,
			g.End.UTC().Format(time.RFC3339), r.last.UTC().Format(time.RFC3339))
	}
	r.last = g.End
	pa, pd := r.player(g.Attackers, g.Variant), r.player(g.Defenders, g.Variant)
	na, nd := idlePeriods(pa, g.End), idlePeriods(pd, g.End)
	ba, bd := glicko2.Idle(pa.Rating, na), glicko2.Idle(pd.Rating, nd)
	aa := r.Options.Update(ba, []glicko2.Result{{Opponent: bd, Score: sa}})
	ad := r.Options.Update(bd, []glicko2.Result{{Opponent: ba, Score: 1 - sa}})
	pa.record(RatingChange{End: g.End, Opponent: g.Defenders, Side: engine.Attackers, Score: sa, IdlePeriods: na, Before: ba, After: aa})
	pd.record(RatingChange{End: g.End, Opponent: g.Attackers, Side: engine.Defenders, Score: 1 - sa, IdlePeriods: nd, Before: bd, After: ad})
	return nil
}

func (p *PlayerRating) record(c RatingChange) {
	p.Rating = c.After
	p.Games++
	p.Last = c.End
	p.History = append(p.History, c)
}

// idlePeriods is the number of full rating periods between p's last game
// and t; 0 for a player without games.
func idlePeriods(p *PlayerRating, t time.Time) int {
	if p.Games == 0 || !t.After(p.Last) {
		return 0
	}
	return int(t.Sub(p.Last) / RatingPeriod)
}

func (r *Ratings) player(name, variant string) *PlayerRating {
	k := ratingKey{name, variant}
	p := r.players[k]
	if p == nil {
		p = &PlayerRating{Player: name, Variant: variant, Rating: glicko2.New()}
		r.players[k] = p
	}
	return p
}

// Get returns the player's rating in the variant, with its history (the
// caller must not change the history's slice), and whether the player
// has a rated game in it.
func (r *Ratings) Get(player, variant string) (PlayerRating, bool) {
	p, ok := r.players[ratingKey{player, variant}]
	if !ok {
		return PlayerRating{Player: player, Variant: variant, Rating: glicko2.New()}, false
	}
	return *p, true
}

// Current returns the player's rating in the variant as of time at: the
// rating after their last game with the RD grown for every full
// RatingPeriod since (Decision R1), or a new player's rating. This is the
// rating to seed groups with (Seed) and to show.
func (r *Ratings) Current(player, variant string, at time.Time) glicko2.Rating {
	p, ok := r.players[ratingKey{player, variant}]
	if !ok {
		return glicko2.New()
	}
	return glicko2.Idle(p.Rating, idlePeriods(p, at))
}

// All returns every player's rating, by variant, then rating (highest
// first), then player.
func (r *Ratings) All() []PlayerRating {
	out := make([]PlayerRating, 0, len(r.players))
	for _, p := range r.players {
		out = append(out, *p)
	}
	slices.SortFunc(out, func(a, b PlayerRating) int {
		return cmp.Or(cmp.Compare(a.Variant, b.Variant), cmp.Compare(b.Rating.R, a.Rating.R), cmp.Compare(a.Player, b.Player))
	})
	return out
}

// Restore sets a player's rating in a variant as a store keeps it after
// their last rated game (Rating, Games and Last of p; History is kept
// as given), so that the next game can be rated without rating every
// earlier one again. Games after it must not end before p.Last
// (ErrOutOfOrder); a game of the player that did must be rated by
// RateAll over all of them.
func (r *Ratings) Restore(p PlayerRating) {
	q := p
	r.players[ratingKey{p.Player, p.Variant}] = &q
	if p.Last.After(r.last) {
		r.last = p.Last
	}
}
