package server

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// refereeDirs are the directories of the referee's source, relative to
// the package's: the package itself (the face, the assembly and the
// features not yet in a package of their own), the core
// (internal/referee) and each feature's package. Their files share no
// name, so the tests that read them (packageFiles, TestDocMapsEveryFile)
// name a file by its base name. A feature's new package gets its line
// here.
var refereeDirs = []string{
	".",
	filepath.Join("internal", "referee"),
	filepath.Join("internal", "correspondence"),
	filepath.Join("internal", "digest"),
	filepath.Join("internal", "gameclock"),
	filepath.Join("internal", "opponent"),
	filepath.Join("internal", "publicname"),
	filepath.Join("internal", "tournaments"),
}

// packageFiles parses the non-test files of the package, of the core it
// assembles and of the features' packages (refereeDirs) for the tests
// that read the referee's source (catalogue keys, refusal keys, ports,
// module states), keeping those whose name keep accepts (all when keep is
// nil). A file is named by its base name; the positions are in fset.
func packageFiles(t *testing.T, keep func(name string) bool) (*token.FileSet, []*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
	for _, dir := range refereeDirs {
		files = append(files, parseDirAs(t, fset, dir, keep, filepath.Base)...)
	}
	return fset, files
}

// parseDir parses the non-test files of the directory dir (relative to
// the package's) into fset, keeping those whose name keep accepts (all
// when keep is nil): packageFiles for the package, and its sub-packages
// for the tests that read their source too (TestCatalogKeysUsed).
func parseDir(t *testing.T, fset *token.FileSet, dir string, keep func(name string) bool) []*ast.File {
	t.Helper()
	return parseDirAs(t, fset, dir, keep, func(path string) string { return path })
}

// parseDirAs is parseDir with each file named in fset by as(path): the
// core's files by their base name, as the package's own are named.
func parseDirAs(t *testing.T, fset *token.FileSet, dir string, keep func(name string) bool, as func(path string) string) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, path := range names {
		name := filepath.Base(path)
		if strings.HasSuffix(name, "_test.go") || keep != nil && !keep(name) {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, as(path), src, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// TestRefereeDirsComplete keeps refereeDirs and the package's map of
// sub-packages (doc.go) true: every package under internal/ whose source
// imports the core (a feature) is in refereeDirs, so that the tests that
// read the referee's source (the doc maps, catalogue and refusal keys,
// ports, module states, floors) read it too; every directory of
// refereeDirs exists; and doc.go has a line "internal/<name>: …" for
// every package under internal/.
func TestRefereeDirsComplete(t *testing.T) {
	const core = `"github.com/taflmail/taflmail/server/internal/referee"`
	listed := map[string]bool{}
	for _, dir := range refereeDirs {
		if _, err := os.Stat(dir); err != nil {
			t.Errorf("refereeDirs names %s: %v", dir, err)
		}
		listed[filepath.ToSlash(dir)] = true
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir("internal")
	if err != nil {
		t.Fatal(err)
	}
	features := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := "internal/" + e.Name()
		if !strings.Contains(string(doc), "//   - "+dir+": ") {
			t.Errorf("doc.go has no line %q for the package %s", "//   - "+dir+": …", dir)
		}
		fset := token.NewFileSet()
		imports := false
		for _, f := range parseDir(t, fset, dir, nil) {
			for _, imp := range f.Imports {
				imports = imports || imp.Path.Value == core
			}
		}
		if imports {
			features++
			if !listed[dir] {
				t.Errorf("%s imports the core but is not in refereeDirs: the tests that read the referee's source skip it", dir)
			}
		}
	}
	if features == 0 {
		t.Fatal("no package under internal/ imports the core: the reading is broken")
	}
}
