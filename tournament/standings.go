package tournament

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/taflmail/taflmail/engine"
)

// ErrUnknownPlayer: a game or a withdrawal names a player the section
// does not have, or a game has the same player on both sides.
var ErrUnknownPlayer = errors.New("tournament: unknown player")

// Section is what one crosstable is computed from: a round robin, or one
// group of a round robin in groups (CORRESPONDENCE.md §6).
type Section struct {
	// Event is the event's name, Number the group's 1-based number (0
	// when the event is a single round robin).
	Event  string
	Number int
	// Players in Berger number order. When empty, the players of Games in
	// order of first appearance (attackers before defenders).
	Players []string
	// Games are every game of the section, finished or not; a game that
	// has not ended has Result engine.Ongoing.
	Games []Game
	// Withdrawn are the players who withdrew or were removed (Decision
	// T3): one who finished fewer than half of their games has all of
	// them annulled; otherwise their unfinished games are lost.
	Withdrawn []string
}

// Standings is a section's table: ranked players with their scores and
// tie-breaks, and the matches between them. Its JSON form (field names
// in the tags) is `taflmail standings --json`'s, documented in
// docs/tournaments.md.
type Standings struct {
	Event   string `json:"event"`
	Section int    `json:"section"` // 0 for a single round robin
	// Games is the number of games that count (annulled ones left out),
	// Finished the number of them with a result (forfeits included).
	Games    int `json:"games"`
	Finished int `json:"finished"`
	// Rows are the players in order of the standings (Decision T2), the
	// players whose games were annulled left out.
	Rows []Standing `json:"standings"`
	// Annulled lists the withdrawn players whose games were all annulled
	// (Decision T3), in Players order; never nil.
	Annulled []string `json:"annulled"`
}

// Standing is one player's line of the standings.
type Standing struct {
	// Place is the player's 1-based place; players still tied after every
	// tie-break share places Place..LastPlace (written "3–4"; in JSON
	// each has the best place, Place, and Shared is true).
	Place     int    `json:"place"`
	LastPlace int    `json:"last_place"`
	Shared    bool   `json:"shared"`
	Player    string `json:"player"`
	// Points: win 1, draw ½, loss 0 per game (§6.3).
	Points float64 `json:"points"`
	// SonnebornBerger is the sum over the player's games of the game's
	// score times that opponent's final points (Decision T2).
	SonnebornBerger float64 `json:"sonneborn_berger"`
	Wins            int     `json:"wins"`
	Draws           int     `json:"draws"`
	Losses          int     `json:"losses"`
	// TiedPoints is the points scored in the games among the players who
	// were still level on points, S–B and wins (the fourth tie-break);
	// nil when the player was not level with anyone.
	TiedPoints *float64 `json:"tied_points"`
	// Played is the number of games counted, Games the number scheduled
	// (annulled ones left out).
	Played int `json:"played"`
	Games  int `json:"games"`
	// Withdrawn: the player withdrew having finished at least half of
	// their games; their unfinished games count as lost.
	Withdrawn bool `json:"withdrawn"`
	// Matches are the player's matches against each other ranked player,
	// in the order of Rows, the player's own place left out.
	Matches []Match `json:"matches"`
}

// Match is a player's score against one opponent: the sum of the game
// scores (0 to 2 in a match of two games), over Played of Games games.
type Match struct {
	Opponent string  `json:"opponent"`
	Score    float64 `json:"score"`
	Played   int     `json:"played"`
	Games    int     `json:"games"`
}

// PlaceText returns the place as the crosstable writes it: "3", or
// "3–4" for a shared place.
func (s Standing) PlaceText() string {
	if s.LastPlace > s.Place {
		return fmt.Sprintf("%d–%d", s.Place, s.LastPlace)
	}
	return fmt.Sprint(s.Place)
}

// scored is a game reduced to player indexes and half points.
type scored struct {
	a, d      int // attackers, defenders
	sa, sd    int // half points: 0, 1 or 2
	counted   bool
	scheduled bool // false for an annulled game
}

