package notation

import (
	"fmt"
	"strings"
	"time"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
)

// The clock data of a timed native record (CORRESPONDENCE.md §5):
//
//	[TimeControl "30d+1d"]
//	[Start "2026-11-28T21:14:00Z"]
//	[AttackersLeave "2026-12-24/2027-01-02"]
//	[DefendersLeave "2027-07-01/2027-07-14, 2027-08-01/2027-08-03"]
//
//	1. d1-d3 {[%ts 2026-11-28T21:52:10Z]} h6-h9 {[%ts 2026-11-30T08:01:00Z] [%avail 2026-11-30T09:00:00Z]}
//
// The tags stay in Game.Tags (the writer writes them from there, in
// canonical form); Game.Clock reads them. Each ply's %ts and %avail are
// read into Ply.Time and taken out of its comments; %clk is dropped when
// read (readers recompute it) and written from PlyTime.Clock.

// The names of the clock tags.
const (
	TagTimeControl    = "TimeControl"
	TagStart          = "Start"
	TagAttackersLeave = "AttackersLeave"
	TagDefendersLeave = "DefendersLeave"
)

// TagEnd names the tag that says when a finished game ended, as an
// instant ("2026-12-07T05:58:00Z", InstantLayout), written by the referee
// when the last ply's %ts does not say it (a draw agreed, a resignation
// while the opponent was to move, an untimed game). Ratings read it
// (tournament.GameEnd, Decision R1); the clock does not.
const TagEnd = "End"

// TagRated names the tag that says whether a game counts for the
// ratings: the referee writes `[Rated "no"]` into the record of every
// game it does not rate (a casual game not agreed as rated, a game of an
// unrated tournament, a game against the engine), and `taflmail ratings`
// leaves such games out (tournament.RatedGamesFromRecords). A record
// without it is rated.
const TagRated = "Rated"

// leaveTags are the leave tags by side (engine.Attackers, engine.Defenders).
var leaveTags = [2]string{TagAttackersLeave, TagDefendersLeave}

// InstantLayout is how instants are written in clock tags and comments:
// RFC 3339 in UTC with whole seconds, "2026-11-28T21:52:10Z".
const InstantLayout = "2006-01-02T15:04:05Z"

// FormatInstant writes t in UTC as InstantLayout (fractions of a second
// are dropped).
func FormatInstant(t time.Time) string { return t.UTC().Format(InstantLayout) }

// ParseInstant reads an instant written in RFC 3339 ("2026-11-28T21:52:10Z";
// other offsets are accepted and converted to UTC).
func ParseInstant(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("notation: %q is not an instant such as 2026-11-28T21:52:10Z", s)
	}
	return t.UTC(), nil
}

// PlyTime is the clock data of one ply of a timed record (CORRESPONDENCE.md
// §2.1, §2.2, §5). All zero for an untimed record.
type PlyTime struct {
	// Arrival is the %ts of the ply: when the mail that carried it reached
	// the server's mailbox (its IMAP INTERNALDATE; never the Date: header,
	// Decision C2). On a final time-out ply: when the time-out was
	// declared.
	Arrival time.Time
	// Avail is the %avail of the ply: when the server committed it, if
	// that was later than Arrival (the daemon was down); the opponent's
	// clock starts then. Zero otherwise.
	Avail time.Time
	// Clock is the mover's remaining time after the ply, written as %clk
	// for readers when HasClock; never read back (readers recompute it).
	Clock    time.Duration
	HasClock bool
}

// Available returns when the ply was made available to the opponent: Avail
// when it is later than Arrival, else Arrival (§2.1).
func (t PlyTime) Available() time.Time {
	if t.Avail.After(t.Arrival) {
		return t.Avail
	}
	return t.Arrival
}

// comment returns the ply's clock commands as one comment text, "" when it
// has none: "[%ts …] [%avail …] [%clk …]".
func (t PlyTime) comment() string {
	if t.Arrival.IsZero() {
		return ""
	}
	s := "[%ts " + FormatInstant(t.Arrival) + "]"
	if t.Avail.After(t.Arrival) {
		s += " [%avail " + FormatInstant(t.Avail) + "]"
	}
	if t.HasClock {
		s += " [%clk " + FormatDuration(t.Clock) + "]"
	}
	return s
}

// Clock is the clock data of a record's tags (CORRESPONDENCE.md §5).
type Clock struct {
	// Control is the TimeControl tag.
	Control TimeControl
	// Start is the Start tag: when the game started, i.e. when the first
	// mover's clock started (§2.1). Zero when the record has none.
	Start time.Time
	// Leave holds each side's leave (AttackersLeave, DefendersLeave
	// tags), indexed by engine.Side.
	Leave [2][]Leave
}

