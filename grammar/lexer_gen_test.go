package grammar

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

// lexerPairs are grammar's participle lexers and their compiled forms.
var lexerPairs = []struct {
	name       string
	reflective *lexer.StatefulDefinition
	generated  *genDefinition
}{
	{"move", moveLexer, moveLexerGen},
	{"record", recordLexer, recordLexerGen},
	{"otg", otgLexer, otgLexerGen},
	{"csv", csvLexer, csvLexerGen},
	{"rules", rulesLexer, rulesLexerGen},
}

// lexAll returns the tokens of src (EOF included) and the error that ended
// them, printed with the token type's name so that a difference reads well.
func lexAll(def interface {
	lexer.Definition
	lexer.StringDefinition
}, src string) []string {
	names := lexer.SymbolsByRune(def)
	l, err := def.LexString("f", src)
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	var out []string
	for len(out) < 100000 {
		t, err := l.Next()
		if err != nil {
			e := err.(*lexer.Error)
			return append(out, fmt.Sprintf("error at %d %s: %s", e.Pos.Offset, e.Pos, e.Msg))
		}
		out = append(out, fmt.Sprintf("%s %q at %d %s", names[t.Type], t.Value, t.Pos.Offset, t.Pos))
		if t.EOF() {
			break
		}
	}
	return out
}

// checkLexers compares every generated lexer with participle's on src.
func checkLexers(t *testing.T, src string) {
	t.Helper()
	for _, p := range lexerPairs {
		want, got := lexAll(p.reflective, src), lexAll(p.generated, src)
		if reflect.DeepEqual(got, want) {
			continue
		}
		for i := range want {
			if i >= len(got) || got[i] != want[i] {
				g := "nothing"
				if i < len(got) {
					g = got[i]
				}
				t.Errorf("%s lexers differ on %q at token %d:\n generated: %s\nparticiple: %s", p.name, src, i, g, want[i])
				break
			}
		}
		if len(got) > len(want) {
			t.Errorf("%s lexers differ on %q: generated has more tokens: %s", p.name, src, got[len(want)])
		}
	}
}

// TestGeneratedLexers: the compiled lexers give participle's tokens (type,
// value, position) and errors on every shared record, every test input of
// the parsers, and inputs that end inside a token; and the same symbols.
func TestGeneratedLexers(t *testing.T) {
	for _, p := range lexerPairs {
		if !reflect.DeepEqual(p.generated.Symbols(), p.reflective.Symbols()) {
			t.Errorf("%s: symbols %v, participle's %v", p.name, p.generated.Symbols(), p.reflective.Symbols())
		}
	}
	inputs := append([]string{}, moveSeeds...)
	inputs = append(inputs, csvSamples...)
	inputs = append(inputs, sampleRecord, `[a "b\"\\" c] {x}`, "[rules:dim:7 x|y]\n1. a1 ---", "--", "-", "---", "timeout9", "ab_",
		"é", "\xff", "d1-d3 \xe2\x80\x93", "a1-a2x", "a1-a2X\t", "Kk k", "dim:11 start:/7/ x: :")
	files, _ := filepath.Glob(filepath.Join(sharedRecords, "*.csv"))
	otg, _ := filepath.Glob(filepath.Join(sharedRecords, "otg", "*.otg"))
	for _, f := range append(files, otg...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, string(src))
	}
	for _, in := range inputs {
		for i := 0; i <= len(in) && i < 64; i++ {
			checkLexers(t, in[:i]) // every prefix: inputs ending inside a token
		}
		checkLexers(t, in)
	}
}

// FuzzGeneratedLexers compares the compiled lexers with participle's on
// arbitrary input.
func FuzzGeneratedLexers(f *testing.F) {
	for _, s := range moveSeeds {
		f.Add(s)
	}
	for _, s := range csvSamples {
		f.Add(s)
	}
	f.Add(sampleRecord)
	f.Add("[rules:dim:7 esc:e start:/7/][a|b]\n1. a1-a2 b2-b3\n1a.1.1a. ..... c2-c3 [x|]\n")
	f.Add("dim:11 atkf:n start:/3t3/")
	f.Fuzz(func(t *testing.T, src string) {
		checkLexers(t, src)
	})
}

// TestLexerGenUpToDate: lexer_gen.go is what lexgen makes of the rules
// now (go generate ./grammar/ rewrites it).
func TestLexerGenUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs lexgen")
	}
	out, err := exec.Command("go", "run", "./internal/lexgen", "-o", "-").Output()
	if err != nil {
		t.Fatalf("go run ./internal/lexgen: %v", err)
	}
	have, err := os.ReadFile("lexer_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, have) {
		t.Errorf("lexer_gen.go is out of date: run go generate ./grammar/")
	}
}
