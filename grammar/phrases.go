package grammar

import (
	"strings"
	"unicode/utf8"
)

// commandPhrases are the keyword phrases that begin the commands, English
// and German, in lower case, one or two words each; what follows them
// (an address, a game id, a time) is not part of a phrase. Every first
// word of commandWords begins one (TestCommandPhrases).
var commandPhrases = [][]string{
	{"new"}, {"neu"}, {"challenge"}, {"accept"}, {"annehmen"}, {"decline"}, {"ablehnen"},
	{"cancel", "challenge"}, {"herausforderung", "zurückziehen"}, {"herausforderung", "zurueckziehen"},
	{"offer", "draw"}, {"remis", "anbieten"}, {"accept", "draw"}, {"remis", "annehmen"},
	{"decline", "draw"}, {"remis", "ablehnen"},
	{"board"}, {"brett"}, {"history"}, {"verlauf"}, {"games"}, {"partien"}, {"resign"}, {"aufgeben"},
	{"variants"}, {"varianten"}, {"help"}, {"hilfe"}, {"language"}, {"sprache"}, {"clock"}, {"uhr"},
	{"leave"}, {"urlaub"}, {"cancel", "leave"}, {"cancel", "urlaub"}, {"urlaub", "abbrechen"},
	{"watch"}, {"zuschauen"}, {"unwatch"}, {"zuschauen", "beenden"},
	{"private"}, {"privat"}, {"public"}, {"öffentlich"}, {"oeffentlich"},
	{"messages", "on"}, {"messages", "off"}, {"nachrichten", "an"}, {"nachrichten", "aus"}, {"nachrichten", "ein"},
	{"if"}, {"wenn"}, {"conditions"}, {"bedingungen"}, {"cancel", "conditions"},
	{"bedingungen", "löschen"}, {"bedingungen", "loeschen"},
	{"takeback"}, {"zurücknehmen"}, {"zuruecknehmen"}, {"accept", "takeback"}, {"rücknahme", "annehmen"},
	{"ruecknahme", "annehmen"}, {"decline", "takeback"}, {"rücknahme", "ablehnen"}, {"ruecknahme", "ablehnen"},
	{"notify"}, {"notify", "each"}, {"notify", "digest"}, {"notify", "daily"},
	{"benachrichtigung"}, {"benachrichtigung", "einzeln"}, {"benachrichtigung", "täglich"},
	{"benachrichtigung", "taeglich"},
	// tournaments (command_tournament.go)
	{"tournaments"}, {"turniere"}, {"join"}, {"anmelden"}, {"withdraw"}, {"abmelden"},
	{"standings"}, {"tabelle"}, {"rating"}, {"wertung"},
	// public names (command_name.go)
	{"name"}, {"anzeigename"},
	// consent (command_consent.go)
	{"block"}, {"sperren"}, {"unblock"}, {"entsperren"},
}

// CommandPhrases returns the keyword phrases that begin the mail commands
// (docs/commands.md), English and German, in lower case, each as its one
// or two words: {"resign"}, {"remis", "anbieten"}. What follows a phrase
// (an address, a game id, a time of day) is not part of it. The caller
// may not change the slices.
func CommandPhrases() [][]string { return commandPhrases }

// continuations returns the second words of the two-word phrases that
// begin with first (lower case), or nil when first is a command on its
// own ("accept") or begins no two-word phrase.
func continuations(first string) []string {
	var out []string
	for _, p := range commandPhrases {
		if p[0] != first {
			continue
		}
		if len(p) == 1 {
			return nil
		}
		out = append(out, p[1])
	}
	return out
}

// secondWordError rewrites an error at the first word of a line whose
// first word begins only two-word phrases ("remis anbiten", "cancel"):
// the error points at the second word and names what may stand there
// (trial 2 report §5), e.g. expected "anbieten" or "annehmen" or
// "ablehnen", found "anbiten". It reports false for any other line.
func secondWordError(e *Error, src string) bool {
	f := strings.Fields(src)
	if len(f) == 0 {
		return false
	}
	next := continuations(strings.ToLower(f[0]))
	if next == nil {
		return false
	}
	quoted := make([]string, len(next))
	for i, w := range next {
		quoted[i] = `"` + w + `"`
	}
	at := strings.Index(src, f[0]) + len(f[0])
	found := "end of input"
	if len(f) > 1 {
		at += strings.Index(src[at:], f[1])
		found = quoteFound(f[1])
	}
	e.Col = utf8.RuneCountInString(src[:at]) + 1
	e.Expected, e.Found = strings.Join(quoted, " or "), found
	e.Message = "expected " + e.Expected + ", found " + e.Found
	return true
}
