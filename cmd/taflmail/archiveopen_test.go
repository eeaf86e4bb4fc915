package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOperatorRefusesNonArchive: the operator commands never turn a file
// that is not an archive into one (trial report §9.4): an empty file and
// random bytes are refused in words, and left as they were.
func TestOperatorRefusesNonArchive(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty.db", nil, "is empty (0 bytes)"},
		{"notdb.db", []byte("\x13\x37 random bytes: no database here \xff\xfe\x00"), "is not an SQLite database"},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"games"}, {"mails"}, {"outbox"}, {"show", "ABCDEF"}, {"outbox", "--retry", "1"},
		} {
			r := run(t, append(args, "--archive-path", path)...)
			want := "taflmail: archive: open: not a taflmail archive: " + path + " " + tc.want + " (check archive.path;"
			if r.code != exitFailure || !strings.HasPrefix(r.stderr, want) || strings.Contains(r.stderr, "(26)") {
				t.Errorf("taflmail %q on %s = code %d, stderr %q; want 1 and %q", args, tc.name, r.code, r.stderr, want)
			}
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != string(tc.data) {
			t.Errorf("%s changed: %q, %v", tc.name, got, err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, %v; want 0644", tc.name, fi.Mode().Perm(), err)
		}
	}
}

// TestInspectWritesNothing: inspect reads the archive and never creates
// one: without an archive it says so and inspects against no games.
func TestInspectWritesNothing(t *testing.T) {
	dir := t.TempDir()
	mail := filepath.Join(dir, "m.eml")
	if err := os.WriteFile(mail, []byte("From: a@example.org\r\nSubject: x\r\nMessage-ID: <x@example.org>\r\n\r\nhelp\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "taflmail.db")
	r := run(t, "inspect", mail, "--archive-path", db)
	if r.code != exitOK || !strings.Contains(r.stdout, "Message-ID  x@example.org") ||
		!strings.Contains(r.stderr, "no archive at "+db+": inspecting as if no game existed") {
		t.Errorf("inspect without an archive = code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(db); err == nil {
		t.Errorf("inspect created %s", db)
	}
}
