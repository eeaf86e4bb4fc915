package engineturn

import (
	"context"
	"fmt"
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/search"
)

// Issue 18 §3: the engine queue is fair and bounded. The order is tested
// on the runner's own queue, without a clock; the quick slot through the
// referee's RunTimers (server's TestEngineQuickSlot).

// floodQueue returns the turns of the flood: 20 addresses × 3
// level-5 games, in the order they fell due, each its own game.
func floodQueue(ctx context.Context) []*Turn {
	var ts []*Turn
	for g := range 3 {
		for p := range 20 {
			id := fmt.Sprintf("F%02d%03d", p, g)
			ts = append(ts, &Turn{Ctx: ctx, Timer: archive.Timer{GameID: id, Key: "ply 1 engine"}, Player: fmt.Sprintf("p%02d@flood.test", p), Level: 5})
		}
	}
	return ts
}

// realTurn is a real player's level-1 turn.
func realTurn(ctx context.Context) *Turn {
	return &Turn{Ctx: ctx, Timer: archive.Timer{GameID: "REAL01", Key: "ply 1 engine"}, Player: "real@player.test", Level: 1}
}

// TestEngineQueueOrder: with 60 level-5 turns of 20 addresses queued and
// a real player's level-1 turn arriving last, the level-1 turn is started
// at once in the quick slot while a level-5 search holds the only general
// slot; and when the quick slot is taken too, it is the next turn the
// general slot starts. The level-5 turns are then served round robin:
// each of the 20 addresses once before any twice. Before issue 18 the
// turns were served in the order they fell due: the level-1 turn came
// 61st.
func TestEngineQueueOrder(t *testing.T) {
	ctx := context.Background()

	// as startEngine does: each turn queued and dispatched as it falls due
	r := New(1, nil, func() {})
	var started []startedTurn
	for _, q := range append(floodQueue(ctx), realTurn(ctx)) {
		r.enqueue(q)
		s, _ := r.take()
		started = append(started, s...)
	}
	if len(started) != 2 || started[0].turn.Level != 5 || started[0].quick ||
		started[1].turn.Player != "real@player.test" || !started[1].quick {
		t.Fatalf("started %v, want the first level-5 turn in the general slot and the level-1 turn at once in the quick slot", names(started))
	}

	// the quick slot busy (another cheap turn): the level-1 turn is next
	r = New(1, nil, func() {})
	for _, q := range floodQueue(ctx) {
		r.enqueue(q)
	}
	r.take()       // a level-5 turn takes the general slot
	r.quick = true // some level-3 turn holds the quick slot
	r.enqueue(realTurn(ctx))
	if s, _ := r.take(); len(s) != 0 {
		t.Fatalf("with both slots busy %v started", names(s))
	}
	r.release(false)
	s, _ := r.take()
	if len(s) != 1 || s[0].turn.Player != "real@player.test" {
		t.Fatalf("the general slot freed starts %v, want the level-1 turn first", names(s))
	}

	// the rest: round robin across the 20 addresses
	seen := map[string]int{}
	for n := 0; ; n++ {
		r.release(false)
		s, _ := r.take()
		if len(s) == 0 {
			break
		}
		p := s[0].turn.Player
		seen[p]++
		if round := n / 20; seen[p] != round+1 && n < 40 {
			t.Fatalf("start %d: %s served %d times while others were served %d", n, p, seen[p], round)
		}
	}
	if len(seen) != 20 {
		t.Errorf("%d addresses served, want 20", len(seen))
	}
}

// names lists started turns for failure messages.
func names(ts []startedTurn) []string {
	var out []string
	for _, t := range ts {
		out = append(out, fmt.Sprintf("%s/level-%d/quick=%v", t.turn.Player, t.turn.Level, t.quick))
	}
	return out
}

// TestNextTurn: the fair order itself, on small queues.
func TestNextTurn(t *testing.T) {
	ctx := context.Background()
	turn := func(player string, level search.Level, seq uint64) *Turn {
		return &Turn{Ctx: ctx, Player: player, Level: level, seq: seq}
	}
	short := []*Turn{turn("a", 5, 1), turn("a", 5, 2), turn("b", 1, 3)}
	if i := nextTurn(short, map[string]uint64{}, false); i != 0 {
		t.Errorf("short queue, nobody served: %d, want the first to arrive (0)", i)
	}
	if i := nextTurn(short, map[string]uint64{"a": 7}, false); i != 2 {
		t.Errorf("short queue, a served last: %d, want b's turn (2)", i)
	}
	if i := nextTurn(short, map[string]uint64{}, true); i != 2 {
		t.Errorf("quick slot: %d, want the level-1 turn (2)", i)
	}
	if i := nextTurn([]*Turn{turn("a", 4, 1), turn("a", 5, 2)}, nil, true); i != -1 {
		t.Errorf("quick slot with only levels 4 and 5 queued: %d, want none (-1)", i)
	}
	long := []*Turn{turn("a", 5, 1), turn("b", 4, 2), turn("c", 5, 3), turn("d", 3, 4), turn("e", 3, 5)}
	if i := nextTurn(long, map[string]uint64{"d": 9}, false); i != 4 {
		t.Errorf("long queue: %d, want the cheapest level, round robin within it (e's turn, 4)", i)
	}
	if i := nextTurn(nil, nil, false); i != -1 {
		t.Errorf("empty queue: %d, want -1", i)
	}
}
