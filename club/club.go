package club

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/tournament"
)

// Club is a read-only snapshot of everything public about a club: its
// events, its games, its players and its rating lists, as the web pages
// show them. It is made by [Load] from the archive or by [FromRecords]
// from record files, and not changed after. Nothing in it is a mail
// address or a key: players appear under their public names and page
// ids (names.go), private games are not in it at all (a casual game
// either player made private, server/internal/correspondence/cmd_private.go), nor are
// challenges not yet accepted or declined.
type Club struct {
	// Now is the instant the snapshot was taken at: ratings have their
	// RD grown to it, running clocks are shown at it.
	Now time.Time
	// Modified is the latest change among what the snapshot holds (a
	// game's last change, an event's start or end, an entry, a rating);
	// zero when it holds nothing. The pages' Last-Modified.
	Modified time.Time
	// JoinAddress is the referee's own address, to which players mail
	// "join <event>" (config server.address); "" when unknown (a site
	// from record files).
	JoinAddress string
	// FromRecords reports a snapshot of record files: no entries, no
	// open events, ratings computed from the records.
	FromRecords bool

	// Events are the tournaments: running first (by start, newest
	// first), then those taking entries (by start, soonest first), then
	// finished ones (by end, newest first). Cancelled events are left
	// out.
	Events []*Event
	// Games are every public game, running or finished, most recently
	// changed first.
	Games []*Game
	// Players are every player who appears anywhere, by public name.
	Players []*Player
	// Ratings are the rating lists, one per variant with ratings, by
	// variant title.
	Ratings []*RatingList

	events  map[string]*Event
	games   map[string]*Game
	players map[string]*Player // by ID
	byAddr  map[string]*Player // by lower-case address; never leaves the package
	names   *Names
	// record returns a game's record with its public tags.
	record func(ctx context.Context, g *Game) (*notation.Replay, error)
}

// Event is a tournament as its page shows it (CORRESPONDENCE.md §6).
type Event struct {
	// ID is the director's id ("winter-2027"), or for records a slug of
	// the Event tag.
	ID   string
	Name string
	// Variant is the engine's name of the rules, VariantTitle its title
	// ("Copenhagen Hnefatafl 11×11").
	Variant, VariantTitle string
	// TimeControl as CORRESPONDENCE.md §1 writes it ("30d+1d"); "" when
	// unknown (records).
	TimeControl string
	// Status is StatusUpcoming, StatusRunning or StatusFinished.
	Status string
	// Groups is the number of round robins (1 for one); GamesPerPairing
	// 2 for matches of two games (Decision T1), 1 otherwise, 0 unknown.
	Groups, GamesPerPairing int
	Rated                   bool
	LeaveDays               int
	// OpenEntry: players join by mail ("join <ID>" to JoinAddress) until
	// EntryCloses (the last day, 00:00 UTC).
	OpenEntry   bool
	EntryCloses time.Time
	// StartDate is the day the games start (00:00 UTC); Started and
	// Finished when it did (zero until then, and for records).
	StartDate, Started, Finished time.Time
	// Players are the players entered (before the start) or paired, in
	// entry order; Withdrawn those of them who left (Decision T3).
	Players   []*Player
	Withdrawn []*Player
	// Standings are the crosstables, one per group, with public names
	// for players (the numbers of EventStandings, or RecordSections for
	// records); none before the start.
	Standings []*tournament.Standings
	// Rounds are the games by group and round, in schedule order.
	Rounds []*Round
	// Games are every game of the event in schedule order; FinishedGames
	// how many of them have a result.
	Games         []*Game
	FinishedGames int
	// Updated is the event's latest change.
	Updated time.Time
}

// The statuses of an Event.
const (
	StatusUpcoming = "upcoming" // created, taking entries or waiting for its start
	StatusRunning  = "running"
	StatusFinished = "finished"
)

// Round is one round of one group of an event.
type Round struct {
	Section, Number int
	Games           []*Game
}

// Game is one public game.
type Game struct {
	// ID is the referee's game id ("K7QX2M"), or for records a stable id
	// made from the record's tags.
	ID                    string
	Variant, VariantTitle string
	Attackers, Defenders  *Player
	// Status is "active" or "finished".
	Status string
	// Result is "attackers", "defenders", "draw", or "" while it runs;
	// Reason how it ended ("king captured", "resignation", "timeout", …).
	Result, Reason string
	// Annulled: a tournament game of a player who withdrew with fewer
	// than half of their games finished (Decision T3); it counts for
	// nothing.
	Annulled    bool
	TimeControl string
	Rated       bool
	// Event is the tournament the game belongs to, nil for a casual
	// game; Section, Round, Board and MatchGame its place in the
	// schedule (0 when unknown), RoundTag the record's Round tag.
	Event                            *Event
	Section, Round, Board, MatchGame int
	RoundTag                         string
	// Plies is the number of plies played.
	Plies int
	// Started and Ended are when the game started and ended (zero when
	// unknown or while it runs); Updated its last change.
	Started, Ended, Updated time.Time
	// Clocks are both clocks at the snapshot's Now for a timed game that
	// runs; nil otherwise.
	Clocks *Clocks
}

