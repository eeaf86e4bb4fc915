package config

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// durationRE is one duration as a time control writes it
// (CORRESPONDENCE.md §1): days, hours and minutes, each at most once, in
// that order, at least one: "7d", "12h", "1d12h", "90m".
var durationRE = regexp.MustCompile(`^(?:([0-9]{1,4})d)?(?:([0-9]{1,5})h)?(?:([0-9]{1,6})m)?$`)

// Never is the value of server.invitation_expiry that lets challenges
// wait for ever.
const Never = "never"

// MaxInvitationDays is the longest invitation expiry, in days.
const MaxInvitationDays = 999

// ParseExpiry reads server.invitation_expiry: whole days written "<n>d"
// ("14d"), 1 to MaxInvitationDays of them, or Never (any case), which it
// returns as -1 (server.Options.InvitationExpiry: negative lets
// invitations wait for ever). The error says what is wrong with s.
func ParseExpiry(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, Never) {
		return -1, nil
	}
	ds, err := ParseDurations(s)
	switch {
	case err != nil:
		return 0, err
	case len(ds) != 1:
		return 0, fmt.Errorf("%q is not one duration like 14d, nor %q", s, Never)
	case ds[0]%(24*time.Hour) != 0:
		return 0, fmt.Errorf("%q is not whole days: write it like 14d", s)
	case ds[0] > MaxInvitationDays*24*time.Hour:
		return 0, fmt.Errorf("%q is more than %d days", s, MaxInvitationDays)
	}
	return ds[0], nil
}

// ParseDurations reads a list of durations written as a time control
// writes them, "<n>d<n>h<n>m" ("7d", "12h", "1d12h"), separated by commas
// or blanks (clock.reminders: "7d, 2d, 12h"); case does not matter. An
// empty list is no durations (not an error). Each duration must be more
// than zero; the error names the first one that is not a duration.
func ParseDurations(s string) ([]time.Duration, error) {
	out := []time.Duration{}
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		m := durationRE.FindStringSubmatch(f)
		if m == nil || f == "" {
			return nil, fmt.Errorf("%q is not a duration like 7d, 12h or 1d12h", f)
		}
		var d time.Duration
		for i, unit := range []time.Duration{24 * time.Hour, time.Hour, time.Minute} {
			if m[i+1] != "" {
				n, _ := strconv.Atoi(m[i+1])
				d += time.Duration(n) * unit
			}
		}
		if d <= 0 {
			return nil, fmt.Errorf("%q must be more than zero", f)
		}
		out = append(out, d)
	}
	return out, nil
}
