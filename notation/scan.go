package notation

import (
	"slices"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
)

// ScanGames calls fn with each game of a file, in file order: the games
// ReadGames returns, for a program that looks at each game once (taflmail
// validate). It returns ReadGames's syntax error, or the first error fn
// returns, which ends the scan.
//
// A CSV file is read a line at a time (grammar.CSVScanner), and the
// memory of a game (the *Game, its Plies and their grammar trees, and its
// first Replay) is used again for the next one: the copenhagen.csv corpus
// is read and replayed with 3.4 MB allocated, against 27.6 MB through
// ReadGames, and a longer file needs more only for ply texts not seen
// before and for a game longer than all before it
// (docs/performance.md). So fn must not keep g, anything g points to, or
// a Replay of g after it returns. On a syntax error in a CSV file, fn has
// been called for the games of the lines before the error's.
//
// A native file is read a record at a time the same way
// (grammar.RecordScanner); a file the record splitter does not understand
// from some record on is read whole from there, as ReadGames does. OpenTafl
// files, one game each, are read by ReadGames.
func ScanGames(filename string, src []byte, opts ReadOptions, fn func(g *Game) error) error {
	f := opts.Format
	if f == FormatAuto {
		f = DetectFormat(filename, src)
	}
	switch f {
	case FormatCSV:
		return scanCSV(filename, src, opts.Variant, fn)
	case FormatNative:
		return scanRecords(filename, src, opts.Variant, fn)
	default:
		games, err := ReadGames(filename, src, ReadOptions{Format: f, Variant: opts.Variant})
		if err != nil {
			return err
		}
		for _, g := range games {
			if err := fn(g); err != nil {
				return err
			}
		}
		return nil
	}
}

// scanCSV is ScanGames for a CSV file; def is ReadOptions.Variant.
func scanCSV(filename string, src []byte, def *engine.Variant, fn func(g *Game) error) error {
	if def == nil {
		def = guessVariant(filename)
	}
	start := newStartCache(def)
	s := grammar.NewCSVScanner(filename, src)
	var (
		g     Game
		plies []Ply
		sc    replayScratch
	)
	for s.Scan() {
		c := s.Game()
		plies = slices.Grow(plies[:0], len(c.Plies))[:len(c.Plies)]
		resetPlies(plies)
		g = Game{start: start, scratch: &sc}
		fromCSV(&g, c, def, plies)
		if err := fn(&g); err != nil {
			return err
		}
	}
	return s.Err()
}

// resetPlies zeroes what fromCSV does not set in plies, a game's plies
// used again, leaving their Ply pointers: fromCSV writes a pointer only
// where it differs, since while the garbage collector marks, a pointer
// written (or a struct holding one cleared) goes through a write barrier.
func resetPlies(plies []Ply) {
	for i := range plies {
		if q := &plies[i]; q.Number != 0 || q.Second || q.Comments != nil || q.Time != (PlyTime{}) {
			*q = Ply{Ply: q.Ply}
		}
	}
}

// scanRecords is ScanGames for a file of native records; def is
// ReadOptions.Variant.
func scanRecords(filename string, src []byte, def *engine.Variant, fn func(g *Game) error) error {
	if def == nil {
		def = guessVariant(filename)
	}
	s := grammar.NewRecordScanner(filename, src)
	var (
		g     Game
		plies []Ply
		sc    replayScratch
	)
	for n := 1; s.Scan(); n++ {
		r := s.Record()
		k := recordPlies(r)
		plies = slices.Grow(plies[:0], k)
		g = Game{scratch: &sc}
		fromRecord(&g, r, def, plies[:0:k])
		g.Number = n
		if err := fn(&g); err != nil {
			return err
		}
	}
	return s.Err()
}
