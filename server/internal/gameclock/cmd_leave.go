package gameclock

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/clock"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/referee"
)

func init() {
	referee.Handle("leave", leaveCommand)
	referee.Handle("cancel leave", cancelLeave)
	referee.HelpLine(65, "help.leave")
}

// leaveCommand answers "leave" alone with the days of leave left this
// year, and takes leave with "leave FIRST [to LAST]" (CORRESPONDENCE.md §3): whole
// UTC days, written as people write them (grammar.LeaveDay: "24.12.",
// "Dec 24", "2026-12-24"; a day without a year is the next such day,
// clock.LeaveSpan), starting today or later, within the yearly allowance
// (Options.LeaveDays), sharing no day with leave already taken. Leave is
// the player's, in all their games: the clocks of every running game of
// the player stand still during it (Decision C5), their timers move, and
// each opponent is told. A refusal says why and how many days are left.
func leaveCommand(ss *referee.Session, c *grammar.LeaveCommand) error {
	taken, err := leaveOf(ss, ss.From)
	if err != nil {
		return err
	}
	allowance := LeaveDays(ss.Server)
	year := ss.Now.UTC().Year()
	if c.First == nil {
		text := referee.Trn(ss.Lang, "leave.left", allowance, clock.LeaveLeft(taken, year, allowance), allowance, year)
		if ahead := leaveFrom(taken, ss.Now); len(ahead) > 0 {
			text += "\n" + referee.Tr(ss.Lang, "leave.taken", leaveText(ss.Lang, ahead))
		}
		ss.Say(ss.ContextTable(), text)
		return nil
	}
	req, err := leaveSpan(c, ss.Now) // dates that are none are refused first, key or not
	var de *clock.DateError
	if errors.As(err, &de) {
		return leaveDateRefusal(ss, c, de)
	}
	if err != nil {
		return err
	}
	if ss.Auth == nil {
		return ss.Refuse("err.leavekey")
	}
	kept, err := clock.TakeLeave(taken, req, ss.Now, allowance)
	var le *clock.LeaveError
	if errors.As(err, &le) {
		return leaveRefusal(ss, le)
	}
	if err != nil {
		return err
	}
	var left []string
	for y := req.First.Year(); y <= req.Last.Year(); y++ {
		left = append(left, referee.Trn(ss.Lang, "leave.year", clock.LeaveLeft(kept, y, allowance), clock.LeaveLeft(kept, y, allowance), y))
	}
	games, err := setLeave(ss, kept, func(lang string, _ []*referee.Table) string {
		return referee.Tr(lang, "leave.told", ss.From, intervalText(lang, req))
	})
	if err != nil {
		return err
	}
	ss.Say(ss.Auth, referee.Tr(ss.Lang, "leave.taken.now", intervalText(ss.Lang, req), strings.Join(left, ", "))+"\n"+games.line)
	return nil
}

// cancelLeave answers "cancel leave" ("urlaub abbrechen"): the days of
// the sender's leave that have not begun are given back (a leave running
// today ends tonight), the timers of every running game of the player
// move back, and each opponent is told what is true for the clocks
// (cancelNotice): leave only announced is withdrawn and changes nothing
// for the clocks now; leave cut short lets each clock run again from
// tomorrow unless the game stays paused by other leave, and then the
// notice says from which day it runs.
func cancelLeave(ss *referee.Session, _ *grammar.CancelLeaveCommand) error {
	if ss.Auth == nil {
		return ss.Refuse("err.leavekey")
	}
	taken, err := leaveOf(ss, ss.From)
	if err != nil {
		return err
	}
	allowance := LeaveDays(ss.Server)
	kept, back, err := clock.CancelLeave(taken, ss.Now, allowance)
	var le *clock.LeaveError
	if errors.As(err, &le) {
		return leaveRefusal(ss, le)
	}
	if err != nil {
		return err
	}
	cut, ahead := cancelledLeave(taken, ss.Now)
	games, err := setLeave(ss, kept, func(lang string, ts []*referee.Table) string {
		return cancelNotice(ss, lang, cut, ahead, ts)
	})
	if err != nil {
		return err
	}
	year := ss.Now.UTC().Year()
	text := referee.Tr(ss.Lang, "leave.cancelled", referee.Counted(ss.Lang, "days", back), referee.Counted(ss.Lang, "leavedays", clock.LeaveLeft(kept, year, allowance)), year) + "\n" + games.line
	if cut {
		text += resumeText(ss, ss.Lang, games.tables)
	}
	ss.Say(ss.Auth, text)
	return nil
}

// cancelledLeave returns what "cancel leave" at instant now does to the
// leave taken (clock.CancelLeave): cut is whether a leave running today
// is cut short (it had days after today), ahead the leave after today
// that is withdrawn whole.
func cancelledLeave(taken []notation.Leave, now time.Time) (cut bool, ahead []notation.Leave) {
	day := utcDay(now)
	for _, l := range taken {
		switch {
		case l.First.After(day):
			ahead = append(ahead, l)
		case l.Last.After(day):
			cut = true
		}
	}
	return cut, ahead
}

