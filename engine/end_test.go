package engine

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// Game-end tests of RULES.md §1.6 (escape, king captured, edge fort,
// encirclement, repetition, no legal move, their order) and of Decisions
// F1, H1, R1, E1 and V2, plus the outcomes of set-up positions. Diagrams
// are read as in rules_test.go.

// endRow plays a sequence of plies from a drawn position. Every ply but
// the last must leave the game going on; the last must give want.
type endRow struct {
	name   string
	rule   string
	rules  string
	edit   func(*Variant)
	toMove Side
	board  string
	moves  string   // plies separated by spaces
	caps   []string // every square captured on the way, nil for none
	want   Outcome  // after the last ply; zero: the game goes on
}

// cycle repeats a ply sequence n times.
func cycle(plies string, n int) string {
	return strings.TrimSpace(strings.Repeat(plies+" ", n))
}

var endRows = []endRow{
	// §1.6.1 Escape.
	{
		name: "copenhagen: the king reaches a corner on the second ply", rule: "§1.6.1 (corners)",
		rules: "copenhagen", toMove: Attackers, moves: "f6-f5 a4-a1",
		want: Outcome{DefendersWin, ReasonEscape, 2},
		board: `
			. . . . . . .
			. . . . . t .
			. . . . . . .
			K . . . . . .
			. . t . . . .
			. . . . . . .
			. . . . . . .`,
	},
	{
		name: "fetlar: the king reaches a corner", rule: "§1.6.1 (corners)",
		rules: "fetlar", toMove: Attackers, moves: "f6-f5 a4-a1",
		want: Outcome{DefendersWin, ReasonEscape, 2},
		board: `
			. . . . . . .
			. . . . . t .
			. . . . . . .
			K . . . . . .
			. . t . . . .
			. . . . . . .
			. . . . . . .`,
	},
	{
		name: "vingolf: the king reaches a corner", rule: "§1.6.1 (corners)",
		rules: "vingolf", toMove: Attackers, moves: "f6-f5 a4-a1",
		want: Outcome{DefendersWin, ReasonEscape, 2},
		board: `
			. . . . . . .
			. . . . . t .
			. . . . . . .
			K . . . . . .
			. . t . . . .
			. . . . . . .
			. . . . . . .`,
	},
	{
		name: "brandubh: the king reaches a corner", rule: "§1.6.1 (corners)",
		rules: "brandubh", toMove: Attackers, moves: "f6-f5 a4-a1",
		want: Outcome{DefendersWin, ReasonEscape, 2},
		board: `
			. . . . . . .
			. . . . . t .
			. . . . . . .
			K . . . . . .
			. . t . . . .
			. . . . . . .
			. . . . . . .`,
	},
	{
		name: "copenhagen: an edge square that is not a corner is no escape", rule: "§1.6.1 (corners)",
		rules: "copenhagen", toMove: Defenders, moves: "c5-c7",
		board: `
			. . . . . . .
			. . . . . t .
			. . K . . . .
			. . . . . . .
			. . t . . . .
			. . . . . . .
			. . . . . . .`,
	},
	{
		name: "brandubh: an edge square that is not a corner is no escape", rule: "§1.6.1 (corners)",
		rules: "brandubh", toMove: Defenders, moves: "c5-c7",
		board: `
			. . . . . . .
			. . . . . t .
			. . K . . . .
			. . . . . . .
			. . t . . . .
			. . . . . . .
			. . . . . . .`,
	},
	{
		name: "historical 11×11: the king reaches any edge square", rule: "§1.6.1 (any edge square); H1",
		rules: "historical", toMove: Defenders, moves: "c8-c11",
		want: Outcome{DefendersWin, ReasonEscape, 1},
		board: `
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . t . . .
			. . K . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . t . . .
			. . . . . . . . . . .
			. . . . . . . . . . .`,
	},
	{
		name: "historical: the king escapes along a rank", rule: "§1.6.1 (any edge square)",
		rules: "historical", toMove: Defenders, moves: "c3-a3",
		want: Outcome{DefendersWin, ReasonEscape, 1},
		board: `
			. . . . . . .
			. . . . t . .
			. . . . . . .
			. . . . . . .
			. . K . . . .
			. . . . . t .
			. . . . . . .`,
	},
	{
		name: "tablut 9×9: the king reaches an edge square", rule: "§1.6.1 (any edge square)",
		rules: "tablut", toMove: Defenders, moves: "c3-c1",
		want: Outcome{DefendersWin, ReasonEscape, 1},
		board: `
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . t . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . K . . . t . .
			. . . . . . . . .
			. . . . . . . . .`,
	},
	{
		name: "fetlar: escape comes before no legal move (which would be a draw)", rule: "§1.6 order; F1",
		rules: "fetlar", toMove: Defenders, moves: "a4-a1",
		want: Outcome{DefendersWin, ReasonEscape, 1},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . . .
			K . . . . . .
			. . . . . . T
			. . . . . T t
			. . . . . . .`,
	},
	{
		name: "copenhagen: escape comes before no legal move", rule: "§1.6 order",
		rules: "copenhagen", toMove: Defenders, moves: "a4-a1",
		want: Outcome{DefendersWin, ReasonEscape, 1},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . . .
			K . . . . . .
			. . . . . . T
			. . . . . T t
			. . . . . . .`,
	},

	// §1.6.2 King captured.
	{
		name: "copenhagen: the king is captured on the third ply", rule: "§1.6.2",
		rules: "copenhagen", toMove: Attackers, moves: "f6-f7 f2-f3 b1-b4", caps: []string{"b5"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 3},
		board: `
			. . . . . . .
			. t . . . t .
			t K t . . . .
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. t . . . . .`,
	},
	{
		name: "fetlar: king captured comes before no legal move (which would be a draw)", rule: "§1.6 order; F1",
		rules: "fetlar", toMove: Attackers, moves: "b1-b4", caps: []string{"b5"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 1},
		board: `
			. . . . . . .
			. t . . . . .
			t K t . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. t . . . . .`,
	},
	{
		name: "copenhagen: king captured comes before encirclement and no legal move", rule: "§1.6 order",
		rules: "copenhagen", toMove: Attackers, moves: "b1-b4", caps: []string{"b5"},
		want: Outcome{AttackersWin, ReasonKingCaptured, 1},
		board: `
			. . . . . . .
			. t . . . . .
			t K t . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. t . . . . .`,
	},

	// §1.6.3 Edge fort (Copenhagen only).
	{
		name: "copenhagen: a defender's ply closes an edge fort", rule: "§1.6.3",
		rules: "copenhagen", toMove: Defenders, moves: "e4-e2",
		want: Outcome{DefendersWin, ReasonEdgeFort, 1},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . T . .
			. t . . . . .
			. . . T . . .
			. t T K . T .`,
	},
	{
		name: "fetlar has no edge fort", rule: "§1.6.3; §2 Fetlar edge fort: no",
		rules: "fetlar", toMove: Defenders, moves: "e4-e2",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . T . .
			. t . . . . .
			. . . T . . .
			. t T K . T .`,
	},
	{
		name: "vingolf has no edge fort", rule: "§1.6.3; §2 Vingólf edge fort: no",
		rules: "vingolf", toMove: Defenders, moves: "e4-e2",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . T . .
			. t . . . . .
			. . . T . . .
			. t T K . T .`,
	},
	{
		name: "copenhagen 11×11: an edge fort on file a", rule: "§1.6.3",
		rules: "copenhagen", toMove: Defenders, moves: "c9-c6",
		want: Outcome{DefendersWin, ReasonEdgeFort, 1},
		board: `
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . T . . . . . . . .
			. . . . . . . t . . .
			T T . . . . . . . . .
			. . . . . . . . . . .
			K . T . . . . . . . .
			T T . . . . . . . . .
			. . . . t . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .`,
	},
	{
		name: "copenhagen 11×11: a fort with an attacker inside is not a fort", rule: "§1.6.3 (c)",
		rules: "copenhagen", toMove: Defenders, moves: "c9-c6",
		board: `
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . T . . . . . . . .
			. . . . . . . t . . .
			T T . . . . . . . . .
			. t . . . . . . . . .
			K . T . . . . . . . .
			T T . . . . . . . . .
			. . . . t . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .`,
	},
	{
		name: "copenhagen 11×11: a fort with an attacker in its wall is not a fort", rule: "§1.6.3 (c)",
		rules: "copenhagen", toMove: Defenders, moves: "c9-c6",
		board: `
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . T . . . . . . . .
			. . . . . . . t . . .
			t T . . . . . . . . .
			. . . . . . . . . . .
			K . T . . . . . . . .
			T T . . . . . . . . .
			. . . . t . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .`,
	},
	{
		name: "copenhagen 11×11: a fort whose wall can be captured is not a fort", rule: "§1.6.3 (d)",
		rules: "copenhagen", toMove: Defenders, moves: "d8-d5",
		board: `
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . T . . . t . . .
			T T . . . . . . . . .
			. . T . . . . . . . .
			K . . . . . . . . . .
			T T T . . . . . . . .
			. . . . t . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .`,
	},
	{
		name: "copenhagen 11×11: a closed ring around a king off the edge is not a fort", rule: "§1.6.3 (a)",
		rules: "copenhagen", toMove: Defenders, moves: "d9-d6",
		board: `
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . T . . . . . . .
			. . . . . . . t . . .
			. T T . . . . . . . .
			T . . . . . . . . . .
			T K . T . . . . . . .
			. T T . . . . . . . .
			. . . . t . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .`,
	},
	{
		name: "copenhagen: a fort beside the corner (the king can move to it)", rule: "§1.6.3 (b)",
		rules: "copenhagen", toMove: Defenders, moves: "e2-b2",
		want: Outcome{DefendersWin, ReasonEdgeFort, 1},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . t .
			. . . . . . .
			T . . . . . .
			K . . . T . .
			. T . . . . .`,
	},
	{
		name: "a fort where the king cannot move is not a fort", rule: "§1.6.3 (b)",
		rules: "copenhagen", edit: editCornersBarred, toMove: Defenders, moves: "e2-b2",
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . t .
			. . . . . . .
			T . . . . . .
			K . . . T . .
			. T . . . . .`,
	},
	{
		name: "copenhagen: edge fort comes before no legal move", rule: "§1.6 order",
		rules: "copenhagen", toMove: Defenders, moves: "e4-e2", caps: []string{"f2"},
		want: Outcome{DefendersWin, ReasonEdgeFort, 1},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . T . .
			. . . . . . .
			. T . T . t T
			. t T K . T .`,
	},

	// §1.6.4 Encirclement, Decisions E1, F1.
	{
		name: "copenhagen: the attackers close a ring around every defender", rule: "§1.6.4",
		rules: "copenhagen", toMove: Attackers, moves: "c6-c4",
		want: Outcome{AttackersWin, ReasonEncirclement, 1},
		board: `
			. . . . . . .
			. . t . . . .
			. . . . . . .
			. t . . . . .
			t . T t . . .
			t K . t . . .
			. t t . . . .`,
	},
	{
		name: "copenhagen: the ring closes on the attackers' second ply", rule: "§1.6.4",
		rules: "copenhagen", toMove: Attackers, moves: "c6-c5 c3-c2 c5-c4",
		want: Outcome{AttackersWin, ReasonEncirclement, 3},
		board: `
			. . . . . . .
			. . t . . . .
			. . . . . . .
			. t . . . . .
			t . T t . . .
			t K . t . . .
			. t t . . . .`,
	},
	{
		name: "fetlar F1: no encirclement", rule: "F1",
		rules: "fetlar", toMove: Attackers, moves: "c6-c4",
		board: `
			. . . . . . .
			. . t . . . .
			. . . . . . .
			. t . . . . .
			t . T t . . .
			t K . t . . .
			. t t . . . .`,
	},
	{
		name: "vingolf: encirclement", rule: "§1.6.4; §2 Vingólf",
		rules: "vingolf", toMove: Attackers, moves: "c6-c4",
		want: Outcome{AttackersWin, ReasonEncirclement, 1},
		board: `
			. . . . . . .
			. . t . . . .
			. . . . . . .
			. t . . . . .
			t . T t . . .
			t K . t . . .
			. t t . . . .`,
	},
	{
		name: "brandubh: encirclement", rule: "§1.6.4; §2 Brandubh",
		rules: "brandubh", toMove: Attackers, moves: "c6-c4",
		want: Outcome{AttackersWin, ReasonEncirclement, 1},
		board: `
			. . . . . . .
			. . t . . . .
			. . . . . . .
			. t . . . . .
			t . T t . . .
			t K . t . . .
			. t t . . . .`,
	},
	{
		name: "historical: encirclement (a1 is no corner but unreachable)", rule: "§1.6.4; H1",
		rules: "historical", toMove: Attackers, moves: "c6-c4",
		want: Outcome{AttackersWin, ReasonEncirclement, 1},
		board: `
			. . . . . . .
			. . t . . . .
			. . . . . . .
			. t . . . . .
			t . T t . . .
			t K . t . . .
			. t t . . . .`,
	},
	{
		name: "tablut 9×9: encirclement", rule: "§1.6.4; §2 Tablut",
		rules: "tablut", toMove: Attackers, moves: "c7-c4",
		want: Outcome{AttackersWin, ReasonEncirclement, 1},
		board: `
			. . . . . . . . .
			. . . . . . . . .
			. . t . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. t . . . . . . .
			t . T t . . . . .
			t K . t . . . . .
			. t t . . . . . .`,
	},
	{
		name: "copenhagen: one defender outside the ring can still reach the edge", rule: "§1.6.4",
		rules: "copenhagen", toMove: Attackers, moves: "c6-c4",
		board: `
			. . . . . . .
			. . t . . . .
			. . . . . T .
			. t . . . . .
			t . T t . . .
			t K . t . . .
			. t t . . . .`,
	},
	{
		name: "copenhagen: a ring with a gap is no encirclement", rule: "§1.6.4",
		rules: "copenhagen", toMove: Attackers, moves: "c6-c4",
		board: `
			. . . . . . .
			. . t . . . .
			. . . . . . .
			. t . . . . .
			t . T t . . .
			t K . . . . .
			. t t . . . .`,
	},
	{
		name: "copenhagen: a blocked defender standing on the edge is not encircled", rule: "§1.6.4 (reaches the edge)",
		rules: "copenhagen", toMove: Attackers, moves: "c6-c4",
		board: `
			. . . . . . .
			. . t . . . .
			. . . . . . t
			. t . . . t T
			t . T t . . t
			t K . t . . .
			. t t . . . .`,
	},
	{
		name: "E1: two separate closed pockets are an encirclement", rule: "E1",
		rules: "copenhagen", toMove: Attackers, moves: "c6-c3",
		want: Outcome{AttackersWin, ReasonEncirclement, 1},
		board: `
			. . . . . . .
			. . t . t t .
			. . . t K . t
			. . . . t t .
			. t . . . . .
			t T . t . . .
			. t t . . . .`,
	},
	{
		name: "E1: two pockets, one of them open, are no encirclement", rule: "E1",
		rules: "copenhagen", toMove: Attackers, moves: "c6-c3",
		board: `
			. . . . . . .
			. . t . t . .
			. . . t K . t
			. . . . t t .
			. t . . . . .
			t T . t . . .
			. t t . . . .`,
	},
	{
		name: "historical 11×11: encirclement around the throne", rule: "§1.6.4; H1",
		rules: "historical", toMove: Attackers, moves: "k6-h6",
		want: Outcome{AttackersWin, ReasonEncirclement, 1},
		board: `
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . t t t . . . .
			. . . t . . T t . . .
			. . . t . K . . . . t
			. . . t T . . t . . .
			. . . . t t t . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .`,
	},
	{
		name: "historical 11×11: a gap towards rank 1 is no encirclement", rule: "§1.6.4",
		rules: "historical", toMove: Attackers, moves: "k6-h6",
		board: `
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . t t t . . . .
			. . . t . . T t . . .
			. . . t . K . . . . t
			. . . t T . . t . . .
			. . . . t . t . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .`,
	},
	{
		name: "historical 11×11: a gap towards rank 11 is no encirclement", rule: "§1.6.4",
		rules: "historical", toMove: Attackers, moves: "k6-h6",
		board: `
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . t . t . . . .
			. . . t . . T t . . .
			. . . t . K . . . . t
			. . . t T . . t . . .
			. . . . t t t . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .`,
	},
	{
		name: "copenhagen: encirclement comes before no legal move", rule: "§1.6 order",
		rules: "copenhagen", toMove: Attackers, moves: "c6-c4",
		want: Outcome{AttackersWin, ReasonEncirclement, 1},
		board: `
			. . . . . . .
			. . t . . . .
			. . . . . . .
			. t . . . . .
			t T T t . . .
			t K T t . . .
			. t t . . . .`,
	},
	{
		name: "fetlar F1: an enclosed side without moves draws", rule: "F1",
		rules: "fetlar", toMove: Attackers, moves: "c6-c4",
		want: Outcome{Draw, ReasonNoLegalMove, 1},
		board: `
			. . . . . . .
			. . t . . . .
			. . . . . . .
			. t . . . . .
			t T T t . . .
			t K T t . . .
			. t t . . . .`,
	},

	// §1.6.5 Repetition, Decisions R1, H1, F1.
	{
		name: "copenhagen R1: the set-up position seen a third time ends the game at ply 8", rule: "§1.6.5; R1",
		rules: "copenhagen", toMove: Attackers, moves: cycle("b6-b5 f2-f3 b5-b6 f3-f2", 2),
		want:  Outcome{AttackersWin, ReasonRepetition, 8},
		board: repetitionBoard,
	},
	{
		name: "copenhagen: a third repetition with captures on offer all along", rule: "§1.6.5; R1",
		rules: "copenhagen", toMove: Attackers, moves: cycle("b6-b5 f2-f3 b5-b6 f3-f2", 2),
		want: Outcome{AttackersWin, ReasonRepetition, 8},
		board: `
			. . . . . . .
			. t . . . . .
			. . . . t . .
			. . . . . . T
			. . . . K . t
			. . . . . T .
			. . . . . . .`,
	},
	{
		name: "fetlar F1: a third repetition draws", rule: "§1.6.5; F1; R1",
		rules: "fetlar", toMove: Attackers, moves: cycle("b6-b5 f2-f3 b5-b6 f3-f2", 2),
		want:  Outcome{Draw, ReasonRepetition, 8},
		board: repetitionBoard,
	},
	{
		name: "vingolf: a third repetition loses for the defenders", rule: "§1.6.5; §2 Vingólf",
		rules: "vingolf", toMove: Attackers, moves: cycle("b6-b5 f2-f3 b5-b6 f3-f2", 2),
		want:  Outcome{AttackersWin, ReasonRepetition, 8},
		board: repetitionBoard,
	},
	{
		name: "brandubh: a third repetition loses for the defenders", rule: "§1.6.5; §2 Brandubh",
		rules: "brandubh", toMove: Attackers, moves: cycle("b6-b5 f2-f3 b5-b6 f3-f2", 2),
		want:  Outcome{AttackersWin, ReasonRepetition, 8},
		board: repetitionBoard,
	},
	{
		name: "tablut 9×9: a third repetition loses for the defenders", rule: "§1.6.5; §2 Tablut",
		rules: "tablut", toMove: Attackers, moves: cycle("b8-b7 h2-h3 b7-b8 h3-h2", 2),
		want: Outcome{AttackersWin, ReasonRepetition, 8},
		board: `
			. . . . . . . . .
			. t . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . K . . .
			. . . . . . . T .
			. . . . . . . . .`,
	},
	{
		name: "historical H1: the attackers, to move in the thrice-seen position, began the cycle and lose", rule: "H1; R1",
		rules: "historical", toMove: Attackers, moves: cycle("b6-b5 f2-f3 b5-b6 f3-f2", 2),
		want:  Outcome{DefendersWin, ReasonRepetition, 8},
		board: repetitionBoard,
	},
	{
		name: "historical H1: the defenders, to move in the thrice-seen position, began the cycle and lose", rule: "H1",
		rules: "historical", toMove: Attackers, moves: "g5-g4 " + cycle("f2-f3 b6-b5 f3-f2 b5-b6", 2),
		want:  Outcome{AttackersWin, ReasonRepetition, 9},
		board: repetitionBoardExtra,
	},
	{
		name: "OpenTafl's tfr:w: the attackers, to move in the thrice-seen position, win", rule: "RepetitionSideToMoveWins; docs/notation.md tfr",
		rules: "copenhagen", edit: func(v *Variant) { v.Repetition = RepetitionSideToMoveWins },
		toMove: Attackers, moves: cycle("b6-b5 f2-f3 b5-b6 f3-f2", 2),
		want:  Outcome{AttackersWin, ReasonRepetition, 8},
		board: repetitionBoard,
	},
	{
		name: "OpenTafl's tfr:w: the defenders, to move in the thrice-seen position, win", rule: "RepetitionSideToMoveWins",
		rules: "copenhagen", edit: func(v *Variant) { v.Repetition = RepetitionSideToMoveWins },
		toMove: Attackers, moves: "g5-g4 " + cycle("f2-f3 b6-b5 f3-f2 b5-b6", 2),
		want:  Outcome{DefendersWin, ReasonRepetition, 9},
		board: repetitionBoardExtra,
	},
	{
		name: "copenhagen: a cycle begun by the defenders also loses for them", rule: "§1.6.5; Copenhagen notes",
		rules: "copenhagen", toMove: Attackers, moves: "g5-g4 " + cycle("f2-f3 b6-b5 f3-f2 b5-b6", 2),
		want:  Outcome{AttackersWin, ReasonRepetition, 9},
		board: repetitionBoardExtra,
	},
	{
		name: "fetlar: a cycle begun by the defenders draws", rule: "F1",
		rules: "fetlar", toMove: Attackers, moves: "g5-g4 " + cycle("f2-f3 b6-b5 f3-f2 b5-b6", 2),
		want:  Outcome{Draw, ReasonRepetition, 9},
		board: repetitionBoardExtra,
	},
	{
		name: "historical H1: a set-up position with the defenders to move, seen a third time", rule: "H1; R1",
		rules: "historical", toMove: Defenders, moves: cycle("f2-f3 b6-b5 f3-f2 b5-b6", 2),
		want:  Outcome{AttackersWin, ReasonRepetition, 8},
		board: repetitionBoard,
	},
	{
		name: "the same board with the other side to move is another position", rule: "§0 position identity; §1.6.5",
		rules: "copenhagen", toMove: Attackers,
		// The attacker needs three plies (b6-b4-b5-b6) to come back, the
		// defender two: the board of the set-up recurs after plies 5 and 17
		// with the defenders to move, and the set-up position itself only
		// after plies 12 and 24.
		moves: cycle("b6-b4 f2-f3 b4-b5 f3-f2 b5-b6 f2-f3 b6-b4 f3-f2 b4-b5 f2-f3 b5-b6 f3-f2", 2),
		want:  Outcome{AttackersWin, ReasonRepetition, 24},
		board: repetitionBoard,
	},
	{
		name: "after a capture the position after it is the first occurrence", rule: "§1.6.5; R1 (history is never cleared)",
		rules: "copenhagen", toMove: Attackers, moves: "g4-f4 " + cycle("f2-f3 b6-b5 f3-f2 b5-b6", 2),
		caps: []string{"f5"},
		want: Outcome{AttackersWin, ReasonRepetition, 9},
		board: `
			. . . . . . .
			. t . . . t .
			. . . . . T .
			. . . . . . t
			. . . . K . .
			. . . . . T .
			. . . . . . .`,
	},

	// §1.6.6 No legal move, Decisions F1, V2.
	{
		name: "copenhagen: the defenders cannot move and lose", rule: "§1.6.6; §2 Copenhagen no legal move: loses",
		rules: "copenhagen", toMove: Attackers, moves: "d6-d3",
		want:  Outcome{AttackersWin, ReasonNoLegalMove, 1},
		board: noMoveBoard,
	},
	{
		name: "fetlar F1: the defenders cannot move: draw", rule: "F1",
		rules: "fetlar", toMove: Attackers, moves: "d6-d3",
		want:  Outcome{Draw, ReasonNoLegalMove, 1},
		board: noMoveBoard,
	},
	{
		name: "vingolf V2: the defenders cannot move and lose", rule: "V2",
		rules: "vingolf", toMove: Attackers, moves: "d6-d3",
		want:  Outcome{AttackersWin, ReasonNoLegalMove, 1},
		board: noMoveBoard,
	},
	{
		name: "brandubh: the defenders cannot move and lose", rule: "§1.6.6; §2 Brandubh",
		rules: "brandubh", toMove: Attackers, moves: "d6-d3",
		want:  Outcome{AttackersWin, ReasonNoLegalMove, 1},
		board: noMoveBoard,
	},
	{
		name: "historical: the defenders cannot move and lose", rule: "§1.6.6; §2 Historical",
		rules: "historical", toMove: Attackers, moves: "b7-b4",
		want: Outcome{AttackersWin, ReasonNoLegalMove, 1},
		board: `
			. t . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			t T t . . . .
			T K T t . . .
			t T t . . . .`,
	},
	{
		name: "tablut: the defenders cannot move and lose", rule: "§1.6.6; §2 Tablut",
		rules: "tablut", toMove: Attackers, moves: "b7-b4",
		want: Outcome{AttackersWin, ReasonNoLegalMove, 1},
		board: `
			. t . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			t T t . . . .
			T K T t . . .
			t T t . . . .`,
	},
	{
		name: "copenhagen: the attackers cannot move and lose", rule: "§1.6.6",
		rules: "copenhagen", toMove: Defenders, moves: "b4-b2",
		want: Outcome{DefendersWin, ReasonNoLegalMove, 1},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. T . . . . .
			. . . . . . .
			. . . . . . .
			. t T . . . .`,
	},
	{
		name: "fetlar F1: the attackers cannot move: draw", rule: "F1",
		rules: "fetlar", toMove: Defenders, moves: "b4-b2",
		want: Outcome{Draw, ReasonNoLegalMove, 1},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. T . . . . .
			. . . . . . .
			. . . . . . .
			. t T . . . .`,
	},
}

