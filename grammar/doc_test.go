package grammar

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

var update = flag.Bool("update", false, "rewrite the generated EBNF section of docs/notation.md")

const (
	notationDoc = "../docs/notation.md"
	beginEBNF   = "<!-- BEGIN GENERATED EBNF: go test ./grammar -run TestNotationDoc -update -->"
	endEBNF     = "<!-- END GENERATED EBNF -->"
)

// grammarDoc prints the grammars as the parsers print them
// (participle's Parser.String()), each followed by its tokens. A
// production or lexer state already printed for an earlier language is
// left out.
func grammarDoc() string {
	type language struct {
		title string
		ebnf  string
		lex   *lexer.StatefulDefinition
	}
	languages := []language{
		{"Moves (ParsePly; ParseMove parses Move)", plyParser.String(), moveLexer},
		{"Native records (ParseRecords)", recordParser.String(), recordLexer},
		{"OTN rules strings (ParseRules, the Rules tag, the OpenTafl rules tag)", rulesParser.String(), rulesLexer},
		{"OpenTafl records (ParseOTG)", otgParser.String(), otgLexer},
		{"CSV game lists (ParseCSV)", csvParser.String(), csvLexer},
		{"Time controls (ParseTimeControl, the TimeControl tag, the time clause of new)", timeControlParser.String(), timeControlLexer},
		{"Leave intervals (ParseLeaves, the AttackersLeave and DefendersLeave tags)", leaveParser.String(), leaveLexer},
		{"Leave dates (ParseLeaveDates, the days of a leave command)", leaveDateParser.String(), leaveDateLexer},
		{"Comment commands (ParseComment: [%ts …], [%avail …], [%clk …])", commentParser.String(), commentLexer},
	}
	printed := map[string]bool{}
	var b strings.Builder
	for _, l := range languages {
		fmt.Fprintf(&b, "\n### %s\n\n```ebnf\n", l.title)
		for _, line := range strings.Split(l.ebnf, "\n") {
			if printed[line] {
				continue
			}
			printed[line] = true
			b.WriteString(line + "\n")
		}
		b.WriteString("```\n\n```\n")
		b.WriteString(tokenTable(l.lex, printed))
		b.WriteString("```\n")
	}
	return b.String()
}

// tokenTable lists a lexer's rules by state, Root first: token, regular
// expression, and the state the token enters (→) or leaves (←). A state
// whose table is in printed is only named.
func tokenTable(def *lexer.StatefulDefinition, printed map[string]bool) string {
	rules := def.Rules()
	var states []string
	for s := range rules {
		if s != "Root" {
			states = append(states, s)
		}
	}
	sort.Strings(states)
	states = append([]string{"Root"}, states...)
	var b strings.Builder
	for _, s := range states {
		var lines strings.Builder
		for _, r := range rules[s] {
			switch {
			case r.Name == "" || r == lexer.ReturnRule:
				lines.WriteString("  (anything else: back to the previous state)\n")
			case r.Name[0] >= 'a' && r.Name[0] <= 'z':
				fmt.Fprintf(&lines, "  %-12s %-28s skipped\n", r.Name, r.Pattern)
			default:
				action := ""
				switch a := r.Action.(type) {
				case lexer.ActionPush:
					action = "→ " + a.State
				case lexer.ActionPop:
					action = "← back"
				}
				fmt.Fprintf(&lines, "  %-12s %-28s %s\n", "<"+strings.ToLower(r.Name)+">", r.Pattern, action)
			}
		}
		key := s + "\n" + lines.String()
		if printed[key] {
			fmt.Fprintf(&b, "%s state: as above\n", s)
			continue
		}
		printed[key] = true
		fmt.Fprintf(&b, "%s state:\n%s", s, trimLines(lines.String()))
	}
	return b.String()
}

// TestNotationDoc fails when the EBNF in docs/notation.md differs from what
// the parsers print; go test ./grammar -run TestNotationDoc -update
// rewrites that section.
func TestNotationDoc(t *testing.T) {
	doc, err := os.ReadFile(notationDoc)
	if err != nil {
		t.Fatalf("reading %s: %v", notationDoc, err)
	}
	text := string(doc)
	begin := strings.Index(text, beginEBNF)
	end := strings.Index(text, endEBNF)
	if begin < 0 || end < begin {
		t.Fatalf("%s has no section between %q and %q", notationDoc, beginEBNF, endEBNF)
	}
	want := grammarDoc()
	got := text[begin+len(beginEBNF) : end]
	if got == want {
		return
	}
	if *update {
		text = text[:begin+len(beginEBNF)] + want + text[end:]
		if err := os.WriteFile(notationDoc, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the EBNF in %s is out of date; run go test ./grammar -run TestNotationDoc -update\n--- doc\n%s\n--- parsers\n%s", notationDoc, got, want)
}

// trimLines removes trailing blanks from every line.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// TestNotationDocSample parses the sample record of docs/notation.md, so
// that the page cannot show a record taflmail rejects.
func TestNotationDocSample(t *testing.T) {
	doc, err := os.ReadFile(notationDoc)
	if err != nil {
		t.Fatalf("reading %s: %v", notationDoc, err)
	}
	text := string(doc)
	i := strings.Index(text, "## The taflmail record format")
	if i < 0 {
		t.Fatalf("%s: no record format section", notationDoc)
	}
	start := strings.Index(text[i:], "```\n")
	if start < 0 {
		t.Fatalf("%s: no sample record", notationDoc)
	}
	sample := text[i+start+4:]
	sample = sample[:strings.Index(sample, "```")]
	recs, err := ParseRecords("notation.md", []byte(sample))
	if err != nil {
		t.Fatalf("sample record: %v", err)
	}
	if len(recs) != 1 || len(recs[0].Tags) != 10 || recs[0].Result.Outcome != DefendersWin {
		t.Fatalf("sample record parsed to %d records: %s", len(recs), dump(recs))
	}
	if got := recs[0].String(); got != sample {
		t.Errorf("the sample is not in canonical form; WriteRecord gives\n%s", got)
	}
}
