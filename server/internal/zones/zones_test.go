package zones

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The daily digest in the player's time zone (zones.go): when
// Next puts the next digest around the days the clocks change.
//
// Each table below is a diagram of the days around one change and rows
// "now (UTC) | time of day | next digest (UTC) | next digest there". A
// digest that went out is next due from the instant it was due (decideDigest
// passes the run's time, at or after it).

// Europe/Berlin, spring 2027: on Sunday 28 March the clocks go from 02:00
// CET (UTC+1) to 03:00 CEST (UTC+2) at 01:00 UTC. 02:00–02:59 are
// skipped: a digest at 02:30 comes when the clocks jump over it, 03:00.
//
//	there  Sat 27 07:30 CET │ Sun 28 01:59 CET ╳ 03:00 CEST   07:30 CEST │ Mon 29 07:30 CEST
//	UTC    Sat 27 06:30     │ Sun 28 00:59       01:00        05:30      │ Mon 29 05:30
//	                                      the jump ┘
const berlinSpring = `
2027-03-27 05:00 | 07:30 | 2027-03-27 06:30 | 2027-03-27 07:30 CET
2027-03-27 06:30 | 07:30 | 2027-03-28 05:30 | 2027-03-28 07:30 CEST
2027-03-28 05:30 | 07:30 | 2027-03-29 05:30 | 2027-03-29 07:30 CEST
2027-03-27 01:30 | 02:30 | 2027-03-28 01:00 | 2027-03-28 03:00 CEST
2027-03-28 01:00 | 02:30 | 2027-03-29 00:30 | 2027-03-29 02:30 CEST
2027-03-27 12:00 | 01:59 | 2027-03-28 00:59 | 2027-03-28 01:59 CET
2027-03-27 12:00 | 03:00 | 2027-03-28 01:00 | 2027-03-28 03:00 CEST
`

// Europe/Berlin, autumn 2027: on Sunday 31 October the clocks go back
// from 03:00 CEST (UTC+2) to 02:00 CET (UTC+1) at 01:00 UTC. 02:00–02:59
// come twice: a digest at 02:30 comes at the first, once; a daemon that
// sends it late, between the two, does not send it again at the second.
//
//	there  Sat 30 07:30 CEST │ Sun 31 02:30 CEST  02:59 CEST ⟲ 02:00 CET  02:30 CET  07:30 CET │ Mon 1 02:30 CET
//	UTC    Sat 30 05:30      │ Sun 31 00:30       00:59          01:00      01:30      06:30     │ Mon 1 01:30
const berlinAutumn = `
2027-10-30 05:30 | 07:30 | 2027-10-31 06:30 | 2027-10-31 07:30 CET
2027-10-30 12:00 | 02:30 | 2027-10-31 00:30 | 2027-10-31 02:30 CEST
2027-10-31 00:30 | 02:30 | 2027-11-01 01:30 | 2027-11-01 02:30 CET
2027-10-31 01:10 | 02:30 | 2027-11-01 01:30 | 2027-11-01 02:30 CET
2027-10-30 23:00 | 02:00 | 2027-10-31 00:00 | 2027-10-31 02:00 CEST
2027-10-31 00:00 | 03:00 | 2027-10-31 02:00 | 2027-10-31 03:00 CET
`

// Pacific/Auckland, autumn 2027 (the southern autumn, April): on Sunday
// 4 April the clocks go back from 03:00 NZDT (UTC+13) to 02:00 NZST
// (UTC+12) at 14:00 UTC on Saturday 3 April; 02:00–02:59 come twice.
//
//	there  Sat 3 07:30 NZDT │ Sun 4 02:30 NZDT  02:59 NZDT ⟲ 02:00 NZST  02:30 NZST  07:30 NZST │ Mon 5 02:30 NZST
//	UTC    Fri 2 18:30      │ Sat 3 13:30       13:59          14:00       14:30       19:30      │ Sun 4 14:30
const aucklandAutumn = `
2027-04-02 18:00 | 07:30 | 2027-04-02 18:30 | 2027-04-03 07:30 NZDT
2027-04-02 18:30 | 07:30 | 2027-04-03 19:30 | 2027-04-04 07:30 NZST
2027-04-03 12:00 | 02:30 | 2027-04-03 13:30 | 2027-04-04 02:30 NZDT
2027-04-03 13:30 | 02:30 | 2027-04-04 14:30 | 2027-04-05 02:30 NZST
2027-04-03 14:20 | 02:30 | 2027-04-04 14:30 | 2027-04-05 02:30 NZST
`

// Pacific/Auckland, spring 2027 (September): on Sunday 26 September the
// clocks go from 02:00 NZST (UTC+12) to 03:00 NZDT (UTC+13) at 14:00 UTC
// on Saturday 25 September; 02:00–02:59 are skipped.
//
//	there  Sat 25 07:30 NZST │ Sun 26 01:59 NZST ╳ 03:00 NZDT  07:30 NZDT │ Mon 27 02:30 NZDT
//	UTC    Fri 24 19:30      │ Sat 25 13:59       14:00        18:30      │ Sun 26 13:30
const aucklandSpring = `
2027-09-24 19:30 | 07:30 | 2027-09-25 18:30 | 2027-09-26 07:30 NZDT
2027-09-25 12:00 | 02:30 | 2027-09-25 14:00 | 2027-09-26 03:00 NZDT
2027-09-25 14:00 | 02:30 | 2027-09-26 13:30 | 2027-09-27 02:30 NZDT
2027-09-25 11:00 | 00:00 | 2027-09-25 12:00 | 2027-09-26 00:00 NZST
`