// repetitionBoard: an attacker on b6 and a defender on f2 shuttle.
const repetitionBoard = `
	. . . . . . .
	. t . . . . .
	. . . . . . .
	. . . . . . .
	. . . . K . .
	. . . . . T .
	. . . . . . .`

// repetitionBoardExtra adds an attacker on g5 for a one-off first ply.
const repetitionBoardExtra = `
	. . . . . . .
	. t . . . . .
	. . . . . . t
	. . . . . . .
	. . . . K . .
	. . . . . T .
	. . . . . . .`

// noMoveBoard: after d6-d3 every defender and the king are blocked, the
// king on the edge by his own men (so no variant captures him there).
const noMoveBoard = `
	. . . . . . .
	. . . t . . .
	. . . . . . .
	. . . . . . .
	. . . . . . .
	. . t T t . .
	. t T K T t .`

func TestEnd(t *testing.T) {
	for _, row := range endRows {
		t.Run(row.rules+"/"+row.name, func(t *testing.T) {
			p := rowPosition(t, row.rules, row.edit, row.toMove, row.board)
			if o := p.Outcome(); o.Over() {
				t.Fatalf("[%s] the set-up position is already decided: %+v", row.rule, o)
			}
			moves := strings.Fields(row.moves)
			var caps []string
			var last Move
			for i, s := range moves {
				last = mv(t, s)
				r := plyChecked(t, p, last)
				caps = append(caps, capturedNames(r)...)
				if i < len(moves)-1 && r.Outcome.Over() {
					t.Fatalf("[%s] the game ended early, at ply %d (%s): %+v\n%s", row.rule, i+1, s, r.Outcome, draw(p))
				}
				if i == len(moves)-1 && r.Outcome != row.want {
					t.Errorf("[%s] after ply %d (%s) the outcome is %+v, want %+v\n%s", row.rule, i+1, s, r.Outcome, row.want, draw(p))
				}
			}
			if got, want := sortedNames(caps), sortedNames(row.caps); !slices.Equal(got, want) {
				t.Errorf("[%s] captured %v, want %v", row.rule, got, want)
			}
			if row.want.Over() {
				checkOver(t, p, Move{From: last.To, To: last.From})
			}
		})
	}
}

