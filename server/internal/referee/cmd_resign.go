package referee

import (
	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
)

func init() {
	Handle("resign", (*Session).resign)
	HelpLine(80, "help.resign")
}

// resign ends the game in the opponent's favour; either player may resign
// at any time (RULES.md §1.7). It is also what the move "---" (a
// resignation token) does; then c is nil.
func (ss *Session) resign(c *grammar.ResignCommand) error {
	t, err := ss.ActiveGame()
	if err != nil {
		return err
	}
	t.G.Status = archive.Finished
	t.G.Reason = "resignation"
	t.G.Result = "attackers"
	if SideOf(t.G, ss.From) == "attackers" {
		t.G.Result = "defenders"
	}
	t.G.DrawOfferBy = ""
	t.Changed = true
	ss.ShowPosition(t)
	return nil
}
