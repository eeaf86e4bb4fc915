// Package club is taflmail's application layer: what a club's referee
// holds, read as its players and directors ask for it. It sits between
// the archive (or a set of record files) and the pure packages clock
// and tournament, and is used by the command line (`taflmail tournament
// standings`, `standings`, `ratings`, `export`) and by the web pages
// (package web), so both compute the same numbers from the same rules.
//
// What it answers:
//   - an event's sections and standings from the games the archive
//     holds (CORRESPONDENCE.md §6.3–§6.5, Decisions T2 and T3), or from
//     record files as `taflmail standings` reads them;
//   - a rating at an instant, its RD grown for the idle time (Decision
//     R1, CORRESPONDENCE.md §7.2);
//   - a game's record as native, OpenTafl (.otg) or CSV text, a
//     tournament's games as one record file, the leave of a tournament
//     game cut to its event's allowance (§3.1);
//   - public names: the name under which a player appears on the
//     club's pages, a pseudonym derived with a secret key from the
//     mail address unless the player chose one (names.go);
//   - a tournament file ([ReadTournamentFile], docs/tournaments.md):
//     every key checked and each problem reported at its line, for
//     `taflmail tournament create`; the form of a tournament's id
//     ([TournamentIDPattern], [ValidTournamentID]) and of a game's
//     ([LooksLikeGameID]), and [MinPlayers], which the referee uses too;
//   - a [Club]: one read-only snapshot of every public fact (events,
//     games, players, rating lists) for the web pages, loaded from the
//     archive ([Load]) or from records ([FromRecords]); a mail address,
//     a key or a private game never enters it.
//
// It may import archive, clock, tournament, notation, engine, grammar
// and the YAML library (docs/architecture.md); it does no I/O of its own
// beyond reading the archive it is handed.
package club
