package main

import (
	"strings"
	"testing"
)

// TestCountedWords: a count of one reads in the singular (issue 22 §4),
// in the usage errors as in the summaries.
func TestCountedWords(t *testing.T) {
	r := run(t, "tournament", "withdraw", "cup")
	if want := "want a tournament ID and a player's ADDRESS, got 1 argument\n"; r.code != exitUsage || !strings.Contains(r.stderr, want) {
		t.Errorf("tournament withdraw cup = code %d, stderr %q; want %q", r.code, r.stderr, want)
	}
	r = run(t, "show", "a", "b")
	if want := "got 2 arguments\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("show a b: stderr %q, want %q", r.stderr, want)
	}
	for _, c := range []struct {
		n         int
		one, many string
		want      string
	}{
		{1, "ply", "plies", "1 ply"}, {0, "ply", "plies", "0 plies"}, {2, "ply", "plies", "2 plies"},
		{1, "capture mismatch", "capture mismatches", "1 capture mismatch"},
		{1, "unfinished game is", "unfinished games are", "1 unfinished game is"},
		{3, "unfinished game is", "unfinished games are", "3 unfinished games are"},
	} {
		if got := counted(c.n, c.one, c.many); got != c.want {
			t.Errorf("counted(%d, %q, %q) = %q, want %q", c.n, c.one, c.many, got, c.want)
		}
	}
	var b strings.Builder
	printTally(&b, "x.tafl", fileTally{games: 1, legal: 1, captures: 1, results: 1}, 1)
	if want := "x.tafl: 1 game, 1 legal, 0 illegal, 1 capture mismatch, 1 result mismatch; 1 file without games\n"; b.String() != want {
		t.Errorf("tally of one: %q, want %q", b.String(), want)
	}
}
