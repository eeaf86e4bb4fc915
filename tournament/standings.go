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
	n := len(names)
	idx := make(map[string]int, n)
	for i, p := range names {
		idx[p] = i
	}
	games := make([]scored, len(s.Games))
	total := make([]int, n)
	finished := make([]int, n)
	for k, g := range s.Games {
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
		games[k] = scored{a: a, d: d}
		total[a]++
		total[d]++
		if g.Result != engine.Ongoing {
			finished[a]++
			finished[d]++
		}
	}
	withdrawn := make([]bool, n)
	annulled := make([]bool, n)
	for _, p := range s.Withdrawn {
		i, ok := idx[p]
		if !ok {
			return nil, fmt.Errorf("%w: withdrawn player %q", ErrUnknownPlayer, p)
		}
		withdrawn[i] = true
		annulled[i] = 2*finished[i] < total[i]
	}

	st := &Standings{Event: s.Event, Section: s.Number, Annulled: []string{}}
	rows := make([]Standing, n)
	pts := make([]int, n) // half points
	for k, g := range s.Games {
		sg := &games[k]
		if annulled[sg.a] || annulled[sg.d] {
			continue
		}
		sg.scheduled = true
		rows[sg.a].Games++
		rows[sg.d].Games++
		st.Games++
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
			wa, wd := withdrawn[sg.a], withdrawn[sg.d]
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
		st.Finished++
		for _, side := range [2][2]int{{sg.a, sg.sa}, {sg.d, sg.sd}} {
			i, sc := side[0], side[1]
			pts[i] += sc
			rows[i].Played++
			switch sc {
			case 2:
				rows[i].Wins++
			case 1:
				rows[i].Draws++
			default:
				rows[i].Losses++
			}
		}
	}
	sb := make([]int, n) // quarter points
	for _, g := range games {
		if g.counted {
			sb[g.a] += g.sa * pts[g.d]
			sb[g.d] += g.sd * pts[g.a]
		}
	}

	// Order by points, S–B, wins; then among each level group by the
	// points of the games inside the group.
	order := make([]int, 0, n)
	for i := range n {
		if annulled[i] {
			st.Annulled = append(st.Annulled, names[i])
		} else {
			order = append(order, i)
		}
	}
	primary := func(i, j int) int {
		return cmp.Or(cmp.Compare(pts[j], pts[i]), cmp.Compare(sb[j], sb[i]), cmp.Compare(rows[j].Wins, rows[i].Wins))
	}
	slices.SortStableFunc(order, primary)
	tied := make([]int, n) // half points among the level group
	inTie := make([]bool, n)
	for lo := 0; lo < len(order); {
		hi := lo + 1
		for hi < len(order) && primary(order[lo], order[hi]) == 0 {
			hi++
		}
		if hi-lo > 1 {
			group := order[lo:hi]
			member := make(map[int]bool, len(group))
			for _, i := range group {
				member[i] = true
				inTie[i] = true
			}
			for _, g := range games {
				if g.counted && member[g.a] && member[g.d] {
					tied[g.a] += g.sa
					tied[g.d] += g.sd
				}
			}
			slices.SortStableFunc(group, func(i, j int) int { return cmp.Compare(tied[j], tied[i]) })
		}
		lo = hi
	}
	level := func(i, j int) bool { return primary(i, j) == 0 && tied[i] == tied[j] }

	rank := make([]int, n) // player index → position in order
	for r, i := range order {
		rank[i] = r
	}
	// matches[i][r]: player i against the player ranked r.
	matches := make([][]Match, n)
	for _, i := range order {
		matches[i] = make([]Match, len(order))
		for r, j := range order {
			matches[i][r].Opponent = names[j]
		}
	}
	for _, g := range games {
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

	st.Rows = make([]Standing, len(order))
	for lo := 0; lo < len(order); {
		hi := lo + 1
		for hi < len(order) && level(order[lo], order[hi]) {
			hi++
		}
		for r := lo; r < hi; r++ {
			i := order[r]
			row := rows[i]
			row.Place, row.LastPlace, row.Shared = lo+1, hi, hi-lo > 1
			row.Player = names[i]
			row.Points = float64(pts[i]) / 2
			row.SonnebornBerger = float64(sb[i]) / 4
			row.Withdrawn = withdrawn[i]
			if inTie[i] {
				t := float64(tied[i]) / 2
				row.TiedPoints = &t
			}
			row.Matches = slices.Delete(matches[i], r, r+1)
			st.Rows[r] = row
		}
		lo = hi
	}
	return st, nil
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
