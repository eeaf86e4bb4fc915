package grammar

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

// Run a target for a while with, for example:
//
//	go test -run='^$' -fuzz=FuzzParseMove -fuzztime=60s ./grammar/
//
// Findings are kept in testdata/fuzz/<target>/ and rerun by plain go test.

var moveSeeds = []string{
	"d1-d3", "Kf6-c6", "g3-e3xe2", "e5-e8xe9/f8", "d5-d8xd9xe8", "d4-c4xKc5", "d4-c4xK",
	"g7-g10x", "e7-k7xk6xk6", "E7-E6xF6++", "a3-e3+", "Ke1-a1--", "---", "timeout",
	"s19-a1", "t1-a2", "a20-a2", "d1 - d3", "d1- d3", " d1-d3\n", "a1-a99999999999999999999",
}

func FuzzParseMove(f *testing.F) {
	for _, s := range moveSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if _, err := ParseMove("m", src); err != nil {
			checkErrorInside(t, "m", src, err)
		}
		p, err := ParsePly("m", src)
		if err != nil {
			checkErrorInside(t, "m", src, err)
			return
		}
		text := p.String()
		q, err := ParsePly("m2", []byte(text))
		if err != nil {
			t.Fatalf("ParsePly(%q) = %q, which does not parse: %v", src, text, err)
		}
		stripPos(p)
		stripPos(q)
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("ParsePly(%q) printed as %q parses differently", src, text)
		}
		if q.String() != text {
			t.Fatalf("canonical text %q prints as %q", text, q.String())
		}
	})
}

func FuzzParseRecord(f *testing.F) {
	f.Add([]byte(sampleRecord))
	f.Add([]byte("*"))
	f.Add([]byte("[Position \"/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/\"]\n[ToMove \"defenders\"]\n1... d3-f3 {c} 2. d2-d3 ---\ndefenders"))
	f.Add([]byte("12. d1-d3 {why?} 12... h6-h9 13. timeout attackers\n[Event \"2\"] [Rules \"dim:7 start:/7/\"] 1. a1-a2 draw"))
	f.Add([]byte("[Event \"a \\\" \\\\ b\"]\n{x\ny} 1. E7-E6xF6++ Kd4-c4xKc5/d5- *"))
	f.Fuzz(func(t *testing.T, src []byte) {
		recs, err := ParseRecords("r", src)
		if err != nil {
			checkErrorInside(t, "r", src, err)
			return
		}
		var b bytes.Buffer
		for i, r := range recs {
			if i > 0 {
				b.WriteByte('\n')
			}
			if err := WriteRecord(&b, r); err != nil {
				t.Fatalf("WriteRecord of a parsed record: %v", err)
			}
		}
		again, err := ParseRecords("r2", b.Bytes())
		if err != nil {
			t.Fatalf("printed records do not parse: %v\n%s", err, b.String())
		}
		stripPos(&recs)
		stripPos(&again)
		if !reflect.DeepEqual(recs, again) {
			t.Fatalf("printed records parse differently:\ninput %q\nprinted %q", src, b.String())
		}
	})
}

func FuzzParseOTG(f *testing.F) {
	f.Add([]byte("[date:2016.08.27]\n[result:-1]\n[rules:dim:11 atkf:n start:/11/]\n\n1. Kf6-c6 a8-c8 \n[note|note]\n\n2a.1.1a. Kc6-c2xd2 \n[note]\n\n12b.1.1a. ..... d2-c2\n[|]\n"))
	f.Add([]byte("3a.2.1a.1.1a. Kc3-a3 b2-a2\n[]\n"))
	addFiles(f, filepath.Join(sharedRecords, "otg", "*.otg"))
	f.Fuzz(func(t *testing.T, src []byte) {
		rec, err := ParseOTG("o", src)
		if err != nil {
			checkErrorInside(t, "o", src, err)
			return
		}
		for _, turn := range rec.Turns {
			if turn.Label == nil || (turn.First == nil && turn.Second == nil) {
				t.Fatalf("turn without label or plies: %+v", turn)
			}
		}
	})
}

func FuzzParseCSV(f *testing.F) {
	f.Add([]byte("d1-d3 e5-e2 a8-b8xb7,1,0,Ongoing\r\n\ne7-k7xk6xk6 timeout,1,0,White\n,0,0,Draw"))
	f.Add([]byte("d1-d3,0,0,Black"))
	f.Fuzz(func(t *testing.T, src []byte) {
		games, err := ParseCSV("c", src)
		if err != nil {
			checkErrorInside(t, "c", src, err)
			return
		}
		last := 0
		for _, g := range games {
			if g.Line <= last {
				t.Fatalf("game lines not increasing: %d after %d", g.Line, last)
			}
			last = g.Line
		}
	})
}

