package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/search"
)

// analyseJSON is the output of `taflmail analyse --json`; the field order
// is the output's key order.
type analyseJSON struct {
	File     string   `json:"file"`
	Game     int      `json:"game"`
	Variant  string   `json:"variant"`
	Ply      int      `json:"ply"`
	ToMove   string   `json:"to_move"`
	Best     string   `json:"best"`
	PV       []string `json:"pv"`
	Score    string   `json:"score"`
	Points   *int     `json:"points"`
	Decided  *string  `json:"decided"`
	Plies    int      `json:"plies"`
	Depth    int      `json:"depth"`
	SelDepth int      `json:"seldepth"`
	Nodes    uint64   `json:"nodes"`
	Seconds  float64  `json:"seconds"`
}

// maxAnalyseSeconds is the longest think time --time accepts: a day.
const maxAnalyseSeconds = 24 * 3600

// analyseOptions are the flags of `taflmail analyse`.
type analyseOptions struct {
	variant string
	format  string
	game    int
	ply     int
	depth   int
	time    float64
	level   int
	asJSON  bool
}

// newAnalyseCommand returns `taflmail analyse`.
func newAnalyseCommand() *cobra.Command {
	var o analyseOptions
	cmd := &cobra.Command{
		Use:   "analyse RECORD [--game N] [--ply N] [--depth N | --time S] [--json]",
		Short: "Search a position of a game record for the best line and its score",
		Long: `Replay a game record (as validate does: native, OpenTafl .otg or CSV) up to
ply N and let the engine opponent (docs/engine.md) search the position: the best
move, the line it expects, and the score for the side to move.

The score is in points, 100 to an attacker, from the side to move's view
("+0.35"), or a forced result: "win in 3" or "loss in 4" counts plies, the
final ply included.

--ply is the number of plies played before the position, from 0 (the
start) to the game's length (default: every ply of the record); plies are
moves, as validate and games count them: a final resignation or time-out
is none; a game
whose replay stops at an illegal ply can be analysed only up to that ply,
and beyond it analyse fails saying where and why, as validate does.
--game picks a game of a file with several by its number, as validate
--json, diagram and convert number them: its place among the records of
the file, for CSV its line number (default: the first game). --depth
searches to a fixed depth of 1 to 64 plies (deterministic); otherwise
--time gives the think time in seconds, more than 0 and at most 86400
(default 10, level 5's). --level chooses the evaluation terms of a level
(1–5). A value out of its range is a usage error (exit status 2), never
read as the default.

With --json, one object:
  {"file":…,"game":1,"variant":"copenhagen","ply":30,"to_move":"attackers",
   "best":"h10-i10","pv":["h10-i10",…],"score":"+0.35","points":35,
   "decided":null|"win"|"loss","plies":0,"depth":9,"seldepth":21,
   "nodes":2178261,"seconds":1.61}
"points" is null and "plies" the distance when the score is decided.`,
		Example: `  taflmail analyse game.tafl --ply 20 --time 2
  taflmail analyse ../shared/records/copenhagen.csv --game 4 --ply 30 --depth 8 --json`,
		Args:         cobra.ArbitraryArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAnalyse(cmd, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.variant, "variant", "", "rules for games whose record names none (as validate)")
	f.StringVar(&o.format, "format", "auto", "record format: auto, native, otg or csv")
	addMaxBytesFlag(cmd, new(int64), defaultMaxRecordBytes, "record file")
	f.IntVar(&o.game, "game", 0, "the game to analyse: its number in the file (CSV: its line number); default the first")
	f.IntVar(&o.ply, "ply", 0, "plies played before the position, 0 to the game's length (default: all)")
	f.IntVar(&o.depth, "depth", 0, fmt.Sprintf("search to this depth in plies, 1–%d (deterministic)", search.MaxDepth))
	f.Float64Var(&o.time, "time", 0, "think time in seconds, above 0 and up to 86400 (default 10)")
	f.IntVar(&o.level, "level", int(search.MaxLevel), "evaluation terms of this level, 1–5")
	f.BoolVar(&o.asJSON, "json", false, "print one JSON object")
	return cmd
}

// runAnalyse checks the flags, reads the position asked for and searches
// it; usage errors come first, then those of the record, then the
// search's.
func runAnalyse(cmd *cobra.Command, o analyseOptions, args []string) error {
	if len(args) != 1 {
		return usageErrorf(cmd, "want one RECORD file, got %s", counted(len(args), "argument", "arguments"))
	}
	lv, err := checkAnalyseFlags(cmd, o)
	if err != nil {
		return err
	}
	name := args[0]
	g, err := readAnalyseGame(cmd, o, name)
	if err != nil {
		return err
	}
	ply, pos, err := analysePosition(cmd, o, g, name)
	if err != nil {
		return err
	}
	s := search.New(lv.Options())
	r, err := s.Search(contextOrBackground(cmd.Context()), pos, analyseLimits(cmd, o))
	if err != nil {
		return fmt.Errorf("analyse: %w", err)
	}
	return printAnalysis(cmd.OutOrStdout(), o.asJSON, name, g.Number, g.VariantName, ply, pos.ToMove(), r)
}

// checkAnalyseFlags returns the usage error of the first of --depth and
// --time together, --depth, --time and --level that is out of its range,
// else the level to search at. A flag given is checked against its range
// even when its value is the zero that stands for "not given" (trial 2
// report §9).
func checkAnalyseFlags(cmd *cobra.Command, o analyseOptions) (search.Level, error) {
	flags := cmd.Flags()
	depthSet, timeSet := flags.Changed("depth"), flags.Changed("time")
	if depthSet && timeSet {
		return 0, usageErrorf(cmd, "--depth and --time exclude each other")
	}
	if depthSet && (o.depth < 1 || o.depth > search.MaxDepth) {
		return 0, usageErrorf(cmd, "--depth %d: want 1..%d plies", o.depth, search.MaxDepth)
	}
	if timeSet && !(o.time > 0 && o.time <= maxAnalyseSeconds) {
		return 0, usageErrorf(cmd, "--time %v: want a number of seconds above 0 and up to %d (a day)", o.time, maxAnalyseSeconds)
	}
	lv := search.Level(o.level)
	if !lv.Valid() {
		return 0, usageErrorf(cmd, "--level %d: want %d..%d", o.level, search.MinLevel, search.MaxLevel)
	}
	return lv, nil
}

// readAnalyseGame reads the record file name and returns the game
// --game picks, or the error of reading it, of picking it or of setting
// up its start position.
func readAnalyseGame(cmd *cobra.Command, o analyseOptions, name string) (*notation.Game, error) {
	ropts, err := readOptions(cmd, o.format, o.variant)
	if err != nil {
		return nil, err
	}
	games, err := readRecordFile(cmd, name, ropts)
	if err != nil {
		return nil, err
	}
	// By its number, as diagram and convert choose a game; a --game given
	// is never read as the default, 0 included.
	g, err := pickGame(cmd, games, o.game, cmd.Flags().Changed("game"), name)
	if err != nil {
		return nil, err
	}
	if g.SetupErr != nil {
		return nil, g.SetupErr
	}
	return g, nil
}

// analysePosition replays g, read from the file name, to the ply --ply
// asks for (every move when not given) and returns that ply and the
// position after it. It fails with a usage error for a --ply beyond the
// game, and when the replay stops before that ply or the game is over
// there.
func analysePosition(cmd *cobra.Command, o analyseOptions, g *notation.Game, name string) (int, *engine.Position, error) {
	// plies are moves: a final time-out or resignation is none (the
	// count of validate and of taflmail games)
	plySet := cmd.Flags().Changed("ply")
	moves := g.Moves()
	ply := moves
	if plySet {
		if o.ply < 0 || o.ply > moves {
			return 0, nil, usageErrorf(cmd, "--ply %d: want 0..%d (the plies game %d of %s has)",
				o.ply, moves, g.Number, name)
		}
		ply = o.ply
	}
	replay := g.Replay()
	if stop, why := replayStop(replay); ply > movesIn(g, stop) {
		prefix := ""
		if plySet {
			prefix = fmt.Sprintf("--ply %d: ", ply)
		}
		return 0, nil, replayStopError(prefix, g, name, movesIn(g, stop), why)
	}
	pos, _, err := replay.PositionAt(afterMoves(g, ply))
	if err != nil {
		return 0, nil, err
	}
	if out := pos.Outcome(); out.Over() {
		return 0, nil, fmt.Errorf("analyse: the game is over after ply %d: %v by %v", ply, out.Result, out.Reason)
	}
	return ply, pos, nil
}

// analyseLimits returns the search limits of the flags: the --depth
// given, else the think time of --time, else level 5's.
func analyseLimits(cmd *cobra.Command, o analyseOptions) search.Limits {
	flags := cmd.Flags()
	if flags.Changed("depth") {
		return search.Limits{Depth: o.depth}
	}
	think := search.MaxLevel.Spec().Think
	if flags.Changed("time") {
		think = time.Duration(o.time * float64(time.Second))
	}
	return search.Budget(think)
}

// printAnalysis writes the result as text or JSON.
func printAnalysis(w io.Writer, asJSON bool, file string, game int, variant string, ply int, toMove engine.Side, r search.Result) error {
	pv := make([]string, len(r.PV))
	for i, m := range r.PV {
		pv[i] = m.String()
	}
	if asJSON {
		j := analyseJSON{
			File: file, Game: game, Variant: variant, Ply: ply, ToMove: toMove.String(),
			Best: r.Move.String(), PV: pv, Score: r.Score.String(), Plies: r.Score.Plies(),
			Depth: r.Depth, SelDepth: r.SelDepth, Nodes: r.Nodes,
			Seconds: math.Round(r.Elapsed.Seconds()*1000) / 1000,
		}
		switch {
		case r.Score.IsWin():
			j.Decided = str("win")
		case r.Score.IsLoss():
			j.Decided = str("loss")
		default:
			p := int(r.Score)
			j.Points = &p
		}
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		return enc.Encode(j)
	}
	_, err := fmt.Fprintf(w, "%s, game %d of %s, after ply %d: %s to move\n"+
		"best move: %v\n"+
		"score:     %v (for the %s)\n"+
		"line:      %s\n"+
		"depth %d (selective %d), %d nodes in %.2f s (%.0f nodes/s)\n",
		variant, game, file, ply, toMove, r.Move, r.Score, toMove, strings.Join(pv, " "),
		r.Depth, r.SelDepth, r.Nodes, r.Elapsed.Seconds(), r.NodesPerSecond())
	return err
}

// contextOrBackground returns ctx, or the background context when a
// command runs without one (cobra sets none unless ExecuteContext is used).
func contextOrBackground(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}
