package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/clock"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/notation"
)

// validateJSON is one line of `taflmail validate --json`: one game. The
// field order is the output's key order (issue 3).
type validateJSON struct {
	File          string      `json:"file"`
	Game          int         `json:"game"`
	Variant       string      `json:"variant"`
	Plies         int         `json:"plies"`
	Legal         bool        `json:"legal"`
	Error         *errorJSON  `json:"error"`
	CapturesMatch bool        `json:"captures_match"`
	Outcome       outcomeJSON `json:"outcome"`
	RecordResult  *recordJSON `json:"record_result"`
	// Clock is present only for a timed record with clock data
	// (CORRESPONDENCE.md §5).
	Clock *clockJSON `json:"clock,omitempty"`
}

// clockJSON is both clocks at the last ply that counts, in whole seconds.
type clockJSON struct {
	Control        string `json:"control"`
	AttackersLeftS int64  `json:"attackers_left_s"`
	DefendersLeftS int64  `json:"defenders_left_s"`
}

// errorJSON is a game's first problem.
type errorJSON struct {
	Ply     int    `json:"ply"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Move    string `json:"move"`
	Message string `json:"message"`
}

// outcomeJSON is the engine's verdict.
type outcomeJSON struct {
	Winner *string `json:"winner"`
	Reason *string `json:"reason"`
	Ply    int     `json:"ply"`
}

// recordJSON is the result the record gives.
type recordJSON struct {
	Winner *string `json:"winner"`
	Reason *string `json:"reason"`
}

// validateOptions are the flags of `taflmail validate`.
type validateOptions struct {
	variant string
	format  string
	asJSON  bool
	at      string // --at: the moment to judge the pending ply of a timed record
	max     int64  // --max-bytes: the largest file read
}

// errInvalidGames is returned when some game is not right; main reports
// it with exit status 1 after the output.
var errInvalidGames = errors.New("some games have errors")

// newValidateCommand returns `taflmail validate`.
func newValidateCommand() *cobra.Command {
	var o validateOptions
	cmd := &cobra.Command{
		Use:   "validate [--variant NAME] [--format auto|native|otg|csv] [--json] [--at TIME] FILE...",
		Short: "Replay game records and check them against the rules",
		Long: `Replay every game of the given files through the engine and check it: every
ply legal in turn, nothing played after the rules end the game, move numbers
in sequence, capture marks equal to what the engine captures, and the
record's result against the engine's (RULES.md §4).

Formats: taflmail's native records, OpenTafl records (.otg, replayed under
their own rules tag, main line only) and CSV game lists; --format auto
decides by extension and content, and when a file it chose for does not
parse, a line after the syntax error names the format it was read as and
the --format that reads it otherwise. --variant names the rules of games
whose record names none (CSV files, native records without Variant or
Rules tag); without it a file named after a variant (brandubh.csv) is read
as that one, anything else as copenhagen.

Output: one line per problem,
  file:line:col: ply 23 (attackers) d4-d8: path blocked at d6
and one line per game lost on time (timed records, below),
  file:line:col: game 1: the attackers lost on time after ply 6 (deadline 2026-11-10T00:00:01Z)
then one summary line per file (and a total for several files). With
--json, one JSON object per game and line instead:
  {"file":…,"game":N,"variant":…,"plies":N,"legal":bool,
   "error":null|{"ply":N,"line":N,"col":N,"move":"…","message":"…"},
   "captures_match":bool,
   "outcome":{"winner":"attackers"|"defenders"|"draw"|null,"reason":…,"ply":N},
   "record_result":{"winner":…,"reason":…}|null,
   "clock":{"control":"30d+1d","attackers_left_s":N,"defenders_left_s":N}}
"game" is the game's number in its file (for CSV its line number), "plies"
the number of moves in the record, "outcome" the engine's verdict (winner
null when the rules did not end the game: it runs on, or ended by
resignation, time-out or agreement, which "record_result" gives; "ply" is
where the rules ended it, else the last ply played), "record_result" what
the record says (null when it gives no result). With --json, stdout holds
only these lines: a file's syntax error and "FILE: no game in the file" for
a file without any game go to stderr.

