package web

import (
	"time"

	"github.com/taflmail/taflmail/notation"
)

// durationKeys are the counted nouns in texts of the units a duration of
// the pages is written in ("count.d": "%dd" in English, "%d Tage" / "%d
// Tag" in German).
var durationKeys = map[time.Duration]string{notation.Day: "count.d", time.Hour: "count.h", time.Minute: "count.m"}

// duration writes d in lang in whole minutes (seconds dropped, never
// below zero) by notation.SpellDuration, which holds the rule (days,
// hours and minutes, each only when not zero; zero as 0 days), each part
// a counted noun of the pages' catalogue, joined as "duration.join"
// says. English writes them as the notation does
// (notation.FormatDuration: "29d23h59m", "45m", "0d"), so that the units
// give back a control's notation ("3m+2s"); German in words
// with the number's form of the unit, as the German mails do ("29 Tage
// 23 Stunden 59 Minuten", "1 Tag 1 Stunde", "45 Minuten", "0 Tage";
// docs/commands.md, "Replies in German: times and days"). The referee's
// mails call the same rule with the words of their own catalogue
// (server/internal/catalog, SpellDuration), which web may not import;
// there English minutes are "min".
func duration(lang string, d time.Duration) string {
	return notation.SpellDuration(d, time.Minute,
		func(unit time.Duration, n int) string { return trn(lang, durationKeys[unit], n, n) },
		func(text, part string) string { return tr(lang, "duration.join", text, part) })
}

// dayText writes the UTC day of t in lang as "layout.day" says:
// "2027-01-15", in German "15.01.2027".
func dayText(lang string, t time.Time) string { return t.UTC().Format(tr(lang, "layout.day")) }

// whenText writes t in UTC to the minute in lang as "layout.when" says:
// "2026-12-30 10:00 UTC", in German "30.12.2026 um 10:00 UTC".
func whenText(lang string, t time.Time) string { return t.UTC().Format(tr(lang, "layout.when")) }

// control writes a time control as written in the archive
// (CORRESPONDENCE.md §1, "30d+1d") in lang. English gives back its
// canonical notation (notation.TimeControl.String: "30d+1d", "5d/move",
// "1d12h+0d max 20d iccf"); German says it in words ("je Seite 30 Tage,
// nach jedem Zug 1 Tag dazu", "5 Tage je Zug"), since no one types a
// control back from a page. A control that does not parse is written as
// it is.
func control(lang, s string) string {
	tc, err := notation.ParseTimeControl("", s)
	if err != nil {
		return s
	}
	var text string
	switch tc.Kind {
	case notation.Fischer:
		if tc.Increment == 0 {
			text = tr(lang, "control.sudden", duration(lang, tc.Base))
		} else {
			text = tr(lang, "control.fischer", duration(lang, tc.Base), duration(lang, tc.Increment))
		}
		if tc.Cap > 0 {
			text = tr(lang, "control.cap", text, duration(lang, tc.Cap))
		}
	case notation.PerMove:
		text = tr(lang, "control.permove", duration(lang, tc.PerMove))
	default:
		return tr(lang, "control.none")
	}
	if tc.ICCF {
		text = tr(lang, "control.iccf", text)
	}
	return text
}
