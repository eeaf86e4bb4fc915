package club

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/tournament"
)

// addressPattern finds mail addresses in the text of a record (tags and
// comments), to be replaced by their public names.
var addressPattern = regexp.MustCompile(`[A-Za-z0-9.!#$%&'*+/=?^_{|}~-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*`)

// casualEvent is the start of the Event tag the referee writes for a
// casual game (archive.Game.Replay): such records belong to no event.
const casualEvent = "taflmail correspondence game "

// FromRecords makes a snapshot of the games of a set of records, as
// `taflmail standings` and `taflmail ratings` read them: every record
// is a public game; records with the same Event tag form an event (its
// crosstables those of RecordSections, withdrawn naming the players who
// withdrew, Decision T3), except records without an Event tag and the
// referee's casual games ("taflmail correspondence game …"); the rating
// lists are RateRecords'. Players are named by public names: a player
// tag that holds a mail address becomes the address's pseudonym under
// key (no record names a chosen name), any other tag is taken as the
// player's name; every address in any tag or comment of a record is
// replaced by its public name. The snapshot is taken at now.
//
// Records that cannot be used (no player tags) are left out and returned
// in problems, with those the ratings could not rate; a withdrawn player
// who plays in no event is a *NotAPlayerError.
func FromRecords(records []*notation.Game, key []byte, withdrawn []string, now time.Time) (*Club, []error, error) {
	secs, problems, err := RecordSections(records, withdrawn)
	if err != nil {
		return nil, problems, err
	}
	rated, rproblems := RateRecords(records)
	problems = append(problems, rproblems...)

	chosen, addrs := recordNames(records)
	c := newClub(now, NewNames(key, chosen, addrs))
	c.FromRecords = true

	rg := c.recordGames(records, key)
	slugs := map[string]int{}
	for _, name := range rg.eventOrder {
		e, err := c.recordEvent(name, slug(name, slugs), secs, rg.byEvent[name])
		if err != nil {
			problems = append(problems, err)
		}
		c.Events = append(c.Events, e)
	}
	c.recordRatings(rated, rg.recordOf, now)
	c.record = func(_ context.Context, g *Game) (*notation.Replay, error) {
		rec := rg.recordOf[g]
		if rec == nil {
			return nil, fmt.Errorf("club: game %s is not in the snapshot", g.ID)
		}
		return c.publicRecord(rec).Replay(), nil
	}
	c.finish()
	return c, problems, nil
}

// recordNames gathers what NewNames needs from records: chosen maps each
// player tag that holds no mail address (blanks trimmed) to that name
// with its inner runs of blanks made one space, and addrs lists every
// mail address in any tag, in record and tag order (repeats kept).
func recordNames(records []*notation.Game) (chosen map[string]string, addrs []string) {
	chosen = map[string]string{}
	for _, g := range records {
		for _, t := range g.Tags {
			addrs = append(addrs, addressPattern.FindAllString(t.Value, -1)...)
			if (t.Name == "Attackers" || t.Name == "Defenders") && !strings.Contains(t.Value, "@") && strings.TrimSpace(t.Value) != "" {
				chosen[strings.TrimSpace(t.Value)] = strings.Join(strings.Fields(t.Value), " ")
			}
		}
	}
	return chosen, addrs
}

// recGame is a game of a snapshot with the record it was made from.
type recGame struct {
	g   *Game
	rec *notation.Game
}

// recordedGames is what recordGames returns: the record of every game,
// and the games of each event by Event tag, events in order of their
// first record.
type recordedGames struct {
	recordOf   map[*Game]*notation.Game
	byEvent    map[string][]recGame
	eventOrder []string
}

