package digest

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/correspondence"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/server/internal/zones"
)

func init() {
	referee.Handle("notify", notify)
	referee.HelpLine(98, "help.notify")
}

// DefaultAt is the time of day of a digest asked for without one,
// "notify digest": 07:00 (UTC, or in the zone named), in minutes after
// midnight.
const DefaultAt = 7 * 60

// notify sets how the sender hears that it is his move (issue 12, "one
// mail a day", digest.go): "notify each", a mail for every ply of an
// opponent (the default); "notify digest [HH:MM [ZONE]]", one mail a day at
// HH:MM (DefaultAt without a time) in the time zone ZONE, an IANA
// name such as Europe/Berlin (UTC without one; digest_zone.go), listing
// the games where it is his move. A zone that is none is refused, naming
// it. "notify" alone tells the setting, with the changes of the lines
// above it in the same mail. Like "messages" it needs no key from a
// player and holds for all the sender's games. An address that plays no
// game (issue 18, consent.go) changes its setting only by confirming it:
// a keyless "notify each" or "notify digest …" asks it to, and "notify
// confirm KEY" carries out the request the key was mailed for.
func notify(ss *referee.Session, c *grammar.NotifyCommand) error {
	if c.Key != nil {
		req, err := ss.ConfirmConsent(whatNotify, c.Key)
		if err != nil {
			return err
		}
		nc, ok := req.(*grammar.NotifyCommand)
		if !ok || nc.Key != nil {
			return fmt.Errorf("server: the request to confirm %q of %s is %T", whatNotify, ss.From, req)
		}
		c = nc
	}
	switch {
	case c.Each != "":
		p := ss.PlayerRow(ss.From)
		if p.Digest {
			if asked, err := notifyConsent(ss, "notify each"); err != nil || asked {
				return err
			}
		}
		was := p.Digest
		p.Digest, p.DigestAt, p.DigestZone, p.DigestDue = false, 0, "", time.Time{}
		ss.Say(nil, referee.Tr(ss.Lang, "notify.each"))
		if was {
			return sayWaiting(ss)
		}
	case c.Digest != "":
		at := DefaultAt
		if c.At != nil {
			at = c.At.Hour*60 + c.At.Minute
		}
		loc, zone := time.UTC, ""
		if c.Zone != nil {
			var ok bool
			if loc, zone, ok = zones.Find(c.Zone.Text); !ok {
				return refuseZone(ss, c.Zone.Text, at)
			}
			if zones.Fixed(zone) {
				return refuseFixedZone(ss, c.Zone.Text, at)
			}
		}
		request := "notify digest " + clockOfDay(at)
		if zone != "" {
			request += " " + zone
		}
		if asked, err := notifyConsent(ss, request); err != nil || asked {
			return err
		}
		p := ss.PlayerRow(ss.From)
		if !p.Digest || p.DigestAt != at || p.DigestZone != zone {
			p.DigestDue = zones.Next(at, loc, ss.Now)
		}
		p.Digest, p.DigestAt, p.DigestZone = true, at, zone
		hint := referee.Tr(ss.Lang, "notify.zone.utc")
		if zone != "" {
			hint = referee.Tr(ss.Lang, "notify.zone.local", zone)
		}
		ss.Say(nil, referee.Tr(ss.Lang, "notify.digest", digestTime(ss.Lang, at, zone), Stamp(ss.Lang, p.DigestDue, loc, zone), hint))
	default:
		// the setting as this mail leaves it so far: a "notify digest"
		// above this line counts (trial 2 report §6)
		p, ok := ss.Players[ss.From]
		var err error
		if !ok {
			if p, err = ss.StoredPlayer(ss.From); err != nil && !errors.Is(err, archive.ErrNotFound) {
				return err
			}
		}
		if err == nil && p.Digest {
			loc := storedZone(ss.Server, p.Address, p.DigestZone)
			ss.Say(nil, referee.Tr(ss.Lang, "notify.show.digest", digestTime(ss.Lang, p.DigestAt, p.DigestZone), Stamp(ss.Lang, p.DigestDue, loc, p.DigestZone)))
		} else {
			ss.Say(nil, referee.Tr(ss.Lang, "notify.show.each"))
		}
	}
	return nil
}

