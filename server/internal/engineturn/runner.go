// Package engineturn runs the engine opponent's turns beside the mail
// loop (issue 13, issue 18 §3; docs/engine.md "How it works"): the turns
// wait in a queue and start in fair order, each on a goroutine of its
// own, in one of a fixed number of general search slots or, at a cheap
// level, in the one quick slot.
//
// The runner keeps only the bookkeeping of turns: which engine timers are
// under way or parked, the queue, the slots and who was served last. It
// reads no game and commits nothing: the referee queues a turn with what
// the order needs (whose turn, at which level) and plays each started
// turn through the Player it gave New, which searches, frees the slot and
// commits the engine's reply.
package engineturn

import (
	"sync"

	"github.com/taflmail/taflmail/archive"
)

// Player plays the turns a Runner starts: the referee.
type Player interface {
	// PlayTurn searches the position of turn t, calls searched once when
	// the search is over (its slot is then free for the next turn, even
	// though the reply is not yet committed), and commits the engine's
	// reply. It reports whether t's timer is to be parked: the turn
	// failed in a way trying again would not mend, so the runner takes
	// no turn of that timer again (Runner.Taken) until the process
	// restarts. It is called on a goroutine of its own and must call
	// searched exactly once.
	PlayTurn(t *Turn, searched func()) (park bool)
}

// Runner runs the engine's turns: at most searches at once in the
// general slots, and one more at quickLevel or below in the quick slot.
// Its methods are safe from any goroutine.
type Runner struct {
	searches int    // general search slots
	player   Player // plays the started turns
	wake     func() // a turn ended: the mail loop goes round now

	mu sync.Mutex
	// busy holds the engine timers whose turn is under way (waiting in
	// the queue, searching or committing) and parked those given up
	// after a failure a retry would not mend, so that each turn is
	// started once.
	busy   map[archive.TimerRef]bool
	parked map[archive.TimerRef]bool
	queue  []*Turn           // turns waiting for a slot, in arrival order
	served map[string]uint64 // player → seq at the start of their latest turn
	seq    uint64            // counts arrivals and starts
	// running counts the general slots in use; quick reports the quick
	// slot in use.
	running int
	quick   bool
	wg      sync.WaitGroup // one per claimed turn, until Done
}

// New returns a runner with searches general search slots (the
// referee's Options.EngineSearches) and one quick slot, whose started
// turns player plays, and which calls wake whenever a turn ended (the
// referee's Server.Wake: the mail loop goes round at once). wake is
// called from the turn's goroutine and must not block.
func New(searches int, player Player, wake func()) *Runner {
	return &Runner{
		searches: searches, player: player, wake: wake,
		busy: map[archive.TimerRef]bool{}, parked: map[archive.TimerRef]bool{}, served: map[string]uint64{},
	}
}

// Claim marks the turn of timer ref under way and reports whether it was
// neither under way nor parked. Each successful Claim is ended by one
// Done: by the runner for a turn given to Start, by the caller for one
// it does not start after all.
func (r *Runner) Claim(ref archive.TimerRef) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.busy[ref] || r.parked[ref] {
		return false
	}
	r.busy[ref] = true
	r.wg.Add(1)
	return true
}

// Done ends the claimed turn of timer ref, parking it when park is set,
// and wakes the mail loop (New's wake).
func (r *Runner) Done(ref archive.TimerRef, park bool) {
	r.mu.Lock()
	delete(r.busy, ref)
	if park {
		r.parked[ref] = true
	}
	r.mu.Unlock()
	r.wake()
	r.wg.Done()
}

// Taken reports whether the turn of timer ref is under way or parked.
func (r *Runner) Taken(ref archive.TimerRef) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.busy[ref] || r.parked[ref]
}

// Count returns how many engine timers have a turn under way or parked.
func (r *Runner) Count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.busy) + len(r.parked)
}

// Queued returns how many turns wait for a search slot.
func (r *Runner) Queued() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.queue)
}

// Wait returns when no claimed turn is under way.
func (r *Runner) Wait() { r.wg.Wait() }

// Start queues the claimed turn t and starts, each on a goroutine of its
// own, what the free slots can take in fair order (queue.go). A turn
// whose context has ended by then starts nothing and is done without
// parking: its timer stays pending for the next process.
func (r *Runner) Start(t *Turn) {
	r.enqueue(t)
	r.dispatch()
}

// dispatch starts the queued turns that free slots can take; each
// started turn, once searched, frees its slot and dispatches again.
func (r *Runner) dispatch() {
	start, dropped := r.take()
	for _, t := range dropped {
		r.Done(t.Ref(), false)
	}
	for _, st := range start {
		go func() {
			park := false
			defer func() { r.Done(st.turn.Ref(), park) }()
			park = r.player.PlayTurn(st.turn, func() {
				r.release(st.quick)
				r.dispatch()
			})
		}()
	}
}
