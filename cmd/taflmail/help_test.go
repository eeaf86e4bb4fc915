package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestHelpTopics: help on a command prints that command's help; an
// unknown topic is a usage error that lists the topics.
func TestHelpTopics(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // the start of stdout
	}{
		{[]string{"help", "diagram"}, "Draw the board of a game record"},
		{[]string{"help", "config", "check"}, "check builds the configuration"},
		{[]string{"help", "help"}, "help prints the help of a command"},
	} {
		r := run(t, tc.args...)
		if r.code != exitOK || r.stderr != "" || !strings.HasPrefix(r.stdout, tc.want) {
			t.Errorf("taflmail %q = code %d, stderr %q, stdout %.60q; want 0 and %q", tc.args, r.code, r.stderr, r.stdout, tc.want)
		}
	}
	// Every command but help itself is a topic, in cobra's (alphabetical)
	// order.
	var names []string
	for _, c := range NewRootCommand().Commands() {
		if c.Name() != "help" && !c.Hidden {
			names = append(names, c.Name())
		}
	}
	topics := strings.Join(names, ", ")
	for _, must := range []string{"config, convert, ", "diagram", "validate", "version"} {
		if !strings.Contains(topics, must) {
			t.Fatalf("topics %q lack %q", topics, must)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"help", "nosuch"}, `taflmail help: unknown help topic "nosuch"; the topics are: ` + topics + "\n"},
		{[]string{"help", "digram"}, `taflmail help: unknown help topic "digram" (did you mean diagram?); the topics are: ` + topics + "\n"},
		{[]string{"help", "config", "nosuch"}, `taflmail help: unknown help topic "config nosuch"; the topics of taflmail config are: check` + "\n"},
		{[]string{"help", "version", "extra"}, `taflmail help: unknown help topic "version extra"; taflmail version has no subcommands` + "\n"},
	} {
		r := run(t, tc.args...)
		want := tc.want + "Run 'taflmail help --help' for usage.\n"
		if r.code != exitUsage || r.stdout != "" || r.stderr != want {
			t.Errorf("taflmail %q = code %d, stdout %.60q, stderr\n  %q\nwant code 2 and\n  %q", tc.args, r.code, r.stdout, r.stderr, want)
		}
	}
}

// TestHelpSameEverywhere: 'taflmail help X' prints what 'taflmail X --help'
// prints, and 'taflmail help' what bare 'taflmail' prints; the usage lines
// are the same (trial report §11: 'taflmail help' showed a bare
// "taflmail" line where 'taflmail' showed "taflmail [flags]").
func TestHelpSameEverywhere(t *testing.T) {
	for _, tc := range []struct{ help, other []string }{
		{[]string{"help"}, []string{}},
		{[]string{"help"}, []string{"--help"}},
		{[]string{"help", "diagram"}, []string{"diagram", "--help"}},
		{[]string{"help", "config", "check"}, []string{"config", "check", "--help"}},
	} {
		a, b := run(t, tc.help...), run(t, tc.other...)
		if a.stdout != b.stdout || a.code != exitOK || b.code != exitOK {
			t.Errorf("taflmail %q and taflmail %q differ:\n%s\n----\n%s", tc.help, tc.other, a.stdout, b.stdout)
		}
	}
	r := run(t, "help")
	if strings.Contains(r.stdout, "Usage:\n  taflmail\n") {
		t.Errorf("taflmail help has a bare usage line:\n%s", r.stdout)
	}
}

// TestReadmeListsCommands: README.md's "Commands of the binary" names
// every command and nothing else (trial report §12: it lacked mails).
func TestReadmeListsCommands(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	i := strings.Index(text, "Commands of the binary:")
	if i < 0 {
		t.Fatal("README.md lacks \"Commands of the binary:\"")
	}
	para, _, _ := strings.Cut(text[i:], "\n\n")
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile("`([a-z]+)( [-a-z]+)?`").FindAllStringSubmatch(para, -1) {
		listed[m[1]] = true
	}
	delete(listed, "taflmail") // "taflmail help COMMAND"
	for _, c := range NewRootCommand().Commands() {
		if !c.IsAvailableCommand() || c.Name() == "help" {
			continue
		}
		if !listed[c.Name()] {
			t.Errorf("README.md's command list lacks %s", c.Name())
		}
		delete(listed, c.Name())
	}
	for name := range listed {
		t.Errorf("README.md lists %s, which is no command", name)
	}
}
