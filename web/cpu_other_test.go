//go:build !unix

package web_test

import "time"

// cpuTime is unknown here: the CPU column reads 0.
func cpuTime() time.Duration { return 0 }
