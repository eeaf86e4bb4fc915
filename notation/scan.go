package notation

import (
	"slices"

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
// Other formats are read whole by ReadGames first; their games may be
// kept.
func ScanGames(filename string, src []byte, opts ReadOptions, fn func(g *Game) error) error {
	f := opts.Format
	if f == FormatAuto {
		f = DetectFormat(filename, src)
	}
	if f != FormatCSV {
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
	def := opts.Variant
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
