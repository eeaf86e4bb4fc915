package tournaments

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/tournament"
	"github.com/taflmail/taflmail/tournament/glicko2"
)

// Ratings through the referee (CORRESPONDENCE.md §7, Decision R1). A
// rated game is rated in the transaction that ends it. Its end is the end
// of its record (tournament.GameEnd: the last ply's arrival, a time-out's
// declaration, a resignation's arrival, the End tag of an end no ply
// dates: archive.Game.Replay), so the ratings the referee keeps are the
// ratings `taflmail ratings` computes from the games' records. Most games
// end after every rated game of their two players and are rated from the
// two stored ratings (tournament.Ratings.Restore). A game that ended
// before a game already rated of one of its players (its last mail
// arrived while the referee was down) makes the referee rate the whole
// variant again from its rated games (archive.RatedGames, in the order
// they were rated for games that ended at the same instant) and replace
// the variant's ratings and history: the result is what rating every game
// in the order it ended gives (tournament.RateAll).

// rating returns the session's work on the ratings of variant.
func rating(ss *referee.Session, variant string) *ratingWork {
	tst := tourneyOf(ss)
	if tst.ratings == nil {
		tst.ratings = map[string]*ratingWork{}
	}
	w, ok := tst.ratings[variant]
	if !ok {
		w = &ratingWork{variant: variant, state: map[string]tournament.PlayerRating{}, loaded: map[string]bool{},
			touched: map[string]bool{}}
		tst.ratings[variant] = w
	}
	return w
}

// playerRating returns a player's rating in w's variant as the session
// knows it: after this session's games, else as stored.
func playerRating(ss *referee.Session, w *ratingWork, player string) (tournament.PlayerRating, error) {
	if p, ok := w.state[player]; ok || w.loaded[player] {
		return p, nil
	}
	w.loaded[player] = true
	r, err := ss.Server.TournamentPort().Rating(ss.Ctx, player, w.variant)
	if errors.Is(err, archive.ErrNotFound) {
		return tournament.PlayerRating{Player: player, Variant: w.variant, Rating: glicko2.New()}, nil
	}
	if err != nil {
		return tournament.PlayerRating{}, err
	}
	p := tournament.PlayerRating{Player: player, Variant: w.variant, Games: r.Games, Last: r.LastEnd,
		Rating: glicko2.Rating{R: r.Value.R, RD: r.Value.RD, Volatility: r.Value.Volatility}}
	w.state[player] = p
	return p, nil
}

// ratedGameOf returns the rated game of a finished game: its players,
// result and end (the end of its record, Decision R1).
func ratedGameOf(ss *referee.Session, t *referee.Table) archive.RatedGame {
	end := recordEnd(ss, t)
	return archive.RatedGame{GameID: t.Game.ID, Variant: t.Game.Variant, Attackers: t.Game.Attackers, Defenders: t.Game.Defenders,
		Result: t.Game.Result, End: end}
}

// recordEnd is when t ended as its record says (tournament.GameEnd); when
// the record cannot tell (it cannot be built), when the referee ended it.
func recordEnd(ss *referee.Session, t *referee.Table) time.Time {
	g := *t.Game
	g.Plies = t.Plies()
	if g.Status == archive.Finished && g.EndedAt.IsZero() {
		g.EndedAt = ss.Now // as collectClock will store it, so the record rated is the one kept
	}
	r, err := g.Replay()
	if err == nil {
		if end, err := tournament.GameEnd(r.Game); err == nil {
			return end
		}
	}
	ss.Server.Log.Error("game end read from the referee, not the record", "game", t.Game.ID, "err", err)
	if !t.Game.EndedAt.IsZero() {
		return t.Game.EndedAt
	}
	return ss.Now
}

