package server

import "github.com/taflmail/taflmail/grammar"

func init() {
	handle("board", (*session).board)
	helpLine(40, "help.board")
}

// board answers with the current position: whose move it is, the board
// and the move list. A "board" for a game the sender does not play a
// module may answer (its boardShower, module.go: a spectator of the game
// the mail names gets the position as a spectator's mail shows it);
// else anyone who plays no part in the game is refused.
func (ss *session) board(*grammar.BoardCommand) error {
	if done, err := ss.showBoard(); done {
		return err
	}
	t, err := ss.gameForCommand()
	if err != nil {
		return err
	}
	n := ss.noteFor(ss.from, ss.lang, t)
	n.game = t
	ss.addSection(n, statusText(ss.lang, t, ss.from))
	return nil
}
