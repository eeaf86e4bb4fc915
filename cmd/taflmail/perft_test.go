package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/engine"
)

// copenhagenPerft is perft 1..3 of Copenhagen from ../shared/cases/perft.md
// (three independent engines agree); no game ends that shallow.
var copenhagenPerft = []uint64{116, 6788, 806344}

// parsePerftJSON decodes every line of `perft --json` output strictly: each
// line one object with exactly the documented keys, in the documented order.
func parsePerftJSON(t *testing.T, out string) []perftJSON {
	t.Helper()
	var rows []perftJSON
	for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		var r perftJSON
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("line %d %q: %v", i+1, line, err)
		}
		if dec.More() {
			t.Fatalf("line %d %q: more than one JSON value", i+1, line)
		}
		prefix := fmt.Sprintf(`{"variant":%q,"depth":%d,"nodes":%d,"ends":%d,"seconds":`, r.Variant, r.Depth, r.Nodes, r.Ends)
		if !strings.HasPrefix(line, prefix) || !strings.HasSuffix(line, "}") {
			t.Errorf("line %d = %s, want the form %s…}", i+1, line, prefix)
		}
		if r.Seconds < 0 {
			t.Errorf("line %d: seconds = %v, want ≥ 0", i+1, r.Seconds)
		}
		rows = append(rows, r)
	}
	return rows
}

// checkCopenhagen checks rows against perft 1..3 of Copenhagen.
func checkCopenhagen(t *testing.T, rows []perftJSON) {
	t.Helper()
	if len(rows) != len(copenhagenPerft) {
		t.Fatalf("got %d lines, want %d: %+v", len(rows), len(copenhagenPerft), rows)
	}
	for i, r := range rows {
		want := perftJSON{Variant: "copenhagen", Depth: i + 1, Nodes: copenhagenPerft[i], Ends: 0, Seconds: r.Seconds}
		if r != want {
			t.Errorf("line %d = %+v, want %+v", i+1, r, want)
		}
	}
}

func TestPerftJSON(t *testing.T) {
	for _, args := range [][]string{
		{"perft", "--variant", "copenhagen", "--depth", "3", "--json"},
		{"perft", "--json", "--parallel"},
	} {
		t.Run(strings.Join(args[1:], " "), func(t *testing.T) {
			r := run(t, args...)
			if r.code != exitOK || r.stderr != "" {
				t.Fatalf("taflmail %q = code %d, stderr %q", args, r.code, r.stderr)
			}
			checkCopenhagen(t, parsePerftJSON(t, r.stdout))
		})
	}
}

// TestPerftText checks the default run (copenhagen, depth 3): a header,
// the column names, and one row per depth of depth, nodes, ends, seconds,
// nodes/s.
func TestPerftText(t *testing.T) {
	r := run(t, "perft")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("taflmail perft = code %d, stderr %q", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != 2+len(copenhagenPerft) {
		t.Fatalf("taflmail perft printed %d lines, want %d:\n%s", len(lines), 2+len(copenhagenPerft), r.stdout)
	}
	if want := "perft copenhagen: Copenhagen Hnefatafl 11×11, from the start position, 1 worker"; lines[0] != want {
		t.Errorf("header = %q, want %q", lines[0], want)
	}
	if got, want := strings.Fields(lines[1]), []string{"depth", "nodes", "ends", "seconds", "nodes/s"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("columns = %q, want %q", got, want)
	}
	for i, line := range lines[2:] {
		f := strings.Fields(line)
		if len(f) != 5 {
			t.Errorf("row %q has %d columns, want 5", line, len(f))
			continue
		}
		want := []string{strconv.Itoa(i + 1), strconv.FormatUint(copenhagenPerft[i], 10), "0"}
		if strings.Join(f[:3], " ") != strings.Join(want, " ") {
			t.Errorf("row %d = %q, want it to start %q", i+1, line, want)
		}
		if _, err := strconv.ParseFloat(f[3], 64); err != nil {
			t.Errorf("row %d seconds %q: %v", i+1, f[3], err)
		}
		if _, err := strconv.ParseUint(f[4], 10, 64); err != nil && f[4] != "-" {
			t.Errorf("row %d nodes/s %q: %v", i+1, f[4], err)
		}
	}
}

func TestPerftUsageErrors(t *testing.T) {
	var names []string
	for _, v := range engine.Variants() {
		names = append(names, v.Name)
	}
	tests := []struct {
		args []string
		want []string // substrings of stderr
	}{
		{[]string{"--variant", "nosuch"}, []string{`taflmail perft: unknown variant "nosuch"; built-in variants: copenhagen, fetlar, historical, vingolf, tablut, brandubh`, strings.Join(names, ", ") + "\n"}},
		{[]string{"--variant", ""}, []string{`unknown variant ""`}},
		{[]string{"--depth", "0"}, []string{"--depth 0: the depth must be at least 1"}},
		{[]string{"--depth", "-3"}, []string{"--depth -3: the depth must be at least 1"}},
		{[]string{"--depth", "x"}, []string{`--depth "x": not a whole number`}},
		{[]string{"--depth", "5"}, []string{"--depth 5 of copenhagen would count about 5.4e9 positions, over the limit of 5e9", "pass --force"}},
		{[]string{"--depth", "6", "--json"}, []string{"over the limit of 5e9"}},
		{[]string{"--variant", "brandubh", "--depth", "7"}, []string{"brandubh would count about 3.6e10 positions"}},
		// Depths past maxPerftDepth are refused before any estimate, even
		// with --force (trial report §1: 1000 panicked, 99999999999 spun).
		{[]string{"--variant", "brandubh", "--depth", "1000"}, []string{"--depth 1000: the depth must be at most 20 plies"}},
		{[]string{"--variant", "brandubh", "--depth", "100000", "--force"}, []string{"--depth 100000: the depth must be at most 20"}},
		{[]string{"--depth", "99999999999"}, []string{"--depth 99999999999: the depth must be at most 20"}},
		{[]string{"--depth", "21", "--force"}, []string{"--depth 21: the depth must be at most 20"}},
		// The deepest allowed depth gets an estimate in plain figures.
		{[]string{"--variant", "brandubh", "--depth", "20"}, []string{"brandubh would count about 6.9e29 positions", "(about 1.1e15 years at 2e7 positions a second)"}},
		{[]string{"--bogus"}, []string{"unknown flag: --bogus"}},
		{[]string{"3"}, []string{`taflmail perft: unexpected argument "3"`}},
	}
	for _, tt := range tests {
		args := append([]string{"perft"}, tt.args...)
		r := run(t, args...)
		if r.code != exitUsage {
			t.Errorf("taflmail %q = code %d, want %d", args, r.code, exitUsage)
		}
		if r.stdout != "" {
			t.Errorf("taflmail %q wrote to stdout: %q", args, r.stdout)
		}
		for _, w := range append(tt.want, "Run 'taflmail perft --help' for usage.") {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("taflmail %q stderr = %q, want it to contain %q", args, r.stderr, w)
			}
		}
	}
}

