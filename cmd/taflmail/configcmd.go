package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/config"
	"github.com/taflmail/taflmail/mailer"
)

// newConfigCommand returns `taflmail config` with its subcommand check.
func newConfigCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Inspect the configuration (config check)",
		Long: `config groups the commands about taflmail's configuration; today there is
one, 'taflmail config check'. See docs/configuration.md for every key.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return unknownCommand(cmd, args[0])
			}
			return cmd.Help()
		},
	}
	cmd.SuggestionsMinimumDistance = 2
	cmd.AddCommand(newConfigCheckCommand())
	return cmd
}

// newConfigCheckCommand returns `taflmail config check`.
func newConfigCheckCommand() *cobra.Command {
	var (
		file    string
		connect bool
	)
	cmd := &cobra.Command{
		Use:   "check [--config FILE] [flags]",
		Short: "Print the effective configuration, passwords masked, and check it",
		Long: `check builds the configuration exactly as 'taflmail serve' does — defaults,
then the YAML file of --config, then TAFLMAIL_* environment variables, then
flags — and prints it as YAML with the passwords shown as "********".

With imap.auth or smtp.auth set to xoauth2 or oauthbearer it also gets
a token once, running the oauth2_token_command (or reading the file), and
reports a failure under that key; the token itself is never printed.

With --connect it then connects as 'taflmail serve' would, with the same
TLS settings, passwords and tokens: it logs in to IMAP and selects the
mailbox read-only (nothing is marked, moved or created), and logs in to
SMTP (EHLO, STARTTLS, AUTH) and says QUIT without sending anything. It
prints a line for each ("imap: ok: …", "smtp: ok: …"); a failure is a
problem like the others. A section whose settings have problems is not
tried.

