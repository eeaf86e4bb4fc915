package engine_test

import (
	"fmt"
	"slices"
	"strings"

	"github.com/taflmail/taflmail/engine"
)

// Perft counts the ply sequences from a position; Ends counts the ones that
// end the game (shared/cases/perft.md). In Brandubh the first game ends
// appear at depth 5.
func ExamplePerft() {
	v, _ := engine.Lookup("brandubh")
	p, err := engine.NewPosition(v)
	if err != nil {
		panic(err)
	}
	for depth := 1; depth <= 3; depth++ {
		r := engine.Perft(p, depth)
		fmt.Printf("perft(%d) = %d nodes, %d ends\n", depth, r.Nodes, r.Ends)
	}
	// Output:
	// perft(1) = 40 nodes, 0 ends
	// perft(2) = 960 nodes, 0 ends
	// perft(3) = 39512 nodes, 0 ends
}

// LegalMoves appends to the slice it is given, so a search can reuse one
// buffer and allocate nothing.
func ExamplePosition_LegalMoves() {
	v, _ := engine.Lookup("brandubh")
	p, err := engine.NewPosition(v)
	if err != nil {
		panic(err)
	}
	buf := make([]engine.Move, 0, 64)
	buf = p.LegalMoves(buf[:0])
	fmt.Println(len(buf), "legal plies for the", p.ToMove())

	// The attacker on d1 may not stop on the corners a1 and g1, and d2
	// holds another attacker.
	var d1 []string
	for _, m := range buf {
		if m.From.String() == "d1" {
			d1 = append(d1, m.String())
		}
	}
	slices.Sort(d1)
	fmt.Println(strings.Join(d1, " "))
	// Output:
	// 40 legal plies for the attackers
	// d1-b1 d1-c1 d1-e1 d1-f1
}
