package referee

import "github.com/taflmail/taflmail/grammar"

func init() {
	Handle("history", (*Session).history)
	HelpLine(50, "help.history")
}

// history answers with the complete record in the native format
// (docs/notation.md).
func (ss *Session) history(*grammar.HistoryCommand) error {
	t, err := ss.GameForCommand()
	if err != nil {
		return err
	}
	ss.Say(t, t.RecordText(ss.Lang))
	return nil
}
