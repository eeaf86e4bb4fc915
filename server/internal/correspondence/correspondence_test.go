package correspondence

import (
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// The correspondence features play mails in package server's tests, which
// run the assembled referee; here is what needs no mail.

// TestCorrOf: the correspondence's accessor makes its state in the
// module's slot on first use (Uses sees it), returns the same one after,
// and sessions share none (package server's TestModuleStateOf holds the
// slots of the modules together).
func TestCorrOf(t *testing.T) {
	a, b := &referee.Session{}, &referee.Session{}
	if a.Uses(Module{}) {
		t.Fatal("a new session uses the correspondence module")
	}
	c := corrOf(a)
	if !a.Uses(Module{}) || corrOf(a) != c {
		t.Error("corrOf made a state that Uses does not see or the next call does not return")
	}
	c.spectatorsAdded = append(c.spectatorsAdded, archive.Spectator{GameID: "K7QX2M", Address: "alice@example.org"})
	if b.Uses(Module{}) || len(corrOf(b).spectatorsAdded) != 0 || corrOf(b) == c {
		t.Error("two sessions share the correspondence state")
	}
	if len(corrOf(a).spectatorsAdded) != 1 {
		t.Errorf("the state holds %d spectators added, want the 1 added", len(corrOf(a).spectatorsAdded))
	}
}
