package grammar

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// recordSamples are native record files for TestParseRecordsSame and the
// seeds of FuzzParseRecordsSame: plain files the splitter reads, and
// files it must leave to the grammar.
var recordSamples = []string{
	"",
	"*",
	" \n\t*\r\n",
	sampleRecord,
	sampleRecord + "\n" + sampleRecord,
	"[Event \"a \\\" \\\\ b\"]\n{x\ny} 1. E7-E6xF6++ Kd4-c4xKc5/d5- *",
	"[Event \"Süd–Nord\"] [Site \"Köln\"]\n{Grüße\naus Köln ✓} 1. d1-d3 {schön} h6-h9 {ä\nö} 2. ---\nattackers\n{next} draw",
	"[Position \"/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/\"]\n[ToMove \"defenders\"]\n1... d3-f3 {c} 2. d2-d3 ---\ndefenders",
	"12. d1-d3 {why?} 12... h6-h9 13. timeout attackers\n[Event \"2\"] [Rules \"dim:7 start:/7/\"] 1. a1-a2 draw",
	"0. d1-d3 h6-h9x e1-e2 *",
	"0. d1-d3 h6-h9x 1. e1-e2 *",
	"1. d1-d3x h6-h9xK 2. a1-a2xK/b3 *",
	"1. d1-d3 xe4 *",
	"1. d1-d3 Xe4 *",
	"1. d1-d3 {c} xe4 *",
	"1. d1-d3 h6-h9 attackers {c}",
	"1. d1-d3 h6-h9 Draw",
	"1. d1-d3\th6-h9\r\n2. e1-e2\r\n*\r\n",
	"1.d1-d3 h6-h9{c}2...e1-e2 *",
	"1 . d1-d3 *",
	"1.. d1-d3 *",
	"01. d1-d3 *",
	"1234567890. d1-d3 *",
	"99999999999999999999. d1-d3 *",
	"1. d1-t3 *",
	"1. d1 -d3 *",
	"1. d1-d3e4-e5 *",
	"1. d1-d3* *",
	"1. d1-d3 {unterminated\n*",
	"[Event  \"x\"] *",
	"[ Event \"x\"] *",
	"[Event \"x\" ] *",
	"[Event \"x]\n*",
	"[Event \"a\\nb\"]\n*",
	"[Event \"x\"\n*",
	"[Date \"2026.11.29\"]\n[Date \"2026.11.29\"]\n*",
	"[Result \"attackers\"]\n1. d1-d3 defenders",
	"[Rules \"dim:11 atkf:n dim:3\"]\n*",
	"[Position \"/7/7/7/3K3/7/7/7/\"]\n*",
	"1. d1-d3 h6-h9 *\n1. \xc3",
	"[Event \"x\"] 1. d1-d3 h6-h9 2... *",
	"[Event \"x\"] 1. d1-d3 [Site \"y\"] *",
	// several records on a line, one the splitter does not read
	// (grammarWindow: the grammar reads that one alone)
	"1. d1-d3 * 1. zz * 1. d1-d2 *",
	"1. d1-d3 * [Event  \"x\"] 1. d1-d2 * 1. d2-d3 draw",
	"1. d1-d3 * 1. d1-d2 {draw} 2. e1-e2 * 1. e1 e2 *",
	"1. d1-d3 * [Event \"a ] draw\"] 1. d1-d2 * 1. d1-d2 defenders",
	"1. d1-d3 * 1. d1-d2 draw1. d2-d3 * 1. e1-e2 *",
	"1. d1-d3 * 1. d1-d2 {unclosed * 1. d1-d2 *",
	"1. d1-d3 * 1. d1-d2 draw* 1. e1-e2 *",
	"1. d1-d3 *\n[Date \"2026.13.01\"]\n1. d1-d2 *\n1. e1-e2 *",
	"1. d1-d3 * [Rules \"dim:7 dim:9\"] 1. d1-d2 *",
	"1. d1-d3 * 1. d1-d2 2. e1-e2 3. * *",
	"[Event \"é\"] 1. d1-d3 * {ü} 1. d1  d2 * 1. e1-e2xe3 *",
}

