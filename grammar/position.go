package grammar

import (
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// Position is a place in a source text: Filename as passed to the parser,
// Offset in bytes from the start, Line and Column 1-based, Column counted
// in runes. Every syntax tree node carries one in its Pos field.
//
// It is participle's lexer.Position under this package's name, so that the
// packages that read syntax trees (notation) can name positions without
// importing participle, which stays inside grammar (docs/architecture.md).
type Position = lexer.Position

// Positioned formats message at a place in a source text the way every
// positioned error of taflmail reads (*Error here, notation's *Error):
//
//	file:line:col: message
//
// without "file:" when filename is empty, without "line:col:" when line is
// 0 ("file: message"), and message alone when both are missing. col is
// 1-based and counts runes, as Position.Column does.
func Positioned(filename string, line, col int, message string) string {
	var b strings.Builder
	b.Grow(len(filename) + len(message) + 12)
	if filename != "" {
		b.WriteString(filename)
		b.WriteByte(':')
	}
	if line > 0 {
		b.WriteString(strconv.Itoa(line))
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(col))
		b.WriteByte(':')
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	b.WriteString(message)
	return b.String()
}
