package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/notation"
)

// What the commands that read one record file (analyse, convert, diagram)
// share: reading it, saying which format a file that does not parse was
// read as, choosing a game by its number, and saying where a replay
// stopped.

// readRecordFile reads and parses one record file, of at most the
// command's --max-bytes (defaultMaxRecordBytes). A file that cannot be
// read is readError's usage error (exit status 2, no hint), a larger one
// *tooLargeError; a syntax error is returned as notation.ReadGames gives
// it, with formatNote's line when the format was detected rather than
// given.
func readRecordFile(cmd *cobra.Command, name string, ropts notation.ReadOptions) ([]*notation.Game, error) {
	src, err := readFileLimited(cmd, name, maxBytes(cmd, defaultMaxRecordBytes))
	if err != nil {
		return nil, err
	}
	games, err := notation.ReadGames(name, src, ropts)
	if err != nil {
		return nil, withFormatNote(err, name, src, ropts.Format)
	}
	return games, nil
}

// notedError is an error followed by a line that helps to mend it; it
// prints as the error, a line break and the note.
type notedError struct {
	err  error
	note string
}

func (e *notedError) Error() string { return e.err.Error() + "\n" + e.note }
func (e *notedError) Unwrap() error { return e.err }

// withFormatNote adds formatNote's line to err when err is a syntax error
// (*grammar.Error) of a file whose format was detected (format is
// notation.FormatAuto): a CSV file named games.txt is read as a native
// record, and its first comma alone would not tell the user why.
// Otherwise it returns err as it is.
func withFormatNote(err error, name string, src []byte, format notation.Format) error {
	var ge *grammar.Error
	if format != notation.FormatAuto || !errors.As(err, &ge) {
		return err
	}
	return &notedError{err: err, note: formatNote(name, src)}
}

// formatWords name the record formats in a sentence.
var formatWords = map[notation.Format]string{
	notation.FormatNative: "a native record",
	notation.FormatOTG:    "an OpenTafl record",
	notation.FormatCSV:    "CSV",
}

// formatNote says which format --format auto read the file name as, and
// how to choose another:
//
//	five.txt was read as a native record (by its name); --format csv reads it as CSV
//
// The name decided when the content alone (notation.DetectFormat without
// a file name) points to another format, which the note then offers;
// otherwise it names the two other formats.
func formatNote(name string, src []byte) string {
	used := notation.DetectFormat(name, src)
	if byContent := notation.DetectFormat("", src); byContent != used {
		return fmt.Sprintf("%s was read as %s (by its name); --format %s reads it as %s",
			name, formatWords[used], byContent, formatWords[byContent])
	}
	var others []notation.Format
	for _, f := range []notation.Format{notation.FormatNative, notation.FormatOTG, notation.FormatCSV} {
		if f != used {
			others = append(others, f)
		}
	}
	return fmt.Sprintf("%s was read as %s; --format %s or --format %s reads it otherwise",
		name, formatWords[used], others[0], others[1])
}

// pickGame returns the game of a file whose number (notation.Game.Number:
// its place among the file's records, for CSV its line number) is n, or
// the first game when given is false. A number no game has is a usage
// error; a file without games is noGameError.
func pickGame(cmd *cobra.Command, games []*notation.Game, n int, given bool, name string) (*notation.Game, error) {
	if len(games) == 0 {
		return nil, noGameError(name)
	}
	if !given {
		return games[0], nil
	}
	for _, g := range games {
		if g.Number == n {
			return g, nil
		}
	}
	return nil, usageErrorf(cmd, "--game %d: %s has no game %d", n, name, n)
}

// afterMoves returns the number of g's plies (g.Plies, resignations and
// time-outs included) that make its first n moves (0 ≤ n ≤ g.Moves()):
// Replay.PositionAt(afterMoves(g, n)) is the position after n moves. The
// commands count plies as moves, as validate's "plies" and the archive's
// ply count (taflmail games) do: a resignation or time-out is no ply of
// the board (issue 22 §9).
func afterMoves(g *notation.Game, n int) int {
	if n <= 0 {
		return 0
	}
	moves := 0
	for i, p := range g.Plies {
		if p.Ply.Move != nil {
			if moves++; moves == n {
				return i + 1
			}
		}
	}
	return len(g.Plies)
}

// movesIn returns the number of moves among the first n plies of g
// (g.Plies): the inverse of afterMoves.
func movesIn(g *notation.Game, n int) int {
	moves := 0
	for _, p := range g.Plies[:min(max(n, 0), len(g.Plies))] {
		if p.Ply.Move != nil {
			moves++
		}
	}
	return moves
}

// replayStop returns the number of plies of r's game before the first
// move the replay could not play (len(Game.Plies) when it played them
// all), and the problem that stopped it there (nil when it did not stop).
// That problem is the engine's refusal of the move, or an earlier
// resignation or end of the game the replay could not play on from
// (notation.Game.Replay); it need not be the replay's first problem
// (Replay.Err), which may be a capture mismatch that stopped nothing.
func replayStop(r *notation.Replay) (int, *notation.Error) {
	g := r.Game
	stop := -1
	for i, p := range g.Plies {
		if p.Ply.Move != nil && !r.Plies[i].Played {
			stop = i
			break
		}
	}
	if stop < 0 {
		return len(g.Plies), nil
	}
	for i := len(r.Errors) - 1; i >= 0; i-- {
		e := r.Errors[i]
		switch {
		case e.Ply == stop+1 && e.Kind == notation.KindIllegal,
			e.Ply <= stop+1 && (e.Kind == notation.KindSequence || e.Kind == notation.KindAfterEnd):
			return stop, e
		}
	}
	return stop, r.Err()
}

// replayStopError is the error of a command asked for the position after
// more plies than the replay of game g of file name could play (it
// stopped after played plies, for the reason e):
//
//	game 843 of mut.csv can be replayed only to ply 6: mut.csv:843:39: ply 7 (attackers) e11-e10: e10 is occupied
//
// prefix comes first ("--ply 30: " when the ply was asked for). It wraps
// e, for errors.Is(err, notation.ErrIllegal).
func replayStopError(prefix string, g *notation.Game, name string, played int, e *notation.Error) error {
	if e == nil {
		return fmt.Errorf("%sgame %d of %s can be replayed only to ply %d", prefix, g.Number, name, played)
	}
	return fmt.Errorf("%sgame %d of %s can be replayed only to ply %d: %w", prefix, g.Number, name, played, e)
}
