// Package referee is the core of the correspondence referee: it reads the
// commands in players' mails, runs them against the game (challenges,
// moves, draw offers, resignations, boards, help), records the result
// together with the replies to send in one archive transaction, and sends
// the replies from the outbox.
//
// It names no feature. Clocks, correspondence, the digest, tournaments
// and ratings, the engine opponent and public names are modules of
// package server, which hands them to the core in order (Modules, set by
// server's assembly at init) and registers their commands with Handle;
// the core asks them for the hooks of module.go (docs/architecture.md,
// "Modules and hooks"). What a feature needs of the core is exported:
// the session of a mail (Session), a game being worked on (Table), the
// pipeline (Transact, the causes), the refusals, the ports and the
// command registry. Package server is the public face: it gives the
// core's types and constants its own name (server.Server is
// referee.Server) for the daemon and the CLI.
//
// It talks to the mail and storage packages only through the small
// interfaces in store.go (Inbox and BatchInbox, Sender and
// SessionSender, and the archive's ports that Store composes, one per
// user), so its tests use in-memory fakes and the
// real packages meet in cmd/taflmail. The command language is
// docs/commands.md; who may move is docs/security.md.
//
// # Files
//
// Every non-test file of the package, one line each, by room; a test
// (server/doc_test.go) fails when a file is missing here or named here
// but gone. A new file gets its line in the room it belongs to.
//
// The core pipeline, from the bottom floor up: the ports, types and
// texts every file uses first, then the session, the hooks, the replies
// and the pipeline, and the loop last (no file uses one below it here):
//
//   - doc.go: this map.
//   - store.go: Inbox (with its optional BatchInbox, a chunk's mails marked done at once), Sender (with its optional SessionSender, a round of mails over one connection), and every port of the archive (games, records, outbox, clock, digest, tournaments, public names…) that Store composes.
//   - limits.go: how much of a mail is read and of its replies written: command lines, quoted characters (Clip), reply text and bytes.
//   - cause.go: the cause, what made the referee act (mail, timer, engine turn, digest, start…), and its seed.
//   - observer.go: Observer, the events counted for /metrics, and the no-op default.
//   - maillog.go: a processed mail's disposition (applied, refused, ignored) and what the "mail processed" log line says it was about (games, tournaments).
//   - game.go: Table, one game being worked on: replayed position, board, move list, record; the reasons a challenge ended without a game.
//   - refusal.go: Refusal, a refused command's catalogue key and arguments, written once into the reply.
//   - ownmail.go: the referee's own lines, from its catalogues, that end what is read of a mail pasting them unquoted.
//   - server.go: Options, Server and Modules, the registered features; EngineAddress, which no mail comes from.
//   - note.go: Note, one reply being composed for one recipient.
//   - ids.go: game ids, keys; the game a mail names in its subject, thread (internal/msgid) or text.
//   - ports.go: the accessors of the ports on the Server, the only places that read its Store.
//   - reply.go: texts several commands share: status, result, the board and move list, a player's label (the engine by its level).
//   - wake.go: Wake, ending Run's wait for mail at once (the relay is back).
//   - session.go: the session of one mail: its command lines, notes, refusals, loaded and created games, the sender's key.
//   - module.go: the one-method hooks the core asks the feature modules for, their walkers, and the slots of the modules' states.
//   - registry.go: which handler runs which grammar command; the help overview's lines.
//   - play.go: what the commands on a running game share: ActiveGame, the game they act on (a module may end it first), and the position and news told after a change (ShowPosition, TellNews).
//   - compose.go: notes → outgoing mails: subject, body, threading, the loop header.
//   - run.go: a mail's command lines (quotes and quoted referee mails cut), its language, running each.
//   - pipeline.go: the verdict, the steps and Transact, the one pipeline; Collect, the session's archive change; the records written.
//   - mail.go: HandleMail; Decide and answer one mail: who sent it, the caps, the commands run, the log line.
//   - start.go: GameStart, StartGames: games an organiser paired, started without a challenge.
//   - inspect.go: Inspect, what `taflmail inspect` shows of a mail, changing nothing.
//   - outbox.go: FlushOutbox, the outbox sent in rounds: claimed, sent, recorded; deferrals and failures.
//   - outbox_wake.go: while Run waits, sending mail another process queued in the outbox.
//   - poll.go: Poll, the inbox read in chunks: each mail decided, the chunk's decisions committed together where they share nothing (HandleMails).
//   - scheduler.go: RunTimers and Run's wait: the modules' work due by the clock, the inbox read up to a deadline.
//   - loop.go: Run (the daemon), its wait and reconnecting.
//   - new.go: New, the options checked and their defaults filled in, the modules installed.
//
// Explaining a line the referee cannot run:
//
//   - syntax.go: a line that does not parse: the caret, what was expected; the quote of a refused line.
//   - hints.go: hints for common slips (dashes, boards, variant names); a variant found by its name as written.
//   - nearmiss.go: a misspelt command phrase (internal/nearmiss), answered with the command meant.
//
// Consent and triage (docs/security.md):
//
//   - triage.go: which reply budget a keyless mail is counted in (junk, command, confirmation).
//   - caps.go: the reply budgets and refusal caps against loops, backscatter and floods.
//   - held.go: the caps that hold a reply back, and the log of what they held, at most once a minute.
//   - consent.go: requests an address confirms from its own mailbox; the one invitation.
//   - unsubscribe.go: List-Unsubscribe and the one-click unsubscribe of RFC 8058.
//
// The texts (the catalogues themselves are internal/catalog):
//
//   - catalog.go: reply languages; Tr, Trn, Counted, SideName and VariantTitle, forwarders to internal/catalog.
//
// The core's mail commands, one file each, registering its handler with
// Handle in init (their tests are package server's, beside the features'):
//
//   - cmd_accept.go: "accept" and "decline" of an invitation.
//   - cmd_block.go: "block" and "unblock": no invitations or requests to confirm.
//   - cmd_board.go: "board": the current position, for a player (a module may answer it for a spectator).
//   - cmd_draw.go: offering, accepting and declining a draw.
//   - cmd_games.go: "games": the sender's running and recent games.
//   - cmd_help.go: "help" and its topics; the overview.
//   - cmd_history.go: "history": the whole record in the native format.
//   - cmd_language.go: "language": the sender's reply language.
//   - cmd_move.go: a move: who may move, the move-number guard, capture marks, the ply's times.
//   - cmd_new.go: "new VARIANT with ADDRESS": a challenge and its invitation.
//   - cmd_resign.go: "resign".
//   - cmd_variants.go: "variants": the built-in rule sets.
//
// Invitations (docs/clock.md):
//
//   - invitations.go: the end of a challenge never accepted: expiry, cancelling, undeliverable.
package referee
