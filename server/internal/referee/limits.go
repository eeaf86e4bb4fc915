package referee

import "unicode/utf8"

// maxCommandLines is how many distinct command lines of one mail are read;
// the reply says when more were left unread (issue 8 §2).
const maxCommandLines = 20

// MaxReplyText bounds, in bytes, the text of all sections of all replies to
// one mail; with the board, the move list and the headers the replies stay
// under MaxReplyBytes.
const MaxReplyText = 48 << 10

// MaxReplyBytes bounds, in bytes, all replies one mail causes together,
// whatever it holds (issue 8 §2: a 240 KB mail of "help" lines made 35 MB).
const MaxReplyBytes = 64 << 10

// MaxQuoteRunes is how many characters of a line, or of a word taken
// from one (an address, a game id, a variant name), a reply quotes; a
// longer one is cut with "…" (trial 2 report §1, §2: a 100,000-character
// line must not make a reply that the size caps drop).
const MaxQuoteRunes = 200

// Clip returns s cut to MaxQuoteRunes characters, with "…" where it was
// cut. Every word of a mail a reply quotes goes through it (Refuse's
// arguments included).
func Clip(s string) string {
	if utf8.RuneCountInString(s) <= MaxQuoteRunes {
		return s
	}
	return string([]rune(s)[:MaxQuoteRunes]) + "…"
}
