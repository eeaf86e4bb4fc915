package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

// Every file a command reads has a size limit (issue 18 §5: `validate
// /dev/zero` once read 12 GB): the command reads at most one byte more
// than its --max-bytes and then fails with *tooLargeError, having kept
// nothing. docs/security.md lists the limits.
const (
	// defaultMaxRecordBytes bounds a record file (validate, standings,
	// ratings, convert, diagram, analyse): 64 MiB, about 30,000 CSV
	// games of 300 plies, 200 times the shared corpus.
	defaultMaxRecordBytes = 64 << 20
	// defaultMaxTournamentBytes bounds a tournament file (tournament
	// create): 1 MiB, about 30,000 players' addresses.
	defaultMaxTournamentBytes = 1 << 20
)

// tooLargeError is the failure of a file larger than the command reads.
type tooLargeError struct {
	name  string
	limit int64
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("%s: larger than %s, the most this command reads (--max-bytes %d); nothing was read", e.name, byteSize(e.limit), e.limit)
}

// byteSize writes n bytes in words: "64 MiB", "1 MiB", "1500 bytes".
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// addMaxBytesFlag defines --max-bytes on cmd, the largest file it reads,
// into *max with default def.
func addMaxBytesFlag(cmd *cobra.Command, max *int64, def int64, what string) {
	cmd.Flags().Int64Var(max, "max-bytes", def, "largest "+what+" read, in bytes; a larger one is refused unread")
}

// maxBytes returns cmd's --max-bytes (addMaxBytesFlag), or def when it
// has none.
func maxBytes(cmd *cobra.Command, def int64) int64 {
	if n, err := cmd.Flags().GetInt64("max-bytes"); err == nil {
		return n
	}
	return def
}

// openAll checks that every file of names can be opened, before any is
// read: one that cannot is readError's usage error.
func openAll(cmd *cobra.Command, names []string) error {
	for _, name := range names {
		f, err := openFile(cmd, name)
		if err != nil {
			return err
		}
		f.Close()
	}
	return nil
}

// openFile opens name for reading. An error is readError's usage error
// (exit status 2): the command line names a file that is not there.
func openFile(cmd *cobra.Command, name string) (*os.File, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, readError(cmd, err)
	}
	return f, nil
}

// readFileLimited reads file name whole, failing with *tooLargeError
// when it holds more than limit bytes; readError's usage error when it
// cannot be opened or read.
func readFileLimited(cmd *cobra.Command, name string, limit int64) ([]byte, error) {
	f, err := openFile(cmd, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readLimited(f, name, limit)
	if _, tooLarge := err.(*tooLargeError); err != nil && !tooLarge {
		return nil, readError(cmd, err)
	}
	return data, err
}

// readLimited reads r to its end: at most limit+1 bytes of it, and
// fails with *tooLargeError, keeping nothing, when there are more than
// limit. A regular file larger than limit is refused before any read; an
// endless one (/dev/zero, a pipe) is read up to the limit. The buffer
// grows as the bytes come (at most about twice what was read), so a
// small file costs little whatever the limit.
func readLimited(r io.Reader, name string, limit int64) ([]byte, error) {
	grow := 0
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			if fi.Size() > limit {
				return nil, &tooLargeError{name, limit}
			}
			grow = int(fi.Size()) + 1 // +1: ReadFrom then needs no second buffer to see the end
		}
	}
	var b bytes.Buffer
	b.Grow(grow)
	n, err := b.ReadFrom(io.LimitReader(r, limit+1))
	if n > limit {
		return nil, &tooLargeError{name, limit}
	}
	if err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
