package server

import (
	"fmt"
	"strings"

	"github.com/taflmail/taflmail/engine"
)

// helpTopics are the help texts by topic and language; "" is the overview.
var helpTopics = map[string][2]string{
	"": {`Commands (one per line; case does not matter; German words work too):

  new <variant> with <address> [as attackers|defenders]
                      challenge someone, e.g. "new copenhagen with bob@example.org"
  accept / decline    answer a challenge (reply to the invitation)
  d1-d3               a move; "12. d1-d3" or "12... h6-h9" also checks the move number
  board               the current board
  history             the whole game record
  games               your games and whose move it is
  offer draw / accept draw / decline draw
  resign              give the game up
  variants            the rule sets I know
  language en|de      reply language
  help [topic]        topics: moves, keys, <variant name>

Game commands must be sent as a reply to a mail about the game: its subject
carries [taflmail <game>] and the thread carries your key for it.`,
		`Befehle (einer pro Zeile; Groß/Klein egal; englische Wörter gehen auch):

  neu <variante> mit <adresse> [als angreifer|verteidiger]
                      jemanden herausfordern, z. B. "neu copenhagen mit bob@example.org"
  annehmen / ablehnen eine Herausforderung beantworten (Antwort auf die Einladung)
  d1-d3               ein Zug; "12. d1-d3" oder "12... h6-h9" prüft auch die Zugnummer
  brett               das aktuelle Brett
  verlauf             die ganze Partienotation
  partien             deine Partien und wer am Zug ist
  remis anbieten / remis annehmen / remis ablehnen
  aufgeben            die Partie aufgeben
  varianten           die Regelvarianten, die ich kenne
  sprache en|de       Antwortsprache
  hilfe [thema]       Themen: züge, schlüssel, <variantenname>

Befehle zu einer Partie müssen als Antwort auf eine Mail zur Partie kommen:
ihr Betreff enthält [taflmail <partie>], der Verlauf deinen Schlüssel.`},
	"moves": {`Moves are written in OpenTafl notation: the square a piece starts on, a
dash, the square it moves to: "d1-d3". Files are letters from a (left),
ranks numbers from 1 (bottom), as on the board in every mail. You may add
the captures you expect ("g3-e3xe2"); if they are wrong the move is refused,
so nothing happens that you did not mean. A move number guards against
replying to an old mail: "12. d1-d3" is the attackers' ply of move 12,
"12... h6-h9" the defenders'.`,
		`Züge werden in OpenTafl-Notation geschrieben: das Startfeld, ein
Bindestrich, das Zielfeld: "d1-d3". Linien sind Buchstaben ab a (links),
Reihen Zahlen ab 1 (unten), wie auf dem Brett in jeder Mail. Du kannst die
erwarteten Schläge anhängen ("g3-e3xe2"); stimmen sie nicht, wird der Zug
abgelehnt. Eine Zugnummer schützt vor Antworten auf alte Mails: "12. d1-d3"
ist der Angreiferzug von Zug 12, "12... h6-h9" der Verteidigerzug.`},
	"keys": {`Every game gives each player a secret key. Every mail I send you about
the game carries it (in the subject and in the thread), so a plain reply
proves it is you. A mail without your key, or from another address, cannot
move for you. Details: docs/security.md.`,
		`Jede Partie gibt jedem Spieler einen geheimen Schlüssel. Jede Mail, die
ich dir zur Partie schicke, enthält ihn (im Betreff und im Verlauf), daher
beweist eine einfache Antwort, dass du es bist. Eine Mail ohne deinen
Schlüssel oder von einer anderen Adresse kann nicht für dich ziehen.`},
}

// help answers "help [topic]": the overview, a topic, or a variant's rules.
func (ss *session) help(topic string) error {
	topic = strings.ToLower(topic)
	switch topic {
	case "züge", "zuege", "move", "notation":
		topic = "moves"
	case "schlüssel", "key", "token", "tokens":
		topic = "keys"
	case "befehle", "commands":
		topic = ""
	}
	if text, ok := helpTopics[topic]; ok {
		ss.say(nil, pick(ss.lang, text))
		return nil
	}
	if v, ok := engine.Lookup(topic); ok {
		ss.say(nil, variantHelp(v))
		return nil
	}
	ss.say(nil, pick(ss.lang, helpTopics[""]))
	return nil
}

func pick(lang string, s [2]string) string {
	if lang == german {
		return s[1]
	}
	return s[0]
}

// variantHelp describes a variant's rules from its data.
func variantHelp(v *engine.Variant) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s), %d×%d\n%s.\n", v.Title, v.Name, v.Size, v.Size, v.Summary)
	fmt.Fprintf(&b, "First ply: %s. Source: %s.\n", v.FirstSide, v.Source)
	return b.String()
}
