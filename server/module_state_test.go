package server

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"
)

// stateOwner is a module's state as the files of the package may reach
// it: the module's type, the state's type, its one accessor (module.go,
// stateOf) and the files of the feature that may name either.
type stateOwner struct {
	module, state, accessor string
	files                   []string
}

// stateOwners are the modules with a state, by room (doc.go). A file that
// starts using a feature's state gets its row here only when it is one
// of the feature's files; a file outside asks the feature through a hook
// (module.go). A file that no longer uses the state leaves the row:
// TestModuleStateOwners fails both ways.
var stateOwners = []stateOwner{
	{"Module", "corrState", "corrOf", // internal/correspondence
		[]string{"cmd_private.go", "cmd_takeback.go", "cmd_watch.go", "correspondence.go", "messages.go", "spectator_rows.go", "spectators.go"}},
	{"ConsentModule", "ConsentState", "ConsentOf", []string{"consent.go"}},
	{"Module", "tourneyState", "tourneyOf", // internal/tournaments
		[]string{"cmd_join.go", "rating.go", "tournament.go", "tournament_end.go", "tournament_start.go", "tournament_state.go", "tournament_text.go", "tournament_watch.go"}},
	{"Module", "clockChanges", "clockOf", []string{"clock.go", "cmd_leave.go"}}, // internal/gameclock
	{"Module", "publicNameChoice", "publicNameOf", []string{"cmd_name.go"}},     // internal/publicname
}

// moduleFile is where the session's slots live: the one file that may
// read the session's states field.
const moduleFile = "module.go"

// stateViolations returns, as "file:line: why", every place in files
// that reaches a module's state other than through its owner's files:
// the state's type or its accessor named outside them, stateOf called
// outside an accessor or with another module's type or module, an
// accessor that does not call stateOf once, the states field read outside
// module.go, and a file the table lets name a state that does not call
// its accessor.
func stateViolations(fset *token.FileSet, files []*ast.File, owners []stateOwner) []string {
	var out []string
	byName := map[string]*stateOwner{}
	for i, o := range owners {
		byName[o.state], byName[o.accessor] = &owners[i], &owners[i]
	}
	calls := map[string]int{}            // stateOf calls by accessor
	used := map[string]map[string]bool{} // accessors called, by file
	for _, f := range files {
		name := fset.Position(f.Pos()).Filename
		var in string // the function being walked
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				in = n.Name.Name
			case *ast.Ident:
				if o := byName[n.Name]; o != nil && !slices.Contains(o.files, name) {
					out = append(out, fmt.Sprintf("%s: %s names %s, the state of %s; ask the feature through a hook of %s", fset.Position(n.Pos()), name, n.Name, o.module, moduleFile))
				}
			case *ast.SelectorExpr:
				if n.Sel.Name == "States" && name != moduleFile {
					out = append(out, fmt.Sprintf("%s: reads the session's states; a feature reaches its state through its accessor", fset.Position(n.Pos())))
				}
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && byName[id.Name] != nil && byName[id.Name].accessor == id.Name {
					if used[name] == nil {
						used[name] = map[string]bool{}
					}
					used[name][id.Name] = true
				}
				ix, ok := n.Fun.(*ast.IndexExpr)
				if !ok {
					if isStateOf(n.Fun) {
						out = append(out, fmt.Sprintf("%s: stateOf without its state type", fset.Position(n.Pos())))
					}
					break
				}
				if !isStateOf(ix.X) {
					break
				}
				o := byName[in]
				if o == nil || o.accessor != in {
					out = append(out, fmt.Sprintf("%s: %s calls stateOf; only a module's accessor does", fset.Position(n.Pos()), in))
					break
				}
				calls[in]++
				typ, _ := ix.Index.(*ast.Ident)
				var mod string
				if len(n.Args) == 2 {
					if lit, ok := n.Args[1].(*ast.CompositeLit); ok {
						if id, ok := lit.Type.(*ast.Ident); ok {
							mod = id.Name
						}
					}
				}
				if typ == nil || typ.Name != o.state || mod != o.module {
					out = append(out, fmt.Sprintf("%s: %s calls stateOf for another state or module; want stateOf[%s](ss, %s{})", fset.Position(n.Pos()), in, o.state, o.module))
				}
			}
			return true
		})
	}
	for _, o := range owners {
		if calls[o.accessor] != 1 {
			out = append(out, fmt.Sprintf("stateOwners: %s calls stateOf %d times, want once", o.accessor, calls[o.accessor]))
		}
		for _, file := range o.files {
			if !used[file][o.accessor] {
				out = append(out, fmt.Sprintf("stateOwners: %s may use %s but does not; drop it from the row", file, o.accessor))
			}
		}
	}
	return out
}

// TestModuleStateOwners holds every file of the package to the states it
// may reach: a feature's state only from the feature's own files,
// through its one accessor, and the session's slots only from module.go.
func TestModuleStateOwners(t *testing.T) {
	fset, files := packageFiles(t, nil)
	for _, v := range stateViolations(fset, files, stateOwners) {
		t.Error(v)
	}
}

// TestStateViolationsFindStrays checks the checker on made-up files: a
// core file that names a feature's accessor and reads the slots, an
// accessor that takes another module's slot, stateOf called outside an
// accessor, and a row naming a file that does not use the state.
func TestStateViolationsFindStrays(t *testing.T) {
	const core = `package server

func (ss *session) stray() bool {
	_ = ss.States
	return corrOf(ss).quiet["x"]
}
`
	const feature = `package server

type corr struct{ quiet map[string]bool }

func corrOf(ss *session) *corr { return StateOf[corr](ss, clockModule{}) }

func (ss *session) sneak() { StateOf[corr](ss, corrModule{}) }
`
	fset := token.NewFileSet()
	var files []*ast.File
	for _, src := range []struct{ name, text string }{{"reply.go", core}, {"corr.go", feature}} {
		f, err := parser.ParseFile(fset, src.name, src.text, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	owners := []stateOwner{{"corrModule", "corr", "corrOf", []string{"corr.go", "corr_cmd.go"}}}
	got := stateViolations(fset, files, owners)
	want := []string{
		"reply.go:4:6: reads the session's states",
		"reply.go:5:9: reply.go names corrOf, the state of corrModule",
		"corr.go:5:41: corrOf calls stateOf for another state or module",
		"corr.go:7:30: sneak calls stateOf; only a module's accessor does",
		"stateOwners: corr.go may use corrOf but does not",
		"stateOwners: corr_cmd.go may use corrOf but does not",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d violations, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("violation %d = %q, want it to start %q", i, got[i], want[i])
		}
	}
}

// isStateOf reports whether e names the generic StateOf: as the core
// calls it (StateOf) or as a feature does (referee.StateOf).
func isStateOf(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name == "StateOf"
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		return ok && x.Name == "referee" && e.Sel.Name == "StateOf"
	}
	return false
}
