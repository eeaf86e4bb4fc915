package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
)

// unitLines returns the values of key in the systemd unit file name of
// docs/systemd, in order, with the unit file's escapes undone (%% and $$
// are a single % and $).
func unitLines(t *testing.T, name, key string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("../../docs/systemd", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), key+"="); ok {
			out = append(out, strings.NewReplacer("%%", "%", "$$", "$").Replace(v))
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s has no %s=", name, key)
	}
	return out
}

// TestBackupUnit runs the commands of docs/systemd/taflmail-backup.service
// as systemd would, with the paths moved into a scratch folder and this
// test binary as taflmail: the nightly copy is written under the day's
// name, mode 0600, as an archive; the clean-up removes copies older than
// two weeks and nothing else (issue 21 §5: a tested timer unit).
func TestBackupUnit(t *testing.T) {
	dir := t.TempDir()
	backups := filepath.Join(dir, "backups")
	if err := os.Mkdir(backups, 0o700); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db := filepath.Join(dir, "taflmail.db")
	st, err := archive.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	conf := writeConfig(t, "archive:\n  path: "+db+"\n")
	paths := strings.NewReplacer("/usr/local/bin/taflmail", os.Args[0], "/etc/taflmail/taflmail.yaml", conf, "/var/backups/taflmail", backups)

	start := unitLines(t, "taflmail-backup.service", "ExecStart")
	if len(start) != 1 {
		t.Fatalf("ExecStart= %q, want one", start)
	}
	script, ok := strings.CutPrefix(start[0], "/bin/sh -c '")
	if !ok || !strings.HasSuffix(script, "'") {
		t.Fatalf("ExecStart=%s: want /bin/sh -c '…'", start[0])
	}
	cmd := exec.Command("/bin/sh", "-c", paths.Replace(strings.TrimSuffix(script, "'")))
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ExecStart: %v\n%s", err, out)
	}
	today := filepath.Join(backups, "taflmail-"+time.Now().Format("2006-01-02")+".db")
	fi, err := os.Stat(today)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the night's copy: %v, %v; want %s with mode 0600", fi, err, today)
	}
	if cp, err := archive.OpenWith(ctx, today, archive.Options{Existing: true}); err != nil {
		t.Errorf("the night's copy is no archive: %v", err)
	} else {
		cp.Close()
	}

	old := filepath.Join(backups, "taflmail-2026-01-01.db")
	recent := filepath.Join(backups, "taflmail-2026-01-10.db")
	other := filepath.Join(backups, "notes.txt")
	for _, f := range []struct {
		path string
		age  time.Duration
	}{{old, 20 * 24 * time.Hour}, {recent, 3 * 24 * time.Hour}, {other, 40 * 24 * time.Hour}} {
		if err := os.WriteFile(f.path, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		when := time.Now().Add(-f.age)
		if err := os.Chtimes(f.path, when, when); err != nil {
			t.Fatal(err)
		}
	}
	for _, line := range unitLines(t, "taflmail-backup.service", "ExecStartPost") {
		// systemd splits the line into words itself, without a shell
		args := strings.Fields(paths.Replace(line))
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("ExecStartPost=%s: %v\n%s", line, err, out)
		}
	}
	for path, want := range map[string]bool{old: false, recent: true, other: true, today: true} {
		if _, err := os.Stat(path); (err == nil) != want {
			t.Errorf("after the clean-up %s exists: %v, want %v", filepath.Base(path), err == nil, want)
		}
	}
}