Timed records (CORRESPONDENCE.md §5: a TimeControl tag, a Start tag and a
[%ts …] arrival time on every ply) are also checked against the clock:
"clock" gives the control and both remaining times in seconds at the last
ply that counts (untimed records have no "clock" field). A ply that
arrived at or after its deadline ends the game on time: "outcome" is
{"winner":…,"reason":"time","ply":N}, N the last ply before the deadline
(0 if the first mover never moved in time), and later plies are reported
as played after the end. --at TIME (RFC 3339, e.g. 2026-12-31T00:00:00Z)
also judges the pending ply against that moment; the clocks are still
reported at the last ply.

Files larger than --max-bytes (64 MiB) are refused unread, each on its
own: the others are still validated.

Exit status: 0 when every game is right, 1 when any game has an error, a
file does not parse, holds no game or is larger than --max-bytes, 2 on
usage errors and unreadable files.`,
		Example: `  taflmail validate ../shared/records/brandubh.csv
  taflmail validate --json ../shared/records/otg/*.otg
  taflmail validate --variant brandubh --format csv games.txt
  taflmail validate --json --at 2026-12-31T00:00:00Z timed-game.tafl`,
		Args:         cobra.ArbitraryArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runValidate(cmd, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.variant, "variant", "", "rules for games whose record names none (default: from the file name, else copenhagen)")
	f.StringVar(&o.format, "format", "auto", "record format: auto, native, otg or csv")
	f.BoolVar(&o.asJSON, "json", false, "print one JSON object per game and line")
	f.StringVar(&o.at, "at", "", "judge the pending ply of timed records at this moment (RFC 3339, e.g. 2026-12-31T00:00:00Z)")
	addMaxBytesFlag(cmd, &o.max, defaultMaxRecordBytes, "file")
	return cmd
}

// fileTally counts a file's games by verdict.
type fileTally struct {
	games, legal, illegal, captures, results int
}

func (t *fileTally) add(u fileTally) {
	t.games += u.games
	t.legal += u.legal
	t.illegal += u.illegal
	t.captures += u.captures
	t.results += u.results
}

// runValidate carries out 'taflmail validate' on the files args: it
// checks the options, opens every file, then validates each in turn,
// printing its games (or JSON lines when o.asJSON) and its tally, and
// the total when there are several files. A missing file or a bad option
// is a usage error before anything is validated; otherwise it returns
// the verdict of validateRun.err.
func runValidate(cmd *cobra.Command, o validateOptions, args []string) error {
	if len(args) == 0 {
		return usageErrorf(cmd, "no FILE given")
	}
	ropts, err := readOptions(cmd, o.format, o.variant)
	if err != nil {
		return err
	}
	var at time.Time
	if o.at != "" {
		if at, err = time.Parse(time.RFC3339, o.at); err != nil {
			return usageErrorf(cmd, "--at %q: want a moment such as 2026-12-31T00:00:00Z", o.at)
		}
	}
	// Open every file first: a file that is not there is an error of the
	// command line (exit status 2), and nothing is validated. Then each
	// is read in turn, so only one is held at a time.
	if err := openAll(cmd, args); err != nil {
		return err
	}
	var run validateRun
	for _, name := range args {
		if err := run.file(cmd, o, ropts, at, name); err != nil {
			return err
		}
	}
	if !o.asJSON && len(args) > 1 {
		printTally(cmd.OutOrStdout(), "total", run.total, len(run.unparsed)+len(run.large)+len(run.empty))
	}
	return run.err(o.asJSON)
}

// validateRun is what runValidate gathers over its files: the tally of
// the files read, whether any game was bad, and the files without a game
// to validate (a syntax error, larger than --max-bytes, no game).
type validateRun struct {
	total                  fileTally
	bad                    bool
	unparsed, large, empty []string
}

// file validates the file name with ropts at at and prints what it
// finds to the command's output (the games and, without --json, its
// tally). A file too large, that does not parse or that holds no game is
// named on stderr or stdout and noted in r; the error returned is only
// a failure to read the file or to write the output.
func (r *validateRun) file(cmd *cobra.Command, o validateOptions, ropts notation.ReadOptions, at time.Time, name string) error {
	out := cmd.OutOrStdout()
	src, err := readFileLimited(cmd, name, o.max)
	var tl *tooLargeError
	if errors.As(err, &tl) {
		fmt.Fprintln(cmd.ErrOrStderr(), err)
		r.large = append(r.large, name)
		if !o.asJSON {
			fmt.Fprintf(out, "%s: not read: larger than --max-bytes (above)\n", name)
		}
		return nil
	}
	if err != nil {
		return err
	}
	// The games are read one at a time (ScanGames: a long CSV file in
	// a few kilobytes); what they print waits in buf until the whole
	// file has been read, so that a file with a syntax error prints
	// only the error, as before.
	var buf bytes.Buffer
	t, fileBad, err := validateFile(&buf, name, src, ropts, at, o.asJSON)
	if err != nil {
		fmt.Fprintln(cmd.ErrOrStderr(), withFormatNote(err, name, src, ropts.Format))
		r.unparsed = append(r.unparsed, name)
		if !o.asJSON {
			fmt.Fprintf(out, "%s: not read: a syntax error (above)\n", name)
		}
		return nil
	}
	if t.games == 0 {
		// A file that lost its contents must not pass for a good one
		// (trial report §10). With --json it is named on stderr, as
		// a syntax error is: stdout holds only JSON lines.
		r.empty = append(r.empty, name)
		if o.asJSON {
			fmt.Fprintln(cmd.ErrOrStderr(), noGameError(name))
		} else {
			fmt.Fprintln(out, noGameError(name))
		}
		return nil
	}
	if _, err := out.Write(buf.Bytes()); err != nil {
		return err
	}
	r.bad = r.bad || fileBad
	r.total.add(t)
	if !o.asJSON {
		printTally(out, name, t, 0)
	}
	return nil
}

// err is the verdict of a validation run, the first that applies:
// errInvalidGames when a game was bad, then an error for files that do
// not parse, that are too large, or that hold no game (naming them,
// except with --json, where each was named on stderr); nil when every
// game of every file is good.
func (r *validateRun) err(asJSON bool) error {
	switch {
	case r.bad:
		return errInvalidGames
	case len(r.unparsed) > 0:
		return errors.New("some files do not parse")
	case len(r.large) > 0:
		return errors.New("some files are larger than --max-bytes")
	case len(r.empty) > 0 && asJSON:
		return errors.New("some files hold no game") // each named above
	case len(r.empty) > 0:
		return noGameError(strings.Join(r.empty, ", "))
	}
	return nil
}

// validateFile replays every game of one file, writing to w what
// validate prints of each (its errors and time-outs, or its --json line),
// and returns the file's tally and whether any game has errors. The error
// is the file's syntax error.
func validateFile(w io.Writer, name string, src []byte, ropts notation.ReadOptions, at time.Time, asJSON bool) (t fileTally, bad bool, err error) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	err = notation.ScanGames(name, src, ropts, func(g *notation.Game) error {
		r := g.Replay()
		verdict := judgeClock(r, at)
		t.games++
		switch {
		case !r.Legal:
			t.illegal++
		default:
			t.legal++
		}
		for _, e := range r.Errors {
			switch e.Kind {
			case notation.KindCaptures:
				t.captures++
			case notation.KindResult:
				t.results++
			}
		}
		if len(r.Errors) > 0 {
			bad = true
		}
		if asJSON {
			return enc.Encode(gameJSON(name, g, r, verdict))
		}
		for _, e := range r.Errors {
			fmt.Fprintln(w, e)
		}
		if verdict != nil && verdict.Timeout != nil && r.End.Reason == engine.ReasonTimeout {
			to := verdict.Timeout
			fmt.Fprintf(w, "%s:%d:%d: game %d: the %s lost on time after ply %d (deadline %s)\n",
				name, g.Line, g.Col, g.Number, to.Side, to.Ply, notation.FormatInstant(to.Deadline))
		}
		return nil
	})
	return t, bad, err
}

// noGameError is the error of a file that holds no game record (empty,
// or only blank lines): "FILE: no game in the file", the same words in
// every command that reads records (trial report §10, trial 2 report §14).
func noGameError(name string) error {
	return fmt.Errorf("%s: no game in the file", name)
}

// readError is the error of a file that cannot be read, in words: exit
// status 2, but no hint to read --help, since the command line was right.
func readError(cmd *cobra.Command, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = fmt.Errorf("cannot read %s: %w", pe.Path, pe.Err)
	}
	return &usageError{path: cmd.CommandPath(), err: err, noHint: true}
}

// printTally writes a summary line; gameless counts the files without a
// game (not parsed, or empty), for the total.
func printTally(w io.Writer, name string, t fileTally, gameless int) {
	fmt.Fprintf(w, "%s: %s, %d legal, %d illegal, %s, %s", name, counted(t.games, "game", "games"), t.legal, t.illegal,
		counted(t.captures, "capture mismatch", "capture mismatches"), counted(t.results, "result mismatch", "result mismatches"))
	switch gameless {
	case 0:
	case 1:
		fmt.Fprint(w, "; 1 file without games")
	default:
		fmt.Fprintf(w, "; %d files without games", gameless)
	}
	fmt.Fprintln(w)
}

// readOptions turns --format and --variant into notation.ReadOptions.
func readOptions(cmd *cobra.Command, format, variant string) (notation.ReadOptions, error) {
	var ro notation.ReadOptions
	f, err := notation.ParseFormat(format)
	if err != nil {
		return ro, usageErrorf(cmd, "--format %q: want auto, native, otg or csv", format)
	}
	ro.Format = f
	if variant != "" {
		v, ok := engine.Lookup(variant)
		if !ok {
			hint := ""
			if near := notation.NearestVariant(variant); near != "" {
				hint = "; did you mean " + near + "?"
			}
			return ro, usageErrorf(cmd, "unknown variant %q%s (see taflmail variants)", variant, hint)
		}
		ro.Variant = v
	}
	return ro, nil
}

// judgeClock applies the clocks of a timed record to its replay
// (CORRESPONDENCE.md §5): a time-out becomes the game's end, the record's
// claim of a time-out the clocks do not show an error. It returns the
// verdict, nil for records without clock data (their clock errors are
// already among the replay's errors).
func judgeClock(r *notation.Replay, at time.Time) *clock.Verdict {
	v, err := clock.Judge(r, at)
	if err != nil || v == nil {
		return nil
	}
	if v.Timeout != nil {
		r.SetTimeout(v.Timeout.Side, v.Timeout.Ply, !v.Pending)
	}
	if v.Claim != nil {
		r.Errors = append(r.Errors, v.Claim)
	}
	return v
}

// gameJSON builds the --json object of one replayed game; v is its clock
// verdict, nil for an untimed record.
func gameJSON(file string, g *notation.Game, r *notation.Replay, v *clock.Verdict) validateJSON {
	j := validateJSON{
		File: file, Game: g.Number, Variant: g.VariantName, Plies: g.Moves(),
		Legal: r.Legal, CapturesMatch: r.CapturesMatch,
	}
	if e := r.Err(); e != nil {
		j.Error = &errorJSON{Ply: e.Ply, Line: e.Line, Col: e.Col, Move: e.Move, Message: e.Message}
	}
	if r.End.Over() {
		reason := r.End.Reason.String()
		if r.End.Reason == engine.ReasonTimeout {
			reason = "time" // CORRESPONDENCE.md §5
		}
		j.Outcome = outcomeJSON{Winner: str(r.End.Result.String()), Reason: str(reason), Ply: r.End.Ply}
	} else {
		played := 0
		for _, p := range r.Plies {
			if p.Played {
				played++
			}
		}
		j.Outcome.Ply = played
	}
	if g.Result != grammar.Unfinished {
		j.RecordResult = &recordJSON{Winner: str(recordWinner(g.Result)), Reason: reasonOf(g.Termination)}
	}
	if v != nil {
		j.Clock = &clockJSON{Control: v.Control.String(),
			AttackersLeftS: int64(v.Left[engine.Attackers] / time.Second), DefendersLeftS: int64(v.Left[engine.Defenders] / time.Second)}
	}
	return j
}

func str(s string) *string { return &s }

// recordWinner names a record's result as the JSON does.
func recordWinner(o grammar.Outcome) string {
	switch o {
	case grammar.AttackersWin:
		return "attackers"
	case grammar.DefendersWin:
		return "defenders"
	}
	return "draw"
}

// reasonOf turns a native Termination value into the engine's words for
// the reason (engine.Reason.String), or nil when the record gives none.
func reasonOf(term string) *string {
	switch term {
	case "":
		return nil
	case "king escaped":
		return str(engine.ReasonEscape.String())
	case "agreement":
		return str(engine.ReasonDrawAgreed.String())
	}
	return str(term)
}
