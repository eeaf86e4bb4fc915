package server

import (
	"errors"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
)

func init() {
	handle("board", (*session).board)
	helpLine(40, "help.board")
}

// board answers with the current position: whose move it is, the board
// and the move list. A spectator of the game the mail names (a reply to
// a spectator's mail) gets the position as a spectator's mail shows it
// (spectatorBoard); anyone else who plays no part in it is refused.
func (ss *session) board(*grammar.BoardCommand) error {
	if t, err := ss.watchedGame(); t != nil || err != nil {
		if err == nil {
			ss.spectatorBoard(t)
		}
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

// watchedGame returns the one game the mail names when the sender does
// not play in it but watches it, and it is not private (docs/commands.md,
// "private": its spectators are removed anyway); nil for anything else,
// which gameForCommand then refuses. Only an archive failure is returned.
func (ss *session) watchedGame() (*table, error) {
	if ss.ref.id == "" || len(ss.ref.several) > 1 {
		return nil, nil
	}
	t, err := ss.table(ss.ref.id)
	var r *refusal
	if errors.As(err, &r) {
		return nil, nil
	}
	if err != nil || sideOf(t.g, ss.from) != "" || privateGame(t.g) {
		return nil, err
	}
	sp, _, err := ss.spectatorOf(t.g.ID)
	if err != nil || sp == nil {
		return nil, err
	}
	return t, nil
}

// spectatorBoard answers a spectator's "board" as their mails show the
// game: its tag without a key, whose move it is (or the result), the
// board and the move list, and how to stop watching. Nothing in it lets
// the spectator move (docs/security.md, Spectators).
func (ss *session) spectatorBoard(t *table) {
	n := ss.noteFor(ss.from, ss.lang, nil)
	text := tr(ss.lang, "watch.tomove", t.moveNumber(), sideName(ss.lang, t.toMove())) + "\n" + tr(ss.lang, "watch.how", t.g.ID)
	if t.g.Status == archive.Finished {
		text = tr(ss.lang, "over.result", resultText(ss.lang, t), t.g.ID)
	}
	if n.game != nil && n.game != t {
		n.boards = true
		ss.addSection(n, text+"\n\n"+tr(ss.lang, "board.of", t.g.ID)+"\n"+t.board(ss.lang)+"\n"+tr(ss.lang, "move.list")+"\n"+t.moveList(ss.lang))
		return
	}
	n.game = t
	n.subject = ss.spectatorSubject(t, ss.lang)
	n.headers = ss.srv.unsubscribeHeaders(ss.from, "unwatch "+t.g.ID)
	ss.addSection(n, text)
}
