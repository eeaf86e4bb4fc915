package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/server/internal/zones"
)

// TestDigestBerlinTime: bob in Berlin writes "notify digest 07:30
// Europe/Berlin" on Friday 26 March 2027. The answer, "notify" alone and
// the digest name the zone; the digest comes at 07:30 in Berlin: 06:30
// UTC on Saturday (CET, winter time), 05:30 UTC on Sunday, the day the
// clocks go forward, and on Monday (CEST, summer time), once a day.
func TestDigestBerlinTime(t *testing.T) {
	h := newHarness(t)
	h.now = time.Date(2027, 3, 26, 10, 0, 0, 0, time.UTC)
	id := startBrandubh(t, h)
	sent := h.deliver(bob, "settings", "notify digest 07:30 Europe/Berlin", nil)
	mustContain(t, "the answer to notify digest", to(t, sent, bob).Text,
		referee.Tr(referee.English, "notify.digest", "07:30 Europe/Berlin time", "2027-03-27 07:30:00 Europe/Berlin",
			referee.Tr(referee.English, "notify.zone.local", "Europe/Berlin")))
	if p := h.player(bob); !p.Digest || p.DigestAt != 450 || p.DigestZone != "Europe/Berlin" ||
		!p.DigestDue.Equal(time.Date(2027, 3, 27, 6, 30, 0, 0, time.UTC)) {
		t.Fatalf("bob's row = %+v", p)
	}
	mustContain(t, "notify alone", to(t, h.deliver(bob, "x", "notify", nil), bob).Text,
		referee.Tr(referee.English, "notify.show.digest", "07:30 Europe/Berlin time", "2027-03-27 07:30:00 Europe/Berlin"))
	h.play(id, "d1-e1") // bob's move from now on

	for _, day := range []struct {
		what string
		at   time.Time // 07:30 in Berlin, in UTC
	}{
		{"Saturday, winter time", time.Date(2027, 3, 27, 6, 30, 0, 0, time.UTC)},
		{"Sunday, the clocks go forward", time.Date(2027, 3, 28, 5, 30, 0, 0, time.UTC)},
		{"Monday, summer time", time.Date(2027, 3, 29, 5, 30, 0, 0, time.UTC)},
	} {
		h.now = day.at.Add(-time.Minute)
		if got := mailsTo(h.runTimers(nil), bob); len(got) != 0 {
			t.Fatalf("%s: a minute before %s UTC bob got:\n%s", day.what, day.at.Format("15:04"), subjects(got))
		}
		h.now = day.at
		got := mailsTo(h.runTimers(nil), bob)
		if len(got) != 1 || got[0].msg.Subject != referee.Tr(referee.English, "digest.subject.one") {
			t.Fatalf("%s: at %s UTC bob got:\n%s", day.what, day.at.Format("15:04"), subjects(got))
		}
		mustContain(t, day.what+" digest", got[0].msg.Text, referee.Tr(referee.English, "digest.intro", "07:30 Europe/Berlin time"), "Game "+id)
		h.now = day.at.Add(2 * time.Hour)
		if more := mailsTo(h.runTimers(nil), bob); len(more) != 0 {
			t.Errorf("%s: a second digest the same day:\n%s", day.what, subjects(more))
		}
	}
	if p := h.player(bob); !p.DigestDue.Equal(time.Date(2027, 3, 30, 5, 30, 0, 0, time.UTC)) {
		t.Errorf("after Monday's digest the next is due %v, want Tuesday 05:30 UTC", p.DigestDue)
	}

	// the same time without a zone is UTC again, due at 07:30 UTC
	sent = h.deliver(bob, "x", "notify digest 07:30", nil)
	mustContain(t, "notify digest without a zone", to(t, sent, bob).Text,
		referee.Tr(referee.English, "notify.digest", "07:30 UTC", "2027-03-30 07:30:00 UTC", referee.Tr(referee.English, "notify.zone.utc")))
	if p := h.player(bob); p.DigestZone != "" || !p.DigestDue.Equal(time.Date(2027, 3, 30, 7, 30, 0, 0, time.UTC)) {
		t.Errorf("after notify digest 07:30 bob's row = %+v", p)
	}
}

