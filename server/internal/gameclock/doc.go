// Package gameclock is the referee's clock feature (CORRESPONDENCE.md
// §2–§5, docs/clock.md): the time control of a game from the archive,
// the clocks every mail about a timed game shows, the time-out of a late
// move, leave ("leave", "cancel leave"), the "clock" command, and the
// games' timers (reminders, deadlines, an invitation's expiry), stored
// with every change of a game and fired when they fall due. Package clock
// (the top-level one) does the accounting over plies; this package is
// what the referee does with it in a session.
//
// It is a module of the core, server/internal/referee: server's assembly
// hands Module to the core (referee.Modules) and imports the package, so
// its init registers "clock", "leave" and "cancel leave" with
// referee.Handle. It names no other feature: a feature whose work falls
// due as a timer of a game (the engine opponent) plans, starts and waits
// for the timers of its own kind through the core's hooks TimerPlanner,
// TimerStarter and TimerWaiter, which this package asks. Other features
// read a game's clock through its exported names (Control, State,
// ClocksText, LostOnTime…).
//
// # Files
//
// Every non-test file of the package, one line each; a test
// (server/doc_test.go) fails when a file is missing here or named here
// but gone.
//
//   - doc.go: this map.
//   - clock.go: a game's clock from the archive, its timers, the end on time (a late move, a deadline's timer), clock texts and leave in words; Module, its state in a session and what it collects.
//   - clock_timers.go: the games' stored timers fired when due: reminders, time-outs, expiries; a module's own kind of timer handed to it.
//   - cmd_clock.go: "clock": the time control in words and both players' leave.
//   - cmd_leave.go: "leave": days of leave left, taking and cancelling leave.
//   - clock_module.go: Module's hooks, and the terms a new game states (Terms).
package gameclock