// recordGames makes the Game of every usable record (two different
// player tags; the others RecordSections reports) and appends it to
// c.Games in record order, ids under key as recordGame makes them. Games
// of no event (no Event tag, or a casual game) are in no byEvent list.
func (c *Club) recordGames(records []*notation.Game, key []byte) recordedGames {
	rg := recordedGames{recordOf: map[*Game]*notation.Game{}, byEvent: map[string][]recGame{}}
	seenID := map[string]int{}
	for _, rec := range records {
		att, def := tagValue(rec, "Attackers"), tagValue(rec, "Defenders")
		if att == "" || def == "" || att == def {
			continue // reported by RecordSections
		}
		g := c.recordGame(rec, att, def, key, seenID)
		rg.recordOf[g] = rec
		c.Games = append(c.Games, g)
		ev := tagValue(rec, "Event")
		if ev == "" || strings.HasPrefix(ev, casualEvent) {
			continue
		}
		if _, ok := rg.byEvent[ev]; !ok {
			rg.eventOrder = append(rg.eventOrder, ev)
		}
		rg.byEvent[ev] = append(rg.byEvent[ev], recGame{g, rec})
	}
	return rg
}

// recordEvent makes the event called name, with id id, from the sections
// of secs that belong to it and its games: its standings, players (by
// section, in section order), withdrawn players, and the games, which
// it links to the event and sorts by section, round, board and match
// game. The event always comes back; err is the error of
// SectionStandings, in which case it has no standings.
func (c *Club) recordEvent(name, id string, secs []tournament.Section, games []recGame) (*Event, error) {
	e := &Event{ID: id, Name: name, Status: StatusFinished}
	var evSecs []tournament.Section
	for _, s := range secs {
		if s.Event == name {
			evSecs = append(evSecs, s)
		}
	}
	sts, err := SectionStandings(e.ID, evSecs)
	if err == nil {
		e.Standings = c.publicStandings(sts)
	}
	e.Groups = max(len(evSecs), 1)
	section := c.eventPlayers(e, evSecs)
	annulled := annulledPlayers(e)
	for _, rg := range games {
		c.eventGame(e, rg, section, annulled)
	}
	if e.Status == StatusRunning {
		e.Finished = time.Time{}
	}
	e.StartDate = e.Started
	slices.SortStableFunc(e.Games, func(a, b *Game) int {
		return cmpInts(a.Section, b.Section, a.Round, b.Round, a.Board, b.Board, a.MatchGame, b.MatchGame)
	})
	return e, err
}

// eventPlayers appends the players and the withdrawn players of the
// sections evSecs to e, and returns the section number (1 for an event
// of one unnumbered section) of each player, by the name the records
// give.
func (c *Club) eventPlayers(e *Event, evSecs []tournament.Section) map[string]int {
	section := map[string]int{}
	for _, s := range evSecs {
		for _, p := range s.Players {
			section[p] = max(s.Number, 1)
			e.Players = append(e.Players, c.player(p))
		}
		for _, w := range s.Withdrawn {
			e.Withdrawn = append(e.Withdrawn, c.player(w))
		}
	}
	return section
}

// annulledPlayers returns the withdrawn players of e whose games the
// standings of e annul.
func annulledPlayers(e *Event) map[*Player]bool {
	annulled := map[*Player]bool{}
	for _, st := range e.Standings {
		for _, a := range st.Annulled {
			for _, p := range e.Withdrawn {
				if p.Name == a {
					annulled[p] = true
				}
			}
		}
	}
	return annulled
}

// eventGame adds the game of rg to event e: it sets the game's event,
// section (by its attacker, from section) and whether it is annulled (a
// player of it in annulled), and widens the event's variant, status and
// times with the game's.
func (c *Club) eventGame(e *Event, rg recGame, section map[string]int, annulled map[*Player]bool) {
	g := rg.g
	g.Event = e
	g.Section = section[tagValue(rg.rec, "Attackers")]
	g.Annulled = annulled[g.Attackers] || annulled[g.Defenders]
	if e.Variant == "" {
		e.Variant, e.VariantTitle, e.TimeControl = g.Variant, g.VariantTitle, g.TimeControl
	}
	if !g.Finished() && !g.Annulled {
		e.Status = StatusRunning
	}
	if e.Started.IsZero() || !g.Started.IsZero() && g.Started.Before(e.Started) {
		e.Started = g.Started
	}
	if g.Ended.After(e.Finished) {
		e.Finished = g.Ended
	}
	if g.Updated.After(e.Updated) {
		e.Updated = g.Updated
	}
	e.Games = append(e.Games, g)
}