// UTC knows no change: a day is 24 hours, and a digest due now is next
// due tomorrow.
const utcDays = `
2026-11-29 10:00 | 07:30 | 2026-11-30 07:30 | 2026-11-30 07:30 UTC
2026-11-30 07:30 | 07:30 | 2026-12-01 07:30 | 2026-12-01 07:30 UTC
2026-11-30 07:29 | 07:30 | 2026-11-30 07:30 | 2026-11-30 07:30 UTC
2027-03-28 00:00 | 23:59 | 2027-03-28 23:59 | 2027-03-28 23:59 UTC
`

func TestNextDigestAcrossClockChanges(t *testing.T) {
	for _, table := range []struct{ zone, name, rows string }{
		{"Europe/Berlin", "spring", berlinSpring},
		{"Europe/Berlin", "autumn", berlinAutumn},
		{"Pacific/Auckland", "autumn", aucklandAutumn},
		{"Pacific/Auckland", "spring", aucklandSpring},
		{"UTC", "days", utcDays},
	} {
		loc, err := time.LoadLocation(table.zone)
		if err != nil {
			t.Fatalf("%s: %v", table.zone, err)
		}
		for i, row := range strings.Split(strings.TrimSpace(table.rows), "\n") {
			f := strings.Split(row, "|")
			if len(f) != 4 {
				t.Fatalf("%s %s row %d: %q has %d fields, want 4", table.zone, table.name, i+1, row, len(f))
			}
			now := utcMinute(t, f[0])
			at := minuteOfDay(t, f[1])
			want := utcMinute(t, f[2])
			got := Next(at, loc, now)
			if !got.Equal(want) {
				t.Errorf("%s %s: Next(%s, %s) = %s UTC, want %s UTC", table.zone, table.name,
					hhmm(at), now.Format("2006-01-02 15:04"), got.UTC().Format("2006-01-02 15:04"), want.Format("2006-01-02 15:04"))
			}
			if there := got.In(loc).Format("2006-01-02 15:04 MST"); there != strings.TrimSpace(f[3]) {
				t.Errorf("%s %s: Next(%s, %s) shows %s there, want %s", table.zone, table.name,
					hhmm(at), now.Format("2006-01-02 15:04"), there, strings.TrimSpace(f[3]))
			}
		}
	}
}

