package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The record files of these tests, all Brandubh games (--variant
// brandubh):
//   - testdata/blanks.csv: five legal games with a blank line between
//     them, so their numbers (CSV: their line numbers) are 1, 3, 5, 7 and
//     9; game N has (N+1)/2 plies.
//   - testdata/mut.csv: four games on lines 1-4; game 3 has an illegal
//     third ply (e2-e5: path blocked at e4) and ends with "timeout", game
//     4 has an illegal fourth ply (d5-d3: path blocked at d4).
const (
	blanksFile = "testdata/blanks.csv"
	mutFile    = "testdata/mut.csv"
)

// writeFile writes text to name in dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestValidateJSONNamesGamelessFiles: with --json, stdout holds only the
// games' JSON lines, and a file without games is still named on stderr:
// an empty file as "FILE: no game in the file", a file that does not
// parse by its syntax error (found by a new-user trial of the record readers, 2026-12-01).
func TestValidateJSONNamesGamelessFiles(t *testing.T) {
	dir := t.TempDir()
	empty := writeFile(t, dir, "empty.csv", "")
	bad := writeFile(t, dir, "bad.tafl", "1. d2- e2 *\n")
	r := run(t, "validate", "--json", "--variant", "brandubh", empty, mutFile, bad)
	wantErr := empty + ": no game in the file\n" +
		bad + ":1:7: unexpected white space inside move\n" +
		bad + " was read as a native record; --format otg or --format csv reads it otherwise\n" +
		"taflmail: some games have errors\n"
	if r.code != exitFailure || r.stderr != wantErr {
		t.Errorf("validate --json empty mut bad = code %d, stderr\n%s; want 1 and\n%s", r.code, r.stderr, wantErr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("validate --json printed %d lines, want the 4 games of %s:\n%s", len(lines), mutFile, r.stdout)
	}
	for _, line := range lines {
		var j validateJSON
		if err := json.Unmarshal([]byte(line), &j); err != nil || j.File != mutFile {
			t.Errorf("stdout line %q: %v; want a game of %s", line, err, mutFile)
		}
	}
	checkValidateJSON(t, r.stdout)

	// Files without games only: each named once, then the summary.
	r = run(t, "validate", "--json", empty, bad)
	wantErr = empty + ": no game in the file\n" +
		bad + ":1:7: unexpected white space inside move\n" +
		bad + " was read as a native record; --format otg or --format csv reads it otherwise\n" +
		"taflmail: some files do not parse\n"
	if r.code != exitFailure || r.stdout != "" || r.stderr != wantErr {
		t.Errorf("validate --json empty bad = code %d, stdout %q, stderr\n%s; want 1, nothing and\n%s", r.code, r.stdout, r.stderr, wantErr)
	}
}

// TestValidateHelpExitStatus: the help names every cause of exit status
// 1 that docs/notation.md names.
func TestValidateHelpExitStatus(t *testing.T) {
	r := run(t, "validate", "--help")
	flat := strings.Join(strings.Fields(r.stdout), " ")
	want := "Exit status: 0 when every game is right, 1 when any game has an error, a file does not parse, holds no game or is larger than --max-bytes, 2 on usage errors and unreadable files."
	if !strings.Contains(flat, want) {
		t.Errorf("validate --help lacks %q:\n%s", want, r.stdout)
	}
}

// TestAnalyseGameNumbers: analyse --game takes a game's number as
// validate --json, diagram and convert give it (for CSV its line number),
// and reports that number (found by a new-user trial of the record readers, 2026-12-01).
func TestAnalyseGameNumbers(t *testing.T) {
	v := run(t, "validate", "--json", "--variant", "brandubh", blanksFile)
	if v.code != exitOK {
		t.Fatalf("validate %s = code %d, stderr %q", blanksFile, v.code, v.stderr)
	}
	var numbers []int
	for _, line := range strings.Split(strings.TrimSuffix(v.stdout, "\n"), "\n") {
		var g validateJSON
		if err := json.Unmarshal([]byte(line), &g); err != nil {
			t.Fatal(err)
		}
		numbers = append(numbers, g.Game)
		n := strconv.Itoa(g.Game)
		r := run(t, "analyse", blanksFile, "--variant", "brandubh", "--game", n, "--depth", "1", "--json")
		var a analyseJSON
		if err := json.Unmarshal([]byte(r.stdout), &a); r.code != exitOK || err != nil {
			t.Errorf("analyse --game %s = code %d, stdout %q, stderr %q", n, r.code, r.stdout, r.stderr)
			continue
		}
		if a.Game != g.Game || a.Ply != g.Plies {
			t.Errorf("analyse --game %s analysed game %d after ply %d; validate's game %d has %d plies", n, a.Game, a.Ply, g.Game, g.Plies)
		}
	}
	if want := []int{1, 3, 5, 7, 9}; !slices.Equal(numbers, want) {
		t.Fatalf("validate numbers the games of %s %v, want %v", blanksFile, numbers, want)
	}
	r := run(t, "analyse", blanksFile, "--variant", "brandubh", "--game", "7", "--depth", "1")
	if want := "brandubh, game 7 of testdata/blanks.csv, after ply 4: attackers to move\n"; r.code != exitOK || !strings.HasPrefix(r.stdout, want) {
		t.Errorf("analyse --game 7 = code %d, stdout %q, stderr %q; want it to start %q", r.code, r.stdout, r.stderr, want)
	}
	r = run(t, "analyse", blanksFile, "--variant", "brandubh", "--depth", "1", "--json")
	if !strings.HasPrefix(r.stdout, `{"file":"testdata/blanks.csv","game":1,"variant":"brandubh","ply":1,`) {
		t.Errorf("analyse without --game = code %d, stdout %q; want the first game", r.code, r.stdout)
	}
	// A number no game has: the same words as diagram.
	for _, n := range []string{"4", "0", "10", "-1"} {
		d := run(t, "diagram", blanksFile, "--game", n)
		a := run(t, "analyse", blanksFile, "--game", n, "--depth", "1")
		want := "taflmail analyse: --game " + n + ": testdata/blanks.csv has no game " + n + "\n"
		if a.code != exitUsage || !strings.HasPrefix(a.stderr, want) {
			t.Errorf("analyse --game %s = code %d, stderr %q; want 2 and %q", n, a.code, a.stderr, want)
		}
		if n != "0" && strings.Replace(d.stderr, "diagram", "analyse", 2) != a.stderr {
			t.Errorf("diagram --game %s says %q, analyse %q", n, d.stderr, a.stderr)
		}
	}
	h := run(t, "analyse", "--help")
	if strings.Contains(h.stdout, "is not its number") || !strings.Contains(h.stdout, "for CSV its line number") {
		t.Errorf("analyse --help on --game:\n%s", h.stdout)
	}
}

// TestReplayStopped: a game whose replay stops at an illegal ply. diagram
// without --ply draws the board after the last legal ply and says why on
// stderr; diagram --ply and analyse beyond that ply fail saying where and
// why, as validate does (found by a new-user trial of the record readers, 2026-12-01).
func TestReplayStopped(t *testing.T) {
	const why = "testdata/mut.csv:3:13: ply 3 (attackers) e2-e5: path blocked at e4"
	before := run(t, "diagram", mutFile, "--variant", "brandubh", "--game", "3", "--ply", "2")
	if before.code != exitOK || before.stderr != "" {
		t.Fatalf("diagram --ply 2 = code %d, stderr %q", before.code, before.stderr)
	}
	for _, to := range []string{"ascii", "svg"} {
		want := run(t, "diagram", mutFile, "--variant", "brandubh", "--game", "3", "--ply", "2", "--to", to)
		r := run(t, "diagram", mutFile, "--variant", "brandubh", "--game", "3", "--to", to)
		note := "warning: " + why + "; the board is drawn after ply 2, where the replay stopped\n"
		if r.code != exitOK || r.stdout != want.stdout || r.stderr != note {
			t.Errorf("diagram --game 3 --to %s = code %d, stderr %q, the board of --ply 2: %v; want 0 and %q",
				to, r.code, r.stderr, r.stdout == want.stdout, note)
		}
	}
	// Game 4 has no final time-out: it was drawn before its illegal ply
	// already, now with the note.
	r := run(t, "diagram", mutFile, "--variant", "brandubh", "--game", "4")
	if r.code != exitOK || r.stderr != "warning: testdata/mut.csv:4:19: ply 4 (defenders) d5-d3: path blocked at d4; the board is drawn after ply 3, where the replay stopped\n" {
		t.Errorf("diagram --game 4 = code %d, stderr %q", r.code, r.stderr)
	}
	// A legal game: no note.
	if r := run(t, "diagram", mutFile, "--variant", "brandubh", "--game", "2"); r.code != exitOK || r.stderr != "" {
		t.Errorf("diagram --game 2 = code %d, stderr %q", r.code, r.stderr)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"diagram", "--ply", "3"}, "taflmail: --ply 3: game 3 of testdata/mut.csv can be replayed only to ply 2: " + why + "\n"},
		{[]string{"diagram", "--ply", "4"}, "taflmail: --ply 4: game 3 of testdata/mut.csv can be replayed only to ply 2: " + why + "\n"},
		{[]string{"analyse", "--depth", "1"}, "taflmail: game 3 of testdata/mut.csv can be replayed only to ply 2: " + why + "\n"},
		{[]string{"analyse", "--depth", "1", "--ply", "3"}, "taflmail: --ply 3: game 3 of testdata/mut.csv can be replayed only to ply 2: " + why + "\n"},
	} {
		args := append([]string{tc.args[0], mutFile, "--variant", "brandubh", "--game", "3"}, tc.args[1:]...)
		r := run(t, args...)
		if r.code != exitFailure || r.stdout != "" || r.stderr != tc.want {
			t.Errorf("taflmail %q = code %d, stdout %q, stderr %q; want 1 and %q", args, r.code, r.stdout, r.stderr, tc.want)
		}
	}
	r = run(t, "analyse", mutFile, "--variant", "brandubh", "--game", "3", "--ply", "2", "--depth", "1", "--json")
	if r.code != exitOK || !strings.HasPrefix(r.stdout, `{"file":"testdata/mut.csv","game":3,"variant":"brandubh","ply":2,`) {
		t.Errorf("analyse --game 3 --ply 2 = code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestRecordCommandsDirectory: every command that reads a file the user
// names says "cannot read" for a directory, with exit status 2 and no
// hint to read --help (found by a new-user trial of the record readers, 2026-12-01).
func TestRecordCommandsDirectory(t *testing.T) {
	for _, tc := range []struct {
		command string // as it names itself
		args    []string
	}{
		{"analyse", []string{"analyse", "testdata"}},
		{"convert", []string{"convert", "testdata", "--to", "native"}},
		{"diagram", []string{"diagram", "testdata"}},
		{"validate", []string{"validate", "testdata"}},
		{"standings", []string{"standings", "testdata"}},
		{"ratings", []string{"ratings", "testdata"}},
		{"tournament create", []string{"tournament", "create", "testdata"}},
	} {
		r := run(t, tc.args...)
		want := "taflmail " + tc.command + ": cannot read testdata: is a directory\n"
		if r.code != exitUsage || r.stderr != want {
			t.Errorf("taflmail %q = code %d, stderr %q; want 2 and %q", tc.args, r.code, r.stderr, want)
		}
	}
}

// TestFormatNote: when --format auto chose the format and the file does
// not parse, one line says which format it was read as and how to choose
// another; a format given says nothing more (found by a new-user trial of the record readers, 2026-12-01).
func TestFormatNote(t *testing.T) {
	csv, err := os.ReadFile(blanksFile)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	five := writeFile(t, dir, "five.txt", string(csv))
	native := writeFile(t, dir, "games.csv", "[Variant \"brandubh\"]\n\n1. d2-e2 c4-c5 *\n")
	odd := writeFile(t, dir, "odd.dat", "1. d2-e2 c4-c5 @\n")
	fiveErr := five + ":1:6: unexpected character ','"
	fiveNote := five + " was read as a native record (by its name); --format csv reads it as CSV"
	nativeNote := native + " was read as CSV (by its name); --format native reads it as a native record"
	oddNote := odd + " was read as a native record; --format otg or --format csv reads it otherwise"

	r := run(t, "validate", "--variant", "brandubh", five)
	if want := fiveErr + "\n" + fiveNote + "\ntaflmail: some files do not parse\n"; r.code != exitFailure || r.stderr != want {
		t.Errorf("validate five.txt = code %d, stderr\n%s; want 1 and\n%s", r.code, r.stderr, want)
	}
	for _, cmd := range [][]string{{"diagram"}, {"analyse", "--depth", "1"}, {"convert", "--to", "native"}} {
		args := append([]string{cmd[0], five, "--variant", "brandubh"}, cmd[1:]...)
		r := run(t, args...)
		if want := "taflmail: " + fiveErr + "\n" + fiveNote + "\n"; r.code != exitFailure || r.stdout != "" || r.stderr != want {
			t.Errorf("taflmail %q = code %d, stderr\n%s; want 1 and\n%s", args, r.code, r.stderr, want)
		}
		// As the note says, --format csv reads it.
		r = run(t, append(args, "--format", "csv")...)
		if r.code != exitOK {
			t.Errorf("taflmail %q --format csv = code %d, stderr %q", args, r.code, r.stderr)
		}
		// A format given: the syntax error alone.
		r = run(t, append(args, "--format", "native")...)
		if want := "taflmail: " + fiveErr + "\n"; r.code != exitFailure || r.stderr != want {
			t.Errorf("taflmail %q --format native = code %d, stderr %q; want 1 and %q", args, r.code, r.stderr, want)
		}
	}
	r = run(t, "validate", "--format", "native", five)
	if want := fiveErr + "\ntaflmail: some files do not parse\n"; r.code != exitFailure || r.stderr != want {
		t.Errorf("validate --format native five.txt = code %d, stderr %q; want 1 and %q", r.code, r.stderr, want)
	}
	for path, note := range map[string]string{native: nativeNote, odd: oddNote} {
		r := run(t, "validate", path)
		lines := strings.Split(r.stderr, "\n")
		if r.code != exitFailure || len(lines) != 4 || lines[1] != note {
			t.Errorf("validate %s = code %d, stderr\n%s; want its syntax error, then %q", path, r.code, r.stderr, note)
		}
	}
}
