package tournaments

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/referee"
)

func init() {
	referee.Handle("rating", ratingCommand)
	referee.HelpLine(88, "help.rating")
}

// maxHistoryListed is how many rated games "rating VARIANT" lists, newest
// first.
const maxHistoryListed = 20

// ratingCommand answers "rating" ("wertung") with the sender's Glicko-2
// rating in every variant they have rated games in, and "rating VARIANT"
// with that rating and its history, newest first (CORRESPONDENCE.md §7):
// each game's date, id, opponent, side, score and the rating before and
// after. The RD shown has grown for the time since the last rated game
// (Decision R1).
func ratingCommand(ss *referee.Session, c *grammar.RatingCommand) error {
	if c.Variant == "" {
		rs, err := ss.Server.TournamentPort().RatingsOf(ss.Ctx, ss.From)
		if err != nil {
			return err
		}
		if len(rs) == 0 {
			ss.Say(nil, referee.Tr(ss.Lang, "rating.none"))
			return nil
		}
		var b strings.Builder
		b.WriteString(referee.Tr(ss.Lang, "rating.header") + "\n")
		for _, r := range rs {
			g := grown(r, ss.Now)
			b.WriteString(referee.TableRow(fmt.Sprintf("  %-12s %s", r.Variant, referee.Trn(ss.Lang, "rating.line", r.Games, g.R, g.RD, g.Volatility, r.Games, catalog.Day(ss.Lang, r.LastEnd))), 15) + "\n")
		}
		ss.Say(nil, b.String())
		return nil
	}
	v, err := ss.VariantNamed(c.Variant)
	if err != nil {
		return err
	}
	hist, err := ss.Server.TournamentPort().RatingHistory(ss.Ctx, ss.From, v.Name)
	if err != nil {
		return err
	}
	if len(hist) == 0 {
		ss.Say(nil, referee.Tr(ss.Lang, "rating.none.variant", referee.VariantTitle(ss.Lang, v)))
		return nil
	}
	r, games, _ := currentRating(ss, ss.From, v.Name)
	var b strings.Builder
	b.WriteString(referee.Trn(ss.Lang, "rating.variant", games, referee.VariantTitle(ss.Lang, v), r.R, r.RD, r.Volatility, games) + "\n\n")
	b.WriteString(referee.Tr(ss.Lang, "rating.history") + "\n")
	slices.Reverse(hist)
	for i, h := range hist {
		if i == maxHistoryListed {
			fmt.Fprintf(&b, "  %s\n", referee.Trn(ss.Lang, "rating.more", len(hist)-i, len(hist)-i))
			break
		}
		// a row too long for a line has its result on the next, under
		// the game's id; mailer.Preformatted, as a table
		day := "  " + catalog.Day(ss.Lang, h.End) + "  "
		head := day + h.GameID + "  " + referee.Tr(ss.Lang, "start.vs", h.Opponent)
		result := fmt.Sprintf("%-9s %-5s %7.1f → %.1f", referee.SideName(ss.Lang, h.Side), scoreWord(ss.Lang, h.Score), h.Before.R, h.After.R)
		row := head + "  " + result
		if utf8.RuneCountInString(row) > mailer.WrapWidth {
			row = head + "\n" + strings.Repeat(" ", utf8.RuneCountInString(day)) + result
		}
		b.WriteString(mailer.Preformatted(row) + "\n")
	}
	ss.Say(nil, b.String())
	return nil
}

// scoreWord writes a game score from the player's side: won, drawn, lost.
func scoreWord(lang string, score float64) string {
	switch score {
	case 1:
		return referee.Tr(lang, "rating.won")
	case 0.5:
		return referee.Tr(lang, "rating.drawn")
	}
	return referee.Tr(lang, "rating.lost")
}
