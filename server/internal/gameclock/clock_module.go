package gameclock

import (
	"context"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// Name is "clock", as the registry's test and the docs call the module.
func (Module) Name() string { return "clock" }

// Offer sets the time control of a new game from its command
// (NewGameControl) and states it, with the leave allowance (Terms).
func (Module) Offer(ss *referee.Session, t *referee.Table, c *grammar.NewGameCommand) (referee.Offer, error) {
	tc := NewGameControl(c)
	if tc.Timed() {
		t.Game.TimeControl = tc.String()
	}
	return referee.Offer{Play: func(lang string) string { return Terms(ss.Server, lang, tc) }}, nil
}

// TellGame shows both clocks in every mail about a timed game
// (ClocksText).
func (Module) TellGame(ss *referee.Session, lang string, t *referee.Table) (header, section string) {
	return "", ClocksText(ss, lang, t)
}

// SyntaxHint gives the accepted forms of a time control under a new
// command whose time control does not parse (timeControlHint), and of a
// leave's days under a leave line (leaveDateHint, cmd_leave.go).
func (Module) SyntaxHint(ss *referee.Session, l referee.CommandLine, ge *grammar.Error) string {
	if h := timeControlHint(ss.Lang, l, ge); h != "" {
		return h
	}
	return leaveDateHint(ss.Lang, l, ge)
}

// Collect adds the session's leave, the end times of games that ended
// and every written game's timers to change (collectClock).
func (Module) Collect(ss *referee.Session, change *archive.Change) { collectClock(ss, change) }

// EndBefore ends t on time when its side to move lost before the mail
// arrived (LostOnTime), before a command acts on it.
func (Module) EndBefore(ss *referee.Session, t *referee.Table) (bool, error) {
	return LostOnTime(ss, t)
}

// StartedTerms are the time control of a game started without a
// challenge and, timed, the leave allowance (Terms).
func (Module) StartedTerms(ss *referee.Session, lang string, t *referee.Table) string {
	return Terms(ss.Server, lang, Control(t.Game))
}

// RunDue fires the games' timers due at Options.Now and counts them
// (runGameTimers).
func (Module) RunDue(ctx context.Context, s *referee.Server) (int, error) {
	return runGameTimers(s, ctx)
}

// NextDue is when the earliest pending timer is due (Store.NextTimer):
// a game's, or a player's daily digest, which the archive keeps in the
// same order.
func (Module) NextDue(ctx context.Context, s *referee.Server) (time.Time, bool, error) {
	return s.ClockPort().NextTimer(ctx)
}

// OverdueWait says how the games' due timers wait at now: left when
// RunTimers left one, else the wait for the first deadline within its
// grace (overdueTimers).
func (Module) OverdueWait(ctx context.Context, s *referee.Server, now time.Time) (time.Duration, bool) {
	return overdueTimers(s, ctx, now)
}

// Terms states a new game's time control and, for a timed game, the
// leave allowance, for the invitation and the challenger's confirmation.
func Terms(s *referee.Server, lang string, tc notation.TimeControl) string {
	text := referee.Tr(lang, "invite.control", ControlText(lang, tc))
	if tc.Timed() {
		text += "\n" + referee.Trn(lang, "invite.leave", LeaveDays(s), LeaveDays(s))
	}
	return text
}