// checkOver checks that a finished game offers no move and rejects m with
// IllegalGameOver.
func checkOver(t *testing.T, p *Position, m Move) {
	t.Helper()
	if ms := p.LegalMoves(nil); len(ms) != 0 {
		t.Errorf("the game is over (%+v) but LegalMoves = %v", p.Outcome(), ms)
	}
	var e *IllegalMoveError
	if err := p.Check(m); !errors.As(err, &e) || e.Reason != IllegalGameOver {
		t.Errorf("the game is over (%+v) but Check(%v) = %v, want IllegalGameOver", p.Outcome(), m, err)
	}
}

func TestRepetitionCount(t *testing.T) {
	// R1: the set-up position is the first occurrence; the count of a
	// position includes its current occurrence; Unmake takes it back.
	p := rowPosition(t, "copenhagen", nil, Attackers, repetitionBoard)
	if got := p.Repetitions(); got != 1 {
		t.Fatalf("set-up position: Repetitions() = %d, want 1", got)
	}
	want := []int{1, 1, 1, 2, 2, 2, 2, 3}
	for i, s := range strings.Fields(cycle("b6-b5 f2-f3 b5-b6 f3-f2", 2)) {
		plyChecked(t, p, mv(t, s))
		if got := p.Repetitions(); got != want[i] {
			t.Errorf("after ply %d (%s): Repetitions() = %d, want %d", i+1, s, got, want[i])
		}
	}
	if o := p.Outcome(); o != (Outcome{AttackersWin, ReasonRepetition, 8}) {
		t.Errorf("outcome %+v, want attackers win by repetition at ply 8", o)
	}

	// The same board with the other side to move does not count.
	q := rowPosition(t, "copenhagen", nil, Attackers, repetitionBoard)
	for _, s := range strings.Fields("b6-b4 f2-f3 b4-b5 f3-f2 b5-b6") {
		plyChecked(t, q, mv(t, s))
	}
	if draw(q) != draw(rowPosition(t, "copenhagen", nil, Attackers, repetitionBoard)) {
		t.Fatalf("the triangle did not bring back the set-up board:\n%s", draw(q))
	}
	if got := q.Repetitions(); got != 1 {
		t.Errorf("set-up board with the defenders to move: Repetitions() = %d, want 1", got)
	}
}

