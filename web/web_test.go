package web_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/html"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/club/clubtest"
	"github.com/taflmail/taflmail/web"
)

// joinAddress is the referee's address the pages may show.
const joinAddress = "club@tafl.example"

var (
	once    sync.Once
	fix     *clubtest.Fixture
	fixErr  error
	fixDir  string
	tmpDirs []string
)

// fixture returns the small club and a snapshot of it.
func fixture(t testing.TB) (*clubtest.Fixture, *archive.Store, *club.Club) {
	t.Helper()
	once.Do(func() {
		fixDir, fixErr = os.MkdirTemp("", "web-test-")
		if fixErr == nil {
			tmpDirs = append(tmpDirs, fixDir)
			fix, fixErr = clubtest.Build(context.Background(), filepath.Join(fixDir, "club.db"), clubtest.Options{Seed: 3})
		}
	})
	if fixErr != nil {
		t.Fatal(fixErr)
	}
	s, err := archive.Open(context.Background(), fix.Path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	c, err := club.Load(context.Background(), s, club.LoadOptions{Now: fix.Now, JoinAddress: joinAddress})
	if err != nil {
		t.Fatal(err)
	}
	return fix, s, c
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range tmpDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

// build writes the site of c into a new directory.
func build(t *testing.T, c *club.Club, o web.Options) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := web.Build(context.Background(), web.NewSite(c, o), dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// voidElements have no end tag (HTML §13.1.2).
var voidElements = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}

// CheckHTML reports what is wrong with an HTML page: a tokenizer error,
// an end tag that closes no open element, an element left open, no
// doctype, no <title>, or an id given twice; and it returns the page's
// links (href and src) and ids.
func CheckHTML(data []byte) (problems []string, links []string, ids map[string]bool) {
	ids = map[string]bool{}
	z := html.NewTokenizer(bytes.NewReader(data))
	var stack []string
	doctype, title := false, false
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() != io.EOF {
				problems = append(problems, "tokenizer: "+z.Err().Error())
			}
			break
		}
		tok := z.Token()
		switch tt {
		case html.DoctypeToken:
			doctype = true
		case html.StartTagToken, html.SelfClosingTagToken:
			for _, a := range tok.Attr {
				switch a.Key {
				case "href", "src":
					links = append(links, a.Val)
				case "id":
					if ids[a.Val] {
						problems = append(problems, "id "+a.Val+" twice")
					}
					ids[a.Val] = true
				}
			}
			if tok.Data == "title" {
				title = true
			}
			if tt == html.StartTagToken && !voidElements[tok.Data] {
				stack = append(stack, tok.Data)
			}
		case html.EndTagToken:
			if len(stack) == 0 || stack[len(stack)-1] != tok.Data {
				problems = append(problems, "</"+tok.Data+"> closes "+strings.Join(stack, ">"))
				continue
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		problems = append(problems, "left open: "+strings.Join(stack, ">"))
	}
	if !doctype || !title {
		problems = append(problems, "no doctype or no title")
	}
	if _, err := html.Parse(bytes.NewReader(data)); err != nil {
		problems = append(problems, "parse: "+err.Error())
	}
	return problems, links, ids
}

// TestSitePages: every page of the built site is well-formed HTML and
// every internal link (fragments included) leads to a file and an id
// that exist; the feeds are XML.
func TestSitePages(t *testing.T) {
	_, _, c := fixture(t)
	for _, lang := range web.Languages {
		t.Run(lang, func(t *testing.T) {
			dir := build(t, c, web.Options{Title: "Tafl Club", Lang: lang})
			pages := map[string]map[string]bool{}
			type link struct{ from, to string }
			var links []link
			err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
					return err
				}
				rel, _ := filepath.Rel(dir, p)
				rel = filepath.ToSlash(rel)
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				problems, ls, ids := CheckHTML(data)
				for _, pr := range problems {
					t.Errorf("%s: %s", rel, pr)
				}
				if !bytes.Contains(data, []byte(`<html lang="`+lang+`">`)) {
					t.Errorf("%s: not in %s", rel, lang)
				}
				pages[rel] = ids
				for _, l := range ls {
					links = append(links, link{rel, l})
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(pages) < len(c.Games)+len(c.Players)+len(c.Events) {
				t.Fatalf("%d pages for %d games, %d players, %d events", len(pages), len(c.Games), len(c.Players), len(c.Events))
			}
			checked := 0
			for _, l := range links {
				if strings.Contains(l.to, "://") || strings.HasPrefix(l.to, "mailto:") {
					t.Errorf("%s links outside: %s", l.from, l.to)
					continue
				}
				if l.from == "404.html" {
					continue // its links start at the server's root
				}
				target, frag, _ := strings.Cut(l.to, "#")
				file := l.from
				if target != "" {
					file = path.Join(path.Dir(l.from), target)
				}
				if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(file))); err != nil {
					t.Errorf("%s: link %s leads nowhere (%s)", l.from, l.to, file)
					continue
				}
				if frag != "" {
					if ids, ok := pages[file]; !ok || !ids[frag] {
						t.Errorf("%s: link %s: no id %q in %s", l.from, l.to, frag, file)
					}
				}
				checked++
			}
			if checked < 500 {
				t.Errorf("only %d internal links checked", checked)
			}
			for _, e := range c.Events {
				data, err := os.ReadFile(filepath.Join(dir, "events", e.ID, "feed.xml"))
				if err != nil || !bytes.Contains(data, []byte(`<feed xmlns="http://www.w3.org/2005/Atom"`)) {
					t.Errorf("feed of %s: %v %.80s", e.ID, err, data)
				}
			}
		})
	}
}

// TestSitePrivacy: no file of the site holds an address, a key, a
// private or hidden game's id, or any "@" but in the referee's own
// address.
func TestSitePrivacy(t *testing.T) {
	f, _, c := fixture(t)
	dir := build(t, c, web.Options{})
	var all bytes.Buffer
	files := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".css") {
			data, _ := os.ReadFile(p)
			all.Write(data)
			all.WriteByte(0)
			files++
		}
		return nil
	})
	text := strings.ToLower(strings.ReplaceAll(all.String(), joinAddress, "JOIN"))
	for _, a := range f.Addresses {
		local, _, _ := strings.Cut(a, "@")
		if strings.Contains(text, strings.ToLower(a)) || strings.Contains(text, strings.ToLower(local)+"@") {
			t.Errorf("the site shows the address %s", a)
		}
	}
	for _, s := range append(append(f.Secrets, f.Private...), f.Hidden...) {
		if strings.Contains(text, strings.ToLower(s)) {
			t.Errorf("the site shows %q (a key, or a private or hidden game)", s)
		}
	}
	if strings.Contains(text, "@") {
		i := strings.Index(text, "@")
		t.Errorf("the site shows an @: …%s…", text[max(0, i-40):min(len(text), i+40)])
	}
	for _, id := range append(f.Private, f.Hidden...) {
		if _, err := os.Stat(filepath.Join(dir, "games", id+".html")); err == nil {
			t.Errorf("game %s has a page", id)
		}
	}
	if files < 100 {
		t.Errorf("only %d files", files)
	}
}

