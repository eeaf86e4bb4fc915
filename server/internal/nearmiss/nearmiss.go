// Package nearmiss finds the mail command a misspelt line meant (trial 2
// report §4). A line that is not a command (grammar.IsCommandLine) but is
// a command phrase (grammar.CommandPhrases) with a typo — "aufgebn",
// "rücknahme annehmn", "notfy" — or a two-word phrase with one word after
// it — "nachrichten aus bitte" — is no message for the opponent: the
// referee answers it "Did you mean …?" and does not pass it on (issue 12:
// command lines are never relayed). The rule is narrow so that prose
// still goes (docs/commands.md, "Did you mean"):
//
//   - a phrase of one word matches a line of that one word alone, one
//     edit away ("Aufgabe", two edits from "aufgeben", is prose);
//   - a phrase of two words matches a line of two or three words whose
//     first two are the phrase's, each at most one edit away, with a
//     typo or a third word;
//   - an edit is an insertion, deletion, substitution or swap of two
//     neighbours (Distance), allowed only in a phrase word of at
//     least minTypoRunes letters: "neu", "uhr", "wenn", "aus" must be
//     written right ("nun", "ihr" and "denn" are prose);
//   - a phrase that names a game or an event after it (idPhrases:
//     "standings", "watch", "withdraw" …) matches a line of two words
//     whose first is the phrase with a typo and whose second is shaped
//     like an id ("standngs xmas-cup"); the answer is the phrase with
//     that id ("standings xmas-cup"), so "Standing ovation" stays prose;
//   - punctuation at the ends of a word does not count ("aufgebn!").
//
// A line that is all a mail says is asked about with Alone, which adds one
// rule to Command's: a one-word phrase shorter than minTypoRunes letters
// (at least minSwapRunes) matches a line of that one word with two
// neighbours swapped, and no other edit ("hlep", "naem"; "held", "now"
// and "ihr" stay prose). A swap of two letters seldom makes another
// word, and a mail of one word has nothing else to say.
//
// It reads no mail and writes no text: which lines it is asked about,
// and the answer, are the referee's.
package nearmiss

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/taflmail/taflmail/grammar"
)

// minTypoRunes is the length from which a phrase word may be misspelt by
// one edit and still be recognised.
const minTypoRunes = 5

// minSwapRunes is the length from which a phrase word shorter than
// minTypoRunes may have two neighbours swapped in a line that is all of
// its mail (Alone): "uhr" ("hur"), not "if" ("fi").
const minSwapRunes = 3

// idPhrases are the one-word phrases of grammar.CommandPhrases that
// name a game or a tournament by its id after them.
var idPhrases = map[string]bool{
	"standings": true, "tabelle": true, "withdraw": true, "abmelden": true, "anmelden": true,
	"watch": true, "zuschauen": true, "unwatch": true,
}

// Command returns the command phrase, its words joined by one space, that
// line (no command line) is near to by the rule of the package, or "":
// the nearest, fewest edits first, the first phrase of
// grammar.CommandPhrases among equals. A line that is a phrase exactly
// is not near it. For a misspelt phrase of idPhrases before an id the
// answer is the phrase and the id ("standings xmas-cup").
func Command(line string) string {
	var words []string
	for _, w := range strings.Fields(strings.ToLower(line)) {
		if w = strings.TrimFunc(w, unicode.IsPunct); w != "" {
			words = append(words, w)
		}
	}
	if len(words) == 2 && idShaped(words[1]) {
		for _, p := range grammar.CommandPhrases() {
			if len(p) == 1 && idPhrases[p[0]] && typo(words[0], p[0]) {
				return p[0] + " " + words[1]
			}
		}
	}
	best, bestD := "", 3
	for _, p := range grammar.CommandPhrases() {
		switch {
		case len(p) == 1 && len(words) != 1:
			continue
		case len(p) == 2 && (len(words) < 2 || len(words) > 3):
			continue
		}
		d := 0
		for i, w := range p {
			if n, m := utf8.RuneCountInString(words[i]), utf8.RuneCountInString(w); n > m+1 || m > n+1 {
				d = -1 // more than one edit apart; spares Distance a 100,000-letter word
				break
			}
			e := Distance(words[i], w)
			if e > 1 || e == 1 && utf8.RuneCountInString(w) < minTypoRunes {
				d = -1
				break
			}
			d += e
		}
		if d < 0 || d == 0 && len(words) == len(p) {
			continue // not near, or the phrase itself (which wants more: "watch")
		}
		if d < bestD {
			best, bestD = strings.Join(p, " "), d
		}
	}
	return best
}

// Alone returns the command phrase that line, the only line of its mail
// that is not blank (and no command line), is near to, or "": Command's
// answer, or else the one-word phrase shorter than minTypoRunes letters
// (at least minSwapRunes) that the line's one word is with two
// neighbouring letters swapped ("hlep" → "help", "hur" → "uhr"); the
// first such phrase of grammar.CommandPhrases.
func Alone(line string) string {
	if p := Command(line); p != "" {
		return p
	}
	words := strings.Fields(strings.ToLower(line))
	if len(words) != 1 {
		return ""
	}
	w := []rune(strings.TrimFunc(words[0], unicode.IsPunct))
	if len(w) < minSwapRunes || len(w) >= minTypoRunes {
		return ""
	}
	for _, p := range grammar.CommandPhrases() {
		if len(p) == 1 && swapped(w, []rune(p[0])) {
			return p[0]
		}
	}
	return ""
}

// typo reports whether word is phrase word p with one edit (Distance),
// p being at least minTypoRunes letters long.
func typo(word, p string) bool {
	n, m := utf8.RuneCountInString(word), utf8.RuneCountInString(p)
	return m >= minTypoRunes && n <= m+1 && m <= n+1 && Distance(word, p) == 1
}

// idShaped reports whether w, in lower case, is shaped like a game's or a
// tournament's id: ASCII letters and digits, after the first also "-"
// and "_", and six of them or at least one digit, "-" or "_" ("k7qx2m",
// "xmas-cup", "wc2027"), so that "ovation" is not.
func idShaped(w string) bool {
	if w == "" || strings.ContainsAny(w[:1], "-_") {
		return false
	}
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return len(w) == 6 || strings.ContainsAny(w, "0123456789-_")
}

// swapped reports whether a is b with two neighbouring, different runes
// swapped.
func swapped(a, b []rune) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i+1 < len(a); i++ {
		if a[i] != b[i] {
			return a[i] == b[i+1] && a[i+1] == b[i] && a[i] != a[i+1] && string(a[i+2:]) == string(b[i+2:])
		}
	}
	return false
}

// Distance is the optimal string alignment distance of a and b: the
// fewest insertions, deletions, substitutions and swaps of two neighbours
// that turn a into b, counted in runes ("tabult" → "tablut" is one swap).
func Distance(a, b string) int {
	s, t := []rune(a), []rune(b)
	// d[i][j] is the distance of s[:i] and t[:j].
	d := make([][]int, len(s)+1)
	for i := range d {
		d[i] = make([]int, len(t)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(s); i++ {
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(s)][len(t)]
}
