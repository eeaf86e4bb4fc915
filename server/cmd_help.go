package server

import (
	"strings"
	"unicode/utf8"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
)

func init() {
	handle("help", (*session).help)
	helpLine(110, "help.help")
}

// helpTopics are the catalogue keys of the help topics by the words a
// player may write for them. Any other topic that is not a variant's name
// ("commands", "befehle", a typo) gets the overview.
var helpTopics = map[string]string{
	"moves": "help.moves", "züge": "help.moves", "zuege": "help.moves", "move": "help.moves", "notation": "help.moves",
	"keys": "help.keys", "schlüssel": "help.keys", "key": "help.keys", "token": "help.keys", "tokens": "help.keys",
}

// help answers "help [topic]": the overview, a topic, or a variant's rules;
// an unknown topic gets the overview.
func (ss *session) help(c *grammar.HelpCommand) error {
	topic := strings.ToLower(c.Topic)
	if key, ok := helpTopics[topic]; ok {
		ss.say(nil, tr(ss.lang, key))
		return nil
	}
	if v, ok := engine.Lookup(topic); ok {
		ss.say(nil, variantHelp(ss.lang, v))
		return nil
	}
	ss.say(nil, helpOverview(ss.lang))
	return nil
}

// helpColumn is the width of the usage column of the overview; a longer
// usage gets its description on the next line.
const helpColumn = 20

// helpOverview lists the commands in lang, one registered help line each
// (registry.go), between the catalogue's introduction and closing words.
func helpOverview(lang string) string {
	var b strings.Builder
	b.WriteString(tr(lang, "help.intro") + "\n\n")
	for _, e := range sortedHelp() {
		usage := tr(lang, e.key+".usage")
		b.WriteString("  " + usage)
		if _, ok := catalogs[lang][e.key+".what"]; ok {
			if n := utf8.RuneCountInString(usage); n < helpColumn {
				b.WriteString(strings.Repeat(" ", helpColumn-n))
			} else {
				b.WriteString("\n  " + strings.Repeat(" ", helpColumn))
			}
			b.WriteString(tr(lang, e.key+".what"))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n" + tr(lang, "help.outro"))
	return b.String()
}

// variantHelp describes a variant's rules from its data.
func variantHelp(lang string, v *engine.Variant) string {
	return tr(lang, "help.variant", v.Title, v.Name, v.Size, v.Size, variantSummary(lang, v),
		sideName(lang, v.FirstSide.String()), v.Source)
}
