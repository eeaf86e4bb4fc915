package main

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/archive"
)

// newMailsCommand returns `taflmail mails`: the mails the referee handled,
// what it did with each and why, so an operator can answer a player who
// asks "where is my move?".
func newMailsCommand() *cobra.Command {
	var (
		file        string
		ignored     bool
		disposition string
		from, game  string
		since       time.Duration
		limit       int
		asJSON      bool
	)
	cmd := &cobra.Command{
		Use:   "mails [--ignored] [--from ADDRESS] [--game ID] [--since DURATION] [--limit N] [--json]",
		Short: "List the mails the referee handled, and why any went unanswered",
		Long: `mails lists the incoming mails recorded in the archive (archive.path of the
configuration), newest first: when the referee handled each, its sender,
the game it named, what the referee did (applied, refused, ignored, error),
whether it carried the sender's key for that game (auth), how many replies
it caused, and, for a mail that was not answered, why (a bounce, an
auto-reply, a reply budget that was spent, …). Keys in subjects are shown
as "…".

--ignored lists only the mails that got no answer at all. A mail that
carries a player's valid key is never ignored for a budget: if a player's
move is missing, look for the mail here by --from and --game.

Only archive.path is needed: IMAP and SMTP settings may be missing.`,
		Example: `  taflmail mails --config taflmail.yaml --ignored --since 24h
  taflmail mails --config taflmail.yaml --from bob@example.org --game K7QX2M`,
		Args:         noArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if ignored {
				if disposition != "" && disposition != "ignored" {
					return usageErrorf(cmd, "--ignored and --disposition %s do not go together", disposition)
				}
				disposition = "ignored"
			}
			switch disposition {
			case "", "applied", "refused", "ignored", "error":
			default:
				return usageErrorf(cmd, "--disposition %q: want applied, refused, ignored or error", disposition)
			}
			if since < 0 || limit < 0 {
				return usageErrorf(cmd, "--since and --limit must not be negative")
			}
			f := archive.MailFilter{From: from, GameID: gameIDArg(game), Disposition: disposition, Limit: limit}
			if since > 0 {
				f.Since = time.Now().Add(-since)
			}
			ctx := cmd.Context()
			store, err := openArchive(ctx, cmd, file)
			if err != nil {
				return err
			}
			defer store.Close()
			mails, err := store.Mails(ctx, f)
			if err != nil {
				return err
			}
			for i := range mails {
				mails[i].Subject = hideKeys(mails[i].Subject)
			}
			if asJSON {
				return writeMailsJSON(cmd.OutOrStdout(), mails)
			}
			return writeMails(cmd.OutOrStdout(), mails)
		},
	}
	cmd.Flags().BoolVar(&ignored, "ignored", false, "list only the mails that got no answer")
	cmd.Flags().StringVar(&disposition, "disposition", "", "list only mails with this outcome: applied, refused, ignored or error")
	cmd.Flags().StringVar(&from, "from", "", "list only mails from this address")
	cmd.Flags().StringVar(&game, "game", "", "list only mails that named this game")
	cmd.Flags().DurationVar(&since, "since", 0, "list only mails handled in this last span, e.g. 24h")
	cmd.Flags().IntVar(&limit, "limit", 0, "list at most this many mails (0: all)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per line")
	addConfigFlags(cmd, &file)
	return cmd
}

// keyInTag finds the player key of a "[taflmail K7QX2M 3f9k2m7q4d]" tag.
var keyInTag = regexp.MustCompile(`(?i)(\[taflmail\s+[0-9a-z]{6})\s+[0-9a-z]{10}\]`)

// hideKeys replaces the keys in a subject's game tags by "…": the listing
// may be shown to someone who must not move for the player.
func hideKeys(subject string) string { return keyInTag.ReplaceAllString(subject, "$1 …]") }

// writeMails prints processed mails as an aligned table.
func writeMails(w io.Writer, mails []archive.ProcessedMail) error {
	if len(mails) == 0 {
		_, err := fmt.Fprintln(w, "no mails")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "HANDLED\tFROM\tGAME\tOUTCOME\tAUTH\tREPLIES\tSUBJECT\tWHY")
	for _, m := range mails {
		auth := "no"
		if m.Authenticated {
			auth = "key"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", utcStamp(m.At), m.From, orDash(m.GameID), m.Disposition, auth,
			m.Replies, orDash(clip(oneLine(m.Subject), 40)), orDash(oneLine(m.Reason)))
	}
	return tw.Flush()
}

// mailJSON is one line of `taflmail mails --json`.
type mailJSON struct {
	MessageID     string    `json:"message_id"`
	Handled       time.Time `json:"handled"`
	From          string    `json:"from"`
	Game          string    `json:"game,omitempty"`
	Outcome       string    `json:"outcome"`
	Authenticated bool      `json:"authenticated"`
	Replies       int       `json:"replies"`
	Subject       string    `json:"subject"`
	Why           string    `json:"why,omitempty"`
}

func writeMailsJSON(w io.Writer, mails []archive.ProcessedMail) error {
	enc := json.NewEncoder(w)
	for _, m := range mails {
		if err := enc.Encode(mailJSON{MessageID: m.MessageID, Handled: m.At.UTC(), From: m.From, Game: m.GameID,
			Outcome: m.Disposition, Authenticated: m.Authenticated, Replies: m.Replies, Subject: m.Subject, Why: m.Reason}); err != nil {
			return err
		}
	}
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// oneLine folds white space, so a hostile subject cannot break the table.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip shortens s to n runes, marking the cut with "…".
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
