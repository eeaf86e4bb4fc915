package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
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
		if v.code != exitFailure || !strings.Contains(v.stdout+v.stderr, tt.want) || !strings.Contains(v.stdout, "1 result mismatch") {
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

// TestConvertRoundTripClock (issue 22 §2): for every pair of formats A and
// B, a timed game in A is converted to B and back to A. The source holds
// every kind of clock datum (TimeControl, Start, a leave tag, %ts on every
// ply, an %avail, a final time-out with its %ts), a comment and another
// tag. The table says what survives; what does not must be gone, not half
// there; a conversion that drops clock data warns and exits 3; and the
// result validates.
func TestConvertRoundTripClock(t *testing.T) {
	const fixture = "testdata/clock/roundtrip.tafl"
	dir := t.TempDir()
	brandubh, _ := engine.Lookup("brandubh")
	read := func(path string) *notation.Game {
		t.Helper()
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		gs, err := notation.ReadGames(path, src, notation.ReadOptions{Variant: brandubh})
		if err != nil || len(gs) != 1 {
			t.Fatalf("%s: %d games, %v", path, len(gs), err)
		}
		return gs[0]
	}
	convert := func(from, to, out string, code int) {
		t.Helper()
		r := run(t, "convert", from, "--variant", "brandubh", "--to", to, "-o", out)
		dropped := strings.Contains(r.stderr, "has no place for clock data")
		if r.code != code || dropped != (code == exitDropped) {
			t.Errorf("convert %s --to %s = code %d, stderr %q; want code %d", from, to, r.code, r.stderr, code)
		}
	}
	// The source in each format: CSV already without its clock data.
	sources := map[string]string{}
	for _, f := range []string{"native", "otg", "csv"} {
		sources[f] = filepath.Join(dir, "source."+f)
		code := exitOK
		if f == "csv" {
			code = exitDropped
		}
		convert(fixture, f, sources[f], code)
	}
	if g := read(sources["native"]); len(g.Plies) != 4 || g.Plies[2].Time.Avail.IsZero() || !g.Plies[3].Ply.Timeout {
		t.Fatalf("the source lacks what the test is about: %+v", g.Plies)
	}
	for _, row := range []struct {
		from, via string
		// clock: the clock tags, each ply's %ts and %avail; comments:
		// the comment on ply 1; tags: the Event tag.
		clock, comments, tags bool
		codes                 [2]int // of from → via and via → from
	}{
		{"native", "native", true, true, true, [2]int{exitOK, exitOK}},
		{"native", "otg", true, true, true, [2]int{exitOK, exitOK}},
		{"native", "csv", false, false, false, [2]int{exitDropped, exitOK}},
		{"otg", "native", true, true, true, [2]int{exitOK, exitOK}},
		{"otg", "otg", true, true, true, [2]int{exitOK, exitOK}},
		{"otg", "csv", false, false, false, [2]int{exitDropped, exitOK}},
		{"csv", "native", false, false, false, [2]int{exitOK, exitOK}},
		{"csv", "otg", false, false, false, [2]int{exitOK, exitOK}},
		{"csv", "csv", false, false, false, [2]int{exitOK, exitOK}},
	} {
		name := row.from + " → " + row.via + " → " + row.from
		mid := filepath.Join(dir, row.from+"-via."+row.via)
		back := filepath.Join(dir, row.from+"-via-"+row.via+"-back."+row.from)
		convert(sources[row.from], row.via, mid, row.codes[0])
		convert(mid, row.from, back, row.codes[1])
		src, got := read(sources[row.from]), read(back)
		orig := read(sources["native"]) // what the clock, comment and tags were
		// Always: the moves, the final time-out, the result.
		var plies, gotPlies []string
		for i := range src.Plies {
			plies = append(plies, src.Plies[i].Text())
		}
		for i := range got.Plies {
			gotPlies = append(gotPlies, got.Plies[i].Text())
		}
		if !slices.Equal(gotPlies, plies) || !slices.Equal(plies, []string{"d1-e1", "d3-f3", "d2-f2xf3", "timeout"}) ||
			got.Result != src.Result || got.Termination != "timeout" {
			t.Errorf("%s: plies %v, result %v %q; want %v, %v timeout", name, gotPlies, got.Result, got.Termination, plies, src.Result)
		}
		// The clock data, the comment and the tag: all there, or none.
		tag := func(g *notation.Game, name string) string {
			for _, tg := range g.Tags {
				if tg.Name == name {
					return tg.Value
				}
			}
			return ""
		}
		for _, tn := range []string{"TimeControl", "Start", "DefendersLeave"} {
			if want := map[bool]string{true: tag(orig, tn)}[row.clock]; tag(got, tn) != want {
				t.Errorf("%s: %s %q, want %q", name, tn, tag(got, tn), want)
			}
		}
		for i := range got.Plies {
			var want notation.PlyTime
			if row.clock {
				want = orig.Plies[i].Time
			}
			if got.Plies[i].Time != want {
				t.Errorf("%s: ply %d time %+v, want %+v", name, i+1, got.Plies[i].Time, want)
			}
		}
		if c, want := strings.Join(got.Plies[0].Comments, " "), map[bool]string{true: "a quiet start"}[row.comments]; c != want {
			t.Errorf("%s: comment on ply 1 %q, want %q", name, c, want)
		}
		if e, want := tag(got, "Event"), map[bool]string{true: tag(orig, "Event")}[row.tags]; e != want {
			t.Errorf("%s: Event %q, want %q", name, e, want)
		}
		if r := run(t, "validate", "--variant", "brandubh", back); r.code != exitOK {
			t.Errorf("%s: validate = code %d, stdout %q, stderr %q", name, r.code, r.stdout, r.stderr)
		}
	}
}
