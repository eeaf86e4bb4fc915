package server

import (
	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
)

func init() {
	handle("resign", (*session).resign)
	helpLine(80, "help.resign")
}

// resign ends the game in the opponent's favour; either player may resign
// at any time (RULES.md §1.7). It is also what the move "---" (a
// resignation token) does; then c is nil.
func (ss *session) resign(c *grammar.ResignCommand) error {
	t, err := ss.activeGame()
	if err != nil {
		return err
	}
	t.g.Status = archive.Finished
	t.g.Reason = "resignation"
	t.g.Result = "attackers"
	if sideOf(t.g, ss.from) == "attackers" {
		t.g.Result = "defenders"
	}
	t.g.DrawOfferBy = ""
	t.changed = true
	ss.showPosition(t)
	return nil
}
