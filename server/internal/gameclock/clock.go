package gameclock

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/clock"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// The referee's side of correspondence clocks (CORRESPONDENCE.md §2–§5,
// docs/clock.md): a game's clock.Game built from the archive, the timers
// stored with every change of a game, the time-out of a late move, and
// the clocks every mail about a timed game shows. Package clock does the
// accounting; the clock module fires the timers when they fall due
// (clock_timers.go), asked by the scheduler (scheduler.go).

// Control returns a game's time control: none for an untimed game and for
// a TimeControl the referee did not write (an older game's free text).
func Control(g *archive.Game) notation.TimeControl {
	if g.TimeControl == "" {
		return notation.TimeControl{}
	}
	if tc, ok := controls.Load(g.TimeControl); ok {
		return tc.(notation.TimeControl)
	}
	tc, err := notation.ParseTimeControl(g.ID, g.TimeControl)
	if err != nil {
		return notation.TimeControl{}
	}
	controls.Store(g.TimeControl, tc)
	return tc
}

// controls caches the time controls parsed by control, by their text: a
// tournament's start computes the timers of thousands of games with the
// same control.
var controls sync.Map

// clockGame returns what the clocks of t depend on: the control, the
// start (the creation for a game started before clocks existed), the
// plies stored and new with their arrival and commit times, both players'
// leave.
func clockGame(t *referee.Table) *clock.Game {
	start := t.Game.StartedAt
	if start.IsZero() {
		start = t.Game.CreatedAt
	}
	cg := &clock.Game{Control: Control(t.Game), Start: start, FirstSide: t.Variant.FirstSide, Leave: t.Game.Leave}
	for _, p := range t.Plies() {
		cg.Plies = append(cg.Plies, clock.Ply{Arrival: p.At, Avail: p.Avail})
	}
	return cg
}

// State accounts for every ply of t (clock.Game.State): the clocks of
// both sides after the last ply, at the running ply. Its error names the
// game when the plies stored cannot be accounted (clock.Game.State's).
func State(t *referee.Table) (*clock.State, error) {
	st, err := clockGame(t).State()
	if err != nil {
		return nil, fmt.Errorf("server: game %s: %w", t.Game.ID, err)
	}
	return st, nil
}

// thresholds returns the reminder thresholds of a game with control tc
// (Options.Reminders, Options.UntimedReminders).
func thresholds(s *referee.Server, tc notation.TimeControl) []time.Duration {
	if tc.Timed() {
		return s.Opts.Reminders
	}
	return s.Opts.UntimedReminders
}

// TimerPlan returns the timers t needs from now on: the running ply's
// reminders and, timed, its deadline (clock.State.Timers), after the
// timers the modules plan of their own kind (referee.PlanTimers: in a
// game against the engine, the engine's reply instead when it is to
// move, and beside them when it owes an answer to a draw offer); none
// once the game is not running. Its error is State's.
func TimerPlan(s *referee.Server, t *referee.Table) (archive.TimerPlan, error) {
	if t.Game.Status != archive.Active {
		return archive.TimerPlan{}, nil
	}
	st, err := State(t)
	if err != nil {
		return archive.TimerPlan{}, err
	}
	plan := archive.TimerPlan{Ply: st.Ply + 1}
	if own, alone := referee.PlanTimers(t, st); len(own) > 0 {
		plan.Timers = append(plan.Timers, own...)
		if alone {
			return plan, nil // the engine's turn: its reply is all the game waits for
		}
	}
	for _, x := range st.Timers(thresholds(s, st.Control)) {
		plan.Timers = append(plan.Timers, archive.Timer{Key: x.Key(), Kind: timerKind(x.Kind), Ply: x.Ply, Due: x.At})
	}
	return plan, nil
}

// timerKind is the archive's word for a clock timer kind.
func timerKind(k clock.TimerKind) archive.TimerKind {
	if k == clock.TimerDeadline {
		return archive.TimerDeadline
	}
	return archive.TimerReminder
}

// Module is the clock feature as a module of the core: leave, end times
// and timers (the hooks of internal/referee's module.go). server's
// assembly lists it fifth; it collects last, after every game the other
// modules may have changed.
type Module struct{}

