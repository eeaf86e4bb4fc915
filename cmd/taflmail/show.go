package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/clock"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// newShowCommand returns `taflmail show GAME`: one archived game.
func newShowCommand() *cobra.Command {
	var (
		file   string
		format string
	)
	cmd := &cobra.Command{
		Use:   "show GAME [--format ascii|unicode]",
		Short: "Show one game of the archive: players, status, board and moves",
		Long: `show prints one game of the archive (archive.path of the configuration):
its players and status, the board after the last ply — replayed from the
stored plies through the engine, the last ply and its captures marked, as in
the players' mails — whose move it is or how the game ended, and the move
list. GAME is the game id from the mails' subject, e.g. K7QX2M (any case).

Only archive.path is needed: IMAP and SMTP settings may be missing.`,
		Example: `  taflmail show K7QX2M --config taflmail.yaml
  taflmail show k7qx2m --format unicode --archive-path /var/lib/taflmail/taflmail.db`,
		Args:         cobra.ArbitraryArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf(cmd, "want one GAME id, got %s", counted(len(args), "argument", "arguments"))
			}
			var draw func(io.Writer, *engine.Position, ...notation.DiagramOption) error
			switch format {
			case "ascii":
				draw = notation.WriteASCII
			case "unicode":
				draw = notation.WriteUnicode
			default:
				return usageErrorf(cmd, "--format %q: want ascii or unicode", format)
			}
			g, err := loadStoredGame(cmd, file, args[0])
			if err != nil {
				return err
			}
			r, err := g.Replay()
			if err != nil {
				return err
			}
			warnReplay(cmd, g, r)
			return writeShow(cmd.OutOrStdout(), g, r, draw)
		},
	}
	cmd.Flags().StringVar(&format, "format", "ascii", "board diagram: ascii (as in the mails) or unicode")
	addConfigFlags(cmd, &file)
	return cmd
}

// loadStoredGame opens the archive of an operator command and reads one game,
// plies included. An unknown id is an error naming the archive.
func loadStoredGame(cmd *cobra.Command, file, id string) (*archive.Game, error) {
	ctx := cmd.Context()
	store, err := openArchive(ctx, cmd, file)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	g, err := store.Game(ctx, gameIDArg(id))
	if errors.Is(err, archive.ErrNotFound) {
		return nil, fmt.Errorf("no game %s in the archive (taflmail games lists them)", gameIDArg(id))
	}
	if err == nil && g.Event != nil {
		// a tournament's clocks count only the leave its event allows
		for side := range g.Leave {
			g.Leave[side] = clock.LimitLeave(g.Leave[side], g.Event.LeaveDays)
		}
	}
	return g, err
}

// writeShow prints the header, the board, the status and the move list of
// a replayed stored game.
func writeShow(w io.Writer, g *archive.Game, r *notation.Replay, draw func(io.Writer, *engine.Position, ...notation.DiagramOption) error) error {
	v := r.Game.Variant
	var b strings.Builder
	fmt.Fprintf(&b, "Game %s: %s\n", g.ID, v.Title)
	fmt.Fprintf(&b, "Variant:   %s\n", v.Name)
	fmt.Fprintf(&b, "Attackers: %s\n", showPlayer(g, g.Attackers))
	fmt.Fprintf(&b, "Defenders: %s\n", showPlayer(g, g.Defenders))
	fmt.Fprintf(&b, "Status:    %s\n", showStatus(g, r))
	if c := showClock(g, r); c != "" {
		b.WriteString(c)
	}
	fmt.Fprintf(&b, "Created:   %s\n", utcStamp(g.CreatedAt))
	fmt.Fprintf(&b, "Updated:   %s\n\n", utcStamp(g.UpdatedAt))
	if r.Final != nil {
		opts := []notation.DiagramOption{notation.WithoutSideToMove()}
		for i := len(r.Plies) - 1; i >= 0; i-- {
			if p := r.Plies[i]; p.Played {
				opts = append(opts, notation.WithLastMove(p.Move), notation.WithCaptures(p.Captures...))
				break
			}
		}
		if err := draw(&b, r.Final, opts...); err != nil {
			return err
		}
		b.WriteString("\n")
	}
	b.WriteString("Moves:\n")
	b.WriteString(storedMoveList(g.Plies))
	_, err := io.WriteString(w, b.String())
	return err
}

// showPlayer is a player's address, marked when they sent the challenge.
func showPlayer(g *archive.Game, addr string) string {
	if addr == g.Challenger {
		return addr + " (challenger)"
	}
	return addr
}

