// Package opponent is the referee's engine opponent (issue 13, issue 18
// §3, issue 22 §5; docs/engine.md "Playing the engine by mail"): a game
// against the engine started by "new <variant> with engine [level N]",
// the engine's timers in every such game's plan, its turns (the search
// and the commit of its reply) and the player's reply held for its ply.
// The top-level engine is the rules it plays by; server/internal/engineturn
// runs its turns (search slots, the fair queue) and plays each through
// this package.
//
// It is a module of the core, server/internal/referee: server's assembly
// hands Module to the core (referee.Modules) and imports the package, so
// its init adds the engine's line to "help". It has no command of its
// own: the core hands it a challenge that names the engine or a level
// (ChallengeTaker), and its timers through the hooks TimerPlanner,
// TimerStarter and TimerWaiter, which the clock feature asks. The
// runner of its turns is its own, one per Server, kept with the core's
// Server.Keep; a turn that ends wakes Run (Server.Wake), and Run on its
// way out and /metrics reach the runner through the hooks WorkWaiter and
// QueueTeller. It reads
// the archive through the core's ports (Server.EnginePort, GamePort) and
// commits through Transact. Of the other features it names only the
// clock (server/internal/gameclock: a game's clocks, its time control,
// the end on time).
//
// # Files
//
// Every non-test file of the package, one line each; a test
// (server/doc_test.go) fails when a file is missing here or named here
// but gone.
//
//   - doc.go: this map.
//   - engine_task.go: what the engine owes a game (its ply or a draw answer), its timer, and its think time.
//   - engine_game.go: games against the engine: the challenge, the limits of games per player and of the engine's capacity.
//   - engine_hold.go: one mail per move: the reply that leaves the engine to move, held for its ply.
//   - engine.go: the engine's turns: the search and the commit of its reply.
//   - engine_module.go: Module and its hooks: its runner (Install, WaitWork, Queued), the engine's timers started on it, the challenge, the timer plan, the held reply.
package opponent