// sayWaiting adds to the sender's reply, when "notify each" ends the
// digest, the games where it is the sender's move, as the digest would
// have listed them (digestEntry, most urgent first), with the messages
// their opponents left: the moves held for the digest reach the player
// now, not never (event trial §4).
func sayWaiting(ss *referee.Session) error {
	waiting, err := waitingGames(ss, ss.From)
	if err != nil {
		return err
	}
	if len(waiting) == 0 {
		return nil
	}
	digestOrder(ss, waiting)
	ss.Say(nil, referee.Trn(ss.Lang, "notify.each.waiting", len(waiting), len(waiting)))
	for _, t := range waiting {
		text := strings.TrimRight(digestEntry(ss, ss.From, ss.Lang, t), "\n")
		msg := correspondence.MessageTo(t.Game, referee.SideOf(t.Game, ss.From))
		if *msg != "" && !correspondence.MessagesOff(ss, ss.From) {
			text += "\n\n" + referee.Tr(ss.Lang, "message.heading", referee.OpponentOf(t.Game, ss.From)) + "\n\n" + referee.Indent(*msg)
			*msg, t.Changed = "", true
		}
		ss.Say(nil, text)
	}
	return nil
}

// whatNotify is the request of a "notify" change that an address
// playing no game must confirm (consent.go).
const whatNotify = "notify"

// notifyBudget is the reply budget of a keyless mail with the "notify"
// line c (triage.go): a confirmation when its key is the one the referee
// mailed this address for its request, else junk. It only reads the
// archive.
func notifyBudget(ss *referee.Session, c *grammar.NotifyCommand) (archive.MailBudget, error) {
	if c.Key != nil {
		ok, err := ss.ConfirmsWaiting(whatNotify, c.Key.Text)
		return referee.ConfirmationIf(ok), err
	}
	return archive.JunkBudget, nil
}

// notifyConsent decides whether the sender's change of the notify
// setting to request ("notify digest 07:30 Europe/Berlin", "notify
// each") takes effect now: it does when the mail is consented (its
// sender's key for a game, or the confirmation of this request) or the
// sender plays in a game or a tournament. Otherwise it asks the sender
// to confirm it (askConsent) and reports asked: nothing else happens.
func notifyConsent(ss *referee.Session, request string) (asked bool, err error) {
	if ss.Consented(whatNotify) {
		return false, nil
	}
	plays, err := playsAny(ss)
	if err != nil || plays {
		return false, err
	}
	return true, ss.AskConsent(whatNotify, request, referee.Tr(ss.Lang, "confirm.notify", request))
}

// playsAny reports whether the sender is a player of any game, this
// mail's new ones included, or entered in a tournament.
func playsAny(ss *referee.Session) (bool, error) {
	for _, t := range ss.Tables {
		if referee.SideOf(t.Game, ss.From) != "" {
			return true, nil
		}
	}
	gs, err := ss.Server.GamePort().GamesOf(ss.Ctx, ss.From)
	if err != nil || len(gs) > 0 {
		return len(gs) > 0, err
	}
	es, err := ss.Server.TournamentPort().EntriesOf(ss.Ctx, ss.From)
	return len(es) > 0, err
}

// refuseZone refuses a digest in a time zone that is none: it quotes the
// name (clipped) and shows the command with a zone that is one, the
// zone the player may have meant when zones.Suggest finds it.
func refuseZone(ss *referee.Session, name string, at int) error {
	if zones.Abbreviation(name) != nil { // "CEST", "PDT": no zone, but a time of known places
		return refuseFixedZone(ss, name, at)
	}
	if sug := zones.Suggest(name); sug != "" {
		return ss.Refuse("notify.zone.suggest", referee.Clip(name), clockOfDay(at), sug)
	}
	return ss.Refuse("notify.zone.unknown", referee.Clip(name), clockOfDay(at))
}

// refuseFixedZone refuses a digest in a zone that is no place's
// (zones.Fixed) or in an abbreviation that is no zone at all ("CEST"):
// for an abbreviation (zones.Abbreviation) it names the places that use
// it and shows the command with the first; otherwise (a fixed offset such
// as Etc/GMT-1) it asks for the place with a general example.
func refuseFixedZone(ss *referee.Session, name string, at int) error {
	if places := zones.Abbreviation(name); places != nil {
		return ss.Refuse("notify.zone.abbrev", referee.Clip(name), clockOfDay(at), places[0],
			strings.ToUpper(strings.TrimRight(name, ".,;!")), strings.Join(places, ", "))
	}
	return ss.Refuse("notify.zone.fixed", referee.Clip(name), clockOfDay(at))
}
