package grammar

import (
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// CommentBody is the text of a comment split into free text and comment
// commands, "[%name value …]", the way PGN embeds clocks in comments. A
// timed record writes a ply's arrival time this way (CORRESPONDENCE.md §5):
//
//	d1-d3 {[%ts 2026-11-28T21:52:10Z] [%clk 29d23h12m] a quiet start}
//
// Several commands may share one comment; text may stand between them.
type CommentBody struct {
	Pos   lexer.Position
	Items []*CommentItem `parser:"@@*"`
}

// CommentItem is a piece of free text or one command; exactly one of Text
// and Command is set.
type CommentItem struct {
	Pos     lexer.Position
	Text    string          `parser:"  @Text"`
	Command *CommentCommand `parser:"| @@"`
}

// CommentCommand is one "[%name arg …]" of a comment: Name "ts", Args
// ["2026-11-28T21:52:10Z"]. The grammar does not know the names; package
// notation reads %ts, %avail and %clk and keeps any other as text.
type CommentCommand struct {
	Pos  lexer.Position
	Name string   `parser:"CmdOpen @Arg"`
	Args []string `parser:"@Arg* Close"`
}

// String returns the command as written in canonical form: "[%ts
// 2026-11-28T21:52:10Z]".
func (c *CommentCommand) String() string {
	return "[%" + strings.Join(append([]string{c.Name}, c.Args...), " ") + "]"
}

var commentParser = participle.MustBuild[CommentBody](
	participle.Lexer(commentLexer),
	participle.UseLookahead(0),
)

// ParseComment splits a comment's text (Comment.Text, without braces)
// into free text and commands. c.Pos, the position of the opening brace,
// places the nodes and errors in the file. A comment that is not well
// formed (an unclosed "[%", a command without a name) is an *Error; a
// reader may then treat the whole comment as text. It never panics.
func ParseComment(c *Comment) (body *CommentBody, err error) {
	defer guard(c.Pos.Filename, &err)
	base := c.Pos
	if base.Line == 0 {
		base = lexer.Position{Filename: c.Pos.Filename, Line: 1, Column: 1}
	}
	base.Advance("{")
	inner, err := commentLexer.LexString("", c.Text)
	if err != nil {
		return nil, convertError(err, base.Filename, []byte(c.Text), "")
	}
	peek, err := lexer.Upgrade(&offsetLexer{Lexer: inner, base: base})
	if err != nil {
		return nil, shiftedError(base, err, c.Text)
	}
	body, err = commentParser.ParseFromLexer(peek)
	if err != nil {
		e := shiftedError(base, err, c.Text)
		if e.Expected != "" {
			e.Expected = commentWords.Replace(e.Expected)
			e.Message = "expected " + e.Expected + ", found " + e.Found
		}
		return nil, e
	}
	body.Pos = base
	return body, nil
}

// commentWords names the comment tokens in error messages.
var commentWords = strings.NewReplacer("<close>", `"]"`, "<arg>", "a command name such as ts")

// shiftedError converts an error of a sub-source that starts at base. The
// parser's errors already carry shifted positions (offsetLexer); only a
// fallback position is shifted here.
func shiftedError(base lexer.Position, err error, text string) *Error {
	e := convertError(err, base.Filename, []byte(text), "")
	if e.Line <= 1 && e.Col <= 1 && base.Line > 0 {
		e.Line, e.Col = base.Line, base.Column
	}
	return e
}