// setUpRow is a set-up position and its outcome before any ply.
type setUpRow struct {
	name   string
	rule   string
	rules  string
	toMove Side
	board  string
	want   Outcome // Ply 0; zero: the game goes on
}

var setUpRows = []setUpRow{
	{
		name: "copenhagen: the king on a corner has escaped", rule: "§1.6.1",
		rules: "copenhagen", toMove: Attackers,
		want: Outcome{DefendersWin, ReasonEscape, 0},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. t . . . . .
			. . . . . T .
			K . . . . . .`,
	},
	{
		name: "historical: the king on an edge square has escaped", rule: "§1.6.1; H1",
		rules: "historical", toMove: Attackers,
		want: Outcome{DefendersWin, ReasonEscape, 0},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . . .
			K . . . . . .
			. t . . . . .
			. . . . . T .
			. . . . . . .`,
	},
	{
		name: "copenhagen: the king on an edge square that is not a corner", rule: "§1.6.1",
		rules: "copenhagen", toMove: Attackers,
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . . .
			K . . . . . .
			. t . . . . .
			. . . . . T .
			. . . . . . .`,
	},
	{
		name: "copenhagen: an edge fort", rule: "§1.6.3",
		rules: "copenhagen", toMove: Attackers,
		want:  Outcome{DefendersWin, ReasonEdgeFort, 0},
		board: fortBoard,
	},
	{
		name: "fetlar: no edge fort", rule: "§2 Fetlar edge fort: no",
		rules: "fetlar", toMove: Attackers,
		board: fortBoard,
	},
	{
		name: "copenhagen: encircled", rule: "§1.6.4",
		rules: "copenhagen", toMove: Defenders,
		want:  Outcome{AttackersWin, ReasonEncirclement, 0},
		board: encircledBoard,
	},
	{
		name: "fetlar F1: no encirclement", rule: "F1",
		rules: "fetlar", toMove: Defenders,
		board: encircledBoard,
	},
	{
		name: "copenhagen: the defenders to move have no legal move", rule: "§1.6.6",
		rules: "copenhagen", toMove: Defenders,
		want:  Outcome{AttackersWin, ReasonNoLegalMove, 0},
		board: blockedBoard,
	},
	{
		name: "fetlar F1: the defenders to move have no legal move", rule: "F1",
		rules: "fetlar", toMove: Defenders,
		want:  Outcome{Draw, ReasonNoLegalMove, 0},
		board: blockedBoard,
	},
	{
		name: "vingolf V2: the defenders to move have no legal move", rule: "V2",
		rules: "vingolf", toMove: Defenders,
		want:  Outcome{AttackersWin, ReasonNoLegalMove, 0},
		board: blockedBoard,
	},
	{
		name: "copenhagen: the same board with the attackers to move goes on", rule: "§1.6.6 (the side to move)",
		rules: "copenhagen", toMove: Attackers,
		board: blockedBoard,
	},
	{
		name: "copenhagen: the attackers to move have no legal move", rule: "§1.6.6",
		rules: "copenhagen", toMove: Attackers,
		want: Outcome{DefendersWin, ReasonNoLegalMove, 0},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. . . . . . .
			. T . . . . .
			. t T . . . .`,
	},
	{
		name: "fetlar: escape comes before the attackers' missing move", rule: "§1.6 order; F1",
		rules: "fetlar", toMove: Attackers,
		want: Outcome{DefendersWin, ReasonEscape, 0},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . T
			. . . . . T t
			K . . . . . .`,
	},
	{
		name: "copenhagen: edge fort comes before the attackers' missing move", rule: "§1.6 order",
		rules: "copenhagen", toMove: Attackers,
		want: Outcome{DefendersWin, ReasonEdgeFort, 0},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. T . T T . T
			. t T K . T .`,
	},
	{
		name: "copenhagen: encirclement comes before the defenders' missing move", rule: "§1.6 order",
		rules: "copenhagen", toMove: Defenders,
		want: Outcome{AttackersWin, ReasonEncirclement, 0},
		board: `
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. t t . . . .
			t T T t . . .
			t K T t . . .
			. t t . . . .`,
	},
}

