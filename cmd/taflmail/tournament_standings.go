package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/archive"
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
			return runTournamentStandings(cmd, file, strings.ToLower(args[0]), asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per group and line")
	addConfigFlags(cmd, &file)
	return cmd
}

// runTournamentStandings prints the standings of tournament id from the
// archive of the configuration file, as JSON lines when asJSON, with the
// ratings now (the command's clock) for a rated event. It fails when the
// clock, the archive or the standings do, or the JSON output.
func runTournamentStandings(cmd *cobra.Command, file, id string, asJSON bool) error {
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
	t, es, gs, err := loadTournament(ctx, store, id, false)
	if err != nil {
		return err
	}
	sts, err := club.EventStandings(t, es, gs)
	if err != nil {
		return err
	}
	ratings := map[string]ratingNow{}
	if t.Rated {
		if ratings, err = ratingsNow(ctx, store, t.Variant, now); err != nil {
			return err
		}
	}
	if asJSON {
		return writeTournamentStandingsJSON(cmd.OutOrStdout(), sts, ratings, t.Rated)
	}
	writeTournamentStandingsText(cmd.OutOrStdout(), t, sts, ratings)
	return nil
}

// ratingsNow returns the rating at now of every player on the rating
// list of variant, by address, rating and RD rounded to two places. It
// fails when the archive does.
func ratingsNow(ctx context.Context, store *archive.Store, variant string, now time.Time) (map[string]ratingNow, error) {
	ratings := map[string]ratingNow{}
	rs, err := store.Ratings(ctx, variant)
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		g := club.RatingAt(r, now)
		ratings[r.Player] = ratingNow{Rating: round(g.R, 2), RD: round(g.RD, 2), Games: r.Games}
	}
	return ratings, nil
}

// writeTournamentStandingsJSON writes one JSON object per group of sts
// and line, with the ratings of the group's players when rated (a player
// without one has zeros). It fails when w does.
func writeTournamentStandingsJSON(w io.Writer, sts []*tournament.Standings, ratings map[string]ratingNow, rated bool) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, st := range sts {
		line := tournamentStandingsJSON{Standings: st}
		if rated {
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

// writeTournamentStandingsText writes the crosstable of each group of
// sts, a blank line between groups, and for a rated tournament t the
// rating now of each player in crosstable order ("no rating yet" for a
// player without one).
func writeTournamentStandingsText(w io.Writer, t *archive.Tournament, sts []*tournament.Standings, ratings map[string]ratingNow) {
	for i, st := range sts {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprint(w, st.Text())
	}
	if t.Rated {
		fmt.Fprintf(w, "\nRatings in %s now (Glicko-2):\n", t.Variant)
		for _, st := range sts {
			for _, r := range st.Rows {
				if rt, ok := ratings[r.Player]; ok {
					fmt.Fprintf(w, "  %-36s %7.1f  RD %5.1f  %s\n", r.Player, rt.Rating, rt.RD, counted(rt.Games, "game", "games"))
				} else {
					fmt.Fprintf(w, "  %-36s no rating yet (1500)\n", r.Player)
				}
			}
		}
	}
}
