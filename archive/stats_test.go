package archive_test

import (
	"context"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
)

// TestOutboxStats: the pending count and the oldest pending mail's queue
// time follow sending, retrying and giving up (issue 21 §1, /metrics).
func TestOutboxStats(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	stats := func(name string, wantN int, wantOldest time.Time) {
		t.Helper()
		n, oldest, err := s.OutboxStats(ctx)
		if err != nil || n != wantN || !oldest.Equal(wantOldest) {
			t.Errorf("%s: OutboxStats = %d, %v, %v; want %d, %v", name, n, oldest, err, wantN, wantOldest)
		}
	}
	stats("empty", 0, time.Time{})
	at := func(m archive.OutboxMail, d time.Duration) archive.OutboxMail { m.CreatedAt = t0.Add(d); return m }
	commit(t, s, archive.Change{Games: []*archive.Game{newGame("A")}, Outbox: []archive.OutboxMail{
		at(reply("A", "a1", "alice@example.org"), time.Second),
		at(reply("A", "a2", "bob@example.net"), 2*time.Second),
		at(reply("", "help", "carol@example.org"), 3*time.Second),
	}})
	stats("three queued", 3, t0.Add(time.Second))
	byID := map[string]int64{}
	all, err := s.PendingOutbox(ctx, t0.Add(time.Hour), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range all {
		byID[m.MessageID] = m.ID
	}
	if err := s.MarkSent(ctx, byID["a1"], t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	stats("the oldest sent", 2, t0.Add(2*time.Second))
	if err := s.MarkRetry(ctx, byID["a2"], t0.Add(time.Hour), "451 later"); err != nil {
		t.Fatal(err)
	}
	stats("one waiting for a retry still counts", 2, t0.Add(2*time.Second))
	if err := s.MarkFailed(ctx, byID["a2"], "550 no such user"); err != nil {
		t.Fatal(err)
	}
	stats("one given up", 1, t0.Add(3*time.Second))
}

// TestTimerStats: timers due at now are counted, those due more than late
// before now are behind, and a fired timer is neither.
func TestTimerStats(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	a := newGame("AAAAAA")
	commit(t, s, archive.Change{Games: []*archive.Game{a}, Writes: []archive.Write{archive.TimerPlans{
		a.ID: {Ply: 1, Timers: []archive.Timer{
			timer("ply 1 reminder 7d", archive.TimerReminder, time.Hour),
			timer("ply 1 deadline", archive.TimerDeadline, 3*time.Hour),
		}},
	}}})
	check := func(name string, now time.Time, wantDue, wantBehind int) {
		t.Helper()
		due, behind, err := s.TimerStats(ctx, now, 5*time.Minute)
		if err != nil || due != wantDue || behind != wantBehind {
			t.Errorf("%s: TimerStats = %d, %d, %v; want %d, %d", name, due, behind, err, wantDue, wantBehind)
		}
	}
	check("none due", t0.Add(59*time.Minute), 0, 0)
	check("the reminder due, not late", t0.Add(time.Hour+4*time.Minute), 1, 0)
	check("the reminder late", t0.Add(time.Hour+6*time.Minute), 1, 1)
	check("both due, the reminder late", t0.Add(3*time.Hour), 2, 1)
	commit(t, s, archive.Change{Games: []*archive.Game{a}, Writes: []archive.Write{archive.FiredTimers{{GameID: a.ID, Key: "ply 1 reminder 7d"}}}})
	check("the reminder fired", t0.Add(3*time.Hour), 1, 0)
}
