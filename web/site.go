package web

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

//go:embed templates/*.html static/*
var files embed.FS

// templates are parsed once: the layout and one template per page.
var templates = template.Must(template.New("").Funcs(template.FuncMap{
	"plus": func(a, b int) int { return a + b },
	"join": strings.Join,
}).ParseFS(files, "templates/*.html"))

// Options are the settings of a Site; the zero value works.
type Options struct {
	// Title is the club's name in every page's title and heading;
	// "taflmail" when empty.
	Title string
	// Lang is the pages' language for a static site ("en" or "de"; ""
	// for English); the live Handler takes the browser's.
	Lang string
}

// ErrNotFound is returned by Render for a path that is no page.
var ErrNotFound = errors.New("web: no such page")

// Site renders the pages of one snapshot. It is safe for concurrent use.
type Site struct {
	c *club.Club
	o Options
	// records holds each game's replayed record once read (a game's page
	// and its three downloads share it): *recordOnce by game id.
	records sync.Map
}

// recordOnce is one game's record, read once.
type recordOnce struct {
	once sync.Once
	r    *notation.Replay
	err  error
}

// record returns the game's record (club.Club.Record), read once per
// site.
func (s *Site) record(ctx context.Context, g *club.Game) (*notation.Replay, error) {
	v, _ := s.records.LoadOrStore(g.ID, &recordOnce{})
	ro := v.(*recordOnce)
	ro.once.Do(func() { ro.r, ro.err = s.c.Record(ctx, g) })
	if ro.err != nil {
		s.records.CompareAndDelete(g.ID, ro) // an archive error is tried again next time
	}
	return ro.r, ro.err
}

// NewSite returns the site of snapshot c.
func NewSite(c *club.Club, o Options) *Site {
	if o.Title == "" {
		o.Title = "taflmail"
	}
	if !slices.Contains(Languages, o.Lang) {
		o.Lang = Languages[0]
	}
	return &Site{c: c, o: o}
}

// Club returns the snapshot the site shows.
func (s *Site) Club() *club.Club { return s.c }

// Paths returns the path of every page and file of the site, relative
// to its root ("index.html", "games/K7QX2M.html", "style.css", …), in a
// fixed order.
func (s *Site) Paths() []string {
	ps := []string{"index.html", "players.html", "ratings.html", "feed.xml", "style.css", "board.js"}
	for _, e := range s.c.Events {
		ps = append(ps, "events/"+e.ID+".html", "events/"+e.ID+"/feed.xml")
	}
	for _, g := range s.c.Games {
		ps = append(ps, "games/"+g.ID+".html", "games/"+g.ID+".tafl", "games/"+g.ID+".otg", "games/"+g.ID+".csv")
	}
	for _, p := range s.c.Players {
		ps = append(ps, "players/"+p.ID+".html")
	}
	return ps
}

// ContentType returns the media type of a path of the site.
func ContentType(path string) string {
	switch {
	case strings.HasSuffix(path, ".html"):
		return "text/html; charset=utf-8"
	case strings.HasSuffix(path, ".css"):
		return "text/css; charset=utf-8"
	case strings.HasSuffix(path, ".js"):
		return "text/javascript; charset=utf-8"
	case strings.HasSuffix(path, ".xml"):
		return "application/atom+xml; charset=utf-8"
	case strings.HasSuffix(path, ".csv"):
		return "text/csv; charset=utf-8"
	}
	return "text/plain; charset=utf-8"
}

// Render returns the content of the page at path (as Paths writes it)
// in language lang ("" for the site's). A path that is no page is
// ErrNotFound; a game whose record cannot be read (an archive error) is
// that error.
func (s *Site) Render(ctx context.Context, path, lang string) ([]byte, error) {
	if !slices.Contains(Languages, lang) {
		lang = s.o.Lang
	}
	switch path {
	case "index.html":
		return s.page("index", lang, "", "", s.indexData())
	case "players.html":
		return s.page("players", lang, "", tr(lang, "players.title"), nil)
	case "ratings.html":
		return s.page("ratings", lang, "", tr(lang, "ratings.title"), nil)
	case "feed.xml":
		return s.feed(lang, "", tr(lang, "feed.club"), "index.html", s.c.Games)
	case "style.css", "board.js":
		return fs.ReadFile(files, "static/"+path)
	}
	dir, name, ok := strings.Cut(path, "/")
	if !ok {
		return nil, ErrNotFound
	}
	switch dir {
	case "events":
		if id, ok := strings.CutSuffix(name, ".html"); ok {
			if e := s.c.Event(id); e != nil {
				return s.page("event", lang, "../", e.Name, e)
			}
		}
		if id, ok := strings.CutSuffix(name, "/feed.xml"); ok {
			if e := s.c.Event(id); e != nil {
				return s.feed(lang, "../../", tr(lang, "feed.title", e.Name), "events/"+e.ID+".html", e.Games)
			}
		}
	case "games":
		for _, ext := range []string{".html", ".tafl", ".otg", ".csv"} {
			if id, ok := strings.CutSuffix(name, ext); ok {
				if g := s.c.Game(id); g != nil {
					return s.game(ctx, g, ext, lang)
				}
			}
		}
	case "players":
		if id, ok := strings.CutSuffix(name, ".html"); ok {
			if p := s.c.Player(id); p != nil {
				return s.page("player", lang, "../", p.Name, p)
			}
		}
	}
	return nil, ErrNotFound
}

