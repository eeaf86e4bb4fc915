package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiagramGolden: ASCII boards (the board of every mail reply) and one
// Unicode board, from a record and from an OTN position.
func TestDiagramGolden(t *testing.T) {
	tests := []struct {
		golden string
		args   []string
	}{
		{"diagram-game1.golden", []string{"diagram", "testdata/games.tafl"}},
		{"diagram-game1-ply5.golden", []string{"diagram", "testdata/games.tafl", "--game", "1", "--ply", "5"}},
		{"diagram-puzzle.golden", []string{"diagram", "testdata/games.tafl", "--game", "8", "--ply", "0", "--to", "unicode"}},
		{"diagram-position.golden", []string{"diagram", "--position", "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ defenders"}},
		{"diagram-alea.golden", []string{"diagram", "--position", "/2t2t7t2t2/19/t4t7t4t/7t1t1t7/6t1T1T1t6/t1t2t7t2t1t/4t4T4t4/3t4T1T4t3/4T2T1T1T2T4/3t2T1TKT1T2t3/4T2T1T1T2T4/3t4T1T4t3/4t4T4t4/t1t2t7t2t1t/6t1T1T1t6/7t1t1t7/t4t7t4t/19/2t2t7t2t2/"}},
	}
	for _, tt := range tests {
		r := run(t, tt.args...)
		if r.code != exitOK || r.stderr != "" {
			t.Errorf("taflmail %q = code %d, stderr %q", tt.args, r.code, r.stderr)
			continue
		}
		checkGolden(t, tt.golden, r.stdout)
		if !strings.Contains(tt.args[len(tt.args)-1], "unicode") {
			for i, line := range strings.Split(r.stdout, "\n") {
				if len(line) > 72 {
					t.Errorf("%s line %d has %d columns, the limit is 72", tt.golden, i+1, len(line))
				}
				for _, c := range []byte(line) {
					if c > 0x7e {
						t.Errorf("%s line %d is not 7-bit ASCII: %q", tt.golden, i+1, line)
						break
					}
				}
			}
		}
	}
}

func TestDiagramPictures(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "b.png")
	r := run(t, "diagram", "testdata/games.tafl", "--to", "png", "-o", png)
	if r.code != exitOK || r.stdout != "" || r.stderr != "" {
		t.Fatalf("diagram --to png -o = code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	data, err := os.ReadFile(png)
	if err != nil || !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("diagram --to png wrote %d bytes, not a PNG (%v)", len(data), err)
	}
	r = run(t, "diagram", "testdata/games.tafl", "--to", "svg")
	if r.code != exitOK || !strings.Contains(r.stdout, "<svg") {
		t.Errorf("diagram --to svg = code %d, stdout starts %.40q", r.code, r.stdout)
	}
}

func TestDiagramUsage(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"diagram"}, "give a FILE or --position"},
		{[]string{"diagram", "testdata/games.tafl", "--position", "/7/"}, "not both"},
		{[]string{"diagram", "testdata/games.tafl", "--to", "gif"}, `--to "gif": want ascii, unicode, svg or png`},
		{[]string{"diagram", "testdata/games.tafl", "--format", "gif"}, `--format "gif": want auto, native, otg or csv`},
		{[]string{"diagram", "testdata/games.tafl", "--format", "png", "--to", "svg"}, `--format "png" is a drawing, which --to already names`},
		{[]string{"diagram", "testdata/games.tafl", "--input", "native", "--format", "otg"}, "--input is the old name of --format: give only --format"},
		{[]string{"diagram", "testdata/games.tafl", "--game", "9"}, "has no game 9"},
		{[]string{"diagram", "testdata/games.tafl", "--ply", "99"}, "--ply 99: want 0..7 (the plies game 1 has)"},
		{[]string{"diagram", "testdata/games.tafl", "--ply", "-5"}, "--ply -5: want 0..7"},
		{[]string{"diagram", "testdata/games.tafl", "--ply", "-1"}, "--ply -1: want 0..7"},
		{[]string{"diagram", "--position", "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", "--ply", "-1"}, "--game and --ply apply to a FILE"},
		{[]string{"diagram", "--position", "/3t3/"}, "--position: 1:1: position has 1 ranks"},
		{[]string{"diagram", "--position", "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", "--ply", "2"}, "--game and --ply apply to a FILE"},
		{[]string{"diagram", "--position", "/4t4/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/4t4/", "--variant", "copenhagen"}, "--position under copenhagen"},
		{[]string{"diagram", "--position", "/8/8/8/8/8/8/8/K7/"}, "no built-in variant has a 8×8 board"},
	}
	for _, tt := range tests {
		r := run(t, tt.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) || r.stdout != "" {
			t.Errorf("taflmail %q = code %d, stdout %q, stderr %q; want 2 and %q", tt.args, r.code, r.stdout, r.stderr, tt.want)
		}
	}
}

