package main

import (
	"encoding/json"
	"fmt"
	"math"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/club"
)

// ratingJSON is one line of `taflmail ratings --json`: one player in one
// variant. The field order is the output's key order.
type ratingJSON struct {
	Variant    string  `json:"variant"`
	Player     string  `json:"player"`
	Rating     float64 `json:"rating"`
	RD         float64 `json:"rd"`
	Volatility float64 `json:"volatility"`
	Games      int     `json:"games"`
	LastGame   string  `json:"last_game"`
}

// newRatingsCommand returns `taflmail ratings`.
func newRatingsCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "ratings [--json] RECORDS...",
		Short: "Rate the finished games of record files with Glicko-2",
		Long: `Rate every finished game of the given record files with Glicko-2
(CORRESPONDENCE.md §7) and print each player's rating per variant.

Games are rated one at a time in the order they ended (records that ended
together in the order of the files and records given): a game ends at its
last ply's arrival time (the %ts of a timed record), else at 00:00 UTC of
its Date tag. Each game is one rating period for each of its two
players, both computed from the ratings before it; both sides count the
same. Before a game a player's RD grows once for each full 30 days since
their previous game in the variant, never above 350. New players start at
1500, RD 350, volatility 0.06.

Output: one line per player and variant, by variant and then rating:
variant, player, rating, RD, volatility, games rated. The RD is the one
after the player's last game. With --json one JSON object per line:
  {"variant":…,"player":…,"rating":R,"rd":RD,"volatility":σ,"games":N,
   "last_game":"2027-01-10T00:00:00Z"}

Exit status: 0 when every finished game could be rated; 1 when a file did
not parse, holds no game or is larger than --max-bytes (64 MiB), or a
finished game lacks a player or a full Date (reported on
stderr, the rest is still rated); 2 on usage errors and unreadable files.`,
		Example: `  taflmail ratings games/*.tafl
  taflmail ratings --json ladder.tafl`,
		Args:         cobra.ArbitraryArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRatings(cmd, asJSON, args)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per player, variant and line")
	addMaxBytesFlag(cmd, new(int64), defaultMaxRecordBytes, "record file")
	return cmd
}

func runRatings(cmd *cobra.Command, asJSON bool, args []string) error {
	games, bad, err := readRecordFiles(cmd, args)
	if err != nil {
		return err
	}
	rs, errs := club.RateRecords(games)
	reportProblems(cmd.ErrOrStderr(), errs)
	all := rs.All()
	out := cmd.OutOrStdout()
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetEscapeHTML(false)
		for _, p := range all {
			j := ratingJSON{
				Variant: p.Variant, Player: p.Player, Rating: round(p.Rating.R, 2), RD: round(p.Rating.RD, 2),
				Volatility: round(p.Rating.Volatility, 6), Games: p.Games, LastGame: p.Last.UTC().Format(time.RFC3339),
			}
			if err := enc.Encode(j); err != nil {
				return err
			}
		}
	} else if len(all) > 0 {
		vw, pw := len("Variant"), len("Player")
		for _, p := range all {
			vw = max(vw, utf8.RuneCountInString(p.Variant))
			pw = max(pw, utf8.RuneCountInString(p.Player))
		}
		fmt.Fprintf(out, "%s  %s  %7s  %6s  %10s  %5s\n", padRight("Variant", vw), padRight("Player", pw), "Rating", "RD", "Volatility", "Games")
		for _, p := range all {
			fmt.Fprintf(out, "%s  %s  %7.1f  %6.1f  %10.6f  %5d\n", padRight(p.Variant, vw), padRight(p.Player, pw),
				p.Rating.R, p.Rating.RD, p.Rating.Volatility, p.Games)
		}
	}
	if bad || len(errs) > 0 {
		return errUnusableRecords
	}
	return nil
}

// padRight pads s with spaces to w runes.
func padRight(s string, w int) string {
	for n := utf8.RuneCountInString(s); n < w; n++ {
		s += " "
	}
	return s
}

// round rounds x to d decimal places, for JSON that reads like the text.
func round(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}
