package grammar

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// TestCorpus parses every real game in shared/records: both CSV files
// (876 + 263 games) and the four OpenTafl records.
func TestCorpus(t *testing.T) {
	requireShared(t)
	csvGames := map[string]int{"copenhagen.csv": 876, "brandubh.csv": 263}
	csvTimeouts := map[string]int{"copenhagen.csv": 139, "brandubh.csv": 5}
	files, err := filepath.Glob(filepath.Join(sharedRecords, "*.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	sort.Strings(names)
	if want := []string{"brandubh.csv", "copenhagen.csv"}; !equalStrings(names, want) {
		t.Errorf("CSV files = %v, want %v", names, want)
	}
	for _, f := range files {
		name := filepath.Base(f)
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		games, err := ParseCSV(name, src)
		if err != nil {
			t.Errorf("ParseCSV(%s): %v", name, err)
			continue
		}
		if len(games) != csvGames[name] {
			t.Errorf("ParseCSV(%s): %d games, want %d", name, len(games), csvGames[name])
		}
		timeouts := 0
		for i, g := range games {
			if g.Line != i+1 {
				t.Errorf("%s game %d: Line = %d, want %d", name, i, g.Line, i+1)
			}
			if len(g.Plies) == 0 {
				t.Errorf("%s:%d: no plies", name, g.Line)
			}
			for j, p := range g.Plies {
				if p.Timeout {
					timeouts++
					if j != len(g.Plies)-1 {
						t.Errorf("%s:%d: timeout is ply %d of %d", name, g.Line, j+1, len(g.Plies))
					}
				}
			}
		}
		if timeouts != csvTimeouts[name] {
			t.Errorf("%s: %d timeouts, want %d", name, timeouts, csvTimeouts[name])
		}
	}

	otg := map[string]struct{ turns, main int }{
		"Copenhagen-Escape-Puzzle.otg":     {21, 9},
		"Fetlar-Escape-Puzzle.otg":         {36, 11},
		"copenhagen-grandmasters-2015.otg": {34, 34},
		"fetlar-defenders-first-2015.otg":  {27, 20},
	}
	files, err = filepath.Glob(filepath.Join(sharedRecords, "otg", "*.otg"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(otg) {
		t.Errorf("%d .otg files, want %d", len(files), len(otg))
	}
	for _, f := range files {
		name := filepath.Base(f)
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := ParseOTG(name, src)
		if err != nil {
			t.Errorf("ParseOTG(%s): %v", name, err)
			continue
		}
		want, ok := otg[name]
		if !ok {
			t.Errorf("unexpected file %s", name)
			continue
		}
		if len(rec.Turns) != want.turns || len(rec.MainLine()) != want.main {
			t.Errorf("%s: %d turns, %d on the main line; want %d, %d", name, len(rec.Turns), len(rec.MainLine()), want.turns, want.main)
		}
		if rec.Rules == nil {
			t.Errorf("%s: no rules tag", name)
		} else if _, ok := rec.Rules.Value("dim"); !ok {
			t.Errorf("%s: rules without dim: %v", name, rec.Rules)
		}
		// Main-line turns are numbered 1, 2, 3, …
		for i, turn := range rec.MainLine() {
			if turn.Label.Number != i+1 {
				t.Errorf("%s: main-line turn %d is labelled %d", name, i+1, turn.Label.Number)
				break
			}
		}
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
