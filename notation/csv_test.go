package notation

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/taflmail/taflmail/grammar"
)

// csvSamples are inputs the fast CSV path must read exactly as the grammar
// does, or hand to the grammar: odd spacing, line ends, every ply form, and
// malformed lines.
var csvSamples = []string{
	"",
	"\n\n",
	"d1-d3 h6-h9,0,0,Ongoing",
	"d1-d3 h6-h9,0,0,Ongoing\n",
	"d1-d3 h6-h9,0,0,Ongoing\r\n  \r\n\tk4-i4 ,1 , 0 ,Black \r\n",
	",0,0,Draw\n",
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
	"d1-d3 h6-h9,0,0,Ongoing\rx\n",
	"d1–d3,0,0,Ongoing\n",
	"Timeout,0,0,Ongoing\n",
	"g7-g10x,1,0,Black\n",
	"g7-g10x timeout,1,0,White\n",
	"g7-g10X+ e7-e6,1,0,Black\n",
	"d1-d3,0,0,Black\nd1-d3,0,0,White",
}

// TestParseCSVSame: ParseCSV returns what grammar.ParseCSV returns, trees,
// positions and errors alike, on the samples and on every shared CSV file.
func TestParseCSVSame(t *testing.T) {
	for _, in := range csvSamples {
		checkCSVSame(t, "s.csv", []byte(in))
	}
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.csv"))
	if len(files) == 0 {
		requireCorpus(t)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := parseCSVFast(filepath.Base(f), src); !ok {
			t.Errorf("%s: the fast path gave up on a corpus file", f)
		}
		checkCSVSame(t, filepath.Base(f), src)
	}
}

func checkCSVSame(t *testing.T, name string, src []byte) {
	t.Helper()
	want, werr := grammar.ParseCSV(name, src)
	got, gerr := ParseCSV(name, src)
	if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
		t.Errorf("ParseCSV(%q): error %v, grammar.ParseCSV: %v", src, gerr, werr)
		return
	}
	if !reflect.DeepEqual(got, want) {
		for i := range want {
			if i < len(got) && !reflect.DeepEqual(got[i], want[i]) {
				t.Errorf("ParseCSV(%q): game %d differs from grammar.ParseCSV:\n got %s\nwant %s", src, i+1, dumpCSV(got[i]), dumpCSV(want[i]))
				return
			}
		}
		t.Errorf("ParseCSV(%q) = %d games, grammar.ParseCSV %d", src, len(got), len(want))
	}
}

func dumpCSV(g *grammar.CSVGame) string {
	s := ""
	s += g.Pos.String() + " "
	for _, p := range g.Plies {
		s += p.Pos.String() + ":" + p.String() + " "
		if p.Move != nil {
			s += "[" + p.Move.Pos.String() + " " + p.Move.From.Pos.String() + " " + p.Move.To.Pos.String() + "] "
		}
	}
	return s
}

// FuzzParseCSVSame feeds arbitrary bytes to both CSV parsers.
func FuzzParseCSVSame(f *testing.F) {
	for _, s := range csvSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkCSVSame(t, "f.csv", src)
	})
}
