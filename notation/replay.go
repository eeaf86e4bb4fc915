package notation

import (
	"errors"
	"fmt"
	"strings"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
)

// Replay is a game record played through the engine, ply by ply: what each
// ply did, where the engine ends the game, and every way in which the
// record disagrees with the rules (RULES.md §4: every ply legal, every
// capture mark made by the engine, the engine's result on the last ply).
type Replay struct {
	Game *Game // the game replayed
	// Plies has one entry per entry of Game.Plies.
	Plies []PlyResult
	// End is the engine's outcome: where the rules end the game (its Ply
	// counts from the game's first ply; 0 for a set-up position that is
	// already decided), or the zero Outcome when the game is still running
	// after the last ply played.
	End engine.Outcome
	// Final is the position after the last ply played; nil when the game
	// could not be set up.
	Final *engine.Position
	// Legal reports that the record is a legal game as written: its rules
	// and start position are usable, every ply is legal in turn (move
	// numbers in sequence, a "K" prefix only on the king), and nothing is
	// played after the engine ends the game or after a resignation or
	// time-out.
	Legal bool
	// CapturesMatch reports that on every ply played the capture marks
	// name exactly the pieces the engine captures (a doubled mark is one
	// capture; a bare "x" means "some capture"; a captured king may be
	// left unmarked, and CSV never marks him).
	CapturesMatch bool
	// Errors lists every problem found, in the order of the plies; the
	// first is the one to report. Replay stops at an illegal move (later
	// plies are not played); after the engine has ended the game it goes
	// on from the board as it stands (with a fresh repetition history), so
	// that the rest of the record can still be read and converted.
	Errors []*Error
}

// PlyResult is what one ply of the record did.
type PlyResult struct {
	engine.PlyResult // zero when the ply was not played
	// Side is the side whose ply it is.
	Side engine.Side
	// Played reports that the engine played the ply: false for a
	// resignation or time-out, and for plies after an illegal move.
	Played bool
	// AfterEnd reports a ply played after the engine had ended the game
	// (replay went on from the board, see Replay.Errors).
	AfterEnd bool
	// King is the king's square before the ply: where he was captured
	// when Outcome.Reason is engine.ReasonKingCaptured.
	King engine.Square
}

// KingCaptured reports whether the ply captured the king.
func (p PlyResult) KingCaptured() bool {
	return p.Played && p.Outcome.Reason == engine.ReasonKingCaptured && containsSquare(p.Captures, p.King)
}

// Err returns the first problem of the replay, or nil.
func (r *Replay) Err() *Error {
	if len(r.Errors) == 0 {
		return nil
	}
	return r.Errors[0]
}

// Outcome returns how the game ended, as far as the record says and the
// engine agrees: the engine's End where the rules end the game; else, for
// a legal record, a final resignation or time-out (the other side wins;
// RULES.md §1.7), or the result the record gives with the reason its
// Termination names ("resignation", "timeout", "agreement"; NoReason for
// none), Ply being the record's last ply. It is the zero Outcome while the
// game runs. Diagrams of the final position take it (WithOutcome), so that
// a resigned game is not drawn with a side to move.
func (r *Replay) Outcome() engine.Outcome {
	if r.End.Over() {
		return r.End
	}
	g := r.Game
	n := len(g.Plies)
	if !r.Legal || r.Final == nil {
		return engine.Outcome{}
	}
	if n > 0 && g.Plies[n-1].Ply.Move == nil {
		reason := engine.ReasonResignation
		if g.Plies[n-1].Ply.Timeout {
			reason = engine.ReasonTimeout
		}
		return engine.Outcome{Result: winResult(r.Final.ToMove().Opponent()), Reason: reason, Ply: n}
	}
	var res engine.Result
	switch g.Result {
	case grammar.AttackersWin:
		res = engine.AttackersWin
	case grammar.DefendersWin:
		res = engine.DefendersWin
	case grammar.Draw:
		res = engine.Draw
	default:
		return engine.Outcome{}
	}
	reason := map[string]engine.Reason{
		"resignation": engine.ReasonResignation, "timeout": engine.ReasonTimeout, "agreement": engine.ReasonDrawAgreed,
	}[g.Termination]
	return engine.Outcome{Result: res, Reason: reason, Ply: n}
}