// Clock returns the clock data of the game's tags, or nil when it has no
// TimeControl tag. It fails when a clock tag does not parse; records read
// by ReadGames report that as Game.ClockErr with its position, and a
// TimeControl tag that does not parse in a record without other clock
// data (free text of an older record, "3 days per move") is not an error
// there but makes Clock fail here.
func (g *Game) Clock() (*Clock, error) {
	tc, ok := g.tag(TagTimeControl)
	if !ok {
		return nil, nil
	}
	var c Clock
	var err error
	if c.Control, err = ParseTimeControl("", tc); err != nil {
		return nil, fmt.Errorf("notation: TimeControl: %w", err)
	}
	if s, ok := g.tag(TagStart); ok {
		if c.Start, err = ParseInstant(s); err != nil {
			return nil, fmt.Errorf("notation: Start: %w", err)
		}
	}
	for side, name := range leaveTags {
		if s, ok := g.tag(name); ok {
			if c.Leave[side], err = ParseLeaves("", s); err != nil {
				return nil, fmt.Errorf("notation: %s: %w", name, err)
			}
		}
	}
	return &c, nil
}

// SetClock writes c into the game's tags (TimeControl, Start when not
// zero, a leave tag for each side with leave), replacing the clock tags it
// had. The per-ply times are the plies' Time fields.
func (g *Game) SetClock(c Clock) {
	tags := g.Tags[:0:0]
	for _, t := range g.Tags {
		switch t.Name {
		case TagTimeControl, TagStart, TagAttackersLeave, TagDefendersLeave:
			continue
		}
		tags = append(tags, t)
	}
	tags = append(tags, Tag{TagTimeControl, c.Control.String()})
	if !c.Start.IsZero() {
		tags = append(tags, Tag{TagStart, FormatInstant(c.Start)})
	}
	for side, name := range leaveTags {
		if len(c.Leave[side]) > 0 {
			tags = append(tags, Tag{name, FormatLeaves(c.Leave[side])})
		}
	}
	g.Tags = tags
}