// Finished reports that the game has a result.
func (g *Game) Finished() bool { return g.Status == "finished" && g.Result != "" }

// Player is one player as the pages show them: never their address.
type Player struct {
	// ID is the page id (PlayerID), Name the public name.
	ID, Name string
	// Engine: the referee's engine opponent.
	Engine bool
	// Ratings are the player's ratings, one per variant, by variant title.
	Ratings []*Rating
	// Games are the player's public games, most recently changed first;
	// Events the events they entered.
	Games  []*Game
	Events []*Event
}

// Rating is a player's rating in one variant at the snapshot's Now
// (Decision R1: the RD grown for the idle time, RatingAt).
type Rating struct {
	Player                *Player
	Variant, VariantTitle string
	// Place is the player's place in the variant's list (1-based).
	Place             int
	R, RD, Volatility float64
	Games             int
	Last              time.Time
	// History is every rated game, oldest first.
	History []RatingPoint
}

// RatingPoint is the rating after one rated game.
type RatingPoint struct {
	End time.Time
	// R and RD after the game.
	R, RD float64
	// Score is the player's: 1, 0.5 or 0.
	Score float64
	// Game is the game, nil when it is not public (a private casual game
	// counts for the ratings but is not shown); Opponent nil then too.
	Game     *Game
	Opponent *Player
}

// RatingList is one variant's ratings, highest first.
type RatingList struct {
	Variant, VariantTitle string
	Ratings               []*Rating
}

// Event returns the event with this id, nil when there is none.
func (c *Club) Event(id string) *Event { return c.events[id] }

// Game returns the game with this id, nil when there is no public one.
func (c *Club) Game(id string) *Game { return c.games[id] }

// Player returns the player with this page id, nil when there is none.
func (c *Club) Player(id string) *Player { return c.players[id] }

// Record returns the game's record replayed through the engine, its
// player tags holding public names (and, for records, every address in a
// tag or comment replaced by its public name): what the game page draws
// and offers to download.
func (c *Club) Record(ctx context.Context, g *Game) (*notation.Replay, error) {
	return c.record(ctx, g)
}

// RecentResults returns the n games that ended last, newest first.
func (c *Club) RecentResults(n int) []*Game {
	var out []*Game
	for _, g := range c.Games {
		if g.Finished() {
			out = append(out, g)
		}
	}
	slices.SortStableFunc(out, func(a, b *Game) int { return b.endOrUpdate().Compare(a.endOrUpdate()) })
	return out[:min(n, len(out))]
}

func (g *Game) endOrUpdate() time.Time {
	if !g.Ended.IsZero() {
		return g.Ended
	}
	return g.Updated
}

// newClub returns an empty snapshot.
func newClub(now time.Time, names *Names) *Club {
	return &Club{Now: now, names: names, events: map[string]*Event{}, games: map[string]*Game{},
		players: map[string]*Player{}, byAddr: map[string]*Player{}}
}

// player returns the player of address, made on first sight.
func (c *Club) player(address string) *Player {
	a := strings.ToLower(strings.TrimSpace(address))
	if p := c.byAddr[a]; p != nil {
		return p
	}
	p := &Player{ID: c.names.ID(a), Name: c.names.Name(a), Engine: a == EngineAddress}
	c.byAddr[a] = p
	c.players[p.ID] = p
	return p
}

// touch moves Modified on to t.
func (c *Club) touch(t time.Time) {
	if t.After(c.Modified) {
		c.Modified = t
	}
}

// publicStandings returns a copy of sts with every player named by the
// public name of their address.
func (c *Club) publicStandings(sts []*tournament.Standings) []*tournament.Standings {
	out := make([]*tournament.Standings, len(sts))
	for i, st := range sts {
		cp := *st
		cp.Rows = make([]tournament.Standing, len(st.Rows))
		for j, r := range st.Rows {
			r.Player = c.player(r.Player).Name
			ms := make([]tournament.Match, len(r.Matches))
			for k, m := range r.Matches {
				m.Opponent = c.player(m.Opponent).Name
				ms[k] = m
			}
			r.Matches = ms
			cp.Rows[j] = r
		}
		cp.Annulled = make([]string, len(st.Annulled))
		for j, a := range st.Annulled {
			cp.Annulled[j] = c.player(a).Name
		}
		out[i] = &cp
	}
	return out
}