// Moves returns the number of moves in the record: its plies without
// resignations and time-outs.
func (g *Game) Moves() int {
	n := 0
	for _, p := range g.Plies {
		if p.Ply.Move != nil {
			n++
		}
	}
	return n
}

// Replay plays g through the engine and checks it against the rules:
// the moves (engine.Position.Play), the capture marks, a "K" prefix, the
// move numbers (native: attackers' ply first in a pair, "n..." for a lone
// defenders' ply; OpenTafl: the first mover's ply first; the first number
// is 1 unless the game starts from a set-up position), a resignation or
// time-out (last, and the other side must have won), the result (the
// engine's, where the rules end the game on the last ply), and the
// termination (a native record may not claim an end the engine does not
// see). It never fails; problems are in the result's Errors.
func (g *Game) Replay() *Replay {
	sc := g.scratch
	g.scratch = nil // a second Replay of the game has memory of its own
	r := &Replay{Game: g, Plies: sc.results(len(g.Plies)), Legal: true, CapturesMatch: true}
	if g.SetupErr != nil {
		r.fail(g.SetupErr)
		return r
	}
	pos, err := g.startPosition(sc)
	if err != nil {
		r.fail(g.startError(err))
		return r
	}
	r.End = pos.Outcome()
	st := replayState{pos: pos, first: pos.ToMove()}
	for i := range g.Plies {
		side := st.pos.ToMove()
		r.Plies[i].Side = side
		if e := r.checkNumber(g, i, side, st.first, &st.number); e != nil {
			r.add(e)
		}
		if !r.replayPly(i, side, &st) {
			return r
		}
	}
	r.Final = st.pos
	r.checkCounts()
	r.checkResult()
	if e := g.ClockErr; e != nil {
		e.Game = g.Number
		r.add(e)
	}
	return r
}

// startError is the setup error for err, the engine's refusal of g's
// start position: placed at the set-up position's tag when g has one,
// else before the first ply.
func (g *Game) startError(err error) *Error {
	e := &Error{Kind: KindSetup, Message: strings.TrimPrefix(err.Error(), "engine: "), Err: err}
	setPos(e, g.plyPos(-1))
	if line, col, ok := g.TagPos("Position"); ok && g.Setup != nil {
		e.Line, e.Col = line, col // the set-up position is what the engine refused
	}
	return e
}

// replayState is what [Game.Replay] carries from one ply to the next.
type replayState struct {
	pos      *engine.Position
	first    engine.Side // the side of the first ply
	number   int         // the expected move number of the pair being read
	afterEnd bool        // a move came after the game's end
	caps     capBuf
	squares  []engine.Square // the captured squares of all plies, one buffer
}

// replayPly replays ply i, written by side, from st.pos into r.Plies[i]:
// a resignation or time-out (only last, and not after the end), or a move
// that must be legal, whose king mark and capture marks must match the
// engine's. A move after the game's end is reported once and played on
// from the board when the engine can. It reports whether the replay goes
// on; when not, r is stopped (Replay.stop).
func (r *Replay) replayPly(i int, side engine.Side, st *replayState) bool {
	g := r.Game
	p := &g.Plies[i]
	if p.Ply.Move == nil { // a resignation or a time-out
		switch {
		case i != len(g.Plies)-1:
			// The game ended here; what follows cannot be read.
			r.add(r.plyError(i, side, KindSequence, nil, "%s before the last ply", tokenWords(p.Ply)))
			r.stop(i+1, st.pos)
			return false
		case st.pos.Outcome().Over() && !st.afterEnd:
			r.add(r.plyError(i, side, KindAfterEnd, nil, "%s after the game ended at ply %d (%s)", tokenWords(p.Ply), r.End.Ply, outcomeWords(r.End)))
		}
		return true
	}
	if st.pos.Outcome().Over() {
		if !st.afterEnd {
			st.afterEnd = true
			r.add(r.plyError(i, side, KindAfterEnd, nil, "the game ended at ply %d (%s)", r.End.Ply, outcomeWords(r.End)))
		}
		next, err := engine.NewPositionFromBoard(g.Variant, st.pos.Board(), st.pos.ToMove())
		if err != nil || next.Outcome().Over() {
			r.stop(i, st.pos)
			return false
		}
		st.pos = next
	}
	pos := st.pos
	m := p.Ply.Move
	mv := engine.Move{From: engine.SquareAt(m.From.File, m.From.Rank-1), To: engine.SquareAt(m.To.File, m.To.Rank-1)}
	if pc, wrong := WrongKingMark(pos, m); wrong {
		r.add(r.plyError(i, side, KindIllegal, nil, "the piece on %v is %s, not the king", mv.From, withArticle(pc)))
	}
	king, _ := pos.King()
	res, squares, err := pos.PlayAppend(mv, st.squares)
	st.squares = squares
	if err != nil {
		msg := err.Error()
		var ie *engine.IllegalMoveError
		if errors.As(err, &ie) {
			msg = strings.TrimPrefix(msg, "engine: "+ie.Move.String()+": ")
		}
		r.add(r.plyError(i, side, KindIllegal, err, "%s", msg))
		r.stop(i, pos)
		return false
	}
	// Field by field: assigning a struct that holds a slice costs a
	// bulk write barrier while the garbage collector marks.
	pr := &r.Plies[i]
	pr.Move, pr.Piece, pr.Outcome = res.Move, res.Piece, res.Outcome
	if len(res.Captures) > 0 {
		pr.Captures = res.Captures
	}
	pr.Side, pr.Played, pr.AfterEnd, pr.King = side, true, st.afterEnd, king
	if msg := st.caps.compare(m, res, king); msg != "" {
		r.CapturesMatch = false
		r.add(r.plyError(i, side, KindCaptures, nil, "%s", msg))
	}
	if res.Outcome.Over() && !st.afterEnd && !r.End.Over() {
		r.End = res.Outcome
	}
	return true
}

