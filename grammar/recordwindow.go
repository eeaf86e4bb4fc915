package grammar

import (
	"errors"
	"reflect"

	"github.com/alecthomas/participle/v2/lexer"
)

// A record the splitter does not understand goes to the grammar alone, in
// a window of the file that starts where the record starts and ends after
// the first result token outside tags and comments ("attackers",
// "defenders", "draw" or "*" followed by a blank or the end), not with the
// rest of the file: reading a file through the grammar costs hundreds of
// bytes of memory a byte, so a 5 MB file of one-line records with one bad
// record took 650 MB when the grammar read all of it from there (issue 18
// §5), and now takes what that record takes.
//
// The grammar reads a file record by record, each from the state between
// records, so its reading of the window is its reading of that part of
// the file: the same records, or the same error at the same place. Only
// an error at the window's end ("end of input", or at its last word) may
// be an artefact of the cut: the window then grows to the next result
// token, a few times, and after that runs to the end of the file, as
// before. TestParseRecordsSame and FuzzParseRecordsSame hold this against
// the grammar reading whole files.

// MaxRecordBytes is the most bytes one game record may have: a CSV line,
// a native record from its first tag to its result token (or a window of
// records the grammar reads together, see grammarWindow), an OpenTafl
// file. The grammar costs up to hundreds of bytes of memory a byte (a
// 5 MB CSV line took 1.6 GB), so a longer record is refused unread with
// tooLongError, and what a reader of records holds is bounded by a
// record, not the file (issue 18 §5; docs/notation.md, Limits). 256 KiB
// is about 36,000 plies; the longest game of the shared corpus is 2.2 KB.
const MaxRecordBytes = 256 << 10

// tooLongError is the refusal of a record longer than MaxRecordBytes,
// which starts at pos.
func tooLongError(pos lexer.Position, what string) *Error {
	return newError(pos, "%s longer than %d KiB, the most one game record may have", what, MaxRecordBytes>>10)
}

// maxWindowGrowth is how often a window grows to the next result token
// before the grammar reads the rest of the file.
const maxWindowGrowth = 4

// windowEnd returns the end of the first window of src that starts at
// byte offset off and ends after a result token that starts at or after
// from, outside tags and comments, followed by a blank or the end of src;
// len(src) when there is none. last is where that token starts.
func windowEnd(src []byte, off, from int) (end, last int) {
	for i := off; i < len(src); {
		c := src[i]
		switch {
		case isBlank(c):
			i++
			continue
		case c == '{':
			for i < len(src) && src[i] != '}' {
				i++
			}
			i++
			continue
		case c == '[':
			// a tag: its value is a string, which may hold ']' and '\"'
			for i < len(src) && src[i] != ']' && src[i] != '"' {
				i++
			}
			if i < len(src) && src[i] == '"' {
				for i++; i < len(src) && src[i] != '"'; i++ {
					if src[i] == '\\' {
						i++
					}
				}
				i++
			}
			continue
		}
		start := i
		for i < len(src) && !isBlank(src[i]) && src[i] != '{' && src[i] != '[' {
			i++
		}
		if start >= from && (i == len(src) || isBlank(src[i])) {
			if _, ok := parseOutcome(string(src[start:i])); ok {
				return i, start
			}
		}
	}
	return len(src), len(src)
}

// grammarWindow reads the records of src from base (the position of byte
// offset base.Offset, where a record starts) with the grammar alone, in
// windows (see above): it returns the records of the first window the
// grammar reads without an error that may be the window's, their
// positions moved to where they stand in src, and the offset the window
// ends at, from which the splitter may go on; or the error the grammar
// reading the whole file gives there, moved too. The grammar lexes a
// whole file before it parses it, so the first lexer error after base,
// anywhere, is that error (firstLexError); checked reports that err is a
// problem of the checks after the grammar (checkRecords), which the
// whole file's grammar gives only when no later record has a syntax error
// (laterSyntaxError). With checks false the records are not checked and
// not finished (they are only read past).
func grammarWindow(filename string, src []byte, text string, base lexer.Position, checks bool) (recs []*Record, end int, err *Error, checked bool) {
	from := base.Offset
	lexChecked := false
	for growth := 0; ; growth++ {
		var last int
		end, last = windowEnd(src, base.Offset, from)
		if growth == maxWindowGrowth {
			end, last = len(src), len(src)
		}
		if end-base.Offset > MaxRecordBytes {
			return nil, end, tooLongError(base, "record"), false
		}
		window := src[base.Offset:end]
		recs, serr := parseRecordsSyntax(filename, window)
		if serr != nil {
			if !lexChecked {
				if l := firstLexError(filename, src, text, base); l != nil {
					return nil, end, l, false
				}
				lexChecked = true
			}
			if end < len(src) && (serr.Found == "end of input" || atOrAfter(serr, window, last-base.Offset) || isLexError(serr, window)) {
				from = end // the cut may have made the error: a longer window
				continue
			}
			serr.Line, serr.Col = moveLineCol(base, serr.Line, serr.Col)
			return nil, end, serr, false
		}
		if checks {
			if cerr := checkRecords(filename, window, recs); cerr != nil {
				cerr.Line, cerr.Col = moveLineCol(base, cerr.Line, cerr.Col)
				return nil, end, cerr, true
			}
		}
		for _, r := range recs {
			movePositions(r, base)
		}
		return recs, end, nil, false
	}
}

