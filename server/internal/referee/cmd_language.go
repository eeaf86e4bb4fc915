package referee

import (
	"strings"

	"github.com/taflmail/taflmail/grammar"
)

func init() {
	Handle("language", (*Session).language)
	HelpLine(100, "help.language")
}

// language sets the sender's reply language, from this reply on
// (docs/commands.md, Languages).
func (ss *Session) language(c *grammar.LanguageCommand) error {
	l := strings.ToLower(c.Language)
	switch l {
	case "en", "english", "englisch":
		l = English
	case "de", "deutsch", "german":
		l = German
	default:
		return ss.Refuse("err.badlanguage", Clip(l))
	}
	ss.Lang = l
	p := ss.PlayerRow(ss.From)
	p.Language = l
	ss.Say(nil, Tr(l, "language.set"))
	return nil
}