// checkCounts compares a CSV game's capture counts with its marks: the
// corpus counts the marks as written, per side (a doubled mark twice, a
// bare "x" once, the king never, since he is never marked).
func (r *Replay) checkCounts() {
	g := r.Game
	if g.CaptureCounts == nil {
		return
	}
	var marks [2]int
	for i, p := range g.Plies {
		if p.Ply.Move == nil {
			continue
		}
		for _, c := range p.Ply.Move.Captures {
			n := len(c.Pieces)
			if n == 0 {
				n = 1
			}
			marks[r.Plies[i].Side] += n
		}
	}
	if marks != *g.CaptureCounts {
		r.CapturesMatch = false
		e := &Error{Kind: KindCaptures, Filename: g.Filename, Line: g.Line, Col: g.Col, Game: g.Number,
			Message: fmt.Sprintf("the capture counts say %d by the attackers and %d by the defenders, the marks %d and %d",
				g.CaptureCounts[0], g.CaptureCounts[1], marks[0], marks[1])}
		r.add(e)
	}
}

// checkNumber checks the move number and pair half of ply i, written by
// side in a game whose first ply was first's; number is the expected
// number of the current pair (0 before the first ply).
func (r *Replay) checkNumber(g *Game, i int, side, first engine.Side, number *int) *Error {
	var lead engine.Side // the side whose ply opens a numbered pair
	switch g.Format {
	case FormatNative:
		lead = engine.Attackers
	case FormatOTG:
		lead = first
	default:
		return nil
	}
	p := &g.Plies[i]
	switch {
	case i == 0 && g.Setup != nil:
		*number = p.Number // a set-up position may continue a game
	case i == 0:
		*number = 1
	case side == lead:
		*number++
	}
	if p.Number != *number {
		e := r.plyError(i, side, KindSequence, nil, "move number %d, expected %d", p.Number, *number)
		*number = p.Number // count on from what is written
		return e
	}
	if p.Second != (side != lead) {
		half := "first"
		if side != lead {
			half = "second"
		}
		how := fmt.Sprintf("%d.", p.Number)
		if g.Format == FormatNative && half == "second" {
			how = fmt.Sprintf("%d...", p.Number)
		}
		return r.plyError(i, side, KindSequence, nil, "the %s' ply belongs in the %s half of its pair (%s)", side, half, how)
	}
	return nil
}

