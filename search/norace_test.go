//go:build !race

package search

// raceEnabled is true under the race detector, which makes the full-width
// verification of the deepest tactics too slow (see tactics_test.go).
const raceEnabled = false