// rateEnded rates the rated games among the tables that ended, in the
// order they ended, and tells each player their new rating.
func rateEnded(ss *referee.Session, ended []*referee.Table) {
	var games []archive.RatedGame
	tables := map[string]*referee.Table{}
	for _, t := range ended {
		if t.Game.Rated && gameResult(t.Game) != engine.Ongoing {
			games = append(games, ratedGameOf(ss, t))
			tables[t.Game.ID] = t
		}
	}
	slices.SortStableFunc(games, func(a, b archive.RatedGame) int {
		return cmp.Or(a.End.Compare(b.End), cmp.Compare(a.GameID, b.GameID))
	})
	for _, g := range games {
		if err := rate(ss, g); err != nil {
			ss.NoteReadErr(err)
			return
		}
	}
	for _, w := range tourneyOf(ss).ratings {
		if w.full && !w.fullChanged {
			if err := rateAgain(ss, w); err != nil {
				ss.NoteReadErr(err)
				return
			}
		}
	}
	for _, g := range games {
		t := tables[g.GameID]
		w := rating(ss, g.Variant)
		for _, addr := range []string{g.Attackers, g.Defenders} {
			p := w.state[addr]
			ss.Tell(addr, t, func(lang string) string {
				return referee.Trn(lang, "rating.after", p.Games, referee.VariantTitle(lang, t.Variant), p.Rating.R, p.Rating.RD, p.Games)
			})
		}
	}
}

// rate rates one game: from its players' ratings when it ended after
// their last rated games, otherwise by rating the variant again.
func rate(ss *referee.Session, g archive.RatedGame) error {
	w := rating(ss, g.Variant)
	w.games = append(w.games, g)
	if w.full {
		return nil
	}
	pa, err := playerRating(ss, w, g.Attackers)
	if err != nil {
		return err
	}
	pd, err := playerRating(ss, w, g.Defenders)
	if err != nil {
		return err
	}
	r := tournament.NewRatings()
	for _, p := range []tournament.PlayerRating{pa, pd} {
		if p.Games > 0 {
			r.Restore(p)
		}
	}
	err = r.Rate(tournament.RatedGame{Variant: g.Variant, Attackers: g.Attackers, Defenders: g.Defenders,
		Result: gameResult(&archive.Game{Status: archive.Finished, Result: g.Result}), End: g.End})
	if errors.Is(err, tournament.ErrOutOfOrder) {
		w.full = true
		return nil
	}
	if err != nil {
		return err
	}
	for _, addr := range []string{g.Attackers, g.Defenders} {
		p, _ := r.Get(addr, g.Variant)
		c := p.History[len(p.History)-1]
		p.History = nil
		w.state[addr] = p
		w.touched[addr] = true
		w.history = append(w.history, historyRow(addr, g.Variant, p.Games, g.GameID, c))
	}
	return nil
}

// historyRow is the archive's history row of a rating change.
func historyRow(player, variant string, n int, gameID string, c tournament.RatingChange) archive.RatingRecord {
	return archive.RatingRecord{Player: player, Variant: variant, N: n, GameID: gameID, End: c.End, Opponent: c.Opponent,
		Side: c.Side.String(), Score: c.Score, IdlePeriods: c.IdlePeriods, Before: ratingValue(c.Before), After: ratingValue(c.After)}
}

func ratingValue(r glicko2.Rating) archive.RatingValue {
	return archive.RatingValue{R: r.R, RD: r.RD, Volatility: r.Volatility}
}

// rateAgain rates every game of w's variant again, the stored ones and
// this session's, in the order they ended (games that ended at the same
// instant in the order they were rated: the stored ones by Seq, then this
// session's), as tournament.RateAll does, keeping each history row's game.
func rateAgain(ss *referee.Session, w *ratingWork) error {
	stored, err := ss.Server.TournamentPort().RatedGames(ss.Ctx, w.variant)
	if err != nil {
		return err
	}
	all := append(slices.Clone(stored), w.games...)
	order := make([]int, len(all))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return all[i].End.Compare(all[j].End) })
	r := tournament.NewRatings()
	w.allHistory = nil
	for _, i := range order {
		g := all[i]
		err := r.Rate(tournament.RatedGame{Variant: g.Variant, Attackers: g.Attackers, Defenders: g.Defenders,
			Result: gameResult(&archive.Game{Status: archive.Finished, Result: g.Result}), End: g.End})
		if err != nil {
			return err
		}
		for _, addr := range []string{g.Attackers, g.Defenders} {
			p, _ := r.Get(addr, g.Variant)
			w.allHistory = append(w.allHistory, historyRow(addr, g.Variant, p.Games, g.GameID, p.History[len(p.History)-1]))
		}
	}
	w.allRatings = nil
	clear(w.state)
	for _, p := range r.All() {
		w.allRatings = append(w.allRatings, archive.Rating{Player: p.Player, Variant: p.Variant, Value: ratingValue(p.Rating),
			Games: p.Games, LastEnd: p.Last})
		p.History = nil
		w.state[p.Player] = p
	}
	w.fullChanged = true
	ss.Server.Log.Info("ratings rated again: a game ended before one already rated", "variant", w.variant,
		"games", len(all), "players", len(w.allRatings))
	return nil
}

