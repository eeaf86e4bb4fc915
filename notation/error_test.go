package notation

import (
	"testing"

	"github.com/taflmail/taflmail/engine"
)

// TestErrorText: *Error prints its position as grammar's errors do
// (grammar.Positioned), then the ply and move, then the message; without
// file and line it says "notation:".
func TestErrorText(t *testing.T) {
	for _, tc := range []struct {
		err  *Error
		want string
	}{
		{&Error{Filename: "g.tafl", Line: 4, Col: 9, Ply: 23, Side: engine.Attackers, Move: "d4-d8", Message: "path blocked at d6"},
			"g.tafl:4:9: ply 23 (attackers) d4-d8: path blocked at d6"},
		{&Error{Line: 1, Col: 5, Kind: KindSyntax, Message: "rank 12 is off the board"}, "1:5: rank 12 is off the board"},
		{&Error{Filename: "g.csv", Ply: 2, Side: engine.Defenders, Move: "resigns", Message: "a resignation before the last ply"},
			"g.csv: ply 2 (defenders) resigns: a resignation before the last ply"},
		{&Error{Kind: KindSetup, Message: "unknown variant \"x\""}, "notation: unknown variant \"x\""},
		{&Error{Ply: 1, Side: engine.Attackers, Message: "illegal"}, "notation: ply 1 (attackers) illegal"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}
