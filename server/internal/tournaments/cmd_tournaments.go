package tournaments

import (
	"fmt"
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/referee"
)

func init() {
	referee.Handle("tournaments", tournaments)
	referee.HelpLine(84, "help.tournaments")
}

// tournaments answers "tournaments" ("turniere"): the events that take
// entries by mail (until their closing day) and those running, each with
// the command that goes with it. Anyone may ask.
func tournaments(ss *referee.Session, _ *grammar.TournamentsCommand) error {
	created, err := ss.Server.TournamentPort().Tournaments(ss.Ctx, archive.TournamentFilter{Status: archive.TournamentCreated})
	if err != nil {
		return err
	}
	running, err := ss.Server.TournamentPort().Tournaments(ss.Ctx, archive.TournamentFilter{Status: archive.TournamentRunning})
	if err != nil {
		return err
	}
	var open []string
	for _, t := range created {
		if !entryOpen(t, ss.Now) {
			continue
		}
		es, err := ss.Server.TournamentPort().Entries(ss.Ctx, t.ID)
		if err != nil {
			return err
		}
		n := 0
		for _, e := range es {
			if !e.Withdrawn() {
				n++
			}
		}
		open = append(open, fmt.Sprintf("  %s  %s\n    %s", t.ID, t.Name,
			referee.Trn(ss.Lang, "tournaments.open", n, t.Variant, t.TimeControl, catalog.Day(ss.Lang, t.StartDate), catalog.Day(ss.Lang, t.EntryCloses), n, t.ID)))
	}
	var run []string
	for _, t := range running {
		run = append(run, fmt.Sprintf("  %s  %s\n    %s", t.ID, t.Name, referee.Tr(ss.Lang, "tournaments.running", t.Variant, t.TimeControl, t.ID)))
	}
	if len(open) == 0 && len(run) == 0 {
		ss.Say(nil, referee.Tr(ss.Lang, "tournaments.none"))
		return nil
	}
	var b strings.Builder
	if len(open) > 0 {
		b.WriteString(referee.Tr(ss.Lang, "tournaments.open.header") + "\n" + strings.Join(open, "\n") + "\n")
	}
	if len(run) > 0 {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(referee.Tr(ss.Lang, "tournaments.running.header") + "\n" + strings.Join(run, "\n") + "\n")
	}
	ss.Say(nil, b.String())
	return nil
}
