package grammar

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestParseCSVValid(t *testing.T) {
	withCaps := func(m *Move, c ...*Capture) *Move { m.Captures = c; return m }
	in := "d1-d3 e5-e2 a8-b8xb7,1,0,Ongoing\r\n\n" +
		"e7-k7xk6xk6 timeout,1,0,White\n" +
		",0,0,Draw"
	got, err := ParseCSV("c", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got[1].Line != 3 || got[2].Line != 4 {
		t.Errorf("lines = %d, %d, want 3, 4", got[1].Line, got[2].Line)
	}
	stripPos(&got)
	want := []*CSVGame{
		{Line: 1, Plies: []*Ply{plyOf(mv("d1", "d3")), plyOf(mv("e5", "e2")), plyOf(withCaps(mv("a8", "b8"), capt("b7")))},
			AttackerCaptures: 1, Outcome: "Ongoing"},
		{Line: 3, Plies: []*Ply{plyOf(withCaps(mv("e7", "k7"), capt("k6"), capt("k6"))), {Timeout: true}},
			AttackerCaptures: 1, Outcome: "White"},
		{Line: 4, Outcome: "Draw"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseCSV = %#v, want %#v", got, want)
	}
	results := []Outcome{Unfinished, DefendersWin, Draw}
	for i, g := range got {
		if g.Result() != results[i] {
			t.Errorf("game %d Result() = %v, want %v", i, g.Result(), results[i])
		}
	}
	if (&CSVGame{Outcome: "Black"}).Result() != AttackersWin {
		t.Errorf("Black is not AttackersWin")
	}
}

func TestParseCSVInvalid(t *testing.T) {
	tests := []struct{ in, want string }{
		{"d1-d3,0,0,black", `c:1:11: expected "Black" or "White" or "Draw" or "Ongoing", found "black"`},
		{"d1-d3,0,0", `c:1:10: expected ",", found end of input`},
		{"d1-d3,0,0,Black,", `c:1:16: expected end of line or end of input, found ","`},
		{"d1-d3;0,0,Black", "c:1:6: unexpected character ';'"},
		{"d1-d3,00,0,Black", `c:1:7: number "00" has a leading zero`},
		{"d1-d3,0,0,Black d1-d3,1,0,White\n", `c:1:17: expected end of line or end of input, found "d1"`},
		{"d1-d3,0,0,Black\nd1-d3 x,1,0,White", "c:2:6: unexpected white space inside move"},
		{"d1-d3,0,0,Black\n\nd1-d3++-,1,0,White", `c:3:8: expected ",", found "-"`},
	}
	for _, tt := range tests {
		_, err := ParseCSV("c", []byte(tt.in))
		if err == nil {
			t.Errorf("ParseCSV(%q) succeeded, want error %q", tt.in, tt.want)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("ParseCSV(%q) error =\n  %q\nwant\n  %q", tt.in, err.Error(), tt.want)
		}
		checkErrorInside(t, "c", []byte(tt.in), err)
	}
}

// BenchmarkParseCSV parses the whole Copenhagen corpus (876 games) and
// reports plies per second.
func BenchmarkParseCSV(b *testing.B) {
	requireShared(b)
	src, err := os.ReadFile(filepath.Join(sharedRecords, "copenhagen.csv"))
	if err != nil {
		b.Fatal(err)
	}
	games, err := ParseCSV("copenhagen.csv", src)
	if err != nil {
		b.Fatal(err)
	}
	plies := 0
	for _, g := range games {
		plies += len(g.Plies)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := ParseCSV("copenhagen.csv", src); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(plies)*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
}
