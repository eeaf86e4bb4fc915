package engine

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// Rule tests of RULES.md §1 (movement, custodial capture, hostile squares,
// the king's arms and capture modes, the edge rules, shieldwall) and of the
// Decisions that change them (V1, V3, S1, the Copenhagen notes). Every row
// draws a small position (7×7 unless the variant's own geometry matters),
// plays one ply and states the captured squares and the outcome. The game
// end conditions of §1.6 are in end_test.go.
//
// Diagrams are raw strings, one line per rank from the top rank down to
// rank 1, one character per file from a; blank lines and spaces are
// ignored. '.' is an empty square (throne and corners included), 't' an
// attacker, 'T' a defender, 'K' the king. On 7×7 the throne is d4 and the
// corners are a1, a7, g1, g7; on 9×9 the throne is e5; on 11×11 it is f6.

// diagramRows turns a raw-string diagram into the rows diagram() reads.
func diagramRows(s string) []string {
	var rows []string
	for _, line := range strings.Split(s, "\n") {
		line = strings.Join(strings.Fields(line), "")
		if line != "" {
			rows = append(rows, line)
		}
	}
	return rows
}

// Variant edits for rows that need a rule no built-in variant has. Each
// changes one field of a built-in variant, as an OTN rules string would.
var (
	// editUnarmed: the king neither captures nor helps capture (§1.4).
	editUnarmed = func(v *Variant) { v.KingArms = KingUnarmed }
	// editHammerOnly: the king captures only as the moving piece (§1.4).
	editHammerOnly = func(v *Variant) { v.KingArms = KingHammerOnly }
	// editAnvilOnly: the king captures only as the stationary piece (§1.4).
	editAnvilOnly = func(v *Variant) { v.KingArms = KingAnvilOnly }
	// editThroneKingPasses: only the king may pass the empty throne (§1.1).
	editThroneKingPasses = func(v *Variant) { v.Throne.Pass = OnlyKing }
	// editCornersBarred: nobody, not even the king, may stop on a corner.
	// With every built-in variant a king whose region F holds more than
	// his own square can always move; this edit is the only way to show
	// §1.6.3 (b) on its own.
	editCornersBarred = func(v *Variant) { v.Corners.Stop = NoPieces }
)

// rowPosition builds a test row's position: diagram() under the built-in
// variant rules, first changed by edit when edit is not nil.
func rowPosition(t testing.TB, rules string, edit func(*Variant), toMove Side, board string) *Position {
	t.Helper()
	rows := diagramRows(board)
	if edit == nil {
		return diagram(t, rules, toMove, rows...)
	}
	v, ok := Lookup(rules)
	if !ok {
		t.Fatalf("no variant %q", rules)
	}
	edit(v)
	v.Size, v.Start = len(rows), rows
	b, err := v.StartBoard()
	if err != nil {
		t.Fatalf("diagram: %v", err)
	}
	p, err := NewPositionFromBoard(v, b, toMove)
	if err != nil {
		t.Fatalf("diagram: %v", err)
	}
	return p
}

// capturedNames returns the captured squares of a ply, sorted (RULES.md
// does not order the captures of one ply).
func capturedNames(r PlyResult) []string {
	out := []string{}
	for _, s := range r.Captures {
		out = append(out, s.String())
	}
	slices.Sort(out)
	return out
}

func sortedNames(names []string) []string {
	out := append([]string{}, names...)
	slices.Sort(out)
	return out
}

// boardAfter returns draw() of the position `before` (a draw() string of
// a size×size board) after moving m and emptying the captured squares.
func boardAfter(before string, size int, m Move, caps []Square) string {
	lines := strings.Split(strings.TrimSuffix(before, "\n"), "\n")
	cells := make([][]byte, len(lines))
	for i, l := range lines {
		cells[i] = []byte(l)
	}
	at := func(s Square) *byte { return &cells[size-1-s.Rank()][s.File()] }
	*at(m.To), *at(m.From) = *at(m.From), '.'
	for _, s := range caps {
		*at(s) = '.'
	}
	var sb strings.Builder
	for _, l := range cells {
		sb.Write(l)
		sb.WriteByte('\n')
	}
	return sb.String()
}

// plyChecked plays the legal ply m on p with Play and checks the
// position's invariants around it: m is among LegalMoves; Make gives the
// same board, key and outcome as Play, and Unmake restores draw(), Key(),
// the outcome, the side to move, the ply count and the repetition count;
// after the ply the incremental key equals the key of the same board set
// up afresh, the ply count has grown by one and the side to move changed.
func plyChecked(t testing.TB, p *Position, m Move) PlyResult {
	t.Helper()
	if err := p.Check(m); err != nil {
		t.Fatalf("Check(%v) = %v, want a legal move in\n%s", m, err, draw(p))
	}
	if !slices.Contains(p.LegalMoves(nil), m) {
		t.Errorf("LegalMoves does not contain %v, which Check accepts, in\n%s", m, draw(p))
	}
	before, key, out, ply, side, reps := draw(p), p.Key(), p.Outcome(), p.Ply(), p.ToMove(), p.Repetitions()

	u := p.Make(m)
	made, madeKey, madeOut := draw(p), p.Key(), p.Outcome()
	p.Unmake(u)
	if got := draw(p); got != before {
		t.Errorf("after Make(%v)+Unmake the board is\n%swant\n%s", m, got, before)
	}
	if p.Key() != key || p.Outcome() != out || p.Ply() != ply || p.ToMove() != side || p.Repetitions() != reps {
		t.Errorf("after Make(%v)+Unmake: key %x outcome %+v ply %d to move %v repetitions %d, want %x %+v %d %v %d",
			m, p.Key(), p.Outcome(), p.Ply(), p.ToMove(), p.Repetitions(), key, out, ply, side, reps)
	}

	// Every other legal ply, made and taken back, restores the position too
	// (this reaches captures, and repetition counts above one, that the
	// played ply may not).
	for _, o := range p.LegalMoves(nil) {
		u := p.Make(o)
		p.Unmake(u)
		if draw(p) != before || p.Key() != key || p.Outcome() != out || p.Ply() != ply || p.ToMove() != side || p.Repetitions() != reps {
			t.Errorf("after Make(%v)+Unmake: board\n%skey %x outcome %+v ply %d to move %v repetitions %d, want\n%s%x %+v %d %v %d",
				o, draw(p), p.Key(), p.Outcome(), p.Ply(), p.ToMove(), p.Repetitions(), before, key, out, ply, side, reps)
			break
		}
	}

	r, err := p.Play(m)
	if err != nil {
		t.Fatalf("Play(%v) = %v after Check accepted it", m, err)
	}
	if got := draw(p); got != made {
		t.Errorf("Play(%v) gives\n%sMake gave\n%s", m, got, made)
	}
	if p.Key() != madeKey || r.Outcome != madeOut || p.Outcome() != r.Outcome {
		t.Errorf("Play(%v): key %x outcome %+v (Outcome() %+v); Make gave key %x outcome %+v",
			m, p.Key(), r.Outcome, p.Outcome(), madeKey, madeOut)
	}
	if r.Move != m || r.Piece != pieceOf(before, p.Size(), m.From) {
		t.Errorf("Play(%v) result: move %v piece %v", m, r.Move, r.Piece)
	}
	if p.Ply() != ply+1 || p.ToMove() != side.Opponent() {
		t.Errorf("after Play(%v): ply %d, %v to move; want ply %d, %v to move", m, p.Ply(), p.ToMove(), ply+1, side.Opponent())
	}
	if want := boardAfter(before, p.Size(), m, r.Captures); draw(p) != want {
		t.Errorf("Play(%v) reported captures %v but the board is\n%swant\n%s", m, r.Captures, draw(p), want)
	}
	if _, ok := p.King(); ok {
		fresh, err := NewPositionFromBoard(p.Variant(), p.Board(), p.ToMove())
		if err != nil {
			t.Errorf("setting up the board after %v: %v", m, err)
		} else if fresh.Key() != p.Key() {
			t.Errorf("after %v the incremental key is %x, the same board set up afresh has %x", m, p.Key(), fresh.Key())
		}
	}
	return r
}

