package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// testdata/tournament.tafl holds two events: the Winter Cup (four players,
// matches of two games, one game still running) and the Spring Open (a
// round robin in two groups of three, one game per pairing), so standings
// draws three tables.

func TestStandingsGolden(t *testing.T) {
	r := run(t, "standings", "testdata/tournament.tafl")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("taflmail standings = code %d, stderr %q", r.code, r.stderr)
	}
	checkGolden(t, "standings.golden", r.stdout)
	for _, want := range []string{"Winter Cup 2027\n", "Spring Open 2027, group 1\n", "Spring Open 2027, group 2\n", "  2–3 "} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q", want)
		}
	}

	r = run(t, "standings", "--json", "testdata/tournament.tafl")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("taflmail standings --json = code %d, stderr %q", r.code, r.stderr)
	}
	checkGolden(t, "standings-json.golden", r.stdout)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("--json printed %d lines, want 3 (one per table)", len(lines))
	}
	var first struct {
		Event     string `json:"event"`
		Games     int    `json:"games"`
		Finished  int    `json:"finished"`
		Standings []struct {
			Place  int     `json:"place"`
			Player string  `json:"player"`
			Points float64 `json:"points"`
		} `json:"standings"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if first.Event != "Winter Cup 2027" || first.Games != 12 || first.Finished != 11 || len(first.Standings) != 4 {
		t.Errorf("first table = %+v, want the Winter Cup with 11 of 12 games", first)
	}
}

// TestStandingsWithdrawn: dave withdrew from the Winter Cup having
// finished 5 of 6 games, so his unfinished game (against bob) is lost:
// bob gains a point.
func TestStandingsWithdrawn(t *testing.T) {
	before := run(t, "standings", "testdata/tournament.tafl")
	r := run(t, "standings", "--withdrawn", "dave@example.org", "testdata/tournament.tafl")
	if r.code != exitOK {
		t.Fatalf("code %d, stderr %q", r.code, r.stderr)
	}
	if !strings.Contains(before.stdout, "bob@example.org    0  ½  –  1   1½") {
		t.Fatalf("unexpected table before the withdrawal:\n%s", before.stdout)
	}
	for _, want := range []string{"bob@example.org    0  ½  –  2   2½", "Withdrawn, unfinished games lost: dave@example.org", "12 of 12 games finished."} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestStandingsErrors(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"standings"}, exitUsage, "no RECORDS file given"},
		{[]string{"standings", "testdata/no-such-file.tafl"}, exitUsage, "no-such-file.tafl"},
		{[]string{"standings", "--withdrawn", "zoe@example.org", "testdata/tournament.tafl"}, exitUsage, `--withdrawn "zoe@example.org": not a player`},
		{[]string{"standings", "testdata/bad-records.tafl"}, exitFailure, "testdata/bad-records.tafl:8:1: game 2: no Defenders tag"},
	}
	for _, tt := range tests {
		r := run(t, tt.args...)
		if r.code != tt.code || !strings.Contains(r.stderr, tt.stderr) {
			t.Errorf("taflmail %q = code %d, stderr %q; want %d and %q", tt.args, r.code, r.stderr, tt.code, tt.stderr)
		}
	}
	// The usable records are still counted.
	r := run(t, "standings", "testdata/bad-records.tafl")
	if !strings.Contains(r.stdout, "2 of 2 games finished.") {
		t.Errorf("bad-records: stdout = %q, want the two usable games", r.stdout)
	}
}
