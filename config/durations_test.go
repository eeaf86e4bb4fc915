package config_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/config"
)

func TestParseDurations(t *testing.T) {
	const day = 24 * time.Hour
	for in, want := range map[string][]time.Duration{
		"7d, 2d, 12h": {7 * day, 2 * day, 12 * time.Hour},
		"1D12H 90m":   {day + 12*time.Hour, 90 * time.Minute},
		"":            {},
		" , ":         {},
		"7d,14d,21d":  {7 * day, 14 * day, 21 * day},
		"2d12h30m":    {2*day + 12*time.Hour + 30*time.Minute},
	} {
		got, err := config.ParseDurations(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseDurations(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for in, msg := range map[string]string{
		"7 days": `"7" is not a duration`, "12h7d": `"12h7d" is not a duration`, "0d": `"0d" must be more than zero`,
		"7s": `"7s" is not a duration`, "-1d": `"-1d" is not a duration`,
	} {
		if _, err := config.ParseDurations(in); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("ParseDurations(%q) = %v, want an error saying %s", in, err, msg)
		}
	}
}

// TestValidateClock: the clock keys are checked, each problem naming its
// key.
func TestValidateClock(t *testing.T) {
	c := config.Default()
	c.IMAP.Addr, c.IMAP.Username, c.IMAP.Password = "imap.example.org:993", "u", "p"
	c.SMTP.Addr = "smtp.example.org:465"
	c.Server.Address, c.Server.Domain = "games@example.org", "example.org"
	if err := c.Validate(); err != nil {
		t.Fatalf("valid configuration: %v", err)
	}
	c.Clock.LeaveDays, c.Clock.Reminders, c.Clock.UntimedReminders, c.Clock.ArrivalGrace = -1, "7 days", "0d", 2*time.Hour
	err := c.Validate()
	for _, key := range []string{"clock.leave_days", "clock.reminders", "clock.untimed_reminders", "clock.arrival_grace"} {
		found := false
		for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
			var ke *config.KeyError
			found = found || errors.As(e, &ke) && ke.Key == key
		}
		if !found {
			t.Errorf("Validate = %v; no problem with %s", err, key)
		}
	}
}

// TestValidateEngine: the engine keys are checked, each problem naming
// its key; the defaults pass.
func TestValidateEngine(t *testing.T) {
	c := config.Default()
	c.IMAP.Addr, c.IMAP.Username, c.IMAP.Password = "imap.example.org:993", "u", "p"
	c.SMTP.Addr = "smtp.example.org:465"
	c.Server.Address, c.Server.Domain = "games@example.org", "example.org"
	if err := c.Validate(); err != nil {
		t.Fatalf("valid configuration: %v", err)
	}
	c.Engine.Think, c.Engine.Searches, c.Engine.TableMiB, c.Engine.GamesPerPlayer = time.Hour, 0, 8192, -1
	err := c.Validate()
	for _, key := range []string{"engine.think", "engine.searches", "engine.table_mib", "engine.games_per_player"} {
		found := false
		for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
			var ke *config.KeyError
			found = found || errors.As(e, &ke) && ke.Key == key
		}
		if !found {
			t.Errorf("Validate = %v; no problem with %s", err, key)
		}
	}
}

// TestParseExpiry: server.invitation_expiry is whole days from 1 to 999,
// or "never" (negative); anything else is refused by Validate under its
// key.
func TestParseExpiry(t *testing.T) {
	for s, want := range map[string]time.Duration{"14d": 14 * 24 * time.Hour, " 1D ": 24 * time.Hour, "999d": 999 * 24 * time.Hour, "never": -1, "NEVER": -1} {
		if got, err := config.ParseExpiry(s); err != nil || got != want {
			t.Errorf("ParseExpiry(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "0d", "36h", "1d12h", "14 days", "1000d", "7d, 2d", "-1d", "forever"} {
		if got, err := config.ParseExpiry(s); err == nil {
			t.Errorf("ParseExpiry(%q) = %v, want an error", s, got)
		}
		c := config.Default()
		c.IMAP.Addr, c.IMAP.Username, c.IMAP.Password = "imap.example.org:993", "u", "p"
		c.SMTP.Addr = "smtp.example.org:465"
		c.Server.Address, c.Server.Domain = "games@example.org", "example.org"
		c.Server.InvitationExpiry = s
		var ke *config.KeyError
		if err := c.Validate(); !errors.As(err, &ke) || ke.Key != "server.invitation_expiry" {
			t.Errorf("Validate with invitation_expiry %q = %v, want a problem with server.invitation_expiry", s, err)
		}
	}
}
