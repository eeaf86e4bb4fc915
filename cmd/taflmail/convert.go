package main

import (
	"bytes"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/notation"
)

// convertOptions are the flags of `taflmail convert`.
type convertOptions struct {
	to      string
	from    string
	variant string
	game    int
	output  string
}

// newConvertCommand returns `taflmail convert`.
func newConvertCommand() *cobra.Command {
	var o convertOptions
	cmd := &cobra.Command{
		Use:   "convert FILE --to native|otg|csv [-o FILE]",
		Short: "Convert game records between taflmail's, OpenTafl's and the CSV format",
		Long: `Read game records (any format validate reads), replay them, and write them in
another format: native (taflmail's canonical record, docs/notation.md), otg
(OpenTafl) or csv. Plies are written from what the engine did: lower-case
OTN, "K" before a king's move, captures as the engine makes them; the result
and termination are the engine's where the rules end the game.

An OpenTafl file holds one game: with --to otg, a file of several games
needs --game N (its number in the file; for CSV its line number). A CSV
line has no tags, comments or rules, so a game from a set-up position or
with the defenders first cannot be written as CSV, and whoever reads it
back must know the variant (--variant).

A game with problems (see taflmail validate) is converted anyway: plies the
engine could not play are copied as written, and the problems are listed on
stderr as warnings; the exit status is still 0. A result or termination
that is written otherwise than the record has it (a native Termination that
contradicts a final "---", or OpenTafl's "Black resigns" on a game the king
won by escaping) is also named in a warning.

Clock data (TimeControl, Start and the leave tags, each ply's %ts and
%avail, a final time-out) is kept by native and otg: an OpenTafl file holds
it in taflmail's own tags and comments (tm-time-control, {%ts ...},
tm-timeout), which OpenTafl keeps and ignores. CSV has no place for it:
--to csv writes the game without it, warns, and exits with status 3.`,
		Example: `  taflmail convert ../shared/records/otg/copenhagen-grandmasters-2015.otg --to native
  taflmail convert ../shared/records/brandubh.csv --to otg --game 6 -o game6.otg
  taflmail convert games.tafl --to csv -o games.csv`,
		Args:         cobra.ArbitraryArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runConvert(cmd, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.to, "to", "", "output format: native, otg or csv (required)")
	f.StringVar(&o.from, "format", "auto", "input format: auto, native, otg or csv")
	addMaxBytesFlag(cmd, new(int64), defaultMaxRecordBytes, "record file")
	f.StringVar(&o.variant, "variant", "", "rules of games whose record names none (default: from the file name, else copenhagen)")
	f.IntVar(&o.game, "game", 0, "convert only this game: its number in the file (CSV: its line number)")
	f.StringVarP(&o.output, "output", "o", "", "write to this file instead of stdout")
	return cmd
}

func runConvert(cmd *cobra.Command, o convertOptions, args []string) error {
	if len(args) != 1 {
		return usageErrorf(cmd, "want one FILE, got %d", len(args))
	}
	to, err := notation.ParseFormat(o.to)
	if err != nil || to == notation.FormatAuto {
		return usageErrorf(cmd, "--to %q: want native, otg or csv", o.to)
	}
	ropts, err := readOptions(cmd, o.from, o.variant)
	if err != nil {
		return err
	}
	name := args[0]
	games, err := readRecordFile(cmd, name, ropts)
	if err != nil {
		return err
	}
	if len(games) == 0 {
		// Nothing to write: an empty output would pass for a conversion.
		return noGameError(name)
	}
	if o.game != 0 {
		g, err := pickGame(cmd, games, o.game, true, name)
		if err != nil {
			return err
		}
		games = []*notation.Game{g}
	}
	if to == notation.FormatOTG && len(games) != 1 {
		return usageErrorf(cmd, "an OpenTafl file holds one game and %s has %d; choose one with --game N", name, len(games))
	}
	rs := make([]*notation.Replay, len(games))
	for i, g := range games {
		rs[i] = g.Replay()
		for _, e := range rs[i].Errors {
			fmt.Fprintf(cmd.ErrOrStderr(), "warning: %v\n", e)
		}
		if note := rs[i].TerminationRewritten(); note != "" {
			fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s:%d:%d: %s\n", g.Filename, g.Line, g.Col, note)
		}
	}
	var buf bytes.Buffer
	switch to {
	case notation.FormatNative:
		err = notation.WriteNative(&buf, rs...)
	case notation.FormatOTG:
		err = notation.WriteOTG(&buf, rs[0])
	case notation.FormatCSV:
		err = notation.WriteCSV(&buf, rs...)
	}
	if err != nil {
		return err
	}
	if err := writeOutput(cmd, o.output, buf.Bytes()); err != nil {
		return err
	}
	return clockDropped(cmd, to, games...)
}

// clockDropped warns on stderr, per game, about the clock data format to
// has no place for (notation.Game.ClockDropped), and then returns a
// *droppedError (exit status 3); nil when nothing was dropped.
func clockDropped(cmd *cobra.Command, to notation.Format, games ...*notation.Game) error {
	n := 0
	for _, g := range games {
		if msg := g.ClockDropped(to); msg != "" {
			fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s:%d:%d: game %d: %s\n", g.Filename, g.Line, g.Col, g.Number, msg)
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return &droppedError{fmt.Sprintf("written as %s without the clock data of %d of %s (warnings above); native and otg keep it", to, n, counted(len(games), "game", "games"))}
}
