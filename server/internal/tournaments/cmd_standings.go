package tournaments

import (
	"fmt"
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/referee"
)

func init() {
	referee.Handle("standings", standingsCommand)
	referee.HelpLine(87, "help.standings")
}

// standingsCommand answers "standings ID" ("tabelle"): the event's
// crosstable (a ranked list beyond 10 players; one per group), with the
// players' ratings for a rated event, or before the start the players
// entered so far. Standings are public: anyone may ask.
func standingsCommand(ss *referee.Session, c *grammar.StandingsCommand) error {
	ev, err := loadEvent(ss, strings.ToLower(c.Tournament.Text))
	if err != nil {
		return err
	}
	t := ev.t
	head := referee.Tr(ss.Lang, "standings.header", t.Name, t.ID, statusWords(ss.Lang, t.Status))
	if t.Status == archive.TournamentCreated || t.Status == archive.TournamentCancelled {
		var b strings.Builder
		b.WriteString(head + "\n" + eventTerms(ss.Server, ss.Lang, t) + "\n\n")
		n := 0
		for _, e := range ev.entries {
			if !e.Withdrawn() {
				n++
				b.WriteString(referee.TableRow(fmt.Sprintf("  %2d. %s", n, e.Player), 6) + "\n")
			}
		}
		if n == 0 {
			b.WriteString("  " + referee.Tr(ss.Lang, "standings.noentries") + "\n")
		}
		ss.Say(nil, b.String())
		return nil
	}
	sts, err := standings(ss, ev)
	if err != nil {
		return err
	}
	ss.Say(nil, head+"\n\n"+standingsText(ss, ss.Lang, t, sts, true))
	return nil
}

// statusWords names a tournament's status in lang.
func statusWords(lang string, st archive.TournamentStatus) string {
	switch st {
	case archive.TournamentCreated:
		return referee.Tr(lang, "tournament.status.created")
	case archive.TournamentRunning:
		return referee.Tr(lang, "tournament.status.running")
	case archive.TournamentFinished:
		return referee.Tr(lang, "tournament.status.finished")
	}
	return referee.Tr(lang, "tournament.status.cancelled")
}
