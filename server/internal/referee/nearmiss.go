package referee

import (
	"strings"
	"unicode/utf8"

	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/nearmiss"
)

// Misspelt commands (trial 2 report §4): a line that is no command but
// a command phrase with a typo is answered "Did you mean …?" and not
// passed on to the opponent (issue 12: command lines are never relayed).
// The rule of what is near a phrase is server/internal/nearmiss's.

// nearMiss is the error of a line that is a command with a typo: phrase
// is the command the player probably meant; ownLine reports that the line
// holds it with a sentence mark and more words after it ("Accept.
// Sure!", LeadingCommand), so the answer says it needs a line of its own.
type nearMiss struct {
	phrase  string
	ownLine bool
}

func (e *nearMiss) Error() string { return "server: did you mean " + e.phrase + "?" }

// NearLine returns the command phrase a line of a mail's text is near to
// (nearmiss.Command; nearmiss.Alone when alone, the line being the only
// one of its text, OnlyLine), is with a sentence's marks at its ends
// (punctuated), or begins with, a mark and a few words after it
// (LeadingCommand), or "" for a command line, a quoted line, a game tag
// line or prose.
func NearLine(line string, alone bool) string {
	if strings.HasPrefix(strings.TrimSpace(line), ">") || SubjectTag.MatchString(line) {
		return ""
	}
	if p := Punctuated(line); p != "" {
		return p
	}
	if grammar.IsCommandLine(line) {
		return ""
	}
	if p := LeadingCommand(line); p != "" {
		return p
	}
	if alone {
		return nearmiss.Alone(line)
	}
	return nearmiss.Command(line)
}

// OnlyLine returns the index in strings.Split(text, "\n") of the one line
// of text that is not blank, up to the referee's own mail quoted without
// marks (OwnStart: its greeting included), or -1 when there are none or
// several: a mail that says one word ("hlep") may mean a short command
// (nearmiss.Alone).
func OnlyLine(text string) int {
	only := -1
	lines := strings.Split(text, "\n")
	if end := OwnStart(lines); end >= 0 {
		lines = lines[:end]
	}
	for i, line := range lines {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if only >= 0 {
			return -1
		}
		only = i
	}
	return only
}

// sentenceMarks are the marks a sentence ends (or, in Spanish, starts)
// with, which a player may put after a command as after any sentence.
const sentenceMarks = ".!?,;:…¡¿"

// askWords are the words that, with sentence marks at their ends
// (punctuated), stand for the command phrase that only asks what they
// ask: "Draw?" or "Remis." offers a draw, as "offer draw" does. Without
// marks they are no command (the grammar's rule).
var askWords = map[string]string{"draw": "offer draw", "remis": "remis anbieten"}

// Punctuated returns the command phrase (grammar.CommandPhrases, its
// words joined by one space, lower case) that line is with sentence marks
// at its ends ("Accept.", "Verlauf!", "Help?", "remis anbieten!"; an
// askWords word for its phrase: "Draw?" is "offer draw"), or ""
// for any other line: one without such marks, or whose words without
// them are no phrase that is a command on its own ("OK.", "Thanks!",
// "New game?", "Watch!"). A move keeps the grammar's rule: "d1-d3." is
// refused under its "." (outside trial).
func Punctuated(line string) string {
	t := strings.TrimSpace(line)
	bare := strings.TrimSpace(strings.Trim(t, sentenceMarks))
	if bare == t || bare == "" {
		return ""
	}
	phrase := strings.ToLower(strings.Join(strings.Fields(bare), " "))
	if p, ok := askWords[phrase]; ok {
		phrase = p
	}
	for _, p := range grammar.CommandPhrases() {
		if strings.Join(p, " ") != phrase {
			continue
		}
		if _, err := grammar.ParseCommand("mail", 1, phrase); err == nil {
			return phrase
		}
		return ""
	}
	return ""
}

// maxTrailingWords is how many words at most may follow a command and
// its sentence mark on one line ("Accept. Sure!") for the line to be read
// as that command written without a line of its own; a longer line is
// prose ("Help! I have looked everywhere for the rules of this game.").
const maxTrailingWords = 3

// LeadingCommand returns the command phrase that line begins with, as
// punctuated reads it (its words, then sentence marks), when one to
// maxTrailingWords words follow ("Accept. Sure!", "Help! I am lost",
// "Draw? Gladly."), or "" for any other line. Such a line is answered
// "Did you mean … on a line of its own?" (nearMiss.ownLine) and is neither
// run nor passed on: the words after the command may change what it
// means.
func LeadingCommand(line string) string {
	f := strings.Fields(line)
	for k := 1; k < len(f) && k <= 2; k++ { // a phrase has one or two words
		head, rest := strings.Join(f[:k], " "), f[k:]
		if last, _ := utf8.DecodeLastRuneInString(head); len(rest) > maxTrailingWords || !strings.ContainsRune(sentenceMarks, last) {
			continue // a mark must end the command: "Accept. Sure!", not "¿Help me"
		}
		if p := Punctuated(head); p != "" {
			return p
		}
	}
	return ""
}

// asksFirst reports whether cmd, a command read from a punctuated line,
// does what cannot simply be taken back: it ends a game or an invitation
// (resign, accept draw, decline, cancel challenge, withdraw from a
// tournament), sends the spectators away (private) or stops an address's
// mail (block). Such a line ("Resign?", "Decline?") may be a question to
// the opponent, so it is asked about, "Did you mean …?", and not run.
// A draw offer only asks, so "Draw?" runs; but where the opponent's offer
// stands it would end the game, and then offerDraw asks too (marked).
func asksFirst(cmd grammar.Command) bool {
	switch cmd.(type) {
	case *grammar.ResignCommand, *grammar.AcceptDrawCommand, *grammar.DeclineCommand,
		*grammar.CancelChallengeCommand, *grammar.WithdrawCommand, *grammar.PrivateCommand,
		*grammar.BlockCommand:
		return true
	}
	return false
}
