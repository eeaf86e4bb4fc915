// Package correspondence is what correspondence players expect of the
// referee (issue 12, docs/commands.md): spectators of a game ("watch",
// "unwatch", a spectator's "board", "private" and "public"), messages to
// the opponent (the prose of a keyed mail relayed, a challenger's words in
// the invitation, "messages"), conditional moves ("if … then …",
// "conditions") and takebacks in casual games ("takeback" and its
// answers).
//
// It is a module of the core, server/internal/referee: server's assembly
// hands Module to the core (referee.Modules) and imports the package, so
// its init registers its commands with referee.Handle. Its state in a
// session is behind its one accessor, corrOf. It reads a game's clock
// through internal/gameclock and names no other feature: an id after
// "watch" or "unwatch" that names no game goes to the other modules
// through the core's hooks WatchTaker, ThreadTeller and UnwatchTaker
// (the tournaments' events), and a note held back for the digest is the
// core's to tell (Session.NoteHeld). The features above it (the digest,
// the tournaments) use its exported names: the spectator rows a mail
// writes (StartWatching, StopWatching, EventWatchAdded, UnwatchingEvent),
// the consent of a "watch" (WatchConsent), the waiting messages
// (MessageTo, MessagesOff).
//
// # Files
//
// Every non-test file of the package, one line each; a test
// (server/doc_test.go) fails when a file is missing here or named here
// but gone.
//
//   - doc.go: this map.
//   - correspondence.go: what a mail does for spectators, messages and conditions: Module, the state, its accessor, what it collects.
//   - conditions.go: conditional moves: checking, storing, their texts, dropping them.
//   - spectator_rows.go: who may watch a game, the spectator rows a mail adds and removes, which ids are a game's; a spectator's subject.
//   - messages.go: the prose of a keyed mail relayed to the opponent; a challenger's words in the invitation.
//   - cmd_conditions.go: "if … then …", "conditions" and cancelling them.
//   - conditions_fire.go: conditional moves fired after the opponent's ply: the answer played, or the set cancelled.
//   - cmd_messages.go: "messages": relaying opponents' messages on or off.
//   - cmd_private.go: "private" and "public": whether a game may be watched.
//   - cmd_takeback.go: "takeback" and its answers, in casual games.
//   - cmd_watch.go: "watch" and "unwatch" of a game, an event's handed to the tournament by hooks; a spectator's "board".
//   - spectators.go: the spectators' mails after every change.
//   - correspondence_module.go: Module's hooks.
package correspondence
