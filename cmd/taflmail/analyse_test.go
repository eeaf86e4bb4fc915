package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// testdata/analyse.tafl: game 1 is a Copenhagen set-up position in which
// the king escapes at once (a4-a1); game 2 is a Brandubh game whose 7th
// ply, a4-e4, captures the king.
const analyseFile = "testdata/analyse.tafl"

func TestAnalyseText(t *testing.T) {
	r := run(t, "analyse", analyseFile, "--depth", "2")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("analyse = code %d, stderr %q", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	want := []string{
		"copenhagen, game 1 of testdata/analyse.tafl, after ply 0: defenders to move",
		"best move: a4-a1",
		"score:     win in 1 (for the defenders)",
		"line:      a4-a1",
		"depth 1 (selective ", // the search stops once the win is proven
	}
	if len(lines) != len(want) {
		t.Fatalf("analyse printed %d lines, want %d:\n%s", len(lines), len(want), r.stdout)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want it to start %q", i+1, lines[i], w)
		}
	}
}

func TestAnalyseJSON(t *testing.T) {
	r := run(t, "analyse", analyseFile, "--game", "2", "--ply", "6", "--depth", "3", "--json")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("analyse = code %d, stderr %q", r.code, r.stderr)
	}
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	var j analyseJSON
	if err := dec.Decode(&j); err != nil {
		t.Fatalf("%v in %s", err, r.stdout)
	}
	if j.Game != 2 || j.Variant != "brandubh" || j.Ply != 6 || j.ToMove != "attackers" ||
		j.Best != "a4-e4" || j.Score != "win in 1" || j.Points != nil || j.Decided == nil || *j.Decided != "win" ||
		j.Plies != 1 || len(j.PV) == 0 || j.PV[0] != "a4-e4" || j.Nodes == 0 || j.Depth < 1 {
		t.Errorf("analyse --json = %s", r.stdout)
	}
	if !strings.HasPrefix(r.stdout, `{"file":"testdata/analyse.tafl","game":2,"variant":"brandubh","ply":6,"to_move":"attackers","best":"a4-e4",`) {
		t.Errorf("key order: %s", r.stdout)
	}

	// An undecided position has points and no "decided".
	r = run(t, "analyse", analyseFile, "--game", "2", "--ply", "2", "--depth", "2", "--json")
	j = analyseJSON{}
	if err := json.Unmarshal([]byte(r.stdout), &j); err != nil || j.Points == nil || j.Decided != nil || j.Plies != 0 {
		t.Errorf("undecided analyse --json = %s (%v)", r.stdout, err)
	}
}

func TestAnalyseErrors(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"analyse"}, exitUsage, "want one RECORD file"},
		{[]string{"analyse", analyseFile, "--depth", "2", "--time", "1"}, exitUsage, "exclude each other"},
		{[]string{"analyse", analyseFile, "--game", "3"}, exitUsage, "--game 3: testdata/analyse.tafl has no game 3"},
		{[]string{"analyse", analyseFile, "--level", "6", "--depth", "1"}, exitUsage, "--level 6"},
		{[]string{"analyse", "testdata/no-such-file.tafl"}, exitUsage, "taflmail analyse: cannot read testdata/no-such-file.tafl: no such file or directory\n"},
		// A value out of its range is refused in words, never read as the
		// default (trial 2 report §9).
		{[]string{"analyse", analyseFile, "--game", "2", "--ply", "99", "--depth", "1"}, exitUsage, "--ply 99: want 0..7 (the plies game 2 of testdata/analyse.tafl has)"},
		{[]string{"analyse", analyseFile, "--game", "2", "--ply", "-5", "--depth", "1"}, exitUsage, "--ply -5: want 0..7"},
		{[]string{"analyse", analyseFile, "--game", "2", "--ply", "-1", "--depth", "1"}, exitUsage, "--ply -1: want 0..7"},
		{[]string{"analyse", analyseFile, "--ply", "1", "--depth", "1"}, exitUsage, "--ply 1: want 0..0"},
		{[]string{"analyse", analyseFile, "--depth", "0"}, exitUsage, "--depth 0: want 1..64 plies"},
		{[]string{"analyse", analyseFile, "--depth", "-3"}, exitUsage, "--depth -3: want 1..64 plies"},
		{[]string{"analyse", analyseFile, "--depth", "65"}, exitUsage, "--depth 65: want 1..64 plies"},
		{[]string{"analyse", analyseFile, "--time", "0"}, exitUsage, "--time 0: want a number of seconds above 0 and up to 86400 (a day)"},
		{[]string{"analyse", analyseFile, "--time", "-1"}, exitUsage, "--time -1: want a number of seconds above 0"},
		{[]string{"analyse", analyseFile, "--time", "NaN"}, exitUsage, "--time NaN: want a number of seconds above 0"},
		{[]string{"analyse", analyseFile, "--time", "86401"}, exitUsage, "--time 86401: want"},
		{[]string{"analyse", analyseFile, "--depth", "0", "--time", "0"}, exitUsage, "exclude each other"},
		{[]string{"analyse", analyseFile, "--game", "2", "--depth", "1"}, exitFailure, "the game is over after ply 7: attackers by king captured"},
	}
	for _, tt := range tests {
		r := run(t, tt.args...)
		if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("taflmail %q = code %d, stderr %q; want code %d and %q", tt.args, r.code, r.stderr, tt.code, tt.want)
		}
	}
}
