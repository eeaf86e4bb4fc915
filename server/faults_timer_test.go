package server

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// The scheduler's calls on the archive, for fault injection.

func (f *faultStore) DueTimers(ctx context.Context, now time.Time, limit int) (ts []archive.Timer, err error) {
	err = f.wrap("DueTimers", func() (e error) { ts, e = f.Store.DueTimers(ctx, now, limit); return })
	return ts, err
}

func (f *faultStore) NextTimer(ctx context.Context) (at time.Time, ok bool, err error) {
	err = f.wrap("NextTimer", func() (e error) { at, ok, e = f.Store.NextTimer(ctx); return })
	return at, ok, err
}

func (f *faultStore) Leave(ctx context.Context, addr string) (ls []notation.Leave, err error) {
	err = f.wrap("Leave", func() (e error) { ls, e = f.Store.Leave(ctx, addr); return })
	return ls, err
}

// ClaimOutboxes claims a round of mails in one transaction; it stands for
// one "ClaimOutbox" call per mail, as the daemon claimed them before
// rounds were claimed at once (wrapEach).
func (f *faultStore) ClaimOutboxes(ctx context.Context, ids []int64, owner string, at time.Time) (cs []archive.ClaimState, err error) {
	err = f.wrapEach("ClaimOutbox", len(ids), func() (e error) { cs, e = f.Store.ClaimOutboxes(ctx, ids, owner, at); return })
	return cs, err
}

// timerPoint is one step of a timer firing at which TestFaultTimerPoints
// makes the daemon fail. inject arms the fault; it returns whether the
// first RunTimers must fail and, for a fault outside the archive, a
// function that reports whether it fired (nil: the archive's injected
// faults must all have been taken, faultStore.unfired).
type timerPoint struct {
	name   string
	inject func(h *harness, fs *faultStore) (wantErr bool, fired func() bool)
}

// timerPoints are the steps of TestFaultTimerPoints.
var timerPoints = []timerPoint{
	{"none", func(*harness, *faultStore) (bool, func() bool) { return false, nil }},
	{"due-timers", func(h *harness, fs *faultStore) (bool, func() bool) {
		fs.inject("DueTimers", fault{err: errUnavailable})
		return true, nil
	}},
	{"game", func(h *harness, fs *faultStore) (bool, func() bool) {
		fs.inject("Game", fault{err: errKilled})
		return true, nil
	}},
	{"player", func(h *harness, fs *faultStore) (bool, func() bool) {
		fs.inject("Player", fault{err: errUnavailable})
		return true, nil
	}},
	{"commit", func(h *harness, fs *faultStore) (bool, func() bool) {
		fs.inject("Commit", fault{err: errKilled})
		return true, nil
	}},
	{"commit-conflict", func(h *harness, fs *faultStore) (bool, func() bool) {
		fs.inject("Commit", fault{err: errConflict})
		return false, nil
	}},
	{"after-commit", func(h *harness, fs *faultStore) (bool, func() bool) {
		fs.inject("Commit", fault{err: errKilled, after: true})
		return true, nil
	}},
	{"claim", func(h *harness, fs *faultStore) (bool, func() bool) {
		fs.inject("ClaimOutbox", fault{err: errKilled})
		return false, nil
	}},
	{"send", func(h *harness, fs *faultStore) (bool, func() bool) {
		n := 0
		h.sender.fail = func(string) error {
			if n++; n == 1 {
				return &mailer.SendError{Temporary: true, Code: 421, Err: errors.New("closing connection")}
			}
			return nil
		}
		return false, func() bool { return n > 0 }
	}},
	{"after-send", func(h *harness, fs *faultStore) (bool, func() bool) {
		fs.inject("MarkSent", fault{err: errKilled})
		return false, nil
	}},
}

// TestFaultTimerPoints kills the daemon, or makes the archive or SMTP fail,
// at each step of a timer firing — reading the due timers, loading the
// game, reading a player, the commit (before it and after it took
// effect), claiming, sending, recording the send — for a reminder and for
// a time-out, then restarts it twice. The effect happens exactly once: one
// reminder queued, or the game lost on time once with one result per
// player queued; every queued mail is sent, and all copies of a mail sent
// twice (killed between SMTP's OK and MarkSent) are identical. Each
// injected fault must have fired: one the timer's path never reaches
// tests nothing (TestFaultTimerPointsUnfired shows that this is seen).
func TestFaultTimerPoints(t *testing.T) {
	for _, kind := range []string{"reminder", "timeout"} {
		for _, p := range timerPoints {
			t.Run(kind+"/"+p.name, func(t *testing.T) {
				if unfired := runTimerPoint(t, kind, p); len(unfired) > 0 {
					t.Errorf("injected faults that never fired: %v", unfired)
				}
			})
		}
	}
}