// TestDiagramOldFlags: --input (now --format) and --format with a
// drawing (now --to) still work, each with a one-line notice on stderr.
func TestDiagramOldFlags(t *testing.T) {
	want := run(t, "diagram", "testdata/games.tafl", "--format", "native", "--to", "unicode")
	if want.code != exitOK || want.stderr != "" {
		t.Fatalf("diagram --format native --to unicode = code %d, stderr %q", want.code, want.stderr)
	}
	for _, tc := range []struct {
		args   []string
		notice string
	}{
		{[]string{"--input", "native", "--to", "unicode"},
			"taflmail diagram: --input is deprecated: use --format native (the record format, as in validate and convert)\n"},
		{[]string{"--format", "unicode"},
			"taflmail diagram: --format unicode names a drawing: use --to unicode (--format is now the record format, as in validate and convert)\n"},
		{[]string{"--input", "native", "--format", "unicode"},
			"taflmail diagram: --format unicode names a drawing: use --to unicode (--format is now the record format, as in validate and convert)\n" +
				"taflmail diagram: --input is deprecated: use --format native (the record format, as in validate and convert)\n"},
	} {
		args := append([]string{"diagram", "testdata/games.tafl"}, tc.args...)
		r := run(t, args...)
		if r.code != exitOK || r.stdout != want.stdout || r.stderr != tc.notice {
			t.Errorf("taflmail %q = code %d, stderr %q, stdout the same as --format native --to unicode: %v; want stderr %q",
				args, r.code, r.stderr, r.stdout == want.stdout, tc.notice)
		}
	}
	// --input is hidden from the help, --to and --format are there.
	h := run(t, "diagram", "--help")
	_, flags, _ := strings.Cut(h.stdout, "\nFlags:\n")
	if strings.Contains(flags, "--input") || !strings.Contains(flags, "--to string") || !strings.Contains(flags, "--format string") {
		t.Errorf("taflmail diagram --help flags:\n%s", flags)
	}
}

// TestDiagramFinishedGames: after the last ply of a game that ended by
// resignation or agreement, the board says so instead of naming a side to
// move, in every drawing; before it, the side to move is named.
func TestDiagramFinishedGames(t *testing.T) {
	const dir = "testdata/operator/"
	for _, tc := range []struct {
		file, end string
	}{
		{"export-resigned.tafl", "game over: defenders win (resignation)"},
		{"export-resigned.otg", "game over: defenders win (resignation)"},
		{"export-drawn.tafl", "game over: draw (draw agreed)"},
		{"export-escape.tafl", "game over: defenders win (escape)"},
	} {
		for _, to := range []string{"ascii", "unicode", "svg"} {
			r := run(t, "diagram", dir+tc.file, "--to", to)
			if r.code != exitOK || r.stderr != "" {
				t.Fatalf("diagram %s --to %s = code %d, stderr %q", tc.file, to, r.code, r.stderr)
			}
			if !strings.Contains(r.stdout, tc.end) || strings.Contains(r.stdout, "to move") {
				t.Errorf("diagram %s --to %s does not say %q, or names a side to move:\n%.2000s", tc.file, to, tc.end, r.stdout)
			}
		}
	}
	r := run(t, "diagram", dir+"export-resigned.tafl", "--ply", "2")
	if !strings.HasSuffix(r.stdout, "  attackers to move\n") {
		t.Errorf("diagram export-resigned.tafl --ply 2 (before the end) =\n%s", r.stdout)
	}
}
