package grammar

import (
	"errors"
	"reflect"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

func TestParsePlyValid(t *testing.T) {
	withInfo := func(m *Move, info string) *Move { m.Info = info; return m }
	withCaps := func(m *Move, c ...*Capture) *Move { m.Captures = c; return m }
	king := func(m *Move) *Move { m.King = true; return m }
	tests := []struct {
		in   string
		want *Ply
		text string // canonical String(), if different from in
	}{
		{"d1-d3", plyOf(mv("d1", "d3")), ""},
		{"Kf6-c6", plyOf(king(mv("f6", "c6"))), ""},
		{"kf6-c6", plyOf(king(mv("f6", "c6"))), "Kf6-c6"},
		{"g3-e3xe2", plyOf(withCaps(mv("g3", "e3"), capt("e2"))), ""},
		{"e5-e8xe9/f8", plyOf(withCaps(mv("e5", "e8"), capt("e9", "f8"))), ""},
		{"d5-d8xd9xe8", plyOf(withCaps(mv("d5", "d8"), capt("d9"), capt("e8"))), ""},
		{"d4-c4xKc5", plyOf(withCaps(mv("d4", "c4"), capt("Kc5"))), ""},
		{"d5-d8xd9xKe8", plyOf(withCaps(mv("d5", "d8"), capt("d9"), capt("Ke8"))), ""},
		{"d4-c4xK", plyOf(withCaps(mv("d4", "c4"), capt("K"))), ""},
		{"g7-g10x", plyOf(withCaps(mv("g7", "g10"), capt())), ""},
		{"e7-k7xk6xk6", plyOf(withCaps(mv("e7", "k7"), capt("k6"), capt("k6"))), ""},
		{"E7-E6xF6++", plyOf(withInfo(withCaps(mv("e7", "e6"), capt("f6")), "++")), "e7-e6xf6++"},
		{"a3-e3+", plyOf(withInfo(mv("a3", "e3"), "+")), ""},
		{"Ke5-e1-", plyOf(withInfo(king(mv("e5", "e1")), "-")), ""},
		{"Ke1-a1--", plyOf(withInfo(king(mv("e1", "a1")), "--")), ""},
		{"---", &Ply{Resign: true}, ""},
		{"timeout", &Ply{Timeout: true}, ""},
		{"s19-a19", plyOf(mv("s19", "a19")), ""},
		{"  d1-d3\n", plyOf(mv("d1", "d3")), "d1-d3"},
		{"a01-a2", plyOf(mv("a1", "a2")), "a1-a2"},
	}
	for _, tt := range tests {
		got, err := ParsePly("m", []byte(tt.in))
		if err != nil {
			t.Errorf("ParsePly(%q) error: %v", tt.in, err)
			continue
		}
		stripPos(got)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParsePly(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
		text := tt.text
		if text == "" {
			text = tt.in
		}
		if s := got.String(); s != text {
			t.Errorf("ParsePly(%q).String() = %q, want %q", tt.in, s, text)
		}
	}
}

func TestParseMovePositions(t *testing.T) {
	m, err := ParseMove("m", []byte("Kf6-c6xKc5/d6+"))
	if err != nil {
		t.Fatal(err)
	}
	pos := func(offset, col int) lexer.Position {
		return lexer.Position{Filename: "m", Offset: offset, Line: 1, Column: col}
	}
	checks := []struct {
		name      string
		got, want lexer.Position
	}{
		{"Move", m.Pos, pos(0, 1)},
		{"From", m.From.Pos, pos(1, 2)},
		{"To", m.To.Pos, pos(4, 5)},
		{"Capture", m.Captures[0].Pos, pos(6, 7)},
		{"Captured K", m.Captures[0].Pieces[0].Pos, pos(7, 8)},
		{"Square c5", m.Captures[0].Pieces[0].Square.Pos, pos(8, 9)},
		{"Captured d6", m.Captures[0].Pieces[1].Pos, pos(11, 12)},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s.Pos = %v (offset %d), want %v (offset %d)", c.name, c.got, c.got.Offset, c.want, c.want.Offset)
		}
	}
}

func TestParseMoveInvalid(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "m:1:1: expected square, found end of input"},
		{"d1", `m:1:3: expected "-", found end of input`},
		{"d1-", "m:1:4: expected square, found end of input"},
		{"d1--d3", `m:1:3: expected "-", found "--"`},
		{"d1 - d3", "m:1:4: unexpected character '-'"},
		{"d1- d3", "m:1:4: unexpected white space inside move"},
		{"d1-d3 xe4", "m:1:6: unexpected white space inside move"},
		{"d4-c4xK c5", `m:1:9: expected end of input, found "c5"`},
		{"d1-d3 e4", `m:1:7: expected end of input, found "e4"`},
		{"d1-d3+++", `m:1:6: expected end of input, found "+++"`},
		{"d1-d3xK/", "m:1:9: expected square, found end of input"},
		{"t1-a2", `m:1:1: expected file a to s, found "t"`},
		{"a1-T2", `m:1:4: expected file a to s, found "T"`},
		{"a20-a2", `m:1:2: expected rank 1 to 19, found "20"`},
		{"a0-a2", `m:1:2: expected rank 1 to 19, found "0"`},
		{"a1-a99999999999999999999999", `m:1:5: expected rank 1 to 19, found "99999999999999999999999"`},
		{"d1-d3 ---", `m:1:7: expected end of input, found "---"`},
		{"---", "m:1:1: expected square, found \"---\""},
		{"d1–d3", "m:1:3: unexpected character '–'"},
		{"d1-d3\x00", "m:1:6: control character U+0000 not allowed"},
		{"d1-\xffd3", "m:1:4: invalid UTF-8 byte 0xff"},
		{"\n\nd1-d3 é", "m:3:7: unexpected character 'é'"},
	}
	for _, tt := range tests {
		_, err := ParseMove("m", []byte(tt.in))
		if err == nil {
			t.Errorf("ParseMove(%q) succeeded, want error %q", tt.in, tt.want)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("ParseMove(%q) error = %q, want %q", tt.in, err.Error(), tt.want)
		}
		checkErrorInside(t, "m", []byte(tt.in), err)
	}
}

