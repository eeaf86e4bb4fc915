package notation

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/engine"
)

// TestRulesRoundTrip: every built-in variant has an OTN rules string that
// reads back to the same rules (issue 3: "every built-in variant has an OTN
// rules string and round-trips").
func TestRulesRoundTrip(t *testing.T) {
	for _, v := range engine.Variants() {
		s, err := RulesString(v)
		if err != nil {
			t.Fatalf("RulesString(%s): %v", v.Name, err)
		}
		got, err := ParseRules(s)
		if err != nil {
			t.Fatalf("ParseRules(RulesString(%s) = %q): %v", v.Name, s, err)
		}
		if !SameRules(got, v) {
			t.Errorf("%s: %q reads back to other rules:\n got %+v\nwant %+v", v.Name, s, *got, *v)
		}
		// Every rule field, compared as data: SameRules ignores only
		// fields that cannot act, and the built-ins leave those zero.
		want := *v
		want.Title, want.Summary, want.Source, want.Tier = got.Title, got.Summary, got.Source, got.Tier
		if !reflect.DeepEqual(*got, want) {
			t.Errorf("%s: %q reads back to\n got %+v\nwant %+v", v.Name, s, *got, want)
		}
		again, _ := RulesString(got)
		if again != s {
			t.Errorf("%s: RulesString not stable:\n%q\n%q", v.Name, s, again)
		}
	}
}

// TestRulesStrings pins the strings of the tier-1 variants and of the
// tier-2 ones with rules OTN says otherwise (repetition, Foteviken's
// throne, corners), so that a change of format is a reviewed diff.
func TestRulesStrings(t *testing.T) {
	const a = "start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"
	want := map[string]string{
		"copenhagen": "dim:11 name:copenhagen sw:s efe:y tm-rep:attackers tm-note:OpenTafl_draws_a_third_repetition_(tm-rep) " + a,
		"fetlar":     "dim:11 name:fetlar surf:n tm-nomove:draw tm-note:OpenTafl's_side_without_a_move_loses_(tm-nomove) " + a,
		"historical": "dim:11 name:historical esc:e tfr:l ks:c cor: start:/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/",
		"vingolf": "dim:11 name:vingolf cenh: cenhe:TK tm-rep:attackers tm-kedge:capture tm-cenhe:K " +
			"tm-note:OpenTafl_draws_a_third_repetition_(tm-rep);_OpenTafl_makes_the_empty_throne_hostile_to_the_defenders_and_the_king_(tm-cenhe);_OpenTafl's_strong_king_is_safe_on_the_edge_(tm-kedge) " + a,
		"brandubh": "dim:7 name:brandubh ks:c tm-rep:attackers tm-note:OpenTafl_draws_a_third_repetition_(tm-rep) start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
		"tablut":   "dim:9 name:tablut esc:e ks:c cor: tm-rep:attackers tm-note:OpenTafl_draws_a_third_repetition_(tm-rep) start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
		"foteviken": "dim:9 name:foteviken esc:e ka:n ks:c cor: cenp:K cenh: cenhe:TK tm-cenp: tm-cenhe:K " +
			"tm-note:OpenTafl_lets_the_king_cross_the_throne_(tm-cenp);_OpenTafl_makes_the_empty_throne_hostile_to_the_defenders_and_the_king_(tm-cenhe) start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
		"legacy": "dim:11 name:legacy tfr:l ka:n ks:c start:/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/",
		"ardri":  "dim:7 name:ardri esc:e tfr:l ks:w cor: cen: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
	}
	for name, w := range want {
		v, _ := engine.Lookup(name)
		got, err := RulesString(v)
		if err != nil || got != w {
			t.Errorf("RulesString(%s) = %q, %v\nwant %q", name, got, err, w)
		}
	}
}

