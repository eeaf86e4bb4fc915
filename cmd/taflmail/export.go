package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/notation"
)

// newExportCommand returns `taflmail export GAME`: one archived game as a
// record file.
func newExportCommand() *cobra.Command {
	var (
		file   string
		to     string
		output string
	)
	cmd := &cobra.Command{
		Use:   "export GAME [--to native|otg|csv] [-o FILE]",
		Short: "Write one game of the archive as a record (native, OpenTafl or CSV)",
		Long: `export replays one game of the archive (archive.path of the configuration)
through the engine and writes it as a game record, in the canonical form of
'taflmail convert': native (taflmail's record, docs/notation.md; the form
of the record files in archive.records_dir), otg (OpenTafl) or csv (one
line; it cannot hold a game that starts from a set-up position, nor a
timed game's clock data: that is dropped with a warning, exit status 3). The
record names the players and the date the game was created; an unfinished
game has result "*". 'taflmail validate' accepts what export writes.

GAME is the game id from the mails' subject, e.g. K7QX2M (any case). Only
archive.path is needed: IMAP and SMTP settings may be missing.`,
		Example: `  taflmail export K7QX2M --config taflmail.yaml > K7QX2M.tafl
  taflmail export K7QX2M --to otg -o K7QX2M.otg`,
		Args:         cobra.ArbitraryArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf(cmd, "want one GAME id, got %s", counted(len(args), "argument", "arguments"))
			}
			format, err := notation.ParseFormat(to)
			if err != nil || format == notation.FormatAuto {
				return usageErrorf(cmd, "--to %q: want native, otg or csv", to)
			}
			g, err := loadStoredGame(cmd, file, args[0])
			if err != nil {
				return err
			}
			r, err := g.Replay()
			if err != nil {
				return err
			}
			warnReplay(cmd, g, r)
			var buf bytes.Buffer
			if err := club.WriteRecord(&buf, r, format); err != nil {
				return fmt.Errorf("game %s as %s: %w", g.ID, format, err)
			}
			if output == "" {
				_, err = cmd.OutOrStdout().Write(buf.Bytes())
			} else {
				err = os.WriteFile(output, buf.Bytes(), 0o644)
			}
			if err != nil {
				return err
			}
			return clockDropped(cmd, format, r.Game)
		},
	}
	cmd.Flags().StringVar(&to, "to", "native", "record format: native, otg or csv")
	cmd.Flags().StringVarP(&output, "output", "o", "", "write to this file instead of stdout")
	addConfigFlags(cmd, &file)
	return cmd
}