// checkResult compares the record's end (result, termination, a final
// resignation or time-out) with the engine's, after the last ply.
func (r *Replay) checkResult() {
	g := r.Game
	if !r.Legal || len(g.Plies) == 0 && !r.End.Over() {
		return
	}
	last := len(g.Plies) - 1
	var token *grammar.Ply
	if last >= 0 && g.Plies[last].Ply.Move == nil {
		token = g.Plies[last].Ply
	}
	side := r.Final.ToMove()
	recorded := g.Result
	switch {
	case r.End.Over():
		want := outcomeOf(r.End.Result)
		if token != nil {
			return // reported as a ply after the end
		}
		// OpenTafl's "result:?" (puzzles, studies) leaves the result
		// open: there is no recorded result to disagree with.
		unknown := recorded == grammar.Unfinished && g.Format == FormatOTG
		if recorded != want && !unknown {
			r.add(r.resultError(last, "the engine ends the game at ply %d (%s) but the record says %s", r.End.Ply, outcomeWords(r.End), recordWords(recorded)))
		}
		if term := r.statedTermination(); term != "" && term != terminationOf(r.End.Reason) {
			r.add(r.resultError(last, "the engine ends the game at ply %d (%s) but the record's Termination says %s", r.End.Ply, outcomeWords(r.End), term))
		}
	case token != nil:
		want := outcomeOf(winResult(side.Opponent()))
		if recorded != want {
			r.add(r.resultError(last, "the %s %s, so the %s won, but the record says %s", side, tokenVerb(token), side.Opponent(), recordWords(recorded)))
		}
		if term := r.statedTermination(); term != "" && term != tokenTermination(token) {
			r.add(r.resultError(last, "the %s %s, but the record's Termination says %s", side, tokenVerb(token), term))
		}
	default:
		if claim := engineTerminations[g.Termination]; claim != engine.NoReason {
			r.add(r.resultError(last, "the record says the game ended by %s; the engine does not end it", g.Termination))
		}
	}
}

// statedTermination is the Termination a native record states, to be
// checked against how the record and the engine end the game; "" for
// none and for other formats, whose free-text terminations (OpenTafl's
// "Black resigns") are read loosely and replaced by the engine's when
// converted (docs/notation.md).
func (r *Replay) statedTermination() string {
	if r.Game.Format != FormatNative {
		return ""
	}
	return r.Game.Termination
}

// tokenTermination is the native Termination of a final resignation or
// time-out ply.
func tokenTermination(token *grammar.Ply) string {
	if token.Timeout {
		return "timeout"
	}
	return "resignation"
}

// engineTerminations maps the native Termination values that name a rule
// of RULES.md §1.6 to the engine's reasons.
var engineTerminations = map[string]engine.Reason{
	"king captured": engine.ReasonKingCaptured, "king escaped": engine.ReasonEscape,
	"edge fort": engine.ReasonEdgeFort, "encirclement": engine.ReasonEncirclement,
	"repetition": engine.ReasonRepetition, "no legal move": engine.ReasonNoLegalMove,
}

// add records a problem; all but capture, result and clock problems make
// the record illegal.
func (r *Replay) add(e *Error) {
	if e.Kind != KindCaptures && e.Kind != KindResult && e.Kind != KindClock {
		r.Legal = false
	}
	r.Errors = append(r.Errors, e)
}

// fail records a problem that prevents any replay.
func (r *Replay) fail(e *Error) {
	e.Game = r.Game.Number
	if e.Filename == "" {
		e.Filename = r.Game.Filename
	}
	r.add(e)
	r.CapturesMatch = false
}

// stop ends the replay before ply i, in position pos: that ply and the
// rest are not played.
func (r *Replay) stop(i int, pos *engine.Position) {
	for j := max(i, 1); j < len(r.Plies); j++ {
		r.Plies[j].Side = r.Plies[j-1].Side.Opponent()
	}
	r.Final = pos
}

// plyError returns an *Error about ply i of the game.
func (r *Replay) plyError(i int, side engine.Side, k Kind, cause error, format string, args ...any) *Error {
	g := r.Game
	e := &Error{Kind: k, Game: g.Number, Ply: i + 1, Side: side, Move: g.Plies[i].Text(), Message: fmt.Sprintf(format, args...), Err: cause}
	setPos(e, g.plyPos(i))
	if e.Filename == "" {
		e.Filename = g.Filename
	}
	return e
}

// resultError returns a KindResult *Error placed at the last ply (or the
// game, without plies).
func (r *Replay) resultError(last int, format string, args ...any) *Error {
	if last < 0 {
		e := &Error{Kind: KindResult, Game: r.Game.Number, Message: fmt.Sprintf(format, args...)}
		setPos(e, r.Game.plyPos(-1))
		return e
	}
	return r.plyError(last, r.Plies[last].Side, KindResult, nil, format, args...)
}

// capBuf holds scratch slices for comparing capture marks, so that a
// replay allocates nothing per ply for it.
type capBuf struct{ marked, engine []engine.Square }