// utcDay returns 00:00 UTC of the day of t.
func utcDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// cancelNotice is an opponent's notice of the sender's "cancel leave", in
// lang, about the games ts with them (their leave already set): leave
// only announced (ahead) is withdrawn and nothing changes for the clocks
// now; a leave cut short ends tonight, and each timed game says when its
// clocks run again (resumeText).
func cancelNotice(ss *referee.Session, lang string, cut bool, ahead []notation.Leave, ts []*referee.Table) string {
	if !cut {
		return referee.Tr(lang, "leave.withdrawn", ss.From, leaveText(lang, ahead))
	}
	text := referee.Tr(lang, "leave.cancel.cut", ss.From, catalog.Day(lang, utcDay(ss.Now)))
	if len(ahead) > 0 {
		text += " " + referee.Tr(lang, "leave.cancel.also", leaveText(lang, ahead))
	}
	return text + resumeText(ss, lang, ts)
}

// resumeText says, a line per timed game of ts, when its clocks run
// again after a leave cut short today: from tomorrow, or, when the game
// is still paused tomorrow (other leave of either player, as package
// clock counts it: clock.State.Paused), from the first day it is not.
// Untimed games and games whose clock data is broken get no line.
func resumeText(ss *referee.Session, lang string, ts []*referee.Table) string {
	tomorrow := utcDay(ss.Now).Add(notation.Day)
	var b strings.Builder
	for _, t := range ts {
		if !Control(t.Game).Timed() {
			continue
		}
		st, err := State(t)
		if err != nil {
			continue
		}
		if !st.Paused(tomorrow) {
			b.WriteString("\n" + referee.Tr(lang, "leave.resume", t.Game.ID, catalog.Day(lang, tomorrow)))
			continue
		}
		d := tomorrow
		for st.Paused(d) { // leave is whole days, and finite
			d = d.Add(notation.Day)
		}
		b.WriteString("\n" + referee.Tr(lang, "leave.resume.late", t.Game.ID, catalog.Day(lang, d)))
	}
	return b.String()
}

// leaveOf returns the leave of the player at addr as this mail has left
// it so far.
func leaveOf(ss *referee.Session, addr string) ([]notation.Leave, error) {
	if ss.Uses(Module{}) {
		if ls, ok := clockOf(ss).leaves[addr]; ok {
			return ls, nil
		}
	}
	ls, err := ss.Server.ClockPort().Leave(ss.Ctx, addr)
	if err != nil {
		return nil, err
	}
	return ls, nil
}

// setLeave makes leave the sender's whole leave: it is written with the
// mail (collectClock), every running game of the sender gets it (so its
// timers are recomputed and the replies show it), and every opponent in
// those games is told, once, with told (given the opponent's language and
// their games with the sender, which already have the new leave). It
// returns the sender's line naming those games, and the games. A leave
// that begins today stops the clocks from 00:00 UTC, so the side to move
// gets back what it used today since then (issue 22 §6): the sender's
// line and each opponent's notice say how much, game by game
// (returnedText).
func setLeave(ss *referee.Session, leave []notation.Leave, told func(lang string, games []*referee.Table) string) (leaveGames, error) {
	cs := clockOf(ss)
	if cs.leaves == nil {
		cs.leaves = map[string][]notation.Leave{}
	}
	cs.leaves[ss.From] = leave
	gs, err := ss.Server.GamePort().GamesOf(ss.Ctx, ss.From)
	if err != nil {
		return leaveGames{}, err
	}
	var ids, opps []string
	var back []returned
	var all []*referee.Table
	with := map[string][]*referee.Table{} // each opponent's games: their notice goes with the first
	for _, g := range gs {
		if g.Status != archive.Active {
			continue
		}
		t, err := ss.Table(g.ID)
		if err != nil {
			return leaveGames{}, err
		}
		if lost, err := LostOnTime(ss, t); err != nil {
			return leaveGames{}, err
		} else if lost {
			continue // lost on time before this mail: no leave brings it back
		}
		side := 0
		if t.Game.Defenders == ss.From {
			side = 1
		}
		before, _ := toMoveRemaining(ss, t)
		t.Game.Leave[side] = leave
		referee.LimitEventLeave(t.Game)
		t.Changed = true
		ids = append(ids, g.ID)
		all = append(all, t)
		opp := referee.OpponentOf(t.Game, ss.From)
		if after, toMove := toMoveRemaining(ss, t); after > before {
			back = append(back, returned{game: g.ID, opp: opp, side: toMove, tc: Control(t.Game), d: after - before})
		}
		if with[opp] == nil {
			opps = append(opps, opp)
		}
		with[opp] = append(with[opp], t)
	}
	for _, opp := range opps {
		ss.Tell(opp, with[opp][0], func(lang string) string {
			return told(lang, with[opp]) + returnedText(lang, back, opp)
		})
	}
	if len(ids) == 0 {
		return leaveGames{line: referee.Tr(ss.Lang, "leave.nogames")}, nil
	}
	return leaveGames{line: referee.Tr(ss.Lang, "leave.games", strings.Join(ids, ", ")) + returnedText(ss.Lang, back, ""), tables: all}, nil
}

