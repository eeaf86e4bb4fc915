package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/archive"
)

// gameJSONLine is one line of `taflmail games --json`: one game. It never
// holds the players' keys.
type gameJSONLine struct {
	ID          string `json:"id"`
	Variant     string `json:"variant"`
	Attackers   string `json:"attackers"`
	Defenders   string `json:"defenders"`
	Challenger  string `json:"challenger"`
	Status      string `json:"status"`
	Plies       int    `json:"plies"`
	Result      string `json:"result"`
	Reason      string `json:"reason"`
	DrawOfferBy string `json:"draw_offer_by"`
	Created     string `json:"created"`
	Updated     string `json:"updated"`
	// TimeControl is the control of a timed game (CORRESPONDENCE.md §1),
	// absent for an untimed one; Deadline, while it runs, when the side
	// to move loses on time, and for an invited game when the invitation
	// expires (RFC 3339).
	TimeControl string `json:"time_control,omitempty"`
	Deadline    string `json:"deadline,omitempty"`
	// Rated is set for a game that counts for the ratings, with each
	// player's rating in the variant now (absent for a player without
	// one); Tournament names its event.
	Rated           bool     `json:"rated,omitempty"`
	AttackersRating *float64 `json:"attackers_rating,omitempty"`
	DefendersRating *float64 `json:"defenders_rating,omitempty"`
	Tournament      string   `json:"tournament,omitempty"`
}

// newGamesCommand returns `taflmail games`: the archive's games.
func newGamesCommand() *cobra.Command {
	var (
		file   string
		status string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "games [--status invited|active|finished|declined] [--json]",
		Short: "List the games in the archive",
		Long: `games lists the games of the archive (archive.path of the configuration),
most recently updated first: id, variant, the two players, status, the
number of plies, the result and how the game ended, and when it last
changed (UTC).

Only archive.path is needed: IMAP and SMTP settings may be missing. The
archive may be in use by a running 'taflmail serve'.

With --json it prints one JSON object per game and line:
  {"id":…,"variant":…,"attackers":…,"defenders":…,"challenger":…,
   "status":…,"plies":N,"result":""|"attackers"|"defenders"|"draw",
   "reason":…,"draw_offer_by":""|"attackers"|"defenders",
   "created":RFC 3339,"updated":RFC 3339}
The players' per-game keys are never printed.`,
		Example: `  taflmail games --config taflmail.yaml
  taflmail games --archive-path /var/lib/taflmail/taflmail.db --status active --json`,
		Args:         noArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			st := archive.GameStatus(status)
			if st != "" && !st.Valid() {
				return usageErrorf(cmd, "--status %q: want invited, active, finished or declined", status)
			}
			ctx := cmd.Context()
			store, err := openArchive(ctx, cmd, file)
			if err != nil {
				return err
			}
			defer store.Close()
			games, err := store.Games(ctx, archive.GameFilter{Status: st})
			if err != nil {
				return err
			}
			deadlines, err := store.Deadlines(ctx)
			if err != nil {
				return err
			}
			ratings, err := gameRatings(ctx, store, games)
			if err != nil {
				return err
			}
			if asJSON {
				return writeGamesJSON(cmd.OutOrStdout(), games, deadlines, ratings)
			}
			return writeGamesTable(cmd.OutOrStdout(), games, st, deadlines, ratings)
		},
	}
	cmd.Flags().StringVar(&status, "status", "", "list only games with this status: invited, active, finished or declined")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per game and line")
	addConfigFlags(cmd, &file)
	return cmd
}