// utcMinute reads "YYYY-MM-DD HH:MM" as UTC.
func utcMinute(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse("2006-01-02 15:04", strings.TrimSpace(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// minuteOfDay reads "HH:MM" as minutes after midnight.
func minuteOfDay(t *testing.T, s string) int {
	t.Helper()
	h, m, ok := strings.Cut(strings.TrimSpace(s), ":")
	hi, err1 := strconv.Atoi(h)
	mi, err2 := strconv.Atoi(m)
	if !ok || err1 != nil || err2 != nil {
		t.Fatalf("time of day %q", s)
	}
	return hi*60 + mi
}

// TestNextDigestYear follows a digest chain through 2027 for every
// quarter hour of the day in zones with summer time (a 30-minute change
// in Australia/Lord_Howe, changes at midnight in America/Havana): each
// digest falls on the local day after the one before, shows its time of
// day there or, where the clocks skip it, is the instant they jump over
// it; no earlier instant of that day shows it (the first of two in
// autumn); and a run up to 90 minutes late finds the same next digest
// (once, even in the hour that repeats).
func TestNextDigestYear(t *testing.T) {
	for _, zone := range []string{"Europe/Berlin", "Pacific/Auckland", "America/New_York", "Australia/Lord_Howe", "America/Havana"} {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Fatalf("%s: %v", zone, err)
		}
		for at := 0; at < 24*60; at += 15 {
			prev := Next(at, loc, time.Date(2026, 12, 31, 12, 0, 0, 0, time.UTC))
			for prev.Year() < 2028 {
				next := Next(at, loc, prev)
				py, pm, pd := prev.In(loc).Date()
				if ny, nm, nd := next.In(loc).Date(); time.Date(py, pm, pd+1, 0, 0, 0, 0, time.UTC) != time.Date(ny, nm, nd, 0, 0, 0, 0, time.UTC) {
					t.Fatalf("%s %s: after %s the next digest is %s, not on the next day", zone, hhmm(at), prev.In(loc), next.In(loc))
				}
				ny, nm, nd := next.In(loc).Date()
				want := time.Date(ny, nm, nd, at/60, at%60, 0, 0, time.UTC)
				switch face := clockFace(next); {
				case face.Equal(want):
					for _, d := range []time.Duration{30 * time.Minute, time.Hour} {
						if clockFace(next.Add(-d)).Equal(want) {
							t.Fatalf("%s %s: the digest at %s; the clocks showed its time %v earlier", zone, hhmm(at), next.In(loc), d)
						}
					}
				case face.Before(want) || !clockFace(next.Add(-time.Second)).Before(want):
					t.Fatalf("%s %s: the digest at %s is neither its time nor the jump over it", zone, hhmm(at), next.In(loc))
				}
				if late := Next(at, loc, prev.Add(90*time.Minute)); !late.Equal(next) {
					t.Fatalf("%s %s: a run 90 minutes after %s finds %s, not %s", zone, hhmm(at), prev.In(loc), late.In(loc), next.In(loc))
				}
				prev = next
			}
		}
	}
}

// TestFindZone: the names a player may write after "notify digest HH:MM".
func TestFindZone(t *testing.T) {
	for _, tt := range []struct {
		text, stored string
		ok           bool
	}{
		{"Europe/Berlin", "Europe/Berlin", true},
		{"America/New_York", "America/New_York", true},
		{"america/new_york", "America/New_York", true},
		{"EUROPE/BERLIN", "Europe/Berlin", true},
		{"Etc/GMT-5", "Etc/GMT-5", true}, // found, then refused by Fixed
		{"Europe/Berlin.", "Europe/Berlin", true},
		{"europe/london,", "Europe/London", true},
		{"UTC", "", true},
		{"utc", "", true},
		{"Mars/Olympus", "", false},
		{"Berlin", "", false},
		{"Local", "", false},
		{"local", "", false},
		{"../../etc/passwd", "", false},
		{"Europe/../Berlin", "", false},
		{"/usr/share/zoneinfo/UTC", "", false},
		{"Europe/Berlin\x00", "", false},
		{strings.Repeat("A", maxName+1), "", false},
	} {
		loc, stored, ok := Find(tt.text)
		if ok != tt.ok || stored != tt.stored || ok != (loc != nil) {
			t.Errorf("Find(%q) = %v, %q, %v; want %q, %v", tt.text, loc, stored, ok, tt.stored, tt.ok)
		}
	}
	for text, want := range map[string]string{
		"Berlin": "Europe/Berlin", "auckland": "Pacific/Auckland", "new_york": "America/New_York",
		"Mars/Olympus": "", "Olympus": "", "Berln": "", "Europe/Berln": "",
		"New York": "America/New_York", "los  angeles": "America/Los_Angeles", "Berlin please": "", // a city in words (outside trial §9)
	} {
		if got := Suggest(text); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", text, got, want)
		}
	}
	for name, want := range map[string]bool{"EST": true, "GMT": true, "CET": true, "Etc/GMT-1": true, "etc/utc": true,
		"Europe/Berlin": false, "America/Argentina/Buenos_Aires": false, "": false} {
		if got := Fixed(name); got != want {
			t.Errorf("Fixed(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestZoneAbbreviations: every zone offered for an abbreviation is a
// place's zone that loads (no abbreviation or fixed offset in turn, so
// that the command the refusal shows is accepted), and the common
// abbreviations of issue 22 §7 are there with the places expected first.
func TestZoneAbbreviations(t *testing.T) {
	for abbr, zones := range abbreviations {
		if abbr != strings.ToUpper(abbr) || len(zones) == 0 {
			t.Errorf("abbreviations[%q] = %v", abbr, zones)
		}
		for _, z := range zones {
			if loc, stored, ok := Find(z); !ok || stored != z || Fixed(stored) || loc == nil {
				t.Errorf("%s offers %s, which Find gives as %v, %q, %v (fixed: %v)", abbr, z, loc, stored, ok, Fixed(stored))
			}
		}
	}
	for abbr, first := range map[string]string{
		"CET": "Europe/Berlin", "cest": "Europe/Berlin", "MEZ": "Europe/Berlin", "MESZ.": "Europe/Berlin",
		"EST": "America/New_York", "EDT": "America/New_York", "PST": "America/Los_Angeles", "PDT": "America/Los_Angeles",
		"GMT": "Europe/London", "BST": "Europe/London", "EET": "Europe/Athens", "WET": "Europe/Lisbon",
		"CST": "America/Chicago", "MST": "America/Denver", "JST": "Asia/Tokyo", "AEST": "Australia/Sydney",
	} {
		if z := Abbreviation(abbr); len(z) == 0 || z[0] != first {
			t.Errorf("Abbreviation(%q) = %v, want %s first", abbr, z, first)
		}
	}
	for _, z := range []string{"Europe/Paris", "Europe/Rome"} {
		if !slices.Contains(Abbreviation("CET"), z) {
			t.Errorf("CET does not offer %s", z)
		}
	}
	for _, none := range []string{"Berlin", "Europe/Berlin", "UTC", "XYZ", ""} {
		if z := Abbreviation(none); z != nil {
			t.Errorf("Abbreviation(%q) = %v, want none", none, z)
		}
	}
}

// hhmm writes minutes after midnight as HH:MM, for failure messages.
func hhmm(at int) string { return fmt.Sprintf("%02d:%02d", at/60, at%60) }
