package catalog

import (
	"time"

	"github.com/taflmail/taflmail/notation"
)

// This file holds the words of time every room of the referee writes:
// instants, days and durations in a language, as the catalogue's layouts
// and counted nouns say (docs/commands.md, "Replies in German"). What a
// clock shows of them (remaining times, deadlines, time controls) is the
// referee's clock's.

// Instant writes an instant for a mail in lang, in UTC whatever t's zone,
// as the catalogue's layout "layout.stamp" says: "2026-12-30 10:00:00
// UTC", in German "30.12.2026 um 10:00:00 UTC".
func Instant(lang string, t time.Time) string { return t.UTC().Format(Text(lang, "layout.stamp")) }

// Day writes a day for a mail in lang, as the catalogue's layout
// "layout.day" says: "2027-01-15", in German "15.01.2027" (a form the
// leave command reads back, grammar.LeaveDay). Days are UTC days: t is
// taken in UTC whatever its zone.
func Day(lang string, t time.Time) string { return t.UTC().Format(Text(lang, "layout.day")) }

// Duration writes a duration of a time control or a reminder in lang, in
// whole minutes (seconds dropped): days, hours and minutes, each only when
// not zero. English writes them as the notation does
// (notation.FormatDuration: "30d", "1d12h", "0d") but for minutes, "min"
// where the notation has "m" ("3min", "1d5min"), so that a 3-minute game
// does not read as 3 months; German in words with the number's form of
// the unit ("30 Tage", "1 Tag 12 Stunden", "0 Tage"). What commands
// accept is the notation's, unchanged. d is not negative; SpellDuration
// says what zero is.
func Duration(lang string, d time.Duration) string {
	return SpellDuration(lang, d, time.Minute)
}

// durationKeys are the catalogue's counted nouns of the units a duration
// of a mail is written in ("count.d": "%dd" in English, "%d Tage" / "%d
// Tag" in German).
var durationKeys = map[time.Duration]string{notation.Day: "count.d", time.Hour: "count.h", time.Minute: "count.m", time.Second: "count.s"}

// SpellDuration writes d (not negative) in lang down to the unit smallest
// (time.Minute or time.Second) by notation.SpellDuration, which holds the
// rule (the parts, and zero as 0 of the largest unit to the minute, "0d",
// "0 Tage", or 0 seconds to the second, "0s", "0 Sekunden"), each part
// the catalogue's counted noun, joined as "duration.join" says (no space
// in English: "1d2h3min", a space in German: "1 Tag 2 Stunden 3 Minuten").
// The web pages call the same rule with the words of their own catalogue
// (web/units.go, duration): web may not import the referee's packages.
// There English minutes stay "m", as the units give back a time
// control's notation ("3m+2s"); a mail writes "min".
func SpellDuration(lang string, d, smallest time.Duration) string {
	return notation.SpellDuration(d, smallest,
		func(unit time.Duration, n int) string { return TextN(lang, durationKeys[unit], n, n) },
		func(text, part string) string { return Text(lang, "duration.join", text, part) })
}
