package server

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// grammarCommands returns the names of the command types of the grammar,
// read from its EBNF ("Command = NewGameCommand | … ."), which lists every
// alternative of the grammar.Command union.
func grammarCommands(t *testing.T) []string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^Command = (.*) \.$`).FindStringSubmatch(grammar.CommandGrammar())
	if m == nil {
		t.Fatalf("no Command production in the grammar:\n%s", grammar.CommandGrammar())
	}
	names := strings.Split(m[1], " | ")
	slices.Sort(names)
	return names
}

// TestRegistry: every command of the grammar has exactly one handler, and
// every handler is for a command of the grammar, with a name for inspect.
func TestRegistry(t *testing.T) {
	want := grammarCommands(t)
	var got []string
	names := map[string]bool{}
	for typ, c := range referee.Commands {
		got = append(got, typ.Elem().Name())
		if c.Name == "" || names[c.Name] {
			t.Errorf("%v is registered under the name %q, empty or taken", typ, c.Name)
		}
		names[c.Name] = true
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("handlers for %v\nthe grammar has     %v", got, want)
	}
}

// TestHelpOverview: the overview has one entry per registered help line,
// in rank order, in both languages, usage and description in two columns
// that fit in 76 characters: a description wraps inside its column, a
// long usage before its options, and the list is marked preformatted so
// no mail rewraps it.
func TestHelpOverview(t *testing.T) {
	es := referee.SortedHelp()
	if len(es) < 10 {
		t.Fatalf("%d help lines registered", len(es))
	}
	for i := 1; i < len(es); i++ {
		if es[i].Rank == es[i-1].Rank {
			t.Errorf("help lines %s and %s share rank %d", es[i-1].Key, es[i].Key, es[i].Rank)
		}
	}
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, lang := range []string{referee.English, referee.German} {
		marked := referee.HelpOverview(lang)
		text := mailer.Unmark(marked)
		words := flat(text)
		at := 0
		for _, e := range es {
			usage := flat(referee.Tr(lang, e.Key+".usage"))
			i := strings.Index(words[at:], " "+usage+" ")
			if i < 0 {
				t.Errorf("%s overview: %q missing or out of order:\n%s", lang, usage, text)
				continue
			}
			at += i + len(usage) + 1
			if _, ok := catalog.Lookup(lang, e.Key+".what"); ok && !strings.HasPrefix(words[at:], " "+flat(referee.Tr(lang, e.Key+".what"))) {
				t.Errorf("%s overview: %q is not followed by its description", lang, usage)
			}
		}
		if !strings.HasPrefix(text, referee.Tr(lang, "help.intro")+"\n\n") || !strings.HasSuffix(text, "\n\n"+referee.Tr(lang, "help.outro")) {
			t.Errorf("%s overview lacks its introduction or closing words:\n%s", lang, text)
		}
		list := text[len(referee.Tr(lang, "help.intro"))+2 : len(text)-len(referee.Tr(lang, "help.outro"))-2]
		for line := range strings.SplitSeq(list, "\n") {
			if n := utf8.RuneCountInString(line); n > mailer.WrapWidth {
				t.Errorf("%s overview: a line of %d characters, more than %d:\n%s", lang, n, mailer.WrapWidth, line)
			}
			if strings.HasPrefix(line, "   ") && !strings.HasPrefix(line, "    ") {
				t.Errorf("%s overview: a line neither a usage nor in a column: %q", lang, line)
			}
			if strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, "  "+strings.Repeat(" ", referee.HelpColumn)) && !strings.HasPrefix(line, "    [") {
				t.Errorf("%s overview: a description line outside its column: %q", lang, line)
			}
		}
		if mailer.Preformatted(list) != marked[len(referee.Tr(lang, "help.intro"))+2:len(marked)-len(referee.Tr(lang, "help.outro"))-2] {
			t.Errorf("%s overview: the list is not marked preformatted, or more than the list is", lang)
		}
	}
	// the column: a short usage is padded to it, a long one wraps, as does
	// a long description
	en := mailer.Unmark(referee.HelpOverview(referee.English))
	mustContain(t, "overview", en, "\n  board               the current board\n",
		"\n  new <variant> with <address> [as attackers|defenders] [time <control>]\n                      challenge someone",
		"\n  new <variant> with engine [level 1-5] [as attackers|defenders]\n    [time <control>]\n                      play the engine",
		"\n  cancel challenge    withdraw your challenge before it is answered (reply\n                      to the confirmation)")
}

// TestCommandName: inspect names commands by their registered names.
func TestCommandName(t *testing.T) {
	for line, want := range map[string]string{
		"d1-d3": "move", "offer draw": "offer draw", "remis annehmen": "accept draw", "brett": "board",
		"new brandubh with bob@player.test": "new", "ablehnen": "decline", "hilfe züge": "help",
	} {
		c, err := grammar.ParseCommand("t", 1, line)
		if err != nil {
			t.Fatal(err)
		}
		if got := referee.CommandName(c); got != want {
			t.Errorf("commandName(%q) = %q, want %q", line, got, want)
		}
	}
}
