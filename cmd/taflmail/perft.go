package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/engine"
)

// maxPerftNodes is how many positions, estimated over all depths asked for,
// perft counts without --force. Copenhagen depth 4 (about 5e7) is well
// inside; depth 5 (estimated 5.4e9, minutes on one core) and anything
// deeper (hours) is refused.
const maxPerftNodes = 5e9

// maxPerftDepth is the deepest depth in plies perft accepts, even with
// --force. Brandubh, the smallest built-in variant, would count about 7e29
// positions at depth 20 (about 1e15 years at typicalNodesPerSecond), past
// what a uint64 node count can hold, so nothing deeper is a depth anyone
// can mean; refusing it before the estimate keeps a mistyped depth from
// allocating or looping in proportion to it.
const maxPerftDepth = 20

// typicalNodesPerSecond is the single-core perft speed the refusal message
// converts an estimate into time with: the order of magnitude measured for
// Copenhagen in docs/performance.md.
const typicalNodesPerSecond = 2e7

// perftJSON is one line of `taflmail perft --json`; the field order is the
// output's key order.
type perftJSON struct {
	Variant string  `json:"variant"`
	Depth   int     `json:"depth"`
	Nodes   uint64  `json:"nodes"`
	Ends    uint64  `json:"ends"`
	Seconds float64 `json:"seconds"`
}

// perftOptions are the flags of `taflmail perft` and the node limit.
type perftOptions struct {
	variant  string
	depth    int
	asJSON   bool
	parallel bool
	force    bool
	maxNodes float64 // refuse above this estimate unless force
}

// newPerftCommand returns `taflmail perft` with the standard node limit.
func newPerftCommand() *cobra.Command { return newPerftCommandLimit(maxPerftNodes) }

