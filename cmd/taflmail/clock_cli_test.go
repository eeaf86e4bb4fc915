package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server"
)

// clockFixture is an archive with two timed games played through the
// referee on a fake clock from 2026-11-29 00:00 UTC: "running" (alice vs
// bob, 10d+1d, three plies, bob on leave 2026-12-24 to 2027-01-02, a
// reminder sent) and "timeout" (carol vs dave, 2d+0d, two plies, then
// carol's time ran out).
func clockFixture(t *testing.T) (path string, games map[string]string) {
	t.Helper()
	ctx := context.Background()
	now := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	path = filepath.Join(t.TempDir(), "taflmail.db")
	store, err := archive.OpenWith(ctx, path, archive.Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	sender := &fixtureSender{}
	srv, err := server.New(server.Options{
		Address: "tafl@game.test", Store: store, Sender: sender, Now: clock,
		Rand: rand.NewChaCha8([32]byte{9}), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	seq := 0
	mail := func(who, body string, after time.Duration) {
		t.Helper()
		now = now.Add(after)
		seq++
		addr := who + fixtureDomain
		subject, hdr := "a game?", ""
		for i := len(sender.sent) - 1; i >= 0; i-- {
			if s := sender.sent[i]; s.to == addr {
				subject, hdr = "Re: "+s.msg.Subject, "In-Reply-To: <"+s.msg.MessageID+">\r\n"
				break
			}
		}
		raw := fmt.Sprintf("From: %s\r\nTo: tafl@game.test\r\nSubject: %s\r\nMessage-ID: <c%d@player.test>\r\n%s\r\n%s\r\n", addr, subject, seq, hdr, body)
		m, err := mailer.Parse(strings.NewReader(raw), 0)
		if err != nil {
			t.Fatal(err)
		}
		m.Arrived = now
		if err := srv.HandleMail(ctx, m); err != nil {
			t.Fatal(err)
		}
		srv.FlushOutbox(ctx)
	}
	mail("alice", "new brandubh with bob@player.test time 10d+1d", 0)
	mail("bob", "accept", time.Hour)
	mail("alice", "d1-e1", 2*time.Hour)
	mail("bob", "d3-f3", 24*time.Hour)
	mail("alice", "d2-f2", time.Hour)
	mail("bob", "leave 2026-12-24 to 2027-01-02", time.Hour)
	mail("carol", "new brandubh with dave@player.test time 2d+0d", time.Hour)
	mail("dave", "accept", time.Hour)
	mail("carol", "d1-e1", time.Hour)
	mail("dave", "d3-f3", time.Hour)
	now = now.Add(3 * 24 * time.Hour)
	if n, err := srv.RunTimers(ctx); err != nil || n == 0 {
		t.Fatalf("RunTimers = %d, %v", n, err)
	}
	gs, err := store.Games(ctx, archive.GameFilter{})
	if err != nil {
		t.Fatal(err)
	}
	games = map[string]string{}
	for _, g := range gs {
		games[map[string]string{"alice" + fixtureDomain: "running", "carol" + fixtureDomain: "timeout"}[g.Challenger]] = g.ID
	}
	return path, games
}

// TestClockOperatorCommands: show and games show a timed game's clocks and
// deadline, export writes its clock data, and validate reads the same
// clocks and the time-out back from the exported records.
func TestClockOperatorCommands(t *testing.T) {
	path, games := clockFixture(t)
	arch := func(args ...string) result { return run(t, append(args, "--archive-path", path)...) }

	r := arch("show", games["running"])
	for _, want := range []string{
		"Clock:     10d+1d: attackers 11d21h, defenders 10d after ply 3; the defenders must move no later than 2026-12-10 04:00:00 UTC\n",
		"Leave:     defenders 2026-12-24/2027-01-02\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("show running lacks %q:\n%s%s", want, r.stdout, r.stderr)
		}
	}
	r = arch("show", games["timeout"])
	for _, want := range []string{"Status:    finished: the defenders win (the attackers ran out of time)", "Clock:     2d+0d: attackers 1d23h, defenders 1d23h after ply 2\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("show timeout lacks %q:\n%s%s", want, r.stdout, r.stderr)
		}
	}

	r = arch("games")
	lines := strings.Split(r.stdout, "\n")
	if !strings.HasSuffix(strings.TrimSpace(lines[0]), "CLOCK   DEADLINE") {
		t.Errorf("games header %q lacks CLOCK and DEADLINE", lines[0])
	}
	if !strings.Contains(r.stdout, "10d+1d  2026-12-10 04:00 UTC") || !strings.Contains(r.stdout, "2d+0d   -") {
		t.Errorf("games does not show the controls and the running game's deadline:\n%s", r.stdout)
	}
	r = arch("games", "--json", "--status", "active")
	var line gameJSONLine
	if err := json.Unmarshal([]byte(r.stdout), &line); err != nil || line.TimeControl != "10d+1d" || line.Deadline != "2026-12-10T04:00:01Z" {
		t.Errorf("games --json = %+v, %v:\n%s", line, err, r.stdout)
	}

	dir := t.TempDir()
	for name, wants := range map[string][]string{
		"running": {`"clock":{"control":"10d+1d","attackers_left_s":`, `"legal":true`},
		"timeout": {`"outcome":{"winner":"defenders","reason":"time","ply":2}`},
	} {
		out := filepath.Join(dir, name+".tafl")
		if r := arch("export", games[name], "-o", out); r.code != exitOK {
			t.Fatalf("export %s: %s", name, r.stderr)
		}
		data, _ := os.ReadFile(out)
		for _, want := range []string{`[TimeControl "`, `[Start "2026-11-29T01:00:00Z"]`, "{[%ts 2026-11-29T03:00:00Z]}"} {
			if name == "running" && !strings.Contains(string(data), want) {
				t.Errorf("export %s lacks %q:\n%s", name, want, data)
			}
		}
		v := run(t, "validate", "--json", out)
		for _, want := range wants {
			if !strings.Contains(v.stdout, want) {
				t.Errorf("validate --json %s lacks %q:\n%s%s\nof:\n%s", name, want, v.stdout, v.stderr, data)
			}
		}
	}
}

// TestPliesAgree: games, validate, analyse and diagram count the plies of
// a game lost on time alike: its moves, not the final time-out (issue 22
// §9: analyse took the time-out for a third ply and analysed "after ply
// 3" a game that games lists with 2).
func TestPliesAgree(t *testing.T) {
	path, games := clockFixture(t)
	id := games["timeout"]
	r := run(t, "games", "--json", "--status", "finished", "--archive-path", path)
	var line gameJSONLine
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		if err := json.Unmarshal([]byte(l), &line); err != nil {
			t.Fatalf("games --json: %v:\n%s", err, r.stdout)
		}
		if line.ID == id {
			break
		}
	}
	if line.ID != id || line.Plies != 2 {
		t.Fatalf("games --json for %s = %+v, want 2 plies", id, line)
	}
	out := filepath.Join(t.TempDir(), "timeout.tafl")
	if r := run(t, "export", id, "-o", out, "--archive-path", path); r.code != exitOK {
		t.Fatalf("export: %s", r.stderr)
	}
	if data, _ := os.ReadFile(out); !strings.Contains(string(data), "timeout") {
		t.Fatalf("the export has no time-out ply:\n%s", data)
	}
	if v := run(t, "validate", "--json", out); !strings.Contains(v.stdout, `"plies":2,`) {
		t.Errorf("validate --json = %s", v.stdout)
	}
	a := run(t, "analyse", out, "--depth", "1", "--json")
	if a.code != exitOK || !strings.Contains(a.stdout, `"ply":2,`) {
		t.Errorf("analyse (all plies) = code %d, %s%s; want ply 2", a.code, a.stdout, a.stderr)
	}
	for _, cmd := range [][]string{{"analyse", out, "--depth", "1", "--ply", "3"}, {"diagram", out, "--ply", "3"}} {
		r := run(t, cmd...)
		if r.code != exitUsage || !strings.Contains(r.stderr, "--ply 3: want 0..2") {
			t.Errorf("%v = code %d, stderr %q; want a usage error naming 0..2", cmd, r.code, r.stderr)
		}
	}
	d := run(t, "diagram", out)
	if d.code != exitOK || !strings.HasSuffix(d.stdout, "  game over: defenders win (timeout)\n") {
		t.Errorf("diagram of the whole game = code %d:\n%s%s", d.code, d.stdout, d.stderr)
	}
}
