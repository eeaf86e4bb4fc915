package server

import (
	"strings"

	"github.com/taflmail/taflmail/grammar"
)

func init() {
	handle("language", (*session).language)
	helpLine(100, "help.language")
}

// language sets the sender's reply language, from this reply on
// (docs/commands.md, Languages).
func (ss *session) language(c *grammar.LanguageCommand) error {
	l := strings.ToLower(c.Language)
	switch l {
	case "en", "english", "englisch":
		l = english
	case "de", "deutsch", "german":
		l = german
	default:
		return ss.refuse("err.badlanguage", clip(l))
	}
	ss.lang = l
	p := ss.playerRow(ss.from)
	p.Language = l
	ss.say(nil, tr(l, "language.set"))
	return nil
}
