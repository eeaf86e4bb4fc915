package tournament

import (
	"cmp"
	"errors"
	"fmt"
	"iter"
	"slices"

	"github.com/taflmail/taflmail/engine"
)

// Errors of the pairing functions, wrapped with the detail (errors.Is).
var (
	// ErrTooFewPlayers: a round robin (or a group) needs two players.
	ErrTooFewPlayers = errors.New("tournament: too few players")
	// ErrDuplicatePlayer: a player is named twice.
	ErrDuplicatePlayer = errors.New("tournament: player named twice")
	// ErrBadOptions: games per pairing other than 1 or 2, or a group
	// count that does not fit the players.
	ErrBadOptions = errors.New("tournament: bad options")
)

// Game is one game of an event: where the schedule puts it, who plays
// which side, and (once it has ended) its result.
type Game struct {
	// Section is the 1-based group of a round robin in groups; 1 for a
	// single round robin.
	Section int
	// Round and Board are the game's place in the Berger table of its
	// section (both 1-based). All games of a section start together
	// (CORRESPONDENCE.md §6.2); the round only orders the list.
	Round, Board int
	// MatchGame is 1 or 2: the game's number within its match of two
	// games (Decision T1; the same players, sides swapped); always 1 with
	// one game per pairing.
	MatchGame int
	// Attackers and Defenders are the players of the two sides.
	Attackers, Defenders string
	// Result is engine.Ongoing until the game ends, then AttackersWin,
	// DefendersWin or Draw. A time-out or a resignation is a win for the
	// other side (§4.2).
	Result engine.Result
}

// Options are the settings of a round robin; the zero value is a round
// robin with matches of two games.
type Options struct {
	// GamesPerPairing is 2 (also for 0: a match of two games, one with
	// each side, started together; Decision T1) or 1 (one game, sides
	// balanced by the Berger table's colours).
	GamesPerPairing int
}

func (o Options) gamesPerPairing() (int, error) {
	switch o.GamesPerPairing {
	case 0, 2:
		return 2, nil
	case 1:
		return 1, nil
	}
	return 0, fmt.Errorf("%w: games per pairing %d, want 1 or 2", ErrBadOptions, o.GamesPerPairing)
}

// Pairing is one pairing of a Berger table: White takes the attackers'
// side in a single game, and the attackers' side of the first game of a
// match.
type Pairing struct {
	Round, Board int
	White, Black int // 1-based Berger numbers
}

// Berger returns the Berger table for n players, numbered 1..n (the FIDE
// Handbook's round-robin tables, C.05 annex 1): rounds 1..n−1 for even
// n, 1..n for odd n, where the player paired with the absent number n+1
// has a bye and is left out. In round r the players i, j < m (m = n
// rounded up to even) with i + j ≡ r + 1 (mod m − 1) meet, and the player
// k with 2k ≡ r + 1 meets m; of i, j the lower number has White when
// i + j is odd, the higher when it is even; m has White in even rounds.
// Boards are numbered from 1 in the table's order (m's game first, then
// k+1 against k−1, k+2 against k−2, …); a bye takes no board. Every
// player's White and Black counts differ by at most one.
func Berger(n int) []Pairing {
	var out []Pairing
	for p := range bergerSeq(n) {
		out = append(out, p)
	}
	return out
}

// bergerSeq yields Berger(n)'s pairings in its order, one at a time.
func bergerSeq(n int) iter.Seq[Pairing] {
	return func(yield func(Pairing) bool) {
		if n < 2 {
			return
		}
		m := n + n%2 // with a dummy player for odd n
		for r := 1; r < m; r++ {
			k := (r + 1) / 2
			if r%2 == 0 {
				k = (r + m) / 2
			}
			board := 0
			add := func(w, b int) bool {
				if w > n || b > n {
					return true // the bye
				}
				board++
				return yield(Pairing{Round: r, Board: board, White: w, Black: b})
			}
			var ok bool
			if r%2 == 0 {
				ok = add(m, k)
			} else {
				ok = add(k, m)
			}
			for d := 1; ok && d < m/2; d++ {
				i := wrap(k+d, m-1)
				j := wrap(k-d, m-1)
				lo, hi := min(i, j), max(i, j)
				if (i+j)%2 == 1 {
					ok = add(lo, hi)
				} else {
					ok = add(hi, lo)
				}
			}
			if !ok {
				return
			}
		}
	}
}

// wrap maps x into 1..p (p ≥ 1).
func wrap(x, p int) int {
	x = (x-1)%p + 1
	if x < 1 {
		x += p
	}
	return x
}

// RoundRobin returns the games of a round robin among players, in the
// order of the Berger table (round, board, match game). players[i] gets
// Berger number i+1 (draw lots before calling, or seed). With two games
// per pairing each pairing is a match: game 1 has the table's White as
// attackers, game 2 the same players with sides swapped (Decision T1).
// Section is 1 and Result engine.Ongoing in every game.
//
// Errors: ErrTooFewPlayers (fewer than 2), ErrDuplicatePlayer (a name
// twice or empty), ErrBadOptions.
func RoundRobin(players []string, o Options) ([]Game, error) {
	return roundRobin(1, players, o)
}

