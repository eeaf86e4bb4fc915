package digest

import (
	"fmt"
	"time"

	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// The daily digest in the player's own time zone ("notify digest 07:30
// Europe/Berlin", issue 12; docs/commands.md "One mail a day"). The
// player names the zone by its IANA name; the archive keeps the name
// (archive.Player.DigestZone, "" for UTC) and the digest's timer as an
// instant, which zones.Next works out from the time of day in that zone
// each time the timer moves. The rules of names and instants are the
// package server/internal/zones; here are the referee's texts of them.

// storedZone returns the zone of a stored digest setting
// (archive.Player.DigestZone): UTC for "", and UTC too, logged, for a
// name this program cannot load (a zone that a later copy of the zone
// database renamed away), so that the digest still comes once a day.
func storedZone(s *referee.Server, addr, name string) *time.Location {
	if name == "" {
		return time.UTC
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		s.Log.Warn("digest time zone unknown; UTC instead", "player", addr, "zone", name, "err", err)
		return time.UTC
	}
	return loc
}

// digestTime writes a digest's time of day with its zone, in lang:
// "07:30 UTC", "07:30 Europe/Berlin time" ("07:30 Uhr (Zeitzone
// Europe/Berlin)").
func digestTime(lang string, at int, zone string) string {
	if zone == "" {
		return referee.Tr(lang, "digest.at.utc", clockOfDay(at))
	}
	return referee.Tr(lang, "digest.at.zone", clockOfDay(at), zone)
}

// Stamp writes the instant t in lang as date and time in the
// digest's zone with its name ("2026-11-30 07:30:00 Europe/Berlin", in
// German "30.11.2026 um 07:30:00 Europe/Berlin": the catalogue's layout
// "layout.zoned"), in UTC as catalog.Instant does when zone is "".
func Stamp(lang string, t time.Time, loc *time.Location, zone string) string {
	if zone == "" {
		return catalog.Instant(lang, t)
	}
	return t.In(loc).Format(referee.Tr(lang, "layout.zoned")) + " " + zone
}

// clockOfDay writes minutes after midnight as HH:MM.
func clockOfDay(at int) string { return fmt.Sprintf("%02d:%02d", at/60, at%60) }