// leaveGames is what setLeave did: the sender's line naming the games
// (or saying there are none) and those games.
type leaveGames struct {
	line   string
	tables []*referee.Table
}

// returned is time a leave gave back to the side to move of a game: d,
// what it had used of its clock (control tc) since the leave's first day
// began.
type returned struct {
	game, opp string
	side      engine.Side
	tc        notation.TimeControl
	d         time.Duration
}

// returnedText writes, a line each, the time given back in the games of
// back with opponent opp (all of them when opp is ""), in lang; "" when
// there is none.
func returnedText(lang string, back []returned, opp string) string {
	var b strings.Builder
	for _, r := range back {
		if opp == "" || r.opp == opp {
			b.WriteString("\n" + referee.Tr(lang, "leave.returned", r.game, referee.SideName(lang, r.side.String()), remainingText(lang, r.tc, r.d)))
		}
	}
	return b.String()
}

// toMoveRemaining returns the remaining time of the side to move of t at
// the reply's instant (clockInstant), and that side; 0 for a game without
// a clock or whose clock data is broken.
func toMoveRemaining(ss *referee.Session, t *referee.Table) (time.Duration, engine.Side) {
	if !Control(t.Game).Timed() {
		return 0, 0
	}
	st, err := State(t)
	if err != nil {
		return 0, 0
	}
	c := st.Show(clockInstant(ss))
	return c.Remaining[c.ToMove], c.ToMove
}

// leaveRefusal explains a refused leave request or cancellation
// (CORRESPONDENCE.md §3.3): why, and the days left.
func leaveRefusal(ss *referee.Session, le *clock.LeaveError) error {
	req, left := intervalText(ss.Lang, le.Request), referee.Counted(ss.Lang, "leavedays", le.DaysLeft)
	switch le.Reason {
	case clock.LeaveInPast:
		return ss.Refuse("err.leave.past", req, left, le.Year)
	case clock.LeaveReversed:
		return ss.Refuse("err.leave.reversed", catalog.Day(ss.Lang, le.Request.First), catalog.Day(ss.Lang, le.Request.Last), left, le.Year)
	case clock.LeaveOverlap:
		return ss.Refuse("err.leave.overlap", req, intervalText(ss.Lang, le.Conflict), left, le.Year)
	case clock.LeaveOverAllowance:
		return ss.Refuse("err.leave.allowance", req, referee.Counted(ss.Lang, "days", le.Years[0].Requested), left, le.Year)
	case clock.LeaveAcrossYears:
		var parts []string
		for _, y := range le.Years {
			parts = append(parts, referee.Tr(ss.Lang, "err.leave.yearpart", y.Year, referee.Counted(ss.Lang, "days", y.Requested), y.Left))
		}
		return ss.Refuse("err.leave.years", req, strings.Join(parts, "; "))
	case clock.LeaveNothingToCancel:
		return ss.Refuse("err.leave.nothing", left, le.Year)
	}
	return fmt.Errorf("server: leave refused for an unknown reason: %w", le)
}

// leaveSpan returns the leave the days of c name on the day of now
// (clock.LeaveSpan); errors are *clock.DateError.
func leaveSpan(c *grammar.LeaveCommand, now time.Time) (notation.Leave, error) {
	var last *clock.WrittenDay
	if c.Last != nil {
		l := writtenDay(c.Last)
		last = &l
	}
	return clock.LeaveSpan(writtenDay(c.First), last, now)
}

// writtenDay is a day of a leave command as package clock reads it.
func writtenDay(d *grammar.LeaveDay) clock.WrittenDay {
	return clock.WrittenDay{Text: d.Text, Year: d.Year, Month: d.Month, Day: d.Day, Either: d.Either}
}

