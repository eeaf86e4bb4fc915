package club

import (
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/tournament"
	"github.com/taflmail/taflmail/tournament/glicko2"
)

// RatingAt is a stored rating as of at: the rating after the player's
// last rated game with its RD grown once for each full rating period
// (30 days) since that game, never above 350 (Decision R1,
// CORRESPONDENCE.md §7.2). What the referee's mails, the director's
// commands and the rating pages show.
func RatingAt(r archive.Rating, at time.Time) glicko2.Rating {
	rs := tournament.NewRatings()
	rs.Restore(tournament.PlayerRating{Player: r.Player, Variant: r.Variant, Games: r.Games, Last: r.LastEnd,
		Rating: glicko2.Rating{R: r.Value.R, RD: r.Value.RD, Volatility: r.Value.Volatility}})
	return rs.Current(r.Player, r.Variant, at)
}

// RateRecords rates every finished game of a set of records with
// Glicko-2 in the order they ended (tournament.RatedGamesFromRecords and
// RateAll, CORRESPONDENCE.md §7), as `taflmail ratings` does. Games that
// cannot be rated are left out and returned in problems (each wrapping
// tournament.ErrRecord).
func RateRecords(games []*notation.Game) (*tournament.Ratings, []error) {
	rated, problems := tournament.RatedGamesFromRecords(games)
	rs, err := tournament.RateAll(rated)
	if err != nil {
		// RatedGamesFromRecords passes only ratable games
		problems = append(problems, err)
	}
	return rs, problems
}
