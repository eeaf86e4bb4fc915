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
		{"diagram-puzzle.golden", []string{"diagram", "testdata/games.tafl", "--game", "8", "--ply", "0", "--format", "unicode"}},
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
	r := run(t, "diagram", "testdata/games.tafl", "--format", "png", "-o", png)
	if r.code != exitOK || r.stdout != "" {
		t.Fatalf("diagram --format png -o = code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	data, err := os.ReadFile(png)
	if err != nil || !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("diagram --format png wrote %d bytes, not a PNG (%v)", len(data), err)
	}
	r = run(t, "diagram", "testdata/games.tafl", "--format", "svg")
	if r.code != exitOK || !strings.Contains(r.stdout, "<svg") {
		t.Errorf("diagram --format svg = code %d, stdout starts %.40q", r.code, r.stdout)
	}
}

func TestDiagramUsage(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"diagram"}, "give a FILE or --position"},
		{[]string{"diagram", "testdata/games.tafl", "--position", "/7/"}, "not both"},
		{[]string{"diagram", "testdata/games.tafl", "--format", "gif"}, `--format "gif"`},
		{[]string{"diagram", "testdata/games.tafl", "--game", "9"}, "has no game 9"},
		{[]string{"diagram", "testdata/games.tafl", "--ply", "99"}, "--ply 99: game 1 has 7 plies"},
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
