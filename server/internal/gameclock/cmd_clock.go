package gameclock

import (
	"github.com/taflmail/taflmail/clock"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/referee"
)

func init() {
	referee.Handle("clock", clockCommand)
	referee.HelpLine(55, "help.clock")
}

// clockCommand answers "clock" ("uhr") with the game's time control in words
// and both players' leave; the reply's clocks line (ClocksText) gives
// both remaining times and the deadline of the side to move
// (CORRESPONDENCE.md §4.3). For an untimed game it says so; for a game
// shorter than the reminder thresholds, when it is reminded, if at all
// (clock.TimedThresholds).
func clockCommand(ss *referee.Session, _ *grammar.ClockCommand) error {
	t, err := ss.GameForCommand()
	if err != nil {
		return err
	}
	tc := Control(t.Game)
	text := referee.Tr(ss.Lang, "clock.control", ControlText(ss.Lang, tc))
	for _, side := range []engine.Side{engine.Attackers, engine.Defenders} {
		text += "\n" + referee.Tr(ss.Lang, "clock.leave", referee.SideName(ss.Lang, side.String()), leaveText(ss.Lang, leaveFrom(t.Game.Leave[side], ss.Now)))
	}
	if ths := thresholds(ss.Server, tc); clock.ShortControl(tc, ths) {
		// the thresholds could never remind it: say when it is reminded
		if short := clock.TimedThresholds(tc, ths); len(short) > 0 {
			text += "\n" + referee.Tr(ss.Lang, "clock.reminder.short", clockDuration(ss.Lang, short[0]))
		} else {
			text += "\n" + referee.Tr(ss.Lang, "clock.reminder.none")
		}
	}
	n := ss.NoteFor(ss.From, ss.Lang, t)
	n.Game = t
	ss.AddSection(n, text)
	return nil
}
