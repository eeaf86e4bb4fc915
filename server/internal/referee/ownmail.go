package referee

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/catalog"
)

// The referee's own mail pasted back without quote marks (a reply written
// above the old text, whose client did not mark it with ">"): from the
// first line the referee recognises as its own, the rest of the text is
// the old mail, and neither its commands nor its prose are read. A line
// is recognised by ownMail (the game header, the move list's heading, the
// signature) or by a line of any text of the catalogues, English and
// German (ownLine), so that every reply, the help overview, the games
// list and the leave replies included, is recognised by its first line.

// ownMail matches lines of the referee's mails that the catalogues do not
// hold whole or hold too short to be told from a player's (the game
// header "Game K7QX2M: …", the move list's heading, the signature): with
// ownLine, a reply quoting an earlier mail without quote marks is read
// only up to there.
var ownMail = regexp.MustCompile(`^[>\s]*((Game|Partie) [0-9A-Z]{6}: |Moves so far:|Bisherige Züge:|taflmail, the Tafl|taflmail, der Tafl)`)

// Thresholds of ownLine, in runes of a catalogue line's fixed text (the
// text around its fmt verbs).
const (
	// minOwnRunes is the least fixed text of a catalogue line that
	// ownLine recognises, and of the start of one a pasted line may hold
	// (the rest wrapped onto the next line: "Commands (one per line; case
	// does not matter; …"). Shorter lines ("Nothing was changed.", "You
	// played %s.", "the king escaped") are words a player writes too:
	// "You played well." is prose.
	minOwnRunes = 20
	// minOwnWords is the least words of fixed text of a catalogue line
	// that ownLine recognises, a heading aside: "Stellungswiederholung"
	// and "Verteidiger gewinnen" are a player's words too.
	minOwnWords = 3
	// minHeadingRunes is the least fixed text of a heading, a catalogue
	// line that ends in a colon ("Your games:", "In your line %d:"),
	// which ownLine recognises though it is shorter than minOwnRunes.
	minHeadingRunes = 10
)

// ownTemplate is one line of a catalogue text: its fixed parts, split at
// its fmt verbs (parts[0] before the first verb, the last after the last
// one), trimmed of white space at both ends.
type ownTemplate struct{ parts []string }

var (
	ownOnce sync.Once
	// ownByRune holds the catalogue lines by the first rune of their
	// fixed text (ownTemplates).
	ownByRune map[rune][]ownTemplate
)

// ownTemplates returns the lines of the catalogues' texts that ownLine
// recognises, by their first rune: every line of every text of both
// languages (tournament and consent texts included, which their init
// functions add; hence built on first use) that starts with fixed text,
// except the greeting, with minOwnRunes and minOwnWords of fixed text at
// least, or a heading (minHeadingRunes).
func ownTemplates() map[rune][]ownTemplate {
	ownOnce.Do(func() {
		ownByRune = map[rune][]ownTemplate{}
		seen := map[string]bool{}
		for _, lang := range []string{English, German} {
			for _, key := range catalog.Keys(lang) {
				text, _ := catalog.Lookup(lang, key)
				if key == "greeting" {
					continue
				}
				for _, line := range strings.Split(text, "\n") {
					line = strings.TrimSpace(line)
					if seen[line] {
						continue
					}
					seen[line] = true
					parts := splitVerbs(line)
					fixed := 0
					for _, p := range parts {
						fixed += utf8.RuneCountInString(p)
					}
					heading := strings.HasSuffix(line, ":") && fixed >= minHeadingRunes
					long := fixed >= minOwnRunes && len(strings.Fields(strings.Join(parts, " "))) >= minOwnWords
					if parts[0] == "" || !long && !heading {
						continue
					}
					r, _ := utf8.DecodeRuneInString(parts[0])
					ownByRune[r] = append(ownByRune[r], ownTemplate{parts: parts})
				}
			}
		}
	})
	return ownByRune
}

// splitVerbs returns the fixed parts of a catalogue line around its fmt
// verbs as catalog.SplitFormat reads them, "%%" read as "%", the first
// and the last trimmed of white space: "Leave taken: %s. You have %s."
// is "Leave taken:", ". You have ", ".".
func splitVerbs(line string) []string {
	parts, _ := catalog.SplitFormat(line)
	parts[0] = strings.TrimSpace(parts[0])
	parts[len(parts)-1] = strings.TrimSpace(parts[len(parts)-1])
	return parts
}

