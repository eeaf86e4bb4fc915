// Package docs holds no code: its tests keep the documentation in step
// with the program. commands.md's grammar section must be what the
// command parser prints.
package docs

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/grammar"
)

var update = flag.Bool("update", false, "rewrite the generated sections of the documentation")

const (
	commandsDoc = "commands.md"
	beginEBNF   = "<!-- BEGIN GENERATED EBNF: go test ./docs -run TestCommandGrammar -update -->"
	endEBNF     = "<!-- END GENERATED EBNF -->"
)

// TestCommandGrammar: the EBNF in commands.md between the markers is
// exactly grammar.CommandGrammar(); -update rewrites it.
func TestCommandGrammar(t *testing.T) {
	data, err := os.ReadFile(commandsDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	begin := strings.Index(doc, beginEBNF)
	end := strings.Index(doc, endEBNF)
	if begin < 0 || end < begin {
		t.Fatalf("%s lacks the markers %q … %q", commandsDoc, beginEBNF, endEBNF)
	}
	begin += len(beginEBNF)
	want := "\n```ebnf\n" + strings.TrimRight(grammar.CommandGrammar(), "\n") + "\n```\n"
	if got := doc[begin:end]; got != want {
		if *update {
			if err := os.WriteFile(commandsDoc, []byte(doc[:begin]+want+doc[end:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("the grammar in %s differs from grammar.CommandGrammar() (go test ./docs -run TestCommandGrammar -update rewrites it)\n--- doc\n%s--- parser\n%s", commandsDoc, got, want)
	}
}

// TestCommandWords: every keyword of the grammar appears in commands.md's
// table of commands, so a command added to the parser is documented.
func TestCommandWords(t *testing.T) {
	data, err := os.ReadFile(commandsDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	table := doc[strings.Index(doc, "## The commands"):strings.Index(doc, "## Moves")]
	ebnf := grammar.CommandGrammar()
	parts := strings.Split(ebnf, `"`) // the odd pieces are the quoted keywords
	for i := 1; i < len(parts); i += 2 {
		if !strings.Contains(table, parts[i]) {
			t.Errorf("keyword %q of the grammar is not in the commands section of %s", parts[i], commandsDoc)
		}
	}
}
