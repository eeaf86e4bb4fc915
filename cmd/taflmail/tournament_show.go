package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/archive"
)

// newTournamentShowCommand returns `taflmail tournament show ID`.
func newTournamentShowCommand() *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Show one tournament: its settings, players and games",
		Long: `show prints a tournament's settings, its players (group, Berger number,
seeding rating, withdrawals: "annulled" when their games were annulled,
Decision T3) and its games in schedule order with their players, status
and result ("annulled" for every game of a player whose games were
annulled; the count of finished games leaves them out, as the crosstable
does). The players' keys are never printed.`,
		Example:      `  taflmail tournament show winter-2027`,
		Args:         cobra.ArbitraryArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf(cmd, "want one tournament ID, got %s", counted(len(args), "argument", "arguments"))
			}
			ctx := cmd.Context()
			store, err := openArchive(ctx, cmd, file)
			if err != nil {
				return err
			}
			defer store.Close()
			t, es, gs, err := loadTournament(ctx, store, strings.ToLower(args[0]), false)
			if err != nil {
				return err
			}
			return writeTournament(cmd.OutOrStdout(), t, es, gs)
		},
	}
	addConfigFlags(cmd, &file)
	return cmd
}

// writeTournament prints what show shows: the settings of t, its
// entries es and, when it has any, its games gs. It fails when w does, or
// as countGames does.
func writeTournament(w io.Writer, t *archive.Tournament, es []archive.Entry, gs []*archive.Game) error {
	writeTournamentSettings(w, t)
	if err := writeTournamentPlayers(w, es); err != nil {
		return err
	}
	if len(gs) == 0 {
		return nil
	}
	return writeTournamentGames(w, t, es, gs)
}

// writeTournamentSettings prints the heading and settings of t, one a
// line, with its start and finish when it has them.
func writeTournamentSettings(w io.Writer, t *archive.Tournament) {
	format := "round robin"
	if t.Groups > 1 {
		format = fmt.Sprintf("round robin in %d groups seeded by rating", t.Groups)
	}
	pairing := "matches of two games (one with each side)"
	if t.GamesPerPairing == 1 {
		pairing = "one game per pairing (sides by the Berger table)"
	}
	entry := "players named by the director"
	if t.OpenEntry {
		entry = "open entry by mail until " + t.EntryCloses.Format("2006-01-02")
	}
	fmt.Fprintf(w, "Tournament %s: %s\n", t.ID, t.Name)
	fmt.Fprintf(w, "Status:        %s\n", t.Status)
	fmt.Fprintf(w, "Variant:       %s\n", t.Variant)
	fmt.Fprintf(w, "Time control:  %s\n", t.TimeControl)
	fmt.Fprintf(w, "Format:        %s, %s\n", format, pairing)
	fmt.Fprintf(w, "Start:         %s\n", t.StartDate.Format("2006-01-02"))
	fmt.Fprintf(w, "Entry:         %s\n", entry)
	fmt.Fprintf(w, "Rated:         %v\n", t.Rated)
	fmt.Fprintf(w, "Leave days:    %d a year\n", t.LeaveDays)
	if !t.StartedAt.IsZero() {
		fmt.Fprintf(w, "Started:       %s\n", utcStamp(t.StartedAt))
	}
	if !t.FinishedAt.IsZero() {
		fmt.Fprintf(w, "Finished:      %s\n", utcStamp(t.FinishedAt))
	}
}

// writeTournamentPlayers prints the table of entries es: player, group,
// number, seeding rating and when a player withdrew (and whether their
// games are annulled). It fails when w does.
func writeTournamentPlayers(w io.Writer, es []archive.Entry) error {
	fmt.Fprintf(w, "\nPlayers (%d):\n", len(es))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  PLAYER\tGROUP\tNUMBER\tSEEDED\tWITHDRAWN")
	for _, e := range es {
		withdrawn := "-"
		if e.Withdrawn() {
			withdrawn = utcStamp(e.WithdrawnAt)
			if e.Annulled {
				withdrawn += " (annulled)"
			}
		}
		seeded := "-"
		if e.Section > 0 {
			seeded = fmt.Sprintf("%.0f", e.Rating)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", e.Player, dash(e.Section), dash(e.Number), seeded, withdrawn)
	}
	return tw.Flush()
}

// writeTournamentGames prints how many games of t count and are
// finished, then the table of games gs, round (with the group when there
// are groups), id, players, status, plies and result; a game of a player
// whose games are annulled (entries es, Decision T3) says so. It fails
// when w does, or as countGames does.
func writeTournamentGames(w io.Writer, t *archive.Tournament, es []archive.Entry, gs []*archive.Game) error {
	c, err := countGames(t, es, gs)
	if err != nil {
		return err
	}
	if c.annulled > 0 {
		fmt.Fprintf(w, "\nGames (%d of %d finished; %d annulled):\n", c.finished, c.counted, c.annulled)
	} else {
		fmt.Fprintf(w, "\nGames (%d of %d finished):\n", c.finished, c.counted)
	}
	annulled := map[string]bool{} // players whose every game is annulled (Decision T3)
	for _, e := range es {
		if e.Annulled {
			annulled[e.Player] = true
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  ROUND\tID\tATTACKERS\tDEFENDERS\tSTATUS\tPLIES\tRESULT")
	for _, g := range gs {
		result := resultCell(g)
		if (annulled[g.Attackers] || annulled[g.Defenders]) && result != "annulled" {
			result += ", annulled" // played before the withdrawal, but it counts no more
		}
		round := "-"
		if g.Event != nil {
			if g.Event.Pairing.Section > 1 || t.Groups > 1 {
				round = fmt.Sprintf("%d:", g.Event.Pairing.Section)
			} else {
				round = ""
			}
			round += g.Event.RoundTag()
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%d\t%s\n", round, g.ID, g.Attackers, g.Defenders, g.Status, g.PlyCount, result)
	}
	return tw.Flush()
}

// dash writes a number, or "-" for 0.
func dash(n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprint(n)
}
