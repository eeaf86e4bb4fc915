package tournaments

import (
	"testing"

	"github.com/taflmail/taflmail/server/internal/referee"
)

// TestTourneyOf: the tournaments' accessor makes its state in the
// module's slot on first use (Uses sees it), returns the same one after,
// and sessions share none (package server's TestModuleStateOf holds the
// slots of the modules together).
func TestTourneyOf(t *testing.T) {
	a, b := &referee.Session{}, &referee.Session{}
	if a.Uses(Module{}) {
		t.Fatal("a new session uses the tournament module")
	}
	ts := tourneyOf(a)
	if !a.Uses(Module{}) || tourneyOf(a) != ts {
		t.Error("tourneyOf made a state that Uses does not see or the next call does not return")
	}
	ts.ended = true
	if b.Uses(Module{}) || tourneyOf(b).ended || tourneyOf(b) == ts {
		t.Error("two sessions share the tournaments' state")
	}
	if !tourneyOf(a).ended {
		t.Error("the state lost what was set in it")
	}
}
