package server

// The assembly: the one place in the package that names every feature
// module (module.go has the hooks the core asks them for). The core
// reaches a feature only through this list; a new feature is one line
// here, at its place in the order.

// modules are the registered features, in the order the core asks them:
// the order of their hooks is the order of this list. Today's order is
// part of the behaviour (collect writes the public name first, where the
// core wrote it before it was a module, and the clock's timers last,
// after the games every other module may have changed); docs/architecture.md
// ("Modules and hooks") names it, and TestModuleRegistry holds both to it.
var modules = []Module{
	publicNameModule{},     // the public name a player chooses (cmd_name.go)
	correspondenceModule{}, // spectators, messages, conditional moves, takebacks (correspondence.go)
	ConsentModule{},        // requests to confirm (consent.go)
	tournamentModule{},     // tournaments and ratings (tournament.go)
	clockModule{},          // leave, end times, timers (clock.go, clock_timers.go)
	digestModule{},         // the daily digest (digest.go)
	engineModule{},         // the engine opponent: its runner, its held reply (engine_hold.go)
}