// leaveDateRefusal explains days of a leave command that are no dates
// (issue 22 §1): a caret under the day, why, and the forms to write
// (leaveDateForms), as a line that does not parse is answered.
func leaveDateRefusal(ss *referee.Session, c *grammar.LeaveCommand, de *clock.DateError) error {
	d := c.First
	if de.Last && c.Last != nil {
		d = c.Last
	}
	text := referee.Clip(de.Day.Text)
	var r *referee.Refusal
	end := ""
	switch de.Reason {
	case clock.DateNoDay:
		r, end = ss.RefusalOf("syntax.nodate", text), "."
		if de.Year != 0 {
			r, end = ss.RefusalOf("err.leave.noday.year", text, de.Year), ""
		}
	case clock.DateNoMonth:
		r = ss.RefusalOf("err.leave.nomonth", text)
	case clock.DateAmbiguous:
		rd := de.Readings
		r = ss.RefusalOf("err.leave.ambiguous", text, catalog.Day(ss.Lang, rd[0]), catalog.Day(ss.Lang, rd[1]),
			dottedDay(rd[0], de.Day.Year != 0), dottedDay(rd[1], de.Day.Year != 0), rd[0].Format(time.DateOnly))
	default:
		return fmt.Errorf("server: leave dates refused for an unknown reason: %w", de)
	}
	r.Before = caretAt(d.Pos.Column)
	r.After = end + "\n" + leaveDateForms(ss.Lang)
	return r
}

// dottedDay writes a date day first, as the leave command reads it
// without doubt: "12.11." or, withYear, "12.11.2027".
func dottedDay(t time.Time, withYear bool) string {
	if withYear {
		return fmt.Sprintf("%d.%d.%d", t.Day(), t.Month(), t.Year())
	}
	return fmt.Sprintf("%d.%d.", t.Day(), t.Month())
}

// caretAt is the line under a quoted line (quoteLine) with a caret at
// column col (runes, 1-based), as syntaxError draws it.
func caretAt(col int) string {
	return mailer.Preformatted("  "+strings.Repeat(" ", min(max(col-1, 0), referee.MaxQuoteRunes))+"^") + "\n"
}

// leaveDateForms lists the forms a leave command's days are written in
// (grammar.LeaveDateForms, aligned, the placeholders in lang), for a date
// that cannot be read or is no day: "say which form to write" (issue 22
// §1).
func leaveDateForms(lang string) string {
	var b strings.Builder
	b.WriteString(referee.Tr(lang, "hint.leavedate"))
	for _, f := range grammar.LeaveDateForms {
		syntax, examples := f.Syntax, f.Examples
		if lang == referee.German {
			syntax = germanDateSyntax.Replace(syntax)
			examples = germanDateExamples(examples)
		}
		// examples that do not fit in mailer.WrapWidth go on, whole, in
		// their column on the next line
		row := "    " + syntax + strings.Repeat(" ", max(22-utf8.RuneCountInString(syntax), 1))
		col := strings.Repeat(" ", utf8.RuneCountInString(row))
		for i, ex := range examples {
			switch {
			case i == 0:
			case utf8.RuneCountInString(row[strings.LastIndexByte(row, '\n')+1:]+"   "+ex) > mailer.WrapWidth:
				row += "\n" + col
			default:
				row += "   "
			}
			row += ex
		}
		b.WriteString("\n" + mailer.Preformatted(row))
	}
	return b.String()
}

// germanDateSyntax writes the placeholders of grammar.LeaveDateForms in
// German; a German day with a month name is written day first ("24. Dez.
// 2026"), so the German table shows that order only (the command still
// reads "Dez. 24").
var germanDateSyntax = strings.NewReplacer("YYYY", "JJJJ", "DD Month  Month DD", "TT. Monat", "DD", "TT", "FIRST - LAST", "ERSTER - LETZTER")

// germanDates are the German examples of the English ones of
// grammar.LeaveDateForms that name a month: German month names, the day
// first (docs/commands.md, "Replies in German"). Each parses as its
// English example does (TestLeaveDateFormsGerman).
var germanDates = map[string]string{
	"24 Dec 2026":     "24. Dez. 2026",
	"Dec 24":          "24. Dez.",
	"Dec 24 to Jan 2": "24. Dez. bis 2. Jan.",
}

// germanDateExamples returns examples with those of germanDates in German
// and the others as they are.
func germanDateExamples(examples []string) []string {
	out := make([]string, len(examples))
	for i, e := range examples {
		if g, ok := germanDates[e]; ok {
			e = g
		}
		out[i] = e
	}
	return out
}

// leaveDateHint returns the forms of a leave command's days under a leave
// line that does not parse: an error after its keyword ("urlaub
// 24.12.2026 bitte", "leave 2 weeks"). "" for any other line.
func leaveDateHint(lang string, l referee.CommandLine, ge *grammar.Error) string {
	f := strings.Fields(l.Text)
	if ge == nil || len(f) == 0 {
		return ""
	}
	switch w := strings.ToLower(f[0]); {
	case w != "leave" && w != "urlaub":
		return ""
	case len(f) > 1 && strings.EqualFold(f[1], "abbrechen"):
		return ""
	}
	if ge.Col <= strings.Index(l.Text, f[0])+len([]rune(f[0])) {
		return ""
	}
	return leaveDateForms(lang)
}
