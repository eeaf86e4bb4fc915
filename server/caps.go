package server

import (
	"context"
	"time"
)

// Caps on what the referee answers, against mail loops and abuse
// (docs/security.md): how many mails of one address it answers per hour at
// all, and how many refusals it sends one address per hour.

// maxRepliesPerHour caps the mails the referee answers for one address per
// hour, whatever they ask; a person playing by mail stays far below it.
const maxRepliesPerHour = 30

// overReplyCap reports whether the mails from addr answered in the last
// hour reached maxRepliesPerHour; such a mail is recorded as ignored.
func (s *Server) overReplyCap(ctx context.Context, addr string, now time.Time) (bool, error) {
	n, err := s.recentReplies(ctx, addr, now)
	if err != nil {
		return false, err
	}
	if n >= maxRepliesPerHour {
		// whatever loops with us (a responder that ignores the rules of
		// RFC 3834) stops getting answers
		s.log.Warn("mail not answered: hourly reply cap reached", "from", addr, "count", n)
		return true, nil
	}
	return false, nil
}

// recentReplies counts the mails from addr answered in the last hour.
func (s *Server) recentReplies(ctx context.Context, addr string, now time.Time) (int, error) {
	total := 0
	for _, d := range []string{applied, refused} {
		n, err := s.store.CountRecent(ctx, addr, d, now.Add(-time.Hour))
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// capRefusals drops the sender's reply to a mail that was not applied
// (refused, or an error) when the sender already got
// Options.ErrorRepliesPerHour such replies in the last hour; the mail is
// still recorded. The replies to other players are kept.
func (s *Server) capRefusals(ss *session, disposition string) error {
	if disposition == applied {
		return nil
	}
	n, err := s.store.CountRecent(ss.ctx, ss.from, disposition, ss.now.Add(-time.Hour))
	if err != nil {
		return err
	}
	if n >= s.opts.ErrorRepliesPerHour {
		s.log.Warn("refusal not sent: hourly cap reached", "from", ss.from, "count", n)
		delete(ss.notes, ss.from)
	}
	return nil
}
