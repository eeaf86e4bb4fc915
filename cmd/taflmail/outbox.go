package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
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
the configuration), oldest first: id, game, recipient, status, how often
sending was tried (the try that succeeded included), when, and the last
error the SMTP server or the network gave (kept after a later success).

WHEN says, for a pending mail, "next try" and the time of the next attempt,
"due since" a time already past (a running 'taflmail serve' sends it on its
next pass through the outbox, within about a minute), or "waits for mail N"
when an earlier mail of the same game to the same recipients waits for its
retry (a player's mails go out in order), or "being sent since" while a
running daemon hands it to the SMTP server; for a sent mail, when the SMTP
server took it; a failed mail is "given up".

A mail is pending until the SMTP server takes it (sent). A temporary
refusal (4xx, network trouble) is retried with a doubling delay; a
permanent one (5xx), or too many attempts, marks it failed, and 'taflmail
serve' logs it. --retry ID makes a failed (or pending) mail due now: the
running daemon tries it on its next pass. The attempts count on from where
they were, so a mail that had used up its attempts is marked failed again
if that one try is refused too. A mail already sent cannot be queued again.

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
			return writeOutbox(cmd.OutOrStdout(), mails, st, time.Now())
		},
	}
	cmd.Flags().StringVar(&status, "status", "", "list only mails with this status: pending, sent or failed")
	cmd.Flags().Int64Var(&retry, "retry", 0, "make outbox mail ID (failed or pending) due now")
	addConfigFlags(cmd, &file)
	return cmd
}

// writeOutbox prints outbox mails as an aligned table, or a line saying
// there are none. The raw mails are not shown: their subject and thread
// ids carry the players' keys. now decides whether a pending mail is due.
//
// ATTEMPTS counts every try to hand the mail to the SMTP server, the one
// that succeeded included (the archive counts the failed ones). WHEN says
// what happens next or what happened: "next try" at a future time, "due
// since" a past one (the running daemon sends it on its next pass), "waits
// for mail N" when an earlier mail of the same game to the same recipients
// is waiting for its retry (the daemon keeps a player's mails in order),
// "being sent" while a sender holds a claim on it (archive.ClaimOutbox), or
// when it was sent; a failed mail is "given up" (until --retry).
func writeOutbox(w io.Writer, mails []archive.OutboxMail, st archive.OutboxStatus, now time.Time) error {
	if len(mails) == 0 {
		if st != "" {
			_, err := fmt.Fprintf(w, "no %s mails\n", st)
			return err
		}
		_, err := fmt.Fprintln(w, "no mails")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tGAME\tTO\tSTATUS\tATTEMPTS\tWHEN\tLAST ERROR")
	for _, m := range mails {
		game := m.GameID
		if game == "" {
			game = "-"
		}
		attempts := m.Attempts
		if m.Status == archive.Sent {
			attempts++
		}
		lastErr := strings.Join(strings.Fields(m.LastError), " ")
		if lastErr == "" {
			lastErr = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n",
			strconv.FormatInt(m.ID, 10), game, strings.Join(m.To, ", "), m.Status, attempts, outboxWhen(m, mails, now), lastErr)
	}
	return tw.Flush()
}

// outboxWhen is the WHEN column of mail m (see writeOutbox); all is the
// list m is shown in, to find an earlier mail it waits for.
func outboxWhen(m archive.OutboxMail, all []archive.OutboxMail, now time.Time) string {
	switch m.Status {
	case archive.Sent:
		return "sent " + utcStamp(m.SentAt)
	case archive.Failed:
		return "given up"
	}
	if m.ClaimedBy != "" && now.Sub(m.ClaimedAt) < archive.ClaimLease {
		// A sender is handing it to the SMTP server (an older claim is
		// one of a sender that died: the mail is due again).
		return "being sent since " + utcStamp(m.ClaimedAt)
	}
	if m.GameID != "" {
		// The daemon holds a mail back while an earlier pending mail of
		// the same game to the same recipients waits (archive.PendingOutbox).
		for _, e := range all {
			earlier := e.CreatedAt.Before(m.CreatedAt) || e.CreatedAt.Equal(m.CreatedAt) && e.ID < m.ID
			if e.Status == archive.Pending && e.GameID == m.GameID && slices.Equal(e.To, m.To) && e.NextAttempt.After(now) && earlier {
				return fmt.Sprintf("waits for mail %d", e.ID)
			}
		}
	}
	if m.NextAttempt.After(now) {
		return "next try " + utcStamp(m.NextAttempt)
	}
	return "due since " + utcStamp(m.NextAttempt)
}
