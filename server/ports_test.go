package server

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"sort"
	"strings"
	"testing"
)

// portsByFile is which of the archive's ports (ports.go) each non-test
// file of the package may reach, by room (doc.go). A file not named here
// reaches none. A file that starts asking the archive for something gets
// the port of its room here, and a port a file no longer uses leaves the
// table: TestPortsByFile fails both ways.
var portsByFile = map[string][]string{
	// The core pipeline and the mail's records.
	"mail.go":        {"recordPort"},
	"pipeline.go":    {"recordPort"},
	"poll.go":        {"recordPort"},
	"outbox.go":      {"outboxPort"},
	"outbox_wake.go": {"outboxPort"},
	"session.go":     {"GamePort"},
	"inspect.go":     {"GamePort", "recordPort"},
	"caps.go":        {"recordPort"},
	"unsubscribe.go": {"GamePort", "recordPort"},

	// The mail commands.
	"cmd_games.go":       {"GamePort"},
	"cmd_join.go":        {"TournamentPort"},
	"cmd_leave.go":       {"ClockPort", "GamePort"},
	"cmd_name.go":        {"NamePort"},
	"cmd_new.go":         {"GamePort"},
	"cmd_notify.go":      {"GamePort", "TournamentPort"},
	"cmd_private.go":     {"SpectatorPort"},
	"cmd_rating.go":      {"TournamentPort"},
	"cmd_tournaments.go": {"TournamentPort"},
	"cmd_watch.go":       {"SpectatorPort"},
	"cmd_withdraw.go":    {"TournamentPort"},

	// Consent.
	"consent.go": {"consentPort"},

	// Clocks and timers.
	"clock_module.go": {"ClockPort"},
	"clock_timers.go": {"ClockPort"},

	// Correspondence.
	"messages.go":   {"GamePort"},
	"spectators.go": {"SpectatorPort", "TournamentPort"},

	// The daily digest.
	"digest.go":        {"DigestPort", "GamePort"},
	"digest_module.go": {"DigestPort"},

	// Tournaments and ratings.
	"tournament.go":          {"TournamentPort"},
	"tournament_end.go":      {"TournamentPort"},
	"tournament_start.go":    {"TournamentPort"},
	"tournament_state.go":    {"TournamentPort"},
	"tournament_watch.go":    {"GamePort", "SpectatorPort", "TournamentPort"},
	"tournament_withdraw.go": {"GamePort", "TournamentPort"},
	"rating.go":              {"TournamentPort"},

	// The engine opponent (internal/opponent).
	"engine.go":      {"GamePort"},
	"engine_game.go": {"EnginePort", "GamePort"},
	"engine_hold.go": {"EnginePort"},
}

// portsFile is where the ports and their accessors live: the one file
// that may read the Server's store field.
const portsFile = "ports.go"

// portAccessors returns the names of the port accessors declared in
// ports.go: methods of *Server whose name ends in "Port".
func portAccessors(files []*ast.File, fset *token.FileSet) map[string]bool {
	out := map[string]bool{}
	for _, f := range files {
		if fset.Position(f.Pos()).Filename != portsFile {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && strings.HasSuffix(fd.Name.Name, "Port") {
				out[fd.Name.Name] = true
			}
		}
	}
	return out
}

// portViolations returns, as "file:line: why", every place in files that
// reaches the archive outside its ports: a read of a store field outside
// ports.go, a port accessor declared outside ports.go, a call of an
// accessor the table does not allow the file, and a port the table
// allows a file that does not use it.
func portViolations(fset *token.FileSet, files []*ast.File, accessors map[string]bool, allowed map[string][]string) []string {
	var out []string
	used := map[string]map[string]bool{}
	for _, f := range files {
		name := fset.Position(f.Pos()).Filename
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if name != portsFile && n.Recv != nil && accessors[n.Name.Name] {
					out = append(out, fmt.Sprintf("%s: %s declares port accessor %s outside %s", fset.Position(n.Pos()), name, n.Name.Name, portsFile))
				}
			case *ast.SelectorExpr:
				if n.Sel.Name == "store" && name != portsFile {
					out = append(out, fmt.Sprintf("%s: reads the store field; ask the archive through a port accessor of ports.go", fset.Position(n.Pos())))
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || !accessors[sel.Sel.Name] || name == portsFile {
					break
				}
				if !slices.Contains(allowed[name], sel.Sel.Name) {
					out = append(out, fmt.Sprintf("%s: %s calls %s, not one of its ports %v (portsByFile)", fset.Position(n.Pos()), name, sel.Sel.Name, allowed[name]))
				}
				if used[name] == nil {
					used[name] = map[string]bool{}
				}
				used[name][sel.Sel.Name] = true
			}
			return true
		})
	}
	names := make([]string, 0, len(allowed))
	for name := range allowed {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, p := range allowed[name] {
			if !accessors[p] {
				out = append(out, fmt.Sprintf("portsByFile: %s names %s, which is no port accessor of %s", name, p, portsFile))
			} else if !used[name][p] {
				out = append(out, fmt.Sprintf("portsByFile: %s may use %s but does not; drop it from the table", name, p))
			}
		}
	}
	return out
}

// TestPortsByFile holds every file of the package to its ports: each
// reaches the archive only through the accessors portsByFile allows it,
// and the table names no port a file does not use.
func TestPortsByFile(t *testing.T) {
	fset, files := packageFiles(t, nil)
	accessors := portAccessors(files, fset)
	if len(accessors) < 9 {
		t.Fatalf("found %d port accessors in %s (%v); the test reads them from there", len(accessors), portsFile, accessors)
	}
	for _, v := range portViolations(fset, files, accessors, portsByFile) {
		t.Error(v)
	}
}

// TestPortViolationsFindStrays checks the checker on a made-up file: a
// command that reads the store field and asks for a port not its own is
// caught at both lines, and an unused allowance is reported.
func TestPortViolationsFindStrays(t *testing.T) {
	const src = `package server

func (ss *session) stray() {
	ss.srv.store.Game(ss.ctx, "x")
	ss.srv.digestPort().DueDigests(ss.ctx, ss.now, 1)
	ss.srv.gamePort().Player(ss.ctx, ss.from)
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "cmd_stray.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	accessors := map[string]bool{"gamePort": true, "digestPort": true, "clockPort": true}
	got := portViolations(fset, []*ast.File{f}, accessors, map[string][]string{"cmd_stray.go": {"gamePort", "clockPort"}})
	want := []string{
		"cmd_stray.go:4:2: reads the store field",
		"cmd_stray.go:5:2: cmd_stray.go calls digestPort",
		"portsByFile: cmd_stray.go may use clockPort but does not",
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
