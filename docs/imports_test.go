package docs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// modulePath is the module whose packages the import rules govern.
const modulePath = "github.com/taflmail/taflmail"

// importRule is one row of the table "Who may import whom" in
// architecture.md: what a package of the module may import besides the
// standard library.
type importRule struct {
	pkg string // path inside the module, e.g. "notation/picture"
	// anything: the package may import whatever it likes (cmd/taflmail,
	// and the test-only packages).
	anything bool
	// own are the packages of the module it may import, by path inside
	// the module; a subpackage needs its own entry.
	own []string
	// roots are the third-party import-path roots it may import: a
	// module ("modernc.org/sqlite") or a package tree inside one
	// ("golang.org/x/net/html"). What those import in turn comes with
	// them (modernc.org/libc under modernc.org/sqlite).
	roots []string
}

// mailRoots are the mail libraries of mailer and mailer/devstack.
var mailRoots = []string{
	"github.com/emersion/go-imap/v2", "github.com/emersion/go-smtp", "github.com/emersion/go-message",
	"github.com/emersion/go-sasl", "github.com/emersion/go-msgauth",
	"golang.org/x/net/html", "golang.org/x/net/publicsuffix", "golang.org/x/text",
}

// importRules is the table of architecture.md in Go; TestImportTableInDocs
// keeps the two the same. A package that does not exist yet is checked
// once it does.
var importRules = []importRule{
	{pkg: "engine"},
	{pkg: "search", own: []string{"engine"}},
	{pkg: "grammar", own: []string{"grammar/internal/lexrules"}, roots: []string{"github.com/alecthomas/participle/v2"}},
	{pkg: "grammar/internal/lexrules", roots: []string{"github.com/alecthomas/participle/v2"}},
	{pkg: "grammar/internal/lexgen", own: []string{"grammar/internal/lexrules"}, roots: []string{"github.com/alecthomas/participle/v2"}},
	{pkg: "notation", own: []string{"engine", "grammar"}},
	{pkg: "notation/picture", own: []string{"notation", "engine"}, roots: []string{"golang.org/x/image"}},
	{pkg: "otep", own: []string{"engine", "notation", "search"}},
	{pkg: "clock", own: []string{"engine", "notation"}},
	{pkg: "tournament", own: []string{"engine", "notation", "tournament/glicko2"}},
	{pkg: "tournament/glicko2"},
	{pkg: "archive", own: []string{"engine", "notation"}, roots: []string{"modernc.org/sqlite"}},
	{pkg: "club", own: []string{"archive", "clock", "engine", "grammar", "notation", "tournament", "tournament/glicko2"}, roots: []string{"go.yaml.in/yaml/v3"}},
	{pkg: "club/clubtest", own: []string{"archive", "club", "engine", "tournament"}},
	{pkg: "web", own: []string{"club", "notation", "engine"}},
	{pkg: "mailer", roots: mailRoots},
	{pkg: "mailer/devstack", own: []string{"mailer"}, roots: mailRoots},
	{pkg: "server", own: []string{"archive", "tournament", "tournament/glicko2", "server/internal/referee", "server/internal/correspondence", "server/internal/digest", "server/internal/gameclock", "server/internal/opponent", "server/internal/publicname", "server/internal/tournaments"}},
	{pkg: "server/internal/referee", own: []string{"engine", "grammar", "notation", "archive", "club", "mailer", "clock", "search", "server/internal/nearmiss", "server/internal/msgid", "server/internal/catalog"}},
	{pkg: "server/internal/correspondence", own: []string{"archive", "club", "engine", "grammar", "mailer", "server/internal/catalog", "server/internal/gameclock", "server/internal/msgid", "server/internal/referee"}},
	{pkg: "server/internal/digest", own: []string{"archive", "grammar", "mailer", "server/internal/catalog", "server/internal/correspondence", "server/internal/gameclock", "server/internal/msgid", "server/internal/referee", "server/internal/zones"}},
	{pkg: "server/internal/gameclock", own: []string{"archive", "clock", "engine", "grammar", "mailer", "notation", "server/internal/catalog", "server/internal/referee"}},
	{pkg: "server/internal/opponent", own: []string{"archive", "clock", "engine", "grammar", "search", "server/internal/engineturn", "server/internal/gameclock", "server/internal/referee"}},
	{pkg: "server/internal/publicname", own: []string{"archive", "club", "grammar", "server/internal/referee"}},
	{pkg: "server/internal/tournaments", own: []string{"archive", "club", "engine", "grammar", "mailer", "notation", "tournament", "tournament/glicko2", "server/internal/catalog", "server/internal/correspondence", "server/internal/gameclock", "server/internal/msgid", "server/internal/referee"}},
	{pkg: "server/internal/engineturn", own: []string{"archive", "search"}},
	{pkg: "server/internal/zones"},
	{pkg: "server/internal/nearmiss", own: []string{"grammar"}},
	{pkg: "server/internal/msgid"},
	{pkg: "server/internal/catalog", own: []string{"engine", "notation", "tournament"}},
	{pkg: "health", own: []string{"mailer"}, roots: []string{"github.com/prometheus/client_golang"}},
	{pkg: "config", roots: []string{"github.com/spf13/viper", "github.com/spf13/pflag", "go.yaml.in/yaml/v3"}},
	{pkg: "cmd/taflmail", anything: true},
	{pkg: "e2e", anything: true},
	{pkg: "docs", anything: true},
}

