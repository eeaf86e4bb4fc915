package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/notation"
)

// errUnusableRecords is returned when some records could not be used (a
// syntax error, a missing player tag, …); the output for the others has
// been written, and main exits with status 1.
var errUnusableRecords = errors.New("some records could not be used")

// standingsOptions are the flags of `taflmail standings`.
type standingsOptions struct {
	asJSON    bool
	withdrawn []string
}

// newStandingsCommand returns `taflmail standings`.
func newStandingsCommand() *cobra.Command {
	var o standingsOptions
	cmd := &cobra.Command{
		Use:   "standings [--json] [--withdrawn PLAYER]... RECORDS...",
		Short: "Compute the crosstable of tournament games from their records",
		Long: `Compute the standings of every event in the given record files from the
records' Event, Attackers, Defenders and Result tags (CORRESPONDENCE.md
§6.5), so a result can be checked by hand without the archive. Records of
one event may be spread over several files; an event whose games fall into
groups with no game between them (a round robin in groups) gets one table
per group. A record whose game goes on ("*") is a game not yet played.

Scoring: win 1, draw ½, loss 0 per game; a time-out is a loss. Order:
points, Sonneborn–Berger, wins, points among the players still level,
then a shared place ("3–4"). --withdrawn names a player who withdrew
(Decision T3): with fewer than half of their games finished all their
games are annulled, otherwise their unfinished games are lost.

Output: per event (and group) a crosstable of up to 10 players within 72
columns (each cell the match score against that opponent), a ranked list
beyond 10. With --json, one JSON object per event (and group) and line;
docs/tournaments.md lists its fields.

Exit status: 0 when every record could be used; 1 when a file did not
parse, holds no game or is larger than --max-bytes (64 MiB), or a record
lacks a player tag (reported on stderr, the rest is
still computed); 2 on usage errors and unreadable files.`,
		Example: `  taflmail standings winter-cup.tafl
  taflmail standings --json --withdrawn bob@example.org cup/*.tafl`,
		Args:         cobra.ArbitraryArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runStandings(cmd, o, args)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.asJSON, "json", false, "print one JSON object per event (and group) and line")
	f.StringArrayVar(&o.withdrawn, "withdrawn", nil, "a player who withdrew or was removed (repeatable; Decision T3)")
	addMaxBytesFlag(cmd, new(int64), defaultMaxRecordBytes, "record file")
	return cmd
}

// readRecordFiles reads and parses every file as validate does: a file
// that cannot be opened is a usage error and nothing is done; one larger
// than --max-bytes, one that does not parse and one without any game
// ("FILE: no game in the file") are reported on stderr and skipped (bad
// is then true). The files are read one at a time.
func readRecordFiles(cmd *cobra.Command, args []string) (games []*notation.Game, bad bool, err error) {
	if len(args) == 0 {
		return nil, false, usageErrorf(cmd, "no RECORDS file given")
	}
	if err := openAll(cmd, args); err != nil {
		return nil, false, err
	}
	limit := maxBytes(cmd, defaultMaxRecordBytes)
	for _, name := range args {
		src, err := readFileLimited(cmd, name, limit)
		var tl *tooLargeError
		if errors.As(err, &tl) {
			fmt.Fprintln(cmd.ErrOrStderr(), err)
			bad = true
			continue
		}
		if err != nil {
			return nil, false, err
		}
		gs, err := notation.ReadGames(name, src, notation.ReadOptions{})
		switch {
		case err != nil:
			fmt.Fprintln(cmd.ErrOrStderr(), err)
			bad = true
		case len(gs) == 0:
			// an empty file must not pass for an event without games
			fmt.Fprintln(cmd.ErrOrStderr(), noGameError(name))
			bad = true
		}
		games = append(games, gs...)
	}
	return games, bad, nil
}

// reportProblems writes each problem on its own line of stderr.
func reportProblems(w io.Writer, errs []error) {
	for _, e := range errs {
		fmt.Fprintln(w, e)
	}
}

func runStandings(cmd *cobra.Command, o standingsOptions, args []string) error {
	games, bad, err := readRecordFiles(cmd, args)
	if err != nil {
		return err
	}
	secs, errs, err := club.RecordSections(games, o.withdrawn)
	reportProblems(cmd.ErrOrStderr(), errs)
	var np *club.NotAPlayerError
	if errors.As(err, &np) {
		return usageErrorf(cmd, "--withdrawn %q: not a player of any event in the records", np.Player)
	}
	out := cmd.OutOrStdout()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for i := range secs {
		st, err := secs[i].Standings()
		if err != nil {
			return err
		}
		if o.asJSON {
			if err := enc.Encode(st); err != nil {
				return err
			}
			continue
		}
		if i > 0 {
			fmt.Fprintln(out)
		}
		fmt.Fprint(out, st.Text())
	}
	if bad || len(errs) > 0 {
		return errUnusableRecords
	}
	return nil
}
