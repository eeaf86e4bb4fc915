package archive_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/archive"
)

// TestOpenExisting: with Options.Existing, a missing file, an empty file,
// random bytes and an SQLite database of some other program are refused
// with ErrNotArchive, in words, and left exactly as they were (trial
// report §9.4: `taflmail games` turned an empty file into an archive); a
// real archive opens.
func TestOpenExisting(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	other := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE notes (text TEXT)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	files := map[string][]byte{
		"empty.db": {},
		"junk.db":  []byte("\x8f\x02random bytes, certainly not SQLite \x00\x01\x02"),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	otherBytes, _ := os.ReadFile(other)
	files["other.db"] = otherBytes

	for _, tc := range []struct{ name, want string }{
		{"missing.db", "does not exist"},
		{"empty.db", "is empty (0 bytes)"},
		{"junk.db", "is not an SQLite database"},
		{"other.db", "is an SQLite database without taflmail's tables"},
	} {
		path := filepath.Join(dir, tc.name)
		s, err := archive.OpenWith(ctx, path, archive.Options{Existing: true})
		if err == nil {
			s.Close()
		}
		if !errors.Is(err, archive.ErrNotArchive) || !strings.Contains(err.Error(), path+" "+tc.want) {
			t.Errorf("OpenWith(%s, Existing) = %v, want ErrNotArchive saying %q", tc.name, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "(26)") {
			t.Errorf("OpenWith(%s) = %v: shows SQLite's result code", tc.name, err)
		}
		got, rerr := os.ReadFile(path)
		switch want, ok := files[tc.name]; {
		case !ok && rerr == nil:
			t.Errorf("%s was created", tc.name)
		case ok && !bytes.Equal(got, want):
			t.Errorf("%s was changed: %d bytes, want %d", tc.name, len(got), len(want))
		}
		for _, extra := range []string{"-wal", "-shm", ".lock"} {
			if _, err := os.Stat(path + extra); err == nil {
				t.Errorf("%s%s was created", tc.name, extra)
			}
		}
		if fi, err := os.Stat(path); err == nil && fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode changed to %v", tc.name, fi.Mode().Perm())
		}
	}

	path := filepath.Join(dir, "real.db")
	s, err := archive.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = archive.OpenWith(ctx, path, archive.Options{Existing: true})
	if err != nil {
		t.Fatalf("OpenWith(real archive, Existing) = %v", err)
	}
	s.Close()
}

// TestOpenJunk: the daemon's Open (which creates a missing archive) also
// says in words that a file of random bytes is not a database, instead of
// SQLite's "file is not a database (26)" (trial report §11).
func TestOpenJunk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "junk.db")
	if err := os.WriteFile(path, []byte("\x8f\x02random bytes, certainly not SQLite, long enough to fill a header \x00\x01\x02"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := archive.OpenWith(context.Background(), path, archive.Options{Exclusive: true})
	if err == nil {
		s.Close()
	}
	if !errors.Is(err, archive.ErrNotArchive) || !strings.Contains(err.Error(), path+" is not an SQLite database") || strings.Contains(err.Error(), "(26)") {
		t.Errorf("Open(junk) = %v, want ErrNotArchive in words", err)
	}
}