// TestDigestGermanZone: "benachrichtigung täglich um 7:30 uhr
// Europe/Berlin" is answered in German, naming the zone.
func TestDigestGermanZone(t *testing.T) {
	h := newHarness(t)
	startGame(t, h, "brandubh", referee.German)
	sent := h.deliver(bob, "x", "benachrichtigung täglich um 7:30 uhr Europe/Berlin", nil)
	mustContain(t, "benachrichtigung täglich", to(t, sent, bob).Text,
		referee.Tr(referee.German, "notify.digest", "07:30 Uhr (Zeitzone Europe/Berlin)", "30.11.2026 um 07:30:00 Europe/Berlin",
			referee.Tr(referee.German, "notify.zone.local", "Europe/Berlin")))
	if p := h.player(bob); p.DigestZone != "Europe/Berlin" || !p.DigestDue.Equal(time.Date(2026, 11, 30, 6, 30, 0, 0, time.UTC)) {
		t.Errorf("bob's row = %+v", p)
	}
}

// TestDigestUnknownZone: a zone that is none is refused in the sender's
// language, quoting it, with an example (the place's zone when the name
// is a place without its area), and changes nothing.
func TestDigestUnknownZone(t *testing.T) {
	h := newHarness(t)
	for _, tt := range []struct{ line, want string }{
		{"notify digest 07:00 Mars/Olympus", referee.Tr(referee.English, "notify.zone.unknown", "Mars/Olympus", "07:00")},
		{"notify daily at 6:45 Berlin", referee.Tr(referee.English, "notify.zone.suggest", "Berlin", "06:45", "Europe/Berlin")},
		{"benachrichtigung täglich 07:00 Mars/Olympus", referee.Tr(referee.German, "notify.zone.unknown", "Mars/Olympus", "07:00")},
		{"notify digest 07:00 Local", referee.Tr(referee.English, "notify.zone.unknown", "Local", "07:00")},
		{"notify digest 07:30 EST", referee.Tr(referee.English, "notify.zone.abbrev", "EST", "07:30", "America/New_York", "EST", "America/New_York, America/Toronto, America/Detroit")},
		{"notify digest 07:30 GMT", referee.Tr(referee.English, "notify.zone.abbrev", "GMT", "07:30", "Europe/London", "GMT", "Europe/London, Europe/Dublin, Africa/Accra")},
		{"notify digest 07:30 Etc/GMT-1", referee.Tr(referee.English, "notify.zone.fixed", "Etc/GMT-1", "07:30")},
		// issue 22 §7: CET is Berlin's and Paris's time, not New York's;
		// CEST, MEZ and PDT are no zones at all, but known abbreviations
		{"benachrichtigung täglich 07:30 CET", referee.Tr(referee.German, "notify.zone.abbrev", "CET", "07:30", "Europe/Berlin", "CET", strings.Join(zones.Abbreviation("CET"), ", "))},
		{"notify digest 07:30 CET", referee.Tr(referee.English, "notify.zone.abbrev", "CET", "07:30", "Europe/Berlin", "CET", strings.Join(zones.Abbreviation("CET"), ", "))},
		{"notify digest 08:00 cest", referee.Tr(referee.English, "notify.zone.abbrev", "cest", "08:00", "Europe/Berlin", "CEST", strings.Join(zones.Abbreviation("CET"), ", "))},
		{"benachrichtigung täglich 07:30 MEZ", referee.Tr(referee.German, "notify.zone.abbrev", "MEZ", "07:30", "Europe/Berlin", "MEZ", strings.Join(zones.Abbreviation("CET"), ", "))},
		{"notify digest 07:30 PDT", referee.Tr(referee.English, "notify.zone.abbrev", "PDT", "07:30", "America/Los_Angeles", "PDT", "America/Los_Angeles, America/Vancouver, America/Tijuana")},
	} {
		got := to(t, h.deliver(alice, "x", tt.line, nil), alice).Text
		mustContain(t, tt.line, got, tt.want)
		if !strings.Contains(got, `"`+strings.Fields(tt.line)[len(strings.Fields(tt.line))-1]+`"`) {
			t.Errorf("%s: the refusal does not quote the zone:\n%s", tt.line, got)
		}
	}
	if p, err := h.store.Player(context.Background(), alice); err == nil && p.Digest {
		t.Errorf("a refused zone set alice's digest: %+v", p)
	}
	if got := to(t, h.deliver(alice, "x", "notify digest 07:30 CET", nil), alice).Text; strings.Contains(got, "America/New_York") {
		t.Errorf("the CET refusal suggests New York:\n%s", got)
	}
}
