package server

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/catalog"
)

func init() {
	handle("rating", (*session).ratingCommand)
	helpLine(88, "help.rating")
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
func (ss *session) ratingCommand(c *grammar.RatingCommand) error {
	if c.Variant == "" {
		rs, err := ss.srv.tournamentPort().RatingsOf(ss.ctx, ss.from)
		if err != nil {
			return err
		}
		if len(rs) == 0 {
			ss.say(nil, tr(ss.lang, "rating.none"))
			return nil
		}
		var b strings.Builder
		b.WriteString(tr(ss.lang, "rating.header") + "\n")
		for _, r := range rs {
			g := grown(r, ss.now)
			b.WriteString(tableRow(fmt.Sprintf("  %-12s %s", r.Variant, trn(ss.lang, "rating.line", r.Games, g.R, g.RD, g.Volatility, r.Games, catalog.Day(ss.lang, r.LastEnd))), 15) + "\n")
		}
		ss.say(nil, b.String())
		return nil
	}
	v, err := ss.variantNamed(c.Variant)
	if err != nil {
		return err
	}
	hist, err := ss.srv.tournamentPort().RatingHistory(ss.ctx, ss.from, v.Name)
	if err != nil {
		return err
	}
	if len(hist) == 0 {
		ss.say(nil, tr(ss.lang, "rating.none.variant", variantTitle(ss.lang, v)))
		return nil
	}
	r, games, _ := ss.currentRating(ss.from, v.Name)
	var b strings.Builder
	b.WriteString(trn(ss.lang, "rating.variant", games, variantTitle(ss.lang, v), r.R, r.RD, r.Volatility, games) + "\n\n")
	b.WriteString(tr(ss.lang, "rating.history") + "\n")
	slices.Reverse(hist)
	for i, h := range hist {
		if i == maxHistoryListed {
			fmt.Fprintf(&b, "  %s\n", trn(ss.lang, "rating.more", len(hist)-i, len(hist)-i))
			break
		}
		// a row too long for a line has its result on the next, under
		// the game's id; mailer.Preformatted, as a table
		day := "  " + catalog.Day(ss.lang, h.End) + "  "
		head := day + h.GameID + "  " + tr(ss.lang, "start.vs", h.Opponent)
		result := fmt.Sprintf("%-9s %-5s %7.1f → %.1f", sideName(ss.lang, h.Side), scoreWord(ss.lang, h.Score), h.Before.R, h.After.R)
		row := head + "  " + result
		if utf8.RuneCountInString(row) > mailer.WrapWidth {
			row = head + "\n" + strings.Repeat(" ", utf8.RuneCountInString(day)) + result
		}
		b.WriteString(mailer.Preformatted(row) + "\n")
	}
	ss.say(nil, b.String())
	return nil
}

// scoreWord writes a game score from the player's side: won, drawn, lost.
func scoreWord(lang string, score float64) string {
	switch score {
	case 1:
		return tr(lang, "rating.won")
	case 0.5:
		return tr(lang, "rating.drawn")
	}
	return tr(lang, "rating.lost")
}
