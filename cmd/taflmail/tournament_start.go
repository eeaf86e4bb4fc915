package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server"
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
starts at once with the event's time control, each player gets one
mail listing all their games, and each spectator who follows every move
of the event one listing its games; the count of mails printed names
both. The mails go into the archive's outbox; a running 'taflmail serve'
on the same archive sends them within seconds (it looks at the outbox
every 5 s while it waits for mail), and a stopped one when it starts.
A tournament with fewer than 3 players, or a
group of fewer than 2, does not start.`,
		Example:      `  taflmail tournament start winter-2027 --config taflmail.yaml`,
		Args:         cobra.ArbitraryArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf(cmd, "want one tournament ID, got %s", counted(len(args), "argument", "arguments"))
			}
			srv, store, err := openReferee(cmd, file)
			if err != nil {
				return err
			}
			defer store.Close()
			id := strings.ToLower(args[0])
			r, err := server.StartTournamentCounted(srv, cmd.Context(), id)
			if err != nil {
				return stateError(cmd.Context(), store, id, "cannot be started", "only a tournament that has not started yet can be", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "started tournament %s: %s, %s; %s\n%s\n", id, counted(r.Players, "player", "players"), counted(r.Games, "game", "games"), queuedText(r), whenSent)
			return nil
		},
	}
	addConfigFlags(cmd, &file)
	return cmd
}

// stateError says server.ErrTournamentState in the director's words,
// without the server package's prefix: tournament id cannot do what the
// command asks (what, "cannot be started") because of where it is, its
// status read from store, then what it would take (need, "" for
// nothing): "tournament spring-2027 cannot be started: it is running;
// only a tournament that has not started yet can be" (outside trial §15,
// where the error read like an internal one). Any other error, and one
// whose tournament cannot be read, is returned as it is.
func stateError(ctx context.Context, store *archive.Store, id, what, need string, err error) error {
	if !errors.Is(err, server.ErrTournamentState) {
		return err
	}
	t, terr := store.Tournament(ctx, id)
	if terr != nil {
		return err
	}
	if need != "" {
		need = "; " + need
	}
	return fmt.Errorf("tournament %s %s: it is %s%s", id, what, t.Status, need)
}

// whenSent says when the mails a director's command queued leave: the
// running daemon's outbox watch (server.DefaultOutboxPoll) sends them,
// whatever its wait for mail (issue 22 §10).
var whenSent = fmt.Sprintf("a running 'taflmail serve' on this archive sends them within %d seconds; a stopped one when it starts",
	int(server.DefaultOutboxPoll/time.Second))

// queuedText says how many mails a tournament's start queued and for
// whom: "3 mails queued (one per player)" without spectators, "4 mails
// queued (3 players, 1 spectator)" with one who follows every move.
func queuedText(r server.TournamentStarted) string {
	n := r.PlayerMails + r.SpectatorMails
	if r.SpectatorMails == 0 {
		return fmt.Sprintf("%d %s queued (one per player)", n, plural(n, "mail", "mails"))
	}
	return fmt.Sprintf("%d %s queued (%d %s, %d %s)", n, plural(n, "mail", "mails"),
		r.PlayerMails, plural(r.PlayerMails, "player", "players"), r.SpectatorMails, plural(r.SpectatorMails, "spectator", "spectators"))
}

// counted writes n things: "1 game" (one) when n is 1, else "3 games"
// (many); issue 22 §4.
func counted(n int, one, many string) string { return fmt.Sprintf("%d %s", n, plural(n, one, many)) }

// plural returns one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
