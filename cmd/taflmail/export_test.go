package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exportCases are the fixture games export is tried on: an escape, a
// capture and a resignation out of turn, a draw by agreement, a running
// game and a challenge.
var exportCases = []string{"escape", "resigned", "drawn", "offered", "invited"}

// TestExport: each fixture game in each format (golden files), and every
// file export writes is one that taflmail validate accepts.
func TestExport(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	ext := map[string]string{"native": ".tafl", "otg": ".otg", "csv": ".csv"}
	for _, name := range exportCases {
		for _, to := range []string{"native", "otg", "csv"} {
			t.Run(name+"/"+to, func(t *testing.T) {
				r := f.run(t, "export", f.games[name], "--to", to)
				if r.code != exitOK || r.stderr != "" {
					t.Fatalf("taflmail export %s --to %s = code %d, stderr %q", f.games[name], to, r.code, r.stderr)
				}
				checkOperatorGolden(t, "export-"+name+ext[to], r.stdout)

				out := filepath.Join(dir, name+ext[to])
				if r := f.run(t, "export", f.games[name], "--to", to, "-o", out); r.code != exitOK || r.stdout != "" {
					t.Fatalf("taflmail export -o = code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
				}
				data, err := os.ReadFile(out)
				if err != nil || string(data) != r.stdout {
					t.Fatalf("export -o wrote %q, %v; want what stdout showed", data, err)
				}
				args := []string{"validate", out}
				if to == "csv" {
					args = append(args, "--variant", "brandubh")
				}
				if v := run(t, args...); v.code != exitOK {
					t.Errorf("taflmail validate %s = code %d:\n%s%s\nof:\n%s", out, v.code, v.stdout, v.stderr, data)
				}
			})
		}
	}
}

func TestExportErrors(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"export", "nosuch"}, exitFailure, "taflmail: no game NOSUCH in the archive (taflmail games lists them)\n"},
		{[]string{"export"}, exitUsage, "taflmail export: want one GAME id, got 0 arguments\n"},
		{[]string{"export", f.games["escape"], "--to", "pgn"}, exitUsage, "taflmail export: --to \"pgn\": want native, otg or csv\n"},
		{[]string{"export", f.games["escape"], "--to", "auto"}, exitUsage, "taflmail export: --to \"auto\": want native, otg or csv\n"},
		{[]string{"export", f.games["escape"], "-o", filepath.Join(t.TempDir(), "no", "such", "dir", "x.tafl")}, exitFailure, "taflmail: open "},
	} {
		r := f.run(t, tc.args...)
		if r.code != tc.code || r.stdout != "" || !strings.HasPrefix(r.stderr, tc.want) {
			t.Errorf("taflmail %q = code %d, stdout %q, stderr %q; want code %d, stderr %q", tc.args, r.code, r.stdout, r.stderr, tc.code, tc.want)
		}
	}
}