// TestRulesDefaults reads OpenTafl's own example strings (OTN spec §3) and
// the rules tags of shared/records with OTN's defaults.
func TestRulesDefaults(t *testing.T) {
	v, err := ParseRules("dim:11 atkf:n sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/")
	if err != nil {
		t.Fatal(err)
	}
	cph, _ := engine.Lookup("copenhagen")
	want := *cph
	want.FirstSide = engine.Defenders
	want.Repetition = engine.RepetitionDraw // tfr default d
	// corp default K: nothing crosses a board corner, so it only lets the
	// king stop there (cors default K), as in taflmail's Copenhagen.
	want.Name, want.Title, want.Summary, want.Source, want.Tier = "", "", "", v.Source, 2
	if !reflect.DeepEqual(*v, want) {
		t.Errorf("OTN Copenhagen example:\n got %+v\nwant %+v", *v, want)
	}

	v, err = ParseRules("dim:9 esc:e ka:n cen: cenhe: cor: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/")
	if err != nil {
		t.Fatal(err)
	}
	if v.Throne.Present || v.Corners.Present || v.KingArms != engine.KingUnarmed || v.Escape != engine.EscapeEdge {
		t.Errorf("OTN Sea Battle example: %+v", *v)
	}

	v, err = ParseRules("dim:11 name:Fetlar_Defenders_First atkf:n nj:n cj:n start:/4tt2t2/3tTTT2t1/1t2T3T1t/t2T4T2/t9t/t4K1T1tt/t3TTT3t/t4T1t2t/3t7/5t5/4ttt4/")
	if err != nil {
		t.Fatal(err)
	}
	if v.Name != "Fetlar_Defenders_First" || v.Title != "Fetlar Defenders First" {
		t.Errorf("name: Name %q, Title %q", v.Name, v.Title)
	}
	// Rank 1 first: the king on f6, attackers on e1, f1, i1.
	b, _ := v.StartBoard()
	for sq, p := range map[string]engine.Piece{"f6": engine.King, "e1": engine.Attacker, "i1": engine.Attacker, "d9": engine.Attacker, "e11": engine.Attacker} {
		s, _ := squareFromText(sq)
		if b.At(s) != p {
			t.Errorf("Fetlar puzzle start: %s holds %v, want %v", sq, b.At(s), p)
		}
	}
}

// TestRulesStartInverted: starti: lists the top rank first.
func TestRulesStartInverted(t *testing.T) {
	a, err := ParseRules("dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/1t1t3/")
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseRules("dim:7 starti:/1t1t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/")
	if err != nil {
		t.Fatal(err)
	}
	if !SameRules(a, b) {
		t.Errorf("start and starti disagree:\n%q\n%q", a.Start, b.Start)
	}
	if a.Start[0] != ".t.t..." {
		t.Errorf("top rank = %q, want %q", a.Start[0], ".t.t...")
	}
}

