package server

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/digest"
	"github.com/taflmail/taflmail/server/internal/gameclock"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// The words of durations and dates in each reply language
// (docs/commands.md, "Replies in German").

// TestDayAndStampText: days and instants in each language, in UTC
// whatever the zone of the time given; a German day is one the leave
// command reads back as the same day.
func TestDayAndStampText(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no zone data:", err)
	}
	at := time.Date(2027, 1, 5, 10, 4, 5, 0, berlin) // 09:04:05 UTC
	for _, tt := range []struct{ lang, day, stamp, last, zoned string }{
		{referee.English, "2027-01-05", "2027-01-05 09:04:05 UTC", "2027-01-05 09:04:04 UTC", "2027-01-05 10:04:05 Europe/Berlin"},
		{referee.German, "05.01.2027", "05.01.2027 um 09:04:05 UTC", "05.01.2027 um 09:04:04 UTC", "05.01.2027 um 10:04:05 Europe/Berlin"},
	} {
		if got := catalog.Day(tt.lang, at); got != tt.day {
			t.Errorf("catalog.Day(%s) = %q, want %q", tt.lang, got, tt.day)
		}
		if got := catalog.Instant(tt.lang, at); got != tt.stamp {
			t.Errorf("catalog.Instant(%s) = %q, want %q", tt.lang, got, tt.stamp)
		}
		if got := gameclock.LastInTime(tt.lang, at); got != tt.last {
			t.Errorf("lastInTime(%s) = %q, want %q", tt.lang, got, tt.last)
		}
		if got := digest.Stamp(tt.lang, at, berlin, "Europe/Berlin"); got != tt.zoned {
			t.Errorf("digest.Stamp(%s) = %q, want %q", tt.lang, got, tt.zoned)
		}
		if got := digest.Stamp(tt.lang, at, nil, ""); got != tt.stamp {
			t.Errorf("digest.Stamp(%s) in UTC = %q, want %q", tt.lang, got, tt.stamp)
		}
	}
	for _, day := range []time.Time{at, time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC), time.Date(2028, 2, 29, 23, 0, 0, 0, time.UTC)} {
		text := catalog.Day(referee.German, day)
		ld, err := grammar.ParseLeaveDates("test", text)
		if err != nil {
			t.Errorf("the leave command does not read the German day %q: %v", text, err)
			continue
		}
		y, mo, dd := day.UTC().Date()
		if f := ld.First; ld.Last != nil || f.Either || f.Year != y || f.Month != int(mo) || f.Day != dd {
			t.Errorf("the leave command reads %q as %+v, want %d-%d-%d", text, f, y, mo, dd)
		}
	}
}

// englishWords matches English month names that German writes otherwise
// (not "Jan", "Aug", "Nov": German abbreviates them so), English weekday
// names, and the units of
// the time-control notation after a number ("29d", "23h", "5m", "0s"): no
// German reply has one but in a time control's notation, which commands
// take back (germanWordsOnly strips those).
var englishWords = regexp.MustCompile(`\b(Mar|May|Oct|Dec|January|February|March|June|July|October|December)\b|` +
	`\b(Mon|Tues?|Wed(nes)?|Thu(rs)?|Fri|Sat(ur)?|Sun)(day)?\b|\b[0-9]+[dhms]\b`)

// isoDate matches a day written year first.
var isoDate = regexp.MustCompile(`\b[0-9]{4}-[0-9]{2}-[0-9]{2}\b`)

// germanWordsOnly fails when a German mail shows an English unit, month or
// weekday, or (noISO) a day written year first, outside the notation of
// the control and the game record (PGN tags and %ts comments, which are
// data, not words).
func germanWordsOnly(t *testing.T, what, text, control string, noISO bool) {
	t.Helper()
	var kept []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			continue // a PGN tag of the record
		}
		kept = append(kept, line)
	}
	words := strings.ReplaceAll(strings.Join(kept, "\n"), control, "")
	words = regexp.MustCompile(`\{\[%[^]]*\]\}`).ReplaceAllString(words, "")
	if bad := englishWords.FindAllString(words, -1); len(bad) > 0 {
		t.Errorf("%s has English units or names %q:\n%s", what, bad, text)
	}
	if bad := isoDate.FindAllString(words, -1); noISO && len(bad) > 0 {
		t.Errorf("%s has days written year first %q:\n%s", what, bad, text)
	}
}

// TestGermanPlayerReadsGermanTime: a German player's clock, leave,
// refused-date, reminder and time-out mails of a timed game show
// durations in German words and days and instants in German order, the
// control's notation aside.
func TestGermanPlayerReadsGermanTime(t *testing.T) {
	h := newHarness(t)
	h.deliver(bob, "x", "sprache de", nil)
	const control = "10d+1d"
	_, start := startTimed(t, h, control) // 2026-11-29; bob defends
	h.replyAt(start.Add(time.Hour), alice, openings[0])

	sent := h.replyAt(start.Add(2*time.Hour), bob, "uhr")
	m := to(t, sent, bob).Text
	mustContain(t, "clock", m, "jede Seite hat 10 Tage und nach jedem eigenen Zug 1 Tag mehr", "Verteidiger noch 9 Tage 23 Stunden",
		"Die Verteidiger müssen spätestens am 09.12.2026 um 12:00:")
	germanWordsOnly(t, "clock", m, control, true)

	sent = h.replyAt(start.Add(3*time.Hour), bob, "urlaub 24.12. bis 2.1.")
	m = to(t, sent, bob).Text
	mustContain(t, "leave", m, "Urlaub eingetragen: 24.12.2026 bis 02.01.2027 (10 Tage).")
	germanWordsOnly(t, "leave", m, control, true)
	mustContain(t, "alice's notice", to(t, sent, alice).Text, "2026-12-24 to 2027-01-02 (10 days)")

	sent = h.replyAt(start.Add(4*time.Hour), bob, "urlaub 24.12.2026 bitte")
	m = to(t, sent, bob).Text
	mustContain(t, "date forms", m, "24. Dez. 2026", "24. Dez. bis 2. Jan.")
	germanWordsOnly(t, "date forms", m, control, false) // the forms show 2026-12-24, a form to write

	sent = h.replyAt(start.Add(5*time.Hour), bob, "urlaub 12/11")
	m = to(t, sent, bob).Text
	mustContain(t, "ambiguous date", m, "12/11 kann 12.11.2027 oder 11.12.2026 heißen")
	germanWordsOnly(t, "ambiguous date", m, control, false) // "das Jahr zuerst (2027-11-12)"

	// the reminder below 7 days, then the time-out
	h.now = start.Add(time.Hour + 3*notation.Day + time.Second)
	sent = h.runTimers(nil)
	m = to(t, sent, bob).Text
	mustContain(t, "reminder", m, "kürzer als 7 Tage: noch 6 Tage 23 Stunden 59 Minuten.")
	germanWordsOnly(t, "reminder", m, control, true)
	h.now = start.Add(time.Hour + 10*notation.Day + time.Second + referee.DefaultArrivalGrace)
	sent = h.runTimers(nil)
	m = to(t, sent, bob).Text
	mustContain(t, "time-out", m, "Die Verteidiger haben die Zeit überschritten: ihr Zug musste mich spätestens am 09.12.2026 um 12:00:")
	germanWordsOnly(t, "time-out", m, control, true)
}