// TestFaultTimerPointsUnfired: a fault injected where a timer's path
// never goes (HandleMail's Processed, which the scheduler does not call)
// is reported as never fired by runTimerPoint, so TestFaultTimerPoints
// fails on it rather than passing a test of nothing.
func TestFaultTimerPointsUnfired(t *testing.T) {
	nowhere := timerPoint{"processed", func(h *harness, fs *faultStore) (bool, func() bool) {
		fs.inject("Processed", fault{err: errUnavailable})
		return false, nil
	}}
	for _, kind := range []string{"reminder", "timeout"} {
		if unfired := runTimerPoint(t, kind, nowhere); !slices.Equal(unfired, []string{"Processed"}) {
			t.Errorf("%s: runTimerPoint reports %v as never fired, want [Processed]", kind, unfired)
		}
	}
}

// runTimerPoint runs one case of TestFaultTimerPoints and returns the
// faults that never fired: the archive methods whose injected faults were
// not taken, and "Send" for a send fault that was not reached.
func runTimerPoint(t *testing.T, kind string, p timerPoint) (unfired []string) {
	t.Helper()
	h := newHarness(t)
	id, start := startTimed(t, h, "10d+0d")
	h.now = start.Add(3*day + time.Second) // the 7-day reminder
	if kind == "timeout" {
		h.now = start.Add(10*day + time.Second + referee.DefaultArrivalGrace) // the deadline and its grace
	}
	before := len(h.sender.sent)
	fs := h.withFaults()
	wantErr, fired := p.inject(h, fs)
	ctx := context.Background()
	srv := h.restart(fs, nil)
	_, err := srv.RunTimers(ctx)
	if wantErr != (err != nil) {
		t.Errorf("first RunTimers: %v; want an error: %v", err, wantErr)
	}
	srv.FlushOutbox(ctx)
	unfired = fs.unfired()
	if fired != nil && !fired() {
		unfired = append(unfired, "Send")
	}
	h.sender.fail = nil
	for i := 0; i < 2; i++ {
		h.now = h.now.Add(10 * time.Minute)
		srv = h.restart(h.store, nil)
		if _, err := srv.RunTimers(ctx); err != nil {
			t.Fatalf("RunTimers after restart %d: %v", i+1, err)
		}
		srv.FlushOutbox(ctx)
	}
	copies := map[string][][]byte{}
	for _, s := range h.sender.sent[before:] {
		copies[s.msg.MessageID] = append(copies[s.msg.MessageID], s.raw)
	}
	word, want := "reminder, move 1", 1
	if kind == "timeout" {
		word, want = "game over", 2
	}
	queued := 0
	for _, o := range h.outbox() {
		if strings.Contains(string(o.Raw), word) {
			queued++
			if len(copies[o.MessageID]) == 0 {
				t.Errorf("%s to %v queued, not sent", o.MessageID, o.To)
			}
		}
	}
	if queued != want {
		t.Errorf("%d mails %q queued, want %d", queued, word, want)
	}
	for mid, cs := range copies {
		if len(cs) > 1 && p.name != "after-send" {
			t.Errorf("%s sent %d times", mid, len(cs))
		}
		for _, c := range cs[1:] {
			if !bytes.Equal(c, cs[0]) {
				t.Errorf("copies of %s differ", mid)
			}
		}
	}
	g := h.state(id)
	if lost := g.Reason == "timeout"; lost != (kind == "timeout") || g.Status == archive.Finished != lost {
		t.Errorf("game %v; lost on time: want %v", g, kind == "timeout")
	}
	if kind == "reminder" {
		pending := 0
		for _, tm := range h.timersOf(id) {
			if tm.Done.IsZero() {
				pending++
			} else if tm.Key != "ply 1 reminder 7d" {
				t.Errorf("timer %q done", tm.Key)
			}
		}
		if pending != 3 {
			t.Errorf("%d timers pending, want the 2d and 12h reminders and the deadline", pending)
		}
	}
	return unfired
}

// TestOverdueRemindersOnce: a daemon down past two reminder thresholds
// sends only the later reminder, and one down past the deadline sends no
// reminder at all, only the result.
func TestOverdueRemindersOnce(t *testing.T) {
	h := newHarness(t)
	_, start := startTimed(t, h, "10d+0d")
	h.now = start.Add(9 * day)
	sent := h.runTimers(nil)
	if len(sent) != 1 || !strings.Contains(sent[0].msg.Text, "has fallen below 2d") {
		t.Fatalf("down past the 7d and 2d thresholds: %s; want only the 2d reminder", subjects(sent))
	}
	h2 := newHarness(t)
	_, start = startTimed(t, h2, "10d+0d")
	h2.now = start.Add(11 * day)
	sent = h2.runTimers(nil)
	if len(sent) != 2 || strings.Contains(subjects(sent), "reminder") {
		t.Fatalf("down past the deadline: %s; want the two results only", subjects(sent))
	}
}
