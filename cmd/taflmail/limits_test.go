package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// endless is a reader without end, as /dev/zero, counting what it gave.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	e.n += int64(len(p))
	return len(p), nil
}

// TestReadLimited: an endless input is read up to the limit and one byte
// more, then refused with *tooLargeError and nothing kept; an input of
// exactly the limit is read whole; a regular file over the limit is
// refused before any read (issue 18 §5: `validate /dev/zero` read 12 GB).
func TestReadLimited(t *testing.T) {
	for _, limit := range []int64{0, 1, 4096, 1 << 20} {
		e := &endless{}
		data, err := readLimited(e, "zero", limit)
		var tl *tooLargeError
		if !errors.As(err, &tl) || data != nil {
			t.Errorf("limit %d: readLimited(endless) = %d bytes, %v; want *tooLargeError", limit, len(data), err)
		}
		if e.n > limit+1 {
			t.Errorf("limit %d: read %d bytes of the endless input, want at most %d", limit, e.n, limit+1)
		}
	}
	data, err := readLimited(strings.NewReader("12345"), "five", 5)
	if string(data) != "12345" || err != nil {
		t.Errorf("five bytes at limit 5 = %q, %v", data, err)
	}
	path := filepath.Join(t.TempDir(), "big.csv")
	if err := os.WriteFile(path, []byte(strings.Repeat("x", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := readLimited(f, path, 99); err == nil || err.Error() != path+": larger than 99 bytes, the most this command reads (--max-bytes 99); nothing was read" {
		t.Errorf("a 100-byte file at limit 99: %v", err)
	}
	if off, _ := f.Seek(0, 1); off != 0 {
		t.Errorf("the file over the limit was read to offset %d", off)
	}
}

// TestCommandsBoundedInput: every command that reads a file stops at its
// --max-bytes, on an endless input (/dev/zero) and on a file too large,
// with the error naming the limit and exit status 1; standings and
// ratings of an empty file say so, with exit status 1 (issue 18 §5).
func TestCommandsBoundedInput(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero:", err)
	}
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.tafl")
	big := filepath.Join(dir, "cup.yaml")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, []byte("id: cup-2027\n"+strings.Repeat("# a comment\n", 100_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	tooLarge := "larger than 4 KiB, the most this command reads (--max-bytes 4096); nothing was read"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"validate", "--max-bytes", "4096", "/dev/zero"}, "/dev/zero: " + tooLarge},
		{[]string{"validate", "--json", "--max-bytes", "4096", "/dev/zero"}, "/dev/zero: " + tooLarge},
		{[]string{"standings", "--max-bytes", "4096", "/dev/zero"}, "/dev/zero: " + tooLarge},
		{[]string{"ratings", "--max-bytes", "4096", "/dev/zero"}, "/dev/zero: " + tooLarge},
		{[]string{"convert", "--to", "csv", "--max-bytes", "4096", "/dev/zero"}, "/dev/zero: " + tooLarge},
		{[]string{"diagram", "--max-bytes", "4096", "/dev/zero"}, "/dev/zero: " + tooLarge},
		{[]string{"analyse", "--depth", "1", "--max-bytes", "4096", "/dev/zero"}, "/dev/zero: " + tooLarge},
		{[]string{"tournament", "create", "--max-bytes", "4096", "/dev/zero", "--archive-path", newArchiveFile(t)}, "/dev/zero: " + tooLarge},
		{[]string{"tournament", "create", big, "--archive-path", newArchiveFile(t)}, big + ": larger than 1 MiB, the most this command reads (--max-bytes 1048576); nothing was read"},
		{[]string{"standings", empty}, empty + ": no game in the file"},
		{[]string{"ratings", empty}, empty + ": no game in the file"},
	} {
		r := run(t, tc.args...)
		if r.code != exitFailure || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%s = code %d, stderr %q; want 1 and %q", strings.Join(tc.args, " "), r.code, r.stderr, tc.want)
		}
	}
}