// newPerftCommandLimit returns `taflmail perft` refusing to count more than
// maxNodes estimated positions without --force; tests pass a small limit.
func newPerftCommandLimit(maxNodes float64) *cobra.Command {
	o := perftOptions{maxNodes: maxNodes}
	cmd := &cobra.Command{
		Use:   "perft",
		Short: "Count the positions reachable from a variant's start position",
		Long: fmt.Sprintf(`Count the positions reached after exactly 1, 2, …, depth plies from the start
position of a built-in variant (see taflmail variants), along lines on which no
earlier ply ended the game, and how many of them end the game ("ends"), as
../shared/cases/perft.md defines them. Prints the time and speed of each depth.

With --json, one JSON object per depth and line:
  {"variant":"copenhagen","depth":3,"nodes":806344,"ends":0,"seconds":0.04}

Before counting, perft estimates the work from the branching factors of the
two sides (perft 1, and perft 2 / perft 1). It refuses when the estimate for
all depths asked for exceeds %s positions (Copenhagen depth 5 and deeper:
minutes to hours); --force runs it anyway. The depth is at most %d plies,
with or without --force.`, sci(maxPerftNodes), maxPerftDepth),
		Example: `  taflmail perft --variant copenhagen --depth 3
  taflmail perft --variant brandubh --depth 5 --parallel --json`,
		Args:         noArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runPerft(cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.variant, "variant", "copenhagen", "built-in variant to count (see taflmail variants)")
	f.IntVar(&o.depth, "depth", 3, fmt.Sprintf("deepest depth in plies, 1 to %d", maxPerftDepth))
	f.BoolVar(&o.asJSON, "json", false, "print one JSON object per depth and line")
	f.BoolVar(&o.parallel, "parallel", false, fmt.Sprintf("spread the count over GOMAXPROCS goroutines (here %d)", runtime.GOMAXPROCS(0)))
	f.BoolVar(&o.force, "force", false, "run even when the estimate is over the limit")
	return cmd
}

// runPerft checks the options, then counts and prints depth 1..o.depth.
func runPerft(cmd *cobra.Command, o perftOptions) error {
	v, ok := engine.Lookup(o.variant)
	if !ok {
		var names []string
		for _, v := range engine.Variants() {
			names = append(names, v.Name)
		}
		return usageErrorf(cmd, "unknown variant %q; built-in variants: %s", o.variant, strings.Join(names, ", "))
	}
	if o.depth < 1 {
		return usageErrorf(cmd, "--depth %d: the depth must be at least 1", o.depth)
	}
	if o.depth > maxPerftDepth {
		return usageErrorf(cmd, "--depth %d: the depth must be at most %d plies, even with --force "+
			"(brandubh at depth %d is already about 7e29 positions)", o.depth, maxPerftDepth, maxPerftDepth)
	}
	p, err := engine.NewPosition(v)
	if err != nil {
		return err // a built-in variant always validates
	}
	est := estimatePerft(p, o.depth)
	if est.total > o.maxNodes && !o.force {
		return usageErrorf(cmd, "--depth %d of %s would count about %s positions, over the limit of %s "+
			"(%s at %s positions a second); pass --force to run it anyway. "+
			"The estimate alternates the branching factors %s (perft 1) and %s (perft 2 / perft 1)",
			o.depth, v.Name, sci(est.total), sci(o.maxNodes),
			roughDuration(est.total/typicalNodesPerSecond), sci(typicalNodesPerSecond), g3(est.b1), g3(est.b2))
	}

	workers := 1
	if o.parallel {
		workers = runtime.GOMAXPROCS(0)
	}
	out := cmd.OutOrStdout()
	if !o.asJSON {
		noun := "worker"
		if workers != 1 {
			noun = "workers"
		}
		fmt.Fprintf(out, "perft %s: %s, from the start position, %d %s\n", v.Name, v.Title, workers, noun)
		fmt.Fprintf(out, "%5s %15s %12s %10s %12s\n", "depth", "nodes", "ends", "seconds", "nodes/s")
	}
	for d := 1; d <= o.depth; d++ {
		start := time.Now()
		var r engine.PerftResult
		if workers > 1 {
			r = engine.ParallelPerft(p, d, workers)
		} else {
			r = engine.Perft(p, d)
		}
		elapsed := time.Since(start)
		if err := printPerft(out, o.asJSON, v.Name, r, elapsed); err != nil {
			return err
		}
	}
	return nil
}

// printPerft writes one depth's result as a JSON line or a table row.
func printPerft(w io.Writer, asJSON bool, variant string, r engine.PerftResult, elapsed time.Duration) error {
	secs := elapsed.Seconds()
	if asJSON {
		line, err := json.Marshal(perftJSON{
			Variant: variant,
			Depth:   r.Depth,
			Nodes:   r.Nodes,
			Ends:    r.Ends,
			Seconds: math.Round(secs*1e6) / 1e6, // microseconds
		})
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", line)
		return err
	}
	rate := "-"
	if secs > 0 {
		rate = strconv.FormatFloat(float64(r.Nodes)/secs, 'f', 0, 64)
	}
	_, err := fmt.Fprintf(w, "%5d %15d %12d %10.3f %12s\n", r.Depth, r.Nodes, r.Ends, secs, rate)
	return err
}

// perftCost is an estimate of the work of perft to some depth.
type perftCost struct {
	n1, n2 uint64  // perft 1 and perft 2, measured
	b1, b2 float64 // moves per position for the side to move and the other side
	total  float64 // estimated nodes over depths 1..depth
}

// estimatePerft estimates the positions that perft counts over depths
// 1..depth from p. It measures perft 1 and 2 and treats the two sides'
// branching factors as constant: b1 = perft 1 for the side to move, b2 =
// perft 2 / perft 1 for the other, so perft d ≈ perft (d-1) × b1 for odd d
// and × b2 for even d. For Copenhagen that gives 787,408 for perft 3 (true
// 806,344) and 4.6e7 for perft 4 (true 50,456,804): within 10%.
func estimatePerft(p *engine.Position, depth int) perftCost {
	c := perftCost{n1: engine.Perft(p, 1).Nodes}
	if depth >= 2 {
		c.n2 = engine.Perft(p, 2).Nodes
	}
	c.b1 = float64(c.n1)
	if c.n1 > 0 {
		c.b2 = float64(c.n2) / float64(c.n1)
	}
	n := 1.0
	for d := 1; d <= depth; d++ {
		switch {
		case d == 1:
			n = float64(c.n1)
		case d == 2:
			n = float64(c.n2)
		case d%2 == 1:
			n *= c.b1
		default:
			n *= c.b2
		}
		c.total += n
	}
	return c
}

// sci formats x with two significant digits in e-notation without a plus
// sign or padding: 5.4e9, 5e9; +Inf (an estimate past float64) is
// "infinitely many".
func sci(x float64) string {
	if math.IsInf(x, 1) {
		return "infinitely many"
	}
	s := strconv.FormatFloat(x, 'e', 1, 64) // 5.4e+09, 5.0e+09
	mant, exp, _ := strings.Cut(s, "e")
	mant = strings.TrimSuffix(mant, ".0")
	sign := ""
	if strings.HasPrefix(exp, "-") {
		sign = "-"
	}
	exp = strings.TrimLeft(exp[1:], "0")
	if exp == "" {
		return mant
	}
	return mant + "e" + sign + exp
}

// roughDuration says how long secs seconds are, to one unit: "about 5
// minutes", "about 3 days", "about 40 years"; from a million years on the
// number is in e-notation ("about 2.1e12 years"), and +Inf is "for ever".
func roughDuration(secs float64) string {
	if math.IsInf(secs, 1) {
		return "for ever"
	}
	const year = 365.25 * 86400
	if years := secs / year; years >= 1e6 {
		return "about " + sci(years) + " years"
	}
	units := []struct {
		name string
		secs float64
	}{{"years", year}, {"days", 86400}, {"hours", 3600}, {"minutes", 60}}
	for _, u := range units {
		if secs >= 2*u.secs {
			return fmt.Sprintf("about %.0f %s", secs/u.secs, u.name)
		}
	}
	return fmt.Sprintf("about %.0f seconds", secs)
}

// g3 formats x with up to three significant digits: 116, 58.5.
func g3(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }
