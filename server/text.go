package server

import (
	"fmt"
	"strings"
)

// Reply languages: English by default, German for a player who writes
// German commands or sets "language de" (docs/commands.md).
const (
	english = "en"
	german  = "de"
)

// catalog holds every sentence the referee writes, by key and language.
// Arguments are filled in with fmt verbs in the order the English text
// uses them; the German text must use the same order.
var catalog = map[string][2]string{
	"greeting":          {"Hello,", "Hallo,"},
	"signature":         {"-- \ntaflmail, the Tafl correspondence referee. Send \"help\" for the commands.", "-- \ntaflmail, der Tafl-Fernschiedsrichter. Schicke \"hilfe\" für die Befehle."},
	"game.header":       {"Game %s: %s", "Partie %s: %s"},
	"game.players":      {"Attackers: %s   Defenders: %s", "Angreifer: %s   Verteidiger: %s"},
	"game.key":          {"Your key for this game is %s. A reply to this mail carries it; keep it private.", "Dein Schlüssel für diese Partie ist %s. Eine Antwort auf diese Mail enthält ihn; gib ihn nicht weiter."},
	"subject.move":      {"%s: move %d, %s to move", "%s: Zug %d, %s am Zug"},
	"subject.over":      {"%s: game over, %s", "%s: Partie beendet, %s"},
	"subject.invite":    {"%s: %s challenges you", "%s: %s fordert dich heraus"},
	"subject.challenge": {"%s: challenge sent to %s", "%s: Herausforderung an %s gesendet"},
	"subject.declined":  {"%s: challenge declined", "%s: Herausforderung abgelehnt"},
	"subject.reply":     {"your mail to taflmail", "deine Mail an taflmail"},
	"subject.error":     {"%s: your mail was not accepted", "%s: deine Mail wurde nicht angenommen"},

	"side.attackers":   {"attackers", "Angreifer"},
	"side.defenders":   {"defenders", "Verteidiger"},
	"result.attackers": {"the attackers win", "die Angreifer gewinnen"},
	"result.defenders": {"the defenders win", "die Verteidiger gewinnen"},
	"result.draw":      {"a draw", "remis"},

	"reason.escape":        {"the king escaped", "der König ist entkommen"},
	"reason.king captured": {"the king was captured", "der König wurde gefangen"},
	"reason.edge fort":     {"the king stands in an edge fort", "der König steht in einer Randfestung"},
	"reason.encirclement":  {"the attackers encircled the defenders", "die Angreifer haben die Verteidiger eingeschlossen"},
	"reason.repetition":    {"a position occurred for the third time", "eine Stellung ist zum dritten Mal entstanden"},
	"reason.no legal move": {"the side to move had no legal move", "die Seite am Zug hatte keinen legalen Zug"},
	"reason.resignation":   {"the %s resigned", "die %s haben aufgegeben"},
	"reason.draw agreed":   {"both players agreed to a draw", "beide Spieler haben sich auf remis geeinigt"},

	"move.played":            {"%s played %s.", "%s hat %s gezogen."},
	"move.captures":          {"Captured: %s.", "Geschlagen: %s."},
	"move.yours":             {"Move %d: it is your move (%s).", "Zug %d: du bist am Zug (%s)."},
	"move.theirs":            {"Move %d: %s to move; you will hear from me when they have moved.", "Zug %d: %s am Zug; du bekommst Nachricht, sobald gezogen wurde."},
	"move.how":               {"To move, reply to this mail with your move on a line of its own, e.g. \"%s\".", "Um zu ziehen, antworte auf diese Mail mit deinem Zug in einer eigenen Zeile, z. B. \"%s\"."},
	"move.list":              {"Moves so far:", "Bisherige Züge:"},
	"move.none":              {"(no moves yet)", "(noch keine Züge)"},
	"over.result":            {"The game is over: %s (%s).", "Die Partie ist beendet: %s (%s)."},
	"over.record":            {"The complete record:", "Die vollständige Partienotation:"},
	"draw.offered":           {"%s offers a draw. Reply \"accept draw\" or \"decline draw\", or simply make your move (that declines).", "%s bietet remis an. Antworte \"remis annehmen\" oder \"remis ablehnen\", oder ziehe einfach (das lehnt ab)."},
	"draw.offer.sent":        {"Your draw offer has been sent to %s.", "Dein Remisangebot wurde an %s gesendet."},
	"draw.declined":          {"%s declined the draw offer.", "%s hat das Remisangebot abgelehnt."},
	"draw.lapsed":            {"The draw offer lapsed with the move.", "Das Remisangebot ist mit dem Zug erloschen."},
	"invite.body":            {"%s challenges you to a game of %s. You would play the %s.", "%s fordert dich zu einer Partie %s heraus. Du würdest die %s spielen."},
	"invite.rules":           {"The rules in brief: %s.", "Die Regeln kurz: %s."},
	"invite.how":             {"Reply \"accept\" to play or \"decline\" to refuse.", "Antworte \"annehmen\", um zu spielen, oder \"ablehnen\"."},
	"challenge.sent":         {"Your challenge has been sent to %s. You play the %s. I will write when they answer.", "Deine Herausforderung wurde an %s gesendet. Du spielst die %s. Ich schreibe, sobald geantwortet wurde."},
	"challenge.accepted":     {"%s accepted the challenge. The game begins.", "%s hat die Herausforderung angenommen. Die Partie beginnt."},
	"challenge.declined":     {"%s declined your challenge.", "%s hat deine Herausforderung abgelehnt."},
	"challenge.you.declined": {"You declined the challenge.", "Du hast die Herausforderung abgelehnt."},
	"language.set":           {"Your replies will now be in English.", "Deine Antworten kommen jetzt auf Deutsch."},

	"games.none":        {"You have no games.", "Du hast keine Partien."},
	"games.header":      {"Your games:", "Deine Partien:"},
	"games.line":        {"%s  %-10s vs %-28s %s", "%s  %-10s gegen %-28s %s"},
	"games.turn.you":    {"your move (move %d)", "du bist am Zug (Zug %d)"},
	"games.turn.them":   {"their move (move %d)", "Gegner am Zug (Zug %d)"},
	"games.invited":     {"invited, waiting for an answer", "eingeladen, wartet auf Antwort"},
	"games.invited.you": {"you are invited: reply accept or decline", "du bist eingeladen: annehmen oder ablehnen"},
	"games.finished":    {"finished: %s", "beendet: %s"},
	"games.declined":    {"declined", "abgelehnt"},
	"variants.header":   {"Rule sets (name, board, summary):", "Regelvarianten (Name, Brett, Kurzbeschreibung):"},

	"err.quote":          {"In your line %d:", "In deiner Zeile %d:"},
	"err.expected":       {"Expected %s, found %s.", "Erwartet: %s, gefunden: %s."},
	"err.board":          {"The board as it stands:", "Das Brett, wie es steht:"},
	"err.nothing":        {"Nothing was changed.", "Es wurde nichts geändert."},
	"err.nocommand":      {"I found no command in your mail. Write one command per line, e.g. \"board\" or a move such as \"d1-d3\"; \"help\" lists them all.", "Ich habe in deiner Mail keinen Befehl gefunden. Schreibe einen Befehl pro Zeile, z. B. \"brett\" oder einen Zug wie \"d1-d3\"; \"hilfe\" zeigt alle."},
	"err.nogame":         {"This command needs a game, but your mail names none. Reply to a mail about the game (its subject carries [taflmail ID]).", "Dieser Befehl braucht eine Partie, aber deine Mail nennt keine. Antworte auf eine Mail zur Partie (ihr Betreff enthält [taflmail ID])."},
	"err.unknowngame":    {"There is no game %s.", "Es gibt keine Partie %s."},
	"err.notplayer":      {"You are not a player in game %s.", "Du spielst nicht in Partie %s."},
	"err.badkey":         {"This mail does not carry your key for game %s, so I cannot be sure it is from you. Reply to the last mail I sent you about the game, or put \"[taflmail %s yourkey]\" in the subject.", "Diese Mail enthält nicht deinen Schlüssel für Partie %s, daher kann ich nicht sicher sein, dass sie von dir ist. Antworte auf meine letzte Mail zur Partie oder schreibe \"[taflmail %s deinschlüssel]\" in den Betreff."},
	"err.notyourturn":    {"It is not your move: the %s are to move.", "Du bist nicht am Zug: die %s sind am Zug."},
	"err.notactive":      {"Game %s is not being played (%s).", "Partie %s wird nicht gespielt (%s)."},
	"err.over":           {"Game %s is over: %s.", "Partie %s ist beendet: %s."},
	"err.illegal":        {"%s is not a legal move: %s.", "%s ist kein legaler Zug: %s."},
	"err.movenumber":     {"Your move number %s does not match: the game is at %s now.", "Deine Zugnummer %s passt nicht: die Partie steht jetzt bei %s."},
	"err.captures":       {"You marked %s as captured, but %s captures %s.", "Du hast %s als geschlagen markiert, aber %s schlägt %s."},
	"err.twomoves":       {"Your mail holds %d moves; send one move per mail. None of them was played.", "Deine Mail enthält %d Züge; schicke einen Zug pro Mail. Keiner wurde gespielt."},
	"err.timeout":        {"\"timeout\" is not something you can play.", "\"timeout\" kann man nicht spielen."},
	"err.unknownvariant": {"I do not know the variant %q. \"variants\" lists them.", "Die Variante %q kenne ich nicht. \"varianten\" listet sie auf."},
	"err.badaddress":     {"%q is not a mail address I can invite.", "%q ist keine Adresse, die ich einladen kann."},
	"err.self":           {"You cannot challenge yourself.", "Du kannst dich nicht selbst herausfordern."},
	"err.badside":        {"%q is not a side: write attackers or defenders.", "%q ist keine Seite: schreibe Angreifer oder Verteidiger."},
	"err.notinvited":     {"Game %s has no open challenge for you.", "In Partie %s gibt es keine offene Herausforderung für dich."},
	"err.nodraw":         {"There is no draw offer from your opponent in game %s.", "In Partie %s gibt es kein Remisangebot deines Gegners."},
	"err.drawpending":    {"Your draw offer in game %s already stands.", "Dein Remisangebot in Partie %s steht bereits."},
	"err.badlanguage":    {"I can answer in en (English) or de (German), not %q.", "Ich kann auf en (Englisch) oder de (Deutsch) antworten, nicht %q."},
	"err.challenges":     {"You have sent %d challenges in the last hour; please wait before sending more.", "Du hast in der letzten Stunde %d Herausforderungen geschickt; bitte warte, bevor du weitere schickst."},
	"err.toolarge":       {"Your mail is %d bytes, more than the %d I read. Please send a short plain-text mail.", "Deine Mail hat %d Bytes, mehr als die %d, die ich lese. Bitte schicke eine kurze Textmail."},
	"err.internal":       {"Something went wrong on my side while handling your mail; it was not applied. Please try again later.", "Bei mir ist beim Bearbeiten deiner Mail etwas schiefgegangen; sie wurde nicht angewendet. Bitte versuche es später noch einmal."},
}

// tr returns the sentence key in language lang, formatted with args.
func tr(lang, key string, args ...any) string {
	e, ok := catalog[key]
	if !ok {
		return key
	}
	s := e[0]
	if lang == german && e[1] != "" {
		s = e[1]
	}
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}

// sideName names a side in lang: "attackers" / "Angreifer".
func sideName(lang, side string) string { return tr(lang, "side."+side) }

// normalizeSide reads a side as a player writes it (English or German,
// singular or plural, any case); ok is false for anything else.
func normalizeSide(s string) (side string, ok bool) {
	switch strings.ToLower(s) {
	case "attackers", "attacker", "angreifer", "black", "schwarz":
		return "attackers", true
	case "defenders", "defender", "verteidiger", "white", "weiß", "weiss":
		return "defenders", true
	}
	return "", false
}