// fortBoard: F = {d1, e1}, walled by c1, d2, e2, f1.
const fortBoard = `
	. . . . . . .
	. . . . . . .
	. . . . . . .
	. . . . . . .
	. t . . . . .
	. . . T T . .
	. t T K . T .`

// encircledBoard: the king and a defender in a closed pocket.
const encircledBoard = `
	. . . . . . .
	. . . . . . .
	. . . . . . .
	. t t . . . .
	t . T t . . .
	t K . t . . .
	. t t . . . .`

// blockedBoard: every defender and the king are blocked.
const blockedBoard = `
	. . . . . . .
	. . . . . . .
	. . . . . . .
	. . . . . . .
	. . . t . . .
	. . t T t . .
	. t T K T t .`

func TestSetUpOutcome(t *testing.T) {
	for _, row := range setUpRows {
		t.Run(row.rules+"/"+row.name, func(t *testing.T) {
			p := rowPosition(t, row.rules, nil, row.toMove, row.board)
			if got := p.Outcome(); got != row.want {
				t.Errorf("[%s] set-up outcome %+v, want %+v\n%s", row.rule, got, row.want, draw(p))
			}
			if p.Ply() != 0 || p.Repetitions() != 1 || p.ToMove() != row.toMove {
				t.Errorf("[%s] set-up: ply %d, repetitions %d, %v to move", row.rule, p.Ply(), p.Repetitions(), p.ToMove())
			}
			if row.want.Over() {
				checkOver(t, p, mv(t, "b2-b3"))
			} else if len(p.LegalMoves(nil)) == 0 {
				t.Errorf("[%s] the game goes on but LegalMoves is empty", row.rule)
			}
		})
	}
}