// recordRatings makes c's rating lists from rated, one per variant in
// the order rated.All gives them first, each sorted; every point of a
// player's history links to its game, found among the finished games of
// recordOf by players and end time. Ratings are as of now.
func (c *Club) recordRatings(rated *tournament.Ratings, recordOf map[*Game]*notation.Game, now time.Time) {
	type end struct {
		a, d string
		t    time.Time
	}
	gameAt := map[end]*Game{}
	for g, rec := range recordOf {
		if t, err := tournament.GameEnd(rec); err == nil && g.Finished() {
			gameAt[end{strings.ToLower(tagValue(rec, "Attackers")), strings.ToLower(tagValue(rec, "Defenders")), t}] = g
		}
	}
	lists := map[string]*RatingList{}
	for _, pr := range rated.All() {
		l := lists[pr.Variant]
		if l == nil {
			l = &RatingList{Variant: pr.Variant, VariantTitle: variantTitle(pr.Variant)}
			lists[pr.Variant] = l
			c.Ratings = append(c.Ratings, l)
		}
		cur := rated.Current(pr.Player, pr.Variant, now)
		r := &Rating{Player: c.player(pr.Player), Variant: pr.Variant, VariantTitle: l.VariantTitle,
			R: cur.R, RD: cur.RD, Volatility: cur.Volatility, Games: pr.Games, Last: pr.Last}
		for _, h := range pr.History {
			pt := RatingPoint{End: h.End, R: h.After.R, RD: h.After.RD, Score: h.Score, Opponent: c.player(h.Opponent)}
			a, d := strings.ToLower(pr.Player), strings.ToLower(h.Opponent)
			if h.Side == engine.Defenders {
				a, d = d, a
			}
			pt.Game = gameAt[end{a, d, h.End}]
			r.History = append(r.History, pt)
		}
		c.touch(pr.Last)
		l.Ratings = append(l.Ratings, r)
	}
	for _, l := range c.Ratings {
		sortRatings(l.Ratings)
	}
}

// tagValue returns a record's tag, blanks trimmed; "" when it has none.
func tagValue(g *notation.Game, name string) string {
	for _, t := range g.Tags {
		if t.Name == name {
			return strings.TrimSpace(t.Value)
		}
	}
	return ""
}

