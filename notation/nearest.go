package notation

import (
	"strings"

	"github.com/taflmail/taflmail/engine"
)

// NearestVariant returns the built-in variant (engine.Variants) whose name
// is nearest to name, compared in lower case, for a "did you mean …?"
// hint: at most two edits away (insertions, deletions, substitutions,
// swaps of two neighbours), and fewer edits than name has letters; "" when
// none is that near. A built-in name is its own nearest.
func NearestVariant(name string) string {
	name = strings.ToLower(name)
	best, bestD := "", 3
	for _, v := range engine.Variants() {
		if d := editDistance(name, v.Name); d < bestD && d < len([]rune(name)) {
			best, bestD = v.Name, d
		}
	}
	if name != "" && best == "" {
		if _, ok := engine.Lookup(name); ok {
			return name
		}
	}
	return best
}

// editDistance counts the fewest single-rune insertions, deletions,
// substitutions and swaps of two neighbours that turn a into b (the
// optimal string alignment distance).
func editDistance(a, b string) int {
	s, t := []rune(a), []rune(b)
	// row2, row1 and row are the distances of s[:i-2], s[:i-1] and s[:i]
	// to every prefix of t.
	row2 := make([]int, len(t)+1)
	row1 := make([]int, len(t)+1)
	row := make([]int, len(t)+1)
	for j := range row1 {
		row1[j] = j
	}
	for i := 1; i <= len(s); i++ {
		row[0] = i
		for j := 1; j <= len(t); j++ {
			sub := 1
			if s[i-1] == t[j-1] {
				sub = 0
			}
			row[j] = min(row1[j]+1, row[j-1]+1, row1[j-1]+sub)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				row[j] = min(row[j], row2[j-2]+1)
			}
		}
		row2, row1, row = row1, row, row2
	}
	return row1[len(t)]
}
