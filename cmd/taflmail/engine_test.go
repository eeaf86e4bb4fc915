package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

func TestEngineUsage(t *testing.T) {
	for _, args := range [][]string{{"engine"}, {"engine", "--otep", "--level", "0"}, {"engine", "--otep", "x"}} {
		r := run(t, args...)
		if r.code != exitUsage {
			t.Errorf("taflmail %q = code %d, want %d (stderr %q)", args, r.code, exitUsage, r.stderr)
		}
	}
}

// TestEngineCommandSpeaksOTEP: `taflmail engine --otep` hands its standard
// input and output to package otep with its flags: it says hello, plays a
// move at --depth and ends with its input (after the search) with status 0. The protocol itself
// is tested in package otep.
func TestEngineCommandSpeaksOTEP(t *testing.T) {
	v, _ := engine.Lookup("brandubh")
	rules, err := notation.RulesString(v)
	if err != nil {
		t.Fatal(err)
	}
	root := NewRootCommand()
	root.SetIn(strings.NewReader("rules " + rules + "\nside attackers\nplay attackers\n"))
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs([]string{"engine", "--otep", "--depth", "1"})
	code := report(&errb, root.Execute())
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if code != exitOK || len(lines) != 3 || lines[0] != "hello" || !strings.HasPrefix(lines[1], "status depth 1 ") || !strings.HasPrefix(lines[2], "move ") {
		t.Errorf("taflmail engine --otep --depth 1 = code %d, stdout %q, stderr %q; want hello, status depth 1, a move", code, out.String(), errb.String())
	}
}
