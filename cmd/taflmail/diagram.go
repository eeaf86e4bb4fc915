package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/notation/picture"
)

// diagramOptions are the flags of `taflmail diagram`.
type diagramOptions struct {
	position string
	variant  string
	to       string // --to: ascii, unicode, svg or png
	format   string // --format: record format, as in validate and convert
	input    string // --input: the old name of --format, hidden
	game     int
	ply      int
	output   string
}

// newDiagramCommand returns `taflmail diagram`.
func newDiagramCommand() *cobra.Command {
	o := diagramOptions{ply: -1}
	cmd := &cobra.Command{
		Use:   "diagram FILE|--position OTN [--format auto|native|otg|csv] [--variant NAME] [--game N] [--ply N] [--to ascii|unicode|svg|png] [-o FILE]",
		Short: "Draw a board from a game record or an OTN position",
		Long: `Draw the board of a game record after a given ply, or of an OTN position.

From a record (any format validate reads; --format names it as there):
--game N picks the game (its number in the file, for CSV its line number;
default the first), --ply N the position after N plies (0 is the start;
default after the last ply; plies are moves, as validate and games count
them: a final resignation or time-out is none). The last ply's squares and the pieces it
captured are marked. After the last ply of a finished game the last line
says how it ended, a resignation, time-out or agreed draw included.

A game whose replay stops at an illegal ply (see taflmail validate) is
drawn, without --ply, after the last ply the replay played, and a warning
on stderr says where and why it stopped, e.g.
  warning: mut.csv:843:39: ply 7 (attackers) e11-e10: e10 is occupied; the
  board is drawn after ply 6, where the replay stopped
(exit status 0, as convert's warnings); --ply beyond that ply fails with
the same reason (exit status 1).

From a position: --position takes an OTN position record, rank 1 first,
optionally followed by the side to move ("attackers", the default, or
"defenders"), e.g.
  --position "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ defenders"
--variant names its rules; without it, the first built-in variant of the
board's size (7 brandubh, 9 tablut, 11 copenhagen, 13 copenhagen13, 19 alea).

--to chooses the drawing: ascii (7-bit, at most 72 columns: the board of
mail replies), unicode (the same for terminals), svg and png (pictures).
Output goes to stdout, or to the file -o names.

Older spellings still work, with a notice on stderr: --input for --format,
and --format ascii|unicode|svg|png for --to.`,
		Example: `  taflmail diagram ../shared/records/brandubh.csv --game 6 --ply 15
  taflmail diagram --position "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/" --to unicode
  taflmail diagram game.tafl --to png -o board.png`,
		Args:         cobra.ArbitraryArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.resolveOldFlags(cmd); err != nil {
				return err
			}
			return runDiagram(cmd, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.position, "position", "", "draw this OTN position (rank 1 first), optionally followed by the side to move")
	f.StringVar(&o.variant, "variant", "", "rules of the position, or of a record that names none")
	f.StringVar(&o.to, "to", "ascii", "drawing: ascii, unicode, svg or png")
	f.StringVar(&o.format, "format", "auto", "record format: auto, native, otg or csv")
	addMaxBytesFlag(cmd, new(int64), defaultMaxRecordBytes, "record file")
	f.StringVar(&o.input, "input", "", "the old name of --format")
	_ = f.MarkHidden("input")
	f.IntVar(&o.game, "game", 0, "the game to draw: its number in the file (CSV: its line number); default the first")
	f.IntVar(&o.ply, "ply", -1, "draw the position after this many plies, 0 (the start) to the game's length (default: after the last)")
	// -1 stands for "not given", which the usage line says in words: pflag
	// prints no default for an int flag whose DefValue is its zero
	f.Lookup("ply").DefValue = "0"
	f.StringVarP(&o.output, "output", "o", "", "write to this file instead of stdout")
	return cmd
}

// resolveOldFlags maps the flags diagram had before --format meant the
// record format, as in validate and convert: --input (now --format) and
// --format with a drawing (now --to). Each prints a one-line notice on
// stderr; giving the old and the new spelling together is a usage error.
func (o *diagramOptions) resolveOldFlags(cmd *cobra.Command) error {
	f := cmd.Flags()
	if _, isDrawing := diagramWriters[o.format]; isDrawing && f.Changed("format") {
		if f.Changed("to") {
			return usageErrorf(cmd, "--format %q is a drawing, which --to already names; --format is the record format (auto, native, otg or csv)", o.format)
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: --format %s names a drawing: use --to %s (--format is now the record format, as in validate and convert)\n", cmd.CommandPath(), o.format, o.format)
		o.to, o.format = o.format, "auto"
	}
	if f.Changed("input") {
		if f.Changed("format") && o.format != "auto" {
			return usageErrorf(cmd, "--input is the old name of --format: give only --format")
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: --input is deprecated: use --format %s (the record format, as in validate and convert)\n", cmd.CommandPath(), o.input)
		o.format = o.input
	}
	return nil
}

// diagramWriters are the drawings of taflmail diagram (--to).
var diagramWriters = map[string]func(io.Writer, *engine.Position, ...notation.DiagramOption) error{
	"ascii":   notation.WriteASCII,
	"unicode": notation.WriteUnicode,
	"svg":     picture.WriteSVG,
	"png":     picture.WritePNG,
}

func runDiagram(cmd *cobra.Command, o diagramOptions, args []string) error {
	write, ok := diagramWriters[o.to]
	if !ok {
		return usageErrorf(cmd, "--to %q: want ascii, unicode, svg or png", o.to)
	}
	var pos *engine.Position
	var opts []notation.DiagramOption
	switch {
	case o.position != "" && len(args) > 0:
		return usageErrorf(cmd, "give a FILE or --position, not both")
	case o.position != "":
		if o.game != 0 || cmd.Flags().Changed("ply") {
			return usageErrorf(cmd, "--game and --ply apply to a FILE, not to --position")
		}
		var err error
		if pos, err = positionFromFlag(cmd, o); err != nil {
			return err
		}
	case len(args) == 1:
		var err error
		if pos, opts, err = positionFromFile(cmd, o, args[0]); err != nil {
			return err
		}
	case len(args) == 0:
		return usageErrorf(cmd, "give a FILE or --position")
	default:
		return usageErrorf(cmd, "one FILE only, got %d", len(args))
	}
	var buf bytes.Buffer
	if err := write(&buf, pos, opts...); err != nil {
		return err
	}
	return writeOutput(cmd, o.output, buf.Bytes())
}

// writeOutput writes data to the file named by -o, or to stdout.
func writeOutput(cmd *cobra.Command, name string, data []byte) error {
	if name == "" {
		_, err := cmd.OutOrStdout().Write(data)
		return err
	}
	return os.WriteFile(name, data, 0o644)
}

// positionFromFlag sets up the position --position gives.
func positionFromFlag(cmd *cobra.Command, o diagramOptions) (*engine.Position, error) {
	b, side, err := notation.ParsePosition(o.position)
	if err != nil {
		return nil, usageErrorf(cmd, "--position: %v", err)
	}
	var v *engine.Variant
	if o.variant != "" {
		var ok bool
		if v, ok = engine.Lookup(o.variant); !ok {
			return nil, usageErrorf(cmd, "unknown variant %q (see taflmail variants)", o.variant)
		}
	} else {
		for _, c := range engine.Variants() {
			if c.Size == b.Size {
				v = c
				break
			}
		}
		if v == nil {
			return nil, usageErrorf(cmd, "no built-in variant has a %d×%d board; name one with --variant", b.Size, b.Size)
		}
	}
	pos, err := engine.NewPositionFromBoard(v, b, side)
	if err != nil {
		return nil, usageErrorf(cmd, "--position under %s: %v", v.Name, err)
	}
	return pos, nil
}

// positionFromFile replays the chosen game of a record up to the chosen
// ply.
func positionFromFile(cmd *cobra.Command, o diagramOptions, name string) (*engine.Position, []notation.DiagramOption, error) {
	ropts, err := readOptions(cmd, o.format, o.variant)
	if err != nil {
		return nil, nil, err
	}
	games, err := readRecordFile(cmd, name, ropts)
	if err != nil {
		return nil, nil, err
	}
	g, err := pickGame(cmd, games, o.game, o.game != 0, name)
	if err != nil {
		return nil, nil, err
	}
	r := g.Replay()
	n := o.ply
	// -1 is the flag's "not given"; given, it must be a ply of the game
	// (trial 2 report §9)
	// plies are moves, as analyse, validate and games count them: a
	// final time-out or resignation is none
	plySet := cmd.Flags().Changed("ply")
	moves := g.Moves()
	if plySet && (n < 0 || n > moves) {
		return nil, nil, usageErrorf(cmd, "--ply %d: want 0..%d (the plies game %d has)", n, moves, g.Number)
	}
	if e := r.Err(); r.Final == nil && e != nil {
		return nil, nil, e // the game could not be set up
	}
	stop, why := replayStop(r)
	played := movesIn(g, stop)
	switch {
	case !plySet && stop < len(g.Plies):
		// The board where the replay stopped, and why on stderr: the
		// drawing on stdout stays a drawing (found by a new-user trial of the record readers, 2026-12-01).
		n = played
		fmt.Fprintf(cmd.ErrOrStderr(), "warning: %v; the board is drawn after ply %d, where the replay stopped\n", why, n)
	case !plySet:
		n = moves
	case n > played:
		return nil, nil, replayStopError(fmt.Sprintf("--ply %d: ", n), g, name, played, why)
	}
	pos, last, err := r.PositionAt(afterMoves(g, n))
	if err != nil {
		return nil, nil, err
	}
	var opts []notation.DiagramOption
	if last.Played {
		opts = append(opts, notation.WithLastMove(last.Move), notation.WithCaptures(last.Captures...))
	}
	if n == moves && stop == len(g.Plies) {
		// A resignation, time-out or agreed draw leaves the board as it
		// was: say how the game ended rather than whose ply is next.
		opts = append(opts, notation.WithOutcome(r.Outcome()))
	}
	return pos, opts, nil
}
