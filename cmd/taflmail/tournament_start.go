package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// newTournamentStartCommand returns `taflmail tournament start ID`.
func newTournamentStartCommand() *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "start ID",
		Short: "Start a tournament now, before its start date",
		Long: `start starts a tournament that is taking entries now, whatever its start
date (without this command the running 'taflmail serve' starts it at
00:00 UTC of that date). The players still entered are paired, every game
starts at once with the event's time control, and each player gets one
mail listing all their games. The mails go into the archive's outbox; the
running daemon sends them. A tournament with fewer than 3 players, or a
group of fewer than 2, does not start.`,
		Example:      `  taflmail tournament start winter-2027 --config taflmail.yaml`,
		Args:         cobra.ArbitraryArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf(cmd, "want one tournament ID, got %d arguments", len(args))
			}
			srv, store, err := openReferee(cmd, file)
			if err != nil {
				return err
			}
			defer store.Close()
			id := strings.ToLower(args[0])
			ids, err := srv.StartTournament(cmd.Context(), id)
			if err != nil {
				return err
			}
			es, err := store.Entries(cmd.Context(), id)
			if err != nil {
				return err
			}
			in := 0
			for _, e := range es {
				if !e.Withdrawn() {
					in++
				}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "started tournament %s: %d players, %d games; %d mails queued (one per player)\n", id, in, len(ids), in)
			return nil
		},
	}
	addConfigFlags(cmd, &file)
	return cmd
}
