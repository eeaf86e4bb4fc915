package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/taflmail/taflmail/config"
	"github.com/taflmail/taflmail/mailer/devstack"
)

// TestLoggerSeconds: durations are logged in seconds, in JSON and in
// text, not as JSON's nanoseconds (issue 21 §7).
func TestLoggerSeconds(t *testing.T) {
	var b bytes.Buffer
	newLogger(config.Log{Level: "info", Format: "json"}, &b).Warn("sending deferred", "retry_in", 90*time.Second, "down_for", 250*time.Millisecond)
	var rec map[string]any
	if err := json.Unmarshal(b.Bytes(), &rec); err != nil {
		t.Fatal(err)
	}
	if rec["retry_in"] != 90.0 || rec["down_for"] != 0.25 {
		t.Errorf("JSON line %s: want retry_in 90 and down_for 0.25 (seconds)", b.String())
	}
	b.Reset()
	newLogger(config.Log{Level: "info", Format: "text"}, &b).Warn("sending deferred", "retry_in", 2*time.Minute)
	if !strings.Contains(b.String(), " retry_in=120\n") {
		t.Errorf("text line %q: want retry_in=120", b.String())
	}
	b.Reset()
	newLogger(config.Log{Level: "info", Format: "text"}, &b).Debug("mail decided")
	newLogger(config.Log{Level: "debug", Format: "text"}, &b).Debug("mail decided")
	if strings.Count(b.String(), "mail decided") != 1 {
		t.Errorf("log.level: info and debug wrote %q, want the debug line once", b.String())
	}
}

// jsonLines parses every line of text as a JSON object, failing on a line
// that is not one.
func jsonLines(t *testing.T, text string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("a line that is not JSON: %q (%v)", line, err)
		}
		out = append(out, rec)
	}
	return out
}

// TestServeFatalJSON: with log.format json a fatal error is a JSON line
// of the log like the others, with the exit status, and nothing else is
// printed (issue 21 §7).
func TestServeFatalJSON(t *testing.T) {
	stack, err := devstack.Start("taflmail.test", map[string]string{"games": "right"})
	if err != nil {
		t.Fatal(err)
	}
	defer stack.Close()
	t.Setenv("TAFLMAIL_IMAP_PASSWORD", "wrong")
	t.Setenv("TAFLMAIL_LOG_FORMAT", "json")
	for _, tc := range []struct {
		name, file string
		code       int
		err        string
	}{
		{"rejected", writeConfig(t, fmt.Sprintf("imap:\n  addr: %q\n  username: games\n  security: none\nsmtp:\n  addr: %q\n  security: none\narchive:\n  path: %q\nserver:\n  address: games@taflmail.test\n",
			stack.IMAPAddr(), stack.SMTPAddr(), filepath.Join(t.TempDir(), "t.db"))), exitConfig, "IMAP login rejected"},
		{"invalid", writeConfig(t, "imap:\n  addr: nohost\n"), exitConfig, "imap.addr: must be host:port"},
	} {
		r := run(t, "serve", "--config", tc.file)
		recs := jsonLines(t, r.stderr)
		last := recs[len(recs)-1]
		if r.code != tc.code || last["level"] != "ERROR" || last["msg"] != "taflmail stopped" || last["exit_status"] != float64(tc.code) ||
			!strings.Contains(fmt.Sprint(last["err"]), tc.err) {
			t.Errorf("%s: serve = code %d, stderr %s; want %d and a JSON line with %q", tc.name, r.code, r.stderr, tc.code, tc.err)
		}
	}
}

// TestServeLogsMigration: serve on an archive of an older schema logs the
// migration, from and to which version and how long it took, in seconds
// (issue 21 §7).
func TestServeLogsMigration(t *testing.T) {
	stack, err := devstack.Start("taflmail.test", map[string]string{"games": "pw"})
	if err != nil {
		t.Fatal(err)
	}
	defer stack.Close()
	db := filepath.Join(t.TempDir(), "old.db")
	files, err := filepath.Glob("../../archive/migrations/*.sql")
	if err != nil || len(files) < 3 {
		t.Fatalf("migrations: %v, %v", files, err)
	}
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`); err != nil {
		t.Fatal(err)
	}
	for i, f := range files[:2] { // an archive of schema version 2
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := raw.Exec(string(text)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if _, err := raw.Exec(`INSERT INTO schema_migrations VALUES (?, ?, '2026-01-01T00:00:00.000000000Z')`, i+1, filepath.Base(f)); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	t.Setenv("TAFLMAIL_IMAP_PASSWORD", "pw")
	cfg, err := loadConfig(nil, writeConfig(t, fmt.Sprintf("imap:\n  addr: %q\n  username: games\n  security: none\nsmtp:\n  addr: %q\n  security: none\narchive:\n  path: %q\nserver:\n  address: games@taflmail.test\nlog:\n  format: json\n",
		stack.IMAPAddr(), stack.SMTPAddr(), db)))
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, newLogger(cfg.Log, &logs)) }()
	for deadline := time.Now().Add(15 * time.Second); !strings.Contains(logs.String(), "taflmail serving"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start:\n%s", logs.String())
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve = %v", err)
	}
	var found bool
	for _, rec := range jsonLines(t, logs.String()) {
		if rec["msg"] == "archive migrated" {
			took, ok := rec["took"].(float64)
			found = rec["from"] == 2.0 && rec["to"] == float64(len(files)) && ok && took >= 0
		}
	}
	if !found {
		t.Errorf("no archive migrated line from 2 to %d with took in seconds:\n%s", len(files), logs.String())
	}
}

// TestServeStopLogged runs the real binary's serve and stops it with
// SIGTERM: it exits 0 and logs that it stopped, and why (issue 21 §7).
func TestServeStopLogged(t *testing.T) {
	stack, err := devstack.Start("taflmail.test", map[string]string{"games": "pw"})
	if err != nil {
		t.Fatal(err)
	}
	defer stack.Close()
	file := writeConfig(t, fmt.Sprintf("imap:\n  addr: %q\n  username: games\n  security: none\nsmtp:\n  addr: %q\n  security: none\narchive:\n  path: %q\nserver:\n  address: games@taflmail.test\n",
		stack.IMAPAddr(), stack.SMTPAddr(), filepath.Join(t.TempDir(), "t.db")))
	cmd := exec.Command(os.Args[0], "serve", "--config", file)
	cmd.Env = append(os.Environ(), runMainEnv+"=1", "TAFLMAIL_IMAP_PASSWORD=pw")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var all []string
	timeout := time.After(30 * time.Second)
	for serving := false; !serving; {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("serve ended before serving:\n%s", strings.Join(all, "\n"))
			}
			all = append(all, l)
			serving = strings.Contains(l, `msg="taflmail serving"`)
		case <-timeout:
			cmd.Process.Kill()
			t.Fatalf("serve did not start within 30 s:\n%s", strings.Join(all, "\n"))
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for l := range lines {
		all = append(all, l)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("serve after SIGTERM = %v, want exit status 0", err)
	}
	if last := all[len(all)-1]; !strings.Contains(last, `msg="taflmail stopped" cause="terminated signal received"`) {
		t.Errorf("last log line %q, want taflmail stopped with its cause", last)
	}
}
