package notation

import (
	"errors"
	"testing"

	"github.com/taflmail/taflmail/engine"
)

// TestBoardRoundTrip: every built-in start position reads back from its
// OTN record, both ways up.
func TestBoardRoundTrip(t *testing.T) {
	for _, v := range engine.Variants() {
		b, err := v.StartBoard()
		if err != nil {
			t.Fatal(err)
		}
		s := FormatBoard(b)
		got, err := ParseBoard(s)
		if err != nil {
			t.Fatalf("ParseBoard(FormatBoard(%s start) = %q): %v", v.Name, s, err)
		}
		if FormatBoard(got) != s || got.Size != b.Size {
			t.Errorf("%s: %q reads back as %q", v.Name, s, FormatBoard(got))
		}
	}
}

func TestBoardRankOrder(t *testing.T) {
	// Rank 1 first: the first row's attacker stands on b1.
	b, err := ParseBoard("/1t3/5/2K2/5/5/")
	if err != nil {
		t.Fatal(err)
	}
	if b.At(engine.SquareAt(1, 0)) != engine.Attacker || b.At(engine.SquareAt(2, 2)) != engine.King {
		t.Errorf("ParseBoard: b1 = %v, c3 = %v; want attacker, king", b.At(engine.SquareAt(1, 0)), b.At(engine.SquareAt(2, 2)))
	}
	inv, err := ParseBoardInverted("/1t3/5/2K2/5/5/")
	if err != nil {
		t.Fatal(err)
	}
	if inv.At(engine.SquareAt(1, 4)) != engine.Attacker {
		t.Errorf("ParseBoardInverted: b5 = %v, want attacker", inv.At(engine.SquareAt(1, 4)))
	}
	if got := FormatBoard(inv); got != "/5/5/2K2/5/1t3/" {
		t.Errorf("FormatBoard(inverted) = %q", got)
	}
}

func TestParsePosition(t *testing.T) {
	for _, tt := range []struct {
		in   string
		side engine.Side
	}{
		{"/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", engine.Attackers},
		{"  /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ attackers ", engine.Attackers},
		{"/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ defenders", engine.Defenders},
	} {
		b, side, err := ParsePosition(tt.in)
		if err != nil || side != tt.side || b.Size != 7 {
			t.Errorf("ParsePosition(%q) = size %d, %v, %v", tt.in, b.Size, side, err)
		}
		if got := FormatPosition(b, side); got != "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ "+tt.side.String() {
			t.Errorf("FormatPosition = %q", got)
		}
	}
}

func TestBoardErrors(t *testing.T) {
	tests := []struct {
		in   string
		kind Kind
		want string
	}{
		{"", KindSyntax, `1:1: an OTN position starts with "/"`},
		{"3t3/", KindSyntax, `1:1: an OTN position starts with "/"`},
		{"/3t3", KindSyntax, `1:5: an OTN position ends with "/"`},
		{"/", KindSyntax, "1:1: an OTN position holds ranks between slashes: /3t3/…/"}, // found by FuzzReplay
		{"/3t3/", KindSyntax, "1:1: position has 1 ranks; boards have 5 to 19"},
		{"/5/5/2K2/5/6/", KindSyntax, "1:12: rank 5 has more than 5 squares"},
		{"/5/5/2K1/5/5/", KindSyntax, "1:9: rank 3 has 4 squares, want 5"},
		{"/5/5/2K02/5/5/", KindSyntax, `1:8: bad count of empty squares "02"`},
		{"/5/5/2x2/5/5/", KindSyntax, `1:7: unexpected "x" in position (pieces are t, T and K)`},
		{"/5/5/2c2/5/5/", KindUnsupported, `1:7: "c" is a commander; special pieces are not supported`},
		{"/5/5/2k2/5/5/", KindUnsupported, `1:7: "k" is an attacking king; special pieces are not supported`},
	}
	for _, tt := range tests {
		_, err := ParseBoard(tt.in)
		var e *Error
		if !errors.As(err, &e) || e.Kind != tt.kind {
			t.Errorf("ParseBoard(%q) = %v, want an *Error of kind %v", tt.in, err, tt.kind)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("ParseBoard(%q) = %q, want %q", tt.in, err.Error(), tt.want)
		}
	}
	if _, _, err := ParsePosition("/5/5/2K2/5/5/ white"); err == nil || err.Error() != `1:15: expected side to move "attackers" or "defenders" after the position, found "white"` {
		t.Errorf("ParsePosition(… white) = %v", err)
	}
}