// TestParseRecordsSame: ParseRecords returns what the grammar alone
// returns, trees, positions and errors alike, on the samples and on
// native records made from every game of the shared records, which it
// reads without the grammar.
func TestParseRecordsSame(t *testing.T) {
	for _, in := range recordSamples {
		checkRecordsSame(t, "r.tafl", []byte(in))
	}
	if _, windows, _ := splitRecords("s", []byte(sampleRecord)); windows != 0 {
		t.Errorf("ParseRecords gave the sample record to the grammar")
	}
	requireShared(t)
	files, _ := filepath.Glob(filepath.Join(sharedRecords, "*.csv"))
	otgs, _ := filepath.Glob(filepath.Join(sharedRecords, "otg", "*.otg"))
	files = append(files, otgs...)
	if len(files) < 6 {
		t.Fatalf("only %d shared record files", len(files))
	}
	for _, f := range files {
		src := nativeFromShared(t, f)
		name := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f)) + ".tafl"
		if _, windows, _ := splitRecords(name, src); windows != 0 {
			t.Errorf("%s: ParseRecords gave %d records to the grammar", name, windows)
		}
		checkRecordsSame(t, name, src)
	}
}

func checkRecordsSame(t *testing.T, name string, src []byte) {
	t.Helper()
	want, werr := parseRecordsGrammar(name, src)
	got, gerr := ParseRecords(name, src)
	if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
		t.Errorf("ParseRecords(%q): error %v, the grammar: %v", clip(src), gerr, werr)
		return
	}
	checkRecordScanner(t, name, src, want, werr)
	if reflect.DeepEqual(got, want) {
		return
	}
	for i := range want {
		if i < len(got) && !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("ParseRecords(%q): record %d differs from the grammar's:\n got %s\nwant %s", clip(src), i+1, dumpTree(got[i]), dumpTree(want[i]))
			return
		}
	}
	t.Errorf("ParseRecords(%q) = %d records, the grammar %d", clip(src), len(got), len(want))
}

// checkRecordScanner checks that a RecordScanner gives the records want
// in order, each compared before the next Scan reuses its nodes, and then
// the error werr after records of the grammar's (a prefix of the file's).
func checkRecordScanner(t *testing.T, name string, src []byte, want []*Record, werr error) {
	t.Helper()
	s := NewRecordScanner(name, src)
	n := 0
	for s.Scan() {
		if werr == nil && n >= len(want) {
			t.Errorf("RecordScanner(%q): record %d, the grammar has %d", clip(src), n+1, len(want))
			return
		}
		if werr == nil && !reflect.DeepEqual(s.Record(), want[n]) {
			t.Errorf("RecordScanner(%q): record %d differs from the grammar's:\n got %s\nwant %s", clip(src), n+1, dumpTree(s.Record()), dumpTree(want[n]))
			return
		}
		n++
	}
	gerr := s.Err()
	if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
		t.Errorf("RecordScanner(%q): error %v, the grammar: %v", clip(src), gerr, werr)
		return
	}
	if werr == nil && n != len(want) {
		t.Errorf("RecordScanner(%q) = %d records, the grammar %d", clip(src), n, len(want))
	}
	if s.Scan() || s.Record() != nil {
		t.Errorf("RecordScanner(%q): Scan after the end gave a record", clip(src))
	}
}

