package main

import (
	"strings"
	"testing"
)

// TestShow: every fixture game as show prints it (golden files), and the
// unicode board.
func TestShow(t *testing.T) {
	f := newFixture(t)
	for _, name := range []string{"escape", "resigned", "drawn", "offered", "invited", "declined", "waiting"} {
		t.Run(name, func(t *testing.T) {
			r := f.run(t, "show", strings.ToLower(f.games[name]))
			if r.code != exitOK || r.stderr != "" {
				t.Fatalf("taflmail show %s = code %d, stderr %q", f.games[name], r.code, r.stderr)
			}
			checkOperatorGolden(t, "show-"+name+".txt", r.stdout)
			if finished := name == "escape" || name == "resigned" || name == "drawn"; finished && strings.Contains(r.stdout, "to move") {
				t.Errorf("taflmail show %s names a side to move in a finished game:\n%s", name, r.stdout)
			}
		})
	}
	r := f.run(t, "show", f.games["escape"], "--format", "unicode")
	if r.code != exitOK || !strings.Contains(r.stdout, "[♔]") || !strings.Contains(r.stdout, "Status:    finished: the defenders win (the king escaped)") {
		t.Errorf("taflmail show --format unicode = code %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestShowErrors(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"show", "ZZZZZZ"}, exitFailure, "taflmail: no game ZZZZZZ in the archive (taflmail games lists them)\n"},
		{[]string{"show"}, exitUsage, "taflmail show: want one GAME id, got 0 arguments\n"},
		{[]string{"show", "a", "b"}, exitUsage, "taflmail show: want one GAME id, got 2 arguments\n"},
		{[]string{"show", f.games["escape"], "--format", "svg"}, exitUsage, "taflmail show: --format \"svg\": want ascii or unicode\n"},
	} {
		r := f.run(t, tc.args...)
		if r.code != tc.code || r.stdout != "" || !strings.HasPrefix(r.stderr, tc.want) {
			t.Errorf("taflmail %q = code %d, stdout %q, stderr %q; want code %d, stderr %q", tc.args, r.code, r.stdout, r.stderr, tc.code, tc.want)
		}
	}
}
