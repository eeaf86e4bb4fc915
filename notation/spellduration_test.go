package notation

import (
	"fmt"
	"testing"
	"time"
)

// TestSpellDuration: the parts, largest first and down to the smallest
// unit asked for, in the caller's words; zero (below the smallest unit,
// or negative) 0 days, or 0 seconds to the second.
func TestSpellDuration(t *testing.T) {
	names := map[time.Duration]string{Day: "D", time.Hour: "H", time.Minute: "M", time.Second: "S"}
	part := func(unit time.Duration, n int) string { return fmt.Sprintf("%d %s", n, names[unit]) }
	join := func(text, p string) string { return text + ", " + p }
	for _, c := range []struct {
		d, smallest time.Duration
		want        string
	}{
		{29*Day + 23*time.Hour + 59*time.Minute + 30*time.Second, time.Minute, "29 D, 23 H, 59 M"},
		{29*Day + 23*time.Hour + 59*time.Minute + 30*time.Second, time.Second, "29 D, 23 H, 59 M, 30 S"},
		{Day + 5*time.Second, time.Second, "1 D, 5 S"},
		{Day + 5*time.Second, time.Minute, "1 D"},
		{90 * time.Minute, time.Minute, "1 H, 30 M"},
		{59 * time.Second, time.Minute, "0 D"},
		{59 * time.Second, time.Second, "59 S"},
		{0, time.Second, "0 S"},
		{0, time.Minute, "0 D"},
		{-5 * time.Minute, time.Minute, "0 D"},
		{-5 * time.Second, time.Second, "0 S"},
	} {
		if got := SpellDuration(c.d, c.smallest, part, join); got != c.want {
			t.Errorf("SpellDuration(%v, %v) = %q, want %q", c.d, c.smallest, got, c.want)
		}
	}
}
