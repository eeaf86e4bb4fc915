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
	t.Game.Status = archive.Finished
	t.Game.Reason = "resignation"
	t.Game.Result = "attackers"
	if SideOf(t.Game, ss.From) == "attackers" {
		t.Game.Result = "defenders"
	}
	t.Game.DrawOfferBy = ""
	t.Changed = true
	ss.ShowPosition(t)
	return nil
}
