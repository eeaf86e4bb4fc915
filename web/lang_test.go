package web_test

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/taflmail/taflmail/web"
)

var (
	// unitForm is a duration in the notation's units: "29d", "23h",
	// "59m", "4h", "31d17h".
	unitForm = regexp.MustCompile(`\b[0-9]+[dhm]\b|[0-9][dhm][0-9]`)
	// englishMonth is an English month name, in full or cut short, of
	// the ones German writes otherwise ("Dec", not "Dez."; "April" and
	// "Aug" are German too).
	englishMonth = regexp.MustCompile(`\b(January|February|Mar|March|May|June|July|Oct|October|Dec|December)\b`)
	// isoDate is a day written year first, as the English pages do.
	isoDate = regexp.MustCompile(`\b[0-9]{4}-[0-9]{2}-[0-9]{2}\b`)
	// germanInstant is an instant as the German mails write it.
	germanInstant = regexp.MustCompile(`\b[0-9]{2}\.[0-9]{2}\.[0-9]{4} um [0-9]{2}:[0-9]{2} UTC\b`)
)

// pageWords returns what a reader sees of a page: its text and the
// attributes read out or shown on hover (title, aria-label,
// data-caption), but not the board's drawing, scripts, styles or the
// OTN position code.
func pageWords(t *testing.T, data []byte) string {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "svg", "script", "style", "code", "head":
				return
			}
			for _, a := range n.Attr {
				switch a.Key {
				case "title", "aria-label", "data-caption":
					b.WriteString(a.Val + "\n")
				}
			}
		}
		if n.Type == html.TextNode {
			b.WriteString(n.Data + "\n")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return b.String()
}

// TestGermanTimedGamePage: a German page of a timed game shows its
// clocks, move times, dates and time control in German words — no
// "31d17h", no year-first date, no English month name — while the
// English page of the same game keeps the notation's units.
func TestGermanTimedGamePage(t *testing.T) {
	_, _, c := fixture(t)
	site := web.NewSite(c, web.Options{})
	checked := 0
	for _, g := range c.Games {
		if g.TimeControl == "" || g.Clocks == nil || g.Plies < 2 {
			continue
		}
		de, err := site.Render(context.Background(), "games/"+g.ID+".html", "de")
		if err != nil {
			t.Fatal(err)
		}
		words := pageWords(t, de)
		for _, re := range []*regexp.Regexp{unitForm, englishMonth, isoDate} {
			if m := re.FindString(words); m != "" {
				i := strings.Index(words, m)
				t.Errorf("German page of %s shows %q: …%s…", g.ID, m, words[max(0, i-60):min(len(words), i+40)])
			}
		}
		for _, want := range []string{"Tage", "Angreifer"} {
			if !strings.Contains(words, want) {
				t.Errorf("German page of %s: no %q", g.ID, want)
			}
		}
		if !germanInstant.MatchString(words) {
			t.Errorf("German page of %s: no instant DD.MM.YYYY um HH:MM UTC", g.ID)
		}
		en, err := site.Render(context.Background(), "games/"+g.ID+".html", "en")
		if err != nil {
			t.Fatal(err)
		}
		if ew := pageWords(t, en); !unitForm.MatchString(ew) || !isoDate.MatchString(ew) || !strings.Contains(ew, g.TimeControl) {
			t.Errorf("English page of %s: the notation's units, ISO dates or the control %q are gone", g.ID, g.TimeControl)
		}
		if checked++; checked == 3 {
			break
		}
	}
	if checked == 0 {
		t.Fatal("the test club has no timed running game")
	}
}

// TestGermanPagesNoEnglishUnits: the German index, event, player and
// rating pages write no notation units, year-first dates or English
// month names either, the rating plots' dates included.
func TestGermanPagesNoEnglishUnits(t *testing.T) {
	_, _, c := fixture(t)
	site := web.NewSite(c, web.Options{Lang: "de"})
	paths := []string{"index.html", "ratings.html", "players.html"}
	for _, e := range c.Events {
		paths = append(paths, "events/"+e.ID+".html")
	}
	for _, p := range c.Players {
		paths = append(paths, "players/"+p.ID+".html")
	}
	for _, path := range paths {
		data, err := site.Render(context.Background(), path, "de")
		if err != nil {
			t.Fatal(err)
		}
		words := pageWords(t, data)
		for _, re := range []*regexp.Regexp{unitForm, englishMonth} {
			if m := re.FindString(words); m != "" {
				t.Errorf("%s shows %q", path, m)
			}
		}
		// the plot's dates are in its SVG: look at the whole page
		if m := isoDate.FindString(string(data)); m != "" {
			t.Errorf("%s shows the date %s", path, m)
		}
	}
}

// BenchmarkTimedGamePage renders the page of a timed game of the test
// club in each language (its record is read once, before the timing).
func BenchmarkTimedGamePage(b *testing.B) {
	_, _, c := fixture(b)
	site := web.NewSite(c, web.Options{})
	var path string
	for _, g := range c.Games {
		if g.TimeControl != "" && g.Clocks != nil && g.Plies >= 2 {
			path = "games/" + g.ID + ".html"
			break
		}
	}
	if path == "" {
		b.Fatal("no timed game")
	}
	for _, lang := range web.Languages {
		b.Run(lang, func(b *testing.B) {
			if _, err := site.Render(context.Background(), path, lang); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				site.Render(context.Background(), path, lang)
			}
		})
	}
}
