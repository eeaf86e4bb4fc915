package server

import (
	"context"
	"errors"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
)

// The end of a challenge that is never accepted (trial report §6). A
// challenge ends declined (archive.Declined) in one of four ways, each
// told to the challenger, with the game's Reason saying which:
//
//   - the invited player declines it (cmd_accept.go; Reason "");
//   - the challenger withdraws it with "cancel challenge" (Reason
//     "withdrawn");
//   - the invitation cannot be delivered: the SMTP server refused it for
//     good (FlushOutbox; Reason "undeliverable");
//   - nobody answers it within Options.InvitationExpiry (Reason
//     "expired"): a scheduler timer of kind deadline, so that an answer
//     that arrived in time is read first (Decision C4, scheduler.go).
//
// A bounce that comes back later as a mail (a DSN) is not matched to the
// invitation; the invitation then expires.

// DefaultInvitationExpiry is how long a challenge waits for an answer when
// Options.InvitationExpiry is 0: 14 days.
const DefaultInvitationExpiry = 14 * 24 * time.Hour

// invitationKey is the key of an invited game's expiry timer; the key of
// a running game's timers always names a ply ("ply 12 deadline").
const invitationKey = "invitation expiry"

// Reasons of a declined game other than the invited player's decline.
const (
	reasonWithdrawn     = "withdrawn"
	reasonExpired       = "expired"
	reasonUndeliverable = "undeliverable"
)

func init() {
	handle("cancel challenge", (*session).cancelChallenge)
	helpLine(25, "help.cancel")
}

// cancelChallenge withdraws the sender's open challenge: only its
// challenger, with the key, while nobody has answered it. The invited
// player is told, unless it never wrote to the referee (consent.go): an
// address that never proved its mailbox gets the invitation and nothing
// more.
func (ss *session) cancelChallenge(*grammar.CancelChallengeCommand) error {
	t, err := ss.gameForCommand()
	if err != nil {
		return err
	}
	if t.g.Status != archive.Invited || ss.from != t.g.Challenger {
		return ss.refuse("err.nochallenge", t.g.ID)
	}
	opp := opponentOf(t.g, ss.from)
	ss.endInvitation(t, reasonWithdrawn)
	ss.say(t, tr(ss.lang, "challenge.withdrawn.you", opp))
	if ss.proved(opp) {
		ss.tell(opp, t, func(lang string) string { return tr(lang, "challenge.withdrawn", ss.from) })
	}
	for _, n := range ss.notes {
		if n.game == t { // not the notes of a game this mail starts
			n.subject = tr(n.lang, "subject.withdrawn", variantTitle(n.lang, t.v))
		}
	}
	return nil
}

// endInvitation declines the invited game t for reason.
func (ss *session) endInvitation(t *table, reason string) {
	t.g.Status = archive.Declined
	t.g.Reason = reason
	t.changed = true
}

// invitationExpiry is how long a challenge waits for an answer, 0 for
// ever (Options.InvitationExpiry).
func (s *Server) invitationExpiry() time.Duration { return s.opts.InvitationExpiry }

// invitationPlan is the timer plan of an invited game: its expiry, or no
// timer when invitations do not expire.
func (s *Server) invitationPlan(g *archive.Game) archive.TimerPlan {
	if s.invitationExpiry() <= 0 {
		return archive.TimerPlan{}
	}
	return archive.TimerPlan{Ply: 1, Timers: []archive.Timer{{
		Key: invitationKey, Kind: archive.TimerDeadline, Ply: 1, Due: g.CreatedAt.Add(s.invitationExpiry()),
	}}}
}

// expireInvitation ends the invited game t whose expiry timer is due and
// tells the challenger. It reports whether it did.
func (ss *session) expireInvitation(t *table, tm archive.Timer, now time.Time) bool {
	if t.g.Status != archive.Invited || tm.Key != invitationKey || tm.Due.After(now) {
		return false
	}
	ss.endInvitation(t, reasonExpired)
	opp := opponentOf(t.g, t.g.Challenger)
	days := int(ss.srv.invitationExpiry().Round(24*time.Hour) / (24 * time.Hour))
	lang := ss.langOf(t.g.Challenger)
	ss.tell(t.g.Challenger, t, func(lang string) string { return trn(lang, "challenge.expired", days, opp, days) })
	ss.notes[t.g.Challenger].subject = tr(lang, "subject.expired", variantTitle(lang, t.v))
	return true
}

// invitationFailed is called when the outbox gave mail m up for good: when
// it is the invitation of a game still invited, the game ends
// (undeliverable) and the challenger is told, in a change of the
// referee's own committed like a timer's. Failures are logged: the
// invitation then expires as any unanswered one.
func (s *Server) invitationFailed(ctx context.Context, m archive.OutboxMail) {
	if m.GameID == "" || len(m.To) != 1 {
		return
	}
	// the cause's seed seeds the replies' Message-IDs: a repeat writes the same
	_, err := s.transact(ctx, undeliverableCause(m), steps{
		decide: func(ss *session, _ *archive.Change) (verdict, error) { return s.decideUndeliverable(ss, m) },
		committed: func(archive.Change) {
			s.log.Info("invitation undeliverable: challenge ended", "game", m.GameID, "to", m.To[0])
		},
	})
	if err != nil {
		s.log.Error("ending an undeliverable invitation failed", "game", m.GameID, "err", err)
	}
}

// decideUndeliverable works out in session ss the end of the invitation
// that failed outbox mail m carried: nothing to commit when m is no
// invitation of a game still invited.
func (s *Server) decideUndeliverable(ss *session, m archive.OutboxMail) (verdict, error) {
	ss.lang = s.opts.DefaultLanguage
	t, err := ss.table(m.GameID)
	var r *refusal
	if errors.As(err, &r) {
		return commitNothing, nil // no such game
	}
	if err != nil {
		return commitNothing, err
	}
	invitee := opponentOf(t.g, t.g.Challenger)
	if t.g.Status != archive.Invited || m.To[0] != invitee {
		return commitNothing, nil
	}
	ss.endInvitation(t, reasonUndeliverable)
	lang := ss.langOf(t.g.Challenger)
	ss.tell(t.g.Challenger, t, func(lang string) string { return tr(lang, "challenge.undeliverable", invitee) })
	ss.notes[t.g.Challenger].subject = tr(lang, "subject.undeliverable", variantTitle(lang, t.v))
	return commitReplies, nil
}
