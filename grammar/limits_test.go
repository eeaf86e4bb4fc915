package grammar

import (
	"runtime"
	"strings"
	"testing"
)

// TestRecordTooLong: a CSV line, a native record and an OpenTafl file
// longer than MaxRecordBytes are refused at their start, unread, whether
// the splitter or the grammar would have read them; a file of many short
// records longer than that is read (issue 18 §5).
func TestRecordTooLong(t *testing.T) {
	plies := strings.Repeat("d1-d3 d3-d1 ", MaxRecordBytes/12+1)
	for _, tc := range []struct {
		name, src, want string
		csv             bool
	}{
		{"long.csv", "d1-d3,0,0,Ongoing\n" + plies + ",0,0,Ongoing\n", "long.csv:2:1: line longer than 256 KiB, the most one game record may have", true},
		{"junk.csv", "\n\n" + strings.Repeat("junk ", MaxRecordBytes/5+1), "junk.csv:3:1: line longer than 256 KiB, the most one game record may have", true},
		{"long.tafl", "1. d1-d3 *\n\n[Event \"x\"] 1. " + plies + "*\n", "long.tafl:3:1: record longer than 256 KiB, the most one game record may have", false},
		{"words.tafl", "1. d1-d3 * " + strings.Repeat("abc ", MaxRecordBytes/4+1), "words.tafl:1:12: record longer than 256 KiB, the most one game record may have", false},
	} {
		var err error
		if tc.csv {
			_, err = ParseCSV(tc.name, []byte(tc.src))
			s := NewCSVScanner(tc.name, []byte(tc.src))
			for s.Scan() {
			}
			if s.Err() == nil || s.Err().Error() != tc.want {
				t.Errorf("CSVScanner(%s) = %v, want %s", tc.name, s.Err(), tc.want)
			}
		} else {
			_, err = ParseRecords(tc.name, []byte(tc.src))
			s := NewRecordScanner(tc.name, []byte(tc.src))
			for s.Scan() {
			}
			if s.Err() == nil || s.Err().Error() != tc.want {
				t.Errorf("RecordScanner(%s) = %v, want %s", tc.name, s.Err(), tc.want)
			}
		}
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.want)
		}
	}
	otg := "[name:x]\n" + strings.Repeat("1. d1-d3 d3-d1\n", MaxRecordBytes/15+1)
	if _, err := ParseOTG("long.otg", []byte(otg)); err == nil || err.Error() != "long.otg:1:1: OpenTafl record longer than 256 KiB, the most one game record may have" {
		t.Errorf("ParseOTG(long) = %v", err)
	}
	many := strings.Repeat("1. d1-d3 d3-d1 2. d1-d3 *\n", 2*MaxRecordBytes/26)
	if recs, err := ParseRecords("many.tafl", []byte(many)); err != nil || len(recs) != 2*MaxRecordBytes/26 {
		t.Errorf("many short records: %d, %v", len(recs), err)
	}
}

// TestRecordScannerMemory: a file of one-line native records with one
// the splitter does not read in the middle is scanned in memory bounded
// by a record: the grammar reads that record alone (grammarWindow), not
// the rest of the file. Before, the grammar read the file from there,
// some 130 bytes a byte (a 5 MB file took 650 MB, issue 18 §5).
func TestRecordScannerMemory(t *testing.T) {
	rec := `[Variant "brandubh"] 1. d1-d2 d3-c3 2. c1-c2 * `
	n := (2 << 20) / len(rec) / 2
	src := []byte(strings.Repeat(rec, n) + "[Event  \"not plain\"] 1. d1-d2 * " + strings.Repeat(rec, n))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s := NewRecordScanner("big.tafl", src)
	count := 0
	for s.Scan() {
		count++
	}
	runtime.ReadMemStats(&after)
	if s.Err() != nil || count != 2*n+1 {
		t.Fatalf("scanned %d records, %v; want %d", count, s.Err(), 2*n+1)
	}
	// the text the tag values share (a copy of the file) and the memo's
	// shapes; the grammar's reading of the whole second half would be
	// about 130 MB
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("scanning a %d-byte file allocated %d bytes", len(src), alloc)
	if alloc > 16<<20 {
		t.Errorf("scanning a 2 MB file allocated %d MB, want under 16 MB", alloc>>20)
	}
}
