package referee

import "github.com/taflmail/taflmail/grammar"

func init() {
	Handle("board", (*Session).board)
	HelpLine(40, "help.board")
}

// board answers with the current position: whose move it is, the board
// and the move list. A "board" for a game the sender does not play a
// module may answer (its BoardShower, module.go: a spectator of the game
// the mail names gets the position as a spectator's mail shows it);
// else anyone who plays no part in the game is refused.
func (ss *Session) board(*grammar.BoardCommand) error {
	if done, err := ss.ShowBoard(); done {
		return err
	}
	t, err := ss.GameForCommand()
	if err != nil {
		return err
	}
	n := ss.NoteFor(ss.From, ss.Lang, t)
	n.Game = t
	ss.AddSection(n, StatusText(ss.Lang, t, ss.From))
	return nil
}
