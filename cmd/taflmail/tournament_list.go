package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/archive"
)

// newTournamentListCommand returns `taflmail tournament list`.
func newTournamentListCommand() *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the tournaments of the archive",
		Long: `list prints every tournament of the archive by start date: id, status
(created: taking entries; running; finished; cancelled), players still in,
games finished of games scheduled, variant, time control, start date and
name.`,
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
				in, finished := 0, 0
				for _, e := range es {
					if !e.Withdrawn() {
						in++
					}
				}
				for _, g := range gs {
					if g.Status == archive.Finished {
						finished++
					}
				}
				fmt.Fprintf(tw, "%s\t%s\t%d\t%d/%d\t%s\t%s\t%s\t%s\n", t.ID, t.Status, in, finished, len(gs), t.Variant, t.TimeControl,
					t.StartDate.Format("2006-01-02"), t.Name)
			}
			return tw.Flush()
		},
	}
	addConfigFlags(cmd, &file)
	return cmd
}