// TestPerftForce lowers the limit so that Copenhagen depth 3 is refused,
// then runs it with --force.
func TestPerftForce(t *testing.T) {
	root := func() *cobra.Command {
		root := NewRootCommand()
		for _, c := range root.Commands() {
			if c.Name() == "perft" {
				root.RemoveCommand(c)
			}
		}
		root.AddCommand(newPerftCommandLimit(1e5))
		return root
	}
	r := execute(t, root(), "perft", "--depth", "3", "--json")
	if r.code != exitUsage || r.stdout != "" || !strings.Contains(r.stderr, "over the limit of 1e5") {
		t.Fatalf("perft over the limit = code %d, stdout %q, stderr %q; want 2, nothing, the limit", r.code, r.stdout, r.stderr)
	}
	r = execute(t, root(), "perft", "--depth", "3", "--json", "--force")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("perft --force = code %d, stderr %q", r.code, r.stderr)
	}
	checkCopenhagen(t, parsePerftJSON(t, r.stdout))
}

// TestEstimatePerft checks the estimate against the reference figures of
// ../shared/cases/perft.md: within 15% where they are known, and on the
// right side of the limit.
func TestEstimatePerft(t *testing.T) {
	tests := []struct {
		variant string
		perft   []float64 // perft 1, 2, … from the start
	}{
		{"copenhagen", []float64{116, 6788, 806344, 50456804}},
		{"tablut", []float64{80, 4400, 353200, 19913864}},
		{"brandubh", []float64{40, 960, 39512, 1007392, 41843336}},
	}
	for _, tt := range tests {
		v, _ := engine.Lookup(tt.variant)
		p, err := engine.NewPosition(v)
		if err != nil {
			t.Fatal(err)
		}
		total := 0.0
		for d, n := range tt.perft {
			total += n
			got := estimatePerft(p, d+1).total
			if got < 0.85*total || got > 1.15*total {
				t.Errorf("estimatePerft(%s, %d) = %.0f, want %.0f ± 15%%", tt.variant, d+1, got, total)
			}
		}
	}
	v, _ := engine.Lookup("copenhagen")
	p, _ := engine.NewPosition(v)
	if got := estimatePerft(p, 4).total; got > maxPerftNodes {
		t.Errorf("estimatePerft(copenhagen, 4) = %.3g, want it under the limit %.3g", got, maxPerftNodes)
	}
	if got := estimatePerft(p, 5).total; got <= maxPerftNodes {
		t.Errorf("estimatePerft(copenhagen, 5) = %.3g, want it over the limit %.3g", got, maxPerftNodes)
	}
}

func TestSci(t *testing.T) {
	for x, want := range map[float64]string{
		5e9: "5e9", 5.39e9: "5.4e9", 3.6e10: "3.6e10", 1e5: "1e5", 7: "7", 0.0042: "4.2e-3",
		math.Inf(1): "infinitely many", 1.7e308: "1.7e308",
	} {
		if got := sci(x); got != want {
			t.Errorf("sci(%v) = %q, want %q", x, got, want)
		}
	}
}

func TestRoughDuration(t *testing.T) {
	for secs, want := range map[float64]string{
		30: "about 30 seconds", 270: "about 4 minutes", 4440: "about 74 minutes",
		16000: "about 4 hours", 365000: "about 4 days",
		// Long spans in years, and past a million years in e-notation
		// (trial report §1: 180 digits of days).
		3 * 365.25 * 86400: "about 3 years", 4e12 * 365.25 * 86400: "about 4e12 years",
		math.Inf(1): "for ever",
	} {
		if got := roughDuration(secs); got != want {
			t.Errorf("roughDuration(%v) = %q, want %q", secs, got, want)
		}
	}
}