// finish sorts what the loaders filled and links players to their
// games, events and ratings.
func (c *Club) finish() {
	slices.SortStableFunc(c.Games, func(a, b *Game) int {
		return cmp.Or(b.Updated.Compare(a.Updated), cmp.Compare(a.ID, b.ID))
	})
	for _, g := range c.Games {
		c.games[g.ID] = g
		g.Attackers.Games = append(g.Attackers.Games, g)
		if g.Defenders != g.Attackers {
			g.Defenders.Games = append(g.Defenders.Games, g)
		}
	}
	rank := map[string]int{StatusRunning: 0, StatusUpcoming: 1, StatusFinished: 2}
	slices.SortStableFunc(c.Events, func(a, b *Event) int {
		if r := cmp.Compare(rank[a.Status], rank[b.Status]); r != 0 {
			return r
		}
		switch a.Status {
		case StatusRunning:
			return cmp.Or(b.StartDate.Compare(a.StartDate), cmp.Compare(a.ID, b.ID))
		case StatusUpcoming:
			return cmp.Or(a.StartDate.Compare(b.StartDate), cmp.Compare(a.ID, b.ID))
		}
		return cmp.Or(b.Finished.Compare(a.Finished), b.Updated.Compare(a.Updated), cmp.Compare(a.ID, b.ID))
	})
	for _, e := range c.Events {
		c.events[e.ID] = e
		for _, p := range e.Players {
			p.Events = append(p.Events, e)
		}
		e.Rounds = nil
		for _, g := range e.Games {
			if g.Finished() {
				e.FinishedGames++
			}
			if n := len(e.Rounds); n == 0 || e.Rounds[n-1].Section != g.Section || e.Rounds[n-1].Number != g.Round {
				e.Rounds = append(e.Rounds, &Round{Section: g.Section, Number: g.Round})
			}
			r := e.Rounds[len(e.Rounds)-1]
			r.Games = append(r.Games, g)
		}
	}
	slices.SortStableFunc(c.Ratings, func(a, b *RatingList) int { return cmp.Compare(a.VariantTitle, b.VariantTitle) })
	for _, l := range c.Ratings {
		for i, r := range l.Ratings {
			r.Place = i + 1
			r.Player.Ratings = append(r.Player.Ratings, r)
		}
	}
	for _, p := range c.players {
		c.Players = append(c.Players, p)
		slices.SortStableFunc(p.Ratings, func(a, b *Rating) int { return cmp.Compare(a.VariantTitle, b.VariantTitle) })
	}
	slices.SortFunc(c.Players, func(a, b *Player) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.ID, b.ID))
	})
}

// sortRatings orders a rating list: highest rating first, then by
// public name.
func sortRatings(rs []*Rating) {
	slices.SortStableFunc(rs, func(a, b *Rating) int {
		return cmp.Or(cmp.Compare(b.R, a.R), cmp.Compare(strings.ToLower(a.Player.Name), strings.ToLower(b.Player.Name)))
	})
}

// Standings is a crosstable as package tournament computes it, players
// under their public names (Event.Standings).
type Standings = tournament.Standings

// CrossRow is one row of a crosstable as a page draws it: the player's
// standing and one cell per player of the table, in the order of its
// rows.
type CrossRow struct {
	tournament.Standing
	Cells []CrossCell
}

// CrossCell is the row player's score against the column's player over
// Played of Games games; Self on the diagonal.
type CrossCell struct {
	Self          bool
	Score         float64
	Played, Games int
}

// Crosstable returns the rows of a crosstable with their cells
// (tournament.Standing.Matches hold every other row's player, in row
// order, the player's own place left out).
func Crosstable(st *Standings) []CrossRow {
	rows := make([]CrossRow, len(st.Rows))
	for i, r := range st.Rows {
		rows[i].Standing = r
		for j := range st.Rows {
			switch {
			case j == i:
				rows[i].Cells = append(rows[i].Cells, CrossCell{Self: true})
			default:
				k := j
				if j > i {
					k--
				}
				if k < len(r.Matches) {
					m := r.Matches[k]
					rows[i].Cells = append(rows[i].Cells, CrossCell{Score: m.Score, Played: m.Played, Games: m.Games})
				}
			}
		}
	}
	return rows
}