func TestErrorFields(t *testing.T) {
	_, err := ParseMove("mail.txt", []byte("e7-e6xq"))
	var gerr *Error
	if !errors.As(err, &gerr) {
		t.Fatalf("ParseMove error %v is not a *Error", err)
	}
	want := &Error{Filename: "mail.txt", Line: 1, Col: 7, Message: `expected end of input, found "q"`, Expected: "end of input", Found: `"q"`}
	if !reflect.DeepEqual(gerr, want) {
		t.Errorf("ParseMove error = %#v, want %#v", gerr, want)
	}
	plain := &Error{Line: 2, Col: 3, Message: "duplicate tag Date"}
	if got := plain.Error(); got != "2:3: duplicate tag Date" {
		t.Errorf("Error() without filename = %q", got)
	}
	if got := (&Error{Message: "record has no result"}).Error(); got != "record has no result" {
		t.Errorf("Error() without position = %q", got)
	}
}

func TestCaptureSquares(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"d1-d3", nil},
		{"g7-g10x", nil},
		{"e7-k7xk6xk6", []string{"k6"}},
		{"d5-d8xd9xe8", []string{"d9", "e8"}},
		{"e5-e8xe9/f8xe9", []string{"e9", "f8"}},
		{"d4-c4xKc5xb4", []string{"c5", "b4"}},
		{"d4-c4xK", nil},
	}
	for _, tt := range tests {
		m, err := ParseMove("m", []byte(tt.in))
		if err != nil {
			t.Fatalf("ParseMove(%q): %v", tt.in, err)
		}
		var got []string
		for _, s := range m.CaptureSquares() {
			got = append(got, s.String())
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseMove(%q).CaptureSquares() = %v, want %v", tt.in, got, tt.want)
		}
	}
	m, _ := ParseMove("m", []byte("e7-k7xk6xk6"))
	if got := m.CaptureSquares()[0].Pos.Column; got != 7 {
		t.Errorf("CaptureSquares keeps the first mention: column %d, want 7", got)
	}
	if m.KingCaptured() {
		t.Errorf("KingCaptured() on %q = true", "e7-k7xk6xk6")
	}
	if m, _ := ParseMove("m", []byte("d4-c4xKc5")); !m.KingCaptured() {
		t.Errorf("KingCaptured() on %q = false", "d4-c4xKc5")
	}
}

func TestSquareString(t *testing.T) {
	for _, s := range []string{"a1", "k11", "s19", "e7"} {
		if got := sq(s).String(); got != s {
			t.Errorf("Square.String() = %q, want %q", got, s)
		}
	}
}
