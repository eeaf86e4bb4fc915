package tournament

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// ErrRecord: a game record lacks what standings or ratings need (a
// player tag, a usable Date). Errors wrapping it name the file, line and
// game number.
var ErrRecord = errors.New("tournament: unusable record")

// tag returns the value of the record's tag name, or "".
func tag(g *notation.Game, name string) string {
	for _, t := range g.Tags {
		if t.Name == name {
			return strings.TrimSpace(t.Value)
		}
	}
	return ""
}

// recordError says which record is unusable and why.
func recordError(g *notation.Game, format string, args ...any) error {
	return recordErrorAt(g, g.Line, g.Col, format, args...)
}

// recordErrorAt is recordError placed at line and column, e.g. a tag's.
func recordErrorAt(g *notation.Game, line, col int, format string, args ...any) error {
	return fmt.Errorf("%w: %s:%d:%d: game %d: %s", ErrRecord, g.Filename, line, col, g.Number, fmt.Sprintf(format, args...))
}

// resultOf turns a record's result into an engine.Result; "*" (the game
// goes on) is engine.Ongoing. notation.Game.Result prints as the native
// result token.
func resultOf(g *notation.Game) engine.Result {
	switch g.Result.String() {
	case "attackers":
		return engine.AttackersWin
	case "defenders":
		return engine.DefendersWin
	case "draw":
		return engine.Draw
	}
	return engine.Ongoing
}

// players returns a record's Attackers and Defenders tags, or an error
// when one is missing or both name the same player.
func players(g *notation.Game) (att, def string, err error) {
	att, def = tag(g, "Attackers"), tag(g, "Defenders")
	switch {
	case att == "":
		return "", "", recordError(g, "no Attackers tag")
	case def == "":
		return "", "", recordError(g, "no Defenders tag")
	case att == def:
		return "", "", recordError(g, "%q plays both sides", att)
	}
	return att, def, nil
}

// SectionsFromRecords builds the sections of the events that a set of
// game records belong to (CORRESPONDENCE.md §6.5): games are grouped by
// their Event tag (records without one form the event ""), players and
// results come from the Attackers, Defenders and Result tags (a record
// whose game goes on, "*", is a game not yet played). The games of one
// event that fall into groups with no game between them (a round robin in
// groups) become one section each, numbered 1, 2, … in the order of their
// first record; an event with one such group has Number 0. Events come
// in the order of their first record, games in record order; Round,
// Board and MatchGame come from the Round tag ("2.1" or "2.1.2", as the
// referee writes it; 0 without one). A section's players are in the
// order of their Berger numbers when its Round tags are its Berger table
// (bergerOrder), as the referee lists them, so that players who share a
// place stand in the same order as in its mails; otherwise in the order
// in which the records first name them (attackers first).
//
// A record without both player tags, or with one player on both sides, is
// left out and reported in the returned errors (each wrapping ErrRecord).
func SectionsFromRecords(games []*notation.Game) ([]Section, []error) {
	var errs []error
	type event struct {
		name  string
		games []Game
	}
	var events []*event
	byName := map[string]*event{}
	for _, g := range games {
		att, def, err := players(g)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		name := tag(g, "Event")
		e := byName[name]
		if e == nil {
			e = &event{name: name}
			byName[name] = e
			events = append(events, e)
		}
		r, b, m := roundOf(g)
		e.games = append(e.games, Game{Round: r, Board: b, MatchGame: m, Attackers: att, Defenders: def, Result: resultOf(g)})
	}
	var out []Section
	for _, e := range events {
		parts := components(e.games)
		for i, p := range parts {
			s := Section{Event: e.name, Games: p}
			if len(parts) > 1 {
				s.Number = i + 1
			}
			s.Players = bergerOrder(p)
			if s.Players == nil {
				s.Players = playersOf(p)
			}
			for k := range s.Games {
				s.Games[k].Section = max(s.Number, 1)
			}
			out = append(out, s)
		}
	}
	return out, errs
}

// roundOf reads a record's Round tag as the referee writes it:
// round.board, or round.board.game in a match of two games (game 1 for
// the first form). Zeros when the tag is missing or reads otherwise.
func roundOf(g *notation.Game) (round, board, matchGame int) {
	parts := strings.Split(tag(g, "Round"), ".")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, 0, 0
	}
	nums := []int{0, 0, 1}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 {
			return 0, 0, 0
		}
		nums[i] = n
	}
	return nums[0], nums[1], nums[2]
}

// bergerOrder returns the players of games, one round robin, in the
// order of their Berger numbers, read back from the games' rounds and
// boards: the attackers of a pairing's first game hold the table's White
// number (Berger, roundRobin). It returns nil when the games are not
// exactly such a table — a game without a round, a pairing missing or
// twice, a player given two numbers — and the caller keeps the order of
// first appearance.
func bergerOrder(games []Game) []string {
	type place struct{ round, board int }
	first := map[place]Game{}
	for _, g := range games {
		if g.Round == 0 {
			return nil
		}
		if g.MatchGame != 1 {
			continue
		}
		k := place{g.Round, g.Board}
		if _, ok := first[k]; ok {
			return nil
		}
		first[k] = g
	}
	n := len(playersOf(games))
	pairings := Berger(n)
	if len(pairings) != len(first) {
		return nil
	}
	order := make([]string, n)
	number := map[string]int{}
	give := func(p string, k int) bool {
		if was, ok := number[p]; ok {
			return was == k
		}
		if order[k-1] != "" {
			return false
		}
		number[p], order[k-1] = k, p
		return true
	}
	for _, p := range pairings {
		g, ok := first[place{p.Round, p.Board}]
		if !ok || !give(g.Attackers, p.White) || !give(g.Defenders, p.Black) {
			return nil
		}
	}
	if len(number) != n {
		return nil
	}
	return order
}