// tag returns the value of one of g.Tags.
func (g *Game) tag(name string) (string, bool) {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// canonicalTag returns a clock tag's value in canonical form when it
// parses, else as it is.
func canonicalTag(name, value string) string {
	switch name {
	case TagTimeControl:
		if tc, err := ParseTimeControl("", value); err == nil {
			return tc.String()
		}
	case TagStart:
		if t, err := ParseInstant(value); err == nil {
			return FormatInstant(t)
		}
	case TagAttackersLeave, TagDefendersLeave:
		if l, err := ParseLeaves("", value); err == nil {
			return FormatLeaves(l)
		}
	}
	return value
}

// plyClock takes the clock commands out of a ply's comments: it returns
// the ply's time, the comments without %ts, %avail and %clk (a comment
// left empty is dropped; one without clock commands is kept as written),
// and the first malformed clock command as a KindClock *Error.
func plyClock(cs []*grammar.Comment) (PlyTime, []string, *Error) {
	var pt PlyTime
	var out []string
	var bad *Error
	fail := func(pos grammar.Position, format string, args ...any) {
		if bad == nil {
			bad = &Error{Kind: KindClock, Message: fmt.Sprintf(format, args...)}
			setPos(bad, pos)
		}
	}
	for _, c := range cs {
		body, err := grammar.ParseComment(c)
		if err != nil {
			if strings.Contains(c.Text, "[%") {
				ge := err.(*grammar.Error)
				fail(grammar.Position{Filename: ge.Filename, Line: ge.Line, Column: ge.Col}, "comment command: %s", ge.Message)
			}
			out = append(out, c.Text)
			continue
		}
		var rest strings.Builder
		took := false
		for _, it := range body.Items {
			cmd := it.Command
			if cmd == nil {
				rest.WriteString(it.Text)
				continue
			}
			var dst *time.Time
			switch cmd.Name {
			case "ts":
				dst = &pt.Arrival
			case "avail":
				dst = &pt.Avail
			case "clk":
				took = true // for readers only: recomputed, never read
				continue
			default:
				rest.WriteString(cmd.String())
				continue
			}
			took = true
			if !dst.IsZero() {
				fail(cmd.Pos, "a second [%%%s] for the same ply", cmd.Name)
				continue
			}
			if len(cmd.Args) != 1 {
				fail(cmd.Pos, "[%%%s] takes one instant such as 2026-11-28T21:52:10Z", cmd.Name)
				continue
			}
			t, err := ParseInstant(cmd.Args[0])
			if err != nil {
				fail(cmd.Pos, "[%%%s %s]: not an instant such as 2026-11-28T21:52:10Z", cmd.Name, cmd.Args[0])
				continue
			}
			*dst = t
		}
		switch {
		case !took:
			out = append(out, c.Text)
		case strings.TrimSpace(rest.String()) != "":
			out = append(out, strings.TrimSpace(rest.String()))
		}
	}
	return pt, out, bad
}

// checkClock checks the clock data of a native record as read: the clock
// tags parse; and when the record is timed and carries any timing (a Start
// tag or a %ts), it has a Start tag and every move has a %ts, the times in
// order. A TimeControl tag that does not parse is only an error when the
// record carries timing; otherwise it is an older record's free text.
// Returns the first problem as a KindClock *Error. tags are the record's
// tags by their native names (an OpenTafl record's clock tags, renamed).
func checkClock(g *Game, tags []*grammar.Tag) *Error {
	at := func(t *grammar.Tag, format string, args ...any) *Error {
		e := &Error{Kind: KindClock, Game: g.Number, Message: fmt.Sprintf(format, args...)}
		setPos(e, t.Pos)
		return e
	}
	timing := false
	for _, p := range g.Plies {
		if !p.Time.Arrival.IsZero() || !p.Time.Avail.IsZero() {
			timing = true
		}
	}
	var tcTag, startTag *grammar.Tag
	var c Clock
	for _, t := range tags {
		switch t.Name {
		case TagTimeControl:
			tcTag = t
		case TagStart:
			startTag = t
			timing = true
			s, err := ParseInstant(t.Value)
			if err != nil {
				return at(t, "Start: %q is not an instant such as 2026-11-28T21:14:00Z", t.Value)
			}
			c.Start = s
		case TagAttackersLeave, TagDefendersLeave:
			if _, err := ParseLeaves("", t.Value); err != nil {
				msg := err.Error()
				if ge, ok := err.(*grammar.Error); ok {
					msg = ge.Message
				}
				return at(t, "%s: %s", t.Name, msg)
			}
		}
	}
	if !timing {
		return nil
	}
	if tcTag == nil {
		return plyOrGame(g, startTag, "the record has clock times but no TimeControl tag")
	}
	tc, err := ParseTimeControl("", tcTag.Value)
	if err != nil {
		msg := err.Error()
		if ge, ok := err.(*grammar.Error); ok {
			msg = ge.Message
		}
		return at(tcTag, "TimeControl %q: %s", tcTag.Value, msg)
	}
	if !tc.Timed() {
		return nil
	}
	if startTag == nil {
		return at(tcTag, "a timed record with [%%ts] times needs a Start tag (when the game started)")
	}
	last := c.Start
	for i, p := range g.Plies {
		if p.Ply.Move == nil {
			continue // a resignation or time-out may carry a %ts, need not
		}
		if p.Time.Arrival.IsZero() {
			return clockPlyError(g, i, "the ply has no arrival time [%%ts …]; every ply of a timed record needs one")
		}
		if p.Time.Arrival.Before(last) {
			return clockPlyError(g, i, "arrival time %s is before %s", FormatInstant(p.Time.Arrival), FormatInstant(last))
		}
		last = p.Time.Arrival
	}
	return nil
}

// plyOrGame returns a KindClock error at tag t, or at the game.
func plyOrGame(g *Game, t *grammar.Tag, msg string) *Error {
	e := &Error{Kind: KindClock, Game: g.Number, Message: msg}
	if t != nil {
		setPos(e, t.Pos)
	} else {
		setPos(e, g.plyPos(-1))
	}
	return e
}

// clockPlyError returns a KindClock error about ply i (side unknown before
// the replay: counted from the attackers in pairs, as the native format
// numbers plies).
func clockPlyError(g *Game, i int, format string, args ...any) *Error {
	side := engine.Attackers
	if g.Plies[i].Second {
		side = engine.Defenders
	}
	e := &Error{Kind: KindClock, Game: g.Number, Ply: i + 1, Side: side, Move: g.Plies[i].Text(), Message: fmt.Sprintf(format, args...)}
	setPos(e, g.plyPos(i))
	return e
}

// ClockDropped says what of the game's clock data (CORRESPONDENCE.md §5:
// the clock tags, each ply's %ts and %avail) a writer of format f has no
// place for: "" when it keeps all of it, else a sentence for a warning,
// such as "the CSV format has no place for clock data: TimeControl, Start
// and the %ts of 12 plies are dropped". The native and OpenTafl writers
// keep it all (WriteOTG says where); CSV lines hold only plies, a final
// time-out and the outcome.
func (g *Game) ClockDropped(f Format) string {
	if f != FormatCSV {
		return ""
	}
	var what []string
	for _, t := range g.Tags {
		switch t.Name {
		case TagTimeControl, TagStart, TagAttackersLeave, TagDefendersLeave, tagOpenTaflTimeControl:
			what = append(what, t.Name)
		}
	}
	n := 0
	for _, p := range g.Plies {
		if !p.Time.Arrival.IsZero() || !p.Time.Avail.IsZero() {
			n++
		}
	}
	switch {
	case n == 1:
		what = append(what, "the %ts of 1 ply")
	case n > 1:
		what = append(what, fmt.Sprintf("the %%ts of %d plies", n))
	}
	if len(what) == 0 {
		return ""
	}
	list, verb := what[0], " is"
	if k := len(what); k > 1 {
		list, verb = strings.Join(what[:k-1], ", ")+" and "+what[k-1], " are"
	} else if n > 1 {
		verb = " are"
	}
	return "the CSV format has no place for clock data: " + list + verb + " dropped"
}
