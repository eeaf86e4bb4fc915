package grammar

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestParsePlies: ParsePlies gives what ParsePly gives for each text, trees
// and positions (file name included) alike, and ParsePly's error with the
// index of the first text that does not parse.
func TestParsePlies(t *testing.T) {
	texts := append([]string{" d1-d3", "d1-d3\n", "\nKd4-c4xe4", "---", "timeout", "g7-g10x", "Kf6-c6xc5/d6+"}, moveSeeds...)
	if _, err := os.Stat(sharedRecords); err == nil {
		src, err := os.ReadFile(filepath.Join(sharedRecords, "copenhagen.csv"))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(src), "\n")[:200] {
			plies, _, _ := strings.Cut(line, ",")
			texts = append(texts, strings.Fields(plies)...)
		}
	}
	var good []string
	for _, s := range texts {
		if _, err := ParsePly("g.tafl", []byte(s)); err == nil {
			good = append(good, s)
		}
	}
	if len(good) < 20 {
		t.Fatalf("only %d texts parse", len(good))
	}
	got, _, err := ParsePlies("g.tafl", good)
	if err != nil {
		t.Fatalf("ParsePlies: %v", err)
	}
	for i, s := range good {
		want, _ := ParsePly("g.tafl", []byte(s))
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("ParsePlies: text %d %q:\n got %s\nwant %s", i, s, dumpPly(got[i]), dumpPly(want))
		}
	}
	for _, bad := range []string{"d1-t3", "d1 -d3", "xe4", "", " ", "d1-d3 e4-e5"} {
		in := append(append([]string(nil), good[:5]...), bad, "d1-d3")
		_, i, err := ParsePlies("g.tafl", in)
		_, want := ParsePly("g.tafl", []byte(bad))
		if want == nil {
			t.Fatalf("ParsePly(%q) succeeded", bad)
		}
		if i != 5 || err == nil || err.Error() != want.Error() {
			t.Errorf("ParsePlies(… %q …) = %d, %v; want 5, %v", bad, i, err, want)
		}
	}
}
