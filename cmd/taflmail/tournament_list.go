package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club"
)

// newTournamentListCommand returns `taflmail tournament list`.
func newTournamentListCommand() *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the tournaments of the archive",
		Long: `list prints every tournament of the archive by start date: id, status
(created: taking entries; running; finished; cancelled), players still in,
games finished of the games that count, as the crosstable counts them
(games annulled by a withdrawal, Decision T3, are neither: they follow as
"+N annulled"), variant, time control, start (the day the event started,
UTC, once it has: 'tournament start' may start it before its date; the
date of the director's file until then) and name.`,
		Args:         noArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			store, err := openArchive(ctx, cmd, file)
			if err != nil {
				return err
			}
			defer store.Close()
			ts, err := store.Tournaments(ctx, archive.TournamentFilter{})
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if len(ts) == 0 {
				_, err := fmt.Fprintln(w, "no tournaments")
				return err
			}
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tSTATUS\tPLAYERS\tGAMES\tVARIANT\tCONTROL\tSTART\tNAME")
			for _, t := range ts {
				_, es, gs, err := loadTournament(ctx, store, t.ID, false)
				if err != nil {
					return err
				}
				in := 0
				for _, e := range es {
					if !e.Withdrawn() {
						in++
					}
				}
				c, err := countGames(t, es, gs)
				if err != nil {
					return err
				}
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\n", t.ID, t.Status, in, c, t.Variant, t.TimeControl,
					startDay(t), t.Name)
			}
			return tw.Flush()
		},
	}
	addConfigFlags(cmd, &file)
	return cmd
}

// gameCount is how many games of a tournament count and have ended, as its
// crosstable counts them (tournament.Standings' Games and Finished, summed
// over the groups), and how many were annulled (Decision T3: every game of
// a player who withdrew with fewer than half of their games finished,
// those already played included).
type gameCount struct {
	finished, counted, annulled int
}

// countGames counts the games of tournament t as its standings do
// (club.EventStandings), so that list and show agree with the
// crosstable: an annulled game is neither finished nor scheduled.
func countGames(t *archive.Tournament, es []archive.Entry, gs []*archive.Game) (gameCount, error) {
	sts, err := club.EventStandings(t, es, gs)
	if err != nil {
		return gameCount{}, err
	}
	var c gameCount
	for _, st := range sts {
		c.finished += st.Finished
		c.counted += st.Games
	}
	c.annulled = max(len(gs)-c.counted, 0)
	return c, nil
}

// String writes the count as list's GAMES column: "4/12", or "2/6 +6
// annulled".
func (c gameCount) String() string {
	s := fmt.Sprintf("%d/%d", c.finished, c.counted)
	if c.annulled > 0 {
		s += fmt.Sprintf(" +%d annulled", c.annulled)
	}
	return s
}

// startDay writes the day a tournament started, UTC, once it has
// (StartedAt: 'tournament start' may start it before its start date),
// else the start date of the director's file.
func startDay(t *archive.Tournament) string {
	if !t.StartedAt.IsZero() {
		return t.StartedAt.UTC().Format("2006-01-02")
	}
	return t.StartDate.Format("2006-01-02")
}
