// Package zones holds the time-zone rules of the daily digest ("notify
// digest 07:30 Europe/Berlin", issue 12; docs/commands.md "One mail a
// day"): which names a player may write for a zone, which of them are no
// place's (abbreviations, fixed offsets) and the places meant instead,
// and when a time of day in a zone next comes round, across the days
// the clocks change. The zones come from the system's zoneinfo or,
// without one, from the copy that cmd/taflmail embeds (time/tzdata).
//
// It knows nothing of mail, sessions or the archive; the referee keeps
// the name a player chose (archive.Player.DigestZone, "" for UTC) and
// the next instant, and writes every text.
package zones

import (
	"strings"
	"time"
)

// maxName bounds a zone's name in bytes before it is looked up; the
// longest IANA name ("America/Argentina/ComodRivadavia") has 32. The
// archive takes up to 64 (archive.Player.DigestZone).
const maxName = 64

// areas are the first parts of the IANA names of places, tried before
// a name without one ("Berlin" → "Europe/Berlin") for "did you mean".
var areas = []string{"Europe", "America", "Asia", "Africa", "Australia", "Pacific", "Atlantic", "Indian", "Antarctica"}

// Find looks up the time zone a player wrote after "notify digest
// HH:MM": "utc" in any case is UTC, stored as ""; any other IANA name
// ("Europe/Berlin", "Etc/GMT-5") as written, or with the first letter of
// each word in capitals when only that differs ("europe/berlin",
// "america/new_york"). It returns the zone, the name to store and whether
// the name is a zone. Names that cannot be IANA names (other characters
// than letters, digits and "/_+-", longer than maxName) are not looked
// up, and "Local" (the server's own zone) is no zone of a player.
func Find(text string) (*time.Location, string, bool) {
	text = strings.TrimRight(text, ".,;!") // the end of a sentence, not of the name
	if strings.EqualFold(text, "utc") {
		return time.UTC, "", true
	}
	if !shaped(text) || strings.EqualFold(text, "local") {
		return nil, "", false
	}
	for _, name := range []string{text, title(text)} {
		if loc, err := time.LoadLocation(name); err == nil {
			return loc, name, true
		}
	}
	return nil, "", false
}

// Fixed reports whether a zone Find found is no place's: an
// abbreviation or a legacy name without an area ("EST", "GMT", "CET"),
// or a fixed offset ("Etc/GMT-1", which is UTC+1). Most of them never
// change between summer and winter time where the player lives (a New
// Yorker writing EST would be an hour off all summer), so the referee
// asks for the place as Area/City instead (docs/commands.md).
func Fixed(name string) bool {
	return name != "" && (!strings.Contains(name, "/") || strings.HasPrefix(strings.ToLower(name), "etc/"))
}

// abbreviations are the common abbreviations of time zones, in upper
// case, with the IANA zones of places that use them, the most populous
// first (issue 22 §7: the CET refusal suggested America/New_York). An
// abbreviation names a time, not a place: CET is winter time in Berlin,
// Paris and Rome alike, and none of them keeps it in summer, so the
// referee refuses it (Fixed, or no zone at all for CEST, PDT, MEZ…)
// and offers these places instead. Some abbreviations mean more than one
// time (CST: Chicago and Shanghai; IST: India, Ireland and Israel); then
// the places of each are listed. German players write MEZ/MESZ (Central
// European), OEZ and WEZ. TestZoneAbbreviations checks that every zone
// here loads and is a place's.
var abbreviations = map[string][]string{
	"CET": centralEurope, "CEST": centralEurope, "MET": centralEurope, "MEST": centralEurope,
	"MEZ": centralEurope, "MESZ": centralEurope,
	"WET": westernEurope, "WEST": westernEurope, "WEZ": westernEurope, "WESZ": westernEurope,
	"EET": easternEurope, "EEST": easternEurope, "OEZ": easternEurope, "OESZ": easternEurope,
	"GMT": {"Europe/London", "Europe/Dublin", "Africa/Accra"},
	"BST": {"Europe/London"},
	"IST": {"Asia/Kolkata", "Europe/Dublin", "Asia/Jerusalem"},
	"MSK": {"Europe/Moscow"},
	"EST": easternAmerica, "EDT": easternAmerica,
	"CST": {"America/Chicago", "America/Mexico_City", "America/Winnipeg", "Asia/Shanghai"},
	"CDT": {"America/Chicago", "America/Mexico_City", "America/Winnipeg"},
	"MST": {"America/Denver", "America/Edmonton", "America/Phoenix"},
	"MDT": {"America/Denver", "America/Edmonton"},
	"PST": pacificAmerica, "PDT": pacificAmerica,
	"AKST": {"America/Anchorage"}, "AKDT": {"America/Anchorage"},
	"HST": {"Pacific/Honolulu"},
	"AST": {"America/Halifax", "America/Puerto_Rico"}, "ADT": {"America/Halifax"},
	"NST": {"America/St_Johns"}, "NDT": {"America/St_Johns"},
	"BRT":  {"America/Sao_Paulo"},
	"ART":  {"America/Argentina/Buenos_Aires"},
	"JST":  {"Asia/Tokyo"},
	"KST":  {"Asia/Seoul"},
	"HKT":  {"Asia/Hong_Kong"},
	"SGT":  {"Asia/Singapore"},
	"PKT":  {"Asia/Karachi"},
	"WIB":  {"Asia/Jakarta"},
	"AEST": easternAustralia, "AEDT": easternAustralia,
	"ACST": {"Australia/Adelaide", "Australia/Darwin"}, "ACDT": {"Australia/Adelaide"},
	"AWST": {"Australia/Perth"},
	"NZST": {"Pacific/Auckland"}, "NZDT": {"Pacific/Auckland"},
	"SAST": {"Africa/Johannesburg"},
	"WAT":  {"Africa/Lagos"},
	"CAT":  {"Africa/Maputo", "Africa/Harare"},
	"EAT":  {"Africa/Nairobi"},
}

