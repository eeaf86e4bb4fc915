// Package tournaments is the referee's tournaments and ratings
// (CORRESPONDENCE.md §6–§7, docs/tournaments.md): an event's entries
// ("join", in two steps), its start on its start date or by the director
// (StartTournament: drawing lots, pairing, the games started in chunks),
// the standings told after every game and the final mails, withdrawals
// ("withdraw", WithdrawPlayer), an event's spectators ("watch" and
// "unwatch" of an event's id), "standings", "tournaments", and the
// ratings of rated games ("rating"), written in the transaction that
// ends a game.
//
// It is a module of the core, server/internal/referee: server's assembly
// hands Module to the core (referee.Modules) and imports the package, so
// its init registers "join", "withdraw", "standings", "tournaments" and
// "rating" with referee.Handle. Its state in a session is behind its one
// accessor, tourneyOf; it reads the archive through the core's
// TournamentStore port (Server.TournamentPort). It sits above the
// correspondence, whose spectator rows and "watch" consent an event's
// spectators use (correspondence.StartWatching, WatchConsent…), and reads
// the clocks through internal/gameclock; it names no other feature. The
// director's operations (StartTournament, StartTournamentCounted,
// WithdrawPlayer, TournamentExport, EventStandings, RatingAt) are
// exported, and package server's face forwards them under its own name
// for cmd/taflmail.
//
// # Files
//
// Every non-test file of the package, one line each; a test
// (server/doc_test.go) fails when a file is missing here or named here
// but gone. They are listed bottom first: each file uses only the files
// listed before it, so they read best in this order.
//
//   - doc.go: this map.
//   - tournament_event.go: an event as a session sees it: entries, sections, standings, whether its games are over; the director's errors, MinPlayers, TournamentExport.
//   - tournament_state.go: Module's type, the session's state (tourneyState, ratingWork) behind tourneyOf, the events loaded in it; change, a session no mail caused.
//   - rating.go: rating a rated game in the transaction that ends it; a player's rating now and in words; RatingAt.
//   - tournament_withdraw.go: withdrawals (Decision T3), decided when they happen.
//   - tournament_text.go: what players read of an event: its standings and terms, the referee's own mails.
//   - tournament_watch.go: an event's spectators: following and leaving it, the start mail and the cancellation.
//   - tournament_start.go: starting an event: drawing lots, games in chunks, cancelling.
//   - tournament_end.go: the games a session ended: rated, their standing told, the event finished with the final mail.
//   - cmd_tournaments.go: "tournaments": the events open or running.
//   - cmd_join.go: "join ID": a tournament entry in two steps.
//   - cmd_withdraw.go: "withdraw ID" from a tournament.
//   - cmd_standings.go: "standings ID": an event's crosstable.
//   - cmd_rating.go: "rating": a player's ratings and rated games.
//   - tournament.go: Module's hooks, at the top: each hands the core's call to the files below; what a session changed, collected.
package tournaments
