package referee

import (
	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/catalog"
)

func init() {
	Handle("accept", (*Session).accept)
	Handle("decline", (*Session).decline)
	HelpLine(20, "help.accept")
}

// invitation returns the invited game the mail answers, checking that the
// sender is the invited player and carries the key. A challenged game of
// the sender that is already running is refused as such (trial 22: a
// second accept was told there was no challenge for them), saying when it
// was accepted.
func (ss *Session) invitation() (*Table, error) {
	t, err := ss.GameForCommand()
	if err != nil {
		return nil, err
	}
	if t.Game.Status == archive.Invited && ss.From == t.Game.Challenger {
		return nil, ss.Refuse("err.ownchallenge", t.Game.ID) // the challenger may withdraw it (invitations.go)
	}
	if t.Game.Status == archive.Active && t.Game.Challenger != "" && (ss.From == t.Game.Attackers || ss.From == t.Game.Defenders) {
		// a game with a challenger began with an accept; one without (a
		// tournament's pairing) never had a challenge to accept
		if ss.From == t.Game.Challenger {
			return nil, ss.Refuse("err.running.own", t.Game.ID, OpponentOf(t.Game, ss.From), catalog.Instant(ss.Lang, t.Game.StartedAt))
		}
		return nil, ss.Refuse("err.running", t.Game.ID, catalog.Instant(ss.Lang, t.Game.StartedAt))
	}
	if t.Game.Status != archive.Invited {
		return nil, ss.Refuse("err.notinvited", t.Game.ID)
	}
	return t, nil
}

// accept starts an invited game: both players get the board.
func (ss *Session) accept(*grammar.AcceptCommand) error {
	t, err := ss.invitation()
	if err != nil {
		return err
	}
	t.Game.Status = archive.Active
	t.Game.StartedAt = ss.Now // the first mover's clock starts (CORRESPONDENCE.md §2.1)
	t.Changed = true
	ss.Tell(t.Game.Challenger, t, func(lang string) string {
		return Tr(lang, "challenge.accepted", ss.From)
	})
	ss.Say(t, Tr(ss.Lang, "challenge.accepted.you")) // the accepter reads "You accepted …"
	ss.ShowPosition(t)
	return nil
}

// decline refuses an invitation.
func (ss *Session) decline(*grammar.DeclineCommand) error {
	t, err := ss.invitation()
	if err != nil {
		return err
	}
	t.Game.Status = archive.Declined
	t.Changed = true
	ss.Say(t, Tr(ss.Lang, "challenge.you.declined"))
	ss.Tell(t.Game.Challenger, t, func(lang string) string {
		return Tr(lang, "challenge.declined", ss.From)
	})
	for _, n := range ss.Notes {
		if n.Game == t { // not the notes of a game this mail starts
			n.Subject = Tr(n.Lang, "subject.declined", VariantTitle(n.Lang, t.Variant))
		}
	}
	return nil
}