// clockChanges is what one session changes of the clocks beyond the games'
// rows: the players whose leave changes, with all of their leave
// (cmd_leave.go), by address.
type clockChanges struct {
	leaves map[string][]notation.Leave
}

// clockOf returns the clock module's state in ss, made on first use
// (stateOf): the one way to it, for clock.go and cmd_leave.go alone.
func clockOf(ss *referee.Session) *clockChanges {
	return referee.StateOf[clockChanges](ss, Module{})
}

// collectClock adds to change what the session changed of the clocks:
// the players' new leave, the end time of games that ended, and the
// timers of every game it writes, recomputed (a ply, an acceptance, a
// leave, an end all change them; recomputing the others changes nothing,
// and a timer already done stays done).
func collectClock(ss *referee.Session, change *archive.Change) {
	if ss.Uses(Module{}) {
		if leaves := clockOf(ss).leaves; len(leaves) > 0 {
			lw := make(archive.LeaveWrite, len(leaves))
			for addr, ls := range leaves {
				lw[addr] = ls
			}
			change.Writes = append(change.Writes, lw)
		}
	}
	var plans archive.TimerPlans
	for _, g := range change.Games {
		t := ss.Tables[g.ID]
		if t == nil {
			continue
		}
		if plans == nil {
			plans = archive.TimerPlans{}
		}
		if g.Status == archive.Invited { // its expiry (invitations.go)
			plans[g.ID] = ss.Server.InvitationPlan(g)
			continue
		}
		if g.Status == archive.Finished && g.EndedAt.IsZero() {
			g.EndedAt = ss.Now
		}
		plan, err := TimerPlan(ss.Server, t)
		if err != nil {
			// broken clock data is the referee's fault, not the mail's:
			// the game keeps no timers rather than the mail failing for ever
			ss.Server.Log.Error("game timers not computed", "game", g.ID, "err", err)
			plan = archive.TimerPlan{}
		}
		plans[g.ID] = plan
	}
	if plans != nil {
		change.Writes = append(change.Writes, plans)
	}
}

// LostOnTime ends t on time when the side to move's deadline had passed
// when the session's mail arrived (CORRESPONDENCE.md §2.6): whatever the
// mail asks (a move, a draw, a resignation, leave) comes too late to
// change that. The opponent of the side to move wins; the loser is told
// when their mail arrived, both get the result and the record. It reports
// whether it did. Only the arrival counts, not when the mail is handled
// (Decision C4): a mail that arrived in time is in time, however late it
// is read. It is the clock module's gameEnder (module.go): before a
// command acts on a running game (activeGame), and before leave or a
// withdrawal changes one.
func LostOnTime(ss *referee.Session, t *referee.Table) (bool, error) {
	if t.Game.Status != archive.Active || !Control(t.Game).Timed() || referee.EngineToMove(t) {
		// the engine's clock is judged when its ply arrives (engineReply)
		return false, nil
	}
	st, err := State(t)
	if err != nil {
		return false, err
	}
	arrival := ss.Arrival()
	to := st.TimeoutAt(arrival)
	if to == nil {
		return false, nil
	}
	FinishOnTime(ss, t, to, ss.Now)
	loser := referee.AddressOf(t.Game, to.Side.String())
	for _, addr := range []string{t.Game.Attackers, t.Game.Defenders} {
		if addr == loser && addr == ss.From {
			ss.Say(t, referee.Tr(ss.Lang, "timeout.late", catalog.Instant(ss.Lang, arrival), LastInTime(ss.Lang, to.Deadline)))
			continue
		}
		ss.Tell(addr, t, func(lang string) string {
			return referee.Tr(lang, "timeout.told", referee.SideName(lang, to.Side.String()), LastInTime(lang, to.Deadline))
		})
	}
	ss.ShowPosition(t)
	return true, nil
}

// FinishOnTime ends t as lost on time by to.Side, declared at at
// (CORRESPONDENCE.md §4.2: the opponent wins, reason time; the record's
// Termination is "timeout").
func FinishOnTime(ss *referee.Session, t *referee.Table, to *clock.Timeout, at time.Time) {
	t.Game.Status = archive.Finished
	t.Game.Result = to.Side.Opponent().String()
	t.Game.Reason = engine.ReasonTimeout.String()
	t.Game.EndedAt = at
	t.Game.DrawOfferBy = ""
	t.Changed = true
}

