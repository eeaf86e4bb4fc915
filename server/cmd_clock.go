package server

import (
	"github.com/taflmail/taflmail/clock"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
)

func init() {
	handle("clock", (*session).clock)
	helpLine(55, "help.clock")
}

// clock answers "clock" ("uhr") with the game's time control in words
// and both players' leave; the reply's clocks line (clocksText) gives
// both remaining times and the deadline of the side to move
// (CORRESPONDENCE.md §4.3). For an untimed game it says so; for a game
// shorter than the reminder thresholds, when it is reminded, if at all
// (clock.TimedThresholds).
func (ss *session) clock(*grammar.ClockCommand) error {
	t, err := ss.gameForCommand()
	if err != nil {
		return err
	}
	tc := control(t.g)
	text := tr(ss.lang, "clock.control", controlText(ss.lang, tc))
	for _, side := range []engine.Side{engine.Attackers, engine.Defenders} {
		text += "\n" + tr(ss.lang, "clock.leave", sideName(ss.lang, side.String()), leaveText(ss.lang, leaveFrom(t.g.Leave[side], ss.now)))
	}
	if ths := ss.srv.thresholds(tc); clock.ShortControl(tc, ths) {
		// the thresholds could never remind it: say when it is reminded
		if short := clock.TimedThresholds(tc, ths); len(short) > 0 {
			text += "\n" + tr(ss.lang, "clock.reminder.short", clockDuration(ss.lang, short[0]))
		} else {
			text += "\n" + tr(ss.lang, "clock.reminder.none")
		}
	}
	n := ss.noteFor(ss.from, ss.lang, t)
	n.game = t
	ss.addSection(n, text)
	return nil
}
