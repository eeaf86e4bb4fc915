package correspondence

import (
	"github.com/taflmail/taflmail/grammar"

	"github.com/taflmail/taflmail/server/internal/referee"
)

func init() {
	referee.Handle("messages", messages)
	referee.HelpLine(97, "help.messages")
}

// messages stops or starts the relaying of opponents' messages to the
// sender, in all games, from now on (issue 12, messages.go). Like
// "language" it needs no key.
func messages(ss *referee.Session, c *grammar.MessagesCommand) error {
	p := ss.PlayerRow(ss.From)
	p.MessagesOff = !c.On()
	if p.MessagesOff {
		ss.Say(nil, referee.Tr(ss.Lang, "messages.off"))
	} else {
		ss.Say(nil, referee.Tr(ss.Lang, "messages.on"))
	}
	return nil
}
