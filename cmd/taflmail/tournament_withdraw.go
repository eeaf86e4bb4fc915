package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/server"
)

// newTournamentWithdrawCommand returns `taflmail tournament withdraw ID
// ADDRESS`.
func newTournamentWithdrawCommand() *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "withdraw ID ADDRESS",
		Short: "Remove a player from a tournament (Decision T3)",
		Long: `withdraw removes a player from a tournament, as the director may. Before
the start the player is only taken off the list. In a running event a
player who finished fewer than half of their games has all of them
annulled (removed from every score; the running ones end without a
result); otherwise their finished games stand and every running game is
lost. Both players of each game ended get a mail in its thread (queued in
the outbox for the running daemon). It cannot be undone.`,
		Example:      `  taflmail tournament withdraw winter-2027 dave@example.org --config taflmail.yaml`,
		Args:         cobra.ArbitraryArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usageErrorf(cmd, "want a tournament ID and a player's ADDRESS, got %s", counted(len(args), "argument", "arguments"))
			}
			srv, store, err := openReferee(cmd, file)
			if err != nil {
				return err
			}
			defer store.Close()
			id, player := strings.ToLower(args[0]), strings.ToLower(strings.TrimSpace(args[1]))
			w, err := server.WithdrawPlayer(srv, cmd.Context(), id, player)
			if err != nil {
				return stateError(cmd.Context(), store, id, "takes no withdrawal now", "", err)
			}
			out := cmd.OutOrStdout()
			switch {
			case w.Games == 0:
				fmt.Fprintf(out, "%s withdrawn from %s before the start\n", player, id)
			case w.Annulled:
				fmt.Fprintf(out, "%s withdrawn from %s with %d of %s finished: all their games annulled, %s ended without result\n",
					player, id, w.Finished, counted(w.Games, "game", "games"), counted(len(w.Unfinished), "running game", "running games"))
			default:
				fmt.Fprintf(out, "%s withdrawn from %s with %d of %s finished: their %s lost\n",
					player, id, w.Finished, counted(w.Games, "game", "games"), counted(len(w.Unfinished), "unfinished game is", "unfinished games are"))
			}
			return nil
		},
	}
	addConfigFlags(cmd, &file)
	return cmd
}
