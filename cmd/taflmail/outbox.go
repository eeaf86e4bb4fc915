package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/archive"
)

// newOutboxCommand returns `taflmail outbox`: the mails the referee sends,
// and a way to send a failed one again.
func newOutboxCommand() *cobra.Command {
	var (
		file   string
		status string
		retry  int64
	)
	cmd := &cobra.Command{
		Use:   "outbox [--status pending|sent|failed] [--retry ID]",
		Short: "List the outgoing mails, or queue a failed one again",
		Long: `outbox lists the mails the referee queued in the archive (archive.path of
the configuration), oldest first: id, game, recipient, status, sending
attempts, when the next attempt is due (pending mails), and the last error
the SMTP server or the network gave.

A mail is pending until the SMTP server takes it (sent). A temporary
refusal (4xx, network trouble) is retried with a doubling delay; a
permanent one (5xx), or too many attempts, marks it failed, and 'taflmail
serve' logs it. --retry ID makes a failed (or pending) mail due now: the
running daemon sends it on its next pass through the outbox, within about
a minute. A mail already sent cannot be queued again.

Only archive.path is needed: IMAP and SMTP settings may be missing.`,
		Example: `  taflmail outbox --config taflmail.yaml --status failed
  taflmail outbox --config taflmail.yaml --retry 42`,
		Args:         noArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			retrying := cmd.Flags().Changed("retry")
			st := archive.OutboxStatus(status)
			switch {
			case st != "" && !st.Valid():
				return usageErrorf(cmd, "--status %q: want pending, sent or failed", status)
			case retrying && st != "":
				return usageErrorf(cmd, "--retry and --status do not go together")
			case retrying && retry < 1:
				return usageErrorf(cmd, "--retry %d: want the id of an outbox mail (taflmail outbox lists them)", retry)
			}
			ctx := cmd.Context()
			store, err := openArchive(ctx, cmd, file)
			if err != nil {
				return err
			}
			defer store.Close()
			if retrying {
				err := store.Requeue(ctx, retry, time.Now())
				switch {
				case errors.Is(err, archive.ErrNotFound):
					return fmt.Errorf("no outbox mail %d (taflmail outbox lists them)", retry)
				case errors.Is(err, archive.ErrConflict):
					return fmt.Errorf("outbox mail %d was sent already; it is not sent twice", retry)
				case err != nil:
					return err
				}
				_, err = fmt.Fprintf(cmd.OutOrStdout(), "outbox mail %d is due again; a running taflmail serve sends it on its next pass\n", retry)
				return err
			}
			mails, err := store.Outbox(ctx, st)
			if err != nil {
				return err
			}
			return writeOutbox(cmd.OutOrStdout(), mails, st)
		},
	}
	cmd.Flags().StringVar(&status, "status", "", "list only mails with this status: pending, sent or failed")
	cmd.Flags().Int64Var(&retry, "retry", 0, "make outbox mail ID (failed or pending) due now")
	addConfigFlags(cmd, &file)
	return cmd
}

// writeOutbox prints outbox mails as an aligned table, or a line saying
// there are none. The raw mails are not shown: their subject and thread
// ids carry the players' keys.
func writeOutbox(w io.Writer, mails []archive.OutboxMail, st archive.OutboxStatus) error {
	if len(mails) == 0 {
		if st != "" {
			_, err := fmt.Fprintf(w, "no %s mails\n", st)
			return err
		}
		_, err := fmt.Fprintln(w, "no mails")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tGAME\tTO\tSTATUS\tATTEMPTS\tNEXT ATTEMPT\tLAST ERROR")
	for _, m := range mails {
		game := m.GameID
		if game == "" {
			game = "-"
		}
		next := "-"
		if m.Status == archive.Pending {
			next = utcStamp(m.NextAttempt)
		}
		lastErr := strings.Join(strings.Fields(m.LastError), " ")
		if lastErr == "" {
			lastErr = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n",
			strconv.FormatInt(m.ID, 10), game, strings.Join(m.To, ", "), m.Status, m.Attempts, next, lastErr)
	}
	return tw.Flush()
}
