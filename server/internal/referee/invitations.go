package referee

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

// InvitationKey is the key of an invited game's expiry timer; the key of
// a running game's timers always names a ply ("ply 12 deadline").
const InvitationKey = "invitation expiry"

func init() {
	Handle("cancel challenge", (*Session).cancelChallenge)
	HelpLine(25, "help.cancel")
}

// cancelChallenge withdraws the sender's open challenge: only its
// challenger, with the key, while nobody has answered it. The invited
// player is told, unless it never wrote to the referee (consent.go): an
// address that never proved its mailbox gets the invitation and nothing
// more.
func (ss *Session) cancelChallenge(*grammar.CancelChallengeCommand) error {
	t, err := ss.GameForCommand()
	if err != nil {
		return err
	}
	if t.Game.Status != archive.Invited || ss.From != t.Game.Challenger {
		return ss.Refuse("err.nochallenge", t.Game.ID)
	}
	opp := OpponentOf(t.Game, ss.From)
	ss.endInvitation(t, ReasonWithdrawn)
	ss.Say(t, Tr(ss.Lang, "challenge.withdrawn.you", opp))
	if ss.Proved(opp) {
		ss.Tell(opp, t, func(lang string) string { return Tr(lang, "challenge.withdrawn", ss.From) })
	}
	for _, n := range ss.Notes {
		if n.Game == t { // not the notes of a game this mail starts
			n.Subject = Tr(n.Lang, "subject.withdrawn", VariantTitle(n.Lang, t.Variant))
		}
	}
	return nil
}

// endInvitation declines the invited game t for reason.
func (ss *Session) endInvitation(t *Table, reason string) {
	t.Game.Status = archive.Declined
	t.Game.Reason = reason
	t.Changed = true
}

// invitationExpiry is how long a challenge waits for an answer, 0 for
// ever (Options.InvitationExpiry).
func (s *Server) invitationExpiry() time.Duration { return s.Opts.InvitationExpiry }

// InvitationPlan is the timer plan of an invited game: its expiry, or no
// timer when invitations do not expire.
func (s *Server) InvitationPlan(g *archive.Game) archive.TimerPlan {
	if s.invitationExpiry() <= 0 {
		return archive.TimerPlan{}
	}
	return archive.TimerPlan{Ply: 1, Timers: []archive.Timer{{
		Key: InvitationKey, Kind: archive.TimerDeadline, Ply: 1, Due: g.CreatedAt.Add(s.invitationExpiry()),
	}}}
}

// ExpireInvitation ends the invited game t whose expiry timer is due and
// tells the challenger. It reports whether it did.
func (ss *Session) ExpireInvitation(t *Table, tm archive.Timer, now time.Time) bool {
	if t.Game.Status != archive.Invited || tm.Key != InvitationKey || tm.Due.After(now) {
		return false
	}
	ss.endInvitation(t, ReasonExpired)
	opp := OpponentOf(t.Game, t.Game.Challenger)
	days := int(ss.Server.invitationExpiry().Round(24*time.Hour) / (24 * time.Hour))
	lang := ss.LangOf(t.Game.Challenger)
	ss.Tell(t.Game.Challenger, t, func(lang string) string { return Trn(lang, "challenge.expired", days, opp, days) })
	ss.Notes[t.Game.Challenger].Subject = Tr(lang, "subject.expired", VariantTitle(lang, t.Variant))
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
	_, err := s.Transact(ctx, UndeliverableCause(m), Steps{
		Decide: func(ss *Session, _ *archive.Change) (Verdict, error) { return s.decideUndeliverable(ss, m) },
		Committed: func(archive.Change) {
			s.Log.Info("invitation undeliverable: challenge ended", "game", m.GameID, "to", m.To[0])
		},
	})
	if err != nil {
		s.Log.Error("ending an undeliverable invitation failed", "game", m.GameID, "err", err)
	}
}

// decideUndeliverable works out in session ss the end of the invitation
// that failed outbox mail m carried: nothing to commit when m is no
// invitation of a game still invited.
func (s *Server) decideUndeliverable(ss *Session, m archive.OutboxMail) (Verdict, error) {
	ss.Lang = s.Opts.DefaultLanguage
	t, err := ss.Table(m.GameID)
	var r *Refusal
	if errors.As(err, &r) {
		return CommitNothing, nil // no such game
	}
	if err != nil {
		return CommitNothing, err
	}
	invitee := OpponentOf(t.Game, t.Game.Challenger)
	if t.Game.Status != archive.Invited || m.To[0] != invitee {
		return CommitNothing, nil
	}
	ss.endInvitation(t, ReasonUndeliverable)
	lang := ss.LangOf(t.Game.Challenger)
	ss.Tell(t.Game.Challenger, t, func(lang string) string { return Tr(lang, "challenge.undeliverable", invitee) })
	ss.Notes[t.Game.Challenger].Subject = Tr(lang, "subject.undeliverable", VariantTitle(lang, t.Variant))
	return CommitReplies, nil
}
