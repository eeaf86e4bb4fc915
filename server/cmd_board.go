package server

import "github.com/taflmail/taflmail/grammar"

func init() {
	handle("board", (*session).board)
	helpLine(40, "help.board")
}

// board answers with the current position: whose move it is, the board
// and the move list.
func (ss *session) board(*grammar.BoardCommand) error {
	t, err := ss.gameForCommand()
	if err != nil {
		return err
	}
	n := ss.noteFor(ss.from, ss.lang, t)
	n.game = t
	ss.addSection(n, statusText(ss.lang, t, ss.from))
	return nil
}
