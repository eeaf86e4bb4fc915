//go:build unix

package e2e

import (
	"syscall"
	"testing"
)

// processCPU returns the CPU time the test process has used so far, user
// and system, in nanoseconds (getrusage RUSAGE_SELF): the referee, the
// in-process servers and the clients together. Taken around the timed
// loop, it is the work a mail costs, which waiting for a core or the disk
// on a loaded machine changes far less than it changes mails/s; the
// benchmarks report it per mail as cpu-µs/mail.
func processCPU(tb testing.TB) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
