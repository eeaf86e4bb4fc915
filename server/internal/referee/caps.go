package referee

import (
	"context"
	"fmt"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/catalog"
)

// Caps on what the referee answers, against mail loops, backscatter and
// amplification (docs/security.md, issues 8 and 18). A mail that carries
// the sender's valid key for its game is always handled, and answered
// whenever it changed a game; only loopBreaker may keep back the answer
// to a keyed mail that changed nothing. Every other cap applies to mails
// without the sender's key, each counted in the budget triage gives it
// (triage.go): a confirmation carrying its key is never held back; a
// valid command is held back only by the budgets of its sender and its
// domain, counted over commands alone; junk is held back by its sender's,
// its domain's and the one for all senders together, counted over junk
// alone. So no flood of junk can keep a newcomer's challenge, engine game
// or join from being carried out and answered.
//
// The counts come from the archive (archive.MailFilter over the processed
// mails of the last hour or the last BudgetWindow), so they hold across
// restarts. What the caps hold back is logged once a minute (HeldLog).

// MaxRepliesPerHour caps the keyless mails of one budget (junk, or
// commands) the referee answers for one address per hour, whatever they
// ask; a person playing by mail stays far below it, and whatever loops
// with us without a key (a responder that ignores RFC 3834) stops getting
// answers.
const MaxRepliesPerHour = 30

// BudgetWindow is the window the per-domain budget and the budget for
// junk from all senders count in (issue 18 §2: at most 60 replies to junk
// per 10 minutes).
const BudgetWindow = 10 * time.Minute

// DefaultJunkReplies is the default of Options.JunkReplies: how many
// mails of junk (archive.JunkBudget), from all senders together, the
// referee answers per BudgetWindow.
const DefaultJunkReplies = 60

// DefaultDomainReplies is the default of Options.DomainReplies: how many
// keyless mails of one budget (junk, or commands) from the addresses of
// one organizational domain the referee answers per BudgetWindow.
const DefaultDomainReplies = 20

// MaxKeyedRefusals is how many refused keyed mails about one game one
// player is answered per hour; MaxRepliesPerHour bounds the answered keyed
// mails about one game that changed nothing (board, help, …). Past either,
// a keyed mail that changed nothing is recorded but not answered. They
// break a loop with an auto-responder that quotes our subject, and so our
// key, without our loop headers; no person sends that many mails about one
// game in an hour, and a mail that changes the game (a move, a
// resignation, a draw offer or answer, an accepted challenge) is always
// answered.
const MaxKeyedRefusals = 10

// hourAgo is the start of the window the hourly caps count in.
func hourAgo(now time.Time) time.Time { return now.Add(-time.Hour) }

// replyBudget says why a keyless mail from addr, counted in budget b
// (triage.go), is not answered at all, or "" when it may be, and which cap
// held it: for junk and for commands the sender's hourly cap
// (MaxRepliesPerHour) and its domain's budget (Options.DomainReplies),
// each counted over mails of the same budget only; for junk last the
// budget for all senders together (Options.JunkReplies). A confirmation
// carrying its key and a keyed mail (archive.NoBudget) are never held.
// Such a mail is recorded as ignored with the reason and nothing it asks
// for is done.
func (s *Server) replyBudget(ctx context.Context, addr, domain string, b archive.MailBudget, now time.Time) (string, heldBy, error) {
	if b != archive.JunkBudget && b != archive.CommandBudget {
		return "", NotHeld, nil
	}
	what := "mails without a key"
	if b == archive.CommandBudget {
		what = "mails with a command"
	}
	n, err := s.recordPort().CountMails(ctx, archive.MailFilter{From: addr, Auth: archive.OnlyUnauthenticated, Budget: b,
		AnsweredOnly: true, Since: hourAgo(now)})
	if err != nil {
		return "", NotHeld, err
	}
	if n >= MaxRepliesPerHour {
		return fmt.Sprintf("reply cap for this sender reached: %d %s answered in the last hour", n, what), bySenderCap, nil
	}
	if domain != "" {
		n, err := s.recordPort().CountMails(ctx, archive.MailFilter{Domain: domain, Auth: archive.OnlyUnauthenticated, Budget: b,
			AnsweredOnly: true, Since: now.Add(-BudgetWindow)})
		if err != nil {
			return "", NotHeld, err
		}
		if n >= s.Opts.DomainReplies {
			return fmt.Sprintf("reply budget for the domain %s spent: %d %s answered in the last %v (server.domain_replies_per_10m)",
				domain, n, what, BudgetWindow), ByDomainBudget, nil
		}
	}
	if b != archive.JunkBudget {
		return "", NotHeld, nil
	}
	if s.Opts.JunkReplies == 0 {
		return "replies to mails without a key or a valid command are switched off (server.junk_replies_per_10m)", ByJunkBudget, nil
	}
	all, err := s.recordPort().CountMails(ctx, archive.MailFilter{Auth: archive.OnlyUnauthenticated, Budget: archive.JunkBudget,
		AnsweredOnly: true, Since: now.Add(-BudgetWindow)})
	if err != nil {
		return "", NotHeld, err
	}
	if all >= s.Opts.JunkReplies {
		return fmt.Sprintf("reply budget for mails without a key or a valid command spent: %d answered in the last %v (server.junk_replies_per_10m)",
			all, BudgetWindow), ByJunkBudget, nil
	}
	return "", NotHeld, nil
}