// timeout ends the game on time, declared at now (CORRESPONDENCE.md
// §4.2): the opponent wins, reason time, and both players get the result
// and the complete record.
func timeout(ss *referee.Session, t *referee.Table, to *clock.Timeout, now time.Time) {
	FinishOnTime(ss, t, to, now)
	for _, addr := range []string{t.Game.Attackers, t.Game.Defenders} {
		ss.Tell(addr, t, func(lang string) string {
			return referee.Tr(lang, "timeout.told", referee.SideName(lang, to.Side.String()), LastInTime(lang, to.Deadline))
		})
	}
	ss.ShowPosition(t)
}

// ClocksText is what every mail about a timed game shows
// (CORRESPONDENCE.md §4.3): both remaining times, who is on leave and, in
// a running game, the deadline of the side to move. "" for an untimed
// game or one not started.
func ClocksText(ss *referee.Session, lang string, t *referee.Table) string {
	tc := Control(t.Game)
	if !tc.Timed() || t.Game.Status != archive.Active && t.Game.Status != archive.Finished {
		return ""
	}
	st, err := State(t)
	if err != nil {
		return ""
	}
	at := clockInstant(ss)
	if t.Game.Status == archive.Finished && !t.Game.EndedAt.IsZero() && !t.Game.EndedAt.Equal(ss.Now) {
		at = t.Game.EndedAt // ended before this session; one it ends, ends with its mail
	}
	c := st.Show(at)
	var sides []string
	for _, side := range []engine.Side{engine.Attackers, engine.Defenders} {
		s := referee.Tr(lang, "clock.side", referee.SideName(lang, side.String()), remainingText(lang, tc, c.Remaining[side]))
		if c.OnLeave[side] {
			s += " " + referee.Tr(lang, "clock.onleave")
		}
		sides = append(sides, s)
	}
	text := referee.Tr(lang, "clock.line", tc.String(), strings.Join(sides, ", "))
	if t.Game.Status == archive.Active && !c.Deadline.IsZero() {
		text += "\n" + referee.Tr(lang, "clock.deadline", referee.SideName(lang, c.ToMove.String()), LastInTime(lang, c.Deadline))
	}
	return text
}

// clockDuration writes a duration of the clock settings, a reminder's
// threshold, in lang (catalog.Duration), never below zero. Remaining times
// are remainingText's.
func clockDuration(lang string, d time.Duration) string {
	return catalog.Duration(lang, max(d, 0))
}

// clockInstant is the instant the clocks of a reply are shown at
// (CORRESPONDENCE.md §4.3): when the session's mail counts as arrived,
// its arrival if it is handled within availSlack of it (a ply it carries
// is committed on arrival, so the opponent's clock starts there: a fresh
// 8m clock reads 8m, not the 7m59s left once the reply is written a
// second later), else now (the daemon was down: the clock started at the
// commit). A session without a mail (a timer, the engine) shows now.
func clockInstant(ss *referee.Session) time.Time {
	if at, avail := ss.PlyTimes(); avail.IsZero() {
		return at
	}
	return ss.Now
}

// remainingText writes a player's remaining time under the control tc
// for a mail in lang (issue 22 §3), never below zero:
//
//   - to the second ("7min30s", "1min59s", "0s", "1h5min10s"; in German
//     "7 Minuten 30 Sekunden", "0 Sekunden") when less than an hour is
//     left, or the control has a time that is not whole hours ("8m",
//     "90m", "1h+30m"): there seconds matter;
//   - otherwise in days, hours and minutes ("29d23h12min", "11h59min";
//     "29 Tage 23 Stunden 12 Minuten").
//
// Either way it is rounded down to the unit shown, so it never promises
// time the player does not have: a move is late at its deadline, which
// the mail gives to the second (docs/clock.md, "What the mails show").
func remainingText(lang string, tc notation.TimeControl, d time.Duration) string {
	d = max(d, 0).Truncate(time.Second)
	if d >= time.Hour && !inMinutes(tc) {
		return catalog.Duration(lang, d)
	}
	return catalog.SpellDuration(lang, d, time.Second)
}

