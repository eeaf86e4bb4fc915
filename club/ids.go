package club

import (
	"regexp"
	"strings"
)

// TournamentIDPattern is the form of a tournament's id, as a regular
// expression without anchors, for the referee to embed in the patterns
// of its Message-IDs: 2 to 32 characters of lower-case ASCII letters,
// digits and "-", starting with a letter and ending with a letter or a
// digit ("winter-2027", "cup-27"; docs/tournaments.md). An id is what a
// player types after "join", "watch" and "standings", so short, lower
// case and without blanks.
//
// It is the one definition of the rule: `taflmail tournament create`
// refuses any other id (ReadTournamentFile), so no stored tournament has
// another form, and the referee reads ids back from its own Message-IDs
// with the same pattern.
const TournamentIDPattern = `[a-z][a-z0-9-]{0,30}[a-z0-9]`

// tournamentID is TournamentIDPattern anchored.
var tournamentID = regexp.MustCompile(`^` + TournamentIDPattern + `$`)

// ValidTournamentID reports whether id has the form TournamentIDPattern
// describes, as a whole. It does not check the other rules of a new id
// (ReadTournamentFile also refuses an id that looks like a game's or
// reads as a word in a mail).
func ValidTournamentID(id string) bool { return tournamentID.MatchString(id) }

// GameIDAlphabet is the alphabet of the referee's game ids and keys:
// Crockford-style base32 without the easily confused letters I, L, O and
// U (docs/security.md). A game id is six of its characters ("K7QX2M"); a
// key ten, in lower case.
const GameIDAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// MinPlayers is the fewest players a tournament starts with, the fewest
// a round robin needs: a tournament file listing fewer is refused, and an
// open event with fewer entries when it is due is cancelled.
const MinPlayers = 3

// LooksLikeGameID reports whether id, in any case, has the shape of a
// game's id: six characters of GameIDAlphabet. Mail commands that take a
// game or a tournament ("watch ID") read such an id as a game's first,
// so a tournament must not have one (ReadTournamentFile refuses it).
func LooksLikeGameID(id string) bool {
	id = strings.ToUpper(id)
	if len(id) != 6 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if !strings.ContainsRune(GameIDAlphabet, rune(id[i])) {
			return false
		}
	}
	return true
}
