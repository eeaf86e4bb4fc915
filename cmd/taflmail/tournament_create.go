package main

import (
	"crypto/rand"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club"
)

// newTournamentCreateCommand returns `taflmail tournament create FILE`.
func newTournamentCreateCommand() *cobra.Command {
	var file string
	var limit int64
	cmd := &cobra.Command{
		Use:   "create FILE.yaml",
		Short: "Store a tournament described by a YAML file",
		Long: `create reads a tournament file (docs/tournaments.md: id, name, variant,
time control, format, games per pairing, start date, rated, leave days,
and either the players or the day open entry by mail closes), checks every
key and stores the event in the archive, taking entries until it starts.
Every problem is reported at its line (FILE:LINE: …) and nothing is
stored. A file larger than --max-bytes (1 MiB) is refused unread. The event starts on its start date (00:00 UTC, by the running
'taflmail serve') or with 'taflmail tournament start ID'.`,
		Example:      `  taflmail tournament create winter-2027.yaml --config taflmail.yaml`,
		Args:         cobra.ArbitraryArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf(cmd, "want one FILE, got %s", counted(len(args), "argument", "arguments"))
			}
			data, err := readFileLimited(cmd, args[0], limit)
			if err != nil {
				return err
			}
			now, err := commandNow(cmd)
			if err != nil {
				return err
			}
			cfg, err := loadArchiveConfig(cmd.Flags(), file)
			if err != nil {
				return err
			}
			// the server's allowance is the default (clock.leave_days)
			terms := club.TournamentTerms{LeaveDays: cfg.Clock.LeaveDays, MaxPlayers: cfg.Server.MaxTournamentPlayers, Address: cfg.Server.Address}
			f, err := club.ReadTournamentFile(args[0], data, now, terms)
			if err != nil {
				return err
			}
			store, err := openArchive(cmd.Context(), cmd, file)
			if err != nil {
				return err
			}
			defer store.Close()
			t := &f.Tournament
			tc := &archive.TournamentChange{Tournaments: []*archive.Tournament{t}}
			for i, p := range f.Players {
				key, err := entryKey()
				if err != nil {
					return err
				}
				tc.Entries = append(tc.Entries, archive.Entry{TournamentID: t.ID, Player: p, Key: key, Seq: i + 1, JoinedAt: now})
			}
			err = store.Commit(cmd.Context(), archive.Change{Writes: []archive.Write{tc}})
			if errors.Is(err, archive.ErrConflict) {
				return fmt.Errorf("%s: a tournament %q exists already ('taflmail tournament show %s')", args[0], t.ID, t.ID)
			}
			if err != nil {
				return err
			}
			entry := counted(len(f.Players), "player", "players")
			if t.OpenEntry {
				entry = "open entry by mail (join " + t.ID + ") until " + t.EntryCloses.Format("2006-01-02")
			}
			fmt.Fprintf(cmd.OutOrStdout(), "created tournament %s (%s): %s, %s, %s; starts %s\n", t.ID, t.Name, t.Variant,
				t.TimeControl, entry, t.StartDate.Format("2006-01-02"))
			return nil
		},
	}
	addConfigFlags(cmd, &file)
	addMaxBytesFlag(cmd, &limit, defaultMaxTournamentBytes, "tournament file")
	return cmd
}

// entryKey returns a fresh key for an entry: ten characters of the game
// keys' alphabet (docs/security.md), mailed only to the player, who
// confirms a withdrawal with it.
func entryKey() (string, error) {
	const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"
	b := make([]byte, 10)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	var s strings.Builder
	for _, c := range b {
		s.WriteByte(alphabet[c%32])
	}
	return s.String(), nil
}