// pieceOf reads the piece on s from a draw() string.
func pieceOf(drawn string, size int, s Square) Piece {
	lines := strings.Split(drawn, "\n")
	return Piece(strings.IndexByte(".tTK", lines[size-1-s.Rank()][s.File()]))
}

// legalRow is one legal ply and what it must do.
type legalRow struct {
	name   string
	rule   string // the RULES.md section or Decision the row shows
	rules  string // built-in variant
	edit   func(*Variant)
	toMove Side
	board  string
	move   string
	caps   []string // captured squares, nil for none
	after  string   // the board after the ply, "" when caps say enough
	want   Outcome  // zero: the game goes on
}

var legalRows = []legalRow{
	// §1.1 Movement.
	{
		name: "an attacker slides along a file over empty squares", rule: "§1.1",
		rules: "copenhagen", toMove: Attackers, move: "b2-b6",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. . . . . . .
			. t . . . T .
			. . . . . . .`,
		after: `
			. . . . . . .
			. t . . . . .
			. . . . . K .
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. . . . . . .`,
	},
	{
		name: "a defender slides along a rank and stops beside an attacker", rule: "§1.1",
		rules: "copenhagen", toMove: Defenders, move: "f2-c2",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. . . . . . .
			. t . . . T .
			. . . . . . .`,
	},
	{
		name: "an attacker passes through the empty throne", rule: "§1.1; §2 throne pass: all when empty",
		rules: "copenhagen", toMove: Attackers, move: "d2-d6",
		board: `
			. . . . . . .
			. . . . . . .
			. K . . . . .
			. . . . . . .
			. . . . . . .
			. . . t . . T
			. . . . . . .`,
	},
	{
		name: "a defender passes through the empty throne", rule: "§1.1; §2 throne pass: all when empty",
		rules: "copenhagen", toMove: Defenders, move: "d6-d2",
		board: `
			. . . . . . .
			. . . T . . .
			. . . . . K .
			. . . . . . .
			. . . . . . .
			. t . . . . .
			. . . . . . .`,
	},
	{
		name: "the king stops on the throne again", rule: "§1.1; §2 throne stop: king",
		rules: "copenhagen", toMove: Defenders, move: "d6-d4",
		board: `
			. . . . . . .
			. . . K . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. t . . . T .
			. . . . . . .`,
	},
	{
		name: "the king passes over the empty throne", rule: "§1.1",
		rules: "brandubh", toMove: Defenders, move: "d6-d2",
		board: `
			. . . . . . .
			. . . K . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. t . . . T .
			. . . . . . .`,
	},
	{
		name: "the king passes a throne that only he may pass", rule: "§1.1 (Pass data)",
		rules: "copenhagen", edit: editThroneKingPasses, toMove: Defenders, move: "d6-d2",
		board: `
			. . . . . . .
			. . . K . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. t . . . T .
			. . . . . . .`,
	},
	{
		name: "historical has no corner squares: an attacker stops on a1", rule: "§1.1; H1 (no corners)",
		rules: "historical", toMove: Attackers, move: "a3-a1",
		board: `
			. . . . . . .
			. . . . . . .
			. . K . T . .
			. . . . . . .
			t . . . . . .
			. . . . . . .
			. . . . . . .`,
	},
	{
		name: "tablut 9×9: an attacker crosses the board through the empty throne e5", rule: "§1.1",
		rules: "tablut", toMove: Attackers, move: "e2-e8",
		board: `
			. . . . . . . . .
			. . . . . . . . .
			. . K . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . T . .
			. . . . t . . . .
			. . . . . . . . .`,
	},

	// §1.2 Custodial capture.
	{
		name: "an attacker captures a defender on the line it moved along", rule: "§1.2",
		rules: "copenhagen", toMove: Attackers, move: "b6-b4", caps: []string{"b3"},
		board: `
			. . . . . . .
			. t . . . . .
			. . . . . K .
			. . . . . . .
			. T . . . . .
			. t . . . . .
			. . . . . . .`,
		after: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. t . . . . .
			. . . . . . .
			. t . . . . .
			. . . . . . .`,
	},
	{
		name: "a defender captures an attacker across its line of movement", rule: "§1.2",
		rules: "copenhagen", toMove: Defenders, move: "g4-e4", caps: []string{"e3"},
		board: `
			. . . . . . .
			. . . . . . .
			. K . . . . .
			. . . . . . T
			. . . . t . .
			. . . . T . .
			. t . . . . .`,
	},
	{
		name: "an attacker moving between two defenders is safe", rule: "§1.2",
		rules: "copenhagen", toMove: Attackers, move: "c1-c3",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. T . T . . .
			. . . . . . .
			. . t . . . .`,
		after: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. T t T . . .
			. . . . . . .
			. . . . . . .`,
	},
	{
		name: "a defender moving between two attackers is safe", rule: "§1.2",
		rules: "copenhagen", toMove: Defenders, move: "c1-c3",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. t . t . . .
			. . . . . . .
			. . T . . . .`,
	},
	{
		name: "no capture when the square beyond holds the victim's own piece", rule: "§1.2",
		rules: "copenhagen", toMove: Attackers, move: "b6-b4",
		board: `
			. . . . . . .
			. t . . . . .
			. . . . . K .
			. . . . . . .
			. T . . . . .
			. T . . . . .
			. . . . . . .`,
	},
	{
		name: "no diagonal capture", rule: "§1.2 (orthogonally adjacent)",
		rules: "copenhagen", toMove: Attackers, move: "g3-d3",
		board: `
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. . . . . . .
			. . . . . . t
			. . T . . . .
			. t . . . . .`,
	},
	{
		name: "captures are active: a piece already between two enemies stays", rule: "§1.2 (after a ply … the moved piece)",
		rules: "copenhagen", toMove: Attackers, move: "f1-f2",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. t . . . . .
			. T . . . . .
			. t . . . . .
			. . . . . t .`,
	},
	{
		name: "one ply captures in three directions", rule: "§1.2 (up to three directions)",
		rules: "copenhagen", toMove: Attackers, move: "c1-c3", caps: []string{"b3", "c4", "d3"},
		board: `
			. . . . . . .
			. . . . . K .
			. . t . . . .
			. . T . . . .
			t T . T t . .
			. . . . . . .
			. . t . . . .`,
		after: `
			. . . . . . .
			. . . . . K .
			. . t . . . .
			. . . . . . .
			t . t . t . .
			. . . . . . .
			. . . . . . .`,
	},
	{
		name: "one ply captures in two directions, not in a third without anvil", rule: "§1.2",
		rules: "copenhagen", toMove: Attackers, move: "c1-c3", caps: []string{"b3", "c4"},
		board: `
			. . . . . . .
			. . . . . K .
			. . t . . . .
			. . T . . . .
			t T . T . . .
			. . . . . . .
			. . t . . . .`,
	},

	// §1.3 Hostile squares.
	{
		name: "the board edge is not hostile", rule: "§1.3 (the board edge is never hostile)",
		rules: "copenhagen", toMove: Attackers, move: "c5-c2",
		board: `
			. . . . . . .
			. . . . . . .
			. . t . . K .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . T . . . .`,
	},
	{
		name: "the empty throne captures a defender", rule: "§1.3; §2 throne hostile to defenders when empty",
		rules: "copenhagen", toMove: Attackers, move: "a6-d6", caps: []string{"d5"},
		board: `
			. . . . . . .
			t . . . . . .
			. . . T . . .
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .`,
	},
	{
		name: "the throne occupied by the king does not capture a defender", rule: "§1.3; §2 throne hostile to defenders when empty",
		rules: "copenhagen", toMove: Attackers, move: "a6-d6",
		board: `
			. . . . . . .
			t . . . . . .
			. . . T . . .
			. . . K . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .`,
	},
	{
		name: "the empty throne captures an attacker", rule: "§1.3; §2 throne hostile to attackers always",
		rules: "copenhagen", toMove: Defenders, move: "a6-d6", caps: []string{"d5"},
		board: `
			. . . . . . .
			T . . . . . .
			. . . t . . .
			. . . . . . .
			. . . . . . .
			. t . . . K .
			. . . . . . .`,
	},
	{
		name: "an attacker is captured against the throne while the king sits on it", rule: "§1.3; §2 throne hostile to attackers always",
		rules: "copenhagen", toMove: Defenders, move: "a6-d6", caps: []string{"d5"},
		board: `
			. . . . . . .
			T . . . . . .
			. . . t . . .
			. . . K . . .
			. . . . . . .
			. t . . . . .
			. . . . . . .`,
	},
	{
		name: "the occupied throne is hostile to attackers even when the king is unarmed", rule: "§1.3 (per state); §1.4 unarmed",
		rules: "copenhagen", edit: editUnarmed, toMove: Defenders, move: "a6-d6", caps: []string{"d5"},
		board: `
			. . . . . . .
			T . . . . . .
			. . . t . . .
			. . . K . . .
			. . . . . . .
			. t . . . . .
			. . . . . . .`,
	},
	{
		name: "fetlar: the empty throne captures a defender", rule: "§1.3; §2 Fetlar",
		rules: "fetlar", toMove: Attackers, move: "a6-d6", caps: []string{"d5"},
		board: `
			. . . . . . .
			t . . . . . .
			. . . T . . .
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .`,
	},
	{
		name: "brandubh: the empty throne captures a defender", rule: "§1.3; §2 Brandubh",
		rules: "brandubh", toMove: Attackers, move: "a6-d6", caps: []string{"d5"},
		board: `
			. . . . . . .
			t . . . . . .
			. . . T . . .
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .`,
	},
	{
		name: "brandubh: the empty throne captures an attacker", rule: "§1.3; §2 Brandubh",
		rules: "brandubh", toMove: Defenders, move: "a6-d6", caps: []string{"d5"},
		board: `
			. . . . . . .
			T . . . . . .
			. . . t . . .
			. . . . . . .
			. . . . . . .
			. t . . . K .
			. . . . . . .`,
	},
	{
		name: "historical: the empty throne captures a defender", rule: "§1.3; §2 Historical",
		rules: "historical", toMove: Attackers, move: "a6-d6", caps: []string{"d5"},
		board: `
			. . . . . . .
			t . . . . . .
			. . . T . . .
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .`,
	},
	{
		name: "tablut 9×9: the empty throne e5 captures a defender", rule: "§1.3; §2 Tablut",
		rules: "tablut", toMove: Attackers, move: "a7-e7", caps: []string{"e6"},
		board: `
			. . . . . . . . .
			. . . . . . . . .
			t . . . . . . . .
			. . . . T . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . K . . . . . .
			. . . . . . . . .
			. . . . . . . . .`,
	},
	{
		name: "tablut 9×9: the throne occupied by the king does not capture a defender", rule: "§1.3; §2 Tablut",
		rules: "tablut", toMove: Attackers, move: "a7-e7",
		board: `
			. . . . . . . . .
			. . . . . . . . .
			t . . . . . . . .
			. . . . T . . . .
			. . . . K . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .`,
	},
	{
		name: "vingolf V1: the empty throne does not capture a defender", rule: "V1",
		rules: "vingolf", toMove: Attackers, move: "a6-d6",
		board: `
			. . . . . . .
			t . . . . . .
			. . . T . . .
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .`,
	},
	{
		name: "vingolf V1: the empty throne does not capture an attacker", rule: "V1",
		rules: "vingolf", toMove: Defenders, move: "a6-d6",
		board: `
			. . . . . . .
			T . . . . . .
			. . . t . . .
			. . . . . . .
			. . . . . . .
			. t . . . K .
			. . . . . . .`,
	},
	{
		name: "vingolf: the armed king on the throne captures an attacker as anvil", rule: "V1; §1.4 armed",
		rules: "vingolf", toMove: Defenders, move: "a6-d6", caps: []string{"d5"},
		board: `
			. . . . . . .
			T . . . . . .
			. . . t . . .
			. . . K . . .
			. . . . . . .
			. t . . . . .
			. . . . . . .`,
	},
	{
		name: "vingolf V1: the occupied throne itself is not hostile (unarmed king)", rule: "V1; §1.4 unarmed",
		rules: "vingolf", edit: editUnarmed, toMove: Defenders, move: "a6-d6",
		board: `
			. . . . . . .
			T . . . . . .
			. . . t . . .
			. . . K . . .
			. . . . . . .
			. t . . . . .
			. . . . . . .`,
	},
	{
		name: "a corner captures a defender", rule: "§1.3; §2 corners hostile to all",
		rules: "copenhagen", toMove: Attackers, move: "c4-c1", caps: []string{"b1"},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . t . . . .
			. . . . . . .
			. . . . . . .
			. T . . . . .`,
	},
	{
		name: "a corner captures an attacker", rule: "§1.3; §2 corners hostile to all",
		rules: "copenhagen", toMove: Defenders, move: "c4-c1", caps: []string{"b1"},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . T . . . .
			. . . . . . .
			. . . . . t .
			. t . . . . .`,
	},
	{
		name: "fetlar: a corner captures a defender on the file", rule: "§1.3; §2 corners hostile to all",
		rules: "fetlar", toMove: Attackers, move: "d3-a3", caps: []string{"a2"},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. . . t . . .
			T . . . . . .
			. . . . . . .`,
	},
	{
		name: "vingolf: a corner captures a defender", rule: "§1.3; §2 Vingólf corners hostile to all",
		rules: "vingolf", toMove: Attackers, move: "c4-c1", caps: []string{"b1"},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . t . . . .
			. . . . . . .
			. . . . . . .
			. T . . . . .`,
	},
	{
		name: "vingolf: a corner captures an attacker", rule: "§1.3; §2 Vingólf corners hostile to all",
		rules: "vingolf", toMove: Defenders, move: "c4-c1", caps: []string{"b1"},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . T . . . .
			. . . . . . .
			. . . . . t .
			. t . . . . .`,
	},
	{
		name: "brandubh: a corner captures an attacker", rule: "§1.3; §2 Brandubh corners hostile to all",
		rules: "brandubh", toMove: Defenders, move: "c4-c1", caps: []string{"b1"},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . T . . . .
			. . . . . . .
			. . . . . t .
			. t . . . . .`,
	},
	{
		name: "historical: a1 is an ordinary square and not hostile", rule: "§1.3; H1 (no corners)",
		rules: "historical", toMove: Attackers, move: "c4-c1",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . t . . . .
			. . . . . . .
			. . . . . . .
			. T . . . . .`,
	},

	// §1.4 The king's arms.
	{
		name: "the armed king captures as the moving piece", rule: "§1.4 armed (hammer)",
		rules: "copenhagen", toMove: Defenders, move: "b6-b4", caps: []string{"b3"},
		board: `
			. . . . . . .
			. K . . . . .
			. . . . . . .
			. . . . . . .
			. t . . . . .
			. T . . . . .
			. . . . . t .`,
	},
	{
		name: "the armed king captures as the stationary piece", rule: "§1.4 armed (anvil)",
		rules: "copenhagen", toMove: Defenders, move: "b6-b4", caps: []string{"b3"},
		board: `
			. . . . . . .
			. T . . . . .
			. . . . . . .
			. . . . . . .
			. t . . . . .
			. K . . . . .
			. . . . . t .`,
	},
	{
		name: "the unarmed king does not capture as the moving piece", rule: "§1.4 unarmed",
		rules: "copenhagen", edit: editUnarmed, toMove: Defenders, move: "b6-b4",
		board: `
			. . . . . . .
			. K . . . . .
			. . . . . . .
			. . . . . . .
			. t . . . . .
			. T . . . . .
			. . . . . t .`,
	},
	{
		name: "the unarmed king is no anvil", rule: "§1.4 unarmed",
		rules: "copenhagen", edit: editUnarmed, toMove: Defenders, move: "b6-b4",
		board: `
			. . . . . . .
			. T . . . . .
			. . . . . . .
			. . . . . . .
			. t . . . . .
			. K . . . . .
			. . . . . t .`,
	},
	{
		name: "a hammer-only king captures as the moving piece", rule: "§1.4 hammer-only",
		rules: "copenhagen", edit: editHammerOnly, toMove: Defenders, move: "b6-b4", caps: []string{"b3"},
		board: `
			. . . . . . .
			. K . . . . .
			. . . . . . .
			. . . . . . .
			. t . . . . .
			. T . . . . .
			. . . . . t .`,
	},
	{
		name: "a hammer-only king is no anvil", rule: "§1.4 hammer-only",
		rules: "copenhagen", edit: editHammerOnly, toMove: Defenders, move: "b6-b4",
		board: `
			. . . . . . .
			. T . . . . .
			. . . . . . .
			. . . . . . .
			. t . . . . .
			. K . . . . .
			. . . . . t .`,
	},
	{
		name: "an anvil-only king does not capture as the moving piece", rule: "§1.4 anvil-only",
		rules: "copenhagen", edit: editAnvilOnly, toMove: Defenders, move: "b6-b4",
		board: `
			. . . . . . .
			. K . . . . .
			. . . . . . .
			. . . . . . .
			. t . . . . .
			. T . . . . .
			. . . . . t .`,
	},
	{
		name: "an anvil-only king is an anvil", rule: "§1.4 anvil-only",
		rules: "copenhagen", edit: editAnvilOnly, toMove: Defenders, move: "b6-b4", caps: []string{"b3"},
		board: `
			. . . . . . .
			. T . . . . .
			. . . . . . .
			. . . . . . .
			. t . . . . .
			. K . . . . .
			. . . . . t .`,
	},

	// §1.4 King capture: strong (Copenhagen, Fetlar, Vingólf).
	{
		name: "copenhagen: four attackers capture the king away from the throne", rule: "§1.4 strong",
		rules: "copenhagen", toMove: Attackers, move: "b1-b4", caps: []string{"b5"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 1},
		board: `
			. . . . . . .
			. t . . . . .
			t K t . . . .
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. t . . . . .`,
		after: `
			. . . . . . .
			. t . . . . .
			t . t . . . .
			. t . . . . .
			. . . . . . .
			. . . . . T .
			. . . . . . .`,
	},
	{
		name: "copenhagen: three attackers and a defender do not capture the king", rule: "§1.4 strong",
		rules: "copenhagen", toMove: Attackers, move: "b1-b4",
		board: `
			. . . . . . .
			. t . . . . .
			t K T . . . .
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. t . . . . .`,
	},
	{
		name: "copenhagen: two attackers on a line do not capture the king", rule: "§1.4 strong",
		rules: "copenhagen", toMove: Attackers, move: "b1-b4",
		board: `
			. . . . . . .
			. t . . . . .
			. K . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. t . . . . .`,
	},
	{
		name: "copenhagen: the king on the throne is captured by four", rule: "§1.4 strong; Copenhagen notes",
		rules: "copenhagen", toMove: Attackers, move: "g3-d3", caps: []string{"d4"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 1},
		board: `
			. . . . . . .
			. . . . . T .
			. . . t . . .
			. . t K t . .
			. . . . . . t
			. . . . . . .
			. . . . . . .`,
	},
	{
		name: "copenhagen: the king on the throne is not captured by three", rule: "§1.4 strong; Copenhagen notes",
		rules: "copenhagen", toMove: Attackers, move: "g3-d3",
		board: `
			. . . . . . .
			. . . . . T .
			. . . T . . .
			. . t K t . .
			. . . . . . t
			. . . . . . .
			. . . . . . .`,
	},
	{
		name: "copenhagen: beside the throne three attackers and the empty throne capture the king", rule: "§1.4 strong; Copenhagen notes",
		rules: "copenhagen", toMove: Attackers, move: "a6-d6", caps: []string{"d5"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 1},
		board: `
			. . . . . . .
			t . . . . . .
			. . t K t . .
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. . . . . . .`,
	},
	{
		name: "copenhagen: beside the throne two attackers, the throne and a defender do not", rule: "§1.4 strong; Copenhagen notes",
		rules: "copenhagen", toMove: Attackers, move: "a6-d6",
		board: `
			. . . . . . .
			t . . . . . .
			. . t K T . .
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. . . . . . .`,
	},
	{
		name: "copenhagen 11×11: beside the throne f6 three attackers and the throne capture the king", rule: "§1.4 strong; Copenhagen notes",
		rules: "copenhagen", toMove: Attackers, move: "a8-f8", caps: []string{"f7"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 1},
		board: `
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			t . . . . . . . . . .
			. . . . t K t . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . T . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .`,
	},
	{
		name: "fetlar: beside the throne three attackers and the empty throne capture the king", rule: "§1.4; §2 Fetlar",
		rules: "fetlar", toMove: Attackers, move: "a6-d6", caps: []string{"d5"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 1},
		board: `
			. . . . . . .
			t . . . . . .
			. . t K t . .
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. . . . . . .`,
	},
	{
		name: "vingolf V1: the empty throne completes a king capture beside it", rule: "V1; §1.4",
		rules: "vingolf", toMove: Attackers, move: "a6-d6", caps: []string{"d5"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 1},
		board: `
			. . . . . . .
			t . . . . . .
			. . t K t . .
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. . . . . . .`,
	},
	{
		name: "copenhagen: the king on the edge cannot be captured by three", rule: "§1.4 edge rule; §2 Copenhagen king on edge",
		rules: "copenhagen", toMove: Attackers, move: "g2-d2",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. . . . . . .
			. . . . . . .
			. . . . . . t
			. . t K t . .`,
	},
	{
		name: "fetlar: the king on the edge cannot be captured by three", rule: "§1.4 edge rule; §2 Fetlar king on edge",
		rules: "fetlar", toMove: Attackers, move: "g2-d2",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. . . . . . .
			. . . . . . .
			. . . . . . t
			. . t K t . .`,
	},
	{
		name: "vingolf: three attackers capture the king on the edge", rule: "§1.4 edge rule; §2 Vingólf captured by 3",
		rules: "vingolf", toMove: Attackers, move: "g2-d2", caps: []string{"d1"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 1},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. . . . . . .
			. . . . . . .
			. . . . . . t
			. . t K t . .`,
	},
	{
		name: "vingolf: two attackers on the edge away from a corner do not capture the king", rule: "§1.4 edge rule",
		rules: "vingolf", toMove: Attackers, move: "c4-a4",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. . t . . . .
			K t . . . . .
			. . . . . . .
			. . . . . . .`,
	},
	{
		name: "vingolf V3: two attackers and the corner capture the king beside it", rule: "V3",
		rules: "vingolf", toMove: Attackers, move: "d3-a3", caps: []string{"a2"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 1},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. . . . . . .
			. . . t . . .
			K t . . . . .
			. . . . . . .`,
	},
	{
		name: "copenhagen: two attackers and the corner do not capture the king on the edge", rule: "§1.4 edge rule; §2 Copenhagen",
		rules: "copenhagen", toMove: Attackers, move: "d3-a3",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. . . . . . .
			. . . t . . .
			K t . . . . .
			. . . . . . .`,
	},
	{
		name: "the completing attacker captures the king and a defender at once", rule: "§1.2; §1.4",
		rules: "copenhagen", toMove: Attackers, move: "b1-b4", caps: []string{"b5", "c4"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 1},
		board: `
			. . . . . . .
			. t . . . . .
			t K t . . . .
			. . T . . . .
			. . . . . . .
			. . . . . . .
			. t . . . . .`,
	},
	{
		name: "copenhagen: the king moving beside the throne among three attackers is safe", rule: "§1.4 (an attacker's ply completes it)",
		rules: "copenhagen", toMove: Defenders, move: "d4-d5",
		board: `
			. . . . . . .
			. . . t . . .
			. . t . t . .
			. . . K . . .
			. . . . . . .
			. . . . . T .
			. . . . . . .`,
	},
	{
		name: "copenhagen: an attacker's ply that moves no capturing piece does not capture the king", rule: "§1.4 (moves one of the capturing pieces)",
		rules: "copenhagen", toMove: Attackers, move: "b1-b2",
		board: `
			. . . . . . .
			. . . t . . .
			. . t K t . .
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. t . . . . .`,
	},

	{
		name: "brandubh: a defender's ply beside the king never captures him", rule: "§1.4 (an attacker's ply)",
		rules: "brandubh", toMove: Defenders, move: "b1-b4",
		board: `
			. . . . . . .
			. t . . . . .
			. K . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . t .
			. T . . . . .`,
	},

	// §1.4 King capture: strong near the throne (Historical, Tablut, Brandubh).
	{
		name: "historical 11×11: two attackers on a line capture the king away from the throne", rule: "§1.4 strong near throne; H1",
		rules: "historical", toMove: Attackers, move: "h7-c7", caps: []string{"c8"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 1},
		board: `
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . t . . . . . . . .
			. . K . . . . . . . .
			. . . . . . . t . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . T . .
			. . . . . . . . . . .
			. . . . . . . . . . .`,
	},
	{
		name: "historical 11×11: an attacker and a defender on a line do not capture the king", rule: "§1.4 strong near throne",
		rules: "historical", toMove: Attackers, move: "h7-c7",
		board: `
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . T . . . . . . . .
			. . K . . . . . . . .
			. . . . . . . t . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . T . .
			. . . . . . . . . . .
			. . . . . . . . . . .`,
	},
	{
		name: "historical 11×11: beside the throne two attackers on a line do not capture the king", rule: "§1.4 strong near throne; H1",
		rules: "historical", toMove: Attackers, move: "g10-g7",
		board: `
			. . . . . . . . . . .
			. . . . . . t . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . t K . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . T . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .`,
	},
	{
		name: "historical 11×11: beside the throne three attackers and the empty throne capture the king", rule: "§1.4 strong near throne; H1",
		rules: "historical", toMove: Attackers, move: "a8-f8", caps: []string{"f7"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 1},
		board: `
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			t . . . . . . . . . .
			. . . . t K t . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . T . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .`,
	},
	{
		name: "historical 11×11: on the throne three attackers do not capture the king", rule: "§1.4 strong near throne; H1",
		rules: "historical", toMove: Attackers, move: "f10-f7",
		board: `
			. . . . . . . . . . .
			. . . . . t . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . t K t . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . T . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .`,
	},
	{
		name: "historical 11×11: on the throne four attackers capture the king", rule: "§1.4 strong near throne; H1",
		rules: "historical", toMove: Attackers, move: "f10-f7", caps: []string{"f6"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 1},
		board: `
			. . . . . . . . . . .
			. . . . . t . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . t K t . . . .
			. . . . . t . . . . .
			. . . . . . . . . . .
			. . T . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .`,
	},
	{
		name: "historical: the king moving between two attackers is safe", rule: "§1.4 (an attacker's ply completes it)",
		rules: "historical", toMove: Defenders, move: "c5-c3",
		board: `
			. . . . . . .
			. . . . . T .
			. . K . . . .
			. . . . . . .
			. t . t . . .
			. . . . . . .
			. . . . . . .`,
	},
	{
		name: "historical: an attacker's ply that moves no capturing piece leaves the king between two", rule: "§1.4 (moves one of the capturing pieces)",
		rules: "historical", toMove: Attackers, move: "f1-f2",
		board: `
			. . . . . . .
			. . . . . T .
			. . . . . . .
			. . . . . . .
			. t K t . . .
			. . . . . . .
			. . . . . t .`,
	},
	{
		name: "brandubh: two attackers on a line capture the king away from the throne", rule: "§1.4 strong near throne",
		rules: "brandubh", toMove: Attackers, move: "b1-b4", caps: []string{"b5"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 1},
		board: `
			. . . . . . .
			. t . . . . .
			. K . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. t . . . . .`,
	},
	{
		name: "brandubh: beside the throne two attackers on a line do not capture the king", rule: "§1.4 strong near throne",
		rules: "brandubh", toMove: Attackers, move: "a3-c3",
		board: `
			. . . . . . .
			. . . . . T .
			. . t . . . .
			. . K . . . .
			t . . . . . .
			. . . . . . .
			. . . . . . .`,
	},
	{
		name: "brandubh: beside the throne three attackers and the empty throne capture the king", rule: "§1.4 strong near throne",
		rules: "brandubh", toMove: Attackers, move: "a3-c3", caps: []string{"c4"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 1},
		board: `
			. . . . . . .
			. . . . . T .
			. . t . . . .
			. t K . . . .
			t . . . . . .
			. . . . . . .
			. . . . . . .`,
	},
	{
		name: "brandubh: two attackers capture the king on the edge (weak there)", rule: "§1.4; §2 Brandubh king on edge: weak",
		rules: "brandubh", toMove: Attackers, move: "d3-d1", caps: []string{"c1"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 1},
		board: `
			. . . . . . .
			. . . . . T .
			. . . . . . .
			. . . . . . .
			. . . t . . .
			. . . . . . .
			. t K . . . .`,
	},
	{
		name: "brandubh: an attacker and the hostile corner capture the king", rule: "§1.3 corners hostile to all; §1.4 weak",
		rules: "brandubh", toMove: Attackers, move: "c3-c1", caps: []string{"b1"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 1},
		board: `
			. . . . . . .
			. . . . . T .
			. . . . . . .
			. . . . . . .
			. . t . . . .
			. . . . . . .
			. K . . . . .`,
	},
	{
		name: "copenhagen: an attacker and the corner do not capture the king", rule: "§1.4 strong, edge rule",
		rules: "copenhagen", toMove: Attackers, move: "c3-c1",
		board: `
			. . . . . . .
			. . . . . T .
			. . . . . . .
			. . . . . . .
			. . t . . . .
			. . . . . . .
			. K . . . . .`,
	},
	{
		name: "brandubh: the king moving between two attackers is safe", rule: "§1.4 (an attacker's ply completes it)",
		rules: "brandubh", toMove: Defenders, move: "c5-c3",
		board: `
			. . . . . . .
			. . . . . T .
			. . K . . . .
			. . . . . . .
			. t . t . . .
			. . . . . . .
			. . . . . . .`,
	},
	{
		name: "tablut 9×9: two attackers on a line capture the king away from the throne", rule: "§1.4 strong near throne",
		rules: "tablut", toMove: Attackers, move: "d6-d3", caps: []string{"c3"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 1},
		board: `
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . T . .
			. . . t . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. t K . . . . . .
			. . . . . . . . .
			. . . . . . . . .`,
	},
	{
		name: "tablut 9×9: beside the throne two attackers on a line do not capture the king", rule: "§1.4 strong near throne",
		rules: "tablut", toMove: Attackers, move: "f9-f6",
		board: `
			. . . . . t . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . t K . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. T . . . . . . .
			. . . . . . . . .`,
	},
	{
		name: "tablut 9×9: beside the throne three attackers and the empty throne capture the king", rule: "§1.4 strong near throne",
		rules: "tablut", toMove: Attackers, move: "f9-f6", caps: []string{"e6"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 1},
		board: `
			. . . . . t . . .
			. . . . . . . . .
			. . . . t . . . .
			. . . t K . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. T . . . . . . .
			. . . . . . . . .`,
	},

	// §1.5 Shieldwall (Copenhagen), Decision S1.
	{
		name: "shieldwall: the bracketing ply captures two defenders", rule: "§1.5",
		rules: "copenhagen", toMove: Attackers, move: "b3-b1", caps: []string{"c1", "d1"},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. t . . . . .
			. . t t . . .
			. . T T t . .`,
		after: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. . . . . . .
			. . t t . . .
			. t . . t . .`,
	},
	{
		name: "shieldwall: the bracketing ply captures three defenders", rule: "§1.5",
		rules: "copenhagen", toMove: Attackers, move: "b3-b1", caps: []string{"c1", "d1", "e1"},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. t . . . . .
			. . t t t . .
			. . T T T t .`,
	},
	{
		name: "shieldwall: the bracket may arrive at the other end", rule: "§1.5",
		rules: "copenhagen", toMove: Attackers, move: "e3-e1", caps: []string{"c1", "d1"},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. . . . t . .
			. . t t . . .
			. t T T . . .`,
	},
	{
		name: "shieldwall: a corner is the far bracket", rule: "§1.5 (a)",
		rules: "copenhagen", toMove: Attackers, move: "d3-d1", caps: []string{"b1", "c1"},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. . . t . . .
			. t t . . . .
			. T T . . . .`,
	},
	{
		name: "shieldwall: one ply captures the rows on both sides", rule: "§1.5 (in each direction)",
		rules: "copenhagen", toMove: Attackers, move: "d3-d1", caps: []string{"b1", "c1", "e1", "f1"},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. . . t . . .
			. t t . t t .
			. T T . T T .`,
	},
	{
		name: "shieldwall along file a", rule: "§1.5",
		rules: "copenhagen", toMove: Attackers, move: "d2-a2", caps: []string{"a3", "a4"},
		board: `
			. . . . . . .
			. . . . . . .
			t . . . . K .
			T t . . . . .
			T t . . . . .
			. . . t . . .
			. . . . . . .`,
	},
	{
		name: "shieldwall along file g", rule: "§1.5",
		rules: "copenhagen", toMove: Attackers, move: "d3-g3", caps: []string{"g4", "g5"},
		board: `
			. . . . . . .
			. . . . . . t
			. K . . . t T
			. . . . . t T
			. . . t . . .
			. . . . . . .
			. . . . . . .`,
	},
	{
		name: "shieldwall 11×11 along the top edge", rule: "§1.5",
		rules: "copenhagen", toMove: Attackers, move: "d8-d11", caps: []string{"e11", "f11", "g11"},
		board: `
			. . . . T T T t . . .
			. . . . t t t . . . .
			. . . . . . . . . . .
			. . . t . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . K . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .`,
	},
	{
		name: "shieldwall: the king in the row survives, the defenders beside him do not", rule: "§1.5 (a king inside … is not captured)",
		rules: "copenhagen", toMove: Attackers, move: "b3-b1", caps: []string{"c1", "e1"},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. . . . . . .
			. t . . . . .
			. . t t t . .
			. . T K T t .`,
		after: `
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. . . . . . .
			. . . . . . .
			. . t t t . .
			. t . K . t .`,
	},
	{
		name: "S1: a row of the king and one defender loses the defender", rule: "S1",
		rules: "copenhagen", toMove: Attackers, move: "b3-b1", caps: []string{"d1"},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. . . . . . .
			. t . . . . .
			. . t t . . .
			. . K T t . .`,
	},
	{
		name: "S1: a row of one defender and the king loses the defender", rule: "S1",
		rules: "copenhagen", toMove: Attackers, move: "b3-b1", caps: []string{"c1"},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. . . . . . .
			. t . . . . .
			. . t t . . .
			. . T K t . .`,
	},
	{
		name: "a lone king on the edge is no shieldwall and survives", rule: "§1.5 (two or more); §1.4 edge rule",
		rules: "copenhagen", toMove: Attackers, move: "b3-b1",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. . . . . . .
			. t . . . . .
			. . t . . . .
			. . K t . . .`,
	},
	{
		name: "shieldwall fails when one piece of the row has no front piece", rule: "§1.5 (b)",
		rules: "copenhagen", toMove: Attackers, move: "b3-b1",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. t . . . . .
			. . t . . . .
			. . T T t . .`,
	},
	{
		name: "shieldwall fails when the king in the row has no front piece", rule: "§1.5 (b); S1",
		rules: "copenhagen", toMove: Attackers, move: "b3-b1",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. . . . . . .
			. t . . . . .
			. . t . . . .
			. . T K t . .`,
	},
	{
		name: "shieldwall fails when the far end is empty", rule: "§1.5 (a)",
		rules: "copenhagen", toMove: Attackers, move: "b3-b1",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. t . . . . .
			. . t t . . .
			. . T T . . .`,
	},
	{
		name: "shieldwall is captured only by the bracketing ply, not by a front piece arriving", rule: "§1.5; Copenhagen notes (bracketing ply)",
		rules: "copenhagen", toMove: Attackers, move: "g2-d2",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. . . . . . .
			. . t . . . t
			. t T T t . .`,
	},
	{
		name: "defenders' shieldwall with the king as the far bracket", rule: "§1.5 (the king may help capture)",
		rules: "copenhagen", toMove: Defenders, move: "b3-b1", caps: []string{"c1", "d1"},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . t .
			. . . . . . .
			. T . . . . .
			. . T T . . .
			. . t t K . .`,
	},
	{
		name: "defenders' shieldwall with the king as a front piece", rule: "§1.5 (the king may help capture)",
		rules: "copenhagen", toMove: Defenders, move: "b3-b1", caps: []string{"c1", "d1"},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . t .
			. . . . . . .
			. T . . . . .
			. . T K . . .
			. . t t T . .`,
	},
	{
		name: "defenders' shieldwall with the king as the bracketing piece", rule: "§1.5 (the king may help capture)",
		rules: "copenhagen", toMove: Defenders, move: "b4-b1", caps: []string{"c1", "d1"},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . t .
			. K . . . . .
			. . . . . . .
			. . T T . . .
			. . t t T . .`,
	},
	{
		name: "an unarmed king brackets no shieldwall as the moving piece", rule: "§1.4 unarmed; §1.5",
		rules: "copenhagen", edit: editUnarmed, toMove: Defenders, move: "b4-b1",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . t .
			. K . . . . .
			. . . . . . .
			. . T T . . .
			. . t t T . .`,
	},
	{
		name: "an unarmed king is no far bracket of a shieldwall", rule: "§1.4 unarmed; §1.5",
		rules: "copenhagen", edit: editUnarmed, toMove: Defenders, move: "b3-b1",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . t .
			. . . . . . .
			. T . . . . .
			. . T T . . .
			. . t t K . .`,
	},
	{
		name: "an unarmed king is no front piece of a shieldwall", rule: "§1.4 unarmed; §1.5",
		rules: "copenhagen", edit: editUnarmed, toMove: Defenders, move: "b3-b1",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . t .
			. . . . . . .
			. T . . . . .
			. . T K . . .
			. . t t T . .`,
	},
	{
		name: "fetlar has no shieldwall", rule: "§1.5; §2 Fetlar shieldwall: no",
		rules: "fetlar", toMove: Attackers, move: "b3-b1",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. t . . . . .
			. . t t . . .
			. . T T t . .`,
	},
	{
		name: "vingolf has no shieldwall", rule: "§1.5; §2 Vingólf shieldwall: no",
		rules: "vingolf", toMove: Attackers, move: "b3-b1",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. t . . . . .
			. . t t . . .
			. . T T t . .`,
	},
}

