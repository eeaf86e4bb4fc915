package archive

import (
	"context"
	"time"

	"github.com/taflmail/taflmail/notation"
)

// Write is one feature's part of a [Change] ([Change.Writes]): a value of
// one of the write types this package defines ([LeaveWrite], …), which a
// feature builds and hands the archive, so that Change names only the
// core (the mail, the games, their plies, the players, the outbox, the
// mailbox) and not every feature.
//
// Each kind of write has a fixed place in Commit's checks and in its
// transaction, the place its field had when Change named it, whatever its
// place in the list: the statements and the first error are the same for
// any order of the writes. A change holds at most one write of each kind
// (a second is [ErrInvalid]), so a feature gathers what it writes into
// one value.
//
// Only this package defines writes: the method set is unexported.
type Write interface {
	// slot is the write's kind and its place in Commit.
	slot() slot
	// check checks the rules documented on the write's type before
	// anything is written; games holds the IDs of the games the change
	// writes (nil where the write is checked before the games are).
	check(games map[string]bool) error
	// apply writes it in tx.
	apply(ctx context.Context, tx *txn, st *stmts, now time.Time) error
}

// slot names a kind of [Write] and where Commit checks and applies it:
// validate and write each call their writes at fixed points, in the
// order Change's fields had.
type slot int

// The kinds of writes.
const (
	slotPublicNames slot = iota + 1
	slotConfirmations
	slotDigests
	slotLeave
	slotFired
	slotTimerPlans
	slotWatching
)

// writeSet is a change's writes by kind, at most one of each.
type writeSet map[slot]Write

// indexWrites returns ws by kind. Errors: [ErrInvalid] for a nil write or
// a second write of one kind.
func indexWrites(ws []Write) (writeSet, error) {
	set := make(writeSet, len(ws))
	for _, w := range ws {
		if w == nil {
			return nil, invalid("nil write")
		}
		if _, ok := set[w.slot()]; ok {
			return nil, invalid("two writes of kind %T in one change", w)
		}
		set[w.slot()] = w
	}
	return set, nil
}

// check checks the write of kind k, if the change has one.
func (s writeSet) check(k slot, games map[string]bool) error {
	if w := s[k]; w != nil {
		return w.check(games)
	}
	return nil
}

// apply writes the write of kind k, if the change has one.
func (s writeSet) apply(ctx context.Context, tx *txn, st *stmts, now time.Time, k slot) error {
	if w := s[k]; w != nil {
		return w.apply(ctx, tx, st, now)
	}
	return nil
}

// PublicNames sets the public name of each player named by the keys (an
// address, any case; archive/public.go) to the value, blanks collapsed,
// "" clearing it; a player not stored yet is added. A name whose
// [PublicFold] another player's name has is [ErrConflict]. It is checked
// right after the mail and written right after the players.
type PublicNames map[string]string

func (PublicNames) slot() slot { return slotPublicNames }

func (n PublicNames) check(map[string]bool) error { return validatePublicNames(n) }

func (n PublicNames) apply(ctx context.Context, tx *txn, _ *stmts, now time.Time) error {
	return writePublicNames(ctx, tx, n, now)
}

// Confirmations are requests that wait for their address to confirm
// them, or that it confirmed ([Confirmation], archive/consent.go): each
// is inserted, or replaces the stored one of the same address and What.
// Writing any deletes every stored request past its expiry. They are
// checked right after the players and written right after the public
// names.
type Confirmations []Confirmation

func (Confirmations) slot() slot { return slotConfirmations }

func (cs Confirmations) check(map[string]bool) error {
	for _, cf := range cs {
		if err := cf.validate(); err != nil {
			return err
		}
	}
	return nil
}

func (cs Confirmations) apply(ctx context.Context, tx *txn, _ *stmts, now time.Time) error {
	return writeConfirmations(ctx, tx, cs, now)
}

// DigestsSent move players' digest timers on (archive/digest.go): each
// player's stored DigestDue must be the Due given, or Commit fails with
// [ErrDuplicate] (it is later: that digest was committed before) or
// [ErrConflict] (the player changed or left the digest meanwhile). So a
// digest mail and its timer's move are written together, once. They are
// checked right after the confirmations and written right after them,
// in the order given.
type DigestsSent []DigestSent

