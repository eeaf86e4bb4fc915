package engineturn

import (
	"context"
	"slices"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/search"
)

// The engine's turns wait for a search in fair order (issue 18 §3,
// docs/engine.md "How it works"). Before, each turn's goroutine queued for
// a slot in the order the turns fell due, so 20 addresses with 3 level-5
// games each made a player's level-1 turn wait for 60 searches. Now the
// runner keeps the waiting turns in a queue and, whenever a search slot
// is free, starts the turn nextTurn picks:
//
//   - round robin across players: the player whose last turn started
//     longest ago goes first, so a player with many games waits no less
//     than one with one;
//   - when more than longQueue turns wait, the cheapest level first
//     (and round robin within a level), so a level-1 turn never waits
//     behind level-5 searches;
//   - otherwise the turn that fell due first.
//
// Besides the general slots, one quick slot serves only turns at
// quickLevel or below, which stop at their depth in milliseconds
// (docs/engine.md, "Figures"): a cheap turn then does not even wait for a
// level-5 search under way. The referee's global cap of engine games
// (server's engineBooked) bounds how much thinking can be queued at all.

// longQueue is how many waiting turns make the queue long: with more,
// the cheapest level goes first.
const longQueue = 4

// quickLevel is the highest level whose turns the quick slot serves:
// levels 1 to 3 search to a fixed depth of 1 to 3 plies (search's level
// table), a few milliseconds to a tenth of a second.
const quickLevel search.Level = 3

// Turn is an engine turn: the engine timer it answers and what the fair
// order needs to know of it.
type Turn struct {
	// Ctx is the context the turn searches under (the daemon's Run): when
	// it ends before the turn starts, the turn is dropped.
	Ctx    context.Context
	Timer  archive.Timer // the game's engine timer (archive.TimerEngine)
	Player string        // the engine's opponent in the game: whose turn it serves ("" for none)
	Level  search.Level  // the engine's level in the game
	seq    uint64        // arrival order
}

// Ref returns the reference of t's timer, the key Claim and Done take.
func (t *Turn) Ref() archive.TimerRef {
	return archive.TimerRef{GameID: t.Timer.GameID, Key: t.Timer.Key}
}

// nextTurn returns the index in queue of the turn to start next, or -1
// when none may start: with quickOnly, only turns at quickLevel or below
// may. served maps a player to the sequence number of the start of that
// player's latest turn (0: none yet). The order is the package's fair
// order (see above): when the queue is long the lowest level first; then
// the player served longest ago; then the turn that arrived first. It
// depends on nothing else, so its tests need no clock.
func nextTurn(queue []*Turn, served map[string]uint64, quickOnly bool) int {
	long := len(queue) > longQueue
	best := -1
	for i, t := range queue {
		if quickOnly && t.Level > quickLevel {
			continue
		}
		if best < 0 || turnBefore(t, queue[best], served, long) {
			best = i
		}
	}
	return best
}

// turnBefore reports whether a is served before b (nextTurn).
func turnBefore(a, b *Turn, served map[string]uint64, long bool) bool {
	if long && a.Level != b.Level {
		return a.Level < b.Level
	}
	if sa, sb := served[a.Player], served[b.Player]; sa != sb {
		return sa < sb
	}
	return a.seq < b.seq
}

// startedTurn is a turn take handed a slot: the quick one or a general one.
type startedTurn struct {
	turn  *Turn
	quick bool
}

// enqueue adds a claimed turn to the queue.
func (r *Runner) enqueue(t *Turn) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq++
	t.seq = r.seq
	r.queue = append(r.queue, t)
}

// take removes from the queue, in fair order, the turns that free slots
// can start, marks their slots taken and returns them, and the turns
// whose context has ended, which start nothing (the daemon stops; their
// timers stay pending).
func (r *Runner) take() (start []startedTurn, dropped []*Turn) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.queue = slices.DeleteFunc(r.queue, func(t *Turn) bool {
		if t.Ctx.Err() != nil {
			dropped = append(dropped, t)
			return true
		}
		return false
	})
	for len(r.queue) > 0 {
		quick := r.running >= r.searches
		if quick && r.quick {
			break
		}
		i := nextTurn(r.queue, r.served, quick)
		if i < 0 {
			break
		}
		t := r.queue[i]
		r.queue = slices.Delete(r.queue, i, i+1)
		if quick {
			r.quick = true
		} else {
			r.running++
		}
		r.seq++
		r.served[t.Player] = r.seq
		start = append(start, startedTurn{turn: t, quick: quick})
	}
	return start, dropped
}

// release frees the slot a turn searched in.
func (r *Runner) release(quick bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if quick {
		r.quick = false
	} else {
		r.running--
	}
}
