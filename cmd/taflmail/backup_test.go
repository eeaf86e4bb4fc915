package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/archive"
)

// TestBackupCommand: taflmail backup FILE writes a private copy that is
// an archive with every game, refuses to overwrite unless --force, and
// wants exactly one FILE (issue 21 §5).
func TestBackupCommand(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	dst := filepath.Join(dir, "copy.db")
	r := f.run(t, "backup", dst)
	if r.code != exitOK || r.stderr != "" || !strings.HasPrefix(r.stdout, "backup written to "+dst+": ") || !strings.Contains(r.stdout, " games, schema version ") {
		t.Fatalf("taflmail backup = code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if fi, err := os.Stat(dst); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the copy: %v, %v; want mode 0600", fi, err)
	}
	ctx := context.Background()
	orig, err := archive.OpenWith(ctx, f.path, archive.Options{Existing: true})
	if err != nil {
		t.Fatal(err)
	}
	want, err := orig.Games(ctx, archive.GameFilter{})
	orig.Close()
	if err != nil {
		t.Fatal(err)
	}
	cp, err := archive.OpenWith(ctx, dst, archive.Options{Existing: true})
	if err != nil {
		t.Fatalf("the copy is no archive: %v", err)
	}
	got, err := cp.Games(ctx, archive.GameFilter{})
	cp.Close()
	if err != nil || len(got) != len(want) || len(got) == 0 {
		t.Errorf("the copy holds %d games (%v), the archive %d", len(got), err, len(want))
	}

	r = f.run(t, "backup", dst)
	if r.code != exitFailure || !strings.Contains(r.stderr, "exists: give a new name, or --force to replace it") {
		t.Errorf("backup onto an existing file = code %d, stderr %q", r.code, r.stderr)
	}
	if r = f.run(t, "backup", "--force", dst); r.code != exitOK {
		t.Errorf("backup --force = code %d, stderr %q", r.code, r.stderr)
	}
	if r = f.run(t, "backup"); r.code != exitUsage {
		t.Errorf("backup without FILE = code %d, want 2", r.code)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%s holds %d entries, want the copy alone", dir, len(entries))
	}
}
