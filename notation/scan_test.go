package notation

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
)

// scanSamples are CSV files for TestScanGamesSame: plain lines, a line
// only the grammar reads (a tab inside the outcome's blanks is plain, a
// non-ASCII blank is not), syntax errors after good games, an illegal
// ply, a resignation before the end.
var scanSamples = []string{
	"",
	"\n\n",
	"h1-h3 f8-i8,0,0,Ongoing\n",
	"d1-d3 e5-e2 f2-i2 d6-d9 a5-c5 e7-b7 a8-b8xb7,1,0,Ongoing\n\nh1-h3,0,0,Black\r\n",
	"h1-h3,0,0,Ongoing\nh1-h3 f8-i8,0,0,\tOngoing \n",
	"h1-h3,0,0,Ongoing\nh1-h3\u00a0f8-i8,0,0,Ongoing\nd1-d3,0,0,White\n",
	"h1-h3,0,0,Ongoing\nh1-h3 f8-i8,0,x,Ongoing\nd1-d3,0,0,White\n",
	"h1-h3,0,0,Ongoing\nh1-h3 f8-i8,0,0,Ongoing,\n",
	"h1-h3 h1-h2,0,0,Black\nd1-d3 ---  e5-e2,0,0,White\n",
	"a1-a2,0,0,Black\nh1-h3 f8-i8 h3-h1xz9,1,0,Black\n",
}

// TestScanGamesSame: ScanGames calls fn with the games ReadGames returns,
// field by field, replayed alike, then returns the same error; on the
// samples and on every shared CSV file.
func TestScanGamesSame(t *testing.T) {
	for i, s := range scanSamples {
		checkScanSame(t, fmt.Sprintf("sample%d.csv", i), []byte(s))
	}
	requireCorpus(t)
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.csv"))
	if len(files) == 0 {
		t.Fatalf("no CSV files in %s", corpusDir)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkScanSame(t, filepath.Base(f), src)
	}
}

func checkScanSame(t *testing.T, name string, src []byte) {
	t.Helper()
	opts := ReadOptions{Format: FormatCSV}
	want, werr := ReadGames(name, src, opts)
	// First the lines of the games fn gets, and the error.
	var lines []int
	err := ScanGames(name, src, opts, func(g *Game) error {
		lines = append(lines, g.Line)
		return nil
	})
	scanErr := err
	if werr != nil {
		if err == nil || err.Error() != werr.Error() {
			t.Errorf("%s: ScanGames error %v, ReadGames %v", name, err, werr)
			return
		}
		// fn got the games of the lines before the error's: those
		// ReadGames reads from the file up to that line.
		ge, ok := werr.(*grammar.Error)
		if !ok {
			t.Fatalf("%s: ReadGames error %T %v, want *grammar.Error", name, werr, werr)
		}
		prefix := src[:lineEnd(src, ge.Line-1)]
		if ge.Line <= 1 {
			prefix = src[:0]
		}
		if want, werr = ReadGames(name, prefix, opts); werr != nil {
			t.Fatalf("%s: the lines before the error's line %d do not parse alone: %v", name, ge.Line, werr)
		}
	} else if err != nil {
		t.Errorf("%s: ScanGames error %v, ReadGames none", name, err)
		return
	}
	if len(lines) != len(want) {
		t.Errorf("%s: ScanGames gave %d games, ReadGames %d", name, len(lines), len(want))
		return
	}
	// Then the games themselves, each compared before the next reuses it.
	n := 0
	err = ScanGames(name, src, opts, func(g *Game) error {
		if n == len(want) {
			return errEnough
		}
		w := want[n]
		n++
		if !reflect.DeepEqual(gameFields(g), gameFields(w)) {
			return fmt.Errorf("game %d differs:\n got %+v\nwant %+v", n, gameFields(g), gameFields(w))
		}
		for i := range w.Plies {
			if a, b := g.Plies[i].Ply, w.Plies[i].Ply; !reflect.DeepEqual(a, b) {
				return fmt.Errorf("game %d ply %d: %s at %v, ReadGames %s at %v", n, i+1, a, a.Pos, b, b.Pos)
			}
		}
		if got, want := replaySummary(g.Replay()), replaySummary(w.Replay()); got != want {
			return fmt.Errorf("game %d replays differently:\n got %s\nwant %s", n, got, want)
		}
		return nil
	})
	if err != nil && err != errEnough && (scanErr == nil || err.Error() != scanErr.Error()) {
		t.Errorf("%s: %v", name, err)
	}
}

var errEnough = errors.New("enough games")

// lineEnd returns the offset just after line n (1-based) of src.
func lineEnd(src []byte, n int) int {
	for i, c := range src {
		if c == '\n' {
			if n--; n == 0 {
				return i + 1
			}
		}
	}
	return len(src)
}