func (DigestsSent) slot() slot { return slotDigests }

func (ds DigestsSent) check(map[string]bool) error {
	for _, d := range ds {
		if lower(d.Address) == "" || d.Due.IsZero() || !d.Next.After(d.Due) {
			return invalid("digest of %q: due %v, next %v", d.Address, d.Due, d.Next)
		}
	}
	return nil
}

func (ds DigestsSent) apply(ctx context.Context, tx *txn, _ *stmts, _ time.Time) error {
	for _, d := range ds {
		if err := fireDigest(ctx, tx, d); err != nil {
			return err
		}
	}
	return nil
}

// Watching adds and removes spectators. Watch adds them, or replaces a
// stored one of the same game (or tournament) and address; Unwatch
// removes them (only GameID or TournamentID, and Address are read; an
// address that does not watch is no error). Each names a game or a
// tournament, not both, which must exist (else [ErrNotFound]). It is
// checked after the takebacks and written after the timers, the removals
// first.
type Watching struct {
	Watch   []Spectator
	Unwatch []Spectator
}

func (Watching) slot() slot { return slotWatching }

func (w Watching) check(map[string]bool) error {
	for _, sp := range append(append([]Spectator(nil), w.Watch...), w.Unwatch...) {
		if (sp.GameID == "") == (sp.TournamentID == "") || sp.Address == "" {
			return invalid("spectator %q of game %q or tournament %q", sp.Address, sp.GameID, sp.TournamentID)
		}
	}
	return nil
}

func (w Watching) apply(ctx context.Context, tx *txn, _ *stmts, now time.Time) error {
	return writeSpectators(ctx, tx, w.Watch, w.Unwatch, now)
}

// FiredTimers marks timers done: each must be pending, or Commit fails
// with [ErrDuplicate] (already done: its effect was committed before) or
// [ErrConflict] (no such timer: the game's timers were replaced since it
// was read). So a timer's effect, its replies and its done mark are
// written together, once. Each timer's game must be in the change's
// Games. They are checked after the leave and written after it, in the
// order given, before the [TimerPlans].
//
// The fired timers and the plans are two kinds, not one: the scheduler
// fires a timer, the clock plans the timers of every game it writes, and
// each hands its own write.
type FiredTimers []TimerRef

func (FiredTimers) slot() slot { return slotFired }

func (f FiredTimers) check(games map[string]bool) error { return validateFired(f, games) }

func (f FiredTimers) apply(ctx context.Context, tx *txn, _ *stmts, now time.Time) error {
	for _, ref := range f {
		if err := fireTimer(ctx, tx, ref, now); err != nil {
			return err
		}
	}
	return nil
}

// TimerPlans replaces the timers of the games named by the keys
// ([TimerPlan]). Each game must be in the change's Games, so the plan is
// written against the version it was computed from. They are checked and
// written right after the [FiredTimers], in game ID order.
type TimerPlans map[string]TimerPlan

func (TimerPlans) slot() slot { return slotTimerPlans }

func (p TimerPlans) check(games map[string]bool) error { return validatePlans(p, games) }

func (p TimerPlans) apply(ctx context.Context, _ *txn, st *stmts, _ time.Time) error {
	for _, id := range sortedKeys(p) {
		if err := replaceTimers(ctx, st, id, p[id]); err != nil {
			return err
		}
	}
	return nil
}

// LeaveWrite replaces the whole leave of each player named by the keys (an
// address, any case) with the list: whole UTC days, First ≤ Last, no two
// sharing a day. An empty list removes the player's leave. It is checked
// after the mailbox position and written after the digests sent, each
// player's in address order.
type LeaveWrite map[string][]notation.Leave

func (LeaveWrite) slot() slot { return slotLeave }

func (l LeaveWrite) check(map[string]bool) error { return validateLeave(l) }

func (l LeaveWrite) apply(ctx context.Context, tx *txn, _ *stmts, _ time.Time) error {
	for _, addr := range sortedKeys(l) {
		if err := replaceLeave(ctx, tx, addr, l[addr]); err != nil {
			return err
		}
	}
	return nil
}
