package referee

import (
	"cmp"
	"errors"

	"github.com/taflmail/taflmail/archive"
)

// errGameEnded is returned by ActiveGame when a module ended the running
// game before the command could act on it (GameEnder, module.go: the
// clock, when the side to move lost on time before the mail arrived);
// the module told the players, and the command is not run (run counts
// the mail as applied: it changed the game).
var errGameEnded = errors.New("server: the game ended before the mail's command could act on it")

// ActiveGame returns the game of a game command that needs the game to be
// running: a module may end it first (EndedBefore), and then it returns
// errGameEnded.
func (ss *Session) ActiveGame() (*Table, error) {
	t, err := ss.GameForCommand()
	if err != nil {
		return nil, err
	}
	switch t.Game.Status {
	case archive.Active:
		if ended, err := ss.EndedBefore(t); err != nil || ended {
			return nil, cmp.Or(err, errGameEnded) // a module ended it: the clock, when the mail came after the deadline
		}
		return t, nil
	case archive.Finished:
		return nil, ss.Refuse("err.over", t.Game.ID, ResultText(ss.Lang, t))
	}
	return nil, ss.Refuse("err.notactive", t.Game.ID, Tr(ss.Lang, "status."+string(t.Game.Status)))
}

// ShowPosition tells both players the position after a change: the board,
// whose move it is, the move list, and at the end the result and the
// record. The board itself is added when the note is written. The game's
// spectators get the new position too (spectate). The position of a
// running game is, for the player other than the sender, only the news of
// a ply (TellNews).
func (ss *Session) ShowPosition(t *Table) {
	if t.Game.Status == archive.Finished && t.Game.EndedAt.IsZero() {
		// it ended with this session: its record, mailed now, says when
		// (archive.Game.Replay's End tag or final %ts, Decision R1)
		t.Game.EndedAt = ss.Now
	}
	for _, addr := range []string{t.Game.Attackers, t.Game.Defenders} {
		lang := ss.LangOf(addr)
		n := ss.NoteFor(addr, lang, t)
		n.Game = t
		if t.Game.Status == archive.Active && addr != ss.From {
			ss.TellNews(addr, t, func(lang string) string { return StatusText(lang, t, addr) })
			continue
		}
		ss.AddSection(n, StatusText(lang, t, addr))
	}
	ss.PositionShown(t) // the modules' PositionWatchers: the spectators (module.go)
}

// TellNews adds to addr's reply, like Tell, a section that is only the
// news of an opponent's ply; the modules' NewsWatchers learn of it
// (module.go; the digest holds back a reply made only of such news).
func (ss *Session) TellNews(addr string, t *Table, text func(lang string) string) {
	lang := ss.LangOf(addr)
	n := ss.NoteFor(addr, lang, t)
	before := len(n.Sections)
	ss.AddSection(n, text(lang))
	if len(n.Sections) > before {
		ss.NewsAdded(n)
	}
}

// AddBoardOf adds to n, the sender's note, a section about game t, which
// is another game than n's: text, then t's board and move list, labelled
// with t's id as every board of n then is (note.boards).
func (ss *Session) AddBoardOf(n *Note, t *Table, text string) {
	n.boards = true
	ss.AddSection(n, text+"\n\n"+BoardText(ss.Lang, t, true))
}
