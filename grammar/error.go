package grammar

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Error is the one error type of this package: every entry point (ParseMove,
// ParsePly, ParseRecords, ParseOTG, ParseCSV, ParseRules) returns a *Error when
// its input is not well formed, so callers can use errors.As and quote the
// offending line with a caret under Col.
//
// Line and Col are 1-based; Col counts Unicode code points (runes) from the
// start of the line, so a caret can be placed under the right character of a
// UTF-8 line. A position one past the last character of a line (or of the
// input) stands for "end of line" ("end of input").
//
// When the parser knew what it wanted, Expected and Found are set and Error()
// reads "file:line:col: expected …, found …"; otherwise Error() reads
// "file:line:col: message". Message always holds the text after the position.
// Line is 0 only for errors about a syntax tree built by hand that has no
// positions (WriteRecord); then Error() leaves the position out.
type Error struct {
	Filename string // as passed to the entry point; may be empty
	Line     int    // 1-based line
	Col      int    // 1-based column in runes
	Message  string // lower case, without the position prefix
	Expected string // what the grammar wanted, e.g. `"-"` or "square"; empty if not applicable
	Found    string // what was there instead, e.g. `"x"` or "end of input"
}

// Error formats the error as "file:line:col: expected …, found …" or
// "file:line:col: message", without "file:" when Filename is empty and
// without "line:col:" when Line is 0 (Positioned).
func (e *Error) Error() string {
	if e.Expected != "" {
		return Positioned(e.Filename, e.Line, e.Col, "expected "+e.Expected+", found "+e.Found)
	}
	return Positioned(e.Filename, e.Line, e.Col, e.Message)
}

// newError builds an Error at pos with a plain message.
func newError(pos lexer.Position, format string, args ...any) *Error {
	return &Error{
		Filename: pos.Filename,
		Line:     pos.Line,
		Col:      pos.Column,
		Message:  fmt.Sprintf(format, args...),
	}
}

// expectedError builds an "expected …, found …" Error at pos.
func expectedError(pos lexer.Position, expected, found string) *Error {
	return &Error{
		Filename: pos.Filename,
		Line:     pos.Line,
		Col:      pos.Column,
		Message:  "expected " + expected + ", found " + found,
		Expected: expected,
		Found:    found,
	}
}

// maxFound is the number of runes of offending text quoted in an error.
const maxFound = 24

// quoteFound quotes offending text for Error.Found, shortened to maxFound runes.
func quoteFound(s string) string {
	switch s {
	case "":
		return "end of input"
	case "\n", "\r\n", "\r":
		return "end of line"
	}
	if utf8.RuneCountInString(s) > maxFound {
		r := []rune(s)
		s = string(r[:maxFound]) + "…"
	}
	return strconv.Quote(s)
}

// foundToken describes a token for Error.Found.
func foundToken(t lexer.Token) string {
	if t.EOF() {
		return "end of input"
	}
	return quoteFound(t.Value)
}

// shift moves a position that is relative to a sub-source (line 1, column 1 =
// the sub-source's first character) to the enclosing source, whose first
// character of the sub-source is at base.
func shift(base, pos lexer.Position) lexer.Position {
	pos = base.Add(pos)
	pos.Filename = base.Filename
	return pos
}

// participle phrases unexpected tokens as `unexpected token "x" (expected y)`.
var (
	expectRE     = regexp.MustCompile(`\(expected (.*)\)$`)
	unexpectedRE = regexp.MustCompile(`^unexpected token "(.*)"$`)
)

// convertError turns whatever the participle parser or lexer returned into a
// *Error. src is the whole source, used to diagnose lexer failures. trailing
// names what may follow when the parser stopped before a token it could not
// use (participle does not say); empty means unknown.
func convertError(err error, filename string, src []byte, trailing string) *Error {
	if err == nil {
		return nil
	}
	var gerr *Error
	if errors.As(err, &gerr) {
		if gerr.Filename == "" {
			gerr.Filename = filename
		}
		return gerr
	}
	var numErr *strconv.NumError
	var perr participle.Error
	if !errors.As(err, &perr) {
		return &Error{Filename: filename, Line: 1, Col: 1, Message: err.Error()}
	}
	pos := perr.Position()
	if pos.Filename == "" {
		pos.Filename = filename
	}
	if pos.Line == 0 {
		pos.Line, pos.Column = 1, 1
	}
	var lerr *lexer.Error
	var uerr *participle.UnexpectedTokenError
	switch {
	case errors.As(err, &lerr):
		return diagnoseLexError(pos, src)
	case errors.As(err, &numErr):
		return newError(pos, "number %s is too large", quoteFound(numErr.Num))
	case errors.As(err, &uerr):
		if v := uerr.Unexpected.Value; len(v) > 1 && v[0] == '0' && strings.Trim(v, "0123456789") == "" {
			return newError(pos, "number %s has a leading zero", quoteFound(v))
		}
		expected := ""
		if m := expectRE.FindStringSubmatch(uerr.Message()); m != nil {
			expected = describeExpected(m[1])
		}
		found := foundToken(uerr.Unexpected)
		if expected == "" {
			expected = trailing
		}
		if expected == "" {
			return newError(pos, "unexpected %s", found)
		}
		return expectedError(pos, expected, found)
	}
	msg := perr.Message()
	// participle prefixes messages with the production it was in
	// ("Move: ..."); keep only the last clause.
	if i := strings.LastIndex(msg, ": "); i >= 0 && !strings.Contains(msg[i:], `"`) {
		msg = msg[i+2:]
	}
	if m := unexpectedRE.FindStringSubmatch(msg); m != nil {
		found := m[1]
		if u, err := strconv.Unquote(`"` + m[1] + `"`); err == nil {
			found = u
		}
		if trailing != "" {
			return expectedError(pos, trailing, quoteFound(found))
		}
		return newError(pos, "unexpected %s", quoteFound(found))
	}
	return newError(pos, "%s", msg)
}

// describeExpected rewrites participle's EBNF fragment of what was expected
// (the rest of a sequence, e.g. `"-" Square Capture* ("+" | "++")?`) into
// the alternatives that could come next: the leading optional items and the
// first required one, with production names replaced by words.
func describeExpected(s string) string {
	var alts []string
	seen := map[string]bool{}
	add := func(a string) {
		if w, ok := expectedWords[a]; ok {
			a = w
		}
		if a != "" && !seen[a] {
			seen[a] = true
			alts = append(alts, a)
		}
	}
	for _, item := range splitTop(s, ' ') {
		optional := false
		if n := len(item); n > 1 && (item[n-1] == '?' || item[n-1] == '*') {
			optional = true
			item = item[:n-1]
		} else if n > 1 && item[n-1] == '+' && item != `"+"` && item != `"++"` {
			item = item[:n-1]
		}
		for _, a := range alternatives(item) {
			add(a)
		}
		if !optional {
			return strings.Join(alts, " or ")
		}
	}
	add("end")
	return strings.Join(alts, " or ")
}

// alternatives splits "(a | b)" or "a | b" into its top-level alternatives,
// each reduced to its own first item.
func alternatives(item string) []string {
	for len(item) > 1 && item[0] == '(' && matchingParen(item) == len(item)-1 {
		item = item[1 : len(item)-1]
	}
	parts := splitTop(item, '|')
	if len(parts) == 1 {
		seq := splitTop(item, ' ')
		if len(seq) > 1 {
			// A sequence: what it starts with.
			return alternatives(strings.TrimRight(seq[0], "?*+"))
		}
		return []string{strings.TrimSpace(item)}
	}
	var out []string
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if n := len(p); n > 1 && strings.ContainsRune("?*+", rune(p[n-1])) && p[n-2] != '"' {
			p = p[:n-1]
		}
		out = append(out, alternatives(p)...)
	}
	return out
}

