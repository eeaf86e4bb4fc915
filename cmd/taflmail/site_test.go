package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/club/clubtest"
	"github.com/taflmail/taflmail/tournament"
	"github.com/taflmail/taflmail/web"
)

// siteFixture builds the small club of clubtest in a temporary archive.
func siteFixture(t *testing.T) *clubtest.Fixture {
	t.Helper()
	f, err := clubtest.Build(context.Background(), filepath.Join(t.TempDir(), "club.db"), clubtest.Options{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// siteText returns every file of a site as one text, the stylesheet
// left out (its @media rules).
func siteText(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".css") {
			data, _ := os.ReadFile(p)
			b.Write(data)
		}
		return nil
	})
	return b.String()
}

// TestSiteFromArchive: site writes the archive's pages with the join
// address and nothing else of an address or a key; run again, it writes
// nothing.
func TestSiteFromArchive(t *testing.T) {
	f := siteFixture(t)
	out := filepath.Join(t.TempDir(), "site")
	now := f.Now.Format(time.RFC3339)
	r := run(t, "site", "--out", out, "--archive-path", f.Path, "--server-address", "club@tafl.example", "--title", "Tafl Club", "--now", now)
	if r.code != exitOK || !strings.Contains(r.stdout, "files written, 0 unchanged, 0 removed") {
		t.Fatalf("site = %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	text := strings.ReplaceAll(siteText(t, out), "club@tafl.example", "")
	for _, s := range append(f.Addresses, f.Secrets...) {
		if strings.Contains(strings.ToLower(text), strings.ToLower(s)) {
			t.Errorf("the site shows %s", s)
		}
	}
	if strings.Contains(text, "@") {
		t.Error("the site shows an @")
	}
	if !strings.Contains(text, "Tafl Club") || !strings.Contains(text, "<code>join "+f.Upcoming+"</code>") {
		t.Error("the site lacks its title or the join line")
	}
	r = run(t, "site", "--out", out, "--archive-path", f.Path, "--server-address", "club@tafl.example", "--title", "Tafl Club", "--now", now)
	if r.code != exitOK || !strings.Contains(r.stdout, " 0 files written,") {
		t.Errorf("second site = %d %s %s", r.code, r.stdout, r.stderr)
	}
	r = run(t, "site", "--out", out, "--lang", "de", "--archive-path", f.Path, "--now", now)
	if r.code != exitOK || strings.Contains(r.stdout, " 0 files written,") {
		t.Errorf("German site = %d %s %s", r.code, r.stdout, r.stderr)
	}
	if data, _ := os.ReadFile(filepath.Join(out, "index.html")); !bytes.Contains(data, []byte(`<html lang="de">`)) {
		t.Error("--lang de wrote no German index")
	}
	for _, args := range [][]string{{"site"}, {"site", "--out", out, "--lang", "fr"}, {"site", "--out", out, "--withdrawn", "x@y.z", "--archive-path", f.Path}} {
		if r := run(t, args...); r.code != exitUsage {
			t.Errorf("%v = %d, want 2", args, r.code)
		}
	}
}

// TestSiteFromRecords: the event pages of a site made from exported
// records show the numbers of `taflmail standings --json` on the same
// records, under the pseudonyms of the key file, and no address.
func TestSiteFromRecords(t *testing.T) {
	f := siteFixture(t)
	dir := t.TempDir()
	var recs []string
	for _, id := range []string{f.Finished[0], f.Running} {
		name := filepath.Join(dir, id+".tafl")
		if r := run(t, "tournament", "export", id, "--archive-path", f.Path, "-o", name); r.code != exitOK {
			t.Fatalf("export %s = %d %s", id, r.code, r.stderr)
		}
		recs = append(recs, name)
	}
	withdrawn := "r3@club0.example.org"
	std := run(t, append([]string{"standings", "--json", "--withdrawn", withdrawn}, recs...)...)
	if std.code != exitOK {
		t.Fatalf("standings = %d %s", std.code, std.stderr)
	}
	keyFile := filepath.Join(dir, "names.key")
	out := filepath.Join(dir, "site")
	if r := run(t, append([]string{"site", "--out", out, "--names-key", filepath.Join(out, "k")}, recs...)...); r.code != exitUsage {
		t.Errorf("a key inside --out = %d, want 2", r.code)
	}
	r := run(t, append([]string{"site", "--out", out, "--names-key", keyFile, "--withdrawn", withdrawn}, recs...)...)
	if r.code != exitOK || !strings.Contains(r.stderr, "made a new pseudonym key") {
		t.Fatalf("site = %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if fi, err := os.Stat(keyFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key file %v %v, want mode 0600", fi, err)
	}
	hexKey, _ := os.ReadFile(keyFile)
	key, _ := hex.DecodeString(strings.TrimSpace(string(hexKey)))
	names := club.NewNames(key, nil, f.Addresses)

	pages := map[string][][]string{} // event name → crosstable rows
	events, _ := filepath.Glob(filepath.Join(out, "events", "*.html"))
	for _, p := range events {
		data, _ := os.ReadFile(p)
		name, rows := eventTable(t, data)
		pages[name] = rows
	}
	sc := bufio.NewScanner(strings.NewReader(std.stdout))
	n := 0
	for sc.Scan() {
		var st tournament.Standings
		if err := json.Unmarshal(sc.Bytes(), &st); err != nil {
			t.Fatal(err)
		}
		rows := pages[st.Event]
		if len(rows) != len(st.Rows) {
			t.Fatalf("event %q: page has %d rows, standings --json %d", st.Event, len(rows), len(st.Rows))
		}
		for i, sr := range st.Rows {
			want := []string{sr.PlaceText(), names.Name(sr.Player), pointsText(sr.Points), pointsText(sr.SonnebornBerger)}
			if strings.Join(rows[i], "|") != strings.Join(want, "|") {
				t.Errorf("%s row %d: page %v, standings --json %v", st.Event, i, rows[i], want)
			}
			n++
		}
	}
	if n != 7 { // 4 players, and 3 in the running event whose fourth's games were annulled
		t.Errorf("compared %d rows", n)
	}
	if text := siteText(t, out); strings.Contains(text, "@") {
		i := strings.Index(text, "@")
		t.Errorf("the site of records shows an @: %q", text[max(0, i-30):min(len(text), i+30)])
	}
	// the same key, the same pages: nothing written
	r = run(t, append([]string{"site", "--out", out, "--names-key", keyFile, "--withdrawn", withdrawn}, recs...)...)
	if r.code != exitOK || !strings.Contains(r.stdout, " 0 files written,") {
		t.Errorf("second site of records = %d %s %s", r.code, r.stdout, r.stderr)
	}
}

// pointsText writes points as the pages do.
func pointsText(x float64) string { return web.Points(x) }

var spaces = regexp.MustCompile(`\s+`)

// eventTable returns an event page's title and the place, player,
// points and S–B of each crosstable row.
func eventTable(t *testing.T, data []byte) (string, [][]string) {
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var title string
	var rows [][]string
	var walk func(n *html.Node, in bool)
	walk = func(n *html.Node, in bool) {
		if n.Type == html.ElementNode && n.Data == "h1" && title == "" {
			title = nodeText(n)
		}
		if n.Type == html.ElementNode && n.Data == "table" {
			for _, a := range n.Attr {
				in = in || a.Key == "class" && a.Val == "crosstable"
			}
		}
		if in && n.Type == html.ElementNode && n.Data == "tr" && n.Parent.Data == "tbody" {
			var cells []string
			for td := n.FirstChild; td != nil; td = td.NextSibling {
				if td.Type == html.ElementNode {
					cells = append(cells, nodeText(td))
				}
			}
			name := strings.Split(cells[1], " (")[0]
			rows = append(rows, []string{cells[0], name, cells[len(cells)-4], cells[len(cells)-3]})
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, in)
		}
	}
	walk(doc, false)
	return title, rows
}

func nodeText(n *html.Node) string {
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
	return strings.TrimSpace(spaces.ReplaceAllString(b.String(), " "))
}
