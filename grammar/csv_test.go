package grammar

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
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

// csvSamples are inputs that ParseCSV must read exactly as the grammar
// does, or hand to the grammar: odd spacing, line ends, every ply form, and
// malformed lines.
var csvSamples = []string{
	"",
	"\n\n",
	"d1-d3 h6-h9,0,0,Ongoing",
	"d1-d3 h6-h9,0,0,Ongoing\n",
	"d1-d3 h6-h9,0,0,Ongoing\r\n  \r\n\tk4-i4 ,1 , 0 ,Black \r\n",
	",0,0,Draw\n",
	"  ,0,0,Draw\n",
	"  d1-d3\th6-h9  ,0,0,White\n",
	"E7-E6xF6++ Kf6-c6 g7-g10x e7-k7xk6xk6 d4-c4xKc5 e5-e8xe9/f8 Ke1-a1-- a3-e3+ ---,3,0,Black\n",
	"d1-d3 timeout,0,0,White\n",
	"d1-d3 h6-h9,00,0,Ongoing\n",
	"d1-d3 h6-h9,0,0,ongoing\n",
	"d1-d3 h6-h9,0,0,Ongoing,\n",
	"d1-d3 h6-h9,0,0\n",
	"d1-d3 h6-h9,0,0,Ongoing x\n",
	"d1-d3h6-h9,0,0,Ongoing\n",
	"d1-d3 z6-h9,0,0,Ongoing\n",
	"d1-d3 h6-h20,0,0,Ongoing\n",
	"d1-d3 h6 -h9,0,0,Ongoing\n",
	"d1-d3 h6-h9,99999999999999999999,0,Ongoing\n",
	"d1-d3 h6-h9,999999999999999999,0,Ongoing\n",
	"d1-d3 h6-h9,0,0,Ongoing\rx\n",
	"d1–d3,0,0,Ongoing\n",
	"Timeout,0,0,Ongoing\n",
	"g7-g10x,1,0,Black\n",
	"h1-h3,0,x,Ongoing\n!\n", // the first mistake in reading order, not the lexer's later one
	"h1-h3,0,0,Ongoing\nh1-h3 f8-i8,0,0,\tOngoing \n\u00a0\nd1-d3,0,0,White\n",
	"h1-h3,0,0,Ongoing\r\nh1-h3,0,0,\r\nd1-d3,0,0,White\r\n",
	"d1-d3xd4/e5 e7-k7xk6,2,0,Ongoing\ng7-g10x e7-k7x,1,0,Black\nd1-d3xKd4,0,0,Black\nd1-d3 a1-a2,0,0,Black\n", // nodes used again (CSVScanner)
	"g7-g10x timeout,1,0,White\n",
	"g7-g10x e7-k7 d4-c4xK e7-k7 d4-c4xk a1-a2,1,0,Black\n",
	"g7-g10X+ e7-e6,1,0,Black\n",
	"d1-d3,0,0,Black\nd1-d3,0,0,White",
	"d1-d3 d1-d3 a1-a2 a10-a11 s19-s1 t1-t2 a1-a20 a1-a0,0,0,Black\n",
	"---,0,0,Black\n---- -- -,0,0,White\n",
}

// TestParseCSVSame: ParseCSV returns what the grammar alone returns, trees,
// positions and errors alike, on the samples and on every shared CSV file,
// which it reads without the grammar.
func TestParseCSVSame(t *testing.T) {
	for _, in := range csvSamples {
		checkCSVSame(t, "s.csv", []byte(in))
	}
	requireShared(t)
	files, _ := filepath.Glob(filepath.Join(sharedRecords, "*.csv"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sp := newCSVSplitter(filepath.Base(f), src)
		for g, err := sp.next(); g != nil || err != nil; g, err = sp.next() {
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
		}
		if sp.grammarLines != 0 {
			t.Errorf("%s: ParseCSV gave %d lines to the grammar", f, sp.grammarLines)
		}
		checkCSVSame(t, filepath.Base(f), src)
	}
}

func checkCSVSame(t *testing.T, name string, src []byte) {
	t.Helper()
	want, werr := csvOracle(name, src)
	got, gerr := ParseCSV(name, src)
	if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
		t.Errorf("ParseCSV(%q): error %v, the grammar: %v", src, gerr, werr)
		return
	}
	if !reflect.DeepEqual(got, want) {
		for i := range want {
			if i < len(got) && !reflect.DeepEqual(got[i], want[i]) {
				t.Errorf("ParseCSV(%q): game %d differs from the grammar's:\n got %s\nwant %s", src, i+1, dumpCSV(got[i]), dumpCSV(want[i]))
				return
			}
		}
		t.Errorf("ParseCSV(%q) = %d games, the grammar %d", src, len(got), len(want))
	}
	checkCSVScanner(t, name, src, want, werr)
}

// checkCSVScanner checks that a CSVScanner gives the games want in order,
// each compared before the next Scan reuses its nodes, and then the
// error werr.
func checkCSVScanner(t *testing.T, name string, src []byte, want []*CSVGame, werr error) {
	t.Helper()
	s := NewCSVScanner(name, src)
	n := 0
	for s.Scan() {
		if n >= len(want) {
			if werr == nil {
				t.Errorf("CSVScanner(%q): game %d, the grammar has %d", src, n+1, len(want))
			}
			return
		}
		if got := s.Game(); !reflect.DeepEqual(got, want[n]) {
			t.Errorf("CSVScanner(%q): game %d differs from the grammar's:\n got %s\nwant %s", src, n+1, dumpCSV(got), dumpCSV(want[n]))
			return
		}
		n++
	}
	gerr := s.Err()
	if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
		t.Errorf("CSVScanner(%q): error %v, the grammar: %v", src, gerr, werr)
		return
	}
	if werr == nil && n != len(want) {
		t.Errorf("CSVScanner(%q) = %d games, the grammar %d", src, n, len(want))
	}
	if s.Scan() || s.Game() != nil {
		t.Errorf("CSVScanner(%q): Scan after the end gave a game", src)
	}
}

