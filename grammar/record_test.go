package grammar

import (
	"bytes"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

const sampleRecord = `[Event "Taflmail ladder"]
[Site "taflmail.example"]
[Date "2026.11.29"]
[Round "3"]
[Attackers "alice@example.org"]
[Defenders "Bob \"the Wall\" \\ B."]
[Variant "brandubh"]
[Result "defenders"]
[Termination "king escaped"]

{Brandubh, a short one.
Two lines.} 1. d1-c1 Kd4-c4 {threat} 2. c1-b1 Kc4-c7-- defenders
`

func annotated(p *Ply, comments ...string) *AnnotatedPly {
	a := &AnnotatedPly{Ply: p}
	for _, c := range comments {
		a.Comments = append(a.Comments, &Comment{Text: c})
	}
	return a
}

func TestParseRecordsValid(t *testing.T) {
	king := func(m *Move) *Move { m.King = true; return m }
	escaped := king(mv("c4", "c7"))
	escaped.Info = "--"
	tests := []struct {
		name string
		in   string
		want []*Record
	}{
		{"empty file", "", []*Record{}},
		{"only result", "*", []*Record{{Result: &Result{Outcome: Unfinished}}}},
		{"sample", sampleRecord, []*Record{{
			Tags: []*Tag{
				{Name: "Event", Value: "Taflmail ladder"},
				{Name: "Site", Value: "taflmail.example"},
				{Name: "Date", Value: "2026.11.29"},
				{Name: "Round", Value: "3"},
				{Name: "Attackers", Value: "alice@example.org"},
				{Name: "Defenders", Value: `Bob "the Wall" \ B.`},
				{Name: "Variant", Value: "brandubh"},
				{Name: "Result", Value: "defenders"},
				{Name: "Termination", Value: "king escaped"},
			},
			Comments: []*Comment{{Text: "Brandubh, a short one.\nTwo lines."}},
			Turns: []*Turn{
				{Number: 1, First: annotated(plyOf(mv("d1", "c1"))), Second: annotated(plyOf(king(mv("d4", "c4"))), "threat")},
				{Number: 2, First: annotated(plyOf(mv("c1", "b1"))), Second: annotated(plyOf(escaped))},
			},
			Result: &Result{Outcome: DefendersWin},
		}}},
		{"ellipsis and resignation", `[Position "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"]
[ToMove "defenders"]
1... d3-f3 {defenders first} 2. d2-d3 ---
defenders`, []*Record{{
			Tags: []*Tag{
				{Name: "Position", Value: "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"},
				{Name: "ToMove", Value: "defenders"},
			},
			Turns: []*Turn{
				{Number: 1, Second: annotated(plyOf(mv("d3", "f3")), "defenders first")},
				{Number: 2, First: annotated(plyOf(mv("d2", "d3"))), Second: annotated(&Ply{Resign: true})},
			},
			Result: &Result{Outcome: DefendersWin},
		}}},
		{"comment splits a turn", "12. d1-d3 {why?} 12... h6-h9 13. timeout attackers", []*Record{{
			Turns: []*Turn{
				{Number: 12, First: annotated(plyOf(mv("d1", "d3")), "why?")},
				{Number: 12, Second: annotated(plyOf(mv("h6", "h9")))},
				{Number: 13, First: annotated(&Ply{Timeout: true})},
			},
			Result: &Result{Outcome: AttackersWin},
		}}},
		{"two games and rules", `[Variant "x-1"] [Rules "dim:7 ks:n cenh: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"] 1. d1-c1 draw
[Event "second"]

*`, []*Record{
			{
				Tags: []*Tag{
					{Name: "Variant", Value: "x-1"},
					{Name: "Rules", Value: "dim:7 ks:n cenh: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"},
				},
				Turns:  []*Turn{{Number: 1, First: annotated(plyOf(mv("d1", "c1")))}},
				Result: &Result{Outcome: Draw},
				Rules: &Rules{Pairs: []RulePair{
					{Key: "dim", Value: "7"}, {Key: "ks", Value: "n"}, {Key: "cenh"},
					{Key: "start", Value: "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"},
				}},
			},
			{Tags: []*Tag{{Name: "Event", Value: "second"}}, Result: &Result{Outcome: Unfinished}},
		}},
	}
	for _, tt := range tests {
		got, err := ParseRecords("r", []byte(tt.in))
		if err != nil {
			t.Errorf("%s: ParseRecords error: %v", tt.name, err)
			continue
		}
		stripPos(&got)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: ParseRecords =\n%s\nwant\n%s", tt.name, dump(got), dump(tt.want))
		}
	}
}

