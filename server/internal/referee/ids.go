package referee

import (
	"encoding/base32"
	"errors"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/server/internal/msgid"
)

// Game ids are six characters of Crockford-style base32 without the easily
// confused letters (I, L, O, U); tokens are ten lower-case characters of the
// same alphabet, 50 random bits (docs/security.md).
const idAlphabet = club.GameIDAlphabet

// IdEncoding writes and reads ids and tokens in idAlphabet, unpadded.
var IdEncoding = base32.NewEncoding(idAlphabet).WithPadding(base32.NoPadding)

// randomString returns n characters of idAlphabet read from r.
func randomString(r io.Reader, n int) (string, error) {
	b := make([]byte, (n*5+7)/8)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", err
	}
	return IdEncoding.EncodeToString(b)[:n], nil
}

// NewGameID returns a random public game id such as "K7QX2M", which may
// be taken: FreshGameID draws one that is not.
func NewGameID(r io.Reader) (string, error) { return randomString(r, 6) }

// MaxGameIDDraws bounds the ids FreshGameID draws for one game. With a
// million games stored (a thousandth of the 32^6 ids) the chance that 32
// draws in a row are all taken is 10^-96: only a broken source of
// randomness gets there.
const MaxGameIDDraws = 32

// ErrNoGameID is FreshGameID's failure: every id it drew was taken.
var ErrNoGameID = errors.New("server: no free game id in 32 draws (is Options.Rand random?)")

// FreshGameID draws game ids from r until taken reports one free: the
// archive's games, and those of the change being decided (a tournament's
// start draws a million in one transaction), so that ids are unique by
// construction, not by luck (issue 18 §4: at 89,700 games, the
// birthday bound makes about four repeats). Errors: r's, taken's and
// ErrNoGameID.
func FreshGameID(r io.Reader, taken func(id string) (bool, error)) (string, error) {
	for range MaxGameIDDraws {
		id, err := NewGameID(r)
		if err != nil {
			return "", err
		}
		used, err := taken(id)
		if err != nil {
			return "", err
		}
		if !used {
			return id, nil
		}
	}
	return "", ErrNoGameID
}

// NewToken returns a fresh per-game player key such as "3f9k2m7q4d".
func NewToken(r io.Reader) (string, error) {
	s, err := randomString(r, 10)
	return strings.ToLower(s), err
}

// SubjectTag finds "[taflmail K7QX2M]" or "[taflmail K7QX2M 3f9k2m7q4d]"
// in a subject, any case. A key of the wrong form ("[taflmail K7QX2M xx]")
// still names the game: the mail is then told that it does not carry the
// player's key, not that it names no game (trial report §8.4).
var SubjectTag = regexp.MustCompile(`(?i)\[taflmail\s+([0-9a-z]{6})(?:\s+([^\s\[\]]{1,40}))?\s*\]`)

// gameRef is what a mail says about the game it belongs to: the id and the
// keys it carries (from the subject tag and from the ids of the mails it
// answers).
type gameRef struct {
	ID     string   // the game id, "" for none
	Tokens []string // the keys the mail carries, as written
	// Several are the games a text names when it names more than one
	// (findGameInText), so the refusal can say which: one mail plays in
	// one game (a reply to the daily digest that keeps several tag lines).
	Several []string
}

// FindGame reads the game reference of a mail from its subject tag, its
// In-Reply-To and its References. The subject wins over the thread when they
// name different games.
func FindGame(subject, inReplyTo string, references []string) gameRef {
	var ref gameRef
	if m := SubjectTag.FindStringSubmatch(subject); m != nil {
		ref.ID = strings.ToUpper(m[1])
		if m[2] != "" {
			ref.Tokens = append(ref.Tokens, strings.ToLower(m[2]))
		}
	}
	ids := append([]string{inReplyTo}, references...)
	for _, id := range ids {
		game, token, ok := msgid.Thread(id)
		if !ok {
			continue
		}
		if ref.ID == "" {
			ref.ID = game
		}
		if game == ref.ID {
			ref.Tokens = append(ref.Tokens, token)
		}
	}
	return ref
}

// findGameInText reads the game reference of a mail that names none in its
// subject or thread, from the game tags in its text (issue 8 §5): a
// player may answer the "games" list, quoting the line of one game, or
// copy a game's tag into a fresh mail. The tags of the reply text (what
// the player wrote) count first, then those of the whole text, quoted
// parts included; a text whose tags name more than one game names none
// (its several lists them). The reply text counts only up to a line of
// our own mail quoted without marks (ownLine: a top-posted answer to the
// daily digest names the game the player kept above it). A tag's key
// counts like a key in the subject: only the player it was mailed to has
// it.
func findGameInText(reply, text string) gameRef {
	if loc := ownMailLine(reply); loc >= 0 {
		reply = reply[:loc]
	}
	for _, t := range []string{reply, text} {
		var ref gameRef
		for _, m := range SubjectTag.FindAllStringSubmatch(t, -1) {
			id := strings.ToUpper(m[1])
			if ref.ID != "" && ref.ID != id {
				return gameRef{Several: gamesTagged(t)} // ambiguous: the player must say which
			}
			ref.ID = id
			if m[2] != "" {
				ref.Tokens = append(ref.Tokens, strings.ToLower(m[2]))
			}
		}
		if ref.ID != "" {
			return ref
		}
	}
	return gameRef{}
}

// gamesTagged returns the ids of the games text has tags of, each once,
// in order.
func gamesTagged(text string) []string {
	var ids []string
	for _, m := range SubjectTag.FindAllStringSubmatch(text, -1) {
		if id := strings.ToUpper(m[1]); !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// ownMailLine returns the byte offset of the first line of our own mail
// quoted without marks in text (OwnStart: its greeting, or its first line
// that only our own mails have), or -1.
func ownMailLine(text string) int {
	lines := strings.SplitAfter(text, "\n")
	trimmed := make([]string, len(lines))
	for i, line := range lines {
		trimmed[i] = strings.TrimRight(line, "\r\n")
	}
	start := OwnStart(trimmed)
	if start < 0 {
		return -1
	}
	off := 0
	for _, line := range lines[:start] {
		off += len(line)
	}
	return off
}

// hideKeys replaces the player keys in the game tags of a subject by "…",
// for the archive's record of the mail (`taflmail mails` shows it).
func hideKeys(subject string) string {
	return SubjectTag.ReplaceAllStringFunc(subject, func(tag string) string {
		m := SubjectTag.FindStringSubmatch(tag)
		if m[2] == "" {
			return tag
		}
		return "[taflmail " + strings.ToUpper(m[1]) + " …]"
	})
}

// StripSubject removes reply prefixes and the game tag from a subject,
// leaving what the player wrote there (a subject-only command).
func StripSubject(s string) string {
	s = SubjectTag.ReplaceAllString(s, " ")
	for {
		t := strings.TrimSpace(s)
		low := strings.ToLower(t)
		cut := false
		for _, p := range []string{"re:", "aw:", "fwd:", "fw:", "wg:", "antw:"} {
			if strings.HasPrefix(low, p) {
				t = t[len(p):]
				cut = true
				break
			}
		}
		s = t
		if !cut {
			return strings.TrimSpace(s)
		}
	}
}
