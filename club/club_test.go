package club_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/club/clubtest"
	"github.com/taflmail/taflmail/notation"
)

// fixture is the small club of clubtest, built once for the package.
var (
	fixtureOnce sync.Once
	fixtureVal  *clubtest.Fixture
	fixtureErr  error
	fixtureDir  string
)

func fixture(t *testing.T) (*clubtest.Fixture, *archive.Store) {
	t.Helper()
	fixtureOnce.Do(func() {
		var err error
		if fixtureDir, err = mkTemp(); err != nil {
			fixtureErr = err
			return
		}
		fixtureVal, fixtureErr = clubtest.Build(context.Background(), filepath.Join(fixtureDir, "club.db"), clubtest.Options{Seed: 1})
	})
	if fixtureErr != nil {
		t.Fatal(fixtureErr)
	}
	store, err := archive.Open(context.Background(), fixtureVal.Path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return fixtureVal, store
}

// strs returns every string reachable from v (through pointers, slices,
// maps and exported and unexported struct fields), each pointer followed
// once.
func strs(v any) []string {
	var out []string
	seen := map[uintptr]bool{}
	var walk func(reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			out = append(out, v.String())
		case reflect.Pointer:
			if v.IsNil() || seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
			walk(v.Elem())
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		case reflect.Map:
			for _, k := range v.MapKeys() {
				if k.Kind() == reflect.String && v.Type().Key().Kind() == reflect.String && v.Type().Name() == "" {
					// map keys of the unexported indexes are checked as values below
				}
				walk(v.MapIndex(k))
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				f := v.Type().Field(i)
				if f.Name == "byAddr" || f.Name == "names" || f.Type.Kind() == reflect.Func {
					continue // the package's own index by address, and the key
				}
				walk(v.Field(i))
			}
		}
	}
	walk(reflect.ValueOf(v))
	return out
}

// TestLoadPrivacy: a snapshot of the archive holds no address, no key
// and no private, invited or declined game, anywhere in its values.
func TestLoadPrivacy(t *testing.T) {
	f, store := fixture(t)
	c, err := club.Load(context.Background(), store, club.LoadOptions{Now: f.Now})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(strs(c), "\n")
	for _, a := range f.Addresses {
		if strings.Contains(strings.ToLower(all), strings.ToLower(a)) {
			t.Errorf("the snapshot holds the address %s", a)
		}
	}
	for _, s := range append(f.Secrets, f.Private...) {
		if strings.Contains(all, s) {
			t.Errorf("the snapshot holds %q (a key or a private game)", s)
		}
	}
	for _, id := range append(f.Private, f.Hidden...) {
		if c.Game(id) != nil {
			t.Errorf("game %s is in the snapshot", id)
		}
	}
	if strings.Contains(all, "@") {
		t.Errorf("the snapshot holds an @")
	}
	if len(c.Games) != f.Games {
		t.Errorf("%d public games, want %d", len(c.Games), f.Games)
	}
	// records too
	for _, g := range c.Games {
		r, err := c.Record(context.Background(), g)
		if err != nil {
			t.Fatalf("Record(%s) = %v", g.ID, err)
		}
		var b bytes.Buffer
		if err := club.WriteRecord(&b, r, notation.FormatNative); err != nil {
			t.Fatalf("record of %s: %v", g.ID, err)
		}
		if strings.Contains(b.String(), "@") {
			t.Errorf("record of %s holds an address:\n%s", g.ID, b.String())
		}
		if !strings.Contains(b.String(), `Attackers "`+g.Attackers.Name+`"`) {
			t.Errorf("record of %s does not name %s as attackers:\n%s", g.ID, g.Attackers.Name, b.String())
		}
	}
}