// inMinutes reports whether a time of the control tc is not a whole
// number of hours ("8m", "90m", "1h+30m"), so that its clocks are shown
// to the second.
func inMinutes(tc notation.TimeControl) bool {
	for _, d := range []time.Duration{tc.Base, tc.Increment, tc.Cap, tc.PerMove} {
		if d%time.Hour != 0 {
			return true
		}
	}
	return false
}

// LastInTime writes in lang, as catalog.Instant does, the last second in
// which a move still counts against deadline d: d less one second. The
// deadline itself is the first late instant: a ply arriving at or after it
// loses on time (clock.State.Expired), because the charge up to it leaves
// the clock below zero while one second earlier it leaves exactly zero,
// which still plays (CORRESPONDENCE.md §2.6). Arrivals count in whole
// seconds (the mailbox's INTERNALDATE, §2.2), so "no later than 00:00:00"
// is exact: a mail stamped in that second is in time, one stamped 00:00:01
// is late. Writing d itself gave "must move before 00:00:01", true but
// misread.
func LastInTime(lang string, d time.Time) string { return catalog.Instant(lang, d.Add(-time.Second)) }

// ControlText describes a time control in words, in lang: its notation
// (tc.String(), "30d+1d", as a new command takes it back) and its
// durations in lang's words (catalog.Duration); a Fischer control
// without increment says nothing of one.
func ControlText(lang string, tc notation.TimeControl) string {
	var s string
	switch tc.Kind {
	case notation.Fischer:
		s = referee.Tr(lang, "control.fischer", tc.String(), catalog.Duration(lang, tc.Base), catalog.Duration(lang, tc.Increment))
		if tc.Increment == 0 { // "3m": nothing comes after a move, so nothing is said of it
			s = referee.Tr(lang, "control.sudden", tc.String(), catalog.Duration(lang, tc.Base))
		}
		if tc.Cap > 0 {
			s += " " + referee.Tr(lang, "control.cap", catalog.Duration(lang, tc.Cap))
		}
	case notation.PerMove:
		s = referee.Tr(lang, "control.permove", tc.String(), catalog.Duration(lang, tc.PerMove))
	default:
		return referee.Tr(lang, "control.none")
	}
	if tc.ICCF {
		s += " " + referee.Tr(lang, "control.iccf")
	}
	return s
}

// LeaveDays is the yearly leave allowance, in whole days per calendar
// year (Options.LeaveDays, CORRESPONDENCE.md §3).
func LeaveDays(s *referee.Server) int { return s.Opts.LeaveDays }

// NewGameControl returns the time control of a new command: none without
// one (Decision C1: a casual game without "time" is untimed).
func NewGameControl(c *grammar.NewGameCommand) notation.TimeControl {
	if c.Time == nil {
		return notation.TimeControl{}
	}
	return notation.TimeControlOf(c.Time)
}

// timeControlHint lists the accepted forms of a time control
// (grammar.TimeControlFormsText) under a new command whose time control
// does not parse: an error at or after its "time"/"zeit" (CORRESPONDENCE.md
// §1: "refused with the accepted forms"). "" for any other line.
func timeControlHint(lang string, l referee.CommandLine, ge *grammar.Error) string {
	if ge == nil {
		return ""
	}
	runes := []rune(l.Text)
	blank := func(r rune) bool { return r == ' ' || r == '\t' }
	for i, n := 0, 0; i < len(runes); n++ {
		for i < len(runes) && blank(runes[i]) {
			i++
		}
		j := i
		for j < len(runes) && !blank(runes[j]) {
			j++
		}
		w := strings.ToLower(string(runes[i:j]))
		if n == 0 && w != "new" && w != "neu" && w != "challenge" {
			return ""
		}
		if (w == "time" || w == "zeit") && ge.Col > j {
			var b strings.Builder
			if meant, noIncrement := meantControl(string(runes[j:])); noIncrement {
				b.WriteString(referee.Tr(lang, "hint.timecontrol.noinc", meant) + "\n")
			} else if meant != "" {
				b.WriteString(referee.Tr(lang, "hint.timecontrol.meant", meant) + "\n")
			}
			b.WriteString(referee.Tr(lang, "hint.timecontrol"))
			for _, line := range strings.Split(strings.TrimRight(grammar.TimeControlFormsText(), "\n"), "\n") {
				if lang == referee.German { // the one English word of the table, as commands.md writes it
					line = strings.Replace(line, "<control> iccf   ", "<bedenkzeit> iccf", 1)
				}
				b.WriteString("\n    " + line)
			}
			b.WriteString("\n" + referee.Tr(lang, "hint.timecontrol.duration"))
			return b.String()
		}
		i = j
	}
	return ""
}

