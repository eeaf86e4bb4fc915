package catalog

import (
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/notation"
)

// TestDurationText: durations of controls and reminders, to the minute.
// English writes them as the notation does but for minutes, "min" (not
// "m", which reads as months), German in words with the number's form of
// each unit; zero is 0 days, seconds are dropped.
func TestDurationText(t *testing.T) {
	const d, h, m = notation.Day, time.Hour, time.Minute
	for _, tt := range []struct {
		d      time.Duration
		en, de string
	}{
		{30 * d, "30d", "30 Tage"},
		{1 * d, "1d", "1 Tag"},
		{2 * d, "2d", "2 Tage"},
		{1 * h, "1h", "1 Stunde"},
		{12 * h, "12h", "12 Stunden"},
		{1 * m, "1min", "1 Minute"},
		{45 * m, "45min", "45 Minuten"},
		{d + 12*h, "1d12h", "1 Tag 12 Stunden"},
		{2*d + h + m, "2d1h1min", "2 Tage 1 Stunde 1 Minute"},
		{d + 5*m, "1d5min", "1 Tag 5 Minuten"},
		{90 * time.Second, "1min", "1 Minute"},
		{0, "0d", "0 Tage"},
	} {
		if got := Duration(English, tt.d); got != tt.en {
			t.Errorf("Duration(en, %v) = %q, want %q", tt.d, got, tt.en)
		}
		if got := notation.FormatDuration(tt.d); got != strings.Replace(tt.en, "min", "m", 1) {
			t.Errorf("English Duration(%v) = %q, but the notation writes %q: only minutes may differ", tt.d, tt.en, got)
		}
		if got := Duration(German, tt.d); got != tt.de {
			t.Errorf("Duration(de, %v) = %q, want %q", tt.d, got, tt.de)
		}
	}
}