// matchingParen returns the index of the parenthesis closing s[0].
func matchingParen(s string) int {
	depth, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// splitTop splits s at sep outside parentheses and quotes.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == sep && depth == 0:
			if p := strings.TrimSpace(s[start:i]); p != "" {
				out = append(out, p)
			}
			start = i + 1
		}
	}
	if p := strings.TrimSpace(s[start:]); p != "" {
		out = append(out, p)
	}
	return out
}

// expectedWords names the tokens and productions that can appear in an
// expectation.
var expectedWords = map[string]string{
	"Square":       "square",
	"Ply":          "move",
	"Move":         "move",
	"Capture":      `"x"`,
	"Captured":     "square",
	"Tag":          "tag",
	"Comment":      "comment",
	"<comment>":    "comment",
	"Turn":         "move number",
	"AnnotatedPly": "move",
	"Result":       "move number or result",
	"Label":        "move number",
	"OTGTag":       "tag",
	"OTGTurn":      "move number",
	"OTGComment":   "comment",
	"Branch":       "variation label",
	"CSVGame":      "game",
	"RulePair":     "rule",
	"<int>":        "number",
	"<ident>":      "tag name",
	"<string>":     "quoted string",
	"<newline>":    "end of line",
	"<eof>":        "end of input",
	"<key>":        "key",
	"<value>":      "value",
	"<text>":       "text",
	"end":          "end of input",
}

