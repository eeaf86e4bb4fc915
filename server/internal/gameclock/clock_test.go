package gameclock

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// The clock's words for durations, remaining times and leave days, in
// each reply language (docs/commands.md, "Replies in German"); the clocks
// in the mails themselves are package server's tests, which run the
// assembled referee.

// TestClockDurationNeverNegative: a clock setting's duration below zero
// is written as zero (catalog.Duration's own table is TestDurationText in
// internal/catalog).
func TestClockDurationNeverNegative(t *testing.T) {
	if got := clockDuration(referee.German, -time.Hour); got != "0 Tage" {
		t.Errorf("clockDuration(de, -1h) = %q, want 0 Tage", got)
	}
}

// TestRemainingTextGerman: the remaining times of TestRemainingText in
// German words, to the second where the English ones are, rounded down
// alike.
func TestRemainingTextGerman(t *testing.T) {
	const d, h, m, s = notation.Day, time.Hour, time.Minute, time.Second
	for _, tt := range []struct {
		control string
		left    time.Duration
		want    string
	}{
		{"8m+0d", 8 * m, "8 Minuten"},
		{"8m+0d", 7*m + 30*s, "7 Minuten 30 Sekunden"},
		{"8m+0d", 1*m + 1*s, "1 Minute 1 Sekunde"},
		{"8m+0d", 59 * s, "59 Sekunden"},
		{"8m+0d", s + 900*time.Millisecond, "1 Sekunde"},
		{"8m+0d", 0, "0 Sekunden"},
		{"8m+0d", -3 * s, "0 Sekunden"},
		{"1d+10m", 1*d + 3*h + 7*m + 2*s, "1 Tag 3 Stunden 7 Minuten 2 Sekunden"},
		{"1h+0d", h, "1 Stunde"},
		{"12h+1h", 11*h + 59*m + 59*s, "11 Stunden 59 Minuten"},
		{"30d+1d", 30 * d, "30 Tage"},
		{"30d+1d", 29*d + 23*h + 59*m + 59*s, "29 Tage 23 Stunden 59 Minuten"},
		{"30d+1d", d + 30*s, "1 Tag"},
		{"30d+1d", 59*m + 59*s, "59 Minuten 59 Sekunden"},
	} {
		tc, err := notation.ParseTimeControl("test", tt.control)
		if err != nil {
			t.Fatal(err)
		}
		if got := remainingText(referee.German, tc, tt.left); got != tt.want {
			t.Errorf("remainingText(de, %s, %v) = %q, want %q", tt.control, tt.left, got, tt.want)
		}
	}
}

// TestLeaveDateFormsGerman: each German example of the leave date forms
// names the days its English example names, in German month names.
func TestLeaveDateFormsGerman(t *testing.T) {
	for en, de := range germanDates {
		we, err := grammar.ParseLeaveDates("en", en)
		if err != nil {
			t.Fatalf("English example %q: %v", en, err)
		}
		wd, err := grammar.ParseLeaveDates("de", de)
		if err != nil {
			t.Errorf("German example %q does not parse: %v", de, err)
			continue
		}
		same := func(a, b *grammar.LeaveDay) bool {
			return a == nil && b == nil || a != nil && b != nil && a.Year == b.Year && a.Month == b.Month && a.Day == b.Day
		}
		if !same(we.First, wd.First) || !same(we.Last, wd.Last) {
			t.Errorf("German example %q names other days than %q", de, en)
		}
		if englishWords.MatchString(de) {
			t.Errorf("German example %q has an English month name", de)
		}
	}
	forms := leaveDateForms(referee.German)
	for en := range germanDates {
		if strings.Contains(forms, en) {
			t.Errorf("the German date forms show the English example %q:\n%s", en, forms)
		}
	}
}

// TestRemainingText: a remaining time as the mails write it (issue 22
// §3), over controls and remainders: to the second when under an hour is
// left or the control is in minutes, else in days, hours and minutes;
// rounded down to the unit shown, never below zero.
func TestRemainingText(t *testing.T) {
	const s, m, h, d = time.Second, time.Minute, time.Hour, notation.Day
	for _, tt := range []struct {
		control string
		left    time.Duration
		want    string
	}{
		// an 8-minute game: fresh, after a move, below the 2m reminder,
		// the time-out mail, late
		{"8m+0d", 8 * m, "8min"},
		{"8m+0d", 7*m + 59*s + 900*time.Millisecond, "7min59s"},
		{"8m+0d", 7*m + 30*s, "7min30s"},
		{"8m+0d", 2*m - s, "1min59s"},
		{"8m+0d", 59 * s, "59s"},
		{"8m+0d", 0, "0s"},
		{"8m+0d", -3 * s, "0s"},
		// minutes in the control: seconds also above an hour
		{"90m+0d", 1*h + 20*m + 5*s, "1h20min5s"},
		{"1h+30m", 2*h + 15*m, "2h15min"},
		{"5m/move", 5 * m, "5min"},
		{"1d+10m", 1*d + 3*h + 7*m + 2*s, "1d3h7min2s"},
		// hours and days: minutes from an hour up, seconds below
		{"1h+0d", h, "1h"},
		{"1h+0d", 59*m + 30*s, "59min30s"},
		{"12h+1h", 11*h + 59*m + 59*s, "11h59min"},
		{"30d+1d", 30 * d, "30d"},
		{"30d+1d", 29*d + 23*h + 59*m + 59*s, "29d23h59min"},
		{"30d+1d", 12*d + 4*h + 33*m + 17*s, "12d4h33min"},
		{"30d+1d", h + 30*s, "1h"},
		{"30d+1d", 59*m + 59*s, "59min59s"},
		{"30d+1d", 0, "0s"},
		{"3d/move iccf", 2 * d, "2d"},
		{"10d+2d max 20d", 20 * d, "20d"},
	} {
		tc, err := notation.ParseTimeControl("test", tt.control)
		if err != nil {
			t.Fatal(err)
		}
		if got := remainingText(referee.English, tc, tt.left); got != tt.want {
			t.Errorf("remainingText(%s, %v) = %q, want %q", tt.control, tt.left, got, tt.want)
		}
	}
}

// englishWords matches English month names that German writes otherwise
// (not "Jan", "Aug", "Nov": German abbreviates them so), English weekday
// names, and the units of the time-control notation after a number
// ("29d", "23h", "5m", "0s"), as package server's test of German mails
// does.
var englishWords = regexp.MustCompile(`\b(Mar|May|Oct|Dec|January|February|March|June|July|October|December)\b|` +
	`\b(Mon|Tues?|Wed(nes)?|Thu(rs)?|Fri|Sat(ur)?|Sun)(day)?\b|\b[0-9]+[dhms]\b`)

// TestClockOf: the clock's accessor makes its state in the clock
// module's slot on first use (Uses sees it), returns the same one after,
// and sessions share none (package server's TestModuleStateOf holds the
// slots of the modules together).
func TestClockOf(t *testing.T) {
	a, b := &referee.Session{}, &referee.Session{}
	if a.Uses(Module{}) {
		t.Fatal("a new session uses the clock module")
	}
	c := clockOf(a)
	if !a.Uses(Module{}) || clockOf(a) != c {
		t.Error("clockOf made a state that Uses does not see or the next call does not return")
	}
	c.leaves = map[string][]notation.Leave{"alice@example.org": nil}
	if b.Uses(Module{}) || len(clockOf(b).leaves) != 0 {
		t.Error("two sessions share the clock's state")
	}
}