// TestLoadEvents: the events are where they belong, with the standings
// of EventStandings under public names, and the players' public names
// are the chosen one, the engine's and pseudonyms.
func TestLoadEvents(t *testing.T) {
	ctx := context.Background()
	f, store := fixture(t)
	c, err := club.Load(ctx, store, club.LoadOptions{Now: f.Now, JoinAddress: "club@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{f.Finished[0]: club.StatusFinished, f.Running: club.StatusRunning, f.Upcoming: club.StatusUpcoming}
	if len(c.Events) != len(want) {
		t.Fatalf("%d events, want %d (cancelled left out)", len(c.Events), len(want))
	}
	if c.Events[0].ID != f.Running || c.Events[1].ID != f.Upcoming || c.Events[2].ID != f.Finished[0] {
		t.Errorf("event order %s %s %s, want running, upcoming, finished", c.Events[0].ID, c.Events[1].ID, c.Events[2].ID)
	}
	names := club.NewNames(mustKey(t, store), f.Named, f.Addresses)
	for id, status := range want {
		e := c.Event(id)
		if e == nil || e.Status != status {
			t.Fatalf("event %s = %+v, want status %s", id, e, status)
		}
		tm, es, gs, err := club.LoadEvent(ctx, store, id, false)
		if err != nil {
			t.Fatal(err)
		}
		if status == club.StatusUpcoming {
			if len(e.Standings) != 0 || len(e.Players) != 2 || !e.OpenEntry {
				t.Errorf("upcoming %s: %d standings, %d players, open %v", id, len(e.Standings), len(e.Players), e.OpenEntry)
			}
			continue
		}
		sts, err := club.EventStandings(tm, es, gs)
		if err != nil {
			t.Fatal(err)
		}
		if len(sts) != len(e.Standings) {
			t.Fatalf("%s: %d tables, want %d", id, len(e.Standings), len(sts))
		}
		for i, st := range sts {
			got := e.Standings[i]
			for j, r := range st.Rows {
				g := got.Rows[j]
				if g.Player != names.Name(r.Player) || g.Points != r.Points || g.SonnebornBerger != r.SonnebornBerger ||
					g.Place != r.Place || g.LastPlace != r.LastPlace || g.Withdrawn != r.Withdrawn || len(g.Matches) != len(r.Matches) {
					t.Errorf("%s row %d = %+v, want %+v under %s", id, j, g, r, names.Name(r.Player))
				}
			}
			if len(got.Annulled) != len(st.Annulled) {
				t.Errorf("%s: annulled %v, want %v", id, got.Annulled, st.Annulled)
			}
		}
		if len(e.Games) != len(gs) {
			t.Errorf("%s: %d games, want %d", id, len(e.Games), len(gs))
		}
	}
	run := c.Event(f.Running)
	if len(run.Withdrawn) != 1 {
		t.Errorf("running event: withdrawn %v, want one", run.Withdrawn)
	}
	annulled := 0
	for _, g := range run.Games {
		if g.Annulled {
			annulled++
		}
	}
	if annulled != 6 {
		t.Errorf("running event: %d annulled games, want 6 (the withdrawn player's)", annulled)
	}
	var ada, engine *club.Player
	for _, p := range c.Players {
		switch {
		case p.Name == "Ada Lovelace":
			ada = p
		case p.Engine:
			engine = p
		case !strings.HasPrefix(p.Name, "Player "):
			t.Errorf("player %q has neither a pseudonym nor a chosen name", p.Name)
		}
	}
	if ada == nil || len(ada.Events) == 0 || len(ada.Ratings) == 0 || len(ada.Ratings[0].History) == 0 {
		t.Fatalf("Ada = %+v: want her events and ratings", ada)
	}
	if engine == nil || engine.Name != club.EngineName || engine.ID != "engine" || c.Player("engine") != engine {
		t.Errorf("engine player = %+v", engine)
	}
	if len(c.Ratings) == 0 {
		t.Fatal("no rating lists")
	}
	for _, l := range c.Ratings {
		for i, r := range l.Ratings {
			if r.Place != i+1 || i > 0 && r.R > l.Ratings[i-1].R {
				t.Errorf("%s: place %d rating %.1f out of order", l.Variant, r.Place, r.R)
			}
		}
	}
	if c.JoinAddress != "club@example.com" || c.Modified.IsZero() || c.Modified.After(f.Now) {
		t.Errorf("JoinAddress %q, Modified %v (now %v)", c.JoinAddress, c.Modified, f.Now)
	}
	if len(c.RecentResults(3)) != 3 {
		t.Errorf("RecentResults(3) = %d games", len(c.RecentResults(3)))
	}
}

func mustKey(t *testing.T, s *archive.Store) []byte {
	k, err := s.PseudonymKey(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestFromRecords: the export of an event read back as records gives
// the same crosstable under the same pseudonyms, no address, and a
// record whose addresses are replaced.
func TestFromRecords(t *testing.T) {
	ctx := context.Background()
	f, store := fixture(t)
	key := mustKey(t, store)
	var src []byte
	for _, id := range []string{f.Finished[0], f.Running} {
		_, _, gs, err := club.LoadEvent(ctx, store, id, true)
		if err != nil {
			t.Fatal(err)
		}
		data, err := club.ExportEvent(gs)
		if err != nil {
			t.Fatal(err)
		}
		src = append(append(src, data...), '\n')
	}
	recs, err := notation.ReadGames("events.tafl", src, notation.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	withdrawn := "r3@club0.example.org"
	c, problems, err := club.FromRecords(recs, key, []string{withdrawn}, f.Now)
	if err != nil || len(problems) > 0 {
		t.Fatalf("FromRecords = %v, problems %v", err, problems)
	}
	secs, _, _ := club.RecordSections(recs, []string{withdrawn})
	names := club.NewNames(key, nil, f.Addresses)
	for _, sec := range secs {
		st, err := sec.Standings()
		if err != nil {
			t.Fatal(err)
		}
		var e *club.Event
		for _, x := range c.Events {
			if x.Name == sec.Event {
				e = x
			}
		}
		if e == nil || len(e.Standings) != 1 {
			t.Fatalf("no event %q in %v", sec.Event, c.Events)
		}
		for j, r := range st.Rows {
			g := e.Standings[0].Rows[j]
			if g.Player != names.Name(r.Player) || g.Points != r.Points || g.SonnebornBerger != r.SonnebornBerger {
				t.Errorf("%s row %d = %+v, want %+v", sec.Event, j, g, r)
			}
		}
	}
	if c.Events[0].Status != club.StatusRunning || c.Events[1].Status != club.StatusFinished {
		t.Errorf("statuses %s, %s", c.Events[0].Status, c.Events[1].Status)
	}
	all := strings.Join(strs(c), "\n")
	if strings.Contains(all, "@") {
		t.Error("the snapshot of records holds an @")
	}
	for _, g := range c.Games {
		r, err := c.Record(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := club.WriteRecord(&b, r, notation.FormatNative); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), "@") {
			t.Errorf("record %s holds an address", g.ID)
		}
	}
	// the same records give the same ids
	c2, _, _ := club.FromRecords(recs, key, []string{withdrawn}, f.Now)
	for i := range c.Games {
		if c.Games[i].ID != c2.Games[i].ID {
			t.Errorf("game %d: id %s then %s", i, c.Games[i].ID, c2.Games[i].ID)
		}
	}
	if _, _, err := club.FromRecords(recs, key, []string{"nobody@example.org"}, f.Now); !errors.As(err, new(*club.NotAPlayerError)) {
		t.Errorf("withdrawn nobody = %v, want *NotAPlayerError", err)
	}
}

// TestCheckPublicName: the form of a chosen name.
func TestCheckPublicName(t *testing.T) {
	for _, c := range []struct{ in, out, reason string }{
		{"  Ada   Lovelace ", "Ada Lovelace", ""},
		{"Jörg Müller-Lüdenscheidt", "Jörg Müller-Lüdenscheidt", ""},
		{"O'Brien", "O'Brien", ""},
		{"Ælfrīc 2", "Ælfrīc 2", ""},
		{"李小龙", "李小龙", ""},
		{"A", "A", club.NameTooShort},
		{strings.Repeat("x", 33), strings.Repeat("x", 33), club.NameTooLong},
		{"ada@example.org", "ada@example.org", club.NameChars},
		{"<script>", "<script>", club.NameChars},
		{"-dash", "-dash", club.NameLetter},
		{"1234", "1234", club.NameLetter},
		{"Player K7QXM2A", "Player K7QXM2A", club.NameReserved},
		{"player abcdefgh", "player abcdefgh", club.NameReserved},
		{"Player One", "Player One", ""},
		{"Taflmail  Engine", "Taflmail Engine", club.NameReserved},
	} {
		got, err := club.CheckPublicName(c.in)
		var ne *club.NameError
		switch {
		case c.reason == "" && err != nil, c.reason != "" && (!errors.As(err, &ne) || ne.Reason != c.reason), got != c.out:
			t.Errorf("CheckPublicName(%q) = %q, %v; want %q, reason %q", c.in, got, err, c.out, c.reason)
		}
	}
}

// TestPseudonyms: a pseudonym depends on the key and the address (not
// its case), has the reserved form, and differs from the page id.
func TestPseudonyms(t *testing.T) {
	k1, k2 := []byte("0123456789abcdef0123456789abcdef"), []byte("fedcba9876543210fedcba9876543210")
	p := club.Pseudonym(k1, "Ada@Example.org", 0)
	if p != club.Pseudonym(k1, "ada@example.org", 0) || p == club.Pseudonym(k2, "ada@example.org", 0) || p == club.Pseudonym(k1, "bob@example.org", 0) {
		t.Errorf("pseudonyms do not follow key and address: %s", p)
	}
	if _, err := club.CheckPublicName(p); !errors.As(err, new(*club.NameError)) {
		t.Errorf("a pseudonym %q may be chosen as a name", p)
	}
	if id := club.PlayerID(k1, "ada@example.org"); len(id) != 10 || strings.Contains(strings.ToLower(p), id[:7]) {
		t.Errorf("page id %q and pseudonym %q", id, p)
	}
}

// TestRatingAt: the RD grows once per full 30 days without a game.
func TestRatingAt(t *testing.T) {
	end := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	r := archive.Rating{Player: "a", Variant: "copenhagen", Value: archive.RatingValue{R: 1600, RD: 80, Volatility: 0.06}, Games: 5, LastEnd: end}
	same := club.RatingAt(r, end.AddDate(0, 0, 29))
	grown := club.RatingAt(r, end.AddDate(0, 0, 61))
	if same.RD != 80 || grown.RD <= 80 || grown.R != 1600 {
		t.Errorf("RatingAt: after 29 days RD %.2f, after 61 days %.2f (R %.1f)", same.RD, grown.RD, grown.R)
	}
}

// TestPlyClocks: a running timed game's plies each have what they
// left on the clock.
func TestPlyClocks(t *testing.T) {
	ctx := context.Background()
	f, store := fixture(t)
	c, err := club.Load(ctx, store, club.LoadOptions{Now: f.Now})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range c.Games {
		if g.TimeControl == "" || g.Event == nil || g.Plies == 0 {
			continue
		}
		r, err := c.Record(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		pcs := club.PlyClocks(r)
		if len(pcs) != len(r.Game.Plies) || pcs[0].Arrival.IsZero() || pcs[0].Left <= 0 {
			t.Fatalf("PlyClocks(%s) = %+v", g.ID, pcs)
		}
		if g.Status == "active" && (g.Clocks == nil || g.Clocks.Control != "30d+1d" || g.Clocks.Deadline.IsZero()) {
			t.Errorf("running game %s: clocks %+v", g.ID, g.Clocks)
		}
		return
	}
	t.Fatal("no timed tournament game with plies")
}