// diagnoseLexError explains why no token rule matched at pos.
func diagnoseLexError(pos lexer.Position, src []byte) *Error {
	rest := ""
	if pos.Offset >= 0 && pos.Offset <= len(src) {
		rest = string(src[pos.Offset:])
	}
	if rest == "" {
		return newError(pos, "unexpected end of input")
	}
	switch rest[0] {
	case '"':
		return diagnoseString(pos, rest)
	case '{':
		return newError(pos, "unterminated comment: missing \"}\"")
	case '\n', '\r':
		return newError(pos, "unexpected end of line")
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return newError(pos, "unexpected character %s", strconv.QuoteRune(r))
}

// diagnoseString finds the first problem in the quoted string that starts
// rest (rest[0] == '"'): a backslash escape other than \" and \\, or a missing
// closing quote on the line.
func diagnoseString(pos lexer.Position, rest string) *Error {
	p := pos
	p.Advance(`"`)
	for i := 1; i < len(rest); {
		c := rest[i]
		switch c {
		case '"':
			// Only reached when the string itself was fine; the lexer
			// failed for another reason.
			return newError(pos, "malformed quoted string")
		case '\n', '\r':
			return newError(pos, "unterminated string: missing closing '\"' on this line")
		case '\\':
			if i+1 < len(rest) && (rest[i+1] == '"' || rest[i+1] == '\\') {
				p.Advance(rest[i : i+2])
				i += 2
				continue
			}
			end := i + 1
			if end < len(rest) {
				_, n := utf8.DecodeRuneInString(rest[end:])
				end += n
			}
			return newError(p, "invalid escape %s in string: only \\\" and \\\\ are allowed", quoteFound(rest[i:end]))
		}
		_, n := utf8.DecodeRuneInString(rest[i:])
		p.Advance(rest[i : i+n])
		i += n
	}
	return newError(pos, "unterminated string: missing closing '\"' on this line")
}

// checkText rejects input that is not UTF-8 text: invalid UTF-8 and control
// characters other than tab, line feed and carriage return.
func checkText(filename string, src []byte) *Error {
	// A byte at a time for ASCII; the position is worked out only for an
	// error.
	at := func(i int) lexer.Position {
		pos := lexer.Position{Filename: filename, Line: 1, Column: 1}
		pos.Advance(string(src[:i]))
		return pos
	}
	for i := 0; i < len(src); {
		if c := src[i]; c < utf8.RuneSelf {
			if badASCII[c] {
				return newError(at(i), "control character %U not allowed", rune(c))
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n == 1 {
			return newError(at(i), "invalid UTF-8 byte 0x%02x", src[i])
		}
		i += n
	}
	return nil
}

// badASCII marks the ASCII characters checkText rejects: the control
// characters but tab, line feed and carriage return.
var badASCII = func() (bad [utf8.RuneSelf]bool) {
	for c := range bad {
		bad[c] = isControl(rune(c)) && c != '\t' && c != '\n' && c != '\r'
	}
	return bad
}()

// isControl reports an ASCII control character (C0 or DEL).
func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// guard turns a panic inside an entry point into an *Error, so that no
// input can crash a caller. Fuzz tests treat such an error as a failure.
func guard(filename string, err *error) {
	if r := recover(); r != nil {
		*err = &Error{Filename: filename, Line: 1, Col: 1, Message: fmt.Sprintf("internal error: %v", r)}
	}
}
