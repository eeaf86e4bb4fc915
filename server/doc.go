// Package server is the correspondence referee: it reads the commands in
// players' mails, runs them against the game (challenges, moves, draw
// offers, resignations, boards, help), records the result together with the
// replies to send in one archive transaction, and sends the replies from
// the outbox.
//
// It talks to the mail and storage packages only through the small
// interfaces in ports.go (Inbox, Sender, Store), so its tests use
// in-memory fakes and the real packages meet in cmd/taflmail. The command
// language is docs/commands.md; who may move is docs/security.md.
//
// Files, in the order a mail meets them:
//
//   - server.go: Options, New, HandleMail and decide (one mail → one
//     archive change); pipeline.go: the cause (what made the referee
//     act: a mail, a timer, the engine's turn, a digest, an undeliverable
//     invitation, a start, the referee's own change; it seeds the
//     replies' Message-IDs) and transact, the one pipeline every cause
//     goes through (session, compose, collect, commit with its conflict
//     retries, records, settling); triage.go: which reply budget a keyless mail is
//     counted in (junk, a valid command, a confirmation with its key);
//     caps.go: the reply budgets and refusal caps; held.go: the log of
//     what they held back, once a minute; loop.go: Run, Poll and the
//     outbox.
//   - session.go: the session of one mail (replies being composed, games
//     loaded, the sender's game and key); run.go: finding the command
//     lines and running each; registry.go: which handler runs which
//     grammar command, and the help overview's lines; refusal.go: a
//     refused command's key and arguments, written once into the reply.
//   - cmd_*.go: one file per mail command (cmd_new.go challenge,
//     cmd_accept.go accept/decline, cmd_move.go, cmd_board.go,
//     cmd_history.go, cmd_games.go, cmd_resign.go, cmd_draw.go,
//     cmd_variants.go, cmd_help.go, cmd_language.go, cmd_block.go), each
//     registering its handler in init, each with its test beside it.
//   - consent.go: requests an address must confirm from its own mailbox
//     ("watch", "notify" of a non-player, "unblock"), the one invitation
//     to an address that never wrote; unsubscribe.go: List-Unsubscribe
//     and the one-click unsubscribe of RFC 8058 (docs/security.md,
//     "Consent").
//   - game.go: a game being worked on (table: replay, board, move list,
//     record); reply.go: texts several commands share (status, result);
//     syntax.go: explaining a line that does not parse; hints.go: hints
//     for common slips; compose.go: notes → outgoing mails.
//   - catalog.go with catalog_en.go and catalog_de.go: every text a player
//     can receive, one catalogue per language.
//   - ids.go: game ids, keys, Message-IDs; inspect.go: `taflmail inspect`.
package server
