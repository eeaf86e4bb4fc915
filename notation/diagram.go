package notation

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/taflmail/taflmail/engine"
)

// DiagramOption changes what a diagram shows.
type DiagramOption func(*diagramConfig)

type diagramConfig struct {
	last     *engine.Move
	captured map[engine.Square]bool
	legend   bool
	toMove   bool
	words    DiagramWords
	outcome  engine.Outcome // from WithOutcome; zero: the position's own
}

// newDiagramConfig applies opts to the defaults: legend and side to move
// shown, nothing marked, English words.
func newDiagramConfig(opts []DiagramOption) diagramConfig {
	c := diagramConfig{captured: map[engine.Square]bool{}, legend: true, toMove: true}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// WithLastMove marks the from- and to-square of the last ply.
func WithLastMove(m engine.Move) DiagramOption {
	return func(c *diagramConfig) { c.last = &m }
}

// WithCaptures marks the squares whose pieces the last ply captured.
func WithCaptures(squares ...engine.Square) DiagramOption {
	return func(c *diagramConfig) {
		for _, s := range squares {
			c.captured[s] = true
		}
	}
}

// WithoutLegend leaves out the legend lines under the board.
func WithoutLegend() DiagramOption { return func(c *diagramConfig) { c.legend = false } }

// WithoutSideToMove leaves out the line that says whose ply is next.
func WithoutSideToMove() DiagramOption { return func(c *diagramConfig) { c.toMove = false } }

// WithOutcome says how the game ended when the board cannot show it: a
// resignation, a time-out or a draw by agreement (RULES.md §1.7), which
// the engine does not see in the position (Replay.Outcome gives it for a
// record). The last line then reads "game over: defenders win
// (resignation)" instead of naming the side to move. The zero Outcome (a
// game still running) changes nothing; the position's own outcome, where
// the rules ended the game, is shown without this option.
func WithOutcome(o engine.Outcome) DiagramOption {
	return func(c *diagramConfig) { c.outcome = o }
}

// DiagramSettings is what a list of DiagramOptions asks a diagram to show,
// for writers outside this package (notation/picture).
type DiagramSettings struct {
	// LastMove is the last ply to mark (WithLastMove), or nil.
	LastMove *engine.Move
	// Captured are the squares the last ply captured on (WithCaptures), in
	// Square order, without repeats; they may lie off the board.
	Captured []engine.Square
	// Legend: draw the legend lines (false after WithoutLegend).
	Legend bool
	// SideToMove: draw the line that says whose ply is next or how the
	// game ended (false after WithoutSideToMove).
	SideToMove bool
	// Outcome is the end WithOutcome gave; the zero Outcome when none.
	Outcome engine.Outcome
	// Words are the legend words (WithWords), every field filled.
	Words DiagramWords
}

// Settings applies opts to the defaults (legend and side to move shown,
// nothing marked, English words) and returns the result.
func Settings(opts ...DiagramOption) DiagramSettings {
	return newDiagramConfig(opts).settings()
}

func (c diagramConfig) settings() DiagramSettings {
	s := DiagramSettings{LastMove: c.last, Legend: c.legend, SideToMove: c.toMove, Outcome: c.outcome, Words: c.words.filled()}
	for sq := range c.captured {
		s.Captured = append(s.Captured, sq)
	}
	slices.Sort(s.Captured)
	return s
}

// End returns how the game on p has ended: the outcome WithOutcome gave
// when there is one, else p's own (the zero Outcome while it runs).
func (s DiagramSettings) End(p *engine.Position) engine.Outcome {
	if s.Outcome.Over() {
		return s.Outcome
	}
	return p.Outcome()
}

// Status returns the last line of a diagram of p, without indentation, in
// s.Words: "attackers to move", or "game over: defenders win
// (resignation)" once the game has ended (End). An end without a reason
// (a record that gives only its result) leaves out the reason and the
// " ()" around it.
func (s DiagramSettings) Status(p *engine.Position) string {
	w := s.Words
	o := s.End(p)
	if !o.Over() {
		return fmt.Sprintf(w.ToMove, w.side(p.ToMove()))
	}
	if o.Reason == engine.NoReason {
		return strings.TrimSuffix(fmt.Sprintf(w.GameOver, w.result(o.Result), ""), " ()")
	}
	return fmt.Sprintf(w.GameOver, w.result(o.Result), w.reason(o.Reason))
}

// DiagramWords are the words of the legend lines under a text diagram
// (WriteASCII, WriteUnicode). notation knows no languages: a caller writing
// for readers of another language passes its own words with WithWords. A
// field left empty, and a reason missing from Reasons, keeps its English
// default (EnglishDiagramWords).
//
// The format fields are fmt formats whose %s verbs are filled in the order
// given; a translation may reword the sentence around them but must keep
// the verbs and their order.
type DiagramWords struct {
	// Attacker, Defender, King, Throne and Corner name the glyphs in the
	// first legend line: "A attacker  D defender  K king  + throne  # corner"
	// (throne and corner only when the board shows them, WriteASCII).
	Attacker, Defender, King, Throne, Corner string
	// LastPly is the format of the last-ply legend; its verbs are the ply
	// ("d1-e1"), the from-square marks "()" and the to-square marks "[]":
	// "last ply %s: %s from, %s to".
	LastPly string
	// Captured is the format of the capture legend; its verb is the capture
	// glyph: "%s captured".
	Captured string
	// ToMove is the format of the side-to-move line; its verb is Attackers
	// or Defenders: "%s to move".
	ToMove string
	// Attackers and Defenders name the sides in ToMove.
	Attackers, Defenders string
	// GameOver is the format of the line that replaces ToMove at the end of
	// a game; its verbs are the result (AttackersWin, DefendersWin, Draw)
	// and the reason (Reasons): "game over: %s (%s)".
	GameOver string
	// AttackersWin, DefendersWin and Draw name the results in GameOver.
	AttackersWin, DefendersWin, Draw string
	// Reasons name the ways a game ends (RULES.md §1.6) in GameOver; the
	// default is engine.Reason.String(), e.g. "king captured".
	Reasons map[engine.Reason]string
}

// EnglishDiagramWords returns the words diagrams use by default.
func EnglishDiagramWords() DiagramWords {
	return DiagramWords{
		Attacker: "attacker", Defender: "defender", King: "king", Throne: "throne", Corner: "corner",
		LastPly:   "last ply %s: %s from, %s to",
		Captured:  "%s captured",
		ToMove:    "%s to move",
		Attackers: engine.Attackers.String(), Defenders: engine.Defenders.String(),
		GameOver:     "game over: %s (%s)",
		AttackersWin: resultWords(engine.AttackersWin), DefendersWin: resultWords(engine.DefendersWin),
		Draw: resultWords(engine.Draw),
	}
}

// WithWords writes the legend lines with w instead of the English words;
// empty fields of w keep the English ones.
func WithWords(w DiagramWords) DiagramOption { return func(c *diagramConfig) { c.words = w } }

// filled returns w with every empty field taken from the English words.
func (w DiagramWords) filled() DiagramWords {
	en := EnglishDiagramWords()
	for _, f := range []struct {
		dst *string
		def string
	}{
		{&w.Attacker, en.Attacker}, {&w.Defender, en.Defender}, {&w.King, en.King},
		{&w.Throne, en.Throne}, {&w.Corner, en.Corner}, {&w.LastPly, en.LastPly},
		{&w.Captured, en.Captured}, {&w.ToMove, en.ToMove}, {&w.Attackers, en.Attackers},
		{&w.Defenders, en.Defenders}, {&w.GameOver, en.GameOver}, {&w.AttackersWin, en.AttackersWin},
		{&w.DefendersWin, en.DefendersWin}, {&w.Draw, en.Draw},
	} {
		if *f.dst == "" {
			*f.dst = f.def
		}
	}
	return w
}

// side names s in the side-to-move line.
func (w DiagramWords) side(s engine.Side) string {
	if s == engine.Defenders {
		return w.Defenders
	}
	return w.Attackers
}

// result names r in the game-over line.
func (w DiagramWords) result(r engine.Result) string {
	switch r {
	case engine.AttackersWin:
		return w.AttackersWin
	case engine.DefendersWin:
		return w.DefendersWin
	case engine.Draw:
		return w.Draw
	}
	return resultWords(r)
}

// reason names r in the game-over line.
func (w DiagramWords) reason(r engine.Reason) string {
	if s, ok := w.Reasons[r]; ok && s != "" {
		return s
	}
	return r.String()
}

// glyphs is the character set of one diagram style.
type glyphs struct {
	attacker, defender, king, empty, throne, corner, captured string
	fromOpen, fromClose, toOpen, toClose                      string
}

var (
	asciiGlyphs = glyphs{
		attacker: "A", defender: "D", king: "K", empty: ".", throne: "+", corner: "#", captured: "x",
		fromOpen: "(", fromClose: ")", toOpen: "[", toClose: "]",
	}
	unicodeGlyphs = glyphs{
		attacker: "●", defender: "○", king: "♔", empty: "·", throne: "⊕", corner: "⊠", captured: "×",
		fromOpen: "(", fromClose: ")", toOpen: "[", toClose: "]",
	}
)

// WriteASCII draws p as 7-bit ASCII text, the board of every mail reply:
// files a.. above and below, ranks on both sides, three columns per square
// (so 19×19 fits in 64 columns), empty throne '+' and corners '#', the last
// ply's from-square in parentheses and its to-square in brackets, captured
// squares 'x', then a legend and the side to move, in English unless
// WithWords gives other words. The legend names the throne and the
// corners only when the board shows their glyph: a throne under the king
// is not listed. It returns the first write error.
func WriteASCII(w io.Writer, p *engine.Position, opts ...DiagramOption) error {
	return writeDiagram(w, p, asciiGlyphs, opts)
}

// WriteUnicode draws p like WriteASCII with Unicode pieces for terminals:
// ● attacker, ○ defender, ♔ king, ⊕ throne, ⊠ corner, × captured.
func WriteUnicode(w io.Writer, p *engine.Position, opts ...DiagramOption) error {
	return writeDiagram(w, p, unicodeGlyphs, opts)
}

// writeDiagram draws p in the glyphs gl as WriteASCII describes: the
// board, the legend lines when c.legend, the side to move or the end of
// the game when c.toMove; it writes them in one go, with no line ending
// in spaces, and returns the write error.
func writeDiagram(w io.Writer, p *engine.Position, gl glyphs, opts []DiagramOption) error {
	c := newDiagramConfig(opts)
	var sb strings.Builder
	drew := writeDiagramBoard(&sb, p, &gl, c)
	if c.legend {
		writeDiagramLegend(&sb, &gl, c, drew)
	}
	if c.toMove {
		sb.WriteString("  " + c.settings().Status(p) + "\n")
	}
	return writeTrimmed(w, sb.String())
}

// drawnSquares says which restricted squares a board showed with their
// own glyph: the legend names only those.
type drawnSquares struct{ throne, corner bool }

// writeDiagramBoard draws the board of p onto sb: the file letters above
// and below, a rank number on both sides of each rank (the top rank
// first), and three columns per square, the square's glyph between the
// marks of the last ply. It reports which restricted squares it drew.
func writeDiagramBoard(sb *strings.Builder, p *engine.Position, gl *glyphs, c diagramConfig) drawnSquares {
	n := p.Size()
	var drew drawnSquares
	writeFileLetters(sb, n)
	for r := n - 1; r >= 0; r-- {
		fmt.Fprintf(sb, "%3d ", r+1)
		for f := 0; f < n; f++ {
			s := engine.SquareAt(f, r)
			body, throne, corner := squareGlyph(p, s, gl, c.captured)
			drew.throne = drew.throne || throne
			drew.corner = drew.corner || corner
			open, close := lastPlyMarks(s, gl, c.last)
			sb.WriteString(open + body + close)
		}
		fmt.Fprintf(sb, " %d\n", r+1)
	}
	writeFileLetters(sb, n)
	return drew
}

// writeFileLetters writes the line of file letters a.. of an n×n board,
// each centred over its three columns.
func writeFileLetters(sb *strings.Builder, n int) {
	sb.WriteString("    ")
	for f := 0; f < n; f++ {
		sb.WriteString(" " + string(rune('a'+f)) + " ")
	}
	sb.WriteString("\n")
}

// squareGlyph returns the glyph of square s of p: its piece; on an empty
// square the capture mark where captured says so, else the throne, a
// corner (where the variant has corners) or the empty glyph, the first
// that applies. throne and corner report that it returned their glyph.
func squareGlyph(p *engine.Position, s engine.Square, gl *glyphs, captured map[engine.Square]bool) (glyph string, throne, corner bool) {
	switch p.At(s) {
	case engine.Attacker:
		return gl.attacker, false, false
	case engine.Defender:
		return gl.defender, false, false
	case engine.King:
		return gl.king, false, false
	}
	v := p.Variant()
	if captured[s] {
		return gl.captured, false, false
	}
	if t, ok := v.ThroneSquare(); ok && s == t {
		return gl.throne, true, false
	}
	if v.Corners.Present && v.IsCorner(s) {
		return gl.corner, false, true
	}
	return gl.empty, false, false
}

// lastPlyMarks returns the characters either side of square s: the
// from-square marks or the to-square marks of the last ply, or spaces.
// last is nil when no ply is marked.
func lastPlyMarks(s engine.Square, gl *glyphs, last *engine.Move) (open, close string) {
	switch {
	case last != nil && s == last.To:
		return gl.toOpen, gl.toClose
	case last != nil && s == last.From:
		return gl.fromOpen, gl.fromClose
	}
	return " ", " "
}

// writeDiagramLegend writes the legend lines onto sb in c's words: the
// glyphs of the pieces, and of the throne and the corners when drew says
// the board showed them; then, when c marks a last ply or captures, a
// line explaining those marks.
func writeDiagramLegend(sb *strings.Builder, gl *glyphs, c diagramConfig, drew drawnSquares) {
	words := c.words.filled()
	fmt.Fprintf(sb, "  %s %s  %s %s  %s %s", gl.attacker, words.Attacker, gl.defender, words.Defender, gl.king, words.King)
	if drew.throne {
		fmt.Fprintf(sb, "  %s %s", gl.throne, words.Throne)
	}
	if drew.corner {
		fmt.Fprintf(sb, "  %s %s", gl.corner, words.Corner)
	}
	sb.WriteString("\n")
	if c.last == nil && len(c.captured) == 0 {
		return
	}
	sb.WriteString("  ")
	if c.last != nil {
		fmt.Fprintf(sb, words.LastPly, c.last, gl.fromOpen+gl.fromClose, gl.toOpen+gl.toClose)
	}
	if len(c.captured) > 0 {
		if c.last != nil {
			sb.WriteString("  ")
		}
		fmt.Fprintf(sb, words.Captured, gl.captured)
	}
	sb.WriteString("\n")
}

// writeTrimmed writes text to w with the spaces at the end of each line
// removed, and returns the write error.
func writeTrimmed(w io.Writer, text string) error {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n"))
	return err
}

// resultWords says a result in a sentence: "attackers win", "draw".
func resultWords(r engine.Result) string {
	switch r {
	case engine.AttackersWin:
		return "attackers win"
	case engine.DefendersWin:
		return "defenders win"
	case engine.Draw:
		return "draw"
	}
	return "ongoing"
}
