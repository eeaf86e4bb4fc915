package grammar

import (
	"reflect"
	"testing"
)

func TestParseOTGValid(t *testing.T) {
	king := func(m *Move) *Move { m.King = true; return m }
	withCaps := func(m *Move, c ...*Capture) *Move { m.Captures = c; return m }
	in := `[date:2016.08.27]
[result:-1]
[rules:dim:11 name:X atkf:n cenhe: cor:a1, start:/11/11/11/11/11/5K5/11/11/11/11/11/]
[start-comment:note: a colon]

1. Kf6-c6 a8-c8 
[note|note]

2a.1.1a. Kc6-c2xd2 
[note]

12b.1.1a. ..... d2-c2 
[|]

3a.2.1a.1.1a. Kc3-a3 b2-a2 

13. Kc6-c1 
[]
`
	got, err := ParseOTG("o", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	stripPos(got)
	want := &OTGRecord{
		Tags: []*OTGTag{
			{Key: "date", Value: "2016.08.27"},
			{Key: "result", Value: "-1"},
			{Key: "rules", Value: "dim:11 name:X atkf:n cenhe: cor:a1, start:/11/11/11/11/11/5K5/11/11/11/11/11/"},
			{Key: "start-comment", Value: "note: a colon"},
		},
		Turns: []*OTGTurn{
			{Label: &Label{Number: 1}, First: plyOf(king(mv("f6", "c6"))), Second: plyOf(mv("a8", "c8")),
				Comment: &OTGComment{First: "note", Bar: true, Second: "note"}},
			{Label: &Label{Number: 2, Branches: []*Branch{{Variation: 1, Number: 1}}},
				First: plyOf(withCaps(king(mv("c6", "c2")), capt("d2"))), Comment: &OTGComment{First: "note"}},
			{Label: &Label{Number: 12, SecondPly: true, Branches: []*Branch{{Variation: 1, Number: 1}}},
				Second: plyOf(mv("d2", "c2")), Comment: &OTGComment{Bar: true}},
			{Label: &Label{Number: 3, Branches: []*Branch{{Variation: 2, Number: 1}, {Variation: 1, Number: 1}}},
				First: plyOf(king(mv("c3", "a3"))), Second: plyOf(mv("b2", "a2"))},
			{Label: &Label{Number: 13}, First: plyOf(king(mv("c6", "c1"))), Comment: &OTGComment{}},
		},
		Rules: &Rules{Pairs: []RulePair{
			{Key: "dim", Value: "11"}, {Key: "name", Value: "X"}, {Key: "atkf", Value: "n"},
			{Key: "cenhe"}, {Key: "cor", Value: "a1,"},
			{Key: "start", Value: "/11/11/11/11/11/5K5/11/11/11/11/11/"},
		}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseOTG =\n%#v\nwant\n%#v", got, want)
		for i := range want.Turns {
			if i < len(got.Turns) && !reflect.DeepEqual(got.Turns[i], want.Turns[i]) {
				t.Errorf("turn %d differs: %+v", i, got.Turns[i])
			}
		}
	}
	if n := len(got.MainLine()); n != 2 {
		t.Errorf("MainLine has %d turns, want 2", n)
	}
	if got.Outcome() != DefendersWin {
		t.Errorf("Outcome() = %v, want defenders", got.Outcome())
	}
	if v, ok := got.Tag("date"); !ok || v != "2016.08.27" {
		t.Errorf("Tag(date) = %q, %v", v, ok)
	}
	if v, ok := got.Rules.Value("cenhe"); !ok || v != "" {
		t.Errorf("Rules.Value(cenhe) = %q, %v", v, ok)
	}
}

func TestParseOTGPositions(t *testing.T) {
	in := "[result:?]\n[rules:dim:7  start:/7/]\n\n1. d1-d3 \n[a|b]\n"
	rec, err := ParseOTG("o", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct{ name, got, want string }{
		{"tag", rec.Tags[1].Pos.String(), "o:2:1"},
		{"rules", rec.Rules.Pos.String(), "o:2:8"},
		{"rule start", rec.Rules.Pairs[1].Pos.String(), "o:2:15"},
		{"turn", rec.Turns[0].Pos.String(), "o:4:1"},
		{"second square", rec.Turns[0].First.Move.To.Pos.String(), "o:4:7"},
		{"comment", rec.Turns[0].Comment.Pos.String(), "o:5:1"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s at %s, want %s", c.name, c.got, c.want)
		}
	}
	if rec.Outcome() != Unfinished {
		t.Errorf("Outcome() = %v, want *", rec.Outcome())
	}
}

func TestParseOTGInvalid(t *testing.T) {
	tests := []struct{ in, want string }{
		{"[rules:dim:7 x]\n1. d1-d3", `o:1:15: expected ":", found end of input`},
		{"[rules:dim:7 dim:9]", `o:1:14: duplicate rule key "dim"`},
		{"[rules:dim:7\n1. d1-d3", "o:1:13: unexpected end of line"},
		{"[date:1]\n[date:2]", "o:2:1: duplicate tag date"},
		{"[result:2]", `o:1:1: expected result "1", "-1", "0" or "?", found "2"`},
		{"1. d1-d3\n[a|b|c]", `o:2:5: expected "]", found "|"`},
		{"2a.1.1a. .....", "o:1:15: expected square, found end of input"},
		{"2c.1.1a. d1-d3", `o:1:2: expected "a" or "b" or ".", found "c"`},
		{"2a.1. d1-d3", `o:1:7: expected number, found "d1"`},
		{"1.", "o:1:3: expected square, found end of input"},
		{"1. d1-d3 h6-h9 i3-i4", `o:1:16: expected move number, found "i3"`},
		{"[note]\n1. d1-d3", `o:1:1: expected tag [key:value], found "["`},
		{"1. d1-d3\n[a]\n[b]", `o:3:1: expected move number, found "["`},
		{"1. d1-d3 xe4", "o:1:9: unexpected white space inside move"},
	}
	for _, tt := range tests {
		_, err := ParseOTG("o", []byte(tt.in))
		if err == nil {
			t.Errorf("ParseOTG(%q) succeeded, want error %q", tt.in, tt.want)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("ParseOTG(%q) error =\n  %q\nwant\n  %q", tt.in, err.Error(), tt.want)
		}
		checkErrorInside(t, "o", []byte(tt.in), err)
	}
}

func TestParseRules(t *testing.T) {
	r, err := ParseRules("rules", []byte("dim:9 esc:e ka:n cen: cor: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"))
	if err != nil {
		t.Fatal(err)
	}
	stripPos(r)
	want := &Rules{Pairs: []RulePair{
		{Key: "dim", Value: "9"}, {Key: "esc", Value: "e"}, {Key: "ka", Value: "n"},
		{Key: "cen"}, {Key: "cor"}, {Key: "start", Value: "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"},
	}}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("ParseRules = %v, want %v", r, want)
	}
	if got, want := r.String(), "dim:9 esc:e ka:n cen: cor: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"; got != want {
		t.Errorf("String() = %q", got)
	}
	for in, want := range map[string]string{
		"dim 9":    "rules:1:5: unexpected character '9'",
		"dim:9 :x": `rules:1:7: expected key, found ":"`,
		"dim:9 é":  "rules:1:7: unexpected character 'é'",
	} {
		_, err := ParseRules("rules", []byte(in))
		if err == nil || err.Error() != want {
			t.Errorf("ParseRules(%q) error = %v, want %q", in, err, want)
		}
	}
}