// update is the archive's rating update of w.
func (w *ratingWork) update() archive.RatingUpdate {
	u := archive.RatingUpdate{Variant: w.variant, Games: w.games}
	if w.full {
		u.Replace, u.Ratings, u.History = true, w.allRatings, w.allHistory
		return u
	}
	for _, addr := range sortedKeys(w.touched) {
		p := w.state[addr]
		u.Ratings = append(u.Ratings, archive.Rating{Player: addr, Variant: w.variant, Value: ratingValue(p.Rating),
			Games: p.Games, LastEnd: p.Last})
	}
	u.History = w.history
	return u
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// currentRating returns a player's rating in a variant as of now, the RD
// grown for the idle time (Decision R1, tournament.Ratings.Current), and
// whether the player has rated games in it.
func currentRating(ss *referee.Session, player, variant string) (glicko2.Rating, int, bool) {
	k := [2]string{player, variant}
	tst := tourneyOf(ss)
	if r, ok := tst.stored[k]; ok {
		return grown(r, ss.Now), r.Games, r.Games > 0
	}
	r, err := ss.Server.TournamentPort().Rating(ss.Ctx, player, variant)
	if err != nil {
		ss.NoteReadErr(err)
		r = archive.Rating{}
	}
	if tst.stored == nil {
		tst.stored = map[[2]string]archive.Rating{}
	}
	tst.stored[k] = r
	if r.Games == 0 {
		return glicko2.New(), 0, false
	}
	return grown(r, ss.Now), r.Games, true
}

// grown is a stored rating as of now: the RD grown by one step for each
// full rating period since the player's last rated game, never above 350.
func grown(r archive.Rating, now time.Time) glicko2.Rating { return club.RatingAt(r, now) }

// ratingWords writes a rating for a list: "1662.3 (RD 290.3)", or that
// the player has none yet.
func ratingWords(lang string, r glicko2.Rating, games int) string {
	if games == 0 {
		return referee.Tr(lang, "rating.new")
	}
	return fmt.Sprintf("%.1f (RD %.1f)", r.R, r.RD)
}

// ratedTerms is what an invitation and its confirmation say about a
// casual game's rating: whether it is rated and, either way, both
// players' ratings in its variant (opp is the other player of the
// recipient); "" when neither has one and the game is not rated.
func ratedTerms(ss *referee.Session, lang string, g *archive.Game, opp string) string {
	me := g.Attackers
	if me == opp {
		me = g.Defenders
	}
	rm, nm, okm := currentRating(ss, me, g.Variant)
	ro, no, oko := currentRating(ss, opp, g.Variant)
	if !g.Rated && !okm && !oko {
		return ""
	}
	text := "\n" + referee.Tr(lang, "invite.ratings", ratingWords(lang, rm, nm), opp, ratingWords(lang, ro, no))
	if g.Rated {
		text += "\n" + referee.Tr(lang, "invite.rated")
	}
	return text
}

// ratingsLine is the sender's ratings in one line for the games list,
// "" when they have none.
func ratingsLine(ss *referee.Session) string {
	rs, err := ss.Server.TournamentPort().RatingsOf(ss.Ctx, ss.From)
	if err != nil {
		ss.NoteReadErr(err)
		return ""
	}
	if len(rs) == 0 {
		return ""
	}
	var parts []string
	for _, r := range rs {
		g := grown(r, ss.Now)
		parts = append(parts, fmt.Sprintf("%s %.0f (RD %.0f)", r.Variant, g.R, g.RD))
	}
	return referee.Tr(ss.Lang, "games.ratings", strings.Join(parts, ", "))
}

// RatingAt is a stored rating as of at, the RD grown for the idle time
// since the player's last rated game (Decision R1), for the director's
// commands.
func RatingAt(r archive.Rating, at time.Time) glicko2.Rating { return grown(r, at) }