func TestStartPositionsGoOn(t *testing.T) {
	for _, name := range []string{"copenhagen", "fetlar", "historical", "vingolf", "tablut", "brandubh"} {
		v, ok := Lookup(name)
		if !ok {
			t.Fatalf("no variant %q", name)
		}
		p, err := NewPosition(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p.Outcome().Over() || p.Ply() != 0 || p.Repetitions() != 1 || p.ToMove() != Attackers {
			t.Errorf("%s start: outcome %+v ply %d repetitions %d, %v to move; want a running game, ply 0, 1, attackers",
				name, p.Outcome(), p.Ply(), p.Repetitions(), p.ToMove())
		}
	}
}

func TestSetUpInvalid(t *testing.T) {
	rows := []struct {
		name, rules, board string
	}{
		{"an attacker on the throne", "copenhagen", `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . t . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .`},
		{"a defender on the throne", "copenhagen", `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . T . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .`},
		{"an attacker on a corner", "copenhagen", `
			. . . . . . .
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			t . . . . . .`},
		{"a defender on a corner", "brandubh", `
			. . . . . . T
			. . . . . . .
			. . . . . K .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .`},
		{"no king", "copenhagen", `
			. . . . . . .
			. . . . . . .
			. . . . . T .
			. . . . . . .
			. . . . . . .
			. t . . . . .
			. . . . . . .`},
		{"two kings", "copenhagen", `
			. . . . . . .
			. . . . . . .
			. K . . . K .
			. . . . . . .
			. . . . . . .
			. t . . . . .
			. . . . . . .`},
	}
	for _, row := range rows {
		t.Run(row.rules+"/"+row.name, func(t *testing.T) {
			v, ok := Lookup(row.rules)
			if !ok {
				t.Fatalf("no variant %q", row.rules)
			}
			b := NewBoard(7)
			for i, line := range diagramRows(row.board) {
				for f, c := range line {
					b.Set(SquareAt(f, 6-i), Piece(strings.IndexRune(".tTK", c)))
				}
			}
			// A valid 7×7 start keeps Validate about the variant only.
			v.Size, v.Start = 7, diagramRows(repetitionBoard)
			if _, err := NewPositionFromBoard(v, b, Attackers); !errors.Is(err, ErrInvalidPosition) {
				t.Errorf("NewPositionFromBoard(%s) = %v, want an error wrapping ErrInvalidPosition", row.name, err)
			}
		})
	}
	// Historical has no corners: an attacker may stand on a1.
	v, _ := Lookup("historical")
	v.Size, v.Start = 7, diagramRows(repetitionBoard)
	b := NewBoard(7)
	b.Set(SquareAt(0, 0), Attacker)
	b.Set(SquareAt(5, 4), King)
	if _, err := NewPositionFromBoard(v, b, Attackers); err != nil {
		t.Errorf("historical: an attacker on a1: %v, want no error", err)
	}
}
