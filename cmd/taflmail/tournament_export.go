package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/club"
)

// newTournamentExportCommand returns `taflmail tournament export ID`.
func newTournamentExportCommand() *cobra.Command {
	var (
		file   string
		output string
	)
	cmd := &cobra.Command{
		Use:   "export ID [-o FILE]",
		Short: "Write every game of a tournament as one record file",
		Long: `export writes every game of a tournament, in schedule order, as one
native record file: each record with the event's name as its Event tag, its
Round (round.board, and .1 or .2 for the game of a match), its players,
result ("*" for a game running or annulled) and clock data. 'taflmail
validate', 'taflmail standings' and 'taflmail ratings' read it. Records do
not say who withdrew (Decision T3), so the export ends by naming the
--withdrawn flags 'taflmail standings' needs to compute the same table (on
stderr).`,
		Example: `  taflmail tournament export winter-2027 -o winter-2027.tafl
  taflmail standings --withdrawn dave@example.org winter-2027.tafl`,
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
			_, es, gs, err := loadTournament(ctx, store, strings.ToLower(args[0]), true)
			if err != nil {
				return err
			}
			data, err := club.ExportEvent(gs)
			if err != nil {
				return err
			}
			var flags []string
			for _, e := range es {
				if e.Withdrawn() && e.Section > 0 {
					flags = append(flags, "--withdrawn "+e.Player)
				}
			}
			if len(flags) > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "withdrawn players: taflmail standings %s FILE\n", strings.Join(flags, " "))
			}
			if output == "" {
				_, err = cmd.OutOrStdout().Write(data)
				return err
			}
			return os.WriteFile(output, data, 0o644)
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "write to this file instead of stdout")
	addConfigFlags(cmd, &file)
	return cmd
}
