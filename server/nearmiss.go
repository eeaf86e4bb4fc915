package server

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/taflmail/taflmail/grammar"
)

// Misspelt commands (trial 2 report §4). A line that is not a command
// (grammar.IsCommandLine) but is a command phrase
// (grammar.CommandPhrases) with a typo — "aufgebn", "rücknahme annehmn",
// "notfy" — or a two-word phrase with one word after it — "nachrichten
// aus bitte" — is no message for the opponent: it is answered "Did you
// mean …?" and not passed on (issue 12: command lines are never relayed).
// The rule is narrow so that prose still goes (docs/commands.md, "Did you
// mean"):
//
//   - a phrase of one word matches a line of that one word alone, one
//     edit away ("Aufgabe", two edits from "aufgeben", is prose);
//   - a phrase of two words matches a line of two or three words whose
//     first two are the phrase's, each at most one edit away, with a
//     typo or a third word;
//   - an edit is an insertion, deletion, substitution or swap of two
//     neighbours (editDistance), allowed only in a phrase word of at
//     least minTypoRunes letters: "neu", "uhr", "wenn", "aus" must be
//     written right ("nun", "ihr" and "denn" are prose);
//   - punctuation at the ends of a word does not count ("aufgebn!").

// minTypoRunes is the length from which a phrase word may be misspelt by
// one edit and still be recognised.
const minTypoRunes = 5

// nearMiss is the error of a line that is a command with a typo: Phrase
// is the command the player probably meant.
type nearMiss struct{ phrase string }

func (e *nearMiss) Error() string { return "server: did you mean " + e.phrase + "?" }

// nearCommand returns the command phrase a line that is no command line
// is near to, by the rule above, or "": the nearest, fewest edits first,
// the first phrase of grammar.CommandPhrases among equals.
func nearCommand(line string) string {
	var words []string
	for _, w := range strings.Fields(strings.ToLower(line)) {
		if w = strings.TrimFunc(w, unicode.IsPunct); w != "" {
			words = append(words, w)
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
				d = -1 // more than one edit apart; spares editDistance a 100,000-letter word
				break
			}
			e := editDistance(words[i], w)
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

// nearLine returns the command phrase a line of a mail's text is near to
// (nearCommand), or "" for a command line, a quoted line, a game tag line
// or prose.
func nearLine(line string) string {
	if strings.HasPrefix(strings.TrimSpace(line), ">") || subjectTag.MatchString(line) || grammar.IsCommandLine(line) {
		return ""
	}
	return nearCommand(line)
}
