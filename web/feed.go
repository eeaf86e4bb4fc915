package web

import (
	"bytes"
	"encoding/xml"
	"slices"
	"time"

	"github.com/taflmail/taflmail/club"
)

// An Atom feed (RFC 4287) of results: one entry per finished game,
// newest first, its id a tag: URI (RFC 4151) of the club and the game so
// that a feed reader sees each result once. Links are relative to the
// feed's own place (RFC 4287 §2: xml:base).

type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Lang    string      `xml:"xml:lang,attr"`
	Title   string      `xml:"title"`
	ID      string      `xml:"id"`
	Updated string      `xml:"updated"`
	Link    atomLink    `xml:"link"`
	Author  atomAuthor  `xml:"author"`
	Entries []atomEntry `xml:"entry"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomAuthor struct {
	Name string `xml:"name"`
}

type atomEntry struct {
	Title   string   `xml:"title"`
	ID      string   `xml:"id"`
	Updated string   `xml:"updated"`
	Link    atomLink `xml:"link"`
	Summary string   `xml:"summary"`
}

// maxFeedEntries is the most results a feed holds.
const maxFeedEntries = 50

// feed writes the Atom feed of the finished games among gs; root leads
// from the feed's place back to the site's root, page is the page the
// feed belongs to (relative to the root).
func (s *Site) feed(lang, root, title, page string, gs []*club.Game) ([]byte, error) {
	var done []*club.Game
	for _, g := range gs {
		if g.Finished() {
			done = append(done, g)
		}
	}
	done = sortByEnd(done)
	f := atomFeed{Lang: lang, Title: s.o.Title + " · " + title, ID: feedTag + page,
		Updated: stamp(s.c.Modified), Link: atomLink{Href: root + page}, Author: atomAuthor{Name: s.o.Title}}
	for _, g := range done[:min(len(done), maxFeedEntries)] {
		t := g.Ended
		if t.IsZero() {
			t = g.Updated
		}
		f.Entries = append(f.Entries, atomEntry{
			Title: tr(lang, "feed.entry", g.Attackers.Name, g.Defenders.Name, resultText(lang, g.Result, g.Reason)),
			ID:    feedTag + "games/" + g.ID, Updated: stamp(t),
			Link:    atomLink{Href: root + "games/" + g.ID + ".html"},
			Summary: g.VariantTitle + eventSuffix(g),
		})
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", " ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	b.WriteString("\n")
	return b.Bytes(), nil
}

func eventSuffix(g *club.Game) string {
	if g.Event == nil {
		return ""
	}
	s := " · " + g.Event.Name
	if g.RoundTag != "" {
		s += " " + g.RoundTag
	}
	return s
}

// sortByEnd orders games by when they ended, newest first.
func sortByEnd(gs []*club.Game) []*club.Game {
	out := append([]*club.Game(nil), gs...)
	end := func(g *club.Game) time.Time {
		if g.Ended.IsZero() {
			return g.Updated
		}
		return g.Ended
	}
	slices.SortStableFunc(out, func(a, b *club.Game) int { return end(b).Compare(end(a)) })
	return out
}

// stamp writes an instant as RFC 3339 in UTC; the epoch for zero.
func stamp(t time.Time) string {
	if t.IsZero() {
		t = time.Unix(0, 0)
	}
	return t.UTC().Format(time.RFC3339)
}

// feedTag starts the ids of feeds and entries (a tag: URI, RFC 4151):
// the same for a page and a game on every run.
const feedTag = "tag:taflmail.invalid,2026:"