// showStatus says where the game stands: who is invited, whose move it is
// (and a standing draw offer), or how it ended.
func showStatus(g *archive.Game, r *notation.Replay) string {
	invitee := g.Defenders
	if g.Challenger == g.Defenders {
		invitee = g.Attackers
	}
	switch g.Status {
	case archive.Invited:
		return "invited, waiting for " + invitee + " to accept or decline"
	case archive.Declined:
		switch g.Reason { // the reasons are server/internal/referee's (game.go)
		case "withdrawn":
			return "challenge withdrawn by " + g.Challenger
		case "expired":
			return "challenge expired: " + invitee + " did not answer"
		case "undeliverable":
			return "invitation to " + invitee + " undeliverable"
		}
		return "declined by " + invitee
	case archive.Finished:
		return "finished: " + storedResultWords(g)
	}
	s := string(g.Status)
	if r.Final != nil {
		side := r.Final.ToMove()
		s = fmt.Sprintf("active, move %d, %s to move (%s)", len(g.Plies)/2+1, side, addressOfSide(g, side))
	}
	if g.DrawOfferBy != "" {
		s += "; the " + g.DrawOfferBy + " offer a draw"
	}
	return s
}

// addressOfSide returns the address playing side in g.
func addressOfSide(g *archive.Game, side engine.Side) string {
	if side == engine.Attackers {
		return g.Attackers
	}
	return g.Defenders
}

// storedResultWords says how a finished game ended: "the defenders win (the
// king escaped)".
func storedResultWords(g *archive.Game) string {
	res := "the " + g.Result + " win"
	if g.Result == "draw" {
		res = "a draw"
	}
	loser := "attackers"
	if g.Result == "attackers" {
		loser = "defenders"
	}
	why := map[string]string{
		"escape":        "the king escaped",
		"king captured": "the king was captured",
		"edge fort":     "the king stands in an edge fort",
		"encirclement":  "the attackers encircled the defenders",
		"repetition":    "a position occurred for the third time",
		"no legal move": "the side to move had no legal move",
		"resignation":   "the " + loser + " resigned",
		"timeout":       "the " + loser + " ran out of time",
		"draw agreed":   "both players agreed",
	}[g.Reason]
	switch {
	case why != "":
		return res + " (" + why + ")"
	case g.Reason != "":
		return res + " (" + g.Reason + ")"
	}
	return res
}

// storedMoveList writes stored plies as numbered pairs, as the mails do:
// "   1. h1-h3         d6-d9".
func storedMoveList(ps []archive.Ply) string {
	if len(ps) == 0 {
		return "  (no moves yet)\n"
	}
	var b strings.Builder
	for i, p := range ps {
		if i%2 == 0 {
			fmt.Fprintf(&b, "%4d. %-14s", i/2+1, p.Move)
		} else {
			fmt.Fprintf(&b, "%s\n", p.Move)
		}
	}
	if len(ps)%2 == 1 {
		return strings.TrimRight(b.String(), " ") + "\n"
	}
	return b.String()
}

// warnReplay prints on stderr every way in which a stored game disagrees
// with the engine. The archive holds only plies the referee's engine
// accepted, so any warning means a damaged archive or changed rules.
func warnReplay(cmd *cobra.Command, g *archive.Game, r *notation.Replay) {
	for _, e := range r.Errors {
		fmt.Fprintf(cmd.ErrOrStderr(), "warning: game %s: %v\n", g.ID, e)
	}
}

// showClock writes the clock lines of a timed game (CORRESPONDENCE.md §5,
// read back from its record by package clock): the control, both clocks
// after the last move that counts, the deadline of the side to move while
// the game runs, and the players' leave. "" for an untimed game or one
// not started.
func showClock(g *archive.Game, r *notation.Replay) string {
	v, err := clock.Judge(r, time.Time{})
	if err != nil {
		return fmt.Sprintf("Clock:     %s (unreadable: %v)\n", g.TimeControl, err)
	}
	if v == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Clock:     %s: attackers %s, defenders %s after ply %d", v.Control, notation.FormatDuration(max(v.Left[engine.Attackers], 0)),
		notation.FormatDuration(max(v.Left[engine.Defenders], 0)), v.Plies)
	if d, ok := v.State.Deadline(); ok && g.Status == archive.Active {
		// the deadline is the first late second (CORRESPONDENCE.md §2.6):
		// name the last one in time, as the referee's mails do (docs/clock.md)
		fmt.Fprintf(&b, "; the %s must move no later than %s", v.State.ToMove, d.Add(-time.Second).UTC().Format("2006-01-02 15:04:05 UTC"))
	}
	b.WriteString("\n")
	if c, err := r.Game.Clock(); err == nil && c != nil {
		for side, name := range []string{"attackers", "defenders"} {
			if len(c.Leave[side]) > 0 {
				fmt.Fprintf(&b, "Leave:     %s %s\n", name, notation.FormatLeaves(c.Leave[side]))
			}
		}
	}
	return b.String()
}
