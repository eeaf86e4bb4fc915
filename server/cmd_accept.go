package server

import (
	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/catalog"
)

func init() {
	handle("accept", (*session).accept)
	handle("decline", (*session).decline)
	helpLine(20, "help.accept")
}

// invitation returns the invited game the mail answers, checking that the
// sender is the invited player and carries the key. A challenged game of
// the sender that is already running is refused as such (trial 22: a
// second accept was told there was no challenge for them), saying when it
// was accepted.
func (ss *session) invitation() (*table, error) {
	t, err := ss.gameForCommand()
	if err != nil {
		return nil, err
	}
	if t.g.Status == archive.Invited && ss.from == t.g.Challenger {
		return nil, ss.refuse("err.ownchallenge", t.g.ID) // the challenger may withdraw it (invitations.go)
	}
	if t.g.Status == archive.Active && t.g.Challenger != "" && (ss.from == t.g.Attackers || ss.from == t.g.Defenders) {
		// a game with a challenger began with an accept; one without (a
		// tournament's pairing) never had a challenge to accept
		if ss.from == t.g.Challenger {
			return nil, ss.refuse("err.running.own", t.g.ID, opponentOf(t.g, ss.from), catalog.Instant(ss.lang, t.g.StartedAt))
		}
		return nil, ss.refuse("err.running", t.g.ID, catalog.Instant(ss.lang, t.g.StartedAt))
	}
	if t.g.Status != archive.Invited {
		return nil, ss.refuse("err.notinvited", t.g.ID)
	}
	return t, nil
}

// accept starts an invited game: both players get the board.
func (ss *session) accept(*grammar.AcceptCommand) error {
	t, err := ss.invitation()
	if err != nil {
		return err
	}
	t.g.Status = archive.Active
	t.g.StartedAt = ss.now // the first mover's clock starts (CORRESPONDENCE.md §2.1)
	t.changed = true
	ss.tell(t.g.Challenger, t, func(lang string) string {
		return tr(lang, "challenge.accepted", ss.from)
	})
	ss.say(t, tr(ss.lang, "challenge.accepted.you")) // the accepter reads "You accepted …"
	ss.showPosition(t)
	return nil
}

// decline refuses an invitation.
func (ss *session) decline(*grammar.DeclineCommand) error {
	t, err := ss.invitation()
	if err != nil {
		return err
	}
	t.g.Status = archive.Declined
	t.changed = true
	ss.say(t, tr(ss.lang, "challenge.you.declined"))
	ss.tell(t.g.Challenger, t, func(lang string) string {
		return tr(lang, "challenge.declined", ss.from)
	})
	for _, n := range ss.notes {
		if n.game == t { // not the notes of a game this mail starts
			n.subject = tr(n.lang, "subject.declined", variantTitle(n.lang, t.v))
		}
	}
	return nil
}