// TestCSVScannerReuses: the scanner puts a game's plies where the game
// before had its own, and a ply of the game before is no longer what it
// was (its node now holds the new game's ply).
func TestCSVScannerReuses(t *testing.T) {
	s := NewCSVScanner("r.csv", []byte("d1-d3xd4 e5-e2,1,0,Black\na1-a2 b1-b2,0,0,White\n"))
	if !s.Scan() {
		t.Fatal(s.Err())
	}
	first := s.Game().Plies[0]
	if got := first.String(); got != "d1-d3xd4" {
		t.Fatalf("first ply %q", got)
	}
	if !s.Scan() {
		t.Fatal(s.Err())
	}
	second := s.Game().Plies[0]
	if second != first || second.String() != "a1-a2" || second.Move.Captures != nil || second.Pos.Line != 2 {
		t.Errorf("second game's first ply %p %s, first game's %p: want the same node, now a1-a2 on line 2 without captures", second, dumpPly(second), first)
	}
}

// csvOracle is what ParseCSV must return, from the grammar reading whole
// files: its games when it reads src; else its error for the shortest
// part of src, in whole lines, that it cannot read.
func csvOracle(name string, src []byte) ([]*CSVGame, error) {
	games, err := parseCSVGrammar(name, src)
	if err == nil {
		return games, nil
	}
	for end := 0; end < len(src); {
		if i := bytes.IndexByte(src[end:], '\n'); i >= 0 {
			end += i + 1
		} else {
			end = len(src)
		}
		if _, err := parseCSVGrammar(name, src[:end]); err != nil {
			return nil, err
		}
	}
	return nil, err
}

func dumpCSV(g *CSVGame) string {
	s := fmt.Sprintf("%s line %d %d,%d,%s: ", g.Pos, g.Line, g.AttackerCaptures, g.DefenderCaptures, g.Outcome)
	for _, p := range g.Plies {
		s += dumpPly(p) + " "
	}
	return s
}

// dumpPly prints a ply with the position of every node.
func dumpPly(p *Ply) string {
	if p == nil {
		return "<nil>"
	}
	s := fmt.Sprintf("%s:%q", p.Pos, p.String())
	walkPly(p, func(pos lexer.Position, sq *Square) {
		s += " " + pos.String()
		if sq != nil {
			s += "=" + sq.String()
		}
	})
	return s
}

// FuzzParseCSVSame feeds arbitrary bytes to ParseCSV and to the grammar.
func FuzzParseCSVSame(f *testing.F) {
	for _, s := range csvSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkCSVSame(t, "f.csv", src)
	})
}

// TestPlyMemo: the ply memo gives what ParsePly gives, for every ply text
// of the shared CSV files (each text read twice, the second time from the
// memo) and for the move seeds.
func TestPlyMemo(t *testing.T) {
	m := newPlyMemo()
	for _, s := range moveSeeds {
		checkPlyMemo(t, m, []byte(s))
	}
	requireShared(t)
	files, _ := filepath.Glob(filepath.Join(sharedRecords, "*.csv"))
	texts := map[string]bool{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(src), "\n") {
			plies, _, _ := strings.Cut(line, ",")
			for _, p := range strings.Fields(plies) {
				texts[p] = true
			}
		}
	}
	for p := range texts {
		checkPlyMemo(t, m, []byte(p))
		checkPlyMemo(t, m, []byte(p))
	}
	t.Logf("%d ply texts in %d shapes", len(texts), len(m.shapes))
	if len(texts) < 1000 || len(m.shapes) > len(texts)/10 {
		t.Errorf("%d ply texts in %d shapes; want many texts in few shapes", len(texts), len(m.shapes))
	}
}

func checkPlyMemo(t *testing.T, m *plyMemo, text []byte) {
	t.Helper()
	want, err := ParsePly("", text)
	got, ok := m.ply(text)
	if ok != (err == nil) {
		t.Errorf("plyMemo.ply(%q) = %v, %v; ParsePly: %v", text, dumpPly(got), ok, err)
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("plyMemo.ply(%q) =\n %s\nParsePly:\n %s", text, dumpPly(got), dumpPly(want))
	}
}

// FuzzPlyMemo: the ply memo agrees with ParsePly on two arbitrary texts
// read in turn, so that the second may take the shape of the first.
func FuzzPlyMemo(f *testing.F) {
	for i, s := range moveSeeds {
		f.Add([]byte(s), []byte(moveSeeds[(i+1)%len(moveSeeds)]))
		f.Add([]byte(s), []byte(s))
	}
	f.Add([]byte("a1-b2xc3/Kd4"), []byte("s19-a10xK10/f5"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		m := newPlyMemo()
		checkPlyMemo(t, m, a)
		checkPlyMemo(t, m, b)
	})
}

// BenchmarkParseCSV parses the whole Copenhagen corpus (876 games) and
// reports plies per second: ParseCSV, and the grammar alone.
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
	for _, bb := range []struct {
		name  string
		parse func(string, []byte) ([]*CSVGame, error)
	}{{"split", ParseCSV}, {"grammar", parseCSVGrammar}} {
		b.Run(bb.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bb.parse("copenhagen.csv", src); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(plies)*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
		})
	}
}
