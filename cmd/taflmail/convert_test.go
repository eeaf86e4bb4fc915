package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConvertGolden: a native game as OpenTafl and CSV text, and the
// shared OpenTafl tournament game as a native record.
func TestConvertGolden(t *testing.T) {
	tests := []struct {
		golden string
		args   []string
	}{
		{"convert-game1.otg", []string{"convert", "testdata/games.tafl", "--game", "1", "--to", "otg"}},
		{"convert-game1.csv", []string{"convert", "testdata/games.tafl", "--game", "1", "--to", "csv"}},
		{"convert-puzzle.otg", []string{"convert", "testdata/games.tafl", "--game", "8", "--to", "otg"}},
	}
	for _, tt := range tests {
		r := run(t, tt.args...)
		if r.code != exitOK || r.stderr != "" {
			t.Errorf("taflmail %q = code %d, stderr %q", tt.args, r.code, r.stderr)
			continue
		}
		checkGolden(t, tt.golden, r.stdout)
	}
}

// TestConvertBack: native → otg → native and native → csv → native give
// the canonical record again (the sample games carry nothing that OpenTafl
// or CSV cannot hold).
func TestConvertBack(t *testing.T) {
	dir := t.TempDir()
	native := run(t, "convert", "testdata/games.tafl", "--game", "1", "--to", "native")
	for _, to := range []string{"otg", "csv"} {
		out := filepath.Join(dir, "g."+to)
		if r := run(t, "convert", "testdata/games.tafl", "--game", "1", "--to", to, "-o", out); r.code != exitOK {
			t.Fatalf("convert --to %s = code %d, stderr %q", to, r.code, r.stderr)
		}
		back := run(t, "convert", out, "--variant", "brandubh", "--to", "native")
		if back.code != exitOK {
			t.Fatalf("convert %s --to native = code %d, stderr %q", to, back.code, back.stderr)
		}
		want := native.stdout
		if to == "csv" { // CSV has no tags and no comments
			want = "[Variant \"brandubh\"]\n[Result \"attackers\"]\n[Termination \"king captured\"]\n\n1. d2-e2 c4-c5 2. b4-b3 e4-e3 3. f4-f5 Kd4-f4 4. a4-e4xe3/Kf4 attackers\n"
		}
		if back.stdout != want {
			t.Errorf("native → %s → native:\n%s\nwant\n%s", to, back.stdout, want)
		}
	}
}

func TestConvertWarningsAndErrors(t *testing.T) {
	r := run(t, "convert", "testdata/games.tafl", "--game", "2", "--to", "native")
	if r.code != exitOK || !strings.Contains(r.stderr, "warning: testdata/games.tafl:17:19: ply 3 (attackers) d1-d5: path blocked at d3") ||
		!strings.Contains(r.stdout, "2. d1-d5 e4-e3 *") {
		t.Errorf("convert of an illegal game = code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"convert", "testdata/games.tafl"}, exitUsage, `--to "": want native, otg or csv`},
		{[]string{"convert", "testdata/games.tafl", "--to", "otg"}, exitUsage, "an OpenTafl file holds one game and testdata/games.tafl has 8"},
		{[]string{"convert", "testdata/games.tafl", "--game", "8", "--to", "csv"}, exitFailure, "the CSV format cannot hold a game that starts from a set-up position"},
		{[]string{"convert", "--to", "csv"}, exitUsage, "want one FILE, got 0"},
	}
	for _, tt := range tests {
		r := run(t, tt.args...)
		if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("taflmail %q = code %d, stderr %q; want %d and %q", tt.args, r.code, r.stderr, tt.code, tt.want)
		}
	}
	if _, err := os.Stat("testdata/games.tafl"); err != nil {
		t.Fatal(err)
	}
}

// TestConvertTermination: a Termination that contradicts the record's end
// is a result mismatch in validate and a warning in convert, which writes
// the end as it was (trial report §3); an OpenTafl termination that the
// engine overrules is named in a warning too.
func TestConvertTermination(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ term, last, want, written string }{
		{"king captured", "---", "the defenders resign, but the record's Termination says king captured", "resignation"},
		{"timeout", "---", "the defenders resign, but the record's Termination says timeout", "resignation"},
		{"resignation", "timeout", "the defenders lose on time, but the record's Termination says resignation", "timeout"},
	} {
		path := filepath.Join(dir, "wrongterm.tafl")
		rec := "[Variant \"brandubh\"]\n[Result \"attackers\"]\n[Termination \"" + tt.term + "\"]\n\n1. d1-e1 d3-f3 2. d2-f2xf3 " + tt.last + " attackers\n"
		if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
			t.Fatal(err)
		}
		v := run(t, "validate", path)
		if v.code != exitFailure || !strings.Contains(v.stdout+v.stderr, tt.want) || !strings.Contains(v.stdout, "1 result mismatches") {
			t.Errorf("validate with Termination %q = code %d, stdout %q, stderr %q; want 1 and %q", tt.term, v.code, v.stdout, v.stderr, tt.want)
		}
		c := run(t, "convert", path, "--to", "native")
		if c.code != exitOK || !strings.Contains(c.stderr, "warning: ") || !strings.Contains(c.stderr, tt.want) ||
			!strings.Contains(c.stdout, "[Termination \""+tt.written+"\"]") {
			t.Errorf("convert with Termination %q = code %d, stdout %q, stderr %q", tt.term, c.code, c.stdout, c.stderr)
		}
	}

	requireShared(t)
	otg := filepath.Join(sharedRecords, "otg", "fetlar-defenders-first-2015.otg")
	c := run(t, "convert", otg, "--to", "native")
	want := `termination "Black resigns" is written as "king escaped": the engine ends the game at ply 39 (defenders win: escape)`
	if c.code != exitOK || !strings.Contains(c.stderr, "warning: "+otg) || !strings.Contains(c.stderr, want) ||
		!strings.Contains(c.stdout, "[Termination \"king escaped\"]") {
		t.Errorf("convert %s = code %d, stderr %q; want a warning %q", otg, c.code, c.stderr, want)
	}
}

// TestNoGameInTheFile: a file without any record (empty, or blank lines,
// in any format) gets the words validate uses, "FILE: no game in the
// file", and exit status 1 from every command that reads records: convert
// writes nothing rather than an empty conversion (trial 2 report §14).
func TestNoGameInTheFile(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"empty.otg", "empty.tafl", "empty.csv", "blank.otg"} {
		path := filepath.Join(dir, name)
		text := ""
		if strings.HasPrefix(name, "blank") {
			text = "\n  \n"
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, name+".out")
		for _, args := range [][]string{
			{"convert", path, "--to", "otg"},
			{"convert", path, "--to", "native", "-o", out},
			{"convert", path, "--to", "csv", "--game", "1"},
			{"analyse", path, "--depth", "1"},
			{"diagram", path},
		} {
			r := run(t, args...)
			if want := "taflmail: " + path + ": no game in the file\n"; r.code != exitFailure || r.stdout != "" || r.stderr != want {
				t.Errorf("taflmail %q = code %d, stdout %q, stderr %q; want 1 and %q", args, r.code, r.stdout, r.stderr, want)
			}
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("convert -o %s wrote a file for %s", out, name)
		}
		r := run(t, "validate", path)
		if want := path + ": no game in the file\n"; r.code != exitFailure || r.stdout != want {
			t.Errorf("taflmail validate %s = code %d, stdout %q; want 1 and %q", name, r.code, r.stdout, want)
		}
	}
}
