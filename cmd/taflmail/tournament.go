package main

import (
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/server"
)

// newTournamentCommand returns `taflmail tournament`, the director's
// commands (docs/tournaments.md): create, list, show, start, standings,
// withdraw, export, one file each.
func newTournamentCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tournament COMMAND",
		Short: "Run correspondence tournaments: create, list, show, start, standings, withdraw, export",
		Long: `tournament holds the director's commands for correspondence tournaments
(CORRESPONDENCE.md §6–§7, docs/tournaments.md). 'create' stores an event
from a YAML file; it starts on its start date (the running 'taflmail
serve' starts it at 00:00 UTC) or when the director says 'start'. Players
join, withdraw and ask for the standings by mail; every game runs as any
timed game. Each command reads the archive of the configuration
(archive.path); start and withdraw also send mail through the running
daemon's outbox, so they need server.address.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return unknownCommand(cmd, args[0])
			}
			return cmd.Help()
		},
	}
	cmd.PersistentFlags().String("now", "", "act as if it were this instant (RFC 3339; for tests and replays)")
	_ = cmd.PersistentFlags().MarkHidden("now")
	cmd.AddCommand(
		newTournamentCreateCommand(),
		newTournamentListCommand(),
		newTournamentShowCommand(),
		newTournamentStartCommand(),
		newTournamentStandingsCommand(),
		newTournamentWithdrawCommand(),
		newTournamentExportCommand(),
	)
	return cmd
}

// commandNow is the instant a tournament command acts at: --now, or the
// clock.
func commandNow(cmd *cobra.Command) (time.Time, error) {
	s, _ := cmd.Flags().GetString("now")
	if s == "" {
		return time.Now().UTC(), nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, usageErrorf(cmd, "--now %q: want an instant such as 2027-01-15T10:00:00Z", s)
	}
	return t.UTC(), nil
}

// loadTournament reads a tournament, its entries and its games
// (club.LoadEvent); an unknown id is an error naming it.
func loadTournament(ctx context.Context, store *archive.Store, id string, withPlies bool) (*archive.Tournament, []archive.Entry, []*archive.Game, error) {
	return club.LoadEvent(ctx, store, id, withPlies)
}

// openReferee opens the archive of the configuration and a referee on it
// (without IMAP or SMTP: the mails it queues are sent by the running
// daemon's outbox), acting at commandNow. The caller closes the store.
func openReferee(cmd *cobra.Command, file string) (*server.Server, *archive.Store, error) {
	now, err := commandNow(cmd)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := loadConfigLoose(cmd, file)
	if err != nil {
		return nil, nil, err
	}
	if cfg.Server.Address == "" {
		return nil, nil, usageErrorf(cmd, "server.address is not set: the tournament's mails come from it (--server-address, TAFLMAIL_SERVER_ADDRESS or --config FILE)")
	}
	store, err := openArchive(cmd.Context(), cmd, file)
	if err != nil {
		return nil, nil, err
	}
	o := serverOptions(cfg, store, nil, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	o.Now = func() time.Time { return now }
	if s, _ := cmd.Flags().GetString("now"); s == "" {
		o.Now = nil // the clock
	}
	srv, err := server.New(o)
	if err != nil {
		store.Close()
		return nil, nil, err
	}
	return srv, store, nil
}
