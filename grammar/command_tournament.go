package grammar

import (
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The mail commands of correspondence tournaments and ratings
// (CORRESPONDENCE.md §6–§7, docs/tournaments.md). A tournament is named
// by its director's id, e.g. "winter-2027": a word of letters, digits,
// "-" and "_" (written in any case; the server compares it in lower
// case).

// TournamentsCommand lists the tournaments that take entries and those
// running: "tournaments", German "turniere".
type TournamentsCommand struct {
	kw
	Keyword string `parser:"@('tournaments' | 'turniere')"`
}

// JoinCommand asks to enter the sender into a tournament open for entry:
// "join winter-2027", German "anmelden winter-2027". A mail's sender can
// be forged, so the referee asks the address to confirm, which the reply
// does with the key it was sent: "join winter-2027 confirm 3f9k2m7q4d",
// German "anmelden winter-2027 bestätigen 3f9k2m7q4d". Key is nil
// without the confirmation; Confirm holds its keyword.
type JoinCommand struct {
	kw
	Keyword    string        `parser:"@('join' | 'anmelden')"`
	Tournament *TournamentID `parser:"@@"`
	Confirm    string        `parser:"( @('confirm' | 'bestätigen' | 'bestaetigen')"`
	Key        *EntryKey     `parser:"  @@ )?"`
}

// WithdrawCommand withdraws the sender from a tournament (Decision T3):
// "withdraw winter-2027" asks for a confirmation, which the reply gives
// with the entry's key: "withdraw winter-2027 confirm 3f9k2m7q4d"; German
// "abmelden winter-2027 [bestätigen <schlüssel>]". Key is nil without the
// confirmation; Confirm holds its keyword.
type WithdrawCommand struct {
	kw
	Keyword    string        `parser:"@('withdraw' | 'abmelden')"`
	Tournament *TournamentID `parser:"@@"`
	Confirm    string        `parser:"( @('confirm' | 'bestätigen' | 'bestaetigen')"`
	Key        *EntryKey     `parser:"  @@ )?"`
}

// StandingsCommand asks for a tournament's standings (anyone may):
// "standings winter-2027", German "tabelle winter-2027".
type StandingsCommand struct {
	kw
	Keyword    string        `parser:"@('standings' | 'tabelle')"`
	Tournament *TournamentID `parser:"@@"`
}

// RatingCommand asks for the sender's ratings (CORRESPONDENCE.md §7):
// "rating" in every variant they have one in, "rating copenhagen" in one
// with its history; German "wertung [variante]". Variant is "" without
// one.
type RatingCommand struct {
	kw
	Keyword string `parser:"@('rating' | 'wertung')"`
	Variant string `parser:"@Word?"`
}

// German reports whether the command's keyword was German.
func (c *TournamentsCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *JoinCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *WithdrawCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *StandingsCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *RatingCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

func (*TournamentsCommand) command() {}
func (*JoinCommand) command()        {}
func (*WithdrawCommand) command()    {}
func (*StandingsCommand) command()   {}
func (*RatingCommand) command()      {}

// tournamentProse decides a line that starts with a tournament keyword:
// these are everyday words ("Rating systems are…", "Join us"), so such a
// line is a command only in a command's shape: "tournaments"/"turniere"
// alone, "standings" (and German) alone or with one word after (alone
// it is answered that it needs an id, outside trial §13), "join",
// "withdraw" (and German) with one or three (the third "confirm"), and
// "rating"/"wertung" alone or with one. ok is false for a word that is not one of them.
func tournamentProse(first string, f []string) (command, ok bool) {
	switch first {
	case "tournaments", "turniere":
		return len(f) == 1, true
	case "standings", "tabelle":
		return len(f) <= 2, true
	case "join", "anmelden", "withdraw", "abmelden":
		if len(f) == 4 {
			switch strings.ToLower(f[2]) {
			case "confirm", "bestätigen", "bestaetigen":
				return true, true
			}
		}
		return len(f) == 2, true
	case "rating", "wertung":
		return len(f) <= 2, true
	}
	return false, false
}

// TournamentID is a tournament's id as written after a tournament
// command: one word without blanks, whatever tokens it lexes as
// ("winter-2027", "wc2027", "2027-cup"), without the marks a sentence
// ends it with ("join xmas-cup." names xmas-cup; sentenceWord).
type TournamentID struct {
	Pos  lexer.Position
	Text string
}

// Parse implements participle.Parseable.
func (t *TournamentID) Parse(lex *lexer.PeekingLexer) error {
	pos, text, ok := sentenceWord(lex)
	if !ok {
		return participle.NextMatch
	}
	t.Pos, t.Text = pos, text
	return nil
}

// EntryKey is the key of a tournament entry as written in the
// confirmation of a withdrawal or of a join: one word without blanks
// ("3f9k2m7q4d"), without a sentence's closing marks (sentenceWord).
type EntryKey struct {
	Pos  lexer.Position
	Text string
}

// Parse implements participle.Parseable.
func (k *EntryKey) Parse(lex *lexer.PeekingLexer) error {
	pos, text, ok := sentenceWord(lex)
	if !ok {
		return participle.NextMatch
	}
	k.Pos, k.Text = pos, text
	return nil
}

// sentenceMarks are the marks a sentence may put right after its last
// word: "Join xmas-cup.", "Standings xmas-cup?". No id or key holds one.
const sentenceMarks = ".,;:!?"

// sentenceWord takes the tokens that follow each other without a blank,
// as one word, as adjacentTokens does, and drops the sentence marks at
// its end (sentenceMarks). ok is false, and nothing is taken, at the end
// of the line or when the word is nothing but marks ("join ?").
func sentenceWord(lex *lexer.PeekingLexer) (lexer.Position, string, bool) {
	start := lex.MakeCheckpoint()
	pos, text, ok := adjacentTokens(lex)
	if text = strings.TrimRight(text, sentenceMarks); !ok || text == "" {
		lex.LoadCheckpoint(start)
		return lexer.Position{}, "", false
	}
	return pos, text, true
}

// adjacentTokens takes the tokens that follow each other without a
// blank, as one word; ok is false at the end of the line.
func adjacentTokens(lex *lexer.PeekingLexer) (lexer.Position, string, bool) {
	first := lex.Peek()
	if first.EOF() {
		return lexer.Position{}, "", false
	}
	var b strings.Builder
	end := first.Pos.Offset
	for tok := lex.Peek(); !tok.EOF() && tok.Pos.Offset == end; tok = lex.Peek() {
		b.WriteString(tok.Value)
		end += len(tok.Value)
		lex.Next()
	}
	return first.Pos, b.String(), true
}

// partShifter is a command with nodes of its own whose positions must
// move from line 1 to the mail's line (ParseCommand).
type partShifter interface{ shiftParts(base lexer.Position) }

func (c *JoinCommand) shiftParts(base lexer.Position) {
	c.Tournament.Pos = shift(base, c.Tournament.Pos)
	if c.Key != nil {
		c.Key.Pos = shift(base, c.Key.Pos)
	}
}
func (c *StandingsCommand) shiftParts(base lexer.Position) {
	c.Tournament.Pos = shift(base, c.Tournament.Pos)
}
func (c *WithdrawCommand) shiftParts(base lexer.Position) {
	c.Tournament.Pos = shift(base, c.Tournament.Pos)
	if c.Key != nil {
		c.Key.Pos = shift(base, c.Key.Pos)
	}
}