func dump(recs []*Record) string {
	var b strings.Builder
	for _, r := range recs {
		b.WriteString(r.String())
		b.WriteString("--\n")
	}
	return b.String()
}

func TestParseRecordsPositions(t *testing.T) {
	recs, err := ParseRecords("r", []byte(sampleRecord))
	if err != nil {
		t.Fatal(err)
	}
	r := recs[0]
	at := func(line, col int) string { return lexer.Position{Filename: "r", Line: line, Column: col}.String() }
	checks := []struct {
		name      string
		got, want string
	}{
		{"Record", r.Pos.String(), at(1, 1)},
		{"Tag Site", r.Tags[1].Pos.String(), at(2, 1)},
		{"Comment", r.Comments[0].Pos.String(), at(11, 1)},
		{"Turn 1", r.Turns[0].Pos.String(), at(12, 13)},
		{"Turn 1 second ply", r.Turns[0].Second.Ply.Move.Pos.String(), at(12, 22)},
		{"its comment", r.Turns[0].Second.Comments[0].Pos.String(), at(12, 29)},
		{"Turn 2 to-square", r.Turns[1].Second.Ply.Move.To.Pos.String(), at(12, 51)},
		{"Result", r.Result.Pos.String(), at(12, 56)},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s at %s, want %s", c.name, c.got, c.want)
		}
	}
	// Positions inside the Rules tag point into the file.
	recs, err = ParseRecords("r", []byte("[Event \"e\"]\n[Rules  \"dim:7 start:/7/\"] *"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := recs[0].Rules.Pairs[1].Pos.String(), at(2, 16); got != want {
		t.Errorf("rules pair start at %s, want %s", got, want)
	}
}

func TestParseRecordsInvalid(t *testing.T) {
	tests := []struct{ in, want string }{
		{"1. d1-d3", "r:1:9: expected move number or result, found end of input"},
		{"1. d1-d3 h6-h9 i3-i4 *", `r:1:16: expected move number or result, found "i3"`},
		{"1. d1-d3 h6-h9 2.", "r:1:18: expected square, found end of input"},
		{"1. d1-d3 h6-h9 2 *", `r:1:18: expected "." or "...", found "*"`},
		{"1.. d1-d3 *", `r:1:2: expected "." or "...", found ".."`},
		{"1... d1-d3 h6-h9 *", `r:1:12: expected move number or result, found "h6"`},
		{"01. d1-d3 *", `r:1:1: number "01" has a leading zero`},
		{"99999999999999999999. d1-d3 *", `r:1:1: number "99999999999999999999" is too large`},
		{"1. d1-t3 *", `r:1:7: expected file a to s, found "t"`},
		{"1. d1 -d3 *", "r:1:7: unexpected character '-'"},
		{"1. d1-d3e4-e5 *", "r:1:9: expected white space before move"},
		{"1. d1-d3+Kd4-d5 *", "r:1:10: expected white space before move"},
		{"1.d1-d3 h6-h9{c}2...e1-e2 *", ""},
		{"1. d1-d3 Draw", `r:1:10: expected move number or result, found "Draw"`},
		{"1. d1-d3 {unterminated\n*", `r:1:10: unterminated comment: missing "}"`},
		{"1. d1-d3 h6-h9 {c} *\n{trailing}", "r:2:11: expected move number or result, found end of input"},
		{"1. {c} d1-d3 *", `r:1:4: expected square, found "{c}"`},
		{"[Event \"x]\n*", `r:1:8: unterminated string: missing closing '"' on this line`},
		{"[Event \"a\\nb\"]\n*", `r:1:10: invalid escape "\\n" in string: only \" and \\ are allowed`},
		{"[Event \"x\"\n*", `r:2:1: expected "]", found "*"`},
		{"[Event x]\n*", `r:1:8: expected quoted string, found "x"`},
		{"[9 \"x\"] *", `r:1:2: expected tag name, found "9"`},
		{"[Date \"2026.11.29\"]\n[Date \"2026.11.29\"]\n*", "r:2:1: duplicate tag Date"},
		{"[Date \"29.11.2026\"]\n*", `r:1:1: expected Date as YYYY.MM.DD (? for unknown digits), found "29.11.2026"`},
		// A Date of the right form that is no calendar date (trial
		// report §10: validate took it, ratings refused it).
		{"[Event \"e\"]\n[Date \"2026.13.45\"]\n*", `r:2:1: Date "2026.13.45" is not a calendar date: no month 13`},
		{"[Date \"2026.02.30\"]\n*", `r:1:1: Date "2026.02.30" is not a calendar date: February 2026 has 28 days`},
		{"[Date \"2025.02.29\"]\n*", `r:1:1: Date "2025.02.29" is not a calendar date: February 2025 has 28 days`},
		{"[Date \"2026.00.10\"]\n*", `r:1:1: Date "2026.00.10" is not a calendar date: no month 00`},
		{"[Date \"2026.04.31\"]\n*", `r:1:1: Date "2026.04.31" is not a calendar date: April 2026 has 30 days`},
		{"[Date \"2026.??.32\"]\n*", `r:1:1: Date "2026.??.32" is not a calendar date: no day 32`},
		{"[Date \"2026.2?.01\"]\n*", `r:1:1: Date "2026.2?.01" is not a calendar date: no month 2?`},
		{"[Date \"2026.??.4?\"]\n*", `r:1:1: Date "2026.??.4?" is not a calendar date: no day 4?`},
		{"[Date \"2024.02.29\"]\n*", ""},
		{"[Date \"????.??.??\"]\n*", ""},
		{"[Date \"2026.1?.3?\"]\n*", ""},
		{"[Date \"20??.02.29\"]\n*", ""},
		{"[Variant \"Copenhagen\"] *", `r:1:1: expected Variant as a lower-case name such as "copenhagen", found "Copenhagen"`},
		{"[Result \"won\"]\n*", `r:1:1: expected Result "*" or "attackers" or "defenders" or "draw", found "won"`},
		{"[Result \"attackers\"]\n1. d1-d3 defenders", `r:2:10: expected "attackers" as in the Result tag, found "defenders"`},
		{"[Termination \"mate\"] *", `r:1:1: expected Termination "king captured" or "king escaped" or "edge fort" or "encirclement" or "repetition" or "no legal move" or "resignation" or "agreement" or "timeout", found "mate"`},
		{"[Event \"e\"]\n[Position \"/7/7/7/3K3/7/7/7/\"]\n*", `r:2:1: missing ToMove tag: a Position tag must say which side moves first ("attackers" or "defenders")`},
		{"[ToMove \"defenders\"] *", "r:1:1: missing Position tag: ToMove applies only to a Position"},
		{"[ToMove \"white\"] *", `r:1:1: expected ToMove "attackers" or "defenders", found "white"`},
		{"[Position \"3t3/\"] [ToMove \"attackers\"] *", `r:1:1: expected Position as an OTN position such as "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", found "3t3/"`},
		{"[Rules \"dim:11 atkf:n dim:3\"]\n*", `r:1:23: duplicate rule key "dim"`},
		{"[Rules \"dim:11 :n\"]\n*", `r:1:16: expected key, found ":"`},
		{"[Rules \"dim:11 \\\"\"]\n*", `r:1:1: rules string must not contain '"' or '\'`},
		{"[Event \"\x01\"] *", "r:1:9: control character U+0001 not allowed"},
		{"1. d1-d3 h6-h9 *\n1. \xc3", "r:2:4: invalid UTF-8 byte 0xc3"},
	}
	for _, tt := range tests {
		_, err := ParseRecords("r", []byte(tt.in))
		if tt.want == "" {
			if err != nil {
				t.Errorf("ParseRecords(%q) error: %v", tt.in, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("ParseRecords(%q) succeeded, want error %q", tt.in, tt.want)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("ParseRecords(%q) error =\n  %q\nwant\n  %q", tt.in, err.Error(), tt.want)
		}
		checkErrorInside(t, "r", []byte(tt.in), err)
	}
}

func TestWriteRecord(t *testing.T) {
	in := `[Event "x"]   [Attackers "A \\ \"B\""]
{c}
1.   D1-D3   H6-H9{x} 2... timeout
 *`
	recs, err := ParseRecords("r", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := `[Event "x"]
[Attackers "A \\ \"B\""]

{c} 1. d1-d3 h6-h9 {x} 2... timeout *
`
	var b bytes.Buffer
	if err := WriteRecord(&b, recs[0]); err != nil {
		t.Fatal(err)
	}
	if b.String() != want {
		t.Errorf("WriteRecord =\n%s\nwant\n%s", b.String(), want)
	}

	// Long move text wraps at 80 columns and parses back.
	var long strings.Builder
	for i := 1; i <= 40; i++ {
		long.WriteString(strings.Repeat(" ", 1))
		long.WriteString(strings.TrimSpace(strings.Repeat(" ", 0)))
		long.WriteString(itoa(i) + ". a1-a11xa12/b11 k11-k1xKk2 ")
	}
	long.WriteString("*")
	recs, err = ParseRecords("r", []byte(long.String()))
	if err != nil {
		t.Fatal(err)
	}
	text := recs[0].String()
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if len(line) > 80 {
			t.Errorf("line longer than 80 columns: %q", line)
		}
	}
	again, err := ParseRecords("r2", []byte(text))
	if err != nil {
		t.Fatalf("reparse: %v\n%s", err, text)
	}
	stripPos(&recs)
	stripPos(&again)
	if !reflect.DeepEqual(recs, again) {
		t.Errorf("reparse differs:\n%s\n%s", dump(recs), dump(again))
	}
}

// TestWriteRecordKeepsNumberWithPly: wrapping never leaves a move number
// at the end of a line, away from its ply (trial report §11: "… Kc6-c1
// 6." / "k7-j7 Kc1-a1 defenders"), whatever the columns.
func TestWriteRecordKeepsNumberWithPly(t *testing.T) {
	numberAtEnd := regexp.MustCompile(`(^|\s)[0-9]+\.(\.\.)?$`)
	for shift := 0; shift < 40; shift++ {
		var src strings.Builder
		src.WriteString("{" + strings.Repeat("c", shift+1) + "} ")
		for i := 1; i <= 12; i++ {
			src.WriteString(itoa(i) + ". h3-h4 Kc6-c1 ")
		}
		src.WriteString("13... c1-a1 {end} 14. k7-j7 defenders")
		recs, err := ParseRecords("r", []byte(src.String()))
		if err != nil {
			t.Fatal(err)
		}
		text := recs[0].String()
		for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			if numberAtEnd.MatchString(line) {
				t.Errorf("shift %d: line ends with a move number: %q", shift, line)
			}
			if len(line) > 80 {
				t.Errorf("shift %d: line longer than 80 columns: %q", shift, line)
			}
		}
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func TestWriteRecordErrors(t *testing.T) {
	ok := func() *Record {
		return &Record{
			Tags:   []*Tag{{Name: "Event", Value: "e"}},
			Turns:  []*Turn{{Number: 1, First: annotated(plyOf(mv("d1", "d3")))}},
			Result: &Result{Outcome: Draw},
		}
	}
	tests := []struct {
		name   string
		modify func(r *Record)
		want   string
	}{
		{"no result", func(r *Record) { r.Result = nil }, "record has no result"},
		{"tag name", func(r *Record) { r.Tags[0].Name = "Two words" }, `tag name "Two words" is not a word`},
		{"tag value", func(r *Record) { r.Tags[0].Value = "a\nb" }, "tag Event: value contains a line break, control character or invalid UTF-8"},
		{"comment", func(r *Record) { r.Comments = []*Comment{{Text: "a}b"}} }, `comment contains "}", a control character or invalid UTF-8`},
		{"comment NUL", func(r *Record) { r.Comments = []*Comment{{Text: "a\x00b"}} }, `comment contains "}", a control character or invalid UTF-8`},
		{"empty turn", func(r *Record) { r.Turns[0].First = nil }, "turn 1 has no ply"},
		{"two kinds", func(r *Record) { r.Turns[0].First.Ply.Resign = true }, "ply must be exactly one of move, resignation and time-out"},
		{"off board", func(r *Record) { r.Turns[0].First.Ply.Move.To.Rank = 20 }, "square file 3 rank 20 is off the notation's 19×19 board"},
		{"info", func(r *Record) { r.Turns[0].First.Ply.Move.Info = "#" }, `invalid info mark "#"`},
	}
	for _, tt := range tests {
		r := ok()
		tt.modify(r)
		err := WriteRecord(&bytes.Buffer{}, r)
		var gerr *Error
		if !errors.As(err, &gerr) {
			t.Errorf("%s: WriteRecord error = %v, want a *Error", tt.name, err)
			continue
		}
		if gerr.Error() != tt.want {
			t.Errorf("%s: WriteRecord error = %q, want %q", tt.name, gerr.Error(), tt.want)
		}
	}
	if err := WriteRecord(&bytes.Buffer{}, ok()); err != nil {
		t.Errorf("WriteRecord(valid) = %v", err)
	}
}

func TestRecordAccessors(t *testing.T) {
	recs, err := ParseRecords("r", []byte(sampleRecord))
	if err != nil {
		t.Fatal(err)
	}
	r := recs[0]
	if v, ok := r.Tag("Variant"); !ok || v != "brandubh" {
		t.Errorf("Tag(Variant) = %q, %v", v, ok)
	}
	if _, ok := r.Tag("variant"); ok {
		t.Errorf("Tag names are case-sensitive")
	}
	var plies []string
	for _, p := range r.Plies() {
		plies = append(plies, p.String())
	}
	if got, want := strings.Join(plies, " "), "d1-c1 Kd4-c4 c1-b1 Kc4-c7--"; got != want {
		t.Errorf("Plies() = %q, want %q", got, want)
	}
	for o, s := range map[Outcome]string{Unfinished: "*", AttackersWin: "attackers", DefendersWin: "defenders", Draw: "draw", Outcome(9): "Outcome(9)"} {
		if o.String() != s {
			t.Errorf("Outcome(%d).String() = %q, want %q", int(o), o.String(), s)
		}
	}
}

// TestConcurrentParse runs the package-level parsers from several
// goroutines; with -race it checks that they share no mutable state.
func TestConcurrentParse(t *testing.T) {
	done := make(chan error)
	for i := 0; i < 8; i++ {
		go func() {
			var err error
			for j := 0; j < 20 && err == nil; j++ {
				_, err = ParseRecords("r", []byte(sampleRecord))
				if err == nil {
					_, err = ParseCSV("c", []byte("d1-d3 e5-e2xe1,1,0,Black\n"))
				}
				if err == nil {
					_, err = ParseOTG("o", []byte("[rules:dim:7 start:/7/]\n1. d1-d3 a4-b4\n[a|b]\n"))
				}
				if err == nil {
					_, err = ParseMove("m", []byte("Kf6-c6xKc5/d6+"))
				}
			}
			done <- err
		}()
	}
	for i := 0; i < 8; i++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
