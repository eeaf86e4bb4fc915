//go:build !race

package engine

// raceEnabled is true when the tests run under the race detector, which
// makes deep perft too slow to run (see perft_test.go).
const raceEnabled = false
