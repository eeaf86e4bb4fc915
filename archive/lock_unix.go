//go:build unix

package archive

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"
)

// fileLock is an exclusive advisory lock (flock(2)) on the file next to
// the database that [Options.Exclusive] asks for. The kernel drops it when
// the process ends in any way, kill -9 included, so a crashed daemon never
// leaves a stale lock behind.
type fileLock struct{ f *os.File }

// lockFile takes the lock on path without waiting. When another process
// holds it, the error wraps [ErrLocked] and repeats what the holder wrote
// into the file (its pid and start time).
func lockFile(path string) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			who := strings.TrimSpace(string(holder))
			if who == "" {
				who = "unknown process"
			}
			return nil, fmt.Errorf("%s is held by %s: %w", path, who, ErrLocked)
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		fmt.Fprintf(f, "pid %d since %s\n", os.Getpid(), time.Now().UTC().Format(time.RFC3339))
	}
	return &fileLock{f: f}, nil
}

// release drops the lock. The file stays: removing it could let a third
// process lock a new file while a second still waits on the old one.
func (l *fileLock) release() error {
	if l == nil {
		return nil
	}
	_ = l.f.Truncate(0)
	return l.f.Close()
}