func TestRulesLegal(t *testing.T) {
	for _, row := range legalRows {
		t.Run(row.rules+"/"+row.name, func(t *testing.T) {
			p := rowPosition(t, row.rules, row.edit, row.toMove, row.board)
			if o := p.Outcome(); o.Over() {
				t.Fatalf("[%s] the set-up position is already decided: %+v", row.rule, o)
			}
			before := draw(p)
			r := plyChecked(t, p, mv(t, row.move))
			if got, want := capturedNames(r), sortedNames(row.caps); !slices.Equal(got, want) {
				t.Errorf("[%s] %s captures %v, want %v\nbefore:\n%safter:\n%s", row.rule, row.move, got, want, before, draw(p))
			}
			if row.after != "" {
				if got, want := draw(p), strings.Join(diagramRows(row.after), "\n")+"\n"; got != want {
					t.Errorf("[%s] after %s the board is\n%swant\n%s", row.rule, row.move, got, want)
				}
			}
			if r.Outcome != row.want {
				t.Errorf("[%s] after %s the outcome is %+v, want %+v\n%s", row.rule, row.move, r.Outcome, row.want, draw(p))
			}
		})
	}
}

// illegalRow is one move the rules forbid and why.
type illegalRow struct {
	name   string
	rule   string
	rules  string
	edit   func(*Variant)
	toMove Side
	board  string
	move   string
	reason Illegal
	at     string // IllegalMoveError.At
	msg    string // Error()
}