func TestRulesErrors(t *testing.T) {
	const start = " start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
	tests := []struct {
		in   string
		kind Kind
		want string
	}{
		{"dim:7 kj:c" + start, KindUnsupported, "1:7: kj: king jumps are not supported"},
		{"dim:7 ber:c" + start, KindUnsupported, "1:7: ber: berserk moves are not supported"},
		{"dim:7 afor:a4,b4," + start, KindUnsupported, "1:7: afor: fortresses are not supported"},
		{"dim:7 spd:2" + start, KindUnsupported, "1:7: spd: speed limits are not supported"},
		{"dim:7 ks:m" + start, KindUnsupported, "1:7: ks: m (a middleweight king) is not supported"},
		{"dim:7 linc:y" + start, KindUnsupported, "1:7: linc: Linnaean capture (a defender beside the occupied throne captured against it) is not supported"},
		{"dim:7 swf:n" + start, KindUnsupported, "1:7: swf: shieldwall captures without a bracketing ply are not supported"},
		{"dim:7 cen:b2,c3," + start, KindUnsupported, "1:7: cen:b2,c3,: more than one throne square is not supported"},
		{"dim:7 cenre:T" + start, KindUnsupported, "1:7: cenre: squares that some pieces may not re-enter are not supported"},
		{"dim:7 foo:1" + start, KindUnsupported, "1:7: unknown rules key foo:"},
		{"dim:7 esc:x" + start, KindSyntax, `1:7: esc: value "x" is not c (corners) or e (edge)`},
		{"dim:4" + start, KindSyntax, `1:1: dim: board size "4" is not a number from 5 to 19`},
		{"dim:7", KindSyntax, "1:1: rules string without start: (the start position)"},
		{"start:/3t3/", KindSyntax, "1:1: rules string without dim: (the board size)"},
		{"dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3n3/", KindUnsupported, `1:43: start: "n" is a knight; special pieces are not supported`},
		{"dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t2/", KindSyntax, "1:45: start: rank 7 has 6 squares, want 7"},
		{"dim:9" + start, KindSyntax, "1:7: start: position is 7×7 but dim is 9"},
		{"dim:7 start:/3t3/3t3/3T3/ttT1Ttt/3T3/3t3/3t3/", KindSetup, "1:1: invalid position: 0 kings on the board, want 1"},
		// A malformed value of each kind of key (one parser per key).
		{"dim:7 surf:x" + start, KindSyntax, `1:7: surf: value "x" is not y or n`},
		{"dim:7 atkf:yes" + start, KindSyntax, `1:7: atkf: value "yes" is not y or n`},
		{"dim:7 efe:" + start, KindSyntax, `1:7: efe: value "" is not y or n`},
		{"dim:7 linc:x" + start, KindSyntax, `1:7: linc: value "x" is not y or n`},
		{"dim:7 swf:x" + start, KindSyntax, `1:7: swf: value "x" is not y or n`},
		{"dim:7 tfr:x" + start, KindSyntax, `1:7: tfr: value "x" is not d, i, w or l`},
		{"dim:7 tm-rep:x" + start, KindSyntax, `1:7: tm-rep: value "x" is not attackers or defenders`},
		{"dim:7 tm-nomove:x" + start, KindSyntax, `1:7: tm-nomove: value "x" is not draw or loses`},
		{"dim:7 tm-kedge:x" + start, KindSyntax, `1:7: tm-kedge: value "x" is not capture or safe`},
		{"dim:7 ka:x" + start, KindSyntax, `1:7: ka: value "x" is not y, n, h or a`},
		{"dim:7 ks:x" + start, KindSyntax, `1:7: ks: value "x" is not y, s, c, m, n or w`},
		{"dim:7 nj:rj" + start, KindSyntax, `1:7: nj: value "rj" is not n, r, j or c`},
		{"dim:7 cj:x" + start, KindSyntax, `1:7: cj: value "x" is not n, r, j or c`},
		{"dim:7 sw:x" + start, KindSyntax, `1:7: sw: value "x" is not n, w or s`},
		{"dim:7 corp:tx" + start, KindSyntax, `1:7: corp: "x" is not a piece letter`},
		{"dim:7 cor:a1,h9" + start, KindSyntax, `1:7: cor: "h9" is not a square of a 7×7 board`},
		{"dim:7" + start + " starti:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", KindSyntax, "1:47: rules string has both start: and starti:"},
		{"dim:7 dfor:c3" + start, KindUnsupported, "1:7: dfor: fortresses are not supported"},
		{"dim:7 corp:tTK cors:tTK corre:K" + start, KindUnsupported, "1:25: corre: squares that some pieces may not re-enter are not supported"},
		{"dim:7 tm-cenp:x" + start, KindSyntax, `1:7: tm-cenp: "x" is not a piece letter`},
		{"dim:7 cenhe:Kx" + start, KindSyntax, `1:7: cenhe: "x" is not a piece letter`},
		{"dim:7 ks:w tm-kedge:capture spd:-1 kj:n" + start + " foo:1", KindUnsupported, "1:81: unknown rules key foo:"},
	}
	for _, tt := range tests {
		_, err := ParseRules(tt.in)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("ParseRules(%q) = %v, want an *Error", tt.in, err)
			continue
		}
		if e.Kind != tt.kind || strings.TrimPrefix(err.Error(), " ") != tt.want {
			t.Errorf("ParseRules(%q) =\n  %v (%v)\nwant\n  %s (%v)", tt.in, err, e.Kind, tt.want, tt.kind)
		}
	}
}

func TestRulesPlacedSquares(t *testing.T) {
	// the Copenhagen puzzle of shared/records: one corner, the throne off centre
	v, err := ParseRules("dim:7 cor:g7, cen:b2, starti:/tt2T2/1t2K2/2tt3/6t/3TTt1/4Tt1/4Tt1/")
	if err != nil {
		t.Fatal(err)
	}
	if th, ok := v.ThroneSquare(); !ok || th.String() != "b2" {
		t.Errorf("throne = %v %v, want b2", th, ok)
	}
	for _, c := range []string{"a1", "g1", "a7"} {
		if s, _ := squareFromText(c); v.IsCorner(s) || v.IsEscape(s) {
			t.Errorf("%s is a corner/escape square, want an ordinary square", c)
		}
	}
	if g7, _ := squareFromText("g7"); !v.IsCorner(g7) || !v.IsEscape(g7) {
		t.Errorf("g7 is not the corner")
	}
	s, err := RulesString(v)
	if err != nil {
		t.Fatal(err)
	}
	w, err := ParseRules(s)
	if err != nil {
		t.Fatalf("ParseRules(RulesString) = %v (%s)", err, s)
	}
	if !SameRules(v, w) {
		t.Errorf("placed squares do not round-trip through %q", s)
	}
}
