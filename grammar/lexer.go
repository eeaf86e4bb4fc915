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
