package server

import (
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
// (CORRESPONDENCE.md §4.3). For an untimed game it says so.
func (ss *session) clock(*grammar.ClockCommand) error {
	t, err := ss.gameForCommand()
	if err != nil {
		return err
	}
	text := tr(ss.lang, "clock.control", controlText(ss.lang, control(t.g)))
	for _, side := range []engine.Side{engine.Attackers, engine.Defenders} {
		text += "\n" + tr(ss.lang, "clock.leave", sideName(ss.lang, side.String()), leaveText(ss.lang, leaveFrom(t.g.Leave[side], ss.now)))
	}
	n := ss.noteFor(ss.from, ss.lang, t)
	n.game = t
	ss.addSection(n, text)
	return nil
}
