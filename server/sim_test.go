package server

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/clock"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// simEvent is a mail a player sends at a day of the simulated game.
type simEvent struct {
	day  int
	who  string
	line string // "" for the player's next move
}

// TestSimulated120Days plays a 20d+3d Copenhagen game over 120 days on the
// fake clock, the way Run drives it: from event to event, each the
// earlier of the next mail and the next timer. Each player's reminders
// (7 days, 2 days, 12 hours), a leave of each player (one over the new
// year, one of 30 days over a deadline), a move with exactly nothing left
// and a time-out are checked mail by mail against the instants worked out
// by hand below (CORRESPONDENCE.md §2–§4); the archived record's clocks,
// read back by package clock, agree with the referee's.
func TestSimulated120Days(t *testing.T) {
	h := newHarness(t)
	h.now = time.Date(2026, 11, 28, 23, 59, 58, 0, time.UTC)
	id, start := startTimed(t, h, "20d+3d")
	if !start.Equal(time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("start %v", start)
	}
	d := func(n int) time.Time { return start.AddDate(0, 0, n) }
	date := func(n int) string { return d(n).Format("2006-01-02") }
	moves := playerMoves(t, 14, 3)
	script := []simEvent{
		{3, alice, ""}, // A: 20d − 3d + 3d = 20d
		{18, bob, ""},  // B: 20d − 15d + 3d = 8d; below 7d after 13d: day 16
		{20, alice, "leave " + date(30) + " to " + date(39)},
		{45, alice, ""}, // A ran 12d + 5d (leave days 30–39 out): 6d; below 7d after 13d: day 41
		{50, bob, ""},   // B 8d: below 7d on day 46; 8 − 5 + 3 = 6d
		{55, alice, ""}, // A 6d: below 2d on day 54; 6 − 5 + 3 = 4d
		{60, bob, ""},   // B 6d: below 2d on day 59; 4d
		{63, alice, ""}, // A 4d: below 2d on day 62; 4d
		{64, bob, ""},   // B 4d → 6d
		{66, alice, ""}, // A 4d: 2d due one second after this move; 5d
		{70, bob, ""},   // B 6d → 5d
		{74, alice, ""}, // A 5d: below 2d on day 73; 4d
		{75, bob, "leave " + date(76) + " to " + date(105)},
		{109, bob, ""},   // B 5d ran 2d + 3d (leave days 76–105 out): exactly 0 left, plays; 3d
		{112, alice, ""}, // A 4d: below 2d on day 111; 4d
		{114, bob, ""},   // B 3d: below 2d on day 113; 4d
		// A 4d from day 114: below 2d on day 116, below 12h on day 117 noon, lost on day 118
	}
	at := func(n int, rest time.Duration) string { return fmt.Sprintf("day %3d %8s", n, rest) }
	var want []string
	both := func(n int, kind string) {
		want = append(want, at(n, 0)+" "+alice+" "+kind, at(n, 0)+" "+bob+" "+kind)
	}
	for _, e := range script {
		kind := "move"
		if e.line != "" {
			kind = "leave"
		}
		both(e.day, kind)
	}
	for _, r := range []struct {
		day  int
		rest time.Duration
		who  string
		th   string
	}{
		{16, time.Second, bob, "7d"}, {41, time.Second, alice, "7d"}, {46, time.Second, bob, "7d"},
		{54, time.Second, alice, "2d"}, {59, time.Second, bob, "2d"}, {62, time.Second, alice, "2d"},
		{73, time.Second, alice, "2d"}, {107, time.Second, bob, "2d"}, {108, 12*time.Hour + time.Second, bob, "12h"},
		{111, time.Second, alice, "2d"}, {113, time.Second, bob, "2d"},
		{116, time.Second, alice, "2d"}, {117, 12*time.Hour + time.Second, alice, "12h"},
	} {
		want = append(want, at(r.day, r.rest)+" "+r.who+" reminder "+r.th)
	}
	// the time-out is declared when the arrival grace after the deadline has passed
	lost := time.Second + referee.DefaultArrivalGrace
	want = append(want, at(118, lost)+" "+alice+" result", at(118, lost)+" "+bob+" result")
	slices.Sort(want)

	below := regexp.MustCompile(`has fallen below (\S+):`)
	var got []string
	record := func(ms []sentMail) {
		n := int(h.now.Sub(start) / day)
		rest := h.now.Sub(d(n))
		for _, m := range ms {
			kind := "other: " + m.msg.Subject
			switch text := m.msg.Text; {
			case strings.Contains(m.msg.Subject, "game over"):
				kind = "result"
			case strings.Contains(m.msg.Subject, "reminder"):
				kind = "reminder " + below.FindStringSubmatch(text)[1]
			case strings.Contains(text, "Leave taken") || strings.Contains(text, "takes leave"):
				kind = "leave"
			case strings.Contains(text, " played "):
				kind = "move"
			}
			got = append(got, at(n, rest)+" "+m.to+" "+kind)
			if !strings.Contains(m.msg.Text, "Clocks (20d+3d)") {
				t.Errorf("%s to %s shows no clocks:\n%s", at(n, rest), m.to, m.msg.Text)
			}
		}
	}
	ctx := context.Background()
	ply := 0
	for h.now.Before(d(120)) {
		next, ok, err := h.store.NextTimer(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(script) > 0 && (!ok || d(script[0].day).Before(next) || d(script[0].day).Equal(next)) {
			e := script[0]
			script = script[1:]
			line := e.line
			if line == "" {
				line, ply = moves[ply], ply+1
			}
			record(h.replyAt(d(e.day), e.who, line))
			continue
		}
		if !ok || next.After(d(120)) {
			break
		}
		if h.now.Before(next) {
			h.now = next
		} else {
			// the timer stayed due: a deadline waits Options.ArrivalGrace
			// past its instant (scheduler.go)
			h.now = next.Add(h.srv.Opts.ArrivalGrace)
		}
		record(h.runTimers(nil))
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("mails of the simulated game:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// the archived record carries the clocks, and package clock reads the
	// referee's time-out back from it
	g, err := h.store.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	r, err := g.Replay()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := notation.WriteNative(&b, r); err != nil {
		t.Fatal(err)
	}
	rec := b.String()
	mustContain(t, "record", rec, `[AttackersLeave "`+date(30)+"/"+date(39)+`"]`, `[DefendersLeave "`+date(76)+"/"+date(105)+`"]`,
		`[Termination "timeout"]`)
	games, err := notation.ReadGames(id+".tafl", []byte(rec), notation.ReadOptions{})
	if err != nil || len(games) != 1 {
		t.Fatalf("ReadGames: %v", err)
	}
	v, err := clock.Judge(games[0].Replay(), time.Time{})
	if err != nil || v == nil || v.Timeout == nil {
		t.Fatalf("Judge = %+v, %v; want the time-out", v, err)
	}
	if v.Timeout.Side != engine.Attackers || v.Timeout.Ply != 14 || !v.Timeout.Deadline.Equal(d(118).Add(time.Second)) {
		t.Errorf("the record's time-out: %+v; want the attackers after 14 plies, deadline day 118 + 1 s", *v.Timeout)
	}
	if v.Left != [2]time.Duration{4 * day, 4 * day} {
		t.Errorf("the record's clocks after ply 14: %v, want 4d each", v.Left)
	}
}
