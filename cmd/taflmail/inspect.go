package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/config"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server"
)

// newInspectCommand returns `taflmail inspect MAIL.eml`: what the referee
// reads from a raw mail and what it would do, changing nothing.
func newInspectCommand() *cobra.Command {
	var (
		file   string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "inspect MAIL.eml",
		Short: "Show what the referee reads from a mail and what it would do, changing nothing",
		Long: `inspect reads a raw mail (RFC 5322, as saved by a mail client or taken
from the mailbox) and prints what the referee makes of it: the sender, the
game it names, whether it carries the sender's key and (when configured)
passes the Authentication-Results check, the text left after cutting quotes
and signatures, the commands found (with line:column of any error), and
whether it would be answered, ignored (bounce, auto-reply, our own mail) or
refused, with the replies it would send. The archive of --config is read,
never written; nothing is sent.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf(cmd, "inspect takes one mail file, got %s", counted(len(args), "argument", "arguments"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runInspect(cmd, file, args[0], asJSON)
		},
	}
	cmd.Flags().StringVar(&file, "config", "", "YAML configuration file (for archive.path and server settings)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	config.RegisterFlags(cmd.Flags())
	return cmd
}

// runInspect carries out 'taflmail inspect' on the mail in the file
// name, with the configuration file file (loosely checked): it prints
// what the referee makes of the mail, as indented JSON when asJSON. It
// fails when the configuration, the mail file, the archive or the
// referee does; a mail that does not parse is an error naming the file.
func runInspect(cmd *cobra.Command, file, name string, asJSON bool) error {
	cfg, err := loadConfigLoose(cmd, file)
	if err != nil {
		return err
	}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	max := cfg.IMAP.MaxMailBytes
	m, err := mailer.Parse(f, max)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	store, err := openInspectArchive(cmd, cfg)
	if err != nil {
		return err
	}
	defer store.Close()
	address := cfg.Server.Address
	if address == "" {
		address = "taflmail@localhost"
	}
	srv, err := server.New(server.Options{
		Address: address, Store: store, MaxMailBytes: max,
		RequireAuthResults: cfg.Server.RequireAuthResults,
		AuthservID:         cfg.Server.AuthservID,
		DefaultLanguage:    cfg.Server.DefaultLanguage,
	})
	if err != nil {
		return err
	}
	in, err := srv.Inspect(cmd.Context(), m)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(cmd.OutOrStdout())
		enc.SetIndent("", "  ")
		return enc.Encode(in)
	}
	printInspection(cmd.OutOrStdout(), in)
	return nil
}

// openInspectArchive opens the archive of cfg for inspect, to read,
// never to create or write: without one it says so on stderr and opens
// an empty archive in memory, so that the mail is looked at as if no
// game existed. A file that is not an archive is an error pointing to
// archive.path; the caller closes the store.
func openInspectArchive(cmd *cobra.Command, cfg config.Config) (*archive.Store, error) {
	path := cfg.Archive.Path
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(cmd.ErrOrStderr(), "taflmail inspect: no archive at %s: inspecting as if no game existed (%s)\n", path, archivePathHint)
		path = ":memory:"
	}
	store, err := archive.OpenWith(cmd.Context(), path, archive.Options{Existing: true})
	if errors.Is(err, archive.ErrNotArchive) {
		return nil, fmt.Errorf("%w (check %s)", err, archivePathHint)
	}
	if err != nil {
		return nil, err
	}
	return store, nil
}

// printInspection writes in for people. Every text that comes from the
// mail is shown with its control characters escaped (a subject holding
// "\x1b[2J" must not clear the terminal), and each reply is shown in full,
// so that the reason for a refusal is there, not only in --json (trial
// report §11).
func printInspection(w io.Writer, in *server.Inspection) {
	game := in.Game
	if game == "" {
		game = "(none)"
	}
	fmt.Fprintf(w, "Message-ID  %s\nFrom        %s\nSubject     %s\nGame        %s\n", safe(in.MessageID), safe(in.From), safe(in.Subject), safe(game))
	if in.Game != "" && !in.GameExists {
		fmt.Fprintf(w, "            (no such game in the archive)\n")
	}
	if in.GameExists {
		fmt.Fprintf(w, "Player      %s\nKey         %v\n", orNone(in.Player), map[bool]string{true: "present", false: "missing or wrong"}[in.KeyOK])
	}
	fmt.Fprintf(w, "Auth        %s\n\nText after cutting quotes and signatures:\n", in.Auth)
	for _, l := range strings.Split(in.Text, "\n") {
		fmt.Fprintf(w, "  | %s\n", safe(l))
	}
	fmt.Fprintf(w, "\nCommands:\n")
	if len(in.Commands) == 0 {
		fmt.Fprintf(w, "  (none)\n")
	}
	for _, c := range in.Commands {
		if c.Error != "" {
			fmt.Fprintf(w, "  line %d  %-24q error: %s\n", c.Line, c.Text, safe(c.Error))
		} else {
			fmt.Fprintf(w, "  line %d  %-24q %s\n", c.Line, c.Text, c.Command)
		}
	}
	fmt.Fprintf(w, "\nAction      %s", in.Action)
	if in.Why != "" {
		fmt.Fprintf(w, " (%s)", safe(in.Why))
	}
	fmt.Fprintln(w)
	for _, r := range in.Replies {
		fmt.Fprintf(w, "\nReply to    %s: %s\n", safe(r.To), safe(r.Subject))
		for _, l := range strings.Split(strings.TrimRight(r.Body, "\n"), "\n") {
			fmt.Fprintf(w, "  > %s\n", safe(l))
		}
	}
}

// safe returns one line of text with invalid UTF-8 and control characters
// (tabs aside) written as Go escapes, for the terminal.
func safe(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "\\x%02x", s[0])
		case r != '\t' && (unicode.IsControl(r) || r == '\u2028' || r == '\u2029'):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[:size])
		}
		s = s[size:]
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "(not a player)"
	}
	return s
}

// loadConfigLoose loads the configuration for a command that needs only
// part of it (the archive path, server settings): problems that are only
// validation failures (*config.KeyError, e.g. a missing IMAP address) are
// ignored; a file that cannot be read or parsed is an error.
func loadConfigLoose(cmd *cobra.Command, file string) (config.Config, error) {
	cfg, err := config.Load(nil, cmd.Flags(), file)
	if err == nil {
		return cfg, nil
	}
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	for _, e := range errs {
		var ke *config.KeyError
		if !errors.As(e, &ke) {
			return cfg, err
		}
	}
	return cfg, nil
}
