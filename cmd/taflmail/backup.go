package main

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/spf13/cobra"
)

// newBackupCommand returns `taflmail backup FILE`: a consistent copy of
// the archive, made while serve runs.
func newBackupCommand() *cobra.Command {
	var (
		file  string
		force bool
	)
	cmd := &cobra.Command{
		Use:   "backup [--force] FILE",
		Short: "Write a consistent copy of the archive to FILE, also while serve runs",
		Long: `backup copies the archive (archive.path of the configuration) to FILE as
of one moment, with SQLite's VACUUM INTO: a running 'taflmail serve' goes on
meanwhile, and the copy holds every commit up to that moment and nothing of
a later one. Do not copy the archive file with cp while serve runs: recent
commits may still be in its -wal file.

The copy gets mode 0600 (it holds every player's key), is checked (PRAGMA
quick_check) before it takes the name FILE, and is an archive of its own,
without -wal and -shm files: to restore it, stop serve and put it in
place of archive.path (docs/operations.md, Backups). An existing FILE is
refused unless --force replaces it.

Only archive.path is needed: IMAP and SMTP settings may be missing.`,
		Example: `  taflmail backup --config /etc/taflmail/taflmail.yaml /var/backups/taflmail/taflmail-$(date +%F).db`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf(cmd, "want one FILE to write the copy to, got %s", counted(len(args), "argument", "arguments"))
			}
			return nil
		},
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			store, err := openArchive(ctx, cmd, file)
			if err != nil {
				return err
			}
			defer store.Close()
			start := time.Now()
			info, err := store.Backup(ctx, args[0], force)
			if errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("%s exists: give a new name, or --force to replace it", args[0])
			}
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "backup written to %s: %d bytes, %d %s, schema version %d, in %.1f s\n",
				info.Path, info.Bytes, info.Games, plural(info.Games, "game", "games"), info.Schema, time.Since(start).Seconds())
			return err
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "replace FILE if it exists")
	addConfigFlags(cmd, &file)
	return cmd
}
