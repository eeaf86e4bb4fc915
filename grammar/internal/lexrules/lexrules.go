// Package lexrules holds the token rules of grammar's five languages, as
// participle lexer rules: package grammar builds its reflective lexers from
// them (the definition, and the reference its tests compare against), and
// cmd lexgen generates the compiled lexers the parsers use from them
// (grammar/lexer_gen.go).
package lexrules

import "github.com/alecthomas/participle/v2/lexer"

// The token rules of the five languages. Each is a participle stateful lexer
// whose "Root" state holds the tokens of its container format; a move is
// lexed in the shared "Move" state, entered by the first square (or the king
// letter) of a ply and left at the first character that cannot continue a
// move. So no white space can occur inside a move ("d1 - d3" is an error), while moves,
// numbers and comments around it are separated by white space as usual.
//
// Rule names starting with a lower-case letter are dropped by the lexer
// (white space). Token names appear in the EBNF in lower case (<int>).

// Token patterns shared by several lexers.
const (
	patSquare = `[a-zA-Z][0-9]+`            // a square: file letter and rank digits, e.g. e7, K10
	patWord   = `[a-zA-Z]{2,}\b`            // a bare word such as timeout or draw; never the start of a move
	patLetter = `[a-zA-Z]`                  // a single letter: K (king), x (capture), a/b (OpenTafl ply side)
	patDash   = `-+`                        // -, --, --- (move separator, info marks, resignation)
	patBadInt = `0[0-9]+`                   // a number with a leading zero, always rejected
	patInt    = `[0-9]+`                    // a decimal number
	patDots   = `\.+`                       // ., ..., ..... (move numbers and OpenTafl labels)
	patSpace  = `[ \t\r\n]+`                // white space, dropped
	patString = `"(?:[^"\\\r\n]|\\["\\])*"` // a tag value; only \" and \\ escapes
	patNL     = `\r?\n`                     // end of line (CSV only)
	patHSpace = `[ \t]+`                    // white space within a line (CSV only)
)

// moveState lexes the inside of one move: d1-d3, Kf6-c6xe5/Kd4+, E7-E6xF6++.
// Return leaves the state at any other character without consuming it.
//
// A capture mark that names no square ("g7-g10x", "d4-c4xK") ends the move;
// when white space follows, the mark is lexed together with it and leaves
// the state, so that the next ply's first square is not taken for a
// captured square.
var moveState = []lexer.Rule{
	{Name: "Square", Pattern: patSquare},
	{Name: "BareX", Pattern: `[xX][ \t\r\n]+`, Action: lexer.Pop()},
	{Name: "BareKing", Pattern: `[kK][ \t\r\n]+`, Action: lexer.Pop()},
	{Name: "Letter", Pattern: patLetter},
	{Name: "Dash", Pattern: patDash},
	{Name: "Plus", Pattern: `\++`},
	{Name: "Slash", Pattern: `/`},
	lexer.Return(),
}

// plyStart are the root rules that start a ply: a square or a king letter
// enter the Move state; a word is timeout; three dashes are a resignation. A
// single "-" is no token outside a move, so "d1 - d3" is an error.
var plyStart = []lexer.Rule{
	{Name: "Square", Pattern: patSquare, Action: lexer.Push("Move")},
	{Name: "Word", Pattern: patWord},
	{Name: "Letter", Pattern: patLetter, Action: lexer.Push("Move")},
	{Name: "Resign", Pattern: `---`},
}

func rules(root ...[]lexer.Rule) []lexer.Rule {
	var out []lexer.Rule
	for _, r := range root {
		out = append(out, r...)
	}
	return out
}

// Move lexes a single ply with optional surrounding white space
// (ParseMove, ParsePly).
var Move = lexer.Rules{
	"Root": rules(
		[]lexer.Rule{{Name: "whitespace", Pattern: patSpace}},
		plyStart,
	),
	"Move": moveState,
}

// Record lexes the native record format (ParseRecords): tag pairs,
// move numbers, plies, {comments} and result tokens.
var Record = lexer.Rules{
	"Root": rules(
		[]lexer.Rule{
			{Name: "whitespace", Pattern: patSpace},
			{Name: "Comment", Pattern: `\{[^}]*\}`},
			{Name: "Open", Pattern: `\[`, Action: lexer.Push("Tag")},
			{Name: "BadInt", Pattern: patBadInt},
			{Name: "Int", Pattern: patInt},
			{Name: "Dots", Pattern: patDots},
			{Name: "Star", Pattern: `\*`},
		},
		plyStart,
	),
	"Tag": {
		{Name: "whitespace", Pattern: patSpace},
		{Name: "Ident", Pattern: `[A-Za-z][A-Za-z0-9_]*`},
		{Name: "String", Pattern: patString},
		{Name: "Close", Pattern: `\]`, Action: lexer.Pop()},
		// Anything else but a quote is one character for the parser to
		// reject ("expected \"]\""); a bad quoted string is diagnosed
		// as such.
		{Name: "Other", Pattern: `[^ \t\r\n"]`},
	},
	"Move": moveState,
}

// OTG lexes OpenTafl game records (ParseOTG): [key:value] tags,
// [first|second] comments, turn numbers and variation labels, plies. A
// bracket that starts with "key:" is lexed as one TagKey token ("[rules:"),
// so that colons later in the line are plain text.
var OTG = lexer.Rules{
	"Root": rules(
		[]lexer.Rule{
			{Name: "whitespace", Pattern: patSpace},
			{Name: "TagKey", Pattern: `\[[A-Za-z][A-Za-z0-9_-]*:`, Action: lexer.Push("Bracket")},
			{Name: "Open", Pattern: `\[`, Action: lexer.Push("Bracket")},
			{Name: "BadInt", Pattern: patBadInt},
			{Name: "Int", Pattern: patInt},
			{Name: "Dots", Pattern: patDots},
		},
		plyStart,
	),
	"Bracket": {
		{Name: "Text", Pattern: `[^|\]\r\n]+`},
		{Name: "Bar", Pattern: `\|`},
		{Name: "Close", Pattern: `\]`, Action: lexer.Pop()},
	},
	"Move": moveState,
}

// CSV lexes the one-game-a-line CSV format (ParseCSV). Line ends are
// tokens, since a line is a game.
var CSV = lexer.Rules{
	"Root": rules(
		[]lexer.Rule{
			{Name: "whitespace", Pattern: patHSpace},
			{Name: "Newline", Pattern: patNL},
			{Name: "Comma", Pattern: `,`},
			{Name: "BadInt", Pattern: patBadInt},
			{Name: "Int", Pattern: patInt},
		},
		plyStart,
	),
	"Move": moveState,
}

// Rules lexes an OTN rules string: key:value pairs separated by blanks,
// e.g. "dim:11 atkf:n start:/3ttttt3/.../". A value runs to the next blank.
var Rules = lexer.Rules{
	"Root": {
		{Name: "whitespace", Pattern: patSpace},
		{Name: "Key", Pattern: `[A-Za-z][A-Za-z0-9_-]*`},
		{Name: "Colon", Pattern: `:`, Action: lexer.Push("Value")},
	},
	"Value": {
		{Name: "Value", Pattern: `[^ \t\r\n]+`, Action: lexer.Pop()},
		lexer.Return(),
	},
}
