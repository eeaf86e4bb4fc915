package server

import "github.com/taflmail/taflmail/grammar"

func init() {
	handle("messages", (*session).messages)
	helpLine(97, "help.messages")
}

// messages stops or starts the relaying of opponents' messages to the
// sender, in all games, from now on (issue 12, messages.go). Like
// "language" it needs no key.
func (ss *session) messages(c *grammar.MessagesCommand) error {
	p := ss.playerRow(ss.from)
	p.MessagesOff = !c.On()
	if p.MessagesOff {
		ss.say(nil, tr(ss.lang, "messages.off"))
	} else {
		ss.say(nil, tr(ss.lang, "messages.on"))
	}
	return nil
}
