package nearmiss

import (
	"strings"
	"testing"
)

// TestCommand: the lines of trial 2 report §4 with a typo or a word after
// a two-word phrase find the command meant, a misspelt phrase before an
// id the command with the id; prose near a command word,
// a command written right and a word too short to be misspelt find none.
func TestCommand(t *testing.T) {
	for line, want := range map[string]string{
		"aufgebn":               "aufgeben",
		"zurücknehmn":           "zurücknehmen",
		"bedingungn löschen":    "bedingungen löschen",
		"rücknahme annehmn":     "rücknahme annehmen",
		"nachrichten aus bitte": "nachrichten aus",
		"resing":                "resign",
		"notfy":                 "notify",
		"Takebak!":              "takeback",
		"messages off please":   "messages off",
		// a phrase that names an id, misspelt before one (outside trial §13)
		"standngs xmas-cup":  "standings xmas-cup",
		"Tabele WC2027.":     "tabelle wc2027",
		"watsh K7QX2M":       "watch k7qx2m",
		"Standing ovation":   "", // no id after it
		"withdraw xmas-cup":  "", // the command itself
		"standngs xmas-cup ": "standings xmas-cup",
		// prose, and what is no near miss
		"Aufgabe":                     "", // two edits from "aufgeben"
		"Aufgabe gelöst!":             "",
		"Partie gefällt mir":          "",
		"Notify me when you are back": "", // more words than a phrase and one
		"Messages are welcome":        "",
		"resign":                      "", // the phrase itself
		"nun":                         "", // "neu" is too short to be misspelt
		"":                            "",
		strings.Repeat("a", 100000):   "",
	} {
		if got := Command(line); got != want {
			t.Errorf("Command(%.40q) = %q, want %q", line, got, want)
		}
	}
}

// TestDistance: the optimal string alignment distance, in runes, with a
// swap of neighbours as one edit.
func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "abc", 3}, {"tabult", "tablut", 1}, {"kitten", "sitting", 3}, {"züge", "zuge", 1}, {"same", "same", 0}} {
		if got := Distance(c.a, c.b); got != c.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

// TestAlone: a mail's only line may also be a short command word with two
// neighbours swapped; any other edit of a short word, a swap in a line of
// more words, and words of fewer than three letters stay prose, and what
// Command finds Alone finds too.
func TestAlone(t *testing.T) {
	for line, want := range map[string]string{
		"hlep":   "help",
		"Hlep!":  "help",
		"naem":   "name",
		"jion":   "join",
		"hur":    "uhr",
		"nwe":    "new",
		"baord":  "board", // Command's
		"resgin": "resign",
		// prose
		"help":      "", // the phrase itself
		"held":      "", // a substitution
		"now":       "",
		"ihr":       "",
		"hi":        "",
		"ok":        "",
		"fi":        "", // "if" is too short
		"thanks":    "",
		"hlep me":   "",
		"":          "",
		"hlep hlep": "",
	} {
		if got := Alone(line); got != want {
			t.Errorf("Alone(%q) = %q, want %q", line, got, want)
		}
	}
}
