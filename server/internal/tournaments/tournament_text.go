package tournaments

import (
	"fmt"
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/gameclock"
	"github.com/taflmail/taflmail/server/internal/msgid"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/tournament"
	"github.com/taflmail/taflmail/tournament/glicko2"
)

// What players read about tournaments: a player's standing after a game,
// the standings with ratings (for the final mail, tournament_end.go, and
// the "standings" reply), an event's terms, and the mails the referee
// sends of its own accord (addOwnMail).

// StandingLine is a player's place in their group after a game, in
// lang: points, games, place, and how to get the table; "" when the
// player has no row (their games were annulled).
func StandingLine(lang string, t *archive.Tournament, sts []*tournament.Standings, addr string) string {
	for _, st := range sts {
		for _, r := range st.Rows {
			if r.Player != addr {
				continue
			}
			return referee.Tr(lang, "tournament.standing", t.Name, catalog.CountedPoints(lang, r.Points), r.Played, referee.Counted(lang, "games", r.Games), r.PlaceText(), len(st.Rows),
				tournament.FormatScore(r.SonnebornBerger), t.ID)
		}
	}
	return ""
}

// CrosstableLabels are the words of a crosstable in lang
// (tournament.Standings.TextIn): a German reader's table is German
// throughout (docs/commands.md).
func CrosstableLabels(lang string) tournament.Labels {
	return tournament.Labels{
		Place:             referee.Tr(lang, "crosstable.place"),
		Player:            referee.Tr(lang, "crosstable.player"),
		Points:            referee.Tr(lang, "crosstable.points"),
		SB:                referee.Tr(lang, "crosstable.sb"),
		Wins:              referee.Tr(lang, "crosstable.wins"),
		Games:             referee.Tr(lang, "crosstable.games"),
		NoEvent:           referee.Tr(lang, "crosstable.noevent"),
		Group:             referee.Tr(lang, "crosstable.group"),
		WithdrawnLost:     referee.Tr(lang, "crosstable.withdrawn.lost"),
		WithdrawnAnnulled: referee.Tr(lang, "crosstable.withdrawn.annulled"),
		Finished:          referee.Tr(lang, "crosstable.finished"),
		FinishedOne:       referee.Tr(lang, "crosstable.finished.one"),
	}
}

// standingsText is the standings of an event for a mail, in lang: each
// group's table (tournament.Standings.TextIn with CrosstableLabels), and
// for a rated event the players' ratings now. named says the mail has
// named the event already (the "standings" reply's first line): a table
// then has no title, a group's only "Group N" (trial 22).
func standingsText(ss *referee.Session, lang string, t *archive.Tournament, sts []*tournament.Standings, named bool) string {
	var b strings.Builder
	labels := CrosstableLabels(lang)
	if named {
		labels.Group = referee.Tr(lang, "standings.group")
	}
	for i, st := range sts {
		if i > 0 {
			b.WriteString("\n")
		}
		text := st.TextIn(labels)
		if named && st.Section == 0 {
			text = text[strings.IndexByte(text, '\n')+1:] // the title line, the event's name
		}
		b.WriteString(mailer.Preformatted(text))
	}
	if !t.Rated {
		return b.String()
	}
	b.WriteString("\n" + referee.Tr(lang, "tournament.ratings", t.Variant) + "\n")
	for _, st := range sts {
		for _, r := range st.Rows {
			rt, games, _ := ratingNow(ss, r.Player, t.Variant)
			b.WriteString(mailer.Preformatted(fmt.Sprintf("  %-36s %s", r.Player, ratingWords(lang, rt, games))) + "\n")
		}
	}
	return b.String()
}

// ratingNow returns a player's rating in variant as of now: as this
// session left it, else as stored with the RD grown for the idle time.
func ratingNow(ss *referee.Session, player, variant string) (glicko2.Rating, int, bool) {
	if w, ok := tourneyOf(ss).ratings[variant]; ok {
		if p, ok := w.state[player]; ok {
			rs := tournament.NewRatings()
			rs.Restore(p)
			return rs.Current(player, variant, ss.Now), p.Games, true
		}
	}
	return currentRating(ss, player, variant)
}

// withRating writes a player for a list with their rating in variant
// when they have one: "bob@example.org (1612)".
func withRating(ss *referee.Session, player, variant string) string {
	r, _, ok := currentRating(ss, player, variant)
	if !ok {
		return player
	}
	return fmt.Sprintf("%s (%.0f)", player, r.R)
}

// addOwnMail queues a mail the referee sends of its own accord (a start
// list, a final crosstable with its records attached, a cancellation):
// not a reply to anybody's mail, so neither the caps on one mail's
// replies nor the reply budgets apply (docs/security.md); the caller
// bounds the attachments (Options.MaxAttachmentBytes). seed and to make
// its Message-ID, the same each time the same change is decided.
func addOwnMail(ss *referee.Session, seed, to, subject, body string, atts ...mailer.Attachment) {
	s := ss.Server
	o := mailer.Outgoing{
		MessageID: msgid.Reply(seed, 0, to, "", "", s.Opts.Domain),
		From:      fmt.Sprintf("%s <%s>", s.Opts.Name, s.Opts.Address),
		To:        []string{to},
		Subject:   subject,
		Body:      body,
		Flowed:    true, // wrapped at 76, boards and tables as built (mailer.Preformatted)
		Date:      ss.Now,
		Headers:   map[string]string{referee.LoopHeader: "notice", "Auto-Submitted": "auto-generated"},

		Attachments: atts,
	}
	raw, err := o.Bytes()
	if err != nil {
		s.Log.Warn("mail not sent: it cannot be written", "to", to, "err", err)
		return
	}
	tst := tourneyOf(ss)
	tst.own = append(tst.own, archive.OutboxMail{MessageID: o.MessageID, From: s.Opts.Address, To: []string{to}, Raw: raw})
}

// eventTerms is an event's settings in words, in lang: variant, time
// control, format, rating, leave allowance.
func eventTerms(s *referee.Server, lang string, t *archive.Tournament) string {
	title := t.Variant
	if v, ok := engine.Lookup(t.Variant); ok {
		title = referee.VariantTitle(lang, v)
	}
	var b strings.Builder
	b.WriteString(referee.Tr(lang, "tournament.variant", title) + "\n")
	b.WriteString(referee.Tr(lang, "invite.control", gameclock.ControlText(lang, gameclock.Control(&archive.Game{ID: t.ID, TimeControl: t.TimeControl}))) + "\n")
	format := referee.Tr(lang, "tournament.format.pairs")
	if t.GamesPerPairing == 1 {
		format = referee.Tr(lang, "tournament.format.single")
	}
	if t.Groups > 1 {
		format += " " + referee.Tr(lang, "tournament.format.groups", t.Groups)
	}
	b.WriteString(format + "\n")
	if t.Rated {
		b.WriteString(referee.Tr(lang, "tournament.rated") + "\n")
	} else {
		b.WriteString(referee.Tr(lang, "tournament.unrated") + "\n")
	}
	b.WriteString(referee.Trn(lang, "tournament.leave", min(t.LeaveDays, gameclock.LeaveDays(s)), min(t.LeaveDays, gameclock.LeaveDays(s))))
	return b.String()
}

// eventHeader is what the header of a mail about a tournament game adds:
// ", Cup 2027, round 3.2.1"; "" for a casual game.
func eventHeader(lang string, g *archive.Game) string {
	if g.Event == nil {
		return ""
	}
	return referee.Tr(lang, "game.event", g.Event.Name, g.Event.RoundTag())
}