// pictureRoots are the drawing, PDF and font libraries that only
// notation/picture and cmd/taflmail may link, however they would come
// in: the mail referee must not link a PDF library.
var pictureRoots = []string{
	"github.com/tdewolff", "codeberg.org/go-pdf", "github.com/go-pdf", "github.com/go-fonts",
	"github.com/go-text", "github.com/benoitkugler", "star-tex.org", "golang.org/x/image",
	"github.com/golang/freetype", "github.com/BurntSushi/freetype-go", "github.com/srwiley",
}

// pictureLinkers may link pictureRoots.
var pictureLinkers = []string{"notation/picture", "cmd/taflmail", "e2e", "docs"}

// listedPackage is what `go list -json -deps` says about one package.
type listedPackage struct {
	ImportPath string
	Dir        string
	Standard   bool
	GoFiles    []string
	Imports    []string
}

// underRoot reports whether import path p is root or lies below it.
func underRoot(p, root string) bool {
	return p == root || strings.HasPrefix(p, root+"/")
}

func underAny(p string, roots []string) bool {
	return slices.ContainsFunc(roots, func(r string) bool { return underRoot(p, r) })
}

// local returns the path of a module package inside the module ("engine"),
// and false for a package of another module or the standard library.
func local(p string) (string, bool) {
	if rest, ok := strings.CutPrefix(p, modulePath+"/"); ok {
		return rest, true
	}
	return "", false
}

// importGraph is the output of `go list -json -deps`, by import path.
type importGraph map[string]*listedPackage

// listPackages runs `go list -pgo=off -json -deps ./...` in the module's root and
// returns every package it prints, and the module's own packages that
// hold non-test Go files (test-only packages link nothing), sorted.
func listPackages(t *testing.T) (importGraph, []string) {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list imports: %v", err)
	}
	// -pgo=off: with cmd/taflmail's default.pgo, go list would print a
	// second copy of each package it links, named "p [cmd/taflmail]".
	cmd := exec.Command(goTool, "list", "-pgo=off", "-json", "-deps", "./...")
	cmd.Dir = ".."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -json -deps ./... = %v\n%s", err, stderr.String())
	}
	g := importGraph{}
	var own []string
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("reading go list output: %v", err)
		}
		g[p.ImportPath] = &p
		if _, ok := local(p.ImportPath); ok && len(p.GoFiles) > 0 {
			own = append(own, p.ImportPath)
		}
	}
	slices.Sort(own)
	// go test caches a passing result by the files the test opened or
	// looked at, and knows nothing of what go list read: look at every
	// file that decides an import, so that changing one reruns the test.
	for _, f := range []string{"../go.mod", "../go.sum"} {
		_, _ = os.Stat(f)
	}
	for _, path := range own {
		p := g[path]
		_, _ = os.Stat(p.Dir)
		for _, name := range p.GoFiles {
			_, _ = os.Stat(filepath.Join(p.Dir, name))
		}
	}
	return g, own
}

