package server

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docFileLine is a file's line in the map of doc.go: "//   - name.go: what it holds".
var docFileLine = regexp.MustCompile(`^//   - ([a-z0-9_]+\.go): \S`)

// TestDocMapsEveryFile checks that doc.go names every non-test .go file of
// the package, each once, and no file that does not exist (issue 19 §7);
// and the same of the core's own map, internal/referee/doc.go, and of
// each feature package's (refereeDirs).
func TestDocMapsEveryFile(t *testing.T) {
	for _, dir := range refereeDirs {
		checkDocMap(t, dir)
	}
}

// checkDocMap checks the map in dir's doc.go against dir's non-test .go
// files.
func checkDocMap(t *testing.T, dir string) {
	t.Helper()
	pkg := filepath.ToSlash(filepath.Join("server", dir))
	doc, err := os.ReadFile(filepath.Join(dir, "doc.go"))
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]int{}
	for _, line := range strings.Split(string(doc), "\n") {
		if m := docFileLine.FindStringSubmatch(line); m != nil {
			named[m[1]]++
		}
	}
	entries, err := os.ReadDir(dir)
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
		t.Fatalf("no .go files found in %s", pkg)
	}
	for _, f := range files {
		switch named[f] {
		case 0:
			t.Errorf("%s/%s is not in %s/doc.go: add the line\n\t//   - %s: <what it holds>\nunder the heading of its room (core pipeline, commands, clocks, correspondence, digest, tournaments, engine, consent and triage, texts)", pkg, f, pkg, f)
		case 1:
		default:
			t.Errorf("%s/doc.go names %s/%s %d times: keep one line", pkg, pkg, f, named[f])
		}
	}
	for f := range named {
		if !slices.Contains(files, f) {
			t.Errorf("%s/doc.go names %s/%s, which does not exist (or is a test file): remove its line, or rename it to the file that now holds that code", pkg, pkg, f)
		}
	}
}
