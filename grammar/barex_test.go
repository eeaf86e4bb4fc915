package grammar

import "testing"

// A capture mark that names no square, followed by white space and the
// next ply: the next ply's first square must not be read as the captured
// square (found when replaying records written by other programs).
func TestBareCaptureMarkBeforeNextPly(t *testing.T) {
	for _, src := range []string{"1. g7-g10x e7-k7 *", "1. d4-c4xK e7-k7 *", "1. g7-g10x\ne7-k7 *"} {
		recs, err := ParseRecords("r", []byte(src))
		if err != nil {
			t.Errorf("ParseRecords(%q): %v", src, err)
			continue
		}
		ps := recs[0].Plies()
		if len(ps) != 2 || ps[1].String() != "e7-k7" || len(ps[0].Move.CaptureSquares()) != 0 {
			t.Errorf("ParseRecords(%q) plies %v, want a bare mark then e7-k7", src, ps)
		}
	}
	games, err := ParseCSV("c", []byte("g7-g10x e7-k7,1,0,Black\n"))
	if err != nil || len(games) != 1 || len(games[0].Plies) != 2 {
		t.Fatalf("ParseCSV: %v %v", games, err)
	}
	rec, err := ParseOTG("o", []byte("[result:?]\n\n1. g7-g10x e7-k7 \n"))
	if err != nil || len(rec.MainLine()) != 1 || rec.MainLine()[0].Second == nil {
		t.Fatalf("ParseOTG: %v", err)
	}
}
