package server

import (
	"github.com/taflmail/taflmail/grammar"
)

func init() {
	handle("block", (*session).block)
	handle("unblock", (*session).unblock)
	helpLine(99, "help.block")
}

// block answers "block" ("sperren", issue 18, consent.go): from now on
// the referee sends the sender no invitation to a game (cmd_new.go) and
// no request to confirm that someone else may have made in its name
// (askConsent), but for the one that undoes it. It needs no key: it only
// stops mail, and what a forger stops with it the address starts again
// with "unblock". The sender's own mails, and the mails of the games it
// plays, are not touched.
func (ss *session) block(*grammar.BlockCommand) error {
	p := ss.playerRow(ss.from)
	if p.Blocked {
		ss.say(nil, tr(ss.lang, "block.already"))
		return nil
	}
	p.Blocked = true
	ss.say(nil, tr(ss.lang, "block.done"))
	return nil
}

// unblock answers "unblock" ("entsperren"): it lets invitations and
// requests to confirm reach the sender again. That is more mail, so a
// keyless "unblock" only asks the address to confirm it ("unblock
// confirm KEY"), as "watch" does; a mail with the sender's key for a
// game needs no confirmation.
func (ss *session) unblock(c *grammar.UnblockCommand) error {
	if !ss.blocked(ss.from) {
		return ss.refuse("unblock.not")
	}
	if c.Key != nil {
		if _, err := ss.confirmConsent(whatUnblock, c.Key); err != nil {
			return err
		}
	} else if !ss.consented(whatUnblock) {
		return ss.askConsent(whatUnblock, whatUnblock, tr(ss.lang, "confirm.unblock"))
	}
	ss.playerRow(ss.from).Blocked = false
	ss.say(nil, tr(ss.lang, "unblock.done"))
	return nil
}