// compare returns "" when the marks of m name what res captured, or a
// sentence saying how they differ. king is the king's square before the
// ply: where he stands if the ply captures him.
func (c *capBuf) compare(m *grammar.Move, res engine.PlyResult, king engine.Square) string {
	if len(m.Captures) == 0 && len(res.Captures) == 0 {
		return "" // most plies: no mark, no capture
	}
	c.marked, c.engine = c.marked[:0], append(c.engine[:0], res.Captures...)
	bare, kingMark := false, false
	var kingMarkSq *engine.Square
	for _, cp := range m.Captures {
		if len(cp.Pieces) == 0 {
			bare = true
		}
		for _, p := range cp.Pieces {
			if p.King {
				kingMark = true
				if p.Square != nil {
					s := engine.SquareAt(p.Square.File, p.Square.Rank-1)
					kingMarkSq = &s
				}
				continue
			}
			s := engine.SquareAt(p.Square.File, p.Square.Rank-1)
			if !containsSquare(c.marked, s) {
				c.marked = append(c.marked, s)
			}
		}
	}
	if res.Outcome.Reason == engine.ReasonKingCaptured && containsSquare(c.engine, king) {
		// A captured king may be marked (xK, xKc5, or plain xc5) or not.
		if kingMarkSq != nil && *kingMarkSq != king {
			return fmt.Sprintf("marks the king captured on %v, but the engine captures him on %v", *kingMarkSq, king)
		}
		c.engine = removeSquare(c.engine, king)
		c.marked = removeSquare(c.marked, king)
		if bare && len(c.marked) == 0 {
			return "" // "x" for the king, or for him and others
		}
	} else if kingMark {
		return "marks the king captured, but the engine does not capture him"
	}
	if bare && len(c.marked) == 0 {
		if len(c.engine) == 0 {
			return "marks a capture (\"x\"), but the engine captures nothing"
		}
		return ""
	}
	if sameSquares(c.marked, c.engine) {
		return ""
	}
	return fmt.Sprintf("marks %s, but the engine captures %s", squareWords(c.marked), squareWords(c.engine))
}

func containsSquare(s []engine.Square, x engine.Square) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

func removeSquare(s []engine.Square, x engine.Square) []engine.Square {
	out := s[:0]
	for _, y := range s {
		if y != x {
			out = append(out, y)
		}
	}
	return out
}

// sameSquares reports whether a and b hold the same squares (a has no
// duplicates; b none either: the engine captures a square once).
func sameSquares(a, b []engine.Square) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !containsSquare(b, x) {
			return false
		}
	}
	return true
}

// squareWords lists squares for a message: "nothing", "e5", "e5 and f4".
func squareWords(s []engine.Square) string {
	switch len(s) {
	case 0:
		return "nothing"
	case 1:
		return s[0].String()
	}
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = x.String()
	}
	return strings.Join(parts[:len(s)-1], ", ") + " and " + parts[len(s)-1]
}

// WrongKingMark reports a move written with the king's "K" (Kd1-e1) whose
// from-square holds another piece in pos: it returns that piece (an
// attacker or a defender) and true. A move without the mark, one whose
// from-square holds the king, and one whose from-square is empty or off the
// board (the engine refuses those itself) give false. Replay reports such a
// ply as KindIllegal; the referee refuses such a move by mail the same way
// (docs/notation.md, "the K prefix"; docs/commands.md, Moves).
func WrongKingMark(pos *engine.Position, m *grammar.Move) (engine.Piece, bool) {
	if m == nil || !m.King || m.From == nil {
		return engine.Empty, false
	}
	pc := pos.At(engine.SquareAt(m.From.File, m.From.Rank-1)) // Empty off the board
	return pc, pc != engine.King && pc != engine.Empty
}

// withArticle returns "an attacker", "a defender", "the king".
func withArticle(p engine.Piece) string {
	switch p {
	case engine.Attacker:
		return "an attacker"
	case engine.King:
		return "the king"
	}
	return "a " + p.String()
}

// outcomeWords says an engine outcome: "attackers win: king captured".
func outcomeWords(o engine.Outcome) string {
	return resultWords(o.Result) + ": " + o.Reason.String()
}

