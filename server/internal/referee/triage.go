package referee

import (
	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
)

// Triage: which reply budget a mail without the sender's key is counted
// in (issue 18 §2, docs/security.md "No loops, no floods"). It is decided
// from the mail's parsed command lines before any budget is consulted,
// and without side effects: it only reads the archive, so a mail the
// budgets then hold back has changed nothing.
//
//   - archive.ConfirmationBudget: a line confirms a request with the key
//     the referee mailed this address for it ("join ID confirm KEY",
//     "withdraw ID confirm KEY", and the requests of consent.go: "watch
//     ID confirm KEY", "notify confirm KEY", "unblock confirm KEY"). Such
//     a mail is never held back.
//   - archive.CommandBudget: a line is a valid command that does something
//     for the sender beyond an answer — a challenge of a person or of the
//     engine in a variant that exists, "join" of a tournament that exists,
//     "withdraw" from one the sender is entered in, "block" (which stops
//     mail to the sender, so a flood must not keep it from being carried
//     out). Such mails are counted
//     per sender and per domain, apart from junk, and never by the budget
//     for all senders together: a flood of junk cannot hold them back.
//   - archive.JunkBudget: anything else — no command, lines that do not
//     parse, near misses, keyless game commands (refused anyway),
//     informational commands (help, variants, games, standings …), whose
//     only effect is the reply itself. Their replies are bounded per
//     sender, per domain and for all senders together.

// BudgetOf returns the budget the session's mail is counted in:
// archive.NoBudget for a mail carrying the sender's key for its game,
// else the highest of its lines (confirmation over command over junk).
// Only an archive failure is returned.
func (ss *Session) BudgetOf() (archive.MailBudget, error) {
	if ss.Auth != nil {
		return archive.NoBudget, nil
	}
	budget := archive.JunkBudget
	for _, l := range ss.Lines {
		if l.Err != nil || l.cmd == nil {
			continue
		}
		b, err := ss.lineBudget(l.cmd)
		if err != nil {
			return "", err
		}
		switch {
		case b == archive.ConfirmationBudget:
			return b, nil
		case b == archive.CommandBudget:
			budget = b
		}
	}
	return budget, nil
}

// lineBudget returns the budget one parsed command line would put its
// mail in (see BudgetOf), reading the archive only: for the core's
// commands (a challenge, block, unblock) here, for a feature's the
// feature's module (ModuleBudget: "join" and "withdraw" the tournament's,
// "watch" correspondence's, "notify" the digest's).
func (ss *Session) lineBudget(c grammar.Command) (archive.MailBudget, error) {
	switch c := c.(type) {
	case *grammar.NewGameCommand:
		if _, ok := lookupVariant(c.Variant); ok {
			return archive.CommandBudget, nil
		}
	case *grammar.UnblockCommand:
		if c.Key != nil {
			ok, err := ss.ConfirmsWaiting(whatUnblock, c.Key.Text)
			return ConfirmationIf(ok), err
		}
	case *grammar.BlockCommand:
		return archive.CommandBudget, nil
	}
	if b, ok, err := ss.ModuleBudget(c); ok || err != nil {
		return b, err // a feature's command (BudgetTeller, module.go)
	}
	return archive.JunkBudget, nil
}

// ConfirmationIf is archive.ConfirmationBudget when ok, else
// archive.JunkBudget.
func ConfirmationIf(ok bool) archive.MailBudget {
	if ok {
		return archive.ConfirmationBudget
	}
	return archive.JunkBudget
}
