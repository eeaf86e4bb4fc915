package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/tournament"
)

// tournamentStandingsJSON is one line of `taflmail tournament standings
// --json`: the JSON of `taflmail standings --json` (tournament.Standings)
// with, for a rated event, each player's rating now.
type tournamentStandingsJSON struct {
	*tournament.Standings
	Ratings map[string]ratingNow `json:"ratings,omitempty"`
}

// ratingNow is a player's rating in the event's variant as the archive
// holds it, the RD grown for the idle time.
type ratingNow struct {
	Rating float64 `json:"rating"`
	RD     float64 `json:"rd"`
	Games  int     `json:"games"`
}

// newTournamentStandingsCommand returns `taflmail tournament standings ID`.
func newTournamentStandingsCommand() *cobra.Command {
	var (
		file   string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "standings ID [--json]",
		Short: "Print a tournament's crosstable from the archive",
		Long: `standings prints the standings of a tournament as the referee keeps them
(Decisions T2 and T3: points, Sonneborn–Berger, wins, points among the
players still level, shared places; withdrawals): the crosstable of
'taflmail standings' for each group, and for a rated event each player's
Glicko-2 rating now. With --json one object per group and line, the
fields of 'taflmail standings --json' and "ratings" (player → rating, RD,
games) for a rated event.`,
		Example:      `  taflmail tournament standings winter-2027 --json`,
		Args:         cobra.ArbitraryArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf(cmd, "want one tournament ID, got %s", counted(len(args), "argument", "arguments"))
			}
			now, err := commandNow(cmd)
			if err != nil {
				return err
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
			sts, err := club.EventStandings(t, es, gs)
			if err != nil {
				return err
			}
			ratings := map[string]ratingNow{}
			if t.Rated {
				rs, err := store.Ratings(ctx, t.Variant)
				if err != nil {
					return err
				}
				for _, r := range rs {
					g := club.RatingAt(r, now)
					ratings[r.Player] = ratingNow{Rating: round(g.R, 2), RD: round(g.RD, 2), Games: r.Games}
				}
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetEscapeHTML(false)
				for _, st := range sts {
					line := tournamentStandingsJSON{Standings: st}
					if t.Rated {
						line.Ratings = map[string]ratingNow{}
						for _, r := range st.Rows {
							line.Ratings[r.Player] = ratings[r.Player]
						}
					}
					if err := enc.Encode(line); err != nil {
						return err
					}
				}
				return nil
			}
			for i, st := range sts {
				if i > 0 {
					fmt.Fprintln(out)
				}
				fmt.Fprint(out, st.Text())
			}
			if t.Rated {
				fmt.Fprintf(out, "\nRatings in %s now (Glicko-2):\n", t.Variant)
				for _, st := range sts {
					for _, r := range st.Rows {
						if rt, ok := ratings[r.Player]; ok {
							fmt.Fprintf(out, "  %-36s %7.1f  RD %5.1f  %s\n", r.Player, rt.Rating, rt.RD, counted(rt.Games, "game", "games"))
						} else {
							fmt.Fprintf(out, "  %-36s no rating yet (1500)\n", r.Player)
						}
					}
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per group and line")
	addConfigFlags(cmd, &file)
	return cmd
}
