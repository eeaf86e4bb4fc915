package archive_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// timer returns a pending timer of ply 1 due at t0 + d.
func timer(key string, kind archive.TimerKind, d time.Duration) archive.Timer {
	return archive.Timer{Key: key, Kind: kind, Ply: 1, Due: t0.Add(d)}
}

// keys lists the game id and key of timers.
func keys(ts []archive.Timer) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.GameID+" "+t.Key)
	}
	return out
}

// TestTimersPlanFireReplace: timers are stored with their game, come due in
// order, fire once (a second firing is ErrDuplicate, a replaced one
// ErrConflict), a done timer is not pending again when a plan names it
// again, and the done marks of earlier plies go with the next plan.
func TestTimersPlanFireReplace(t *testing.T) {
	ctx := context.Background()
	s, clk, _ := openStore(t)
	a, b := newGame("AAAAAA"), newGame("BBBBBB")
	commit(t, s, archive.Change{Games: []*archive.Game{a, b}, Writes: []archive.Write{archive.TimerPlans{
		a.ID: {Ply: 1, Timers: []archive.Timer{timer("ply 1 reminder 7d", archive.TimerReminder, time.Hour), timer("ply 1 deadline", archive.TimerDeadline, 3*time.Hour)}},
		b.ID: {Ply: 1, Timers: []archive.Timer{timer("ply 1 deadline", archive.TimerDeadline, 2*time.Hour)}},
	}}})

	next, ok, err := s.NextTimer(ctx)
	if err != nil || !ok || !next.Equal(t0.Add(time.Hour)) {
		t.Fatalf("NextTimer = %v, %v, %v; want t0+1h", next, ok, err)
	}
	due, err := s.DueTimers(ctx, t0.Add(2*time.Hour), 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keys(due), []string{"AAAAAA ply 1 reminder 7d", "BBBBBB ply 1 deadline"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("DueTimers(t0+2h) = %v, want %v", got, want)
	}
	if want := (archive.Timer{GameID: "AAAAAA", Key: "ply 1 reminder 7d", Kind: archive.TimerReminder, Ply: 1, Due: t0.Add(time.Hour)}); due[0] != want {
		t.Errorf("DueTimers[0] = %+v, want %+v", due[0], want)
	}
	if due, _ := s.DueTimers(ctx, t0.Add(2*time.Hour), 1); len(due) != 1 {
		t.Errorf("DueTimers with limit 1 = %d timers", len(due))
	}

	// the reminder fires: done, no longer due; firing it again is a duplicate
	clk.Set(t0.Add(90 * time.Minute))
	fire := archive.TimerRef{GameID: a.ID, Key: "ply 1 reminder 7d"}
	commit(t, s, archive.Change{Games: []*archive.Game{a}, Writes: []archive.Write{archive.FiredTimers{fire}}})
	if err := s.Commit(ctx, archive.Change{Games: []*archive.Game{a}, Writes: []archive.Write{archive.FiredTimers{fire}}}); !errors.Is(err, archive.ErrDuplicate) {
		t.Errorf("firing a done timer: %v, want ErrDuplicate", err)
	}
	if err := s.Commit(ctx, archive.Change{Games: []*archive.Game{a}, Writes: []archive.Write{archive.FiredTimers{{GameID: a.ID, Key: "ply 1 reminder 2d"}}}}); !errors.Is(err, archive.ErrConflict) {
		t.Errorf("firing a timer that does not exist: %v, want ErrConflict", err)
	}
	ts, err := s.GameTimers(ctx, a.ID)
	if err != nil || len(ts) != 2 || !ts[0].Done.Equal(t0.Add(90*time.Minute)) || !ts[1].Done.IsZero() {
		t.Fatalf("GameTimers = %+v, %v; want the reminder done at t0+90m, the deadline pending", ts, err)
	}

	// a leave moves both timers of ply 1: the reminder stays done
	commit(t, s, archive.Change{Games: []*archive.Game{a}, Writes: []archive.Write{archive.TimerPlans{a.ID: {Ply: 1, Timers: []archive.Timer{
		timer("ply 1 reminder 7d", archive.TimerReminder, 5*time.Hour), timer("ply 1 deadline", archive.TimerDeadline, 7*time.Hour)}}}}})
	if due, _ := s.DueTimers(ctx, t0.Add(6*time.Hour), 0); !reflect.DeepEqual(keys(due), []string{"BBBBBB ply 1 deadline"}) {
		t.Errorf("after the leave DueTimers(t0+6h) = %v; the done reminder must not come back", keys(due))
	}
	if ds, err := s.Deadlines(ctx); err != nil || !ds[a.ID].Equal(t0.Add(7*time.Hour)) || !ds[b.ID].Equal(t0.Add(2*time.Hour)) {
		t.Errorf("Deadlines = %v, %v", ds, err)
	}

	// a ply: ply 2's timers replace ply 1's, and ply 1's done mark goes
	next2 := archive.Timer{Key: "ply 2 deadline", Kind: archive.TimerDeadline, Ply: 2, Due: t0.Add(9 * time.Hour)}
	commit(t, s, archive.Change{Games: []*archive.Game{a}, Writes: []archive.Write{archive.TimerPlans{a.ID: {Ply: 2, Timers: []archive.Timer{next2}}}}})
	if ts, _ := s.GameTimers(ctx, a.ID); !reflect.DeepEqual(keys(ts), []string{"AAAAAA ply 2 deadline"}) {
		t.Errorf("after ply 1: GameTimers = %v", keys(ts))
	}
	// the old deadline is gone: firing it is a conflict
	if err := s.Commit(ctx, archive.Change{Games: []*archive.Game{a}, Writes: []archive.Write{archive.FiredTimers{{GameID: a.ID, Key: "ply 1 deadline"}}}}); !errors.Is(err, archive.ErrConflict) {
		t.Errorf("firing a replaced timer: %v, want ErrConflict", err)
	}

	// the game ends: plan 0 drops everything
	commit(t, s, archive.Change{Games: []*archive.Game{a, b}, Writes: []archive.Write{archive.TimerPlans{a.ID: {}, b.ID: {}}}})
	if _, ok, err := s.NextTimer(ctx); ok || err != nil {
		t.Errorf("NextTimer with no timers = %v, %v; want none", ok, err)
	}
}

// TestTimersFailedCommitFiresNothing: a change whose game is stale fails
// as a whole, so its timer stays pending and its replies unqueued.
func TestTimersFailedCommitFiresNothing(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	g := newGame("CCCCCC")
	commit(t, s, archive.Change{Games: []*archive.Game{g}, Writes: []archive.Write{archive.TimerPlans{
		g.ID: {Ply: 1, Timers: []archive.Timer{timer("ply 1 deadline", archive.TimerDeadline, 0)}}}}})
	stale := *g
	commit(t, s, archive.Change{Games: []*archive.Game{g}}) // someone else wrote the game
	err := s.Commit(ctx, archive.Change{Games: []*archive.Game{&stale}, Writes: []archive.Write{archive.FiredTimers{{GameID: g.ID, Key: "ply 1 deadline"}}},
		Outbox: []archive.OutboxMail{reply(g.ID, "<r@x>", "bob@example.net")}})
	if !errors.Is(err, archive.ErrConflict) {
		t.Fatalf("Commit with a stale game = %v, want ErrConflict", err)
	}
	if due, _ := s.DueTimers(ctx, t0, 0); len(due) != 1 {
		t.Errorf("the timer is no longer pending after a failed commit: %v", due)
	}
	if out := outbox(t, s); len(out) != 0 {
		t.Errorf("a failed commit queued %d mails", len(out))
	}
}

// TestTimersInvalid: plans and fired timers are checked before anything
// is written.
func TestTimersInvalid(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	g := newGame("DDDDDD")
	commit(t, s, archive.Change{Games: []*archive.Game{g}})
	for name, c := range map[string]archive.Change{
		"plan of a game not written":  {Writes: []archive.Write{archive.TimerPlans{g.ID: {Ply: 1}}}},
		"fired of a game not written": {Writes: []archive.Write{archive.FiredTimers{{GameID: g.ID, Key: "k"}}}},
		"plan 0 with timers":          {Games: []*archive.Game{g}, Writes: []archive.Write{archive.TimerPlans{g.ID: {Timers: []archive.Timer{timer("k", archive.TimerReminder, 0)}}}}},
		"unknown kind":                {Games: []*archive.Game{g}, Writes: []archive.Write{archive.TimerPlans{g.ID: {Ply: 1, Timers: []archive.Timer{timer("k", "nag", 0)}}}}},
		"key twice":                   {Games: []*archive.Game{g}, Writes: []archive.Write{archive.TimerPlans{g.ID: {Ply: 1, Timers: []archive.Timer{timer("k", archive.TimerReminder, 0), timer("k", archive.TimerDeadline, 0)}}}}},
		"timer of an earlier ply":     {Games: []*archive.Game{g}, Writes: []archive.Write{archive.TimerPlans{g.ID: {Ply: 2, Timers: []archive.Timer{timer("k", archive.TimerReminder, 0)}}}}},
		"overlapping leave": {Writes: []archive.Write{archive.LeaveWrite{"a@x": {
			{First: day(2026, 12, 1), Last: day(2026, 12, 5)}, {First: day(2026, 12, 5), Last: day(2026, 12, 6)}}}}},
		"reversed leave": {Writes: []archive.Write{archive.LeaveWrite{"a@x": {{First: day(2026, 12, 5), Last: day(2026, 12, 1)}}}}},
	} {
		if err := s.Commit(ctx, c); !errors.Is(err, archive.ErrInvalid) {
			t.Errorf("%s: Commit = %v, want ErrInvalid", name, err)
		}
	}
}

// day returns 00:00 UTC of a date.
func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// TestLeave: a player's leave is replaced as a whole, read in order, per
// address in any case, and comes with Store.Game for both players.
func TestLeave(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	g := newGame("EEEEEE")
	xmas := notation.Leave{First: day(2026, 12, 24), Last: day(2027, 1, 2)}
	july := notation.Leave{First: day(2027, 7, 1), Last: day(2027, 7, 14)}
	commit(t, s, archive.Change{Games: []*archive.Game{g}, Writes: []archive.Write{archive.LeaveWrite{"Bob@Example.net": {july, xmas}}}})
	got, err := s.Leave(ctx, "bob@example.NET")
	if err != nil || !reflect.DeepEqual(got, []notation.Leave{xmas, july}) {
		t.Fatalf("Leave = %v, %v; want %v, %v", got, err, xmas, july)
	}
	if got := game(t, s, g.ID).Leave; got[engine.Attackers] != nil || !reflect.DeepEqual(got[engine.Defenders], []notation.Leave{xmas, july}) {
		t.Errorf("Game.Leave = %v", got)
	}
	commit(t, s, archive.Change{Writes: []archive.Write{archive.LeaveWrite{"bob@example.net": nil}}})
	if got, err := s.Leave(ctx, "bob@example.net"); err != nil || len(got) != 0 {
		t.Errorf("Leave after removing it = %v, %v", got, err)
	}
}

// TestDueTimersUsesIndex: finding due timers reads the pending timers'
// index in due order, without a sort or a scan of the table, and the next
// timer is one step into it (docs/performance.md measures it).
func TestDueTimersUsesIndex(t *testing.T) {
	s, _, path := openStore(t)
	_ = s
	for _, q := range []struct{ query, want string }{
		{`SELECT game_id, key FROM timers INDEXED BY timers_due WHERE done IS NULL AND due <= '2027' ORDER BY due, game_id, key LIMIT 10`, "USING INDEX timers_due (due<?)"},
		{`SELECT due FROM timers INDEXED BY timers_due WHERE done IS NULL ORDER BY due LIMIT 1`, "SCAN timers USING INDEX timers_due"},
	} {
		plan := queryPlan(t, path, q.query)
		if !strings.Contains(plan, q.want) || strings.Contains(plan, "TEMP B-TREE") {
			t.Errorf("query plan of %s:\n%s\nwant %q and no sort", q.query, plan, q.want)
		}
	}
}

// TestReplayTimed: a timed game's record carries its control, start, the
// leave that touches it, every ply's %ts (and %avail), and a time-out with
// the %ts of its declaration; package clock reads the same clocks back.
func TestReplayTimed(t *testing.T) {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	g := &archive.Game{
		ID: "FJ857P", Variant: "brandubh", Attackers: "carol@p.test", Defenders: "dave@p.test",
		Status: archive.Finished, Result: "attackers", Reason: "timeout", TimeControl: "3d+1d iccf",
		CreatedAt: start.Add(-time.Hour), StartedAt: start, EndedAt: start.Add(20 * 24 * time.Hour),
		Plies: []archive.Ply{
			{N: 1, Move: "d1-e1", At: start.Add(time.Hour)},
			{N: 2, Move: "d3-f3", At: start.Add(30 * time.Hour), Avail: start.Add(40 * time.Hour)},
			{N: 3, Move: "d2-f2xf3", At: start.Add(50 * time.Hour)},
		},
		Leave: [2][]notation.Leave{
			{{First: day(2026, 11, 1), Last: day(2026, 11, 3)}}, // before the game: left out
			{{First: day(2026, 12, 10), Last: day(2026, 12, 11)}},
		},
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
	for _, want := range []string{
		`[TimeControl "3d+1d iccf"]`, `[Start "2026-12-01T09:00:00Z"]`, `[DefendersLeave "2026-12-10/2026-12-11"]`,
		`[Termination "timeout"]`, "{[%ts 2026-12-01T10:00:00Z]}", "{[%ts 2026-12-02T15:00:00Z] [%avail 2026-12-03T01:00:00Z]}",
		"timeout {[%ts 2026-12-21T09:00:00Z]}",
	} {
		if !strings.Contains(rec, want) {
			t.Errorf("record lacks %q:\n%s", want, rec)
		}
	}
	if strings.Contains(rec, "AttackersLeave") {
		t.Errorf("record names leave before the game:\n%s", rec)
	}
	// it reads back as a legal timed record with the same clock data
	games, err := notation.ReadGames("FJ857P.tafl", []byte(rec), notation.ReadOptions{})
	if err != nil || len(games) != 1 || games[0].ClockErr != nil {
		t.Fatalf("ReadGames = %v, %v", games, err)
	}
	c, err := games[0].Clock()
	if err != nil || c.Control.String() != "3d+1d iccf" || !c.Start.Equal(start) {
		t.Errorf("Clock = %+v, %v", c, err)
	}

	// untimed, or not started: as before clocks existed
	for _, u := range []archive.Game{{TimeControl: ""}, {TimeControl: "30d+1d"}, {TimeControl: "3 days per move", StartedAt: start}} {
		g2 := *g
		g2.TimeControl, g2.StartedAt, g2.Reason, g2.Result = u.TimeControl, u.StartedAt, "", ""
		r, err := g2.Replay()
		if err != nil {
			t.Fatal(err)
		}
		b.Reset()
		if err := notation.WriteNative(&b, r); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), "%ts") || strings.Contains(b.String(), "[Start ") {
			t.Errorf("game with control %q, start %v carries clock data:\n%s", u.TimeControl, u.StartedAt, b.String())
		}
	}
}

