package search

// Advice for a player that the engine stands in for (issue 13: "resigns
// hopeless positions, accepts draws only when it should"). Both take the
// Result of a search of the position with the engine's side to move, as
// the engine's own move search returns it; the thresholds are in
// evaluation points (100 = one attacker).

// ResignScore: at or below this score (and at every proven loss) the
// engine resigns. Twenty attackers' worth is far outside what the
// evaluation gives an undecided position.
const ResignScore Score = -2000

// DrawScore: the engine accepts a draw offer when its score is at or below
// this (it stands worse by about an attacker or more), or when it has
// proven a loss; an even or better position plays on.
const DrawScore Score = -100

// Resign reports whether the side to move should resign after its search
// returned r: the search proved a loss (r.Score.IsLoss()), or the score is
// at most ResignScore.
func Resign(r Result) bool { return r.Score.IsLoss() || r.Score <= ResignScore }

// AcceptDraw reports whether the side to move should accept a draw offer
// after its search returned r: never when it has proven a win; otherwise
// when the score is at most DrawScore (a proven loss included).
func AcceptDraw(r Result) bool { return !r.Score.IsWin() && r.Score <= DrawScore }
