package server

import (
	"github.com/taflmail/taflmail/server/internal/correspondence"
	"github.com/taflmail/taflmail/server/internal/digest"
	"github.com/taflmail/taflmail/server/internal/gameclock"
	"github.com/taflmail/taflmail/server/internal/opponent"
	"github.com/taflmail/taflmail/server/internal/publicname"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/server/internal/tournaments"
)

// The assembly: the one place that names every feature module
// (internal/referee's module.go has the hooks the core asks them for) and
// hands them to the core. The core reaches a feature only through this
// list; a new feature is one line here, at its place in the order.

// modules are the registered features, in the order the core asks them:
// the order of their hooks is the order of this list. Today's order is
// part of the behaviour (collect writes the public name first, where the
// core wrote it before it was a module, and the clock's timers last,
// after the games every other module may have changed); docs/architecture.md
// ("Modules and hooks") names it, and TestModuleRegistry holds both to it.
var modules = []referee.Module{
	publicname.Module{},     // the public name a player chooses (internal/publicname)
	correspondence.Module{}, // spectators, messages, conditional moves, takebacks (correspondence.go)
	referee.ConsentModule{}, // requests to confirm (internal/referee/consent.go)
	tournaments.Module{},    // tournaments and ratings (tournament.go)
	gameclock.Module{},      // leave, end times, timers (internal/gameclock)
	digest.Module{},         // the daily digest (internal/digest)
	opponent.Module{},       // the engine opponent: its runner, its held reply (internal/opponent)
}

// init hands the registry to the core (referee.Modules) before any Server
// is made; the feature files' own init functions register their commands
// with referee.Handle.
func init() { referee.Modules = modules }
