// Command taflmail is the command-line front end of taflmail, a server that
// plays Tafl board games by email.
//
// It runs the mail referee (taflmail serve), a zero-setup demo game by
// mail (taflmail demo), the record tools (validate, diagram, convert,
// standings, ratings), the operator's commands (games, show, export,
// outbox, inspect, config check), perft, the engine's correctness and
// speed check against ../shared/cases/perft.md, and the engine opponent
// (analyse, and engine --otep for OpenTafl; docs/engine.md). See README.md
// and docs/architecture.md.
//
// Exit status: 0 on success, 1 when a command fails at run time, 2 for a
// usage error (unknown command or flag, bad flag value, unknown variant, a
// perft depth out of range), 3 when convert or export wrote its output but
// the format had no place for some of the input's data (clock data in
// CSV; warnings on stderr say what), 78 (EX_CONFIG of sysexits.h) when
// serve stops at start for a reason a restart cannot cure: the
// configuration is not valid, or a mail server rejected the log-in or the
// TLS certificate.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	// The IANA time zone database, built in, for the daily digest in a
	// player's own zone (server/internal/digest/digest_zone.go) on a machine without
	// /usr/share/zoneinfo; a zone found there is taken from there first.
	_ "time/tzdata"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Exit statuses of the taflmail process.
const (
	exitOK      = 0 // the command did what was asked
	exitFailure = 1 // the command failed while running
	exitUsage   = 2 // the command line was wrong; nothing was done
	exitDropped = 3 // the output was written without data the format cannot hold
	// exitConfig is EX_CONFIG of sysexits.h: the configuration or the
	// credentials are wrong, and starting again will not help. The
	// documented systemd unit does not restart the daemon after it
	// (RestartPreventExitStatus=78; docs/install.md).
	exitConfig = 78
)

func main() {
	root := NewRootCommand()
	err := root.Execute()
	os.Exit(report(root.ErrOrStderr(), err))
}

// report writes err, if any, to w and returns the process exit status for
// it: exitUsage for a *usageError, exitDropped for a *droppedError,
// exitConfig for a *configError, exitFailure for any other error.
func report(w io.Writer, err error) int {
	if err == nil {
		return exitOK
	}
	var le *loggedError
	if errors.As(err, &le) {
		// written to the log already, in its format
		if errors.As(le.err, new(*configError)) {
			return exitConfig
		}
		return exitFailure
	}
	var de *droppedError
	if errors.As(err, &de) {
		fmt.Fprintf(w, "taflmail: %v\n", err)
		return exitDropped
	}
	var ce *configError
	if errors.As(err, &ce) {
		fmt.Fprintf(w, "taflmail: %v\n", err)
		return exitConfig
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(w, "%s: %v\n", ue.path, ue.err)
		if !ue.noHint {
			fmt.Fprintf(w, "Run '%s --help' for usage.\n", ue.path)
		}
		return exitUsage
	}
	fmt.Fprintf(w, "taflmail: %v\n", err)
	return exitFailure
}

// usageError is a mistake on the command line: the command did nothing and
// the process exits with status 2. path is the command it was found in
// ("taflmail perft"), for the hint to run its --help.
type usageError struct {
	path string
	err  error
	// noHint leaves out "Run … --help": the command line was right, but
	// a file it names cannot be read.
	noHint bool
}

func (e *usageError) Error() string { return e.path + ": " + e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// droppedError says that a command wrote its output, but without data
// of its input that the output format has no place for; the warnings
// printed before it say what. The process exits with status 3.
type droppedError struct{ what string }

func (e *droppedError) Error() string { return e.what }

// configError is a failure that restarting the command will not cure: a
// configuration that is not valid, a mail server that rejects the log-in
// or whose certificate does not verify. The process exits with status 78
// (exitConfig).
type configError struct{ err error }

func (e *configError) Error() string { return e.err.Error() }
func (e *configError) Unwrap() error { return e.err }

// loggedError is an error serve has written to its log already (as a
// JSON line): main exits with its status and prints nothing more.
type loggedError struct{ err error }

func (e *loggedError) Error() string { return e.err.Error() }
func (e *loggedError) Unwrap() error { return e.err }

// usageErrorf returns a *usageError for cmd with a formatted message.
func usageErrorf(cmd *cobra.Command, format string, args ...any) error {
	return &usageError{path: cmd.CommandPath(), err: fmt.Errorf(format, args...)}
}

// flagError turns cobra's flag parsing errors (unknown flag, bad value)
// into usage errors; it is installed on the root command and inherited by
// every subcommand.
func flagError(cmd *cobra.Command, err error) error {
	var ive *pflag.InvalidValueError
	if errors.As(err, &ive) {
		// Said in words, not as Go's strconv or time error (trial report §11).
		f := ive.GetFlag()
		what := map[string]string{
			"int": "not a whole number", "int64": "not a whole number", "int32": "not a whole number",
			"uint": "not a whole number from 0 up", "uint64": "not a whole number from 0 up",
			"duration": "not a length of time like 90s, 30m or 24h",
			"bool":     "not true or false",
			"ids":      "not a list of whole numbers like 41,42",
		}[f.Value.Type()]
		if what != "" {
			err = fmt.Errorf("--%s %q: %s", f.Name, ive.GetValue(), what)
		}
	}
	return &usageError{path: cmd.CommandPath(), err: err}
}

// noArgs is the positional-argument check of a subcommand that takes only
// flags: any argument is a usage error.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErrorf(cmd, "unexpected argument %q: %s takes only flags", args[0], cmd.Name())
	}
	return nil
}

// unknownCommand is the usage error for a word that names no subcommand of
// cmd, with cobra's spelling suggestions.
func unknownCommand(cmd *cobra.Command, word string) error {
	msg := fmt.Sprintf("unknown command %q", word)
	if s := cmd.SuggestionsFor(word); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return &usageError{path: cmd.CommandPath(), err: errors.New(msg)}
}
