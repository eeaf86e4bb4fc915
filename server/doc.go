// Package server is the correspondence referee: it reads the commands in
// players' mails, runs them against the game (challenges, moves, draw
// offers, resignations, boards, help), records the result together with the
// replies to send in one archive transaction, and sends the replies from
// the outbox.
//
// It talks to the mail and storage packages only through the small
// interfaces in ports.go (Inbox, Sender, and the archive's ports that
// Store composes, one per user), so its tests use
// in-memory fakes and the real packages meet in cmd/taflmail. The command
// language is docs/commands.md; who may move is docs/security.md.
//
// # Files
//
// Every non-test file of the package, one line each, by room; a test
// (doc_test.go) fails when a file is missing here or named here but gone.
// A new file gets its line in the room it belongs to.
//
// The core pipeline, in the order a mail meets it:
//
//   - doc.go: this map.
//   - ports.go: Inbox, Sender, and every port of the archive (games, records, outbox, clock, digest, tournaments, public names…) that Store composes.
//   - observer.go: Observer, the events counted for /metrics, and the no-op default.
//   - loop.go: Run (the daemon), Poll, FlushOutbox (the outbox) and reconnecting.
//   - wake.go: Wake, ending Run's wait for mail at once (the relay is back).
//   - outbox_wake.go: while Run waits, sending mail another process queued in the outbox.
//   - server.go: Options and their defaults, New, HandleMail; decide, collect and answer one mail; the records; EngineAddress, which no mail comes from.
//   - pipeline.go: the cause (mail, timer, engine turn, digest, start…) and transact, the one pipeline.
//   - scheduler.go: RunTimers and Run's wait: the modules' work due by the clock, the inbox read up to a deadline.
//   - module.go: the one-method hooks the core asks the feature modules for, their walkers, and the slots of the modules' states.
//   - assembly.go: the registry of feature modules, in order: the one file that names the features.
//   - maillog.go: what the "mail processed" log line says a mail was about (games, tournaments).
//   - session.go: the session of one mail: notes, refusals, loaded games, the sender's key.
//   - refusal.go: a refused command's catalogue key and arguments, written once into the reply.
//   - run.go: a mail's command lines (quotes and quoted referee mails cut), its language, running each.
//   - ownmail.go: the referee's own lines, from its catalogues, that end what is read of a mail pasting them unquoted.
//   - registry.go: which handler runs which grammar command; the help overview's lines.
//   - game.go: table, one game being worked on: replayed position, board, move list, record.
//   - reply.go: texts several commands share: the position after a change, status, result, a player's label (the engine by its level).
//   - compose.go: notes → outgoing mails: subject, body, threading, the loop header.
//   - ids.go: game ids, keys; the game a mail names in its subject, thread (internal/msgid) or text.
//   - start.go: GameStart, StartGames: games an organiser paired, started without a challenge.
//   - inspect.go: Inspect, what `taflmail inspect` shows of a mail, changing nothing.
//
// Explaining a line the referee cannot run:
//
//   - syntax.go: a line that does not parse: the caret, what was expected.
//   - hints.go: hints for common slips (dashes, boards, variant names).
//   - nearmiss.go: a misspelt command phrase (internal/nearmiss), answered with the command meant.
//
// Consent and triage (docs/security.md):
//
//   - triage.go: which reply budget a keyless mail is counted in (junk, command, confirmation).
//   - caps.go: the reply budgets and refusal caps against loops, backscatter and floods.
//   - held.go: the log of what the caps held back, at most once a minute.
//   - consent.go: requests an address confirms from its own mailbox; the one invitation.
//   - unsubscribe.go: List-Unsubscribe and the one-click unsubscribe of RFC 8058.
//
// The texts (the catalogues themselves are internal/catalog):
//
//   - catalog.go: reply languages; tr, trn, counted, sideName and variantTitle, forwarders to internal/catalog.
//
// The mail commands, one file each, registering its handler in init
// (with its test beside it):
//
//   - cmd_accept.go: "accept" and "decline" of an invitation.
//   - cmd_block.go: "block" and "unblock": no invitations or requests to confirm.
//   - cmd_board.go: "board": the current position, for a player (a module may answer it for a spectator).
//   - cmd_clock.go: "clock": the time control in words and both players' leave.
//   - cmd_conditions.go: "if … then …", "conditions" and cancelling them.
//   - cmd_draw.go: offering, accepting and declining a draw.
//   - cmd_games.go: "games": the sender's running and recent games.
//   - cmd_help.go: "help" and its topics; the overview.
//   - cmd_history.go: "history": the whole record in the native format.
//   - cmd_join.go: "join ID": a tournament entry in two steps.
//   - cmd_language.go: "language": the sender's reply language.
//   - cmd_leave.go: "leave": days of leave left, taking and cancelling leave.
//   - cmd_messages.go: "messages": relaying opponents' messages on or off.
//   - cmd_move.go: a move: who may move, the move-number guard, capture marks, the ply's times.
//   - cmd_name.go: "name": the public name in exports; its module.
//   - cmd_new.go: "new VARIANT with ADDRESS": a challenge and its invitation.
//   - cmd_notify.go: "notify": every mail, or a daily digest at a time and zone.
//   - cmd_private.go: "private" and "public": whether a game may be watched.
//   - cmd_rating.go: "rating": a player's ratings and rated games.
//   - cmd_resign.go: "resign".
//   - cmd_standings.go: "standings ID": an event's crosstable.
//   - cmd_takeback.go: "takeback" and its answers, in casual games.
//   - cmd_tournaments.go: "tournaments": the events open or running.
//   - cmd_variants.go: "variants": the built-in rule sets.
//   - cmd_watch.go: "watch" and "unwatch" of a game or an event; a spectator's "board".
//   - cmd_withdraw.go: "withdraw ID" from a tournament.
//
// Clocks and timers (docs/clock.md):
//
//   - clock.go: a game's clock from the archive, its timers, the time-out of a late move, clock texts.
//   - clock_timers.go: the games' stored timers fired when due: reminders, time-outs, expiries, the engine's turns.
//   - invitations.go: the end of a challenge never accepted: expiry, cancelling, undeliverable.
//
// Correspondence (issue 12):
//
//   - correspondence.go: what a move does for spectators, messages and conditions.
//   - spectators.go: the spectators' mails after every change; which ids are a game's.
//   - messages.go: the prose of a keyed mail relayed to the opponent; a challenger's words in the invitation.
//   - conditions.go: conditional moves: checking, storing, firing.
//
// The daily digest:
//
//   - digest.go: routine mails held for the digest, and the digest sent once a day.
//   - digest_zone.go: the digest in the player's time zone: its refusals, the stored zone, its texts.
//
// Tournaments and ratings (docs/tournaments.md):
//
//   - tournament.go: an event's state, entries, standings, MinPlayers.
//   - tournament_start.go: starting an event: drawing lots, games in chunks, cancelling.
//   - tournament_text.go: what players read of an event: standings, the final mail.
//   - tournament_watch.go: an event's spectators: the start mail and the cancellation.
//   - tournament_withdraw.go: withdrawals (Decision T3), decided when they happen.
//   - rating.go: rating a rated game in the transaction that ends it; RatingAt.
//
// The engine opponent (docs/engine.md):
//
//   - engine.go: games against the engine, its turns' search and commit.
//   - engine_hold.go: one mail per move: the reply that leaves the engine to move, held for its ply.
//
// Sub-packages with their own state, each with its row in the import
// table (docs/architecture.md):
//
//   - internal/engineturn: the runner of the engine's turns: search slots, the quick slot, the fair queue.
//   - internal/zones: the digest's time-zone rules: names a player may write, places for an abbreviation, the next instant.
//   - internal/nearmiss: the command phrase a misspelt line meant, and the edit distance of two words.
//   - internal/msgid: the referee's deterministic Message-IDs (players', spectators', events'), read back for a game and key.
//   - internal/catalog: every text a player can receive, one catalogue per language and room, and its lookups; side, variant, board and illegal-move words; instants, days and durations.
package server