func roundRobin(section int, players []string, o Options) ([]Game, error) {
	seq, err := roundRobinSeq(section, players, o)
	if err != nil {
		return nil, err
	}
	per, _ := o.gamesPerPairing()
	n := len(players)
	games := make([]Game, 0, n*(n-1)/2*per)
	for g := range seq {
		games = append(games, g)
	}
	return games, nil
}

// roundRobinSeq yields roundRobin's games one at a time, after checking
// what roundRobin checks.
func roundRobinSeq(section int, players []string, o Options) (iter.Seq[Game], error) {
	per, err := o.gamesPerPairing()
	if err != nil {
		return nil, err
	}
	if len(players) < 2 {
		return nil, fmt.Errorf("%w: %d in section %d, want at least 2", ErrTooFewPlayers, len(players), section)
	}
	if err := checkNames(players); err != nil {
		return nil, err
	}
	return func(yield func(Game) bool) {
		for p := range bergerSeq(len(players)) {
			w, b := players[p.White-1], players[p.Black-1]
			if !yield(Game{Section: section, Round: p.Round, Board: p.Board, MatchGame: 1, Attackers: w, Defenders: b}) {
				return
			}
			if per == 2 && !yield(Game{Section: section, Round: p.Round, Board: p.Board, MatchGame: 2, Attackers: b, Defenders: w}) {
				return
			}
		}
	}, nil
}

// checkNames refuses an empty or repeated player name.
func checkNames(players []string) error {
	seen := make(map[string]bool, len(players))
	for _, p := range players {
		if p == "" {
			return fmt.Errorf("%w: an empty player name", ErrDuplicatePlayer)
		}
		if seen[p] {
			return fmt.Errorf("%w: %q", ErrDuplicatePlayer, p)
		}
		seen[p] = true
	}
	return nil
}

// Seed is a player with the rating used to seed groups (the player's
// rating in the event's variant at its start, Ratings.Current).
type Seed struct {
	Player string
	Rating float64
}

// SeedGroups splits players into n groups by rating in snake order
// (CORRESPONDENCE.md §6.2): sorted by rating, highest first (equal
// ratings keep the order given), seeds 1..n go to groups 1..n, seeds
// n+1..2n to groups n..1, and so on. Within each group players are
// listed by seed, so the group's best-rated player gets Berger number 1.
// Group sizes differ by at most one.
//
// Errors: ErrBadOptions when n < 1 or a group would have fewer than two
// players; ErrDuplicatePlayer.
func SeedGroups(players []Seed, n int) ([][]string, error) {
	if n < 1 || len(players) < 2*n {
		return nil, fmt.Errorf("%w: %d players cannot fill %d groups of at least 2", ErrBadOptions, len(players), n)
	}
	names := make([]string, len(players))
	for i, p := range players {
		names[i] = p.Player
	}
	if err := checkNames(names); err != nil {
		return nil, err
	}
	sorted := slices.Clone(players)
	slices.SortStableFunc(sorted, func(a, b Seed) int { return cmp.Compare(b.Rating, a.Rating) })
	groups := make([][]string, n)
	for i, p := range sorted {
		g := i % n
		if (i/n)%2 == 1 {
			g = n - 1 - g
		}
		groups[g] = append(groups[g], p.Player)
	}
	return groups, nil
}

// GroupRoundRobin returns the games of a round robin in groups: a round
// robin (RoundRobin) in each group, Section = the group's 1-based number,
// groups in order. Errors as RoundRobin's, and ErrDuplicatePlayer for a
// player in two groups.
func GroupRoundRobin(groups [][]string, o Options) ([]Game, error) {
	seq, n, err := GroupGames(groups, o)
	if err != nil {
		return nil, err
	}
	games := make([]Game, 0, n)
	for g := range seq {
		games = append(games, g)
	}
	return games, nil
}

// GroupGames is GroupRoundRobin one game at a time: the same games in the
// same order, made as they are asked for, so that a round robin of a
// thousand players (499,500 pairings, 999,000 games in matches) is never
// held whole (server.StartTournament). n is how many games the sequence
// yields. The errors are GroupRoundRobin's, returned before any game.
func GroupGames(groups [][]string, o Options) (seq iter.Seq[Game], n int, err error) {
	var all []string
	for _, g := range groups {
		all = append(all, g...)
	}
	if err := checkNames(all); err != nil {
		return nil, 0, err
	}
	per, err := o.gamesPerPairing()
	if err != nil {
		return nil, 0, err
	}
	seqs := make([]iter.Seq[Game], len(groups))
	for i, g := range groups {
		if seqs[i], err = roundRobinSeq(i+1, g, o); err != nil {
			return nil, 0, err
		}
		n += len(g) * (len(g) - 1) / 2 * per
	}
	return func(yield func(Game) bool) {
		for _, s := range seqs {
			for g := range s {
				if !yield(g) {
					return
				}
			}
		}
	}, n, nil
}