// loopBreaker says why the sender's reply to a keyed mail that changed no
// game is not sent, or "" when it is (see MaxKeyedRefusals); the sender's
// note is then dropped. A keyed mail that changed a game is always
// answered.
func (ss *Session) loopBreaker(disposition string) (string, heldBy, error) {
	if ss.Auth == nil || ss.changedGame() {
		return "", NotHeld, nil
	}
	f := archive.MailFilter{From: ss.From, GameID: ss.Auth.Game.ID, Auth: archive.OnlyAuthenticated,
		AnsweredOnly: true, Since: hourAgo(ss.Now)}
	limit := MaxRepliesPerHour
	if disposition != Applied {
		f.Disposition, limit = disposition, MaxKeyedRefusals
	}
	n, err := ss.Server.recordPort().CountMails(ss.Ctx, f)
	if err != nil {
		return "", NotHeld, err
	}
	if n >= limit {
		ss.dropNotes(ss.From)
		return fmt.Sprintf("loop breaker: %d keyed mails about game %s that changed nothing were answered in the last hour", n, ss.Auth.Game.ID), byLoopBreaker, nil
	}
	if n == limit-1 {
		return "", NotHeld, ss.tellPause(f, n+1)
	}
	return "", NotHeld, nil
}

// tellPause adds to the sender's reply, the last one loopBreaker lets
// through, why the next ones are held and until when: counted is how
// many mails filter f counts with this one; replies resume when the
// oldest of them is an hour old (f.Since is the start of the hour). So a
// player learns of the pause once, in a mail that is sent anyway, and the
// breaker sends no mail of its own that an auto-responder could answer.
func (ss *Session) tellPause(f archive.MailFilter, counted int) error {
	until := ss.Now.Add(time.Hour)
	ms, err := ss.Server.recordPort().Mails(ss.Ctx, f)
	if err != nil {
		return err
	}
	if len(ms) > 0 {
		until = ms[len(ms)-1].At.Add(time.Hour) // newest first
	}
	key := "breaker.answers"
	if f.Disposition != "" {
		key = "breaker.refusals"
	}
	ss.Say(ss.Auth, Tr(ss.Lang, key, counted, ss.Auth.Game.ID, catalog.Instant(ss.Lang, until)))
	return nil
}

// changedGame reports whether the mail changed a game: a ply, a
// resignation, a draw offer or answer, a challenge or its answer (a
// message stored for the opponent alone does not count).
func (ss *Session) changedGame() bool {
	for _, t := range ss.Tables {
		if t.Changed && !ss.QuietChange(t) { // a stored message alone (module.go's QuietKeeper)
			return true
		}
	}
	return false
}

// capRefusals drops the sender's reply to a keyless mail that was not
// applied (refused, or an error) when the sender already got
// Options.ErrorRepliesPerHour such replies to mails of the same budget
// (junk, or commands) in the last hour, so that refused junk in someone's
// name cannot silence the refusal of their own command; the mail is still
// recorded, with the reason. A confirmation carrying its key is never
// held back. Replies to other players are kept. For a keyed mail it is
// loopBreaker.
func (s *Server) capRefusals(ss *Session, disposition string, b archive.MailBudget) (string, heldBy, error) {
	if ss.Auth != nil {
		return ss.loopBreaker(disposition)
	}
	if disposition == Applied || b == archive.ConfirmationBudget {
		return "", NotHeld, nil
	}
	n, err := s.recordPort().CountMails(ss.Ctx, archive.MailFilter{From: ss.From, Disposition: disposition, Budget: b,
		Auth: archive.OnlyUnauthenticated, AnsweredOnly: true, Since: hourAgo(ss.Now)})
	if err != nil {
		return "", NotHeld, err
	}
	if n >= s.Opts.ErrorRepliesPerHour {
		ss.dropNotes(ss.From)
		return fmt.Sprintf("refusal not sent: %d refusals of mails without a key sent to this address in the last hour (server.error_replies_per_hour)", n), byRefusalCap, nil
	}
	return "", NotHeld, nil
}