// Standings computes the section's standings (CORRESPONDENCE.md
// §6.3–§6.4): points; then Sonneborn–Berger; then the number of wins;
// then the points in the games among the players still level on all
// three (one pass, not repeated for a smaller group); players level after
// that share a place and keep the order of Players. A withdrawn player
// who finished fewer than half of their games (2·finished < scheduled)
// has every game annulled, removed from every score (Decision T3); one
// who finished at least half loses every unfinished game, which counts
// as a win for the opponent (two such players in one game both lose).
// A time-out is an ordinary result (§4.2).
//
// Errors (wrapping ErrUnknownPlayer): a game or withdrawal with a player
// not in Players, a game with the same player on both sides, a name
// listed twice in Players (ErrDuplicatePlayer).
func (s *Section) Standings() (*Standings, error) {
	names := s.Players
	if len(names) == 0 {
		names = playersOf(s.Games)
	} else if err := checkNames(names); err != nil {
		return nil, err
	}
	t, err := newTally(names, s.Games, s.Withdrawn)
	if err != nil {
		return nil, err
	}
	st := &Standings{Event: s.Event, Section: s.Number}
	st.Games, st.Finished = t.score(s.Games)
	t.sonnebornBerger()
	st.Annulled = t.rank()
	st.Rows = t.standingRows(t.matches())
	return st, nil
}

// tally is the working state of [Section.Standings]. Slices of length
// len(names) are indexed by player, the player's position in names.
type tally struct {
	names     []string
	games     []scored // one per game of the section, in its order
	withdrawn []bool
	annulled  []bool     // withdrawn having finished fewer than half (T3)
	rows      []Standing // the counts Games, Played, Wins, Draws, Losses
	pts       []int      // points, in half points
	sb        []int      // Sonneborn–Berger, in quarter points
	order     []int      // the players ranked, the annulled left out
	tied      []int      // half points in the games among the level group
	inTie     []bool     // the player was level with another (tied counts)
}

// newTally resolves the players of games and the withdrawn players to
// their index in names and marks who is withdrawn and whose games are
// annulled (2·finished < scheduled). Errors wrap ErrUnknownPlayer: the
// first game with a side not in names or the same player on both sides,
// then the first withdrawn player not in names.
func newTally(names []string, games []Game, withdrawnPlayers []string) (*tally, error) {
	n := len(names)
	idx := make(map[string]int, n)
	for i, p := range names {
		idx[p] = i
	}
	t := &tally{
		names:     names,
		games:     make([]scored, len(games)),
		withdrawn: make([]bool, n),
		annulled:  make([]bool, n),
	}
	total := make([]int, n)
	finished := make([]int, n)
	for k, g := range games {
		a, okA := idx[g.Attackers]
		d, okD := idx[g.Defenders]
		switch {
		case !okA:
			return nil, fmt.Errorf("%w: attackers %q of game %d", ErrUnknownPlayer, g.Attackers, k+1)
		case !okD:
			return nil, fmt.Errorf("%w: defenders %q of game %d", ErrUnknownPlayer, g.Defenders, k+1)
		case a == d:
			return nil, fmt.Errorf("%w: %q plays both sides of game %d", ErrUnknownPlayer, g.Attackers, k+1)
		}
		t.games[k] = scored{a: a, d: d}
		total[a]++
		total[d]++
		if g.Result != engine.Ongoing {
			finished[a]++
			finished[d]++
		}
	}
	for _, p := range withdrawnPlayers {
		i, ok := idx[p]
		if !ok {
			return nil, fmt.Errorf("%w: withdrawn player %q", ErrUnknownPlayer, p)
		}
		t.withdrawn[i] = true
		t.annulled[i] = 2*finished[i] < total[i]
	}
	return t, nil
}

