package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestRatingsGolden(t *testing.T) {
	r := run(t, "ratings", "testdata/tournament.tafl")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("taflmail ratings = code %d, stderr %q", r.code, r.stderr)
	}
	checkGolden(t, "ratings.golden", r.stdout)
	r = run(t, "ratings", "--json", "testdata/tournament.tafl")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("taflmail ratings --json = code %d, stderr %q", r.code, r.stderr)
	}
	checkGolden(t, "ratings-json.golden", r.stdout)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	// Ten players: six in brandubh (Spring Open), four in copenhagen.
	if len(lines) != 10 {
		t.Fatalf("--json printed %d lines, want 10", len(lines))
	}
	games := 0
	for i, l := range lines {
		dec := json.NewDecoder(strings.NewReader(l))
		dec.DisallowUnknownFields()
		var j ratingJSON
		if err := dec.Decode(&j); err != nil {
			t.Fatalf("line %d %q: %v", i+1, l, err)
		}
		if j.RD >= 350 || j.RD <= 0 || j.Volatility <= 0 {
			t.Errorf("line %d: RD %v, volatility %v out of range", i+1, j.RD, j.Volatility)
		}
		games += j.Games
	}
	// 11 finished Winter Cup games and 6 Spring Open games, two players each.
	if games != 2*(11+6) {
		t.Errorf("games rated add up to %d, want %d", games, 2*(11+6))
	}
}

func TestRatingsErrors(t *testing.T) {
	r := run(t, "ratings")
	if r.code != exitUsage || !strings.Contains(r.stderr, "no RECORDS file given") {
		t.Errorf("taflmail ratings = code %d, stderr %q; want usage error", r.code, r.stderr)
	}
	r = run(t, "ratings", "testdata/bad-records.tafl")
	if r.code != exitFailure || !strings.Contains(r.stderr, "game 2: no Defenders tag") || !strings.Contains(r.stderr, `testdata/bad-records.tafl:15:1: game 3: Date "2027.??.??" is not a full date`) {
		t.Errorf("bad records: code %d, stderr %q; want 1 and both problems", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "alice@example.org") || strings.Contains(r.stdout, "carol") {
		t.Errorf("bad records: stdout %q, want only the one ratable game's players", r.stdout)
	}
}

// TestRatingsUnnamedRules: the OpenTafl Copenhagen game of the corpus
// plays under rules without a name (close to, not equal to, copenhagen);
// ratings leaves it out and says why, rather than rating it in a "custom"
// pool every unnamed rule set would share (trial report §10).
func TestRatingsUnnamedRules(t *testing.T) {
	requireShared(t)
	otg := filepath.Join(sharedRecords, "otg", "copenhagen-grandmasters-2015.otg")
	r := run(t, "ratings", otg)
	if r.code != exitFailure || !strings.Contains(r.stderr, "the rules have no name") || strings.Contains(r.stdout, "custom") {
		t.Errorf("ratings %s = code %d, stdout %q, stderr %q; want 1, the game left out", otg, r.code, r.stdout, r.stderr)
	}
}
