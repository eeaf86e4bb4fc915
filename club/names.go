package club

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Public names (issue 20). A player appears on the club's pages under a
// public name: the one they chose by mail ("name Ada Lovelace"), or a
// pseudonym. A pseudonym and a player's page id are HMAC-SHA256 of the
// lower-case address under a secret key (the archive's
// archive.Store.PseudonymKey, or the key file of `taflmail site` for
// record files): they say nothing of the address, and without the key
// nobody can try guessed addresses against them.

// EngineAddress is the address the referee's engine opponent plays
// under (docs/engine.md; server.EngineAddress is this constant). Its
// public name is EngineName and its page id "engine".
const EngineAddress = "engine@taflmail.invalid"

// EngineName is the engine opponent's public name.
const EngineName = "taflmail engine"

// Pseudonyms are "Player " and pseudonymLen characters of idAlphabet;
// page ids are idLen characters of it.
const (
	pseudonymPrefix = "Player "
	pseudonymLen    = 7
	idLen           = 10
)

// idEncoding writes HMACs in 32 characters that cannot be mistaken for
// one another (no 0, 1, l, o).
var idEncoding = base32.NewEncoding("abcdefghijkmnpqrstuvwxyz23456789").WithPadding(base32.NoPadding)

// mac is HMAC-SHA256 of purpose and the folded address under key,
// encoded with idEncoding.
func mac(key []byte, purpose, address string) string {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(purpose))
	h.Write([]byte{0})
	h.Write([]byte(strings.ToLower(strings.TrimSpace(address))))
	return idEncoding.EncodeToString(h.Sum(nil))
}

// Pseudonym is the public name of a player who chose none: "Player "
// and seven characters of an HMAC of the address (any case) under key,
// e.g. "Player K7QXM2A". extra > 0 takes that many more characters, for
// the rare pseudonym two addresses share.
func Pseudonym(key []byte, address string, extra int) string {
	return pseudonymPrefix + strings.ToUpper(mac(key, "pseudonym", address)[:pseudonymLen+extra])
}

// PlayerID is the id of a player's page: ten characters of an HMAC of
// the address (any case) under key (another HMAC than the pseudonym's);
// "engine" for EngineAddress. It stays the same when the player chooses
// a name.
func PlayerID(key []byte, address string) string {
	if strings.EqualFold(strings.TrimSpace(address), EngineAddress) {
		return "engine"
	}
	return mac(key, "page", address)[:idLen]
}

// The limits of a chosen public name, in characters (runes).
const (
	MinPublicName = 2
	MaxPublicName = 32
)

// NameError says why a public name cannot be had. Reason is one of the
// NameTooShort … NameTaken values, for the referee's catalogue keys
// (err.name.<reason>); the text is English.
type NameError struct {
	Name   string
	Reason string
}

// The reasons of a NameError.
const (
	NameTooShort = "short"    // fewer than MinPublicName characters
	NameTooLong  = "long"     // more than MaxPublicName characters
	NameChars    = "chars"    // a character other than letters, digits, blank, ' - . _
	NameLetter   = "letter"   // does not start with a letter or digit, or has no letter
	NameReserved = "reserved" // the form of a pseudonym, or the engine's name
	NameTaken    = "taken"    // another player has it
)

func (e *NameError) Error() string {
	what := map[string]string{
		NameTooShort: fmt.Sprintf("has fewer than %d characters", MinPublicName),
		NameTooLong:  fmt.Sprintf("has more than %d characters", MaxPublicName),
		NameChars:    "may hold only letters, digits, blanks and ' - . _",
		NameLetter:   "must start with a letter or digit and hold a letter",
		NameReserved: "is reserved (pseudonyms and the engine's name)",
		NameTaken:    "is another player's",
	}[e.Reason]
	return fmt.Sprintf("club: public name %q %s", e.Name, what)
}

// ErrNameTaken matches a *NameError whose Reason is NameTaken.
var ErrNameTaken = &NameError{Reason: NameTaken}

