package server

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestFilesStandInFloors keeps the referee's packages readable from the
// bottom up (docs/architecture.md, "The house"): inside each package of
// refereeDirs the files use each other without a circle, so that every
// file can be drawn above every file it uses and a reader starts at the
// bottom (types, ports, limits, state) and ends at the top (hooks, the
// commands, the loop).
//
// A use is what the type checker says: an identifier in file A that
// denotes a name declared at the top level of file B of the same package
// (a function, a type, a variable, a constant) or a method declared in B.
// The imports are read from the build's export data (go list -export).
// The failure names each circle's uses, file by file.
func TestFilesStandInFloors(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the referee's packages from the build's export data; skipped with -short")
	}
	dirs := make([]string, len(refereeDirs))
	for i, dir := range refereeDirs {
		dirs[i] = "./" + filepath.ToSlash(dir)
	}
	out, err := exec.Command("go", append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}, dirs...)...).Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	exports := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, file, _ := strings.Cut(line, "\t")
		exports[path] = file
	}
	for _, dir := range refereeDirs {
		fset := token.NewFileSet()
		files := parseDir(t, fset, dir, func(name string) bool { return !strings.HasSuffix(name, "_test.go") })
		if len(files) == 0 {
			t.Fatalf("%s: no source files read", dir)
		}
		imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
			if exports[path] == "" {
				return nil, fmt.Errorf("no export data for %s", path)
			}
			return os.Open(exports[path])
		})
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
		pkg, err := (&types.Config{Importer: imp}).Check(dir, fset, files, info)
		if err != nil {
			t.Fatalf("%s: type-checking: %v", dir, err)
		}
		uses := fileUses(fset, pkg, info)
		if len(uses) == 0 && len(files) > 5 {
			t.Fatalf("%s: %d files and no use of one by another: the reading is broken", dir, len(files))
		}
		for _, circle := range circles(uses) {
			var b strings.Builder
			for _, from := range circle {
				for _, to := range circle {
					if names := uses[from][to]; len(names) > 0 {
						b.WriteString("\n\t" + from + " uses " + to + ": " + strings.Join(names, ", "))
					}
				}
			}
			t.Errorf("%s: files use each other in a circle (%s); move the names so that each file uses only files below it:%s", dir, strings.Join(circle, ", "), b.String())
		}
	}
}

// fileUses maps file → file it uses → the names it uses there (sorted),
// files by base name: the uses info records of pkg's top-level names and
// methods declared in another file than the use.
func fileUses(fset *token.FileSet, pkg *types.Package, info *types.Info) map[string]map[string][]string {
	uses := map[string]map[string][]string{}
	seen := map[string]bool{}
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg {
			continue
		}
		fn, isFunc := obj.(*types.Func)
		method := isFunc && fn.Signature().Recv() != nil
		if obj.Parent() != pkg.Scope() && !method {
			continue
		}
		from := filepath.Base(fset.Position(id.Pos()).Filename)
		to := filepath.Base(fset.Position(obj.Pos()).Filename)
		if from == to || seen[from+" "+to+" "+obj.Name()] {
			continue
		}
		seen[from+" "+to+" "+obj.Name()] = true
		if uses[from] == nil {
			uses[from] = map[string][]string{}
		}
		uses[from][to] = append(uses[from][to], obj.Name())
	}
	for _, to := range uses {
		for _, names := range to {
			sort.Strings(names)
		}
	}
	return uses
}

// circles returns the groups of files that reach each other through
// uses (the strongly connected groups of more than one file), each
// sorted, in file order.
func circles(uses map[string]map[string][]string) [][]string {
	var files []string
	for f, to := range uses {
		files = append(files, f)
		for g := range to {
			files = append(files, g)
		}
	}
	sort.Strings(files)
	reach := func(from string) map[string]bool {
		seen := map[string]bool{from: true}
		todo := []string{from}
		for len(todo) > 0 {
			f := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			for g := range uses[f] {
				if !seen[g] {
					seen[g] = true
					todo = append(todo, g)
				}
			}
		}
		return seen
	}
	reaches := map[string]map[string]bool{}
	for _, f := range files {
		if reaches[f] == nil {
			reaches[f] = reach(f)
		}
	}
	placed := map[string]bool{}
	var out [][]string
	for _, f := range files {
		if placed[f] {
			continue
		}
		group := []string{f}
		placed[f] = true
		for _, g := range files {
			if !placed[g] && reaches[f][g] && reaches[g][f] {
				group = append(group, g)
				placed[g] = true
			}
		}
		if len(group) > 1 {
			out = append(out, group)
		}
	}
	return out
}
