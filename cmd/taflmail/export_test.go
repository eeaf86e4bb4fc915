package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
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

// TestExportTakeback: a game with a ply taken back by agreement (issue 12)
// exports as the game stands, the undone ply named in a comment, and the
// record validates and replays to the same position in every format.
func TestExportTakeback(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "taflmail.db")
	store, err := archive.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	g := &archive.Game{ID: "TB4CK1", Variant: "brandubh", Attackers: "alice@player.test", Defenders: "bob@player.test",
		Challenger: "alice@player.test", Status: archive.Active, CreatedAt: at}
	plies := []archive.Ply{{N: 1, Move: "d1-e1", At: at}, {N: 2, Move: "d3-f3", At: at}, {N: 3, Move: "d2-c2", At: at}}
	steps := []archive.Change{
		{Games: []*archive.Game{g}, NewPlies: map[string][]archive.Ply{g.ID: plies}},
		{Writes: []archive.Write{archive.TakeBacks{g.ID: {Ply: plies[2]}}}},
		{NewPlies: map[string][]archive.Ply{g.ID: {{N: 3, Move: "d2-f2xf3", At: at}}}},
	}
	for _, c := range steps {
		if err := store.Commit(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	store.Close()
	f := fixture{path: path}
	r := f.run(t, "export", g.ID)
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("taflmail export = code %d, stderr %q", r.code, r.stderr)
	}
	if got := strings.Join(strings.Fields(r.stdout), " "); !strings.Contains(got, "1. d1-e1 d3-f3 {ply 3 d2-c2 taken back by agreement} 2. d2-f2xf3 *") {
		t.Errorf("the record does not show the game as it stands with the takeback as a comment:\n%s", r.stdout)
	}
	out := filepath.Join(t.TempDir(), "tb.tafl")
	if err := os.WriteFile(out, []byte(r.stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	if v := run(t, "validate", out); v.code != exitOK {
		t.Errorf("taflmail validate = code %d:\n%s%s", v.code, v.stdout, v.stderr)
	}
	for _, to := range []string{"otg", "csv"} {
		r := f.run(t, "export", g.ID, "--to", to)
		if r.code != exitOK || !strings.Contains(r.stdout, "d2-f2xf3") {
			t.Fatalf("taflmail export --to %s = code %d, stderr %q:\n%s", to, r.code, r.stderr, r.stdout)
		}
		out := filepath.Join(t.TempDir(), "tb."+to)
		if err := os.WriteFile(out, []byte(r.stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		if v := run(t, "validate", out, "--variant", "brandubh"); v.code != exitOK {
			t.Errorf("taflmail validate of the %s export = code %d:\n%s%s\nof\n%s", to, v.code, v.stdout, v.stderr, r.stdout)
		}
	}
}

// TestExportClock: a timed game keeps its clock data in native and otg;
// as CSV it is written without it, with a warning and exit status 3
// (issue 22 §2).
func TestExportClock(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "taflmail.db")
	store, err := archive.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	g := &archive.Game{ID: "CL0CK1", Variant: "brandubh", Attackers: "alice@player.test", Defenders: "bob@player.test",
		Challenger: "alice@player.test", Status: archive.Active, CreatedAt: at, StartedAt: at, TimeControl: "3d/move"}
	plies := []archive.Ply{{N: 1, Move: "d1-e1", At: at.Add(time.Hour)}, {N: 2, Move: "d3-f3", At: at.Add(2 * time.Hour)}}
	if err := store.Commit(ctx, archive.Change{Games: []*archive.Game{g}, NewPlies: map[string][]archive.Ply{g.ID: plies}}); err != nil {
		t.Fatal(err)
	}
	store.Close()
	f := fixture{path: path}
	for _, tc := range []struct {
		to, has string
		code    int
	}{
		{"native", "1. d1-e1 {[%ts 2026-11-29T11:00:00Z]} d3-f3 {[%ts 2026-11-29T12:00:00Z]} *", exitOK},
		{"otg", "[tm-time-control:3d/move]\n[start:2026-11-29T10:00:00Z]\n", exitOK},
		{"csv", "d1-e1 d3-f3,0,0,Ongoing\n", exitDropped},
	} {
		r := f.run(t, "export", g.ID, "--to", tc.to)
		warned := strings.Contains(r.stderr, "warning: ") && strings.Contains(r.stderr, "the CSV format has no place for clock data: TimeControl, Start and the %ts of 2 plies are dropped")
		if r.code != tc.code || !strings.Contains(r.stdout, tc.has) || warned != (tc.code == exitDropped) {
			t.Errorf("taflmail export --to %s = code %d, stderr %q:\n%s\nwant code %d and %q", tc.to, r.code, r.stderr, r.stdout, tc.code, tc.has)
		}
	}
}
