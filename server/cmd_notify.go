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
// "notify digest": 07:00 (UTC, or in the zone named), in minutes after
// midnight.
const defaultDigestAt = 7 * 60

// notify sets how the sender hears that it is his move (issue 12, "one
// mail a day", digest.go): "notify each", a mail for every ply of an
// opponent (the default); "notify digest [HH:MM [ZONE]]", one mail a day at
// HH:MM (defaultDigestAt without a time) in the time zone ZONE, an IANA
// name such as Europe/Berlin (UTC without one; digest_zone.go), listing
// the games where it is his move. A zone that is none is refused, naming
// it. "notify" alone tells the setting, with the changes of the lines
// above it in the same mail. Like "messages" it needs no key and holds for
// all the sender's games.
func (ss *session) notify(c *grammar.NotifyCommand) error {
	switch {
	case c.Each != "":
		p := ss.playerRow(ss.from)
		p.Digest, p.DigestAt, p.DigestZone, p.DigestDue = false, 0, "", time.Time{}
		ss.say(nil, tr(ss.lang, "notify.each"))
	case c.Digest != "":
		at := defaultDigestAt
		if c.At != nil {
			at = c.At.Hour*60 + c.At.Minute
		}
		loc, zone := time.UTC, ""
		if c.Zone != nil {
			var ok bool
			if loc, zone, ok = findZone(c.Zone.Text); !ok {
				return ss.refuseZone(c.Zone.Text, at)
			}
			if fixedZone(zone) {
				return ss.refuse("notify.zone.fixed", clip(c.Zone.Text), clockOfDay(at))
			}
		}
		p := ss.playerRow(ss.from)
		if !p.Digest || p.DigestAt != at || p.DigestZone != zone {
			p.DigestDue = nextDigest(at, loc, ss.now)
		}
		p.Digest, p.DigestAt, p.DigestZone = true, at, zone
		hint := tr(ss.lang, "notify.zone.utc")
		if zone != "" {
			hint = tr(ss.lang, "notify.zone.local", zone)
		}
		ss.say(nil, tr(ss.lang, "notify.digest", digestTime(ss.lang, at, zone), digestStamp(p.DigestDue, loc, zone), hint))
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
			loc := ss.srv.storedZone(p.Address, p.DigestZone)
			ss.say(nil, tr(ss.lang, "notify.show.digest", digestTime(ss.lang, p.DigestAt, p.DigestZone), digestStamp(p.DigestDue, loc, p.DigestZone)))
		} else {
			ss.say(nil, tr(ss.lang, "notify.show.each"))
		}
	}
	return nil
}

// refuseZone refuses a digest in a time zone that is none: it quotes the
// name (clipped) and shows the command with a zone that is one, the
// zone the player may have meant when suggestZone finds it.
func (ss *session) refuseZone(name string, at int) error {
	if sug := suggestZone(name); sug != "" {
		return ss.refuse("notify.zone.suggest", clip(name), clockOfDay(at), sug)
	}
	return ss.refuse("notify.zone.unknown", clip(name), clockOfDay(at))
}

// clockOfDay writes minutes after midnight as HH:MM.
func clockOfDay(at int) string { return fmt.Sprintf("%02d:%02d", at/60, at%60) }
