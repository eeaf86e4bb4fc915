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
	// anything is written, against the core of the change c; games holds
	// the IDs of the games c writes (nil where the write is checked
	// before the games are).
	check(c *Change, games map[string]bool) error
	// apply writes it in a's transaction.
	apply(ctx context.Context, a *applying) error
}

// applying is what a write's apply is given: the transaction, its
// prepared statements, the store's clock, what the change wrote of its
// games so far (by ID), which a write that changes them updates, and
// what is to be set on the caller's values once the change is committed.
type applying struct {
	tx    *txn
	st    *stmts
	now   time.Time
	games map[string]*writtenGame
	// bumped are the games not in the change's Games whose Version a
	// step of the change has bumped (see bump).
	bumped map[string]bool
	// settles run once the change is committed (Change.settle), in the
	// order the steps added them.
	settles []func()
}

// bump reports whether a step that changes game id must bump its
// Version: not for a game in the change's Games (its update bumped it)
// nor for one an earlier step bumped, so a change bumps a game once
// (takebacks, then new plies). It counts the game as bumped.
func (a *applying) bump(id string) bool {
	if _, inGames := a.games[id]; inGames || a.bumped[id] {
		return false
	}
	if a.bumped == nil {
		a.bumped = make(map[string]bool)
	}
	a.bumped[id] = true
	return true
}

// onCommit has settle run f once the change is committed: for a write
// that gives the caller's values what was stored (a Version).
func (a *applying) onCommit(f func()) { a.settles = append(a.settles, f) }

// slot names a kind of [Write] and where Commit checks and applies it:
// validate and write each call their kinds at fixed points, the points
// where the kinds were checked and written as fields of Change (which
// differ between the two: a write's check and its statements need not
// come at the same step).
type slot int

// The kinds of writes; their order here means nothing.
const (
	slotPublicNames slot = iota + 1
	slotTakeBacks
	slotConfirmations
	slotDigests
	slotLeave
	slotFired
	slotTimerPlans
	slotWatching
	slotTournament
)

// writeSet is a change's writes by kind, at most one of each.
type writeSet map[slot]Write

// indexWrites returns ws by kind. Errors: [ErrInvalid] for a nil write
// (a nil interface, or a nil *TournamentChange, the one write that is a
// pointer) or a second write of one kind.
func indexWrites(ws []Write) (writeSet, error) {
	set := make(writeSet, len(ws))
	for _, w := range ws {
		if tc, ok := w.(*TournamentChange); w == nil || ok && tc == nil {
			return nil, invalid("nil write")
		}
		if _, ok := set[w.slot()]; ok {
			return nil, invalid("two writes of kind %T in one change", w)
		}
		set[w.slot()] = w
	}
	return set, nil
}

// check checks the write of kind k of c, if c has one.
func (s writeSet) check(k slot, c *Change, games map[string]bool) error {
	if w := s[k]; w != nil {
		return w.check(c, games)
	}
	return nil
}