// score scores each game of games (the section's, as t.games) that is not
// annulled: a result, or the loss of an unfinished game by a withdrawn
// player (T3; two withdrawn players both lose). It fills the players'
// counts and points and returns the number of games that count and of
// those with a result.
func (t *tally) score(games []Game) (scheduled, finished int) {
	n := len(t.names)
	t.rows = make([]Standing, n)
	t.pts = make([]int, n)
	for k, g := range games {
		sg := &t.games[k]
		if t.annulled[sg.a] || t.annulled[sg.d] {
			continue
		}
		sg.scheduled = true
		t.rows[sg.a].Games++
		t.rows[sg.d].Games++
		scheduled++
		switch g.Result {
		case engine.AttackersWin:
			sg.sa, sg.sd, sg.counted = 2, 0, true
		case engine.DefendersWin:
			sg.sa, sg.sd, sg.counted = 0, 2, true
		case engine.Draw:
			sg.sa, sg.sd, sg.counted = 1, 1, true
		default:
			// Unfinished: lost by a withdrawn player (T3), else not yet
			// played.
			wa, wd := t.withdrawn[sg.a], t.withdrawn[sg.d]
			if wa || wd {
				sg.counted = true
				if !wa {
					sg.sa = 2
				}
				if !wd {
					sg.sd = 2
				}
			}
		}
		if !sg.counted {
			continue
		}
		finished++
		for _, side := range [2][2]int{{sg.a, sg.sa}, {sg.d, sg.sd}} {
			i, sc := side[0], side[1]
			t.pts[i] += sc
			t.rows[i].Played++
			switch sc {
			case 2:
				t.rows[i].Wins++
			case 1:
				t.rows[i].Draws++
			default:
				t.rows[i].Losses++
			}
		}
	}
	return scheduled, finished
}

// sonnebornBerger sums, for each player, the score of each counted game
// times the opponent's final points (Decision T2), after [tally.score].
func (t *tally) sonnebornBerger() {
	t.sb = make([]int, len(t.names))
	for _, g := range t.games {
		if g.counted {
			t.sb[g.a] += g.sa * t.pts[g.d]
			t.sb[g.d] += g.sd * t.pts[g.a]
		}
	}
}

// primary compares players i and j by points, S–B and wins, the better
// first (a negative result when i ranks above j).
func (t *tally) primary(i, j int) int {
	return cmp.Or(cmp.Compare(t.pts[j], t.pts[i]), cmp.Compare(t.sb[j], t.sb[i]), cmp.Compare(t.rows[j].Wins, t.rows[i].Wins))
}

// level reports whether players i and j are level after every tie-break,
// and so share a place.
func (t *tally) level(i, j int) bool { return t.primary(i, j) == 0 && t.tied[i] == t.tied[j] }

// rank orders the players not annulled by [tally.primary], then each
// group level on it by the points of the games inside the group (one
// pass), stably, into t.order. It returns the names of the annulled
// players in names order, never nil.
func (t *tally) rank() (annulled []string) {
	n := len(t.names)
	annulled = []string{}
	t.order = make([]int, 0, n)
	for i := range n {
		if t.annulled[i] {
			annulled = append(annulled, t.names[i])
		} else {
			t.order = append(t.order, i)
		}
	}
	slices.SortStableFunc(t.order, t.primary)
	t.tied = make([]int, n)
	t.inTie = make([]bool, n)
	for lo := 0; lo < len(t.order); {
		hi := lo + 1
		for hi < len(t.order) && t.primary(t.order[lo], t.order[hi]) == 0 {
			hi++
		}
		if hi-lo > 1 {
			t.breakTie(t.order[lo:hi])
		}
		lo = hi
	}
	return annulled
}

// breakTie counts the points of the games among group, players level on
// [tally.primary], and sorts group by them, stably.
func (t *tally) breakTie(group []int) {
	member := make(map[int]bool, len(group))
	for _, i := range group {
		member[i] = true
		t.inTie[i] = true
	}
	for _, g := range t.games {
		if g.counted && member[g.a] && member[g.d] {
			t.tied[g.a] += g.sa
			t.tied[g.d] += g.sd
		}
	}
	slices.SortStableFunc(group, func(i, j int) int { return cmp.Compare(t.tied[j], t.tied[i]) })
}