// TestRecordScannerReuses: the scanner puts a record's nodes where the
// record before had its own, and nothing of the record before shows in
// the next (its tags, comments and second ply).
func TestRecordScannerReuses(t *testing.T) {
	src := "[Variant \"brandubh\"]\n[Event \"x\"]\n{hello}\n1. d1-d2xd3 {c} c4-c5 2... a1-a2 defenders\n\n1. a1-a2 *\n"
	s := NewRecordScanner("r.tafl", []byte(src))
	if !s.Scan() {
		t.Fatal(s.Err())
	}
	first := s.Record()
	if len(first.Tags) != 2 || len(first.Turns) != 2 {
		t.Fatalf("first record %s", dumpTree(first))
	}
	if !s.Scan() {
		t.Fatal(s.Err())
	}
	second := s.Record()
	want, err := parseRecordsGrammar("r.tafl", []byte(src))
	if err != nil || len(want) != 2 {
		t.Fatalf("the grammar: %d records, %v", len(want), err)
	}
	if second != first || !reflect.DeepEqual(second, want[1]) {
		t.Errorf("second record %p %s\nfirst at %p, the grammar's %s: want the first's node, as the grammar reads it", second, dumpTree(second), first, dumpTree(want[1]))
	}
	if s.Scan() || s.Err() != nil {
		t.Errorf("a third record or an error: %v", s.Err())
	}
}

// clip shortens a source for a failure message.
func clip(src []byte) []byte {
	if len(src) > 300 {
		return src[:300]
	}
	return src
}

// nativeFromShared writes the games of a shared CSV or OpenTafl file as
// native records: tags of every kind (a Rules tag for the OpenTafl rules,
// escapes, non-ASCII), the plies in numbered pairs and comments of one or
// two lines after some of them.
func nativeFromShared(t *testing.T, file string) []byte {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(file)
	type game struct {
		plies   []*Ply
		outcome Outcome
		rules   *Rules
	}
	var games []game
	if strings.HasSuffix(name, ".csv") {
		cs, err := ParseCSV(name, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			games = append(games, game{plies: c.Plies, outcome: c.Result()})
		}
	} else {
		r, err := ParseOTG(name, src)
		if err != nil {
			t.Fatal(err)
		}
		g := game{outcome: r.Outcome(), rules: r.Rules}
		for _, turn := range r.MainLine() {
			for _, p := range []*Ply{turn.First, turn.Second} {
				if p != nil {
					g.plies = append(g.plies, p)
				}
			}
		}
		games = append(games, g)
	}
	var b bytes.Buffer
	for i, g := range games {
		rec := &Record{
			Tags: []*Tag{
				{Name: "Event", Value: fmt.Sprintf("%s \"%d\" \\ Süd", name, i)},
				{Name: "Date", Value: fmt.Sprintf("2027.%02d.%02d", 1+i%12, 1+i%28)},
				{Name: "Round", Value: fmt.Sprint(i + 1)},
				{Name: "Attackers", Value: fmt.Sprintf("p%d@example.org", i%17)},
				{Name: "Defenders", Value: fmt.Sprintf("Jörg %d", i%13)},
				{Name: "Result", Value: g.outcome.String()},
			},
			Result: &Result{Outcome: g.outcome},
		}
		if g.rules != nil {
			rec.Tags = append(rec.Tags, &Tag{Name: "Rules", Value: g.rules.String()})
		}
		if i%5 == 0 {
			rec.Comments = []*Comment{{Text: "Vorspiel\nzweite Zeile ✓"}}
		}
		for k := 0; k < len(g.plies); k += 2 {
			turn := &Turn{Number: k/2 + 1, First: &AnnotatedPly{Ply: g.plies[k]}}
			if k%7 == 3 {
				turn.First.Comments = []*Comment{{Text: "[%ts 2027-01-02T03:04:05Z] gut"}}
			}
			if k+1 < len(g.plies) {
				turn.Second = &AnnotatedPly{Ply: g.plies[k+1]}
				if k%11 == 4 {
					turn.Second.Comments = []*Comment{{Text: "a\nb"}, {Text: "ü"}}
				}
			}
			rec.Turns = append(rec.Turns, turn)
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		if err := WriteRecord(&b, rec); err != nil {
			t.Fatalf("%s game %d: %v", name, i+1, err)
		}
	}
	return b.Bytes()
}

// FuzzParseRecordsSame feeds arbitrary bytes to ParseRecords and to the
// grammar.
func FuzzParseRecordsSame(f *testing.F) {
	for _, s := range recordSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkRecordsSame(t, "f.tafl", src)
	})
}
