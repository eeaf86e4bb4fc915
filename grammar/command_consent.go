package grammar

import (
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The mail commands of consent (issue 18 §1, docs/security.md
// "Consent"): a request that makes the referee mail an address again and
// again takes effect only when the address confirms it with the key the
// referee mailed it ("watch K7QX2M confirm 3f9k2m7q4d", "notify confirm
// …", "unblock confirm …"), and "block" refuses whatever someone else
// may ask for in the address's name.

// BlockCommand asks the referee to send the sender no invitation to a
// game and no request to confirm that someone else may have made in the
// sender's name: "block", German "sperren". It needs no key: it only
// stops mail.
type BlockCommand struct {
	kw
	Keyword string `parser:"@('block' | 'sperren')"`
}

// UnblockCommand undoes "block": "unblock", German "entsperren". Since it
// lets mail come again, it takes effect only with the key the referee
// mails for it: "unblock confirm 3f9k2m7q4d", German "entsperren
// bestätigen 3f9k2m7q4d". Key is nil without the confirmation; Confirm
// holds its keyword.
type UnblockCommand struct {
	kw
	Keyword string      `parser:"@('unblock' | 'entsperren')"`
	Confirm string      `parser:"( @('confirm' | 'bestätigen' | 'bestaetigen')"`
	Key     *ConfirmKey `parser:"  @@ )?"`
}

// ConfirmKey is the key of a request to confirm as written after
// "confirm" ("bestätigen"): one word without blanks ("3f9k2m7q4d"),
// without a sentence's closing marks (sentenceWord).
type ConfirmKey struct {
	Pos  lexer.Position
	Text string
}

// Parse implements participle.Parseable.
func (k *ConfirmKey) Parse(lex *lexer.PeekingLexer) error {
	pos, text, ok := sentenceWord(lex)
	if !ok {
		return participle.NextMatch
	}
	k.Pos, k.Text = pos, text
	return nil
}

// German reports whether the command's keyword was German.
func (c *BlockCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *UnblockCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

func (*BlockCommand) command()   {}
func (*UnblockCommand) command() {}

func (c *UnblockCommand) shiftParts(base lexer.Position) {
	if c.Key != nil {
		c.Key.Pos = shift(base, c.Key.Pos)
	}
}

// isConfirmWord reports "confirm", "bestätigen" or "bestaetigen" in any
// case.
func isConfirmWord(w string) bool {
	switch strings.ToLower(w) {
	case "confirm", "bestätigen", "bestaetigen":
		return true
	}
	return false
}

// consentProse decides a line that starts with "block", "unblock",
// "sperren" or "entsperren", everyday words ("Block the corner!"): a
// command alone, and "unblock"/"entsperren" also before "confirm KEY".
// ok is false for another word.
func consentProse(first string, f []string) (command, ok bool) {
	switch first {
	case "block", "sperren":
		return len(f) == 1, true
	case "unblock", "entsperren":
		return len(f) == 1 || len(f) == 3 && isConfirmWord(f[1]), true
	}
	return false, false
}