// addFiles adds the first lines of the files matching pattern as seeds, if
// the shared corpus is there. Whole files would make each new finding slow
// to minimise.
func addFiles(f *testing.F, pattern string) {
	files, _ := filepath.Glob(pattern)
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		lines := bytes.SplitAfter(src, []byte("\n"))
		if len(lines) > 16 {
			lines = lines[:16]
		}
		f.Add(bytes.Join(lines, nil))
	}
}

// FuzzParseTimeControl: no panic, errors inside the input, and a parsed
// control printed and parsed again gives the same tree.
func FuzzParseTimeControl(f *testing.F) {
	for _, s := range []string{"none", "30d+1d", "6d12h+10h", "7d+0d", "3d/move", "10d+2d max 20d",
		"30d+1d iccf", "3D/MOVE ICCF", " 1d 2h 3m + 0m ", "30dmax", "12h2d+1d", "0d/move", "999d/move",
		"99999999999999999999d+1d", "3d/move max 4d", "30d+1d max 10d", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tc, err := ParseTimeControl("tc", s)
		if err != nil {
			checkErrorInside(t, "tc", []byte(s), err)
			return
		}
		text := tc.String()
		again, err := ParseTimeControl("tc2", text)
		if err != nil {
			t.Fatalf("ParseTimeControl(%q) printed as %q, which does not parse: %v", s, text, err)
		}
		stripPos(tc)
		stripPos(again)
		for _, d := range []*Duration{tc.Base, tc.Increment, tc.Cap} {
			if d != nil {
				for _, p := range d.Parts {
					p.Unit = strings.ToLower(p.Unit) // printed in lower case
				}
			}
		}
		if !reflect.DeepEqual(tc, again) {
			t.Fatalf("ParseTimeControl(%q) printed as %q parses differently", s, text)
		}
		if !tc.None && tc.Base.Minutes() <= 0 {
			t.Fatalf("ParseTimeControl(%q) accepted a base of %d minutes", s, tc.Base.Minutes())
		}
	})
}

// FuzzParseLeaves: no panic, errors inside the input, every date a day of
// the calendar, and the canonical form parses to the same dates.
func FuzzParseLeaves(f *testing.F) {
	for _, s := range []string{"", "2026-12-24/2027-01-02", "2026-12-24/2027-01-02, 2027-07-01/2027-07-14",
		"2028-02-29", "2027-02-29", "2026-12-24/", "0000-01-01", "9999-12-31/9999-12-31", "24.12.2026"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLeaves("tag", s)
		if err != nil {
			checkErrorInside(t, "tag", []byte(s), err)
			return
		}
		again, err := ParseLeaves("tag2", l.String())
		if err != nil {
			t.Fatalf("ParseLeaves(%q) printed as %q, which does not parse: %v", s, l.String(), err)
		}
		if len(again.Intervals) != len(l.Intervals) {
			t.Fatalf("ParseLeaves(%q): %d intervals, printed and parsed again %d", s, len(l.Intervals), len(again.Intervals))
		}
		for i, iv := range l.Intervals {
			last := iv.First
			if iv.Last != nil {
				last = iv.Last
			}
			for _, d := range []*Date{iv.First, last} {
				if d.Year < 1 || d.Month < 1 || d.Month > 12 || d.Day < 1 || d.Day > 31 {
					t.Fatalf("ParseLeaves(%q) accepted the date %+v", s, d)
				}
			}
			if again.Intervals[i].First.Text != iv.First.Text || again.Intervals[i].Last.Text != last.Text {
				t.Fatalf("ParseLeaves(%q) printed as %q parses differently", s, l.String())
			}
		}
	})
}

// FuzzParseComment: no panic; a comment that parses is its items again.
func FuzzParseComment(f *testing.F) {
	for _, s := range []string{"[%ts 2026-11-28T21:52:10Z]", "[%ts 2026-11-28T21:52:10Z] [%avail 2026-11-30T09:00:00Z] [%clk 29d23h12m]",
		"a [quiet] start", "[%ts", "x [%] y", "", "[%%]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		body, err := ParseComment(&Comment{Pos: lexer.Position{Filename: "c", Line: 1, Column: 1}, Text: s})
		if err != nil {
			var gerr *Error
			if !errors.As(err, &gerr) || strings.Contains(gerr.Message, "internal error") {
				t.Fatalf("ParseComment(%q) = %v", s, err)
			}
			return
		}
		n := 0
		for _, it := range body.Items {
			switch {
			case it.Command != nil:
				n += strings.Count(it.Command.String(), "[%")
			default:
				n += strings.Count(it.Text, "[%")
			}
		}
		if n != strings.Count(s, "[%") {
			t.Fatalf("ParseComment(%q): %d commands in the items, %d in the text", s, n, strings.Count(s, "[%"))
		}
	})
}