// NotFound renders the page for a path that is no page.
func (s *Site) NotFound(lang string) []byte {
	if !slices.Contains(Languages, lang) {
		lang = s.o.Lang
	}
	b, err := s.page("notfound", lang, "/", tr(lang, "notfound.title"), nil)
	if err != nil {
		return []byte(tr(lang, "notfound.title"))
	}
	return b
}

// page is what every template gets.
type page struct {
	s     *Site
	Lang  string
	Root  string // the way back to the site's root: "", "../" or "../../"
	Title string // the page's own title, "" for the index
	Site  string
	Club  *club.Club
	Data  any
	Feed  string // the page's feed, relative to the root; "" for none
}

// page renders the template name with data.
func (s *Site) page(name, lang, root, title string, data any) ([]byte, error) {
	p := &page{s: s, Lang: lang, Root: root, Title: title, Site: s.o.Title, Club: s.c, Data: data}
	switch d := data.(type) {
	case *club.Event:
		p.Feed = "events/" + d.ID + "/feed.xml"
	case *indexData:
		p.Feed = "feed.xml"
	}
	var b bytes.Buffer
	if err := templates.ExecuteTemplate(&b, name+".html", p); err != nil {
		return nil, fmt.Errorf("web: page %s: %w", name, err)
	}
	return b.Bytes(), nil
}

// T returns the text of key in the page's language.
func (p *page) T(key string, args ...any) string { return tr(p.Lang, key, args...) }

// TN is T for a text about n things: its singular when n is 1 (trn).
func (p *page) TN(key string, n int, args ...any) string { return trn(p.Lang, key, n, args...) }

// Link returns the path of a page relative to this one.
func (p *page) Link(path string) string { return p.Root + path }

// EventLink, GameLink and PlayerLink return the paths of those pages.
func (p *page) EventLink(e *club.Event) string   { return p.Root + "events/" + e.ID + ".html" }
func (p *page) GameLink(g *club.Game) string     { return p.Root + "games/" + g.ID + ".html" }
func (p *page) PlayerLink(c *club.Player) string { return p.Root + "players/" + c.ID + ".html" }

// PlayerNamed returns the player with a public name (the standings name
// players so), nil for none.
func (p *page) PlayerNamed(name string) *club.Player {
	for _, x := range p.Club.Players {
		if x.Name == name {
			return x
		}
	}
	return nil
}

// Day writes a UTC date in the page's language ("2027-01-15",
// "15.01.2027"; dayText), When an instant in UTC to the minute
// ("2027-01-15 10:00 UTC", "15.01.2027 um 10:00 UTC"; whenText); "–"
// for none.
func (p *page) Day(t time.Time) string {
	if t.IsZero() {
		return "–"
	}
	return dayText(p.Lang, t)
}

// When writes the instant t in UTC to the minute in the page's language
// ("2027-01-15 10:00 UTC", "15.01.2027 um 10:00 UTC"), "–" for none.
func (p *page) When(t time.Time) string {
	if t.IsZero() {
		return "–"
	}
	return whenText(p.Lang, t)
}

// Points writes points with fractions: 1½, ½, 2, 3¼.
func (p *page) Points(x float64) string { return Points(x) }

// Points writes a score with fractions as the crosstables do: 1½, ½, 2,
// 3¼ (quarters come from Sonneborn–Berger); other values with two
// decimals.
func Points(x float64) string {
	whole, frac := math.Modf(x)
	fr := map[int]string{0: "", 25: "¼", 50: "½", 75: "¾"}
	q := int(math.Round(frac * 100))
	f, ok := fr[q]
	if !ok {
		return fmt.Sprintf("%.2f", x)
	}
	if whole == 0 && f != "" {
		return f
	}
	return fmt.Sprintf("%.0f%s", whole, f)
}

// Rating writes a rating or RD to whole points.
func (p *page) Rating(x float64) string { return fmt.Sprintf("%.0f", x) }

