package search

import (
	"fmt"
	"time"

	"github.com/taflmail/taflmail/engine"
)

// Level is a playing strength from MinLevel (weakest) to MaxLevel
// (strongest): a depth limit, a default think time per move and the
// evaluation terms used. docs/engine.md gives the table and the self-play
// scores that show each level beating the one below.
type Level int

// The range of levels.
const (
	MinLevel Level = 1
	MaxLevel Level = 5
)

// LevelSpec is what a level means.
type LevelSpec struct {
	Level Level
	// Depth is the deepest iteration, in plies; 0 for none.
	Depth int
	// Think is the default think time per move.
	Think time.Duration
	// Terms are the evaluation terms used (the others weigh zero).
	Terms Terms
}

// levels holds the table of docs/engine.md, "Levels".
var levels = [...]LevelSpec{
	{Level: 1, Depth: 1, Think: 200 * time.Millisecond, Terms: TermMaterial | TermEscape},
	{Level: 2, Depth: 2, Think: 500 * time.Millisecond, Terms: TermMaterial | TermEscape | TermMobility | TermDanger},
	{Level: 3, Depth: 3, Think: 1 * time.Second, Terms: AllTerms},
	{Level: 4, Depth: 0, Think: 3 * time.Second, Terms: AllTerms},
	{Level: 5, Depth: 0, Think: 10 * time.Second, Terms: AllTerms},
}

// Spec returns what level l means. It panics for a level outside
// MinLevel..MaxLevel (check with Valid).
func (l Level) Spec() LevelSpec {
	if !l.Valid() {
		panic(fmt.Sprintf("search: level %d outside %d..%d", int(l), MinLevel, MaxLevel))
	}
	return levels[l-1]
}

// Valid reports whether l is one of the levels MinLevel..MaxLevel.
func (l Level) Valid() bool { return l >= MinLevel && l <= MaxLevel }

// Limits returns the search limits of level l for a think time of think
// per move (Budget); think ≤ 0 means the level's default Think.
func (l Level) Limits(think time.Duration) Limits {
	sp := l.Spec()
	if think <= 0 {
		think = sp.Think
	}
	lim := Budget(think)
	lim.Depth = sp.Depth
	return lim
}

// Options returns searcher options whose evaluation uses only the level's
// terms (DefaultWeights(v).Only(terms)).
func (l Level) Options() Options {
	terms := l.Spec().Terms
	return Options{Weights: func(v *engine.Variant) Weights { return DefaultWeights(v).Only(terms) }}
}