// illegalBase is a plain position for the rows about the move's form.
const illegalBase = `
	. . . . . . .
	. . . . . . .
	. T . . . K .
	. . . . . . .
	. . . . . . .
	. t . . . T .
	. . . . . . .`

var illegalRows = []illegalRow{
	{
		name: "a piece may not jump over another", rule: "§1.1 (never over a piece)",
		rules: "copenhagen", toMove: Attackers, move: "d4-d8", reason: IllegalBlocked, at: "d6",
		msg: "engine: d4-d8: path blocked at d6",
		board: `
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . K . . .
			. . . . . . . . . . .
			. . . T . . . . . . .
			. . . . . . . . . . .
			. . . t . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .`,
	},
	{
		name: "the blocking square is the first piece on the path (westward)", rule: "§1.1",
		rules: "copenhagen", toMove: Attackers, move: "f2-a2", reason: IllegalBlocked, at: "c2",
		msg: "engine: f2-a2: path blocked at c2",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. . . . . . .
			. T T . . t .
			. . . . . . .`,
	},
	{
		name: "an adjacent piece blocks", rule: "§1.1",
		rules: "copenhagen", toMove: Attackers, move: "b2-b5", reason: IllegalBlocked, at: "b3",
		msg: "engine: b2-b5: path blocked at b3",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. T . . . . .
			. t . . . . .
			. . . . . . .`,
	},
	{
		name: "the throne occupied by the king blocks", rule: "§1.1; §2 throne pass: all when empty",
		rules: "copenhagen", toMove: Attackers, move: "d2-d6", reason: IllegalBlocked, at: "d4",
		msg: "engine: d2-d6: path blocked at d4",
		board: `
			. . . . . . .
			. . . . . T .
			. . . . . . .
			. . . K . . .
			. . . . . . .
			. . . t . . .
			. . . . . . .`,
	},
	{
		name: "an attacker may not stop on the throne", rule: "§1.1; §2 throne stop: king",
		rules: "copenhagen", toMove: Attackers, move: "d2-d4", reason: IllegalRestrictedStop, at: "d4",
		msg: "engine: d2-d4: an attacker may not stop on d4",
		board: `
			. . . . . . .
			. . . . . T .
			. K . . . . .
			. . . . . . .
			. . . . . . .
			. . . t . . .
			. . . . . . .`,
	},
	{
		name: "a defender may not stop on the throne", rule: "§1.1; §2 throne stop: king",
		rules: "copenhagen", toMove: Defenders, move: "d6-d4", reason: IllegalRestrictedStop, at: "d4",
		msg: "engine: d6-d4: a defender may not stop on d4",
		board: `
			. . . . . . .
			. . . T . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. t . . . K .
			. . . . . . .`,
	},
	{
		name: "historical: an attacker may not stop on the throne", rule: "§1.1; §2 Historical throne stop: king",
		rules: "historical", toMove: Attackers, move: "d2-d4", reason: IllegalRestrictedStop, at: "d4",
		msg: "engine: d2-d4: an attacker may not stop on d4",
		board: `
			. . . . . . .
			. . . . . T .
			. K . . . . .
			. . . . . . .
			. . . . . . .
			. . . t . . .
			. . . . . . .`,
	},
	{
		name: "tablut 9×9: a defender may not stop on the throne e5", rule: "§1.1; §2 Tablut throne stop: king",
		rules: "tablut", toMove: Defenders, move: "e8-e5", reason: IllegalRestrictedStop, at: "e5",
		msg: "engine: e8-e5: a defender may not stop on e5",
		board: `
			. . . . . . . . .
			. . . . T . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . K . . . . . .
			. . . . . . t . .
			. . . . . . . . .`,
	},
	{
		name: "an attacker may not stop on a corner", rule: "§1.1; §2 corners: king only",
		rules: "copenhagen", toMove: Attackers, move: "a3-a1", reason: IllegalRestrictedStop, at: "a1",
		msg: "engine: a3-a1: an attacker may not stop on a1",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			t . . . . . .
			. . . . . T .
			. . . . . . .`,
	},
	{
		name: "a defender may not stop on a corner", rule: "§1.1; §2 corners: king only",
		rules: "copenhagen", toMove: Defenders, move: "c1-a1", reason: IllegalRestrictedStop, at: "a1",
		msg: "engine: c1-a1: a defender may not stop on a1",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. . . . . . .
			. . . . . t .
			. . T . . . .`,
	},
	{
		name: "fetlar: an attacker may not stop on a corner", rule: "§1.1; §2 Fetlar corners: king only",
		rules: "fetlar", toMove: Attackers, move: "g4-g7", reason: IllegalRestrictedStop, at: "g7",
		msg: "engine: g4-g7: an attacker may not stop on g7",
		board: `
			. . . . . . .
			. . . . . . .
			. K . . . . .
			. . . . . . t
			. . . . . . .
			. . . . . T .
			. . . . . . .`,
	},
	{
		name: "vingolf: a defender may not stop on a corner", rule: "§1.1; §2 Vingólf corners: king only",
		rules: "vingolf", toMove: Defenders, move: "d7-a7", reason: IllegalRestrictedStop, at: "a7",
		msg: "engine: d7-a7: a defender may not stop on a7",
		board: `
			. . . T . . .
			. . . . . . .
			. K . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . t .
			. . . . . . .`,
	},
	{
		name: "brandubh: an attacker may not stop on a corner", rule: "§1.1; §2 Brandubh corners: king only",
		rules: "brandubh", toMove: Attackers, move: "e1-g1", reason: IllegalRestrictedStop, at: "g1",
		msg: "engine: e1-g1: an attacker may not stop on g1",
		board: `
			. . . . . . .
			. . . . . . .
			. K . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. . . . t . .`,
	},
	{
		name: "an attacker may not pass a throne that only the king may pass", rule: "§1.1 (passed through only by the pieces the variant allows)",
		rules: "copenhagen", edit: editThroneKingPasses, toMove: Attackers, move: "d2-d6", reason: IllegalRestrictedPass, at: "d4",
		msg: "engine: d2-d6: an attacker may not pass through d4",
		board: `
			. . . . . . .
			. . . . . . .
			. K . . . . .
			. . . . . . .
			. . . . . . .
			. . . t . . T
			. . . . . . .`,
	},
	{
		name: "a defender may not pass a throne that only the king may pass", rule: "§1.1 (passed through only by the pieces the variant allows)",
		rules: "copenhagen", edit: editThroneKingPasses, toMove: Defenders, move: "g4-a4", reason: IllegalRestrictedPass, at: "d4",
		msg: "engine: g4-a4: a defender may not pass through d4",
		board: `
			. . . . . . .
			. . . . . . .
			. K . . . . .
			. . . . . . T
			. . . . . . .
			. . . t . . .
			. . . . . . .`,
	},
	{
		name: "the king may not stop on a corner that nobody may stop on", rule: "§1.1 (Stop data)",
		rules: "copenhagen", edit: editCornersBarred, toMove: Defenders, move: "a3-a1", reason: IllegalRestrictedStop, at: "a1",
		msg: "engine: a3-a1: the king may not stop on a1",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . t .
			. . . . . . .
			K . . . . . .
			. . . . . T .
			. . . . . . .`,
	},
	{
		name: "the destination is occupied", rule: "§1.1 (empty squares)",
		rules: "copenhagen", toMove: Attackers, move: "b2-b5", reason: IllegalOccupied, at: "b5",
		msg: "engine: b2-b5: b5 is occupied", board: illegalBase,
	},
	{
		name: "the attackers may not move a defender", rule: "§0 sides",
		rules: "copenhagen", toMove: Attackers, move: "f2-f3", reason: IllegalNotYourPiece, at: "f2",
		msg: "engine: f2-f3: the defender on f2 belongs to the side not to move", board: illegalBase,
	},
	{
		name: "the attackers may not move the king", rule: "§0 sides",
		rules: "copenhagen", toMove: Attackers, move: "f5-f6", reason: IllegalNotYourPiece, at: "f5",
		msg: "engine: f5-f6: the king on f5 belongs to the side not to move", board: illegalBase,
	},
	{
		name: "the defenders may not move an attacker", rule: "§0 sides",
		rules: "copenhagen", toMove: Defenders, move: "b2-b3", reason: IllegalNotYourPiece, at: "b2",
		msg: "engine: b2-b3: the attacker on b2 belongs to the side not to move", board: illegalBase,
	},
	{
		name: "no diagonal moves", rule: "§1.1 (never diagonally)",
		rules: "copenhagen", toMove: Attackers, move: "b2-c3", reason: IllegalNotStraight, at: "c3",
		msg: "engine: b2-c3: pieces move along a rank or a file only", board: illegalBase,
	},
	{
		name: "no piece on the from-square", rule: "§1.1",
		rules: "copenhagen", toMove: Attackers, move: "c3-c5", reason: IllegalNoPiece, at: "c3",
		msg: "engine: c3-c5: no piece on c3", board: illegalBase,
	},
	{
		name: "a ply moves at least one square", rule: "§1.1",
		rules: "copenhagen", toMove: Attackers, move: "b2-b2", reason: IllegalNullMove, at: "b2",
		msg: "engine: b2-b2: a piece must move at least one square", board: illegalBase,
	},
	{
		name: "the destination is off the board", rule: "§0 squares",
		rules: "copenhagen", toMove: Attackers, move: "b2-h2", reason: IllegalOffBoard, at: "h2",
		msg: "engine: b2-h2: h2 is not on the board", board: illegalBase,
	},
	{
		name: "no move once the game is over (the king stands on a corner)", rule: "§1.6.1",
		rules: "copenhagen", toMove: Attackers, move: "b2-b3", reason: IllegalGameOver, at: "b2",
		msg: "engine: b2-b3: the game is over",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. t . . . T .
			K . . . . . .`,
	},
}