// OwnStart returns the index in lines of the first line of the referee's
// own mail pasted without quote marks, or -1: the first line ownLine
// recognises, or the greeting ("Hello,", "Hallo,") just above it, blank
// lines between them, with which that mail begins. A greeting followed
// by anything else is the player's own and stays.
func OwnStart(lines []string) int {
	greeting := -1 // the greeting above the lines seen since, all blank
	for i, line := range lines {
		if OwnLine(line) {
			if greeting >= 0 {
				return greeting
			}
			return i
		}
		l := strings.TrimSpace(strings.TrimLeft(line, "> \t"))
		switch {
		case ownGreeting(l):
			greeting = i
		case l != "":
			greeting = -1
		}
	}
	return -1
}

// ownGreeting reports whether l, trimmed, is the referee's greeting in
// either language (the catalogues' "greeting").
func ownGreeting(l string) bool {
	return l == Tr(English, "greeting") || l == Tr(German, "greeting")
}

// maxOwnLineBytes bounds the lines ownLine looks at: no line of the
// referee's is longer (a quoted line of the player's is cut to
// MaxQuoteRunes), and a 100,000-character line is no pasted reply.
const maxOwnLineBytes = 4 * MaxQuoteRunes * utf8.UTFMax

// OwnLine reports whether line (of a mail's text) is a line the referee
// writes: ownMail's, or a line of a catalogue text (ownTemplates) with
// any words where the text has its fmt verbs — the whole line, or the
// start of one whose fixed text before its first verb has minOwnRunes at
// least, the rest wrapped onto the next line. A command line is never
// the referee's (a reply may tell the player a command to send, "join
// winter-2027 confirm …", and the player may paste it).
func OwnLine(line string) bool {
	if ownMail.MatchString(line) {
		return true
	}
	l := strings.TrimSpace(strings.TrimLeft(line, "> \t"))
	if l == "" || len(l) > maxOwnLineBytes || grammar.IsCommandLine(line) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(l)
	for _, t := range ownTemplates()[r] {
		if t.matches(l) {
			return true
		}
	}
	return false
}

// matches reports whether l is the template's line with some text, at
// least one character, for each verb, or the start of it: cut at a
// space inside the fixed text before the first verb with minOwnRunes of
// it kept, or — when that text has minOwnRunes — at a space inside a
// later fixed text with minWrapRunes of it kept after its verb's text
// (wrappedIn). A line that only begins as a template does and then goes
// on in words of its own ("The board runs from a1 to g7, right?") is
// the player's.
func (t ownTemplate) matches(l string) bool {
	head := t.parts[0]
	if !strings.HasPrefix(l, head) {
		return strings.HasPrefix(head, l) && utf8.RuneCountInString(l) >= minOwnRunes && head[len(l)] == ' '
	}
	if len(t.parts) == 1 {
		return l == head || utf8.RuneCountInString(head) >= minOwnRunes && l[len(head)] == ' '
	}
	wraps := utf8.RuneCountInString(head) >= minOwnRunes
	rest := l[len(head):]
	last := t.parts[len(t.parts)-1]
	for i, p := range t.parts[1:] {
		if len(rest) < 1 {
			return false
		}
		if wraps && wrappedIn(rest, p) {
			return true
		}
		if i == len(t.parts)-2 { // the last part ends the line
			return len(rest) > len(p) && strings.HasSuffix(rest, last)
		}
		j := strings.Index(rest[1:], p)
		if j < 0 {
			return false
		}
		rest = rest[1+j+len(p):]
	}
	return false
}

// minWrapRunes is the least of a fixed text after a verb that a line cut
// by its wrapping must keep for ownLine to take it as the referee's: the
// words of the template that stand after the verb's text tell the
// referee's line from a player's that begins the same way.
const minWrapRunes = 4

// wrappedIn reports whether rest, the line after a verb's place, is some
// text for the verb (a character at least) and then the start of the
// fixed text p with minWrapRunes of it, the line ending at a space of p
// or at its end.
func wrappedIn(rest, p string) bool {
	for j := 1; j < len(rest); j++ {
		s := rest[j:]
		if utf8.RuneCountInString(s) < minWrapRunes {
			return false
		}
		if strings.HasPrefix(p, s) && (len(s) == len(p) || p[len(s)] == ' ') {
			return true
		}
	}
	return false
}