// matches returns, after [tally.rank], matches[i][r]: ranked player i's
// match against the player ranked r (i's own place included, empty), the
// sum of the scheduled games between them. Rows of annulled players are
// nil.
func (t *tally) matches() [][]Match {
	rank := make([]int, len(t.names)) // player index → position in order
	for r, i := range t.order {
		rank[i] = r
	}
	matches := make([][]Match, len(t.names))
	for _, i := range t.order {
		matches[i] = make([]Match, len(t.order))
		for r, j := range t.order {
			matches[i][r].Opponent = t.names[j]
		}
	}
	for _, g := range t.games {
		if !g.scheduled {
			continue
		}
		ma, md := &matches[g.a][rank[g.d]], &matches[g.d][rank[g.a]]
		ma.Games++
		md.Games++
		if g.counted {
			ma.Played++
			md.Played++
			ma.Score += float64(g.sa) / 2
			md.Score += float64(g.sd) / 2
		}
	}
	return matches
}

// standingRows returns the rows of the standings in t.order, with places
// (shared by players [tally.level]), points, tie-breaks and each player's
// matches from matches (as [tally.matches] gives them; their own place
// is removed).
func (t *tally) standingRows(matches [][]Match) []Standing {
	rows := make([]Standing, len(t.order))
	for lo := 0; lo < len(t.order); {
		hi := lo + 1
		for hi < len(t.order) && t.level(t.order[lo], t.order[hi]) {
			hi++
		}
		for r := lo; r < hi; r++ {
			i := t.order[r]
			row := t.rows[i]
			row.Place, row.LastPlace, row.Shared = lo+1, hi, hi-lo > 1
			row.Player = t.names[i]
			row.Points = float64(t.pts[i]) / 2
			row.SonnebornBerger = float64(t.sb[i]) / 4
			row.Withdrawn = t.withdrawn[i]
			if t.inTie[i] {
				tp := float64(t.tied[i]) / 2
				row.TiedPoints = &tp
			}
			row.Matches = slices.Delete(matches[i], r, r+1)
			rows[r] = row
		}
		lo = hi
	}
	return rows
}

// playersOf lists the players of games in order of first appearance.
func playersOf(games []Game) []string {
	seen := map[string]bool{}
	var out []string
	for _, g := range games {
		for _, p := range []string{g.Attackers, g.Defenders} {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// Withdrawal is what Decision T3 makes of a player's withdrawal at the
// moment it happens.
type Withdrawal struct {
	Player string
	// Finished and Games count the player's games with a result, and all
	// of them.
	Finished, Games int
	// Annulled: fewer than half finished, so all the player's games are
	// annulled. Otherwise their unfinished games are lost.
	Annulled bool
	// Unfinished are the indexes (into the games passed to Withdraw) of
	// the player's games still running, which the referee must stop: as
	// annulled (no result) or as lost by the player (the opponent wins).
	Unfinished []int
}

// Withdraw applies Decision T3 to player withdrawing from a section with
// these games; the player must then be listed in Section.Withdrawn.
// Recording the forfeits as the opponents' wins, or leaving the games
// unfinished, gives the same standings. Errors: ErrUnknownPlayer when the
// player has no game.
func Withdraw(games []Game, player string) (Withdrawal, error) {
	w := Withdrawal{Player: player}
	for k, g := range games {
		if g.Attackers != player && g.Defenders != player {
			continue
		}
		w.Games++
		if g.Result != engine.Ongoing {
			w.Finished++
		} else {
			w.Unfinished = append(w.Unfinished, k)
		}
	}
	if w.Games == 0 {
		return w, fmt.Errorf("%w: %q has no game in the section", ErrUnknownPlayer, player)
	}
	w.Annulled = 2*w.Finished < w.Games
	return w, nil
}