// queryPlan returns SQLite's plan for query on the archive at path, one
// step a line.
func queryPlan(t *testing.T, path, query string) string {
	t.Helper()
	db := rawDB(t, path)
	rows, err := db.Query("EXPLAIN QUERY PLAN " + query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(&b, detail)
	}
	return b.String()
}

// rawDB opens a second, plain connection to the archive at path.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestEngineGameAndTimer: a game's engine level and a timer of kind
// engine are stored and read back; a negative level is refused.
func TestEngineGameAndTimer(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	g := newGame("EEEEEE")
	g.Defenders, g.DefenderToken, g.EngineLevel = "engine@taflmail.invalid", "", 4
	commit(t, s, archive.Change{Games: []*archive.Game{g}, Writes: []archive.Write{archive.TimerPlans{
		g.ID: {Ply: 1, Timers: []archive.Timer{timer("ply 1 engine", archive.TimerEngine, 0)}},
	}}})
	got, err := s.Game(ctx, g.ID)
	if err != nil || got.EngineLevel != 4 {
		t.Fatalf("Game = %+v, %v; want engine level 4", got, err)
	}
	gs, err := s.GamesOf(ctx, "alice@example.org")
	if err != nil || len(gs) != 1 || gs[0].EngineLevel != 4 {
		t.Errorf("GamesOf = %+v, %v; want the game with engine level 4", gs, err)
	}
	due, err := s.DueTimers(ctx, t0, 0)
	if err != nil || len(due) != 1 || due[0].Kind != archive.TimerEngine || due[0].Key != "ply 1 engine" {
		t.Errorf("DueTimers = %+v, %v; want the engine timer", due, err)
	}
	got.EngineLevel = 5
	commit(t, s, archive.Change{Games: []*archive.Game{got}})
	if again, err := s.Game(ctx, g.ID); err != nil || again.EngineLevel != 5 {
		t.Errorf("after an update: %+v, %v; want engine level 5", again, err)
	}
	bad := newGame("FFFFFF")
	bad.EngineLevel = -1
	if err := s.Commit(ctx, archive.Change{Games: []*archive.Game{bad}}); !errors.Is(err, archive.ErrInvalid) {
		t.Errorf("engine level -1: %v, want ErrInvalid", err)
	}
}
