package search

import (
	"fmt"
)

// Score is a search result from the point of view of the side to move, in
// evaluation points (100 = one attacker; see Weights), or a decided game:
// Win - n is a forced win n plies from the position scored (the winning
// ply included), -(Win - n) a forced loss n plies away. A draw by the rules
// (repetition in Fetlar, no legal move where that draws) scores 0, as does
// an even position.
type Score int32

const (
	// Win is the score of a game won at the position itself; a win n
	// plies later scores Win - n.
	Win Score = 30000
	// Infinity is above every score.
	Infinity Score = 32000
	// MaxPly is the deepest ply from the root a search looks at
	// (iterations, extensions and quiescence together).
	MaxPly = 128
	// winBound: scores above it (below its negation) are decided games.
	winBound = Win - 2*MaxPly
)

// Decided reports whether s is a forced win or loss.
func (s Score) Decided() bool { return s > winBound || s < -winBound }

// IsWin reports whether s is a forced win for the side to move.
func (s Score) IsWin() bool { return s > winBound }

// IsLoss reports whether s is a forced loss for the side to move.
func (s Score) IsLoss() bool { return s < -winBound }

// Plies returns, for a decided score, in how many plies the game ends (the
// final ply included); 0 for a score that is not decided.
func (s Score) Plies() int {
	switch {
	case s.IsWin():
		return int(Win - s)
	case s.IsLoss():
		return int(Win + s)
	}
	return 0
}

// String returns "+1.25" (points / 100, the side to move's view), "win in
// 3" or "loss in 4" (plies).
func (s Score) String() string {
	switch {
	case s.IsWin():
		return fmt.Sprintf("win in %d", s.Plies())
	case s.IsLoss():
		return fmt.Sprintf("loss in %d", s.Plies())
	}
	return fmt.Sprintf("%+.2f", float64(s)/100)
}