// unitWords are the words for a unit of a duration that players write
// out ("30 days", "12 Stunden"), after their number.
var unitWords = regexp.MustCompile(`(?i)(\d+)\s*(days?|tagen?|tage|hours?|hrs?|stunden?|std|minutes?|mins?|minuten?)\b`)

// unitLetter is the letter a time control writes for a unit word of
// unitWords, by the word's first letter (CORRESPONDENCE.md §1): 't' is
// German "Tage", 's' German "Stunden" (hours; a control has no seconds).
var unitLetter = map[byte]string{'d': "d", 't': "d", 'h': "h", 's': "h", 'm': "m"}

// clauseWords end a time control in a new command, as in the grammar's
// TimeControlText.
var clauseWords = []string{"as", "als", "time", "zeit", "level", "stufe", "rated", "gewertet"}

// meantControl reads what a new command wrote after "time"/"zeit" (up to
// the next clause) and returns the control it may have meant: the same
// with units written out as letters ("30 days+1 day" → "30d+1d"), or,
// when that is a duration alone, the duration with no increment ("10d" →
// "10d+0d", noIncrement true: §1 has no bare duration, and "+0d" is its
// sudden death). "" when neither parses as a control.
func meantControl(rest string) (meant string, noIncrement bool) {
	fields := strings.Fields(rest)
	for i, f := range fields {
		if slices.Contains(clauseWords, strings.ToLower(f)) {
			fields = fields[:i]
			break
		}
	}
	written := strings.Join(fields, " ")
	text := unitWords.ReplaceAllStringFunc(written, func(m string) string {
		sub := unitWords.FindStringSubmatch(m)
		return sub[1] + unitLetter[strings.ToLower(sub[2])[0]]
	})
	if _, err := grammar.ParseTimeControl("time", text); err == nil {
		if text == written {
			return "", false
		}
		return text, false
	}
	iccf := ""
	if t := strings.TrimSuffix(strings.ToLower(text), " iccf"); len(t) < len(text) {
		text, iccf = text[:len(t)], " iccf"
	}
	if strings.ContainsAny(text, "+/") {
		return "", false
	}
	bare := text + "+0d" + iccf
	if _, err := grammar.ParseTimeControl("time", bare); err != nil {
		return "", false
	}
	return bare, true
}

// leaveFrom returns the leave intervals that have not ended before the
// day of now: the leave still to be taken or being taken.
func leaveFrom(ls []notation.Leave, now time.Time) []notation.Leave {
	y, m, d := now.UTC().Date()
	today := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	var out []notation.Leave
	for _, l := range ls {
		if !l.Last.Before(today) {
			out = append(out, l)
		}
	}
	return out
}

// leaveText writes leave intervals for a mail in lang: "2026-12-24 to
// 2027-01-02 (10 days), 2027-07-01 (1 day)", or a word for none.
func leaveText(lang string, ls []notation.Leave) string {
	if len(ls) == 0 {
		return referee.Tr(lang, "leave.none")
	}
	var parts []string
	for _, l := range ls {
		parts = append(parts, intervalText(lang, l))
	}
	return strings.Join(parts, ", ")
}

// intervalText writes one leave interval in lang: "2026-12-24 to
// 2027-01-02 (10 days)" ("24.12.2026 bis 02.01.2027 (10 Tage)"), or one
// day.
func intervalText(lang string, l notation.Leave) string {
	first, last := catalog.Day(lang, l.First), catalog.Day(lang, l.Last)
	if first == last {
		return referee.Tr(lang, "leave.day", first)
	}
	return referee.Tr(lang, "leave.interval", first, last, l.Days())
}
