package grammar

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// sharedRecords is the corpus of real games, relative to this package.
const sharedRecords = "../../shared/records"

// requireShared skips the test when the shared directory is absent, except
// under CI=true, where its absence is a failure.
func requireShared(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(sharedRecords); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but %s is not readable: %v", sharedRecords, err)
		}
		t.Skipf("skipping: %s not found (the shared corpus lives beside the repository): %v", sharedRecords, err)
	}
}

var positionType = reflect.TypeOf(lexer.Position{})

// stripPos zeroes every lexer.Position reachable from v (a pointer), so
// that ASTs can be compared without positions.
func stripPos(v any) {
	stripValue(reflect.ValueOf(v))
}

func stripValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			stripValue(v.Elem())
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			stripValue(v.Index(i))
		}
	case reflect.Struct:
		if v.Type() == positionType {
			if v.CanSet() {
				v.Set(reflect.Zero(positionType))
			}
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				stripValue(v.Field(i))
			}
		}
	}
}

// sq builds a square without the parser: sq("k11").
func sq(s string) *Square {
	rank := 0
	for _, c := range s[1:] {
		rank = rank*10 + int(c-'0')
	}
	return &Square{File: int(s[0] - 'a'), Rank: rank}
}

// mv builds a move without captures.
func mv(from, to string) *Move { return &Move{From: sq(from), To: sq(to)} }

// capt builds a capture mark naming the given squares; "K" prefixes the king.
func capt(squares ...string) *Capture {
	c := &Capture{}
	for _, s := range squares {
		p := &Captured{}
		if strings.HasPrefix(s, "K") {
			p.King = true
			s = s[1:]
		}
		if s != "" {
			p.Square = sq(s)
		}
		c.Pieces = append(c.Pieces, p)
	}
	return c
}

func plyOf(m *Move) *Ply { return &Ply{Move: m} }

// checkErrorInside asserts that err is a *Error whose position lies inside
// src (a column may point one past the end of its line: end of line/input).
func checkErrorInside(t testing.TB, filename string, src []byte, err error) {
	t.Helper()
	var gerr *Error
	if !errors.As(err, &gerr) {
		t.Fatalf("error %v (%T) is not a *grammar.Error", err, err)
	}
	if strings.Contains(gerr.Message, "internal error") {
		t.Fatalf("parser panicked: %v", gerr)
	}
	if gerr.Filename != filename {
		t.Fatalf("error %v: Filename = %q, want %q", gerr, gerr.Filename, filename)
	}
	lines := strings.Split(string(src), "\n")
	if gerr.Line < 1 || gerr.Line > len(lines) {
		t.Fatalf("error %v: line %d outside 1..%d", gerr, gerr.Line, len(lines))
	}
	if n := utf8.RuneCountInString(lines[gerr.Line-1]); gerr.Col < 1 || gerr.Col > n+1 {
		t.Fatalf("error %v: column %d outside 1..%d", gerr, gerr.Col, n+1)
	}
	if gerr.Message == "" {
		t.Fatalf("error %v has no message", gerr)
	}
}

// dur and part build time-control nodes for expected syntax trees.
func dur(pos lexer.Position, parts ...*DurationPart) *Duration {
	return &Duration{Pos: pos, Parts: parts}
}

func part(pos lexer.Position, n int, unit string) *DurationPart {
	return &DurationPart{Pos: pos, N: n, Unit: unit}
}

// dumpTree prints a syntax tree with every field, for failure messages.
func dumpTree(v any) string {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err.Error()
	}
	return string(b)
}