// isLexError reports whether e is the lexer's error for window: with no
// lexer error in the file from there on (firstLexError), one in the
// window is the cut's.
func isLexError(e *Error, window []byte) bool {
	l, err := recordLexerGen.LexBytes("", window)
	if err != nil {
		return true
	}
	for {
		t, err := l.Next()
		if err != nil {
			return true
		}
		if t.EOF() {
			return false
		}
	}
}

// firstLexError returns the first error of the record lexer reading src
// (whose text is text) from base to its end, as the grammar reading all
// of src reports it, or nil. It holds a token at a time.
func firstLexError(filename string, src []byte, text string, base lexer.Position) *Error {
	l, err := recordLexerGen.LexString(filename, text[base.Offset:])
	if err != nil {
		return nil
	}
	for {
		t, err := l.Next()
		if err != nil {
			var le *lexer.Error
			if !errors.As(err, &le) {
				return &Error{Filename: filename, Line: base.Line, Col: base.Column, Message: err.Error()}
			}
			return convertError(&lexer.Error{Msg: le.Msg, Pos: shift(base, le.Pos)}, filename, src, "")
		}
		if t.EOF() {
			return nil
		}
	}
}

// laterSyntaxError returns the error the grammar reading all of the
// splitter's file gives when the records before the splitter's position
// read, but one of them failed its checks (pending): a syntax error of a
// later record (the grammar parses the whole file before it checks any
// record), else pending. It reads the rest a record, or a window, at a
// time, keeping none.
func (p *recordSplitter) laterSyntaxError(pending *Error, end int) *Error {
	p.resume(end)
	for {
		p.reset()
		r, ok := p.next()
		switch {
		case ok && r == nil:
			return pending
		case ok:
			continue
		}
		_, end, err, _ := grammarWindow(p.filename, p.src, p.text, p.start, false)
		if err != nil {
			return err
		}
		p.resume(end)
	}
}

// atOrAfter reports whether e's position is at or after byte offset off
// of src.
func atOrAfter(e *Error, src []byte, off int) bool {
	pos := lexer.Position{Line: 1, Column: 1}
	pos.Advance(string(src[:min(off, len(src))]))
	return e.Line > pos.Line || e.Line == pos.Line && e.Col >= pos.Column
}

// moveLineCol moves a line and column of a window that starts at base to
// the file's.
func moveLineCol(base lexer.Position, line, col int) (int, int) {
	p := base.Add(lexer.Position{Line: line, Column: col})
	return p.Line, p.Column
}

var lexPositionType = reflect.TypeFor[lexer.Position]()

// movePositions moves every lexer.Position in the tree v points to from
// a window that starts at base to the file (lexer.Position.Add), each
// node once.
func movePositions(v any, base lexer.Position) {
	seen := map[uintptr]bool{}
	var walk func(reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
			walk(v.Elem())
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Struct:
			if v.Type() == lexPositionType {
				if v.CanSet() {
					v.Set(reflect.ValueOf(shift(base, v.Interface().(lexer.Position))))
				}
				return
			}
			for i := range v.NumField() {
				if f := v.Field(i); f.CanSet() || f.Kind() == reflect.Pointer || f.Kind() == reflect.Slice {
					walk(f)
				}
			}
		}
	}
	walk(reflect.ValueOf(v))
}
