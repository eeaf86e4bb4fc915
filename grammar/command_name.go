package grammar

import (
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// NameCommand sets, shows or clears the sender's public name, the name
// under which the club's web pages show them (issue 20): "name Ada
// Lovelace", German "anzeigename Ada Lovelace"; "name" alone shows it;
// "name -" goes back to the pseudonym. Name is nil without a name; its
// Text is the rest of the line as written (the referee checks its form:
// club.CheckPublicName).
type NameCommand struct {
	kw
	Keyword string    `parser:"@('name' | 'anzeigename')"`
	Name    *NameText `parser:"@@?"`
}

// NameText is the rest of a name command's line, blanks between its
// words kept as written.
type NameText struct {
	Pos  lexer.Position
	Text string
}

// Parse implements participle.Parseable: it takes every token to the
// end of the line.
func (n *NameText) Parse(lex *lexer.PeekingLexer) error {
	first := lex.Peek()
	if first.EOF() {
		return participle.NextMatch
	}
	var b strings.Builder
	end := first.Pos.Offset
	for tok := lex.Peek(); !tok.EOF(); tok = lex.Peek() {
		if gap := tok.Pos.Offset - end; gap > 0 {
			b.WriteString(strings.Repeat(" ", gap))
		}
		b.WriteString(tok.Value)
		end = tok.Pos.Offset + len(tok.Value)
		lex.Next()
	}
	n.Pos, n.Text = first.Pos, b.String()
	return nil
}

// German reports the German keyword "anzeigename".
func (c *NameCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

func (*NameCommand) command() {}

// nameProse decides a line whose first word is "name" or "anzeigename",
// which prose uses too ("Name the day you like!"): such a line is a
// command alone, before "-", or before up to five words without the
// punctuation of a sentence (, ; : ! ? and quotes).
func nameProse(f []string) bool {
	if len(f) == 1 || len(f) == 2 && f[1] == "-" {
		return true
	}
	if len(f) > 6 {
		return false
	}
	return !strings.ContainsAny(strings.Join(f[1:], " "), ",;:!?\"«»„“”")
}