// writeGamesTable prints games as an aligned table, or a line saying there
// are none.
func writeGamesTable(w io.Writer, games []*archive.Game, st archive.GameStatus, deadlines map[string]time.Time, ratings playerRatings) error {
	if len(games) == 0 {
		if st != "" {
			_, err := fmt.Fprintf(w, "no %s games\n", st)
			return err
		}
		_, err := fmt.Fprintln(w, "no games")
		return err
	}
	timed := false
	for _, g := range games {
		timed = timed || g.TimeControl != ""
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := "ID\tVARIANT\tATTACKERS\tDEFENDERS\tSTATUS\tPLIES\tRESULT\tUPDATED"
	if timed {
		header += "\tCLOCK\tDEADLINE"
	}
	fmt.Fprintln(tw, header)
	for _, g := range games {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s",
			g.ID, g.Variant, ratings.cell(g, g.Attackers), ratings.cell(g, g.Defenders), g.Status, g.PlyCount, resultCell(g), utcStamp(g.UpdatedAt))
		if timed {
			control := g.TimeControl
			if control == "" {
				control = "-"
			}
			fmt.Fprintf(tw, "\t%s\t%s", control, utcStamp(deadlines[g.ID]))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// resultCell is a game's result for the table: "defenders (escape)",
// "annulled" for a game annulled by a withdrawal (Decision T3), "draw
// offered by attackers" while a draw offer stands, "-" otherwise.
func resultCell(g *archive.Game) string {
	switch {
	case g.Result != "" && g.Reason != "":
		return g.Result + " (" + g.Reason + ")"
	case g.Result != "":
		return g.Result
	case g.Reason == "annulled":
		return g.Reason // ended without a result (Decision T3)
	case g.DrawOfferBy != "":
		return "draw offered by " + g.DrawOfferBy
	}
	return "-"
}

// writeGamesJSON prints one JSON object per game and line.
func writeGamesJSON(w io.Writer, games []*archive.Game, deadlines map[string]time.Time, ratings playerRatings) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, g := range games {
		line := gameJSONLine{
			ID: g.ID, Variant: g.Variant, Attackers: g.Attackers, Defenders: g.Defenders,
			Challenger: g.Challenger, Status: string(g.Status), Plies: g.PlyCount,
			Result: g.Result, Reason: g.Reason, DrawOfferBy: g.DrawOfferBy,
			Created: g.CreatedAt.UTC().Format(time.RFC3339), Updated: g.UpdatedAt.UTC().Format(time.RFC3339),
			TimeControl: g.TimeControl, Rated: g.Rated, Tournament: g.TournamentID,
		}
		if g.Rated {
			line.AttackersRating, line.DefendersRating = ratings.of(g, g.Attackers), ratings.of(g, g.Defenders)
		}
		if d, ok := deadlines[g.ID]; ok {
			line.Deadline = d.UTC().Format(time.RFC3339)
		}
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	return nil
}

// utcStamp writes a time for the tables: "2026-11-29 10:00 UTC", or "-"
// for the zero time.
func utcStamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// playerRatings are the players' ratings now, by variant and player.
type playerRatings map[string]map[string]float64

// gameRatings reads the ratings of the variants of the rated games among
// games (the RD is not shown, so its idle growth does not matter).
func gameRatings(ctx context.Context, store *archive.Store, games []*archive.Game) (playerRatings, error) {
	out := playerRatings{}
	for _, g := range games {
		if !g.Rated || out[g.Variant] != nil {
			continue
		}
		rs, err := store.Ratings(ctx, g.Variant)
		if err != nil {
			return nil, err
		}
		out[g.Variant] = map[string]float64{}
		for _, r := range rs {
			out[g.Variant][r.Player] = r.Value.R
		}
	}
	return out, nil
}

// of returns the rating of player in g's variant, nil when none.
func (p playerRatings) of(g *archive.Game, player string) *float64 {
	if r, ok := p[g.Variant][player]; ok {
		r = round(r, 1)
		return &r
	}
	return nil
}

// cell writes a player for the table: with the rating, "(1523)", in a
// rated game; "(new)" for a player without one yet.
func (p playerRatings) cell(g *archive.Game, player string) string {
	if !g.Rated {
		return player
	}
	if r := p.of(g, player); r != nil {
		return fmt.Sprintf("%s (%.0f)", player, *r)
	}
	return player + " (new)"
}
