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
package server
