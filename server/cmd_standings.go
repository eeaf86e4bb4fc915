package server

import (
	"fmt"
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
)

func init() {
	handle("standings", (*session).standingsCommand)
	helpLine(87, "help.standings")
}

// standingsCommand answers "standings ID" ("tabelle"): the event's
// crosstable (a ranked list beyond 10 players; one per group), with the
// players' ratings for a rated event, or before the start the players
// entered so far. Standings are public: anyone may ask.
func (ss *session) standingsCommand(c *grammar.StandingsCommand) error {
	ev, err := ss.event(strings.ToLower(c.Tournament.Text))
	if err != nil {
		return err
	}
	t := ev.t
	head := tr(ss.lang, "standings.header", t.Name, t.ID, statusWords(ss.lang, t.Status))
	if t.Status == archive.TournamentCreated || t.Status == archive.TournamentCancelled {
		var b strings.Builder
		b.WriteString(head + "\n" + ss.srv.eventTerms(ss.lang, t) + "\n\n")
		n := 0
		for _, e := range ev.entries {
			if !e.Withdrawn() {
				n++
				b.WriteString(tableRow(fmt.Sprintf("  %2d. %s", n, e.Player), 6) + "\n")
			}
		}
		if n == 0 {
			b.WriteString("  " + tr(ss.lang, "standings.noentries") + "\n")
		}
		ss.say(nil, b.String())
		return nil
	}
	sts, err := ss.standings(ev)
	if err != nil {
		return err
	}
	ss.say(nil, head+"\n\n"+ss.standingsText(ss.lang, t, sts, true))
	return nil
}

// statusWords names a tournament's status in lang.
func statusWords(lang string, st archive.TournamentStatus) string {
	switch st {
	case archive.TournamentCreated:
		return tr(lang, "tournament.status.created")
	case archive.TournamentRunning:
		return tr(lang, "tournament.status.running")
	case archive.TournamentFinished:
		return tr(lang, "tournament.status.finished")
	}
	return tr(lang, "tournament.status.cancelled")
}
