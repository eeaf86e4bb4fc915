// Package server is the correspondence referee: it reads the commands in
// players' mails, runs them against the game (challenges, moves, draw
// offers, resignations, boards, help), records the result together with
// the replies to send in one archive transaction, and sends the replies
// from the outbox.
//
// The core of that (the session of a mail, its commands, games and
// replies, the pipeline, the loop) is the package internal/referee, which
// names no feature. This package is its public face (face.go: Server,
// Options, New, the ports, under server's name), its assembly (the
// feature modules in their order, handed to the core, assembly.go). The
// features are packages of their own beside the core: the clocks, public
// names, correspondence, the digest, tournaments and ratings, the engine
// opponent (internal/gameclock, internal/publicname,
// internal/correspondence, internal/digest, internal/tournaments,
// internal/opponent). The command language is docs/commands.md;
// who may move is docs/security.md.
//
// # Files
//
// Every non-test file of the package, one line each, by room; a test
// (doc_test.go) fails when a file is missing here or named here but gone.
// A new file gets its line in the room it belongs to.
//
// The public face and the assembly:
//
//   - doc.go: this map.
//   - face.go: the core's types and constants under server's name (Server, Options, Store…), and New; the director's tournament operations (StartTournament, WithdrawPlayer…), forwarders to internal/tournaments.
//   - assembly.go: the registry of feature modules, in order, handed to the core: the one file that names the features.
//
// Sub-packages, each with its row in the import table
// (docs/architecture.md):
//
//   - internal/referee: the core: a mail's commands, games and replies, the pipeline, the loop, the hooks it asks the modules for; its doc.go maps its files.
//   - internal/correspondence: the correspondence features: spectators, messages to the opponent, conditional moves, takebacks; its doc.go maps its files.
//   - internal/digest: the daily digest: notes held back, the digest mail once a day in the player's zone, "notify"; its doc.go maps its files.
//   - internal/gameclock: the clock feature: time controls, clocks in the mails, time-outs, leave, "clock", the games' timers; its doc.go maps its files.
//   - internal/opponent: the engine opponent: games against the engine, its timers, its turns' search and commit, the reply held for its ply; its doc.go maps its files.
//   - internal/publicname: the public name feature: "name", its module and its state; its doc.go maps its files.
//   - internal/tournaments: tournaments and ratings: entries, the start, standings, withdrawals, an event's spectators, "join", "withdraw", "standings", "tournaments", "rating"; its doc.go maps its files.
//   - internal/engineturn: the runner of the engine's turns: search slots, the quick slot, the fair queue.
//   - internal/zones: the digest's time-zone rules: names a player may write, places for an abbreviation, the next instant.
//   - internal/nearmiss: the command phrase a misspelt line meant, and the edit distance of two words.
//   - internal/msgid: the referee's deterministic Message-IDs (players', spectators', events'), read back for a game and key.
//   - internal/catalog: every text a player can receive, one catalogue per language and room, and its lookups; side, variant, board and illegal-move words; instants, days and durations.
package server