// checkImports returns one line per import that rules do not allow, for
// the module packages pkgs of g: an import no rule allows (with the file
// that makes it, when it can be found), a package without a rule, and a
// picture library linked by a package that may not link one, with the
// chain of imports that pulls it in.
func checkImports(g importGraph, pkgs []string, rules []importRule) []string {
	byPkg := map[string]importRule{}
	for _, r := range rules {
		byPkg[r.pkg] = r
	}
	var problems []string
	for _, path := range pkgs {
		name, _ := local(path)
		rule, ok := byPkg[name]
		if !ok {
			problems = append(problems, fmt.Sprintf("%s has no row in docs/architecture.md's import table (and importRules in docs/imports_test.go): add one", name))
			continue
		}
		p := g[path]
		if !rule.anything {
			for _, imp := range p.Imports {
				if q := g[imp]; q != nil && q.Standard {
					continue
				}
				if target, isOwn := local(imp); isOwn {
					if !slices.Contains(rule.own, target) {
						problems = append(problems, fmt.Sprintf("%s imports %s%s; the table allows %s", name, target, importedIn(p, imp), allowed(rule)))
					}
					continue
				}
				if !underAny(imp, rule.roots) {
					problems = append(problems, fmt.Sprintf("%s imports %s%s; the table allows %s", name, imp, importedIn(p, imp), allowed(rule)))
				}
			}
		}
		if !slices.Contains(pictureLinkers, name) {
			if chain := findChain(g, path, func(q string) bool { return underAny(q, pictureRoots) }); chain != nil {
				problems = append(problems, fmt.Sprintf("%s links the picture library %s, pulled in by %s; only %s may",
					name, chain[len(chain)-1], strings.Join(shortChain(chain), " → "), strings.Join(pictureLinkers, ", ")))
			}
		}
	}
	return problems
}

// allowed says what a rule allows, for a message.
func allowed(r importRule) string {
	all := append(append([]string{}, r.own...), r.roots...)
	if len(all) == 0 {
		return "the standard library only"
	}
	return strings.Join(all, ", ") + " (and the standard library)"
}

// importedIn names the file of p that imports imp, as " (in file.go)", or
// "" when no file can be read.
func importedIn(p *listedPackage, imp string) string {
	fset := token.NewFileSet()
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, s := range f.Imports {
			if v, err := strconv.Unquote(s.Path.Value); err == nil && v == imp {
				return fmt.Sprintf(" (in %s)", name)
			}
		}
	}
	return ""
}

// findChain returns the shortest chain of imports from package from to a
// package for which match is true (both ends included), or nil.
func findChain(g importGraph, from string, match func(string) bool) []string {
	parent := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur != from && match(cur) {
			var chain []string
			for p := cur; p != ""; p = parent[p] {
				chain = append(chain, p)
			}
			slices.Reverse(chain)
			return chain
		}
		p := g[cur]
		if p == nil {
			continue
		}
		for _, imp := range p.Imports {
			if _, seen := parent[imp]; !seen {
				parent[imp] = cur
				queue = append(queue, imp)
			}
		}
	}
	return nil
}

// shortChain writes module packages by their path inside the module.
func shortChain(chain []string) []string {
	out := make([]string, len(chain))
	for i, p := range chain {
		if name, ok := local(p); ok {
			p = name
		}
		out[i] = p
	}
	return out
}

// TestImportRules lists the imports of every package of the module with
// `go list -json -deps` and fails on any that the table of
// architecture.md ("Who may import whom") does not allow, standard
// library aside. Only what a package links counts: its tests may import
// more.
func TestImportRules(t *testing.T) {
	g, pkgs := listPackages(t)
	if len(pkgs) < 5 {
		t.Fatalf("go list found only %d packages of the module: %v", len(pkgs), pkgs)
	}
	for _, r := range importRules {
		if _, ok := g[modulePath+"/"+r.pkg]; !ok {
			t.Logf("%s does not exist yet; its rule is checked once it does", r.pkg)
		}
	}
	for _, p := range checkImports(g, pkgs, importRules) {
		t.Error(p)
	}
}

// TestTZDataOnlyInBinary: cmd/taflmail builds the IANA time zone database
// in (time/tzdata), so that the daily digest in a player's own zone works
// on a machine without /usr/share/zoneinfo; no other package of the
// module does, since whether a program carries the 450 kB is the
// program's choice, not a library's.
func TestTZDataOnlyInBinary(t *testing.T) {
	g, pkgs := listPackages(t)
	for _, path := range pkgs {
		name, _ := local(path)
		has := slices.Contains(g[path].Imports, "time/tzdata")
		switch {
		case name == "cmd/taflmail" && !has:
			t.Errorf("cmd/taflmail does not import time/tzdata: the binary needs /usr/share/zoneinfo for digest time zones")
		case name != "cmd/taflmail" && has:
			t.Errorf("%s imports time/tzdata%s; only cmd/taflmail may", name, importedIn(g[path], "time/tzdata"))
		}
	}
}

