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
	if t.G.Status == archive.Invited && ss.From == t.G.Challenger {
		return nil, ss.Refuse("err.ownchallenge", t.G.ID) // the challenger may withdraw it (invitations.go)
	}
	if t.G.Status == archive.Active && t.G.Challenger != "" && (ss.From == t.G.Attackers || ss.From == t.G.Defenders) {
		// a game with a challenger began with an accept; one without (a
		// tournament's pairing) never had a challenge to accept
		if ss.From == t.G.Challenger {
			return nil, ss.Refuse("err.running.own", t.G.ID, OpponentOf(t.G, ss.From), catalog.Instant(ss.Lang, t.G.StartedAt))
		}
		return nil, ss.Refuse("err.running", t.G.ID, catalog.Instant(ss.Lang, t.G.StartedAt))
	}
	if t.G.Status != archive.Invited {
		return nil, ss.Refuse("err.notinvited", t.G.ID)
	}
	return t, nil
}

// accept starts an invited game: both players get the board.
func (ss *Session) accept(*grammar.AcceptCommand) error {
	t, err := ss.invitation()
	if err != nil {
		return err
	}
	t.G.Status = archive.Active
	t.G.StartedAt = ss.Now // the first mover's clock starts (CORRESPONDENCE.md §2.1)
	t.Changed = true
	ss.Tell(t.G.Challenger, t, func(lang string) string {
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
	t.G.Status = archive.Declined
	t.Changed = true
	ss.Say(t, Tr(ss.Lang, "challenge.you.declined"))
	ss.Tell(t.G.Challenger, t, func(lang string) string {
		return Tr(lang, "challenge.declined", ss.From)
	})
	for _, n := range ss.Notes {
		if n.Game == t { // not the notes of a game this mail starts
			n.Subject = Tr(n.Lang, "subject.declined", VariantTitle(n.Lang, t.V))
		}
	}
	return nil
}