When the configuration is not valid it lists every problem on stderr, one
line per key (unknown keys, values of the wrong kind and values out of
range, all at once), and exits with status 1; the configuration is printed
as far as it could be read. When the file cannot be read or is not YAML,
only that problem is printed. With --connect the status is 0 only when
the configuration is valid and both log-ins worked.`,
		Example: `  taflmail config check --config /etc/taflmail/taflmail.yaml
  TAFLMAIL_IMAP_PASSWORD=secret taflmail config check --config taflmail.yaml
  sudo -u taflmail taflmail config check --connect --config /etc/taflmail/taflmail.yaml`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := config.Load(nil, cmd.Flags(), file)
			problems := flattenErrors(err)
			if configDecoded(problems) {
				fmt.Fprint(cmd.OutOrStdout(), cfg.String())
				problems = append(problems, checkTokens(cmd.Context(), cfg, problems)...)
				if connect {
					problems = append(problems, checkConnections(cmd.Context(), cmd.OutOrStdout(), cfg, problems)...)
				}
			}
			if len(problems) == 0 {
				return nil
			}
			return fmt.Errorf("configuration: %s:\n%w", countProblems(len(problems)), errors.Join(problems...))
		},
	}
	cmd.Flags().BoolVar(&connect, "connect", false, "also log in to IMAP and SMTP as serve would, and say what worked (sends nothing)")
	addConfigFlags(cmd, &file)
	return cmd
}

// checkConnections logs in to IMAP and SMTP as serve would (mailer's
// CheckIMAP and Sender.Check), writes a line for each section to w, and
// returns the failures, each prefixed with its section. A section whose
// keys have problems already is not tried.
func checkConnections(ctx context.Context, w io.Writer, cfg config.Config, problems []error) []error {
	if ctx == nil {
		ctx = context.Background()
	}
	bad := map[string]bool{}
	for _, e := range problems {
		var ke *config.KeyError
		if !errors.As(e, &ke) {
			continue
		}
		if section, _, ok := strings.Cut(ke.Key, "."); ok {
			bad[section] = true
		}
	}
	var out []error
	for _, section := range []string{"imap", "smtp"} {
		if bad[section] {
			fmt.Fprintf(w, "%s: not tried: its settings have problems\n", section)
			continue
		}
		var line string
		var err error
		if section == "imap" {
			line, err = checkIMAP(ctx, cfg)
		} else {
			line, err = checkSMTP(ctx, cfg)
		}
		if err != nil {
			fmt.Fprintf(w, "%s: FAILED (see below)\n", section)
			out = append(out, fmt.Errorf("%s: %w", section, err))
			continue
		}
		fmt.Fprintf(w, "%s: ok: %s\n", section, line)
	}
	return out
}

// checkIMAP logs in to IMAP and says what it found.
func checkIMAP(ctx context.Context, cfg config.Config) (string, error) {
	ic, err := imapConfig(cfg)
	if err != nil {
		return "", err
	}
	found, err := mailer.CheckIMAP(ctx, ic)
	if err != nil {
		return "", err
	}
	processed := cmp.Or(cfg.IMAP.ProcessedMailbox, mailer.DefaultProcessedMailbox)
	line := fmt.Sprintf("logged in to %s as %s (%s, %s); %s holds %d %s; ", cfg.IMAP.Addr, cfg.IMAP.Username,
		cfg.IMAP.Security, found.Mechanism, cfg.IMAP.Mailbox, found.Messages, plural(int(found.Messages), "message", "messages"))
	if found.ProcessedExists {
		line += processed + " exists; "
	} else {
		line += processed + " does not exist yet (serve creates it); "
	}
	if found.Idle {
		line += "IDLE offered"
	} else {
		line += fmt.Sprintf("no IDLE: serve polls every %v", cfg.IMAP.PollInterval)
	}
	return line, nil
}

// checkSMTP logs in to SMTP and says how.
func checkSMTP(ctx context.Context, cfg config.Config) (string, error) {
	sc, err := smtpConfig(cfg)
	if err != nil {
		return "", err
	}
	if err := mailer.NewSender(sc).Check(ctx); err != nil {
		return "", err
	}
	how := "no AUTH"
	if cfg.SMTP.Username != "" {
		how = "AUTH " + map[string]string{config.AuthPassword: "PLAIN", config.AuthXOAUTH2: "XOAUTH2", config.AuthOAuthBearer: "OAUTHBEARER"}[cfg.SMTP.Auth] + " as " + cfg.SMTP.Username
	}
	return fmt.Sprintf("connected to %s (%s, %s); nothing sent", cfg.SMTP.Addr, cfg.SMTP.Security, how), nil
}

// checkTokens gets the OAuth2 token of each section that logs in with one,
// as serve would before connecting, and returns the failures. A section
// whose log-in settings already have problems is left out.
func checkTokens(ctx context.Context, cfg config.Config, problems []error) []error {
	if ctx == nil {
		ctx = context.Background()
	}
	bad := map[string]bool{}
	for _, e := range problems {
		var ke *config.KeyError
		if errors.As(e, &ke) {
			bad[ke.Key] = true
		}
	}
	var out []error
	for _, s := range []struct {
		section string
		oauth2  bool
		token   func(context.Context) (string, error)
	}{
		{"imap", cfg.IMAP.UsesOAuth2(), cfg.IMAP.Token},
		{"smtp", cfg.SMTP.UsesOAuth2(), cfg.SMTP.Token},
	} {
		if !s.oauth2 || bad[s.section+".auth"] || bad[s.section+".oauth2_token_command"] || bad[s.section+".oauth2_token_file"] {
			continue
		}
		if _, err := s.token(ctx); err != nil {
			out = append(out, err)
		}
	}
	return out
}

// addConfigFlags gives an operator command serve's configuration flags:
// --config FILE and one flag per configuration key.
func addConfigFlags(cmd *cobra.Command, file *string) {
	cmd.Flags().StringVar(file, "config", "", "YAML configuration file (docs/configuration.md)")
	config.RegisterFlags(cmd.Flags())
}

// countProblems says "1 problem" or "3 problems".
func countProblems(n int) string {
	if n == 1 {
		return "1 problem"
	}
	return fmt.Sprintf("%d problems", n)
}

// flattenErrors lists the single problems inside err, unwrapping the
// errors.Join trees config.Load builds (Load joins Validate's joined
// problems with its own); nil for nil.
func flattenErrors(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flattenErrors(e)...)
		}
		return out
	}
	return []error{err}
}

// knownKey reports whether name is a configuration key; a *config.KeyError
// for any other name is an unknown key in the file.
func knownKey(name string) bool {
	for _, k := range config.Keys() {
		if k.Name == name {
			return true
		}
	}
	return false
}

// configDecoded reports whether the configuration config.Load returned
// with these problems is the real one, worth printing: it is unless the
// file could not be read (a *config.FileError), when Load returns the
// defaults.
func configDecoded(problems []error) bool {
	for _, e := range problems {
		var fe *config.FileError
		if errors.As(e, &fe) {
			return false
		}
	}
	return true
}

// archiveKeys are the configuration keys the operator commands (games,
// show, export, outbox) read.
var archiveKeys = map[string]bool{"archive.path": true}

// loadArchiveConfig loads the configuration as serve does but, unlike
// serve, fails only on problems that concern the operator commands: the
// file itself (unreadable, unknown keys) and the keys in archiveKeys. An
// operator can thus look into the archive on a machine without the mail
// passwords, or with an IMAP or SMTP section that is incomplete.
func loadArchiveConfig(flags *pflag.FlagSet, file string) (config.Config, error) {
	cfg, err := config.Load(nil, flags, file)
	var keep []error
	for _, e := range flattenErrors(err) {
		var ke *config.KeyError
		if errors.As(e, &ke) && knownKey(ke.Key) && !archiveKeys[ke.Key] {
			continue
		}
		keep = append(keep, e)
	}
	if len(keep) > 0 {
		return cfg, fmt.Errorf("configuration:\n%w", errors.Join(keep...))
	}
	return cfg, nil
}

// openArchive loads the configuration of an operator command and opens
// the archive it names. A missing archive file is an error rather than
// created empty: it almost always means a wrong archive.path or working
// directory. The caller closes the store.
func openArchive(ctx context.Context, cmd *cobra.Command, file string) (*archive.Store, error) {
	cfg, err := loadArchiveConfig(cmd.Flags(), file)
	if err != nil {
		return nil, err
	}
	path := cfg.Archive.Path
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("no archive at %s (%s)", path, archivePathHint)
		}
		return nil, err
	}
	// Existing: a file that is not an archive (empty, random bytes,
	// another program's database) is refused, never turned into one.
	store, err := archive.OpenWith(ctx, path, archive.Options{Existing: true})
	if errors.Is(err, archive.ErrNotArchive) {
		return nil, fmt.Errorf("%w (check %s)", err, archivePathHint)
	}
	if err == nil {
		if m := store.Migration(); m.From < m.To {
			fmt.Fprintf(cmd.ErrOrStderr(), "taflmail: %s brought up to date from schema version %d to %d in %.2f s\n", path, m.From, m.To, m.Took.Seconds())
		}
	}
	return store, err
}

// archivePathHint says where the archive's path comes from.
const archivePathHint = "archive.path; --archive-path, TAFLMAIL_ARCHIVE_PATH or --config FILE set it"

// gameIDArg normalises a game id as people type it: "k7qx2m" is K7QX2M.
func gameIDArg(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }
