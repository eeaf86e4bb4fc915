package server

import (
	"github.com/taflmail/taflmail/server/internal/referee"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// grammarCommandFiles are the grammar's files whose errors ParseCommand
// can return, and so a reply can quote.
var grammarCommandFiles = []string{"command.go", "command_tournament.go", "phrases.go", "notify.go", "leave.go", "leavedate.go", "move.go", "timecontrol.go", "error.go"}

// grammarRecordOnly are the grammar's messages that only records and
// record tags can cause (comments, quoted strings, leave tags), never a
// mail command, and the pass-through of participle's own message, which
// TestSyntaxGerman covers by example.
var grammarRecordOnly = map[string]bool{
	`unterminated comment: missing "}"`:                       true,
	"malformed quoted string":                                 true,
	`unterminated string: missing closing '"' on this line`:   true,
	`invalid escape %s in string: only \" and \\ are allowed`: true,
	"a list of leave intervals must fit on one line":          true,
	"%s": true,
}

// fmtSample fills the verbs of a grammar message with sample values.
var fmtSample = strings.NewReplacer("%s", `"x1"`, "%q", `"x1"`, "%v", "x1", "%d", "7", "%U", "U+0007", "%02x", "07")

// TestSyntaxTextsTranslated: every message and every expectation the
// grammar's command parser can put into an error (newError,
// expectedError, a Message set by hand, the words of the NewReplacers
// tokenWords and timeWords) has a catalogue entry, so that
// a German reply never quotes the grammar's English (trial 2 report §8:
// "25:00 is not a time of day." reached a German player). It reads the
// grammar's sources, so a message added there without a translation
// fails here.
func TestSyntaxTextsTranslated(t *testing.T) {
	fset := token.NewFileSet()
	found := 0
	for _, name := range grammarCommandFiles {
		f, err := parser.ParseFile(fset, filepath.Join("..", "grammar", name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if a, ok := n.(*ast.AssignStmt); ok && len(a.Lhs) == 1 && len(a.Rhs) == 1 {
				// e.Message = "…", a message set by hand
				sel, ok := a.Lhs[0].(*ast.SelectorExpr)
				l, lok := a.Rhs[0].(*ast.BasicLit)
				if ok && lok && sel.Sel.Name == "Message" && l.Kind == token.STRING {
					found++
					msg, _ := strconv.Unquote(l.Value)
					if referee.SyntaxMessage(referee.German, msg) == msg {
						t.Errorf("%s: the grammar's message %q has no translation in syntaxMessages", fset.Position(a.Pos()), msg)
					}
				}
				return true
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			lit := func(i int) (string, bool) {
				if i >= len(call.Args) {
					return "", false
				}
				l, ok := call.Args[i].(*ast.BasicLit)
				if !ok || l.Kind != token.STRING {
					return "", false
				}
				s, err := strconv.Unquote(l.Value)
				return s, err == nil
			}
			pos := fset.Position(call.Pos())
			switch fun := call.Fun.(type) {
			case *ast.Ident:
				switch fun.Name {
				case "newError":
					format, ok := lit(1)
					if !ok || grammarRecordOnly[format] {
						return true
					}
					found++
					msg := fmtSample.Replace(format)
					if referee.SyntaxMessage(referee.German, msg) == msg {
						t.Errorf("%s: the grammar's message %q has no translation in syntaxMessages", pos, format)
					}
				case "expectedError":
					if phrase, ok := lit(1); ok {
						found++
						if _, ok := referee.SyntaxPhrases[phrase]; !ok {
							t.Errorf("%s: the grammar's expectation %q has no translation in syntaxPhrases", pos, phrase)
						}
					}
				}
			case *ast.SelectorExpr:
				if fun.Sel.Name != "NewReplacer" {
					return true
				}
				for i := 1; i < len(call.Args); i += 2 {
					if phrase, ok := lit(i); ok {
						found++
						if _, ok := referee.SyntaxPhrases[phrase]; !ok {
							t.Errorf("%s: the grammar's word %q has no translation in syntaxPhrases", pos, phrase)
						}
					}
				}
			}
			return true
		})
	}
	if found < 20 {
		t.Fatalf("found only %d error texts in the grammar; is the scan broken?", found)
	}
}
