package server

import (
	"errors"
	"fmt"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
)

func init() {
	handle("notify", (*session).notify)
	helpLine(98, "help.notify")
}

// defaultDigestAt is the time of day of a digest asked for without one,
// "notify digest": 07:00 UTC, in minutes after midnight.
const defaultDigestAt = 7 * 60

// notify sets how the sender hears that it is his move (issue 12, "one
// mail a day", digest.go): "notify each", a mail for every ply of an
// opponent (the default); "notify digest [HH:MM]", one mail a day at
// HH:MM UTC (defaultDigestAt without a time) listing the games where it is
// his move. The time is UTC: the archive knows no player's time zone.
// "notify" alone tells the setting, with the changes of the lines above
// it in the same mail. Like "messages" it needs no key and
// holds for all the sender's games.
func (ss *session) notify(c *grammar.NotifyCommand) error {
	switch {
	case c.Each != "":
		p := ss.playerRow(ss.from)
		p.Digest, p.DigestAt, p.DigestDue = false, 0, time.Time{}
		ss.say(nil, tr(ss.lang, "notify.each"))
	case c.Digest != "":
		at := defaultDigestAt
		if c.At != nil {
			at = c.At.Hour*60 + c.At.Minute
		}
		p := ss.playerRow(ss.from)
		if !p.Digest || p.DigestAt != at {
			p.DigestDue = nextDigest(at, ss.now)
		}
		p.Digest, p.DigestAt = true, at
		ss.say(nil, tr(ss.lang, "notify.digest", clockOfDay(at), stamp(p.DigestDue)))
	default:
		// the setting as this mail leaves it so far: a "notify digest"
		// above this line counts (trial 2 report §6)
		p, ok := ss.players[ss.from]
		var err error
		if !ok {
			if p, err = ss.srv.store.Player(ss.ctx, ss.from); err != nil && !errors.Is(err, archive.ErrNotFound) {
				return err
			}
		}
		if err == nil && p.Digest {
			ss.say(nil, tr(ss.lang, "notify.show.digest", clockOfDay(p.DigestAt), stamp(p.DigestDue)))
		} else {
			ss.say(nil, tr(ss.lang, "notify.show.each"))
		}
	}
	return nil
}

// nextDigest returns the first instant after now at minute at of a UTC
// day: when a digest at that time of day is next due.
func nextDigest(at int, now time.Time) time.Time {
	now = now.UTC()
	next := time.Date(now.Year(), now.Month(), now.Day(), at/60, at%60, 0, 0, time.UTC)
	if !next.After(now) {
		next = next.AddDate(0, 0, 1)
	}
	return next
}

// clockOfDay writes minutes after midnight as HH:MM.
func clockOfDay(at int) string { return fmt.Sprintf("%02d:%02d", at/60, at%60) }
