package web

import (
	"testing"
	"time"

	"github.com/taflmail/taflmail/notation"
)

// TestDurationWords: the pages write a duration as the mails do, in
// English the notation's form and in German whole words with the
// number's form of each unit: singular and plural, zero, minutes only,
// seconds dropped, never below zero.
func TestDurationWords(t *testing.T) {
	const d, h, m = notation.Day, time.Hour, time.Minute
	for _, c := range []struct {
		in     time.Duration
		en, de string
	}{
		{0, "0d", "0 Tage"},
		{59 * time.Second, "0d", "0 Tage"},
		{-5 * m, "0d", "0 Tage"},
		{m, "1m", "1 Minute"},
		{45*m + 30*time.Second, "45m", "45 Minuten"},
		{h, "1h", "1 Stunde"},
		{2*h + m, "2h1m", "2 Stunden 1 Minute"},
		{d, "1d", "1 Tag"},
		{d + h + m, "1d1h1m", "1 Tag 1 Stunde 1 Minute"},
		{30 * d, "30d", "30 Tage"},
		{29*d + 23*h + 59*m, "29d23h59m", "29 Tage 23 Stunden 59 Minuten"},
		{2*d + 5*m, "2d5m", "2 Tage 5 Minuten"},
	} {
		if got := duration("en", c.in); got != c.en {
			t.Errorf("en %v: %q, want %q", c.in, got, c.en)
		}
		if got := duration("de", c.in); got != c.de {
			t.Errorf("de %v: %q, want %q", c.in, got, c.de)
		}
	}
	// English is the notation's form, which the pages showed before
	for _, x := range []time.Duration{0, m, 59 * m, h, 25 * h, 3*d + 7*m, 100*d + 23*h} {
		if got, want := duration("en", x), notation.FormatDuration(x); got != want {
			t.Errorf("en %v: %q, notation writes %q", x, got, want)
		}
	}
}

// TestDayWords: days and instants in UTC, ISO in English, DD.MM.YYYY
// (with "um" before the time) in German, as the German mails write them.
func TestDayWords(t *testing.T) {
	at := time.Date(2027, 1, 4, 11, 5, 59, 0, time.FixedZone("CET", 3600))
	for _, c := range []struct{ lang, day, when string }{
		{"en", "2027-01-04", "2027-01-04 10:05 UTC"},
		{"de", "04.01.2027", "04.01.2027 um 10:05 UTC"},
	} {
		p := &page{Lang: c.lang}
		if got := p.Day(at); got != c.day {
			t.Errorf("%s day: %q, want %q", c.lang, got, c.day)
		}
		if got := p.When(at); got != c.when {
			t.Errorf("%s instant: %q, want %q", c.lang, got, c.when)
		}
		if p.Day(time.Time{}) != "–" || p.When(time.Time{}) != "–" {
			t.Errorf("%s: no date is not a dash", c.lang)
		}
	}
}

// TestControlWords: English writes a time control back in its canonical
// notation; German says it in words.
func TestControlWords(t *testing.T) {
	for _, c := range []struct{ in, en, de string }{
		{"30d+1d", "30d+1d", "je Seite 30 Tage, nach jedem Zug 1 Tag dazu"},
		{"10d+12h", "10d+12h", "je Seite 10 Tage, nach jedem Zug 12 Stunden dazu"},
		{"5d/move", "5d/move", "5 Tage je Zug"},
		{"1d/move", "1d/move", "1 Tag je Zug"},
		{"30d+0d", "30d+0d", "je Seite 30 Tage, ohne Zuschlag"},
		{"1d12h+1d max 20d iccf", "1d12h+1d max 20d iccf", "je Seite 1 Tag 12 Stunden, nach jedem Zug 1 Tag dazu, höchstens 20 Tage, in ganzen Tagen gerechnet"},
		{"none", "none", "keine"},
		{"", "", ""},
		{"not a control", "not a control", "not a control"},
	} {
		if got := control("en", c.in); got != c.en {
			t.Errorf("en %q: %q, want %q", c.in, got, c.en)
		}
		if got := control("de", c.in); got != c.de {
			t.Errorf("de %q: %q, want %q", c.in, got, c.de)
		}
		if tc, err := notation.ParseTimeControl("", c.in); err == nil && control("en", c.in) != tc.String() {
			t.Errorf("en %q: %q is not the notation %q", c.in, control("en", c.in), tc.String())
		}
	}
}

// BenchmarkDuration: one clock time in each language's words, beside the
// notation's FormatDuration the pages used before.
func BenchmarkDuration(b *testing.B) {
	d := 29*notation.Day + 23*time.Hour + 59*time.Minute
	for _, lang := range Languages {
		b.Run(lang, func(b *testing.B) {
			for b.Loop() {
				duration(lang, d)
			}
		})
	}
	b.Run("notation", func(b *testing.B) {
		for b.Loop() {
			notation.FormatDuration(d)
		}
	})
}