// components splits games into groups of players connected by games, in
// the order of each group's first game.
func components(games []Game) [][]Game {
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		p, ok := parent[x]
		if !ok || p == x {
			parent[x] = x
			return x
		}
		r := find(p)
		parent[x] = r
		return r
	}
	for _, g := range games {
		a, d := find(g.Attackers), find(g.Defenders)
		if a != d {
			parent[d] = a
		}
	}
	index := map[string]int{}
	var out [][]Game
	for _, g := range games {
		r := find(g.Attackers)
		i, ok := index[r]
		if !ok {
			i = len(out)
			index[r] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], g)
	}
	return out
}

// GameEnd returns when a record's game ended, for the order of rating
// (Decision R1): the instant of its End tag (notation.TagEnd, which the
// referee writes when the last ply's %ts does not tell the end), else the
// arrival time of its last ply (the ply's %ts comment, CORRESPONDENCE.md
// §5), or, for a record without time stamps, 00:00 UTC of its Date tag.
// Errors (wrapping ErrRecord): an End tag that is no instant, no Date
// tag, or a Date with unknown digits ("2026.??.??") or not a calendar
// date.
func GameEnd(g *notation.Game) (time.Time, error) {
	if e := tag(g, notation.TagEnd); e != "" {
		t, err := notation.ParseInstant(e)
		if err != nil {
			line, col, ok := g.TagPos(notation.TagEnd)
			if !ok {
				line, col = g.Line, g.Col
			}
			return time.Time{}, recordErrorAt(g, line, col, "End %q is not an instant such as 2026-12-07T05:58:00Z: cannot tell when the game ended", e)
		}
		return t.UTC(), nil
	}
	if t, ok := lastPlyStamp(g); ok {
		return t, nil
	}
	d := tag(g, "Date")
	if d == "" {
		return time.Time{}, recordError(g, "no Date tag and no time stamps: cannot tell when the game ended")
	}
	t, err := time.ParseInLocation("2006.01.02", d, time.UTC)
	if err != nil {
		line, col, ok := g.TagPos("Date")
		if !ok {
			line, col = g.Line, g.Col
		}
		return time.Time{}, recordErrorAt(g, line, col, "Date %q is not a full date (YYYY.MM.DD, no \"?\"): cannot tell when the game ended", d)
	}
	return t, nil
}

// lastPlyStamp returns the arrival time of the record's last ply from its
// [%ts …] comment command (CORRESPONDENCE.md §5; read by package notation
// into notation.Ply.Time), and whether it has one. A final resignation or
// time-out without a %ts of its own ends the game at the last ply that has
// one; the %ts of a final time-out is when the time-out was declared.
func lastPlyStamp(g *notation.Game) (time.Time, bool) {
	for i := len(g.Plies) - 1; i >= 0; i-- {
		if t := g.Plies[i].Time.Arrival; !t.IsZero() {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// RatedGamesFromRecords returns the finished games of a set of records
// as RatedGame values, in record order (the order RateAll keeps for games
// that ended at the same moment): the variant is the record's variant
// name (notation.Game.VariantName), the end time GameEnd's. Games that go
// on ("*") and games whose record says they are not rated (`[Rated "no"]`,
// notation.TagRated: a casual game not agreed as rated, a game of an
// unrated event) are left out without complaint; finished games that cannot be
// rated (no player tags, no usable Date, rules without a name:
// notation.UnnamedRules) are left out and reported in the returned errors
// (each wrapping ErrRecord).
func RatedGamesFromRecords(games []*notation.Game) ([]RatedGame, []error) {
	var errs []error
	out := make([]RatedGame, 0, len(games))
	for _, g := range games {
		res := resultOf(g)
		if res == engine.Ongoing || strings.EqualFold(tag(g, notation.TagRated), "no") {
			continue
		}
		att, def, err := players(g)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		end, err := GameEnd(g)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if g.VariantName == notation.UnnamedRules {
			// Every unnamed rules string would share one pool (trial
			// report §10): such a game is not rated.
			line, col, ok := g.TagPos("Rules")
			if !ok {
				line, col = g.Line, g.Col
			}
			errs = append(errs, recordErrorAt(g, line, col, "the rules have no name, and ratings are kept per variant: "+
				"give the record a Variant tag (OpenTafl: a variant tag, or name: in the rules string) to rate it"))
			continue
		}
		out = append(out, RatedGame{Variant: g.VariantName, Attackers: att, Defenders: def, Result: res, End: end})
	}
	return out, errs
}
