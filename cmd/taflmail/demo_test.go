package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/engine"
)

func TestDemoGameIsLegal(t *testing.T) {
	v, _ := engine.Lookup("copenhagen")
	p, err := engine.NewPosition(v)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range demoGame {
		from, to, _ := strings.Cut(m, "-")
		r, err := p.Play(engine.Move{From: square(from), To: square(to)})
		if err != nil {
			t.Fatalf("ply %d %s: %v", i+1, m, err)
		}
		if len(r.Captures) != 0 {
			t.Errorf("ply %d %s captures %v; the demo's mails say nothing is captured", i+1, m, r.Captures)
		}
		if over := r.Outcome.Over(); over != (i == len(demoGame)-1) {
			t.Fatalf("ply %d %s: outcome %+v", i+1, m, r.Outcome)
		}
	}
	if o := p.Outcome(); o.Result != engine.DefendersWin || o.Reason != engine.ReasonEscape || o.Ply != 12 {
		t.Fatalf("demo game ends %+v, want defenders win by escape on ply 12", o)
	}
}

func TestDemoPlaysWholeGame(t *testing.T) {
	var out bytes.Buffer
	cmd := NewRootCommand()
	cmd.SetArgs([]string{"demo"})
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("demo: %v\n%s", err, out.String())
	}
	got := out.String()
	for _, want := range []string{
		`alice -> taflmail  "new copenhagen with bob@taflmail.test as attackers"`,
		`bob   -> taflmail  "accept"`,
		`alice -> taflmail  "1. h1-h3"`,
		`bob   -> taflmail  "6... c1-a1"`,
		"is over after 12 plies: defenders (escape)",
		`[Termination "king escaped"]`,
		"game over: defenders win (escape)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("demo output lacks %q:\n%s", want, got)
		}
	}
}

// square reads a lower-case square such as "c1".
func square(s string) engine.Square {
	r := 0
	fmt.Sscanf(s[1:], "%d", &r)
	return engine.SquareAt(int(s[0]-'a'), r-1)
}

// TestDemoClock: demo --clock plays a timed game on the fast clock: a
// reminder to alice, then her loss on time, with both times where the
// fast clock puts them and the record ending "timeout".
func TestDemoClock(t *testing.T) {
	var out bytes.Buffer
	cmd := NewRootCommand()
	cmd.SetArgs([]string{"demo", "--clock"})
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("demo --clock: %v\n%s", err, out.String())
	}
	got := out.String()
	for _, want := range []string{
		`alice -> taflmail  "new copenhagen with bob@taflmail.test as attackers time 1d+0d"`,
		"(alice does not answer; the clock now runs four hours a second)",
		"taflmail -> alice  ", "reminder, move 2", "Reminder: your time for this game has fallen below 12h",
		"taflmail -> bob    ", "game over, you won (the defenders win)", "The attackers ran out of time",
		`[TimeControl "1d+0d"]`, `[Termination "timeout"]`, "timeout {[%ts ",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("demo --clock output lacks %q:\n%s", want, got)
		}
	}
	if r, o := strings.Index(got, "Reminder: your time"), strings.Index(got, "ran out of time"); r < 0 || o < r {
		t.Errorf("the reminder does not come before the time-out:\n%s", got)
	}
	if i := strings.Index(got, "The record as"); i < 0 || strings.Contains(got[i:], "Clocks (") {
		t.Errorf("the printed record runs on into the mail:\n%s", got)
	}
}

// TestDemoTimeout: a timeout of zero or less is a usage error, and a game
// that has not ended in time says so in words, not "context deadline
// exceeded" (trial report §9.3).
func TestDemoTimeout(t *testing.T) {
	for _, d := range []string{"0", "-5s"} {
		r := run(t, "demo", "--timeout", d)
		shown := map[string]string{"0": "0s", "-5s": "-5s"}[d]
		if r.code != exitUsage || !strings.Contains(r.stderr, "taflmail demo: --timeout "+shown+": the time must be more than 0") {
			t.Errorf("demo --timeout %s = code %d, stderr %q; want a usage error", d, r.code, r.stderr)
		}
	}
	for _, d := range []string{"1ms", "300ms"} {
		r := run(t, "demo", "--timeout", d)
		want := "taflmail: the demo game had not ended after " + d + " (--timeout); give it more time, e.g. --timeout 2m\n"
		if r.code != exitFailure || r.stderr != want {
			t.Errorf("demo --timeout %s = code %d, stderr %q; want %q", d, r.code, r.stderr, want)
		}
	}
}

// TestDemoServeFlags: the flags of demo --serve are refused without it,
// and a port out of range is a usage error.
func TestDemoServeFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"demo", "--no-referee"}, "--no-referee goes with --serve"},
		{[]string{"demo", "--imap-port", "1143"}, "--imap-port goes with --serve"},
		{[]string{"demo", "--serve", "--smtp-port", "70000"}, "--smtp-port 70000: want a port from 1 to 65535, or 0 for any"},
	} {
		r := run(t, tc.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("taflmail %q = code %d, stderr %q; want 2 and %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
}
