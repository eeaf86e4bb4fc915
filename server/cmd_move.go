package server

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/server/internal/catalog"
)

func init() {
	handle("move", (*session).move)
	helpLine(30, "help.move")
}

// move plays one ply: only the player to move, with the key, in a running
// game; the move-number guard and the capture marks, when written, must
// match (docs/commands.md, Moves).
func (ss *session) move(c *grammar.MoveCommand) error {
	t, err := ss.activeGame()
	if err != nil {
		return err
	}
	mySide := sideOf(t.g, ss.from)
	if c.Ply.Resign {
		return ss.resign(nil)
	}
	if c.Ply.Timeout {
		return ss.refuse("err.timeout")
	}
	if t.toMove() != mySide {
		return ss.refuse("err.notyourturn", sideName(ss.lang, t.toMove()))
	}
	if err := ss.checkMoveNumber(t, c); err != nil {
		return err
	}
	m := engineMove(c.Ply.Move)
	if why := ss.wrongKingMark(t.pos, c.Ply.Move); why != "" {
		return ss.refuse("err.illegal", "K"+m.String(), why)
	}
	king, _ := t.pos.King()
	next := t.pos.Clone() // played on a copy: a refused move leaves the game as it was
	r, err := next.Play(m)
	var ill *engine.IllegalMoveError
	if errors.As(err, &ill) {
		return ss.illegal(t, m, ill)
	}
	if err != nil {
		return err
	}
	if marks := c.Ply.Move.CaptureSquares(); len(marks) > 0 && !sameSquares(marks, r.Captures) {
		return ss.refuse("err.captures", squareList(marks), m, capturedText(ss.lang, r.Captures))
	}
	t.pos = next
	t.last = &r
	t.changed = true
	at, avail := ss.plyTimes() // its arrival, never the Date: header
	t.newPlies = append(t.newPlies, archive.Ply{N: t.g.PlyCount + len(t.newPlies) + 1, Move: plyText(r, king), At: at, Avail: avail, MessageID: ss.cause.seed})
	opp := opponentOf(t.g, ss.from)
	if t.g.DrawOfferBy != "" {
		t.g.DrawOfferBy = ""
		ss.tell(opp, t, func(lang string) string { return tr(lang, "draw.lapsed") })
	}
	if o := r.Outcome; o.Over() {
		t.g.Status = archive.Finished
		t.g.Result = o.Result.String()
		t.g.Reason = o.Reason.String()
	}
	played := func(key string, who ...any) func(lang string) string {
		return func(lang string) string {
			s := tr(lang, key, append(who, plyText(r, king))...)
			if len(r.Captures) > 0 {
				s += " " + tr(lang, "move.captures", capturedText(lang, r.Captures))
			}
			return s
		}
	}
	ss.tellNews(opp, t, played("move.played", ss.from)) // held for a player who chose the daily digest (its newsWatcher, digest.go)
	ss.say(t, played("move.played.you")(ss.lang))       // the mover reads "You played …"
	if err := ss.afterPly(t); err != nil {              // the modules' plyWatchers: takeback requests, conditional moves (module.go)
		return err
	}
	ss.showPosition(t)
	return nil
}

// checkMoveNumber refuses a move whose written number ("12." or "12...")
// is not the move and half the game is at, so that a reply to an old mail
// plays nothing (RULES.md §0: a move number counts pairs of plies).
func (ss *session) checkMoveNumber(t *table, c *grammar.MoveCommand) error {
	if c.Number == 0 {
		return nil
	}
	if c.Dots != "." && c.Dots != "..." { // "1..": neither side's form
		return ss.refuse("err.movedots", clip(fmt.Sprintf("%d%s", c.Number, c.Dots)), c.Number, c.Number)
	}
	wantDots := "."
	if t.pos.Ply()%2 == 1 {
		wantDots = "..."
	}
	if c.Number != t.moveNumber() || c.Dots != wantDots {
		return ss.refuse("err.movenumber", clip(fmt.Sprintf("%d%s", c.Number, c.Dots)), fmt.Sprintf("%d%s", t.moveNumber(), wantDots))
	}
	return nil
}

// illegal refuses a move the engine does not allow, saying why; a square
// off the board also gets the board's extent.
func (ss *session) illegal(t *table, m engine.Move, ill *engine.IllegalMoveError) error {
	r := ss.refusalOf("err.illegal", m, catalog.IllegalReason(ss.lang, ill))
	if ill.Reason == engine.IllegalOffBoard {
		r.after = " " + boardHint(ss.lang, t)
	}
	return r
}

// wrongKingMark says in the sender's language why a move written with the
// king's "K" is refused when its piece in pos is not the king (Kd1-e1 with
// an attacker on d1: "the piece on d1 is an attacker, not the king"), as
// replaying a record does (notation.WrongKingMark); "" for a move whose
// mark, if any, is right. The mark is a claim like a capture mark, and a
// wrong claim plays nothing (docs/commands.md, Moves).
func (ss *session) wrongKingMark(pos *engine.Position, mv *grammar.Move) string {
	pc, wrong := notation.WrongKingMark(pos, mv)
	if !wrong {
		return ""
	}
	return tr(ss.lang, "illegal.notking", engineMove(mv).From, tr(ss.lang, "piece.a."+pc.String()))
}

// sameSquares compares written capture marks with the engine's captures.
func sameSquares(marks []grammar.Square, caps []engine.Square) bool {
	if len(marks) != len(caps) {
		return false
	}
	set := map[engine.Square]bool{}
	for _, c := range caps {
		set[c] = true
	}
	for _, m := range marks {
		if !set[engine.SquareAt(m.File, m.Rank-1)] {
			return false
		}
	}
	return true
}

// squareList writes capture marks as "e2, f3".
func squareList(marks []grammar.Square) string {
	var s []string
	for _, m := range marks {
		s = append(s, m.String())
	}
	return strings.Join(s, ", ")
}

// availSlack is how much later than its arrival a ply may be committed
// and still count as committed on arrival: the opponent's clock starts at
// the arrival. A later commit (the daemon was down) is stored as the
// ply's Avail and starts the opponent's clock there instead
// (CORRESPONDENCE.md §2.1); a poll interval of delay is not an outage.
const availSlack = time.Minute

// arrival returns when the session's mail reached the mailbox: its IMAP
// INTERNALDATE (mailer.Message.Arrived), never its Date: header, which
// the sender writes (Decision C2). A mail without one (handed in directly),
// and every cause that is no mail, arrived now; an arrival after now (the IMAP server's clock runs ahead)
// counts as now.
func (ss *session) arrival() time.Time {
	var a time.Time
	if m := ss.cause.mail; m != nil {
		a = m.Arrived
	}
	if a.IsZero() || a.After(ss.now) {
		return ss.now
	}
	return a
}

// plyTimes returns the arrival and the commit time (when notably later,
// see availSlack) of a ply the session's mail carries.
func (ss *session) plyTimes() (at, avail time.Time) {
	at = ss.arrival()
	if ss.now.Sub(at) >= availSlack {
		avail = ss.now
	}
	return at, avail
}
