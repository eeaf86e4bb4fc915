package server

import "github.com/taflmail/taflmail/grammar"

func init() {
	handle("history", (*session).history)
	helpLine(50, "help.history")
}

// history answers with the complete record in the native format
// (docs/notation.md).
func (ss *session) history(*grammar.HistoryCommand) error {
	t, err := ss.gameForCommand()
	if err != nil {
		return err
	}
	ss.say(t, t.recordText(ss.lang))
	return nil
}
