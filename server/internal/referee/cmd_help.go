package referee

import (
	"strings"
	"unicode/utf8"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/catalog"
)

func init() {
	Handle("help", (*Session).help)
	HelpLine(110, "help.help")
}

// HelpTopics are the catalogue keys of the help topics by the words a
// player may write for them. The overviewTopics, and no topic, get the
// overview; any other topic that is not a variant's name (a typo) gets a
// line saying so, with the nearest variant name, and the overview.
var HelpTopics = map[string]string{
	"moves": "help.moves", "züge": "help.moves", "zuege": "help.moves", "move": "help.moves", "notation": "help.moves",
	"keys": "help.keys", "schlüssel": "help.keys", "schluessel": "help.keys", "key": "help.keys", "token": "help.keys", "tokens": "help.keys",
	"tournaments": "help.topic.tournaments", "tournament": "help.topic.tournaments", "turniere": "help.topic.tournaments", "turnier": "help.topic.tournaments",
	"digest": "help.topic.digest", "daily": "help.topic.digest", "notify": "help.topic.digest", "täglich": "help.topic.digest", "taeglich": "help.topic.digest",
	"benachrichtigung": "help.topic.digest",
}

// overviewTopics are the topics that ask for the overview itself.
var overviewTopics = map[string]bool{"": true, "commands": true, "command": true, "befehle": true, "befehl": true, "help": true, "hilfe": true}

// help answers "help [topic]": the overview, a topic, or a variant's rules;
// an unknown topic is named as such (trial report §8.2), with the nearest
// variant name as a hint, before the overview. One mail gets the overview
// once, however many lines ask for it.
func (ss *Session) help(c *grammar.HelpCommand) error {
	topic := strings.ToLower(c.Topic)
	if key, ok := HelpTopics[topic]; ok {
		ss.Say(nil, Tr(ss.Lang, key))
		return nil
	}
	if v, ok := engine.Lookup(topic); ok {
		ss.Say(nil, VariantHelp(ss.Lang, v))
		return nil
	}
	var text []string
	if !overviewTopics[topic] {
		s := Tr(ss.Lang, "hint.topic", Clip(c.Topic))
		if h := VariantHint(ss.Lang, topic); h != "" {
			s += " " + h
		}
		text = append(text, s)
	}
	if !ss.overview {
		ss.overview = true
		text = append(text, HelpOverview(ss.Lang))
	}
	ss.Say(nil, strings.Join(text, "\n\n"))
	return nil
}

// HelpColumn is the width of the usage column of the overview; a longer
// usage gets its description on the next line.
const HelpColumn = 20

// helpLineWidth is the longest line of the overview's command list: a
// description is wrapped inside its column to end there (mailer.WrapWidth,
// so the list fits in 78 columns also space-stuffed).
const helpLineWidth = mailer.WrapWidth

// HelpOverview lists the commands in lang, one registered help line each
// (registry.go), between the catalogue's introduction and closing words.
// The list is two columns, usage and description, each description
// wrapped inside its column; it is marked mailer.Preformatted, so no
// client rejoins its lines.
func HelpOverview(lang string) string {
	var b strings.Builder
	pad := "  " + strings.Repeat(" ", HelpColumn)
	for _, e := range SortedHelp() {
		usage := Tr(lang, e.Key+".usage")
		b.WriteString("  " + strings.Join(usageLines(usage, helpLineWidth-2), "\n    "))
		if _, ok := catalog.Lookup(lang, e.Key+".what"); ok {
			if n := utf8.RuneCountInString(usage); n < HelpColumn {
				b.WriteString(strings.Repeat(" ", HelpColumn-n))
			} else {
				b.WriteString("\n" + pad)
			}
			b.WriteString(strings.Join(mailer.Wrap(Tr(lang, e.Key+".what"), helpLineWidth-len(pad)), "\n"+pad))
		}
		b.WriteString("\n")
	}
	return Tr(lang, "help.intro") + "\n\n" + mailer.Preformatted(b.String()) + "\n" + Tr(lang, "help.outro")
}

// usageLines breaks a usage longer than width before its options ("[…]"),
// which it never cuts, nor a word.
func usageLines(usage string, width int) []string {
	var words []string // the usage's words, an option with its spaces one word
	depth, start := 0, 0
	for i, r := range usage {
		switch {
		case r == '[':
			depth++
		case r == ']':
			depth--
		case r == ' ' && depth == 0:
			words = append(words, usage[start:i])
			start = i + 1
		}
	}
	words = append(words, usage[start:])
	lines := []string{words[0]}
	for _, w := range words[1:] {
		last := &lines[len(lines)-1]
		if strings.HasPrefix(w, "[") && utf8.RuneCountInString(*last+" "+w) > width {
			lines = append(lines, w)
		} else {
			*last += " " + w
		}
	}
	return lines
}

// VariantHelp describes a variant's rules from its data.
func VariantHelp(lang string, v *engine.Variant) string {
	return Tr(lang, "help.variant", VariantTitle(lang, v), v.Name, catalog.VariantSummary(lang, v),
		SideName(lang, v.FirstSide.String()))
}