// apply writes the write of kind k, if the change has one.
func (s writeSet) apply(ctx context.Context, a *applying, k slot) error {
	if w := s[k]; w != nil {
		return w.apply(ctx, a)
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

func (n PublicNames) check(*Change, map[string]bool) error { return validatePublicNames(n) }

func (n PublicNames) apply(ctx context.Context, a *applying) error {
	return writePublicNames(ctx, a.tx, n, a.now)
}

// Confirmations are requests that wait for their address to confirm
// them, or that it confirmed ([Confirmation], archive/consent.go): each
// is inserted, or replaces the stored one of the same address and What.
// Writing any deletes every stored request past its expiry. They are
// checked right after the players and written right after the public
// names.
type Confirmations []Confirmation

func (Confirmations) slot() slot { return slotConfirmations }

func (cs Confirmations) check(*Change, map[string]bool) error {
	for _, cf := range cs {
		if err := cf.validate(); err != nil {
			return err
		}
	}
	return nil
}

func (cs Confirmations) apply(ctx context.Context, a *applying) error {
	return writeConfirmations(ctx, a.tx, cs, a.now)
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

func (ds DigestsSent) check(*Change, map[string]bool) error {
	for _, d := range ds {
		if lower(d.Address) == "" || d.Due.IsZero() || !d.Next.After(d.Due) {
			return invalid("digest of %q: due %v, next %v", d.Address, d.Due, d.Next)
		}
	}
	return nil
}

func (ds DigestsSent) apply(ctx context.Context, a *applying) error {
	for _, d := range ds {
		if err := fireDigest(ctx, a.tx, d); err != nil {
			return err
		}
	}
	return nil
}

// WatchWrite adds and removes spectators. Watch adds them, or replaces a
// stored one of the same game (or tournament) and address; Unwatch
// removes them (only GameID or TournamentID, and Address are read; an
// address that does not watch is no error). Each names a game or a
// tournament, not both, which must exist (else [ErrNotFound]). It is
// checked after the takebacks and written after the timers, the removals
// first.
type WatchWrite struct {
	Watch   []Spectator
	Unwatch []Spectator
}

func (WatchWrite) slot() slot { return slotWatching }

func (w WatchWrite) check(*Change, map[string]bool) error {
	for _, sp := range append(append([]Spectator(nil), w.Watch...), w.Unwatch...) {
		if (sp.GameID == "") == (sp.TournamentID == "") || sp.Address == "" {
			return invalid("spectator %q of game %q or tournament %q", sp.Address, sp.GameID, sp.TournamentID)
		}
	}
	return nil
}

func (w WatchWrite) apply(ctx context.Context, a *applying) error {
	return writeSpectators(ctx, a.tx, w.Watch, w.Unwatch, a.now)
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

func (f FiredTimers) check(_ *Change, games map[string]bool) error { return validateFired(f, games) }

func (f FiredTimers) apply(ctx context.Context, a *applying) error {
	for _, ref := range f {
		if err := fireTimer(ctx, a.tx, ref, a.now); err != nil {
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

func (p TimerPlans) check(_ *Change, games map[string]bool) error { return validatePlans(p, games) }

func (p TimerPlans) apply(ctx context.Context, a *applying) error {
	for _, id := range sortedKeys(p) {
		if err := replaceTimers(ctx, a.st, id, p[id]); err != nil {
			return err
		}
	}
	return nil
}

// TakeBacks undo the last stored ply of the games named by the keys (a
// takeback agreed by both players, issue 12): the ply leaves the plies,
// which stay numbered 1 to PlyCount, and is kept in the taken_back
// table, from which Game.TakenBack and the record's comment come. The
// value's Ply must be the stored last ply (its N and Move); the game must
// exist. New plies of the same game in the change must start at the ply
// taken back. They are checked after the players and written right after
// the games, before the change's NewPlies, in game ID order; a game not
// in the change's Games still has its Version bumped (once, with its new
// plies).
type TakeBacks map[string]TakenBack

func (TakeBacks) slot() slot { return slotTakeBacks }

func (t TakeBacks) check(c *Change, _ map[string]bool) error { return validateTakeBacks(t, c.NewPlies) }

func (t TakeBacks) apply(ctx context.Context, a *applying) error {
	for _, id := range sortedKeys(t) {
		count, err := takeBack(ctx, a.tx, id, t[id], a.bump(id), a.now)
		if err != nil {
			return err
		}
		if w, inGames := a.games[id]; inGames {
			w.plyCount = count
		}
	}
	return nil
}

// A *TournamentChange writes tournaments, entries, the pairings of
// tournament games and ratings: it is checked after the outbox and
// written right after the games and plies, so that a game's result and
// the ratings and tournament state it changes commit together. Its
// tournaments get their Version once committed, as the games do. A nil
// one writes nothing.
func (*TournamentChange) slot() slot { return slotTournament }

func (c *TournamentChange) check(*Change, map[string]bool) error { return c.validate() }

func (c *TournamentChange) apply(ctx context.Context, a *applying) error {
	versions, err := c.write(ctx, a.tx, a.now)
	if err != nil {
		return err
	}
	a.onCommit(func() {
		for _, t := range c.Tournaments {
			t.Version = versions[t.ID]
		}
	})
	return nil
}

// WriteOf returns c's write of type W, if it has one: what a change
// writes of a feature, for the code that reads the change after it is
// built (a log line, what to settle once it is committed). A change that
// Commit takes holds at most one write of a kind, so the first of type W
// is the one.
func WriteOf[W Write](c *Change) (W, bool) {
	for _, w := range c.Writes {
		if w, ok := w.(W); ok {
			return w, true
		}
	}
	var zero W
	return zero, false
}

// LeaveWrite replaces the whole leave of each player named by the keys (an
// address, any case) with the list: whole UTC days, First ≤ Last, no two
// sharing a day. An empty list removes the player's leave. It is checked
// after the mailbox position and written after the digests sent, each
// player's in address order.
type LeaveWrite map[string][]notation.Leave

func (LeaveWrite) slot() slot { return slotLeave }

func (l LeaveWrite) check(*Change, map[string]bool) error { return validateLeave(l) }

func (l LeaveWrite) apply(ctx context.Context, a *applying) error {
	for _, addr := range sortedKeys(l) {
		if err := replaceLeave(ctx, a.tx, addr, l[addr]); err != nil {
			return err
		}
	}
	return nil
}