// The places of the abbreviations that several share.
var (
	centralEurope    = []string{"Europe/Berlin", "Europe/Paris", "Europe/Rome", "Europe/Madrid", "Europe/Vienna", "Europe/Zurich"}
	westernEurope    = []string{"Europe/Lisbon", "Atlantic/Canary"}
	easternEurope    = []string{"Europe/Athens", "Europe/Helsinki", "Europe/Bucharest", "Africa/Cairo"}
	easternAmerica   = []string{"America/New_York", "America/Toronto", "America/Detroit"}
	pacificAmerica   = []string{"America/Los_Angeles", "America/Vancouver", "America/Tijuana"}
	easternAustralia = []string{"Australia/Sydney", "Australia/Melbourne", "Australia/Brisbane"}
)

// Abbreviation returns the IANA names of the places that use the
// time-zone abbreviation text (any case, a sentence's "." or "," after it
// ignored), the most populous first, or nil when text is none of the
// common abbreviations (see abbreviations).
func Abbreviation(text string) []string {
	return abbreviations[strings.ToUpper(strings.TrimRight(text, ".,;!"))]
}

// Suggest returns the IANA name a player may have meant by a name
// that is no zone: a place without its area ("Berlin" → "Europe/Berlin",
// "auckland" → "Pacific/Auckland"), also written as words ("New York" →
// "America/New_York", outside trial §9); "" when there is none. It tries
// the areas of places only (areas): a misspelt name finds nothing.
func Suggest(text string) string {
	text = strings.Join(strings.Fields(text), "_")
	if !shaped(text) || strings.Contains(text, "/") {
		return ""
	}
	for _, area := range areas {
		name := area + "/" + title(text)
		if _, err := time.LoadLocation(name); err == nil {
			return name
		}
	}
	return ""
}

// shaped reports whether text can be an IANA zone name: 1 to
// maxName bytes of ASCII letters, digits, "/", "_", "+" and "-",
// starting with a letter.
func shaped(text string) bool {
	if text == "" || len(text) > maxName || !isASCIILetter(text[0]) {
		return false
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if !isASCIILetter(c) && (c < '0' || c > '9') && !strings.ContainsRune("/_+-", rune(c)) {
			return false
		}
	}
	return true
}

// isASCIILetter reports whether c is an ASCII letter.
func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// title writes a zone name the way most IANA names are written: the
// first letter of each word (after the start, "/", "_" or "-") in
// capitals, the others small ("america/new_york" → "America/New_York").
func title(text string) string {
	b := []byte(text)
	start := true
	for i, c := range b {
		switch {
		case start && c >= 'a' && c <= 'z':
			b[i] = c - 'a' + 'A'
		case !start && c >= 'A' && c <= 'Z':
			b[i] = c - 'A' + 'a'
		}
		start = c == '/' || c == '_' || c == '-'
	}
	return string(b)
}

// Next returns when a daily event at minute at of the day (0–1439; the
// digest's time) in loc is next due after the instant now: the instant
// of that time on now's day in loc (dayAt), or on the first later day
// whose instant is after now. There is one instant a day, so a digest that went out at a
// time the clocks show twice (the hour of autumn that repeats) is next
// due the day after, not an hour later. The loop ends: each day's instant
// is later than the day before's, by about a day.
func Next(at int, loc *time.Location, now time.Time) time.Time {
	y, m, d := now.In(loc).Date()
	for i := 0; ; i++ {
		if t := dayAt(y, m, d+i, at, loc); t.After(now) {
			return t
		}
	}
}

// dayAt returns the instant of the daily event at minute at of the day
// y-m-d (d may run past the month's end) in loc: when the clocks there
// show that time; when they skip it (the hour forward in spring, 02:30 on
// a day they go from 02:00 to 03:00) the instant they jump over it, the
// first that is later there; when they show it twice (the hour back in
// autumn) the first of the two.
func dayAt(y int, m time.Month, d, at int, loc *time.Location) time.Time {
	want := time.Date(y, m, d, at/60, at%60, 0, 0, time.UTC) // the clock face wanted
	t := time.Date(y, m, d, at/60, at%60, 0, 0, loc)
	switch w := clockFace(t); {
	case w.After(want):
		// skipped, and time.Date went past the jump: it is where t's
		// period of the zone starts
		if start, _ := t.ZoneBounds(); !start.IsZero() {
			return start
		}
	case w.Before(want):
		// skipped, and time.Date stayed before the jump
		if _, end := t.ZoneBounds(); !end.IsZero() {
			return end
		}
	default:
		// shown at t; also an offset earlier, before t's period began?
		if start, _ := t.ZoneBounds(); !start.IsZero() {
			_, before := start.Add(-time.Second).Zone()
			_, after := t.Zone()
			if earlier := t.Add(-time.Duration(before-after) * time.Second); before > after && clockFace(earlier).Equal(want) {
				return earlier
			}
		}
	}
	return t
}

// clockFace returns what the clocks of t's zone show at t, as the same
// date and time in UTC, so that clock faces compare as instants.
func clockFace(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
}
