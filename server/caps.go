package server

import (
	"context"
	"fmt"
	"time"

	"github.com/taflmail/taflmail/archive"
)

// Caps on what the referee answers, against mail loops, backscatter and
// amplification (docs/security.md, issue 8). A mail that carries the
// sender's valid key for its game is always handled, and answered whenever
// it changed a game; only loopBreaker may keep back the answer to a keyed
// mail that changed nothing. Every other cap applies to mails without the
// sender's key.
//
// The counts come from the archive (archive.MailFilter over the processed
// mails of the last hour), so they hold across restarts.

// maxRepliesPerHour caps the keyless mails the referee answers for one
// address per hour, whatever they ask; a person playing by mail stays far
// below it, and whatever loops with us without a key (a responder that
// ignores RFC 3834) stops getting answers.
const maxRepliesPerHour = 30

// DefaultStrangerRepliesPerHour is the default of
// Options.StrangerRepliesPerHour: how many keyless mails, from all senders
// together, the referee answers per hour.
const DefaultStrangerRepliesPerHour = 60

// maxKeyedRefusals is how many refused keyed mails about one game one
// player is answered per hour; maxRepliesPerHour bounds the answered keyed
// mails about one game that changed nothing (board, help, …). Past either,
// a keyed mail that changed nothing is recorded but not answered. They
// break a loop with an auto-responder that quotes our subject, and so our
// key, without our loop headers; no person sends that many mails about one
// game in an hour, and a mail that changes the game (a move, a
// resignation, a draw offer or answer, an accepted challenge) is always
// answered.
const maxKeyedRefusals = 10

// maxCommandLines is how many distinct command lines of one mail are read;
// the reply says when more were left unread (issue 8 §2).
const maxCommandLines = 20

// maxReplyText bounds, in bytes, the text of all sections of all replies to
// one mail; with the board, the move list and the headers the replies stay
// under maxReplyBytes.
const maxReplyText = 48 << 10

// maxReplyBytes bounds, in bytes, all replies one mail causes together,
// whatever it holds (issue 8 §2: a 240 KB mail of "help" lines made 35 MB).
const maxReplyBytes = 64 << 10

// hourAgo is the start of the window the hourly caps count in.
func hourAgo(now time.Time) time.Time { return now.Add(-time.Hour) }

// strangerBudget says why a keyless mail from addr is not answered at all,
// or "" when it may be: the sender's own hourly cap (maxRepliesPerHour)
// and the budget shared by every keyless sender
// (Options.StrangerRepliesPerHour). Such a mail is recorded as ignored
// with the reason and nothing it asks for is done.
func (s *Server) strangerBudget(ctx context.Context, addr string, now time.Time) (string, error) {
	n, err := s.store.CountMails(ctx, archive.MailFilter{From: addr, Auth: archive.OnlyUnauthenticated,
		AnsweredOnly: true, Since: hourAgo(now)})
	if err != nil {
		return "", err
	}
	if n >= maxRepliesPerHour {
		return fmt.Sprintf("reply cap for this sender reached: %d mails without a key answered in the last hour", n), nil
	}
	if s.opts.StrangerRepliesPerHour == 0 {
		return "replies to mails without a key are switched off (server.stranger_replies_per_hour)", nil
	}
	all, err := s.store.CountMails(ctx, archive.MailFilter{Auth: archive.OnlyUnauthenticated,
		AnsweredOnly: true, Since: hourAgo(now)})
	if err != nil {
		return "", err
	}
	if all >= s.opts.StrangerRepliesPerHour {
		return fmt.Sprintf("reply budget for mails without a key spent: %d answered in the last hour (server.stranger_replies_per_hour)", all), nil
	}
	return "", nil
}

// loopBreaker says why the sender's reply to a keyed mail that changed no
// game is not sent, or "" when it is (see maxKeyedRefusals); the sender's
// note is then dropped. A keyed mail that changed a game is always
// answered.
func (ss *session) loopBreaker(disposition string) (string, error) {
	if ss.auth == nil || ss.changedGame() {
		return "", nil
	}
	f := archive.MailFilter{From: ss.from, GameID: ss.auth.g.ID, Auth: archive.OnlyAuthenticated,
		AnsweredOnly: true, Since: hourAgo(ss.now)}
	limit := maxRepliesPerHour
	if disposition != applied {
		f.Disposition, limit = disposition, maxKeyedRefusals
	}
	n, err := ss.srv.store.CountMails(ss.ctx, f)
	if err != nil {
		return "", err
	}
	if n >= limit {
		ss.dropNotes(ss.from)
		return fmt.Sprintf("loop breaker: %d keyed mails about game %s that changed nothing were answered in the last hour", n, ss.auth.g.ID), nil
	}
	return "", nil
}

// changedGame reports whether the mail changed a game: a ply, a
// resignation, a draw offer or answer, a challenge or its answer (a
// message stored for the opponent alone does not count).
func (ss *session) changedGame() bool {
	for _, t := range ss.tables {
		if t.changed && !ss.changedOnlyByMessage(t) {
			return true
		}
	}
	return false
}

// capRefusals drops the sender's reply to a keyless mail that was not
// applied (refused, or an error) when the sender already got
// Options.ErrorRepliesPerHour such replies in the last hour; the mail is
// still recorded, with the reason. Replies to other players are kept. For
// a keyed mail it is loopBreaker.
func (s *Server) capRefusals(ss *session, disposition string) (string, error) {
	if ss.auth != nil {
		return ss.loopBreaker(disposition)
	}
	if disposition == applied {
		return "", nil
	}
	n, err := s.store.CountMails(ss.ctx, archive.MailFilter{From: ss.from, Disposition: disposition,
		Auth: archive.OnlyUnauthenticated, AnsweredOnly: true, Since: hourAgo(ss.now)})
	if err != nil {
		return "", err
	}
	if n >= s.opts.ErrorRepliesPerHour {
		ss.dropNotes(ss.from)
		return fmt.Sprintf("refusal not sent: %d refusals of mails without a key sent to this address in the last hour (server.error_replies_per_hour)", n), nil
	}
	return "", nil
}