// TestEventNumbers: the crosstable of each event page shows the places,
// points and Sonneborn–Berger of club.EventStandings.
func TestEventNumbers(t *testing.T) {
	ctx := context.Background()
	f, store, c := fixture(t)
	dir := build(t, c, web.Options{})
	key, err := store.PseudonymKey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	names := club.NewNames(key, f.Named, f.Addresses)
	for _, e := range c.Events {
		if e.Status == club.StatusUpcoming {
			continue
		}
		tm, es, gs, err := club.LoadEvent(ctx, store, e.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		sts, err := club.EventStandings(tm, es, gs)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, "events", e.ID+".html"))
		if err != nil {
			t.Fatal(err)
		}
		rows := crossRows(t, data)
		var want [][]string
		for _, st := range sts {
			for _, r := range st.Rows {
				want = append(want, []string{r.PlaceText(), names.Name(r.Player), points(r.Points), points(r.SonnebornBerger)})
			}
		}
		if len(rows) != len(want) {
			t.Fatalf("%s: %d rows, want %d", e.ID, len(rows), len(want))
		}
		for i := range want {
			if strings.Join(rows[i], "|") != strings.Join(want[i], "|") {
				t.Errorf("%s row %d = %v, want %v", e.ID, i, rows[i], want[i])
			}
		}
	}
}

func points(x float64) string { return web.Points(x) }

// crossRows returns the place, player, points and S–B cells of every
// crosstable row of an event page.
func crossRows(t *testing.T, data []byte) [][]string {
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	var walk func(n *html.Node, in bool)
	walk = func(n *html.Node, in bool) {
		if n.Type == html.ElementNode && n.Data == "table" && hasClass(n, "crosstable") {
			in = true
		}
		if in && n.Type == html.ElementNode && n.Data == "tr" && n.Parent != nil && n.Parent.Data == "tbody" {
			var cells []string
			for td := n.FirstChild; td != nil; td = td.NextSibling {
				if td.Type != html.ElementNode {
					continue
				}
				cells = append(cells, text(td))
			}
			// place, player, the cross cells, points, S–B, wins, played
			pts, sb := cells[len(cells)-4], cells[len(cells)-3]
			name := strings.TrimSpace(strings.Split(cells[1], " (")[0])
			rows = append(rows, []string{cells[0], name, pts, sb})
			return
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			walk(ch, in)
		}
	}
	walk(doc, false)
	return rows
}

func hasClass(n *html.Node, class string) bool {
	for _, a := range n.Attr {
		if a.Key == "class" && strings.Contains(" "+a.Val+" ", " "+class+" ") {
			return true
		}
	}
	return false
}

func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.TrimSpace(b.String())
}

// TestBuildUnchanged: building the same snapshot again writes nothing;
// a file the site no longer has is removed, others are left alone.
func TestBuildUnchanged(t *testing.T) {
	_, _, c := fixture(t)
	dir := t.TempDir()
	site := web.NewSite(c, web.Options{})
	st, err := web.Build(context.Background(), site, dir)
	if err != nil || st.Written == 0 || st.Unchanged != 0 {
		t.Fatalf("first Build = %+v, %v", st, err)
	}
	mine := filepath.Join(dir, "README.txt")
	os.WriteFile(mine, []byte("the director's own file"), 0o644)
	// a page of an earlier build the site no longer has
	gone := filepath.Join(dir, "games", "OLD123.html")
	os.WriteFile(gone, []byte("old"), 0o644)
	m, _ := os.ReadFile(filepath.Join(dir, ".taflmail-site"))
	os.WriteFile(filepath.Join(dir, ".taflmail-site"), append(m, []byte("games/OLD123.html\n../outside.txt\n")...), 0o644)
	st, err = web.Build(context.Background(), site, dir)
	if err != nil || st.Written != 0 || st.Removed != 1 || st.Unchanged == 0 {
		t.Errorf("second Build = %+v, %v; want nothing written, one removed", st, err)
	}
	if _, err := os.Stat(gone); err == nil {
		t.Error("the page of the earlier build is still there")
	}
	if _, err := os.Stat(mine); err != nil {
		t.Error("Build removed a file it did not write")
	}
}

// mkdirTemp makes a directory removed when the tests end.
func mkdirTemp() (string, error) {
	d, err := os.MkdirTemp("", "web-bench-")
	if err == nil {
		tmpDirs = append(tmpDirs, d)
	}
	return d, err
}
