package main

import (
	"context"
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
// and a way to send failed ones again.
func newOutboxCommand() *cobra.Command {
	var (
		file   string
		status string
		retry  idList
		all    bool
	)
	cmd := &cobra.Command{
		Use:   "outbox [--status pending|sent|failed] [--retry ID... | --retry --all]",
		Short: "List the outgoing mails, or queue failed ones again",
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
refusal (4xx, network trouble, a rejected log-in) is retried with a
doubling delay; a permanent one (5xx), or too many attempts, marks it
failed, and 'taflmail serve' logs it. --retry ID makes a failed (or
pending) mail due now: the running daemon tries it on its next pass, and
a daemon that starts sends it at once. --retry takes several ids (--retry
41 42 48, or --retry=41,42,48), and --retry --all makes every failed mail
due again, after the cause is fixed (a wrong password, a relay that
refused everything). The attempts count on from where they were, so a
mail that had used up its attempts is marked failed again if that one try
is refused too. A mail already sent cannot be queued again.

Only archive.path is needed: IMAP and SMTP settings may be missing.`,
		Example: `  taflmail outbox --config taflmail.yaml --status failed
  taflmail outbox --config taflmail.yaml --retry 42
  taflmail outbox --config taflmail.yaml --retry 41 42 48
  taflmail outbox --config taflmail.yaml --retry --all`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 && !cmd.Flags().Changed("retry") {
				return usageErrorf(cmd, "unexpected argument %q: ids go after --retry", args[0])
			}
			return nil
		},
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			retrying := cmd.Flags().Changed("retry")
			st := archive.OutboxStatus(status)
			ids, err := outboxArgs(cmd, st, retrying, all, retry.ids, args)
			if err != nil {
				return err
			}
			return runOutbox(cmd, file, st, retrying, all, ids)
		},
	}
	cmd.Flags().StringVar(&status, "status", "", "list only mails with this status: pending, sent or failed")
	cmd.Flags().Var(&retry, "retry", "make the outbox mails with these ids (failed or pending) due now: --retry 41 42, --retry=41,42, or --retry --all")
	cmd.Flags().Lookup("retry").NoOptDefVal = " " // ids may follow as arguments
	cmd.Flags().BoolVar(&all, "all", false, "with --retry: every failed mail")
	addConfigFlags(cmd, &file)
	return cmd
}

// outboxArgs checks the flags and arguments of 'taflmail outbox': st a
// known status or none, --status and --all each without the other mode,
// and the ids (those of --retry, then the arguments args) whole numbers
// of at least 1, none with --retry --all and some with --retry alone. It
// returns the ids; every error is a usage error, in that order of checks.
func outboxArgs(cmd *cobra.Command, st archive.OutboxStatus, retrying, all bool, flagIDs []int64, args []string) ([]int64, error) {
	switch {
	case st != "" && !st.Valid():
		return nil, usageErrorf(cmd, "--status %q: want pending, sent or failed", string(st))
	case retrying && st != "":
		return nil, usageErrorf(cmd, "--retry and --status do not go together")
	case all && !retrying:
		return nil, usageErrorf(cmd, "--all goes with --retry: --retry --all makes every failed mail due again")
	}
	ids := flagIDs
	for _, a := range args {
		id, err := strconv.ParseInt(a, 10, 64)
		if err != nil {
			return nil, usageErrorf(cmd, "--retry %q: not a whole number", a)
		}
		ids = append(ids, id)
	}
	for _, id := range ids {
		if id < 1 {
			return nil, usageErrorf(cmd, "--retry %d: want the id of an outbox mail (taflmail outbox lists them)", id)
		}
	}
	switch {
	case retrying && all && len(ids) > 0:
		return nil, usageErrorf(cmd, "--retry --all takes no ids: it queues every failed mail")
	case retrying && !all && len(ids) == 0:
		return nil, usageErrorf(cmd, "--retry wants the ids of outbox mails (taflmail outbox lists them), or --all")
	}
	return ids, nil
}

// runOutbox carries out 'taflmail outbox' on the archive of the
// configuration file: without retrying it lists the mails of status st
// (all for ""); with it, it queues the mails ids again, or with all every
// failed mail (saying so when there is none). It fails when the archive
// or the output does, or as requeue does.
func runOutbox(cmd *cobra.Command, file string, st archive.OutboxStatus, retrying, all bool, ids []int64) error {
	ctx := cmd.Context()
	store, err := openArchive(ctx, cmd, file)
	if err != nil {
		return err
	}
	defer store.Close()
	if !retrying {
		mails, err := store.Outbox(ctx, st)
		if err != nil {
			return err
		}
		return writeOutbox(cmd.OutOrStdout(), mails, st, time.Now())
	}
	if all {
		failed, err := store.Outbox(ctx, archive.Failed)
		if err != nil {
			return err
		}
		if len(failed) == 0 {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), "no failed outbox mails")
			return err
		}
		for _, m := range failed {
			ids = append(ids, m.ID)
		}
	}
	return requeue(ctx, cmd.OutOrStdout(), store, ids, all)
}

// requeue makes the outbox mails ids due now, saying so for each on w;
// every id is tried, and the failures are returned together. With all, the
// ids are every failed mail, and one line sums them up.
func requeue(ctx context.Context, w io.Writer, store *archive.Store, ids []int64, all bool) error {
	var errs []error
	var done []string
	for _, id := range ids {
		err := store.Requeue(ctx, id, time.Now())
		switch {
		case errors.Is(err, archive.ErrNotFound):
			errs = append(errs, fmt.Errorf("no outbox mail %d (taflmail outbox lists them)", id))
		case errors.Is(err, archive.ErrConflict):
			errs = append(errs, fmt.Errorf("outbox mail %d was sent already; it is not sent twice", id))
		case err != nil:
			errs = append(errs, err)
		case all:
			done = append(done, strconv.FormatInt(id, 10))
		default:
			if _, err := fmt.Fprintf(w, "outbox mail %d is due again; a running taflmail serve sends it on its next pass\n", id); err != nil {
				return err
			}
		}
	}
	if all && len(done) > 0 {
		if _, err := fmt.Fprintf(w, "%d failed outbox %s due again (%s); a running taflmail serve sends them on its next pass\n",
			len(done), plural(len(done), "mail is", "mails are"), strings.Join(done, ", ")); err != nil {
			return err
		}
	}
	return errors.Join(errs...)
}

// idList is the value of --retry: outbox ids, as --retry=41,42; the flag
// takes no value without "=" (NoOptDefVal), so that ids may also follow it
// as arguments (--retry 41 42), and --retry --all reads as it should.
type idList struct{ ids []int64 }

// String implements pflag.Value.
func (l *idList) String() string {
	s := make([]string, len(l.ids))
	for i, id := range l.ids {
		s[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(s, ",")
}

// Set implements pflag.Value: a comma-separated list of whole numbers,
// or nothing (the flag given alone).
func (l *idList) Set(v string) error {
	for part := range strings.SplitSeq(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		id, err := strconv.ParseInt(part, 10, 64)
		if err != nil {
			return fmt.Errorf("%q is not a whole number", part)
		}
		l.ids = append(l.ids, id)
	}
	return nil
}

// Type implements pflag.Value.
func (l *idList) Type() string { return "ids" }

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
