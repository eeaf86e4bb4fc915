package server

import "github.com/taflmail/taflmail/archive"

// Features as modules (issue 19 §2). The core (a mail's commands, its
// games, its replies, the pipeline) names no feature: where a feature
// has something to add, the core iterates modules, the registered
// features in order, and asks each for the hook it implements. A hook is
// an interface of one method, found by type assertion, so a module
// implements only the hooks it needs (as go-imap's session finds its
// optional extensions). The feature's state still lives in the session
// (ss.corr, ss.consent, ss.tourney, ss.leaves); the hooks are where the
// core reaches it.

// module is one registered feature. name is how the registry's test and
// the docs call it.
type module interface {
	name() string
}

// collector adds to the archive change what the feature changed in this
// session (collect, after the games, plies and players).
type collector interface {
	collect(ss *session, change *archive.Change)
}

// plyWatcher runs after a ply by the player at ss.from (or the engine)
// in t was applied and both players were told, before the position is
// shown (move, enginePly). An error fails the mail.
type plyWatcher interface {
	afterPly(ss *session, t *table) error
}

// mailAdder returns the feature's own mails of this session, appended
// after the notes' mails (compose). An error fails the mail.
type mailAdder interface {
	mails(ss *session) ([]archive.OutboxMail, error)
}

// quietKeeper reports whether t's change in this session is one the loop
// breaker does not count as a change of the game (changedGame).
type quietKeeper interface {
	quietChange(ss *session, t *table) bool
}

// modules are the registered features, in the order the core asks them:
// the order of their hooks is the order of this list. Today's order is
// part of the behaviour (collect writes the clock's timers last, after
// the games every other module may have changed); docs/architecture.md
// ("Modules and hooks") names it, and TestModuleRegistry holds both to it.
var modules = []module{
	correspondenceModule{}, // spectators, messages, conditional moves, takebacks (correspondence.go)
	consentModule{},        // requests to confirm (consent.go)
	tournamentModule{},     // tournaments and ratings (tournament.go)
	clockModule{},          // leave, end times, timers (clock.go)
}

// collectModules lets every collector add to change, in registry order.
func (ss *session) collectModules(change *archive.Change) {
	for _, m := range modules {
		if c, ok := m.(collector); ok {
			c.collect(ss, change)
		}
	}
}

// afterPly runs every plyWatcher after a ply in t, in registry order,
// and stops at the first error.
func (ss *session) afterPly(t *table) error {
	for _, m := range modules {
		if w, ok := m.(plyWatcher); ok {
			if err := w.afterPly(ss, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// moduleMails returns the mails of every mailAdder, in registry order.
func (ss *session) moduleMails() ([]archive.OutboxMail, error) {
	var out []archive.OutboxMail
	for _, m := range modules {
		if a, ok := m.(mailAdder); ok {
			ms, err := a.mails(ss)
			if err != nil {
				return nil, err
			}
			out = append(out, ms...)
		}
	}
	return out, nil
}

// quietChange reports whether some module keeps t's change in this
// session quiet for the loop breaker.
func (ss *session) quietChange(t *table) bool {
	for _, m := range modules {
		if q, ok := m.(quietKeeper); ok && q.quietChange(ss, t) {
			return true
		}
	}
	return false
}
