package server

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docFileLine is a file's line in the map of doc.go: "//   - name.go: what it holds".
var docFileLine = regexp.MustCompile(`^//   - ([a-z0-9_]+\.go): \S`)

// TestDocMapsEveryFile checks that doc.go names every non-test .go file of
// the package, each once, and no file that does not exist (issue 19 §7).
func TestDocMapsEveryFile(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]int{}
	for _, line := range strings.Split(string(doc), "\n") {
		if m := docFileLine.FindStringSubmatch(line); m != nil {
			named[m[1]]++
		}
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			files = append(files, n)
		}
	}
	if len(files) == 0 {
		t.Fatal("no .go files found in the package directory")
	}
	for _, f := range files {
		switch named[f] {
		case 0:
			t.Errorf("server/%s is not in server/doc.go: add the line\n\t//   - %s: <what it holds>\nunder the heading of its room (core pipeline, commands, clocks, correspondence, digest, tournaments, engine, consent and triage, texts)", f, f)
		case 1:
		default:
			t.Errorf("server/doc.go names server/%s %d times: keep one line", f, named[f])
		}
	}
	for f := range named {
		if !slices.Contains(files, f) {
			t.Errorf("server/doc.go names server/%s, which does not exist (or is a test file): remove its line, or rename it to the file that now holds that code", f)
		}
	}
}