func TestRulesIllegal(t *testing.T) {
	for _, row := range illegalRows {
		t.Run(row.rules+"/"+row.name, func(t *testing.T) {
			p := rowPosition(t, row.rules, row.edit, row.toMove, row.board)
			m := mv(t, row.move)
			before, key, out := draw(p), p.Key(), p.Outcome()
			err := p.Check(m)
			var e *IllegalMoveError
			if !errors.As(err, &e) {
				t.Fatalf("[%s] Check(%s) = %v, want an *IllegalMoveError", row.rule, row.move, err)
			}
			if !errors.Is(err, ErrIllegalMove) {
				t.Errorf("[%s] errors.Is(%v, ErrIllegalMove) = false", row.rule, err)
			}
			if e.Move != m || e.Reason != row.reason || e.At != sq(t, row.at) {
				t.Errorf("[%s] Check(%s) = {Move %v Reason %d At %v}, want {Move %v Reason %d At %s}",
					row.rule, row.move, e.Move, e.Reason, e.At, m, row.reason, row.at)
			}
			if got := err.Error(); got != row.msg {
				t.Errorf("[%s] Check(%s).Error() = %q, want %q", row.rule, row.move, got, row.msg)
			}
			if slices.Contains(p.LegalMoves(nil), m) {
				t.Errorf("[%s] LegalMoves contains %s, which Check rejects", row.rule, row.move)
			}
			_, perr := p.Play(m)
			var pe *IllegalMoveError
			if !errors.As(perr, &pe) || *pe != *e {
				t.Errorf("[%s] Play(%s) = %v, want the error Check gives, %v", row.rule, row.move, perr, err)
			}
			if draw(p) != before || p.Key() != key || p.Outcome() != out || p.Ply() != 0 {
				t.Errorf("[%s] the illegal Play(%s) changed the position to\n%s", row.rule, row.move, draw(p))
			}
		})
	}
}
