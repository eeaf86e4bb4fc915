package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// runMainEnv makes the test binary act as the taflmail binary: TestMain
// calls main with the binary's arguments, so tests can check real exit
// statuses without building anything.
const runMainEnv = "TAFLMAIL_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main() // exits
	}
	os.Exit(m.Run())
}

// result is what one command run produced.
type result struct {
	stdout, stderr string
	code           int
}

// execute runs root with args, capturing both streams, and maps the error
// to an exit status as main does.
func execute(t *testing.T, root *cobra.Command, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	root.SetArgs(args)
	root.SetOut(&out)
	root.SetErr(&errb)
	err := root.Execute()
	code := report(&errb, err)
	return result{out.String(), errb.String(), code}
}

// run is execute on a fresh root command.
func run(t *testing.T, args ...string) result {
	t.Helper()
	return execute(t, NewRootCommand(), args...)
}

func TestNoArgumentsPrintsHelp(t *testing.T) {
	r := run(t)
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("taflmail = code %d, stderr %q; want 0 and nothing", r.code, r.stderr)
	}
	for _, want := range []string{"Usage:", "perft", "variants", "version"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("taflmail help lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want []string // substrings of stderr
	}{
		{[]string{"varients"}, []string{`taflmail: unknown command "varients"; did you mean variants?`, "Run 'taflmail --help'"}},
		{[]string{"nosuch"}, []string{`unknown command "nosuch"`}},
		{[]string{"--bogus"}, []string{"unknown flag: --bogus"}},
		{[]string{"variants", "extra"}, []string{`taflmail variants: unexpected argument "extra"`}},
		{[]string{"variants", "--depth", "3"}, []string{"unknown flag: --depth"}},
		{[]string{"version", "now"}, []string{`unexpected argument "now"`}},
		// A flag value of the wrong kind, said in words, not as Go's
		// strconv or time error (trial report §11).
		{[]string{"outbox", "--retry", "abc"}, []string{`taflmail outbox: --retry "abc": not a whole number`}},
		{[]string{"mails", "--since", "1x"}, []string{`taflmail mails: --since "1x": not a length of time like 90s, 30m or 24h`}},
		{[]string{"perft", "--depth", "3.5"}, []string{`taflmail perft: --depth "3.5": not a whole number`}},
		{[]string{"perft", "--json=maybe"}, []string{`taflmail perft: --json "maybe": not true or false`}},
	}
	for _, tt := range tests {
		r := run(t, tt.args...)
		for _, internal := range []string{"strconv", "ParseInt", "ParseBool", `time: `} {
			if strings.Contains(r.stderr, internal) {
				t.Errorf("taflmail %q stderr = %q: shows Go's %q", tt.args, r.stderr, internal)
			}
		}
		if r.code != exitUsage {
			t.Errorf("taflmail %q = code %d, want %d", tt.args, r.code, exitUsage)
		}
		if r.stdout != "" {
			t.Errorf("taflmail %q wrote to stdout: %q", tt.args, r.stdout)
		}
		for _, w := range tt.want {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("taflmail %q stderr = %q, want it to contain %q", tt.args, r.stderr, w)
			}
		}
	}
}

func TestReport(t *testing.T) {
	var w bytes.Buffer
	if got := report(&w, nil); got != exitOK || w.Len() != 0 {
		t.Errorf("report(nil) = %d, wrote %q; want 0, nothing", got, w.String())
	}
	w.Reset()
	if got := report(&w, errors.New("disk full")); got != exitFailure || w.String() != "taflmail: disk full\n" {
		t.Errorf("report(disk full) = %d, wrote %q; want 1, %q", got, w.String(), "taflmail: disk full\n")
	}
	w.Reset()
	ue := &usageError{path: "taflmail perft", err: errors.New("bad depth")}
	wrapped := errors.Join(errors.New("context"), ue)
	want := "taflmail perft: bad depth\nRun 'taflmail perft --help' for usage.\n"
	if got := report(&w, wrapped); got != exitUsage || w.String() != want {
		t.Errorf("report(usage error) = %d, wrote %q; want 2, %q", got, w.String(), want)
	}
}

// TestExitStatus runs the real main in a child process and checks the
// status the shell sees and which stream each part went to.
func TestExitStatus(t *testing.T) {
	tests := []struct {
		args       []string
		code       int
		wantStdout string // substring
		wantStderr string // substring; "" means stderr must be empty
	}{
		{[]string{"variants"}, exitOK, "copenhagen", ""},
		{[]string{"perft", "--depth", "2", "--json"}, exitOK, `"nodes":6788`, ""},
		{[]string{"perft", "--depth", "0"}, exitUsage, "", "at least 1"},
		{[]string{"perft", "--variant", "nosuch"}, exitUsage, "", "unknown variant"},
		{[]string{"perft", "--depth", "9"}, exitUsage, "", "--force"},
		{[]string{"nosuch"}, exitUsage, "", "unknown command"},
		{[]string{"serve", "--config", "/nonexistent/taflmail.yaml"}, exitConfig, "", "cannot be read"},
	}
	for _, tt := range tests {
		cmd := exec.Command(os.Args[0], tt.args...)
		cmd.Env = append(os.Environ(), runMainEnv+"=1")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("running taflmail %q: %v", tt.args, err)
		}
		if code != tt.code {
			t.Errorf("taflmail %q exit status = %d, want %d (stderr %q)", tt.args, code, tt.code, errb.String())
		}
		if !strings.Contains(out.String(), tt.wantStdout) {
			t.Errorf("taflmail %q stdout = %q, want it to contain %q", tt.args, out.String(), tt.wantStdout)
		}
		if tt.wantStdout == "" && out.Len() != 0 {
			t.Errorf("taflmail %q wrote to stdout on error: %q", tt.args, out.String())
		}
		if tt.wantStderr == "" && errb.Len() != 0 || !strings.Contains(errb.String(), tt.wantStderr) {
			t.Errorf("taflmail %q stderr = %q, want %q", tt.args, errb.String(), tt.wantStderr)
		}
	}
}