// Is matches ErrNameTaken and other NameErrors of the same reason.
func (e *NameError) Is(target error) bool {
	var t *NameError
	return errors.As(target, &t) && t.Name == "" && t.Reason == e.Reason
}

// CheckPublicName returns name as a public name is kept (blanks
// collapsed to one, none at the ends), or a *NameError: from
// MinPublicName to MaxPublicName characters, only letters and digits of
// any script, blanks and ' - . _ (so never an address: no @), starting
// with a letter or digit and holding a letter, and not of a pseudonym's
// form ("Player K7QXM2A") nor the engine's name. Whether another player
// has it is the archive's to say (archive.PublicFold).
func CheckPublicName(name string) (string, error) {
	n := strings.Join(strings.Fields(name), " ")
	count := utf8.RuneCountInString(n)
	switch {
	case count < MinPublicName:
		return n, &NameError{Name: n, Reason: NameTooShort}
	case count > MaxPublicName:
		return n, &NameError{Name: n, Reason: NameTooLong}
	}
	letter := false
	for i, r := range n {
		switch {
		case unicode.IsLetter(r):
			letter = true
		case unicode.IsDigit(r) || r == ' ':
		case strings.ContainsRune("'-._", r):
			if i == 0 {
				return n, &NameError{Name: n, Reason: NameLetter}
			}
		default:
			return n, &NameError{Name: n, Reason: NameChars}
		}
	}
	if !letter {
		return n, &NameError{Name: n, Reason: NameLetter}
	}
	if reservedName(n) {
		return n, &NameError{Name: n, Reason: NameReserved}
	}
	return n, nil
}

// reservedName reports a name of a pseudonym's form ("Player " and
// characters of the id alphabet) or the engine's.
func reservedName(n string) bool {
	f := strings.ToLower(n)
	if f == EngineName || f == "engine" {
		return true
	}
	rest, ok := strings.CutPrefix(f, strings.ToLower(pseudonymPrefix))
	if !ok || len(rest) < pseudonymLen {
		return false
	}
	return strings.Trim(rest, "abcdefghijkmnpqrstuvwxyz23456789") == ""
}

// Names maps players' addresses to their public names and page ids.
// The zero value is not usable; make one with NewNames.
type Names struct {
	key    []byte
	chosen map[string]string // lower-case address → chosen name
	extra  map[string]int    // addresses whose pseudonym needs more characters
}

// NewNames returns the names of a club whose pseudonym key is key and
// whose players chose the names of chosen (address, any case → name).
// Among addresses, a pseudonym that two of them would share (or that a
// chosen name has) is made longer for all but the first in sorted
// order, so that every public name is unique.
func NewNames(key []byte, chosen map[string]string, addresses []string) *Names {
	n := &Names{key: key, chosen: map[string]string{}, extra: map[string]int{}}
	taken := map[string]bool{}
	for a, name := range chosen {
		n.chosen[strings.ToLower(strings.TrimSpace(a))] = name
		taken[strings.ToLower(name)] = true
	}
	seen := map[string]bool{}
	var addrs []string
	for _, a := range addresses {
		a = strings.ToLower(strings.TrimSpace(a))
		if !seen[a] && n.chosen[a] == "" && a != EngineAddress {
			seen[a] = true
			addrs = append(addrs, a)
		}
	}
	slices.Sort(addrs)
	for _, a := range addrs {
		for x := 0; ; x++ {
			p := strings.ToLower(Pseudonym(key, a, x))
			if !taken[p] || x >= 40 {
				taken[p] = true
				if x > 0 {
					n.extra[a] = x
				}
				break
			}
		}
	}
	return n
}

// Name returns the public name of address (any case): the chosen one,
// EngineName for the engine, else the pseudonym.
func (n *Names) Name(address string) string {
	a := strings.ToLower(strings.TrimSpace(address))
	if a == EngineAddress {
		return EngineName
	}
	if c := n.chosen[a]; c != "" {
		return c
	}
	return Pseudonym(n.key, a, n.extra[a])
}

// ID returns the page id of address (PlayerID).
func (n *Names) ID(address string) string { return PlayerID(n.key, address) }