// Duration writes a clock's time in the page's language, in whole
// minutes, never below zero: "12d4h", "3h20m", "45m"; in German "12 Tage
// 4 Stunden", "45 Minuten" (duration).
func (p *page) Duration(d time.Duration) string { return duration(p.Lang, d) }

// Control writes a time control in the page's language: its notation in
// English ("30d+1d"), words in German ("je Seite 30 Tage, nach jedem Zug
// 1 Tag dazu"; control).
func (p *page) Control(s string) string { return control(p.Lang, s) }

// Result writes how a game stands: "attackers win (escape)", "running".
func (p *page) Result(g *club.Game) string {
	switch {
	case g.Annulled && !g.Finished():
		return tr(p.Lang, "result.annulled")
	case !g.Finished():
		return tr(p.Lang, "result.running")
	}
	return resultText(p.Lang, g.Result, g.Reason)
}

// Short writes a result as 1–0, 0–1, ½–½, or "" while it runs.
func (p *page) Short(g *club.Game) string {
	switch g.Result {
	case "attackers":
		return tr(p.Lang, "result.short.a")
	case "defenders":
		return tr(p.Lang, "result.short.d")
	case "draw":
		return tr(p.Lang, "result.short.draw")
	}
	return ""
}

// Side writes a side's name.
func (p *page) Side(s engine.Side) string { return sideWord(p.Lang, s) }

// Status writes an event's or game's status.
func (p *page) Status(s string) string { return tr(p.Lang, "status."+s) }

// Plot draws a rating history.
func (p *page) Plot(r *club.Rating) template.HTML {
	return ratingPlot(r.History, tr(p.Lang, "player.history", r.VariantTitle), p.Lang)
}

// Table returns a crosstable's rows with their cells.
func (p *page) Table(st *club.Standings) []club.CrossRow { return club.Crosstable(st) }

// resultText words a result and its reason: "attackers win (the king
// escaped)".
func resultText(lang, result, reason string) string {
	r := tr(lang, "result."+result)
	if reason == "" {
		return r
	}
	why, ok := texts[lang]["reason."+reason]
	if !ok {
		why = reason
	}
	return r + " (" + why + ")"
}

// resultWord is the archive's word for an engine result.
func resultWord(r engine.Result) string {
	switch r {
	case engine.AttackersWin:
		return "attackers"
	case engine.DefendersWin:
		return "defenders"
	case engine.Draw:
		return "draw"
	}
	return ""
}

// indexData is what the index shows.
type indexData struct {
	Running, Upcoming, Finished []*club.Event
	Results                     []*club.Game
	Ratings                     []*ratingHead
}

// ratingHead is the top of one rating list.
type ratingHead struct {
	List *club.RatingList
	Top  []*club.Rating
}

func (s *Site) indexData() *indexData {
	d := &indexData{Results: s.c.RecentResults(10)}
	for _, e := range s.c.Events {
		switch e.Status {
		case club.StatusRunning:
			d.Running = append(d.Running, e)
		case club.StatusUpcoming:
			d.Upcoming = append(d.Upcoming, e)
		default:
			d.Finished = append(d.Finished, e)
		}
	}
	for _, l := range s.c.Ratings {
		d.Ratings = append(d.Ratings, &ratingHead{List: l, Top: l.Ratings[:min(5, len(l.Ratings))]})
	}
	return d
}

// EntryOpen reports whether an upcoming event takes entries on the
// snapshot's day.
func (p *page) EntryOpen(e *club.Event) bool {
	return e.OpenEntry && !p.Club.Now.After(e.EntryCloses.Add(24*time.Hour))
}

// JoinLine says how to join an event by mail.
func (p *page) JoinLine(e *club.Event) template.HTML {
	if p.Club.JoinAddress == "" {
		return ""
	}
	cmd := "<code>join " + template.HTMLEscapeString(e.ID) + "</code>"
	addr := "<code>" + template.HTMLEscapeString(p.Club.JoinAddress) + "</code>"
	text := template.HTMLEscapeString(tr(p.Lang, "index.join", "\x01", "\x02"))
	return template.HTML(strings.NewReplacer("\x01", cmd, "\x02", addr).Replace(text))
}

// NameLine says how a player chooses a public name.
func (p *page) NameLine() template.HTML {
	cmd := "<code>" + template.HTMLEscapeString(tr(p.Lang, "players.namecmd")) + "</code>"
	if p.Club.JoinAddress != "" {
		cmd += " (" + "<code>" + template.HTMLEscapeString(p.Club.JoinAddress) + "</code>)"
	}
	return template.HTML(strings.Replace(template.HTMLEscapeString(tr(p.Lang, "players.names", "\x01")), "\x01", cmd, 1))
}
