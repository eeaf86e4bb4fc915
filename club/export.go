package club

import (
	"bytes"
	"fmt"
	"io"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/clock"
	"github.com/taflmail/taflmail/notation"
)

// LimitEventLeave cuts the players' leave of a tournament game to what
// the event allows per calendar year (CORRESPONDENCE.md §3.1: a
// tournament may allow fewer days, or none; clock.LimitLeave), so that
// its clocks, its timers and its record count only that. A casual game
// (g.Event nil) is left as it is.
func LimitEventLeave(g *archive.Game) {
	if g.Event == nil {
		return
	}
	for side := range g.Leave {
		g.Leave[side] = clock.LimitLeave(g.Leave[side], g.Event.LeaveDays)
	}
}

// WriteRecord writes a replayed game as a record in format f, in the
// canonical form of `taflmail convert`: notation.FormatNative
// (taflmail's record, docs/notation.md), notation.FormatOTG (OpenTafl)
// or notation.FormatCSV (one line; it cannot hold a set-up start). Any
// other format is an error; so is what the writer refuses.
func WriteRecord(w io.Writer, r *notation.Replay, f notation.Format) error {
	switch f {
	case notation.FormatNative:
		return notation.WriteNative(w, r)
	case notation.FormatOTG:
		return notation.WriteOTG(w, r)
	case notation.FormatCSV:
		return notation.WriteCSV(w, r)
	}
	return fmt.Errorf("club: no record format %q to write", f)
}

// ExportEvent writes the games of a tournament (archive.Store's
// TournamentGames with plies, in schedule order) as one native record
// file: the records one after the other, each with the event's name as
// its Event tag, its Round, its result ("*" for a game that goes on or
// was annulled) and its clock data, which `taflmail validate`,
// `standings` and `ratings` read. The players' leave is cut to the
// event's allowance as the referee counts it (LimitEventLeave); the
// games themselves are not changed.
func ExportEvent(games []*archive.Game) ([]byte, error) {
	var b bytes.Buffer
	for i, g := range games {
		c := *g
		LimitEventLeave(&c)
		r, err := c.Replay()
		if err != nil {
			return nil, fmt.Errorf("club: game %s: %w", g.ID, err)
		}
		if i > 0 {
			b.WriteString("\n")
		}
		if err := notation.WriteNative(&b, r); err != nil {
			return nil, fmt.Errorf("club: game %s: %w", g.ID, err)
		}
	}
	return b.Bytes(), nil
}
