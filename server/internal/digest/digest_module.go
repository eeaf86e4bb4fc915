package digest

import (
	"context"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// Module is the daily digest as a module of the core (the hooks of
// internal/referee's module.go): it counts the sections of a note that
// are only the news of a ply, holds back the notes it will bring, and
// sends the digests due. server's assembly lists it sixth, after the
// clock.
type Module struct{}

// Name is "digest", as the registry's test and the docs call the module.
func (Module) Name() string { return "digest" }

// NewsAdded counts the news of a ply in n: a player who chose the digest
// does not get a reply made only of such sections (held).
func (Module) NewsAdded(_ *referee.Session, n *referee.Note) { n.Routine++ }

// Holds reports whether note n is held back for the daily digest (held):
// it brings only the news of a ply of a running game to a player other
// than the sender who chose the digest.
func (Module) Holds(ss *referee.Session, n *referee.Note) bool { return held(ss, n) }

// LineBudget says which reply budget a keyless "notify" line is counted
// in (notifyBudget, cmd_notify.go); ok is false for every other command.
func (Module) LineBudget(ss *referee.Session, c grammar.Command) (archive.MailBudget, bool, error) {
	if n, ok := c.(*grammar.NotifyCommand); ok {
		b, err := notifyBudget(ss, n)
		return b, true, err
	}
	return "", false, nil
}

// RunDue sends the digests due at Options.Now and counts them
// (runDigests); its error is the first failure, the digests not sent
// staying due.
func (Module) RunDue(ctx context.Context, s *referee.Server) (int, error) {
	return runDigests(s, ctx)
}

// OverdueWait says whether a digest is left due at now: one RunTimers left (or the digests
// cannot be read), so Run tries again in a second.
func (Module) OverdueWait(ctx context.Context, s *referee.Server, now time.Time) (time.Duration, bool) {
	ds, err := s.DigestPort().DueDigests(ctx, now, 1)
	return 0, err != nil || len(ds) > 0
}

// Instant writes an instant for a player who set the digest in a time
// zone of their own in that zone, with its name (Stamp,
// digest_zone.go); "" for anyone else.
func (Module) Instant(ss *referee.Session, lang string, t time.Time, addr string) string {
	zone := ""
	if p, ok := ss.Players[addr]; ok {
		zone = p.DigestZone
	}
	if zone == "" {
		return ""
	}
	return Stamp(lang, t, storedZone(ss.Server, addr, zone), zone)
}
