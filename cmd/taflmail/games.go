package main

import (
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
			if asJSON {
				return writeGamesJSON(cmd.OutOrStdout(), games)
			}
			return writeGamesTable(cmd.OutOrStdout(), games, st)
		},
	}
	cmd.Flags().StringVar(&status, "status", "", "list only games with this status: invited, active, finished or declined")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per game and line")
	addConfigFlags(cmd, &file)
	return cmd
}

// writeGamesTable prints games as an aligned table, or a line saying there
// are none.
func writeGamesTable(w io.Writer, games []*archive.Game, st archive.GameStatus) error {
	if len(games) == 0 {
		if st != "" {
			_, err := fmt.Fprintf(w, "no %s games\n", st)
			return err
		}
		_, err := fmt.Fprintln(w, "no games")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tVARIANT\tATTACKERS\tDEFENDERS\tSTATUS\tPLIES\tRESULT\tUPDATED")
	for _, g := range games {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n",
			g.ID, g.Variant, g.Attackers, g.Defenders, g.Status, g.PlyCount, resultCell(g), utcStamp(g.UpdatedAt))
	}
	return tw.Flush()
}

// resultCell is a game's result for the table: "defenders (escape)",
// "draw offered by attackers" while a draw offer stands, "-" otherwise.
func resultCell(g *archive.Game) string {
	switch {
	case g.Result != "" && g.Reason != "":
		return g.Result + " (" + g.Reason + ")"
	case g.Result != "":
		return g.Result
	case g.DrawOfferBy != "":
		return "draw offered by " + g.DrawOfferBy
	}
	return "-"
}

// writeGamesJSON prints one JSON object per game and line.
func writeGamesJSON(w io.Writer, games []*archive.Game) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, g := range games {
		line := gameJSONLine{
			ID: g.ID, Variant: g.Variant, Attackers: g.Attackers, Defenders: g.Defenders,
			Challenger: g.Challenger, Status: string(g.Status), Plies: g.PlyCount,
			Result: g.Result, Reason: g.Reason, DrawOfferBy: g.DrawOfferBy,
			Created: g.CreatedAt.UTC().Format(time.RFC3339), Updated: g.UpdatedAt.UTC().Format(time.RFC3339),
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
