package server

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strconv"
	"testing"

	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// refusalKeyArgs maps the functions and methods that make a refusal to
// the index of their key argument.
var refusalKeyArgs = map[string]int{"Refuse": 0, "Refusen": 0, "RefusalOf": 0, "conditionRefusal": 2}

// refusalKeysInCode returns the keys the package's code (tests aside)
// passes to refuse, refusen, refusalOf and conditionRefusal, each with a
// position:
// a string literal; a variable, by the string literals its function
// assigns to it ("key := \"err.cond.over.theirs\""); an index into a
// package map of literals (nameRefusals). A maker handing its own key
// parameter on is skipped; unread lists the positions of key arguments of
// any other form.
func refusalKeysInCode(t *testing.T) (keys map[string]string, unread []string) {
	t.Helper()
	fset, parsed := packageFiles(t, nil)
	str := func(e ast.Expr) (string, bool) {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(lit.Value)
		return s, err == nil
	}
	// the string values of the package's map literals, by variable
	maps := map[string][]string{}
	for _, f := range parsed {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, v := range vs.Values {
					cl, ok := v.(*ast.CompositeLit)
					if !ok || i >= len(vs.Names) {
						continue
					}
					for _, el := range cl.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							if s, ok := str(kv.Value); ok {
								maps[vs.Names[i].Name] = append(maps[vs.Names[i].Name], s)
							}
						}
					}
				}
			}
		}
	}
	keys = map[string]string{}
	for _, f := range parsed {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			// the string literals assigned to each variable of fn
			assigned := map[string][]string{}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
					for i, l := range as.Lhs {
						if id, ok := l.(*ast.Ident); ok {
							if s, ok := str(as.Rhs[i]); ok {
								assigned[id.Name] = append(assigned[id.Name], s)
							}
						}
					}
				}
				return true
			})
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				var name string
				switch fun := call.Fun.(type) {
				case *ast.SelectorExpr:
					name = fun.Sel.Name
				case *ast.Ident:
					name = fun.Name
				}
				arg, ok := refusalKeyArgs[name]
				if !ok || arg >= len(call.Args) {
					return true
				}
				a := call.Args[arg]
				pos := fset.Position(a.Pos()).String()
				var found []string
				switch a := a.(type) {
				case *ast.BasicLit:
					if s, ok := str(a); ok {
						found = []string{s}
					}
				case *ast.Ident:
					if _, maker := refusalKeyArgs[fn.Name.Name]; maker && a.Name == "key" {
						return true // one maker handing its key on to another
					}
					found = assigned[a.Name]
				case *ast.IndexExpr:
					if id, ok := a.X.(*ast.Ident); ok {
						found = maps[id.Name]
					}
				}
				if len(found) == 0 {
					unread = append(unread, pos)
				}
				for _, k := range found {
					keys[k] = pos
				}
				return true
			})
		}
	}
	return keys, unread
}

// TestRefusalKeysInBothCatalogues: every key the code refuses with is in
// the English and the German catalogue, so no sender is ever answered
// with a bare key.
func TestRefusalKeysInBothCatalogues(t *testing.T) {
	keys, unread := refusalKeysInCode(t)
	if len(keys) < 80 {
		t.Fatalf("found only %d refusal keys in the code; is the scan broken?", len(keys))
	}
	for _, pos := range unread {
		t.Errorf("%s: a refusal's key the scan cannot read; write it as a literal, a variable given literals, or a map of literals", pos)
	}
	for k, pos := range keys {
		if _, ok := catalog.Lookup(referee.English, k); !ok {
			t.Errorf("%s: refusal key %q is not in the English catalogue (internal/catalog/en.go or its rooms)", pos, k)
		}
		if _, ok := catalog.Lookup(referee.German, k); !ok {
			t.Errorf("%s: refusal key %q is not in the German catalogue (internal/catalog/de.go or its rooms)", pos, k)
		}
	}
}

// TestRefusalIs: a refusal is told by its key with errors.Is, through
// wrapping too; its words are the catalogue's in the sender's language,
// with the words its code added around them.
func TestRefusalIs(t *testing.T) {
	ss := &referee.Session{Lang: referee.German}
	inner := ss.RefusalOf("err.cond.long", 10)
	outer := ss.RefusalOf("err.cond.at", 4, inner)
	outer.Before, outer.After = "     ^\n", " (Hinweis)"
	var err error = fmt.Errorf("wrapped: %w", outer)
	for _, k := range []string{"err.cond.at", "err.cond.long"} {
		if !errors.Is(err, referee.RefusalKey(k)) {
			t.Errorf("errors.Is(%v, refusalKey(%q)) = false, want true", err, k)
		}
	}
	if errors.Is(err, referee.RefusalKey("err.nogame")) {
		t.Errorf("the refusal is taken for err.nogame")
	}
	if errors.Is(errors.New(referee.Tr(referee.German, "err.cond.long", 10)), referee.RefusalKey("err.cond.long")) {
		t.Errorf("an error of the same words is taken for the refusal")
	}
	want := "     ^\n" + referee.Tr(referee.German, "err.cond.at", 4, referee.Tr(referee.German, "err.cond.long", 10)) + " (Hinweis)"
	if got := outer.Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got := outer.Keys(); !slices.Equal(got, []string{"err.cond.at", "err.cond.long"}) {
		t.Errorf("keys() = %q", got)
	}
	ss.Lang = referee.English // the language is the one the refusal was made in
	if got := outer.Error(); got != want {
		t.Errorf("Error() after the session's language changed = %q, want %q", got, want)
	}
}

// TestRefusen: a refusal about n things is written in the singular for
// one, as trn writes it, and keeps its key in both forms.
func TestRefusen(t *testing.T) {
	ss := &referee.Session{Lang: referee.German}
	for _, n := range []int{1, 2} {
		err := ss.Refusen("err.engine.cap", n, n)
		if want := referee.Trn(referee.German, "err.engine.cap", n, n); err.Error() != want {
			t.Errorf("n=%d: %q, want %q", n, err.Error(), want)
		}
		if !errors.Is(err, referee.RefusalKey("err.engine.cap")) {
			t.Errorf("n=%d: the refusal is not one of err.engine.cap", n)
		}
	}
	if referee.Tr(referee.German, "err.engine.cap.one", 1) == referee.Tr(referee.German, "err.engine.cap", 1) {
		t.Fatal("err.engine.cap has no singular of its own: the test shows nothing")
	}
}
