// Package grammar parses the text of tafl games into syntax trees: single
// moves in OpenTafl notation (OTN spec, "Move Records"; RULES.md §0 for
// squares and sides), taflmail's native record format (docs/notation.md),
// OpenTafl game records (.otg; OTN spec, "Game Records"), OTN rules strings
// (OTN spec, "Rules Records") and the one-game-a-line CSV format described in
// shared/records/README.md.
//
// It only parses: a tree says what was written, with the position of every
// node (Pos, as participle's lexer.Position: file, byte offset, line, column
// in runes). Whether a move is legal, a capture mark right or a rules key
// supported is decided when the tree is replayed (packages notation and
// engine). Every entry point returns a *Error on malformed input and never
// panics. The grammars are built with participle; docs/notation.md shows
// them as EBNF printed by the parsers.
//
// Files: lexer.go (the token rules of every language), move.go (squares,
// moves, plies), record.go (native records and their writer), otg.go
// (OpenTafl records and rules strings), csv.go, error.go.
package grammar

import (
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/taflmail/taflmail/grammar/internal/lexrules"
)

// The lexers of the five languages, built from the token rules in
// internal/lexrules (which explains them). These reflective lexers are the
// definition; the parsers use the lexers compiled from the same rules
// (lexer_gen.go), which TestGeneratedLexers and FuzzGeneratedLexers check
// against them.
var (
	moveLexer   = lexer.MustStateful(lexrules.Move)
	recordLexer = lexer.MustStateful(lexrules.Record)
	otgLexer    = lexer.MustStateful(lexrules.OTG)
	csvLexer    = lexer.MustStateful(lexrules.CSV)
	rulesLexer  = lexer.MustStateful(lexrules.Rules)
)

// offsetLexer shifts the positions of the tokens (and errors) of a lexer that
// reads a sub-source, such as the rules string inside a tag, so that they
// point into the enclosing file.
type offsetLexer struct {
	lexer.Lexer
	base lexer.Position
}

// Next returns the next token of the sub-source, positioned in the file.
func (l *offsetLexer) Next() (lexer.Token, error) {
	t, err := l.Lexer.Next()
	t.Pos = shift(l.base, t.Pos)
	if lerr, ok := err.(*lexer.Error); ok {
		lerr.Pos = shift(l.base, lerr.Pos)
	}
	return t, err
}

// timeControlLexer lexes a time control (ParseTimeControl,
// CORRESPONDENCE.md §1): numbers, the unit letters d, h and m, the words
// none, max, move and iccf, "+" and "/". A word of two or more letters is
// one token, so "30dmax" is the word "dmax", not "30d" and "max".
var timeControlLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Int", Pattern: `[0-9]+`},
	{Name: "Word", Pattern: `[a-zA-Z]{2,}`},
	{Name: "Letter", Pattern: `[a-zA-Z]`},
	{Name: "Punct", Pattern: `[+/]`},
	{Name: "whitespace", Pattern: `[ \t]+`},
})

// patDate is a date as the leave grammar lexes it: three numbers joined by
// dashes. Whether it is YYYY-MM-DD and a day of the calendar is checked
// after parsing, so that "2026-1-2" is answered with the expected form.
const patDate = `[0-9]+-[0-9]+-[0-9]+`

// leaveLexer lexes a list of leave intervals, the value of an
// AttackersLeave or DefendersLeave tag (ParseLeaves, CORRESPONDENCE.md §5):
// "2026-12-24/2027-01-02, 2027-07-01/2027-07-14".
var leaveLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Date", Pattern: patDate},
	{Name: "Slash", Pattern: `/`},
	{Name: "Comma", Pattern: `,`},
	{Name: "whitespace", Pattern: `[ \t]+`},
})

// commentLexer splits the text of a comment into free text and comment
// commands "[%name value …]" (ParseComment; CORRESPONDENCE.md §5: "[%ts
// 2026-11-28T21:52:10Z]"). Text is anything but "["; a "[" that does not
// start a command is text of its own.
var commentLexer = lexer.MustStateful(lexer.Rules{
	"Root": {
		{Name: "CmdOpen", Pattern: `\[%`, Action: lexer.Push("Cmd")},
		{Name: "Text", Pattern: `[^\[]+|\[`},
	},
	"Cmd": {
		{Name: "whitespace", Pattern: `[ \t\r\n]+`},
		{Name: "Close", Pattern: `\]`, Action: lexer.Pop()},
		{Name: "Arg", Pattern: `[^ \t\r\n\]]+`},
	},
})
