package server

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// packageFiles parses the package's non-test files for the tests that
// read its source (catalogue keys, refusal keys), keeping those whose
// name keep accepts (all when keep is nil). The positions are in fset.
func packageFiles(t *testing.T, keep func(name string) bool) (*token.FileSet, []*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	return fset, parseDir(t, fset, ".", keep)
}

// parseDir parses the non-test files of the directory dir (relative to
// the package's) into fset, keeping those whose name keep accepts (all
// when keep is nil): packageFiles for the package, and its sub-packages
// for the tests that read their source too (TestCatalogKeysUsed).
func parseDir(t *testing.T, fset *token.FileSet, dir string, keep func(name string) bool) []*ast.File {
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
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}