// TestScanGamesNative: ScanGames reads native records as ReadGames does:
// the shared CSV files written as native records (as the canonical
// writer writes them), samples the record splitter gives to the grammar
// from some record on, and a syntax error after good records.
func TestScanGamesNative(t *testing.T) {
	samples := []string{
		"",
		"[Variant \"brandubh\"]\n\n1. d1-d2 c4-c5 *\n\n[Variant \"brandubh\"]\n{a comment}\n1. d1-d2 {x} c4-c5 2. a4-a5 *\n",
		"[Variant \"brandubh\"]\n\n1. d1-d2 c4-c5 *\n\n[Variant  \"brandubh\"]\n\n01. d1-d2 *\n",
		"[Variant \"brandubh\"]\n\n1. d1-d2 c4-c5 *\n\n[Variant \"brandubh\"]\n\n1. d1~d2 *\n",
		"[Variant \"copenhagen\"]\n\n1. h1-h3 f8-i8 2. h3-h1 *\n",
	}
	for i, s := range samples {
		checkScanNative(t, fmt.Sprintf("sample%d.tafl", i), []byte(s))
	}
	requireCorpus(t)
	for _, name := range []string{"copenhagen.csv", "brandubh.csv"} {
		src, err := os.ReadFile(filepath.Join(corpusDir, name))
		if err != nil {
			t.Fatal(err)
		}
		games, err := ReadGames(name, src, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var rs []*Replay
		for _, g := range games {
			rs = append(rs, g.Replay())
		}
		var b strings.Builder
		if err := WriteNative(&b, rs...); err != nil {
			t.Fatal(err)
		}
		checkScanNative(t, strings.TrimSuffix(name, ".csv")+".tafl", []byte(b.String()))
	}
}

// checkScanNative checks ScanGames against ReadGames on native records:
// the same games, compared before the next reuses the memory, replayed
// alike, and the same error, after some of the games before it.
func checkScanNative(t *testing.T, name string, src []byte) {
	t.Helper()
	opts := ReadOptions{Format: FormatNative}
	want, werr := ReadGames(name, src, opts)
	n := 0
	err := ScanGames(name, src, opts, func(g *Game) error {
		if werr != nil {
			n++
			return nil // no games to compare with: the error decides
		}
		if n >= len(want) {
			return fmt.Errorf("game %d, ReadGames has %d", n+1, len(want))
		}
		w := want[n]
		n++
		if !reflect.DeepEqual(gameFields(g), gameFields(w)) {
			return fmt.Errorf("game %d differs:\n got %+v\nwant %+v", n, gameFields(g), gameFields(w))
		}
		if !reflect.DeepEqual(g.Plies, w.Plies) {
			return fmt.Errorf("game %d: plies differ", n)
		}
		if got, want := replaySummary(g.Replay()), replaySummary(w.Replay()); got != want {
			return fmt.Errorf("game %d replays differently:\n got %s\nwant %s", n, got, want)
		}
		return nil
	})
	switch {
	case werr != nil:
		if err == nil || err.Error() != werr.Error() {
			t.Errorf("%s: ScanGames error %v, ReadGames %v", name, err, werr)
		}
	case err != nil:
		t.Errorf("%s: %v", name, err)
	case n != len(want):
		t.Errorf("%s: ScanGames gave %d games, ReadGames %d", name, n, len(want))
	}
}

// gameFields is a game without its plies and caches.
func gameFields(g *Game) Game {
	c := *g
	c.Plies, c.start, c.scratch = nil, nil, nil
	return c
}

// replaySummary is what validate prints of a replay.
func replaySummary(r *Replay) string {
	s := fmt.Sprintf("legal %v captures %v end %+v", r.Legal, r.CapturesMatch, r.End)
	for _, e := range r.Errors {
		s += "; " + e.Error()
	}
	return s
}

// TestScanGamesStops: an error of fn ends the scan and is returned as is.
func TestScanGamesStops(t *testing.T) {
	stop := errors.New("enough")
	calls := 0
	err := ScanGames("s.csv", []byte("h1-h3,0,0,Ongoing\nd1-d3,0,0,Ongoing\nd1-d3,0,0,Ongoing\n"), ReadOptions{}, func(*Game) error {
		calls++
		if calls == 2 {
			return stop
		}
		return nil
	})
	if err != stop || calls != 2 {
		t.Errorf("ScanGames = %v after %d calls, want %v after 2", err, calls, stop)
	}
}

// TestScanGamesOtherFormats: a native record goes through ReadGames and
// fn gets its games, variant and all.
func TestScanGamesOtherFormats(t *testing.T) {
	src := []byte("[Variant \"brandubh\"]\n\n1. d1-d2 c4-c5 *\n")
	var got []string
	err := ScanGames("b.taf", src, ReadOptions{}, func(g *Game) error {
		got = append(got, fmt.Sprintf("%s %d plies %v", g.VariantName, len(g.Plies), g.Format))
		return nil
	})
	want, _ := ReadGames("b.taf", src, ReadOptions{})
	if err != nil || len(got) != 1 || len(want) != 1 || got[0] != fmt.Sprintf("%s %d plies %v", want[0].VariantName, len(want[0].Plies), want[0].Format) {
		t.Errorf("ScanGames = %v, %q; ReadGames %d games", err, got, len(want))
	}
}

// FuzzScanGamesSame: ScanGames and ReadGames agree on arbitrary CSV text.
func FuzzScanGamesSame(f *testing.F) {
	for _, s := range scanSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkScanSame(t, "f.csv", src)
	})
}

// TestScanGamesReplayMemory: the first Replay of each game uses the scan's
// memory (the same final position for every game), a second Replay of the
// same game memory of its own, so that the first stays as it was.
func TestScanGamesReplayMemory(t *testing.T) {
	src := []byte("h1-h3 f8-i8,0,0,Ongoing\nd1-d3 e5-e2 f2-i2,0,0,Ongoing\n")
	var finals []*engine.Position
	err := ScanGames("m.csv", src, ReadOptions{}, func(g *Game) error {
		r1 := g.Replay()
		before := replaySummary(r1)
		r2 := g.Replay()
		if r1.Final == r2.Final || &r1.Plies[0] == &r2.Plies[0] {
			return fmt.Errorf("game %d: two replays share memory", g.Number)
		}
		if after := replaySummary(r1); after != before || r1.Final.Ply() != len(g.Plies) {
			return fmt.Errorf("game %d: the first replay changed: %s, then %s (final at ply %d)", g.Number, before, after, r1.Final.Ply())
		}
		finals = append(finals, r1.Final)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(finals) != 2 || finals[0] != finals[1] {
		t.Errorf("final positions %p: want two, the same memory", finals)
	}
}
