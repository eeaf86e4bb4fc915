package grammar

import (
	"fmt"
	"io"

	"github.com/alecthomas/participle/v2/lexer"
)

//go:generate go run ./internal/lexgen -o lexer_gen.go

// genDefinition is a participle lexer compiled by lexgen (lexer_gen.go)
// from the rules of one of grammar's stateful lexers. It lexes as
// participle's StatefulLexer does, with the same token types, values,
// positions and errors, but matches each rule with generated code instead
// of package regexp, and allocates nothing per token: lexing a ply takes
// about a tenth of the time (docs/performance.md).
type genDefinition struct {
	symbols map[string]lexer.TokenType
	states  []string    // state names, Root first
	rules   [][]genRule // the rules of each state, in order
}

// genRule is one rule of a state.
type genRule struct {
	name   string
	match  func(string) int // the length of the rule's match at the start, or -1
	first  [4]uint64        // the bytes a match can start with, a bit each
	typ    lexer.TokenType
	ignore bool // a rule named in lower case: its tokens are dropped
	push   int  // the state it enters, or -1
	pop    bool // it leaves the state
	ret    bool // lexer.Return(): leave the state without consuming input
}

var (
	_ lexer.Definition       = (*genDefinition)(nil)
	_ lexer.StringDefinition = (*genDefinition)(nil)
	_ lexer.BytesDefinition  = (*genDefinition)(nil)
)

// Symbols returns the token types by name, as participle numbers them.
func (d *genDefinition) Symbols() map[string]lexer.TokenType { return d.symbols }

// Lex reads r whole and lexes it.
func (d *genDefinition) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return d.LexString(filename, string(b))
}

// LexBytes lexes b (copied).
func (d *genDefinition) LexBytes(filename string, b []byte) (lexer.Lexer, error) {
	return d.LexString(filename, string(b))
}

// LexString lexes s.
func (d *genDefinition) LexString(filename string, s string) (lexer.Lexer, error) {
	l := &genLexer{}
	l.reset(d, filename, s)
	return l, nil
}

// genLexer lexes one input.
type genLexer struct {
	def   *genDefinition
	data  string // the input not yet lexed
	pos   lexer.Position
	stack []int // states entered, Root at the bottom
	base  [8]int
}

// reset starts lexing s in state Root.
func (l *genLexer) reset(d *genDefinition, filename, s string) {
	l.def, l.data = d, s
	l.pos = lexer.Position{Filename: filename, Line: 1, Column: 1}
	l.stack = append(l.base[:0], 0)
}

// Next returns the next token: the first rule of the current state that
// matches wins; a Return rule leaves the state and the search starts over
// in the state below; dropped tokens are skipped.
func (l *genLexer) Next() (lexer.Token, error) {
	rules := l.def.rules[l.stack[len(l.stack)-1]]
next:
	for len(l.data) > 0 {
		var rule *genRule
		n := -1
		for i := range rules {
			r := &rules[i]
			if r.ret {
				l.stack = l.stack[:len(l.stack)-1]
				rules = l.def.rules[l.stack[len(l.stack)-1]]
				continue next
			}
			if c := l.data[0]; r.first[c>>6]&(1<<(c&63)) == 0 {
				continue
			}
			if n = r.match(l.data); n >= 0 {
				rule = r
				break
			}
		}
		if rule == nil {
			sample := []rune(l.data)
			if len(sample) > 16 {
				sample = append(sample[:16], []rune("...")...)
			}
			return lexer.Token{}, &lexer.Error{Msg: fmt.Sprintf("lexer: invalid input text %q", string(sample)), Pos: l.pos}
		}
		switch {
		case rule.push >= 0:
			l.stack = append(l.stack, rule.push)
		case rule.pop:
			l.stack = l.stack[:len(l.stack)-1]
		}
		span := l.data[:n]
		l.data = l.data[n:]
		pos := l.pos
		if plainSpan(span) {
			l.pos.Offset += n
			l.pos.Column += n
		} else {
			l.pos.Advance(span)
		}
		if rule.ignore {
			rules = l.def.rules[l.stack[len(l.stack)-1]]
			continue
		}
		return lexer.Token{Type: rule.typ, Value: span, Pos: pos}, nil
	}
	return lexer.EOFToken(l.pos), nil
}

// plainSpan reports whether s holds only ASCII characters other than the
// line feed, so that it advances the column by its length.
func plainSpan(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] == '\n' {
			return false
		}
	}
	return true
}

// isWordByte reports whether c is one of regexp's word characters
// ([0-9A-Za-z_]); bytes of multi-byte characters are not.
func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_'
}