// TestCheckImports feeds checkImports a made-up graph with one of each
// kind of problem, so that TestImportRules cannot pass by checking
// nothing.
func TestCheckImports(t *testing.T) {
	m := func(p string) string { return modulePath + "/" + p }
	g := importGraph{}
	add := func(path string, std bool, imports ...string) {
		g[path] = &listedPackage{ImportPath: path, Standard: std, Imports: imports}
	}
	add("fmt", true)
	add(m("engine"), false, "fmt")
	add(m("grammar"), false, "fmt", "github.com/alecthomas/participle/v2/lexer")
	add("github.com/alecthomas/participle/v2/lexer", false, "fmt")
	add(m("notation"), false, m("engine"), m("grammar"), "github.com/alecthomas/participle/v2/lexer", m("notation/picture"))
	// notation/picture draws with x/image, which it may, and imports the
	// drawing library it used to, which it may no longer.
	add(m("notation/picture"), false, m("notation"), m("engine"), "golang.org/x/image/vector", "github.com/tdewolff/canvas")
	add("golang.org/x/image/vector", false, "fmt")
	add("github.com/tdewolff/canvas", false, "codeberg.org/go-pdf/fpdf")
	add("codeberg.org/go-pdf/fpdf", false, "fmt")
	add(m("archive"), false, m("engine"), m("notation"), "modernc.org/sqlite")
	add("modernc.org/sqlite", false, "modernc.org/libc")
	add("modernc.org/libc", false)
	add(m("ratings"), false, m("engine"))
	pkgs := []string{m("archive"), m("engine"), m("grammar"), m("notation"), m("notation/picture"), m("ratings")}

	got := checkImports(g, pkgs, importRules)
	want := []string{
		"archive links the picture library golang.org/x/image/vector, pulled in by archive → notation → notation/picture → golang.org/x/image/vector; only notation/picture, cmd/taflmail, e2e, docs may",
		"notation imports github.com/alecthomas/participle/v2/lexer; the table allows engine, grammar (and the standard library)",
		"notation imports notation/picture; the table allows engine, grammar (and the standard library)",
		"notation links the picture library golang.org/x/image/vector, pulled in by notation → notation/picture → golang.org/x/image/vector; only notation/picture, cmd/taflmail, e2e, docs may",
		"notation/picture imports github.com/tdewolff/canvas; the table allows notation, engine, golang.org/x/image (and the standard library)",
		"ratings has no row in docs/architecture.md's import table (and importRules in docs/imports_test.go): add one",
	}
	if !slices.Equal(got, want) {
		t.Errorf("checkImports =\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// docImportTable reads the table under "## Who may import whom" in
// architecture.md as rules: the package in backquotes in the first
// column; in the second, "anything", "nothing", or the allowed packages
// and import-path roots in backquotes (a root has a dot in its first
// element).
func docImportTable(t *testing.T) []importRule {
	t.Helper()
	data, err := os.ReadFile("architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Who may import whom\n")
	if !ok {
		t.Fatal("architecture.md has no section \"## Who may import whom\"")
	}
	if i := strings.Index(section, "\n## "); i >= 0 {
		section = section[:i]
	}
	var rules []importRule
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) < 4 {
			t.Fatalf("architecture.md: import table row with too few columns: %q", line)
		}
		r := importRule{pkg: strings.Trim(strings.TrimSpace(cells[1]), "`")}
		allow := strings.TrimSpace(cells[2])
		switch {
		case strings.HasPrefix(allow, "anything"):
			r.anything = true
		case strings.HasPrefix(allow, "nothing"):
		default:
			parts := strings.Split(allow, "`")
			for i := 1; i < len(parts); i += 2 {
				first, _, _ := strings.Cut(parts[i], "/")
				if strings.Contains(first, ".") {
					r.roots = append(r.roots, parts[i])
				} else {
					r.own = append(r.own, parts[i])
				}
			}
		}
		rules = append(rules, r)
	}
	return rules
}

// TestImportTableInDocs: architecture.md's table says what importRules
// says, row for row, so that the documented rules are the checked ones.
func TestImportTableInDocs(t *testing.T) {
	doc := docImportTable(t)
	key := func(r importRule) string {
		own, roots := slices.Sorted(slices.Values(r.own)), slices.Sorted(slices.Values(r.roots))
		return fmt.Sprintf("anything=%v own=%v roots=%v", r.anything, own, roots)
	}
	docRules := map[string]string{}
	for _, r := range doc {
		docRules[r.pkg] = key(r)
	}
	for _, r := range importRules {
		d, ok := docRules[r.pkg]
		switch {
		case !ok:
			t.Errorf("architecture.md's import table has no row for %s (importRules: %s)", r.pkg, key(r))
		case d != key(r):
			t.Errorf("%s: architecture.md says %s, importRules %s", r.pkg, d, key(r))
		}
		delete(docRules, r.pkg)
	}
	for pkg, d := range docRules {
		t.Errorf("architecture.md's import table has a row for %s (%s) that importRules lacks", pkg, d)
	}
}
