package engineturn

import (
	"context"
	"testing"

	"github.com/taflmail/taflmail/archive"
)

// playerFunc adapts a function to Player for the tests.
type playerFunc func(t *Turn, searched func()) bool

func (f playerFunc) PlayTurn(t *Turn, searched func()) bool { return f(t, searched) }

var _ Player = playerFunc(nil)

// turnOf returns a level-5 turn of player in game id under ctx.
func turnOf(ctx context.Context, id, player string) *Turn {
	return &Turn{Ctx: ctx, Timer: archive.Timer{GameID: id, Key: "ply 1 engine", Kind: archive.TimerEngine}, Player: player, Level: 5}
}

// TestRunnerLifecycle: a claimed and started turn is played once, on its
// own goroutine; while it is under way its timer cannot be claimed again;
// a turn whose play asks to park it stays taken after it ended, so it is
// not started again; one that does not is free again; every end wakes
// the mail loop once (New's wake; the referee's Server.Wake keeps one
// wake at most); Wait returns when every claimed turn ended.
func TestRunnerLifecycle(t *testing.T) {
	ctx := context.Background()
	let := make(chan struct{})
	played := make(chan string, 4)
	wakes := make(chan struct{}, 4)
	r := New(1, playerFunc(func(tn *Turn, searched func()) bool {
		played <- tn.Timer.GameID
		<-let
		searched()
		return tn.Timer.GameID == "BAD001"
	}), func() { wakes <- struct{}{} })
	for _, id := range []string{"BAD001", "GOOD01"} {
		tn := turnOf(ctx, id, id+"@player.test")
		if !r.Claim(tn.Ref()) {
			t.Fatalf("Claim(%s) = false on a fresh runner", id)
		}
		if r.Claim(tn.Ref()) {
			t.Fatalf("a second Claim(%s) while it is under way = true", id)
		}
		r.Start(tn)
	}
	if first := <-played; first != "BAD001" {
		t.Fatalf("first played %s, want BAD001 (the first to arrive)", first)
	}
	if n := r.Queued(); n != 1 {
		t.Errorf("with the one general slot busy Queued() = %d, want 1 (level 5 never takes the quick slot)", n)
	}
	if n := r.Count(); n != 2 {
		t.Errorf("Count() = %d with two turns under way, want 2", n)
	}
	close(let) // the first frees its slot: the second starts
	if second := <-played; second != "GOOD01" {
		t.Fatalf("second played %s, want GOOD01", second)
	}
	r.Wait()
	if n := len(wakes); n != 2 {
		t.Errorf("the two ends woke the mail loop %d times, want once each", n)
	}
	bad := turnOf(ctx, "BAD001", "").Ref()
	good := turnOf(ctx, "GOOD01", "").Ref()
	if !r.Taken(bad) || r.Claim(bad) {
		t.Errorf("the parked turn: Taken = %v, want true, and it could be claimed again", r.Taken(bad))
	}
	if r.Taken(good) {
		t.Error("the turn that ended well is still taken")
	}
	if n := r.Count(); n != 1 {
		t.Errorf("Count() = %d after the turns ended, want 1 (the parked one)", n)
	}
	if !r.Claim(good) {
		t.Error("the turn that ended well cannot be claimed again")
	}
	r.Done(good, false)
}

// TestRunnerDropsEndedContext: a turn whose context ended before a slot
// was free is never played, and is done without parking, so its timer
// can be claimed again (after a restart, the next RunTimers).
func TestRunnerDropsEndedContext(t *testing.T) {
	r := New(1, playerFunc(func(tn *Turn, searched func()) bool {
		t.Errorf("played %s, whose context had ended", tn.Timer.GameID)
		searched()
		return false
	}), func() {})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tn := turnOf(ctx, "GONE01", "p@player.test")
	if !r.Claim(tn.Ref()) {
		t.Fatal("Claim = false on a fresh runner")
	}
	r.Start(tn)
	r.Wait()
	if r.Taken(tn.Ref()) || r.Queued() != 0 {
		t.Errorf("after the dropped turn Taken = %v, Queued = %d, want false and 0", r.Taken(tn.Ref()), r.Queued())
	}
}
