package server

import (
	"context"
	"errors"
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
//   - when more than longEngineQueue turns wait, the cheapest level first
//     (and round robin within a level), so a level-1 turn never waits
//     behind level-5 searches;
//   - otherwise the turn that fell due first.
//
// Besides the Options.EngineSearches slots, one quick slot serves only
// turns at quickLevel or below, which stop at their depth in milliseconds
// (docs/engine.md, "Figures"): a cheap turn then does not even wait for a
// level-5 search under way. The engine's global cap (engineBooked) bounds
// how much thinking can be queued at all.

// longEngineQueue is how many waiting turns make the queue long: with more,
// the cheapest level goes first.
const longEngineQueue = 4

// quickLevel is the highest level whose turns the quick slot serves:
// levels 1 to 3 search to a fixed depth of 1 to 3 plies (search's level
// table), a few milliseconds to a tenth of a second here.
const quickLevel search.Level = 3

// queuedTurn is an engine turn waiting for a search slot.
type queuedTurn struct {
	ctx    context.Context // the turn searches under it (Run's)
	tm     archive.Timer
	ref    archive.TimerRef
	player string       // the engine's opponent in the game: whose turn it serves
	level  search.Level // the engine's level in the game
	seq    uint64       // arrival order
}

// nextTurn returns the index in queue of the turn to start next, or -1
// when none may start: with quickOnly, only turns at quickLevel or below
// may. served maps a player to the sequence number of the start of that
// player's latest turn (0: none yet). The order is the package's fair
// order (see above): when the queue is long the lowest level first; then
// the player served longest ago; then the turn that arrived first. It
// depends on nothing else, so its tests need no clock.
func nextTurn(queue []*queuedTurn, served map[string]uint64, quickOnly bool) int {
	long := len(queue) > longEngineQueue
	best := -1
	for i, t := range queue {
		if quickOnly && t.level > quickLevel {
			continue
		}
		if best < 0 || turnBefore(t, queue[best], served, long) {
			best = i
		}
	}
	return best
}

// turnBefore reports whether a is served before b (nextTurn).
func turnBefore(a, b *queuedTurn, served map[string]uint64, long bool) bool {
	if long && a.level != b.level {
		return a.level < b.level
	}
	if sa, sb := served[a.player], served[b.player]; sa != sb {
		return sa < sb
	}
	return a.seq < b.seq
}

// startedTurn is a turn take handed a slot: the quick one or a general one.
type startedTurn struct {
	turn  *queuedTurn
	quick bool
}

// enqueue adds a claimed turn to the queue.
func (r *engineRunner) enqueue(t *queuedTurn) {
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
func (r *engineRunner) take() (start []startedTurn, dropped []*queuedTurn) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.queue = slices.DeleteFunc(r.queue, func(t *queuedTurn) bool {
		if t.ctx.Err() != nil {
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
		r.served[t.player] = r.seq
		start = append(start, startedTurn{turn: t, quick: quick})
	}
	return start, dropped
}

// release frees the slot a turn searched in.
func (r *engineRunner) release(quick bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if quick {
		r.quick = false
	} else {
		r.running--
	}
}

// dispatchEngine starts, each on a goroutine of its own, the queued
// engine turns that free search slots can take, in fair order.
func (s *Server) dispatchEngine() {
	start, dropped := s.engine.take()
	for _, t := range dropped {
		s.engine.done(t.ref, false)
	}
	for _, st := range start {
		go func() {
			park := false
			defer func() { s.engine.done(st.turn.ref, park) }()
			park = s.engineTurn(st.turn.ctx, st.turn.tm, func() {
				s.engine.release(st.quick)
				s.dispatchEngine()
			})
		}()
	}
}

// queuedTurnOf returns the queue entry of the engine's turn of timer tm:
// whose turn it is and at which level, read from the game. A game that
// does not exist waits as the most expensive turn of nobody in
// particular; its search then parks it (engineThink). Any other failure
// to read the game is returned.
func (s *Server) queuedTurnOf(ctx context.Context, tm archive.Timer) (*queuedTurn, error) {
	t := &queuedTurn{ctx: ctx, tm: tm, ref: archive.TimerRef{GameID: tm.GameID, Key: tm.Key}, level: search.MaxLevel}
	g, err := s.store.Game(ctx, tm.GameID)
	if errors.Is(err, archive.ErrNotFound) {
		return t, nil
	}
	if err != nil {
		return nil, err
	}
	t.player = opponentOf(g, EngineAddress)
	if l := search.Level(g.EngineLevel); l.Valid() {
		t.level = l
	}
	return t, nil
}