// recordWords says a record's result: "the attackers won", "a draw",
// "the game goes on".
func recordWords(o grammar.Outcome) string {
	switch o {
	case grammar.AttackersWin:
		return "the attackers won"
	case grammar.DefendersWin:
		return "the defenders won"
	case grammar.Draw:
		return "a draw"
	}
	return "the game goes on"
}

// tokenWords names a resignation or time-out ply.
func tokenWords(p *grammar.Ply) string {
	if p.Timeout {
		return "a time-out"
	}
	return "a resignation"
}

// tokenVerb says what the side to move did: "resign", "lose on time".
func tokenVerb(p *grammar.Ply) string {
	if p.Timeout {
		return "lose on time"
	}
	return "resign"
}

// outcomeOf converts an engine result to the grammar's outcome.
func outcomeOf(r engine.Result) grammar.Outcome {
	switch r {
	case engine.AttackersWin:
		return grammar.AttackersWin
	case engine.DefendersWin:
		return grammar.DefendersWin
	case engine.Draw:
		return grammar.Draw
	}
	return grammar.Unfinished
}

// winResult returns the engine result "s wins".
func winResult(s engine.Side) engine.Result {
	if s == engine.Attackers {
		return engine.AttackersWin
	}
	return engine.DefendersWin
}

// PositionAt returns the position after the first n plies of the record
// (0: the start position) as the replay saw it, and the result of ply n
// (the zero PlyResult for n = 0). Resignations and time-outs count as
// plies that change nothing. After the engine has ended the game the
// position is the board played on from, as Replay does. It fails when n
// is out of range or beyond the plies the replay could play.
func (r *Replay) PositionAt(n int) (*engine.Position, PlyResult, error) {
	g := r.Game
	if n < 0 || n > len(g.Plies) {
		return nil, PlyResult{}, fmt.Errorf("notation: ply %d is not in the game (it has %d plies)", n, len(g.Plies))
	}
	if g.Variant == nil {
		return nil, PlyResult{}, canWrite(r)
	}
	pos, err := g.startPosition(nil)
	if err != nil {
		return nil, PlyResult{}, err
	}
	var last PlyResult
	for i := 0; i < n; i++ {
		p := r.Plies[i]
		last = p
		if g.Plies[i].Ply.Move == nil {
			continue
		}
		if !p.Played {
			return nil, PlyResult{}, fmt.Errorf("notation: ply %d was not played (replay stopped at an illegal ply)", i+1)
		}
		if pos.Outcome().Over() {
			if pos, err = engine.NewPositionFromBoard(g.Variant, pos.Board(), pos.ToMove()); err != nil {
				return nil, PlyResult{}, err
			}
		}
		if _, err := pos.Play(p.Move); err != nil {
			return nil, PlyResult{}, err
		}
	}
	return pos, last, nil
}

// SetTimeout records that the game was lost on time (CORRESPONDENCE.md
// §2.6, §5), as package clock finds from the record's times: loser ran out
// of time after the first n plies of the record (n counts moves, as in
// the record's order; 0 when the first mover never moved in time). The
// time-out ends the game unless the rules ended it on or before ply n;
// then SetTimeout changes nothing and returns false. Otherwise End
// becomes the time-out (the loser's opponent wins, engine.ReasonTimeout,
// Ply n), every move after ply n is reported once as played after the
// end (KindAfterEnd, the record is then not Legal), and when checkResult
// is true a finished result of the record other than the time-out's is
// reported (KindResult; pass false when judging a pending ply at a moment
// the record could not know, validate --at).
func (r *Replay) SetTimeout(loser engine.Side, n int, checkResult bool) bool {
	if r.End.Over() && r.End.Ply <= n {
		return false
	}
	r.End = engine.Outcome{Result: winResult(loser.Opponent()), Reason: engine.ReasonTimeout, Ply: n}
	g := r.Game
	for i := n; i < len(g.Plies) && i < len(r.Plies); i++ {
		if g.Plies[i].Ply.Move == nil {
			continue
		}
		r.add(r.plyError(i, r.Plies[i].Side, KindAfterEnd, nil, "the game ended at ply %d (%s)", n, outcomeWords(r.End)))
		break
	}
	if want := outcomeOf(r.End.Result); checkResult && g.Result != grammar.Unfinished && g.Result != want {
		r.add(r.resultError(len(g.Plies)-1, "the %s lost on time after ply %d, so the %s won, but the record says %s", loser, n, loser.Opponent(), recordWords(g.Result)))
	}
	return true
}
