package main

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/otep"
	"github.com/taflmail/taflmail/search"
)

// engineOptions are the flags of `taflmail engine`.
type engineOptions struct {
	otep  bool
	level int
	think float64
	depth int
}

// newEngineCommand returns `taflmail engine`: its flags and their checks;
// the protocol itself is package otep.
func newEngineCommand() *cobra.Command {
	var o engineOptions
	cmd := &cobra.Command{
		Use:   "engine --otep [--level N] [--time S] [--depth N]",
		Short: "Play as an external engine over the OpenTafl Engine Protocol",
		Long: `Run the engine opponent (docs/engine.md) as an external engine of OpenTafl:
the OpenTafl Engine Protocol (OTEP, opentafl-engine-protocol.txt of the
OpenTafl project) on standard input and output, one command a line.

taflmail says 'hello' and then follows OpenTafl's commands: 'rules' (an OTN
rules string, read as taflmail reads them; rules it cannot play are answered
with 'error -1'), 'position' and 'side', 'clock', 'opponent-move', 'play'
(answered with 'move e5-e8', simple notation), 'move' (OpenTafl's
acknowledgement), 'error' (the last move was refused: it is taken back),
'analyze' (answered with 'analysis 1 LINE EVAL', the line's moves joined by
'|', EVAL in attackers' worth from the side to move's view, ±1000 less the
plies for a forced result), 'finish' and 'goodbye'. Before each 'move' it
sends a 'status' line with the depth and score. Position records are read
rank 1 first (OTN spec §1, as taflmail's notation reads them).

Every line it cannot act on is answered with the protocol's 'error': 'error 0
…' (non-critical: an unknown command, a malformed 'clock' or 'analyze', a
board it cannot read) or 'error -1 …' (critical, the game ends: rules it
cannot play, or a 'play' it cannot answer with a move, such as 'play
attackers' after 'side defenders' or a 'play' with no position).

Think time: the level's (5: 10 s; see taflmail analyse --help), or --time,
and never more than a twentieth of the clock OpenTafl reports (half of an
overtime period). The move is sent a margin before the think time is up
(a twentieth of it, 10 ms to 100 ms), counted from OpenTafl's 'play'.
--depth searches to a fixed depth instead (for tests).`,
		Example: `  taflmail engine --otep --level 4
  # OpenTafl engines/taflmail.ini: command=taflmail, arguments=engine --otep`,
		Args:         noArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !o.otep {
				return usageErrorf(cmd, "only the OpenTafl Engine Protocol is spoken: pass --otep")
			}
			lv := search.Level(o.level)
			if !lv.Valid() {
				return usageErrorf(cmd, "--level %d: want %d..%d", o.level, search.MinLevel, search.MaxLevel)
			}
			if o.think < 0 || o.depth < 0 || o.depth > search.MaxDepth {
				return usageErrorf(cmd, "--time and --depth must not be negative, --depth at most %d", search.MaxDepth)
			}
			sess := otep.NewSession(cmd.OutOrStdout(), otep.Options{
				Level: lv,
				Think: time.Duration(o.think * float64(time.Second)),
				Depth: o.depth,
			})
			return sess.Run(contextOrBackground(cmd.Context()), cmd.InOrStdin())
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.otep, "otep", false, "speak the OpenTafl Engine Protocol on stdin/stdout")
	f.IntVar(&o.level, "level", int(search.MaxLevel), "playing level, 1–5")
	f.Float64Var(&o.think, "time", 0, "think time per move in seconds (default: the level's)")
	f.IntVar(&o.depth, "depth", 0, "search every move to this depth instead of by time")
	return cmd
}
