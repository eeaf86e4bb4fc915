package referee

import (
	"github.com/taflmail/taflmail/grammar"
)

func init() {
	Handle("block", (*Session).block)
	Handle("unblock", (*Session).unblock)
	HelpLine(99, "help.block")
}

// block answers "block" ("sperren", issue 18, consent.go): from now on
// the referee sends the sender no invitation to a game (cmd_new.go) and
// no request to confirm that someone else may have made in its name
// (AskConsent), but for the one that undoes it. It needs no key: it only
// stops mail, and what a forger stops with it the address starts again
// with "unblock". The sender's own mails, and the mails of the games it
// plays, are not touched.
func (ss *Session) block(*grammar.BlockCommand) error {
	p := ss.PlayerRow(ss.From)
	if p.Blocked {
		ss.Say(nil, Tr(ss.Lang, "block.already"))
		return nil
	}
	p.Blocked = true
	ss.Say(nil, Tr(ss.Lang, "block.done"))
	return nil
}

// unblock answers "unblock" ("entsperren"): it lets invitations and
// requests to confirm reach the sender again. That is more mail, so a
// keyless "unblock" only asks the address to confirm it ("unblock
// confirm KEY"), as "watch" does; a mail with the sender's key for a
// game needs no confirmation.
func (ss *Session) unblock(c *grammar.UnblockCommand) error {
	if !ss.blocked(ss.From) {
		return ss.Refuse("unblock.not")
	}
	if c.Key != nil {
		if _, err := ss.ConfirmConsent(whatUnblock, c.Key); err != nil {
			return err
		}
	} else if !ss.Consented(whatUnblock) {
		return ss.AskConsent(whatUnblock, whatUnblock, Tr(ss.Lang, "confirm.unblock"))
	}
	ss.PlayerRow(ss.From).Blocked = false
	ss.Say(nil, Tr(ss.Lang, "unblock.done"))
	return nil
}
