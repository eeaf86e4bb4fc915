package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkConfig is a complete configuration file for config check; the
// IMAP password comes from the environment.
const checkConfig = `imap:
  addr: imap.example.org:993
  username: games@example.org
smtp:
  addr: smtp.example.org:465
  username: games@example.org
archive:
  path: /var/lib/taflmail/taflmail.db
server:
  address: games@example.org
`

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "taflmail.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestConfigCheck: a valid configuration is printed with the passwords
// masked and the layers applied (file, environment, flag).
func TestConfigCheck(t *testing.T) {
	t.Setenv("TAFLMAIL_IMAP_PASSWORD", "imap-Secret-1")
	t.Setenv("TAFLMAIL_SMTP_PASSWORD", "smtp-Secret-2")
	t.Setenv("TAFLMAIL_LOG_FORMAT", "json")
	r := run(t, "config", "check", "--config", writeConfig(t, checkConfig), "--imap-poll-interval", "5m")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("taflmail config check = code %d, stderr %q", r.code, r.stderr)
	}
	if strings.Contains(r.stdout, "Secret") {
		t.Errorf("config check shows a password:\n%s", r.stdout)
	}
	checkOperatorGolden(t, "config-check.yaml", r.stdout)
}

// TestConfigCheckProblems: every problem is listed, exit status 1; the
// configuration is still printed when it could be read.
func TestConfigCheckProblems(t *testing.T) {
	t.Setenv("TAFLMAIL_SMTP_PASSWORD", "smtp-Secret-2")
	bad := strings.Replace(checkConfig, "smtp.example.org:465", "smtp.example.org", 1)
	r := run(t, "config", "check", "--config", writeConfig(t, bad), "--log-level", "loud")
	if r.code != exitFailure {
		t.Fatalf("taflmail config check = code %d, want %d; stderr %q", r.code, exitFailure, r.stderr)
	}
	wantErr := `taflmail: configuration: 3 problems:
imap.password: required: set imap.password_file or TAFLMAIL_IMAP_PASSWORD
smtp.addr: must be host:port, not "smtp.example.org"
log.level: must be debug, info, warn or error, not "loud"
`
	if r.stderr != wantErr {
		t.Errorf("stderr =\n%s\nwant\n%s", r.stderr, wantErr)
	}
	if !strings.Contains(r.stdout, "  addr: \"smtp.example.org\"\n") || !strings.Contains(r.stdout, "  level: \"loud\"\n") ||
		strings.Contains(r.stdout, "Secret") || !strings.Contains(r.stdout, "password: \"********\"") {
		t.Errorf("stdout is not the masked configuration:\n%s", r.stdout)
	}

	// An unknown key hides no other problem (trial report §5), and the
	// configuration is still printed; a file that is not YAML is one
	// problem, said in plain words, and nothing is printed.
	for _, tc := range []struct {
		name, file, want string
		printed          bool
	}{
		{"unknown key", checkConfig + "  adress: x\n", "taflmail: configuration: 2 problems:\nserver.adress: unknown key in ", true},
		{"not YAML", "imap: [", "taflmail: configuration: 1 problem:\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeConfig(t, tc.file)
			r := run(t, "config", "check", "--config", path)
			if r.code != exitFailure || (r.stdout != "") != tc.printed || !strings.HasPrefix(r.stderr, tc.want) {
				t.Errorf("config check = code %d, stdout %q, stderr %q; want code 1, printed %v, stderr %q…", r.code, r.stdout, r.stderr, tc.printed, tc.want)
			}
			if tc.name == "not YAML" && r.stderr != tc.want+path+": line 1: not valid YAML (did not find expected node content): look for an unclosed quote or bracket, or a tab in the indentation\n" {
				t.Errorf("config check of a broken file: stderr %q", r.stderr)
			}
			if tc.name == "unknown key" && !strings.Contains(r.stderr, "\nimap.password: required") {
				t.Errorf("config check with an unknown key hides the other problem: %q", r.stderr)
			}
		})
	}
}

func TestConfigCommandUsage(t *testing.T) {
	r := run(t, "config")
	if r.code != exitOK || !strings.Contains(r.stdout, "check") {
		t.Errorf("taflmail config = code %d, stdout %q", r.code, r.stdout)
	}
	r = run(t, "config", "chek")
	if r.code != exitUsage || !strings.Contains(r.stderr, `taflmail config: unknown command "chek"; did you mean check?`) {
		t.Errorf("taflmail config chek = code %d, stderr %q", r.code, r.stderr)
	}
	r = run(t, "config", "check", "extra")
	if r.code != exitUsage || !strings.Contains(r.stderr, `unexpected argument "extra"`) {
		t.Errorf("taflmail config check extra = code %d, stderr %q", r.code, r.stderr)
	}
	r = run(t, "config", "check", "--imap-password", "x")
	if r.code != exitUsage || !strings.Contains(r.stderr, "unknown flag: --imap-password") {
		t.Errorf("config check --imap-password = code %d, stderr %q; passwords must not be flags", r.code, r.stderr)
	}
}