// recordGame makes the Game of a record whose players are att and def.
// Its id is ten characters of an HMAC under key of the tags that tell
// the game (Event, Round, players, Date), so that it stays the same as
// the record grows, and -2, -3, … for records that share them.
func (c *Club) recordGame(rec *notation.Game, att, def string, key []byte, seen map[string]int) *Game {
	r := rec.Replay()
	g := &Game{Variant: rec.VariantName, VariantTitle: rec.VariantName, Attackers: c.player(att), Defenders: c.player(def),
		Status: "active", Plies: rec.Moves(), RoundTag: tagValue(rec, "Round"), TimeControl: tagValue(rec, "TimeControl")}
	if rec.Variant != nil && rec.Variant.Title != "" {
		g.VariantTitle = rec.Variant.Title
	}
	if v, ok := engine.Lookup(rec.VariantName); ok {
		g.Variant, g.VariantTitle = v.Name, v.Title
	}
	sig := strings.Join([]string{tagValue(rec, "Event"), g.RoundTag, att, def, tagValue(rec, "Date")}, "\x00")
	id := mac(key, "game", sig)[:idLen]
	seen[id]++
	if n := seen[id]; n > 1 {
		id += "-" + strconv.Itoa(n)
	}
	g.ID = id
	if out := r.Outcome(); out.Over() {
		g.Status = "finished"
		switch out.Result {
		case engine.AttackersWin:
			g.Result = "attackers"
		case engine.DefendersWin:
			g.Result = "defenders"
		case engine.Draw:
			g.Result = "draw"
		}
		g.Reason = reasonWords(out.Reason, rec)
	} else if res := rec.Result.String(); res == "attackers" || res == "defenders" || res == "draw" {
		g.Status, g.Result, g.Reason = "finished", res, rec.Termination
	}
	parts := strings.Split(g.RoundTag, ".")
	nums := make([]int, 3)
	for i := 0; i < len(parts) && i < 3; i++ {
		nums[i], _ = strconv.Atoi(parts[i])
	}
	g.Round, g.Board, g.MatchGame = nums[0], nums[1], nums[2]
	if cl, err := rec.Clock(); err == nil && cl != nil {
		g.Started = cl.Start
		if cl.Control.Timed() {
			g.TimeControl = cl.Control.String()
		}
	}
	if g.Finished() {
		if t, err := tournament.GameEnd(rec); err == nil {
			g.Ended = t
		}
	}
	g.Updated = g.Ended
	if g.Updated.IsZero() {
		for i := len(rec.Plies) - 1; i >= 0 && g.Updated.IsZero(); i-- {
			g.Updated = rec.Plies[i].Time.Arrival
		}
	}
	if g.Updated.IsZero() {
		g.Updated, _ = time.ParseInLocation("2006.01.02", tagValue(rec, "Date"), time.UTC)
	}
	if g.Status == "active" && g.TimeControl != "" {
		g.Clocks = clocksAt(r, c.Now)
	}
	c.touch(g.Updated)
	return g
}

// reasonWords names how a game ended, in the words of archive.Game.Reason.
func reasonWords(r engine.Reason, rec *notation.Game) string {
	if r == engine.NoReason {
		return rec.Termination
	}
	return r.String()
}

// publicRecord returns a copy of a record in which every address in a
// tag or comment is replaced by its public name.
func (c *Club) publicRecord(rec *notation.Game) *notation.Game {
	cp := *rec
	scrub := func(s string) string {
		return addressPattern.ReplaceAllStringFunc(s, func(a string) string { return c.names.Name(a) })
	}
	cp.Tags = make([]notation.Tag, len(rec.Tags))
	for i, t := range rec.Tags {
		t.Value = scrub(t.Value)
		if t.Name == "Attackers" || t.Name == "Defenders" {
			t.Value = c.player(strings.TrimSpace(rec.Tags[i].Value)).Name
		}
		cp.Tags[i] = t
	}
	cp.Comments = scrubAll(rec.Comments, scrub)
	cp.Plies = make([]notation.Ply, len(rec.Plies))
	for i, p := range rec.Plies {
		p.Comments = scrubAll(p.Comments, scrub)
		cp.Plies[i] = p
	}
	cp.TerminationText = scrub(rec.TerminationText)
	return &cp
}

func scrubAll(ss []string, f func(string) string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = f(s)
	}
	return out
}

// slug makes an event id from its name: lower-case letters and digits,
// other runs of characters a "-", -2, -3, … for a name already taken.
func slug(name string, seen map[string]int) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.TrimSuffix(b.String(), "-")
	if s == "" {
		s = "event"
	}
	seen[s]++
	if n := seen[s]; n > 1 {
		s += "-" + strconv.Itoa(n)
	}
	return s
}

// cmpInts compares pairs of ints in turn: a0 with b0, then a1 with b1, …
func cmpInts(xs ...int) int {
	for i := 0; i+1 < len(xs); i += 2 {
		if xs[i] != xs[i+1] {
			if xs[i] < xs[i+1] {
				return -1
			}
			return 1
		}
	}
	return 0
}
