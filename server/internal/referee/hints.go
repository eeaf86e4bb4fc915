package referee

import (
	"regexp"
	"strings"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/nearmiss"
)

// Hints for common slips. The grammar only parses; noticing what a player
// probably meant, and saying so, is the referee's: each hint is a sentence
// added to the refusal, in the player's language.

// dashSlip finds a move written with a typographic dash (en dash, em dash,
// minus sign, Unicode hyphens: word processors and phones put them in),
// with spaces around the hyphen, or with no dash at all: "h3–h4",
// "d6 - d9", "d6 -d9", "e5e3", "e5 e3".
var dashSlip = regexp.MustCompile(`([A-Za-z]{1,2}[0-9]{1,2})(\s*[‐‑‒–—―−]\s*|\s+-\s*|-\s+|\s*)([A-Za-z][0-9]{1,2})`)

// DashHint returns the hint for a line that does not parse because of its
// dash, "Write moves as d6-d9.", or "" when mending the dash does not make
// the line a move.
func DashHint(lang, line string) string {
	fixed := dashSlip.ReplaceAllString(line, "$1-$3")
	if fixed == line {
		return ""
	}
	fixed = strings.TrimSpace(fixed)
	cmd, err := grammar.ParseCommand("hint", 1, fixed)
	if _, ok := cmd.(*grammar.MoveCommand); !ok || err != nil {
		return ""
	}
	return Tr(lang, "hint.dash", fixed)
}

// BoardHint says which squares the board of t has: "The board runs from a1
// to k11." (RULES.md §0: files from a, ranks from 1).
func BoardHint(lang string, t *Table) string {
	n := t.Variant.Size
	return Tr(lang, "hint.board", engine.SquareAt(n-1, n-1))
}

// VariantHint returns "Did you mean copenhagen?" for a variant name with a
// typo, naming the built-in variant nearest to name (already lower case,
// without accents, "-" and "_"), or "" when none is near: at most two
// edits, and fewer edits than the name has letters.
func VariantHint(lang, name string) string {
	best, bestD := "", 3
	for _, v := range engine.Variants() {
		if d := nearmiss.Distance(name, v.Name); d < bestD && d < len([]rune(name)) {
			best, bestD = v.Name, d
		}
	}
	if best == "" {
		return ""
	}
	return Tr(lang, "hint.variant", best)
}

// lookupVariant finds a built-in variant by its name as a player writes it
// (see VariantNamed).
func lookupVariant(written string) (*engine.Variant, bool) {
	return engine.Lookup(variantKey(written))
}

// variantKey is a variant's name as written, in lower case without "-",
// "_" and the accent of "Ó": the form engine.Lookup knows.
func variantKey(written string) string {
	return strings.NewReplacer("ó", "o", "-", "", "_", "").Replace(strings.ToLower(written))
}
