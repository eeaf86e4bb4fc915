package referee

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
	Handle("move", (*Session).move)
	HelpLine(30, "help.move")
}

// move plays one ply: only the player to move, with the key, in a running
// game; the move-number guard and the capture marks, when written, must
// match (docs/commands.md, Moves).
func (ss *Session) move(c *grammar.MoveCommand) error {
	t, err := ss.ActiveGame()
	if err != nil {
		return err
	}
	mySide := SideOf(t.Game, ss.From)
	if c.Ply.Resign {
		return ss.resign(nil)
	}
	if c.Ply.Timeout {
		return ss.Refuse("err.timeout")
	}
	if t.ToMove() != mySide {
		return ss.Refuse("err.notyourturn", SideName(ss.Lang, t.ToMove()))
	}
	if err := ss.checkMoveNumber(t, c); err != nil {
		return err
	}
	m := EngineMove(c.Ply.Move)
	if why := ss.WrongKingMark(t.Pos, c.Ply.Move); why != "" {
		return ss.Refuse("err.illegal", "K"+m.String(), why)
	}
	king, _ := t.Pos.King()
	next := t.Pos.Clone() // played on a copy: a refused move leaves the game as it was
	r, err := next.Play(m)
	var ill *engine.IllegalMoveError
	if errors.As(err, &ill) {
		return ss.illegal(t, m, ill)
	}
	if err != nil {
		return err
	}
	if marks := c.Ply.Move.CaptureSquares(); len(marks) > 0 && !SameSquares(marks, r.Captures) {
		return ss.Refuse("err.captures", SquareList(marks), m, CapturedText(ss.Lang, r.Captures))
	}
	t.Pos = next
	t.Last = &r
	t.Changed = true
	at, avail := ss.PlyTimes() // its arrival, never the Date: header
	t.NewPlies = append(t.NewPlies, archive.Ply{N: t.Game.PlyCount + len(t.NewPlies) + 1, Move: PlyText(r, king), At: at, Avail: avail, MessageID: ss.Cause.Seed})
	opp := OpponentOf(t.Game, ss.From)
	if t.Game.DrawOfferBy != "" {
		t.Game.DrawOfferBy = ""
		ss.Tell(opp, t, func(lang string) string { return Tr(lang, "draw.lapsed") })
	}
	if o := r.Outcome; o.Over() {
		t.Game.Status = archive.Finished
		t.Game.Result = o.Result.String()
		t.Game.Reason = o.Reason.String()
	}
	played := func(key string, who ...any) func(lang string) string {
		return func(lang string) string {
			s := Tr(lang, key, append(who, PlyText(r, king))...)
			if len(r.Captures) > 0 {
				s += " " + Tr(lang, "move.captures", CapturedText(lang, r.Captures))
			}
			return s
		}
	}
	ss.TellNews(opp, t, played("move.played", ss.From)) // held for a player who chose the daily digest (its NewsWatcher, digest.go)
	ss.Say(t, played("move.played.you")(ss.Lang))       // the mover reads "You played …"
	if err := ss.AfterPly(t); err != nil {              // the modules' PlyWatchers: takeback requests, conditional moves (module.go)
		return err
	}
	ss.ShowPosition(t)
	return nil
}

// checkMoveNumber refuses a move whose written number ("12." or "12...")
// is not the move and half the game is at, so that a reply to an old mail
// plays nothing (RULES.md §0: a move number counts pairs of plies).
func (ss *Session) checkMoveNumber(t *Table, c *grammar.MoveCommand) error {
	if c.Number == 0 {
		return nil
	}
	if c.Dots != "." && c.Dots != "..." { // "1..": neither side's form
		return ss.Refuse("err.movedots", Clip(fmt.Sprintf("%d%s", c.Number, c.Dots)), c.Number, c.Number)
	}
	wantDots := "."
	if t.Pos.Ply()%2 == 1 {
		wantDots = "..."
	}
	if c.Number != t.MoveNumber() || c.Dots != wantDots {
		return ss.Refuse("err.movenumber", Clip(fmt.Sprintf("%d%s", c.Number, c.Dots)), fmt.Sprintf("%d%s", t.MoveNumber(), wantDots))
	}
	return nil
}

// illegal refuses a move the engine does not allow, saying why; a square
// off the board also gets the board's extent.
func (ss *Session) illegal(t *Table, m engine.Move, ill *engine.IllegalMoveError) error {
	r := ss.RefusalOf("err.illegal", m, catalog.IllegalReason(ss.Lang, ill))
	if ill.Reason == engine.IllegalOffBoard {
		r.After = " " + BoardHint(ss.Lang, t)
	}
	return r
}

// WrongKingMark says in the sender's language why a move written with the
// king's "K" is refused when its piece in pos is not the king (Kd1-e1 with
// an attacker on d1: "the piece on d1 is an attacker, not the king"), as
// replaying a record does (notation.WrongKingMark); "" for a move whose
// mark, if any, is right. The mark is a claim like a capture mark, and a
// wrong claim plays nothing (docs/commands.md, Moves).
func (ss *Session) WrongKingMark(pos *engine.Position, mv *grammar.Move) string {
	pc, wrong := notation.WrongKingMark(pos, mv)
	if !wrong {
		return ""
	}
	return Tr(ss.Lang, "illegal.notking", EngineMove(mv).From, Tr(ss.Lang, "piece.a."+pc.String()))
}

// SameSquares compares written capture marks with the engine's captures.
func SameSquares(marks []grammar.Square, caps []engine.Square) bool {
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

// SquareList writes capture marks as "e2, f3".
func SquareList(marks []grammar.Square) string {
	var s []string
	for _, m := range marks {
		s = append(s, m.String())
	}
	return strings.Join(s, ", ")
}

// AvailSlack is how much later than its arrival a ply may be committed
// and still count as committed on arrival: the opponent's clock starts at
// the arrival. A later commit (the daemon was down) is stored as the
// ply's Avail and starts the opponent's clock there instead
// (CORRESPONDENCE.md §2.1); a poll interval of delay is not an outage.
const AvailSlack = time.Minute

// Arrival returns when the session's mail reached the mailbox: its IMAP
// INTERNALDATE (mailer.Message.Arrived), never its Date: header, which
// the sender writes (Decision C2). A mail without one (handed in directly),
// and every cause that is no mail, arrived now; an arrival after now (the IMAP server's clock runs ahead)
// counts as now.
func (ss *Session) Arrival() time.Time {
	var a time.Time
	if m := ss.Cause.Mail; m != nil {
		a = m.Arrived
	}
	if a.IsZero() || a.After(ss.Now) {
		return ss.Now
	}
	return a
}

// PlyTimes returns the arrival and the commit time (when notably later,
// see AvailSlack) of a ply the session's mail carries.
func (ss *Session) PlyTimes() (at, avail time.Time) {
	at = ss.Arrival()
	if ss.Now.Sub(at) >= AvailSlack {
		avail = ss.Now
	}
	return at, avail
}
