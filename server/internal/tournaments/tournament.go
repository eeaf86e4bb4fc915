package tournaments

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/tournament"
)

// The referee's side of correspondence tournaments and ratings
// (CORRESPONDENCE.md §6–§7, docs/tournaments.md). Package tournament
// computes pairings, standings and ratings; the archive stores them; this
// file ties them to the games the referee runs:
//
//   - a game that ends in a session (a move, a resignation, a draw, a
//     time-out, a withdrawal) is rated when it is rated, and a tournament
//     game's end writes its event (its version guards the last game), adds
//     the players' standing to their mails and, for the event's last game,
//     finishes the event and mails everyone the final crosstable and the
//     records (gamesEnded, collectTournament);
//   - tournament_start.go starts an event (by the director, or by the
//     scheduler on its start date), tournament_withdraw.go applies
//     Decision T3, tournament_text.go writes what players read,
//     tournament_watch.go what the event's spectators hear of its start,
//     end and cancellation;
//   - cmd_tournaments.go, cmd_join.go, cmd_withdraw.go, cmd_standings.go
//     and cmd_rating.go are the players' commands.

// tourneyState is what one session changes of tournaments and ratings.
type tourneyState struct {
	events  map[string]*event      // by tournament id, loaded once
	entries []archive.Entry        // entries to write
	pending []archive.PendingEntry // join requests to keep until confirmed
	ratings map[string]*ratingWork
	// stored caches the stored ratings read (currentRating), by player
	// and variant; Games 0 for a player without one.
	stored map[[2]string]archive.Rating
	ended  bool // gamesEnded ran
	// own are mails the referee sends of its own accord in this change
	// (a final crosstable, a start list): not replies, so not bound by
	// the caps of one mail's replies (caps.go).
	own []archive.OutboxMail
}

// tourneyOf returns the tournament module's state in ss, made on first
// use (referee.StateOf): the one way to it, for the package's files
// alone.
func tourneyOf(ss *referee.Session) *tourneyState {
	return referee.StateOf[tourneyState](ss, Module{})
}

// event is a tournament as one session sees it: the stored row, its
// entries and its games (the session's tables override the stored copies).
type event struct {
	t       *archive.Tournament
	entries []archive.Entry
	games   []*archive.Game // stored results (archive.Store.TournamentResults), in schedule order
	write   bool            // the tournament row is written (its version bumped)
}

// Errors of the tournament operations of the director (StartTournament,
// WithdrawPlayer), wrapped with the detail.
var (
	// ErrNoTournament: no tournament has the id.
	ErrNoTournament = errors.New("server: no such tournament")
	// ErrTournamentState: the tournament is not in the state the
	// operation needs (starting one that started, withdrawing from one
	// that is over).
	ErrTournamentState = errors.New("server: the tournament cannot do that now")
	// ErrTooFewPlayers: fewer than three players (or a group of fewer
	// than two) at the start.
	ErrTooFewPlayers = errors.New("server: too few players")
	// ErrNotEntered: the player is not (or no longer) in the tournament.
	ErrNotEntered = errors.New("server: not a player of the tournament")
)

// MinPlayers is the fewest players a tournament starts with,
// club.MinPlayers (a tournament file listing fewer is refused there).
const MinPlayers = club.MinPlayers

// loadEvent returns the tournament id as the session ss sees it, loading it
// once; nil and a refusal (err.tournament.unknown) when there is none.
func loadEvent(ss *referee.Session, id string) (*event, error) {
	tst := tourneyOf(ss)
	if tst.events == nil {
		tst.events = map[string]*event{}
	}
	if ev, ok := tst.events[id]; ok {
		return ev, nil
	}
	t, err := ss.Srv.TournamentPort().Tournament(ss.Ctx, id)
	if errors.Is(err, archive.ErrNotFound) {
		return nil, ss.Refuse("err.tournament.unknown", id)
	}
	if err != nil {
		return nil, err
	}
	es, err := ss.Srv.TournamentPort().Entries(ss.Ctx, id)
	if err != nil {
		return nil, err
	}
	gs, err := ss.Srv.TournamentPort().TournamentResults(ss.Ctx, id)
	if err != nil {
		return nil, err
	}
	ev := &event{t: t, entries: es, games: gs}
	tst.events[id] = ev
	return ev, nil
}

// live returns the session's copy of a game of ev: the table's game when
// the session loaded it, the stored one otherwise.
func live(ss *referee.Session, g *archive.Game) *archive.Game {
	if t, ok := ss.Tables[g.ID]; ok {
		return t.G
	}
	return g
}

// entry returns the entry of player in ev and whether there is one.
func (ev *event) entry(player string) (*archive.Entry, bool) {
	for i := range ev.entries {
		if ev.entries[i].Player == player {
			return &ev.entries[i], true
		}
	}
	return nil, false
}

// setEntry records a changed entry of ev to be written with the session.
func setEntry(ss *referee.Session, ev *event, e archive.Entry) {
	if p, ok := ev.entry(e.Player); ok {
		*p = e
	} else {
		ev.entries = append(ev.entries, e)
	}
	tst := tourneyOf(ss)
	for i, w := range tst.entries {
		if w.TournamentID == e.TournamentID && w.Player == e.Player {
			tst.entries[i] = e
			return
		}
	}
	tst.entries = append(tst.entries, e)
}

// gameResult is a stored game's result as package tournament counts it:
// Ongoing while it runs and for an annulled game.
func gameResult(g *archive.Game) engine.Result { return club.GameResult(g) }

// sections returns ev's round robins (one per group) as package
// tournament computes standings from, the session's results included.
// Before the start they have players and no games.
func sections(ss *referee.Session, ev *event) []tournament.Section {
	return eventSections(ev.t, ev.entries, ev.games, func(g *archive.Game) *archive.Game { return live(ss, g) })
}

// eventSections builds the sections of tournament t from its entries and
// games; live maps a stored game to its current copy.
func eventSections(t *archive.Tournament, entries []archive.Entry, games []*archive.Game, live func(*archive.Game) *archive.Game) []tournament.Section {
	return club.Sections(t, entries, games, live)
}

// EventStandings computes the standings of a tournament from what the
// archive holds: one per group (one for a single round robin), Decision
// T2 and T3 applied. For `taflmail tournament standings` and the mails.
func EventStandings(t *archive.Tournament, entries []archive.Entry, games []*archive.Game) ([]*tournament.Standings, error) {
	return club.EventStandings(t, entries, games)
}

// standings returns ev's standings as this session leaves them.
func standings(ss *referee.Session, ev *event) ([]*tournament.Standings, error) {
	var out []*tournament.Standings
	for _, sec := range sections(ss, ev) {
		st, err := sec.Standings()
		if err != nil {
			return nil, fmt.Errorf("server: standings of %s: %w", ev.t.ID, err)
		}
		out = append(out, st)
	}
	return out, nil
}

// complete reports whether every game of a running ev is over (finished,
// annulled included) as this session leaves them.
func complete(ss *referee.Session, ev *event) bool {
	if ev.t.Status != archive.TournamentRunning || len(ev.games) == 0 {
		return false
	}
	for _, g := range ev.games {
		if live(ss, g).Status != archive.Finished {
			return false
		}
	}
	return true
}

// endedTables returns the tables of the games this session ended, by id.
func endedTables(ss *referee.Session) []*referee.Table {
	var ts []*referee.Table
	for _, t := range ss.Tables {
		if t.Changed && !t.WasOver && t.G.Status == archive.Finished {
			ts = append(ts, t)
		}
	}
	slices.SortFunc(ts, func(a, b *referee.Table) int { return cmp.Compare(a.G.ID, b.G.ID) })
	return ts
}

// gamesEnded is run once per session before its replies are written: the
// rated games that ended are rated (their players' mails show the new
// ratings), the tournaments of the tournament games that ended are
// written (version bump), their players' mails show their standing, and
// an event whose last game ended is finished, with the final mails to
// everyone. Archive read failures are kept in ss.readErr. A session
// where no game ended makes no tournament state here (module.go).
func gamesEnded(ss *referee.Session) {
	if ss.Uses(Module{}) && tourneyOf(ss).ended {
		return
	}
	ended := endedTables(ss)
	if len(ended) == 0 {
		return // nothing to rate or tell: no state made for it
	}
	tourneyOf(ss).ended = true
	rateEnded(ss, ended)
	var ids []string
	for _, t := range ended {
		if id := t.G.TournamentID; id != "" && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		ev, err := loadEvent(ss, id)
		if err != nil {
			var r *referee.Refusal
			if !errors.As(err, &r) {
				ss.NoteReadErr(err)
			}
			continue
		}
		ev.write = true
		sts, err := standings(ss, ev)
		if err != nil {
			ss.Srv.Log.Error("tournament standings not computed", "tournament", id, "err", err)
			continue
		}
		told := map[string]bool{}
		for _, t := range ended {
			if t.G.TournamentID != id {
				continue
			}
			for _, addr := range []string{t.G.Attackers, t.G.Defenders} {
				if told[addr] {
					continue
				}
				told[addr] = true
				if line := StandingLine(ss.LangOf(addr), ev.t, sts, addr); line != "" {
					ss.Tell(addr, t, func(string) string { return line })
				}
			}
		}
		if complete(ss, ev) {
			finishEvent(ss, ev, sts)
		}
	}
}

// Module is tournaments and ratings as a module of the core (the hooks of
// internal/referee's module.go): the tournament rows, entries and
// ratings a mail writes, the games that ended rated and their events'
// standings told, the events started on their start date, watching an
// event. server's assembly lists it fourth, after consent.
type Module struct{}

// Name is "tournament", as the registry's test and the docs call the
// module.
func (Module) Name() string { return "tournament" }

// Collect adds the tournament rows, entries, join requests and ratings
// the mail changed, and the referee's own mails, to change
// (collectTournament).
func (Module) Collect(ss *referee.Session, change *archive.Change) {
	collectTournament(ss, change)
}

// BeforeReplies rates the games that ended, tells their players their
// standing and finishes an event whose last game ended (gamesEnded),
// before the replies are written.
func (Module) BeforeReplies(ss *referee.Session) { gamesEnded(ss) }

// LineBudget says which reply budget a keyless "join" or "withdraw" line
// is counted in (joinBudget, withdrawBudget); ok is false for every other
// command.
func (Module) LineBudget(ss *referee.Session, c grammar.Command) (archive.MailBudget, bool, error) {
	switch c := c.(type) {
	case *grammar.JoinCommand:
		b, err := joinBudget(ss, c)
		return b, true, err
	case *grammar.WithdrawCommand:
		b, err := withdrawBudget(ss, c)
		return b, true, err
	}
	return "", false, nil
}

// AfterCommit ends at once the running games of a player whom the
// committed change withdrew (settleAfter); a failure is logged and left
// to the scheduler.
func (Module) AfterCommit(ctx context.Context, s *referee.Server, c archive.Change) {
	settleAfter(s, ctx, c)
}

// RunDue starts the tournaments whose start date has come
// (startDueTournaments, tournament_start.go), then ends the running games
// of players who withdrew (settleWithdrawals, tournament_withdraw.go).
func (Module) RunDue(ctx context.Context, s *referee.Server) (int, error) {
	started, err := startDueTournaments(s, ctx)
	if err != nil {
		return started, err
	}
	return started, settleWithdrawals(s, ctx)
}

// NextDue is the next tournament's start date: a start date is a timer
// too. A failure to read it does not fail Run's wait: it counts as none,
// the games' timers still wake Run, and the next RunTimers starts what
// is due.
func (Module) NextDue(ctx context.Context, s *referee.Server) (time.Time, bool, error) {
	start, found, err := s.TournamentPort().NextTournamentStart(ctx)
	if err != nil {
		return time.Time{}, false, nil
	}
	return start, found, nil
}

// Offer sets whether a new game is rated (the opponent agrees by
// accepting, CORRESPONDENCE.md §7.3) and states both players' ratings
// in its variant (ratedTerms).
func (Module) Offer(ss *referee.Session, t *referee.Table, c *grammar.NewGameCommand) (referee.Offer, error) {
	t.G.Rated = c.Rated
	return referee.Offer{Players: func(lang, opp string) string { return ratedTerms(ss, lang, t.G, opp) }}, nil
}

// ListGames heads the games list with the sender's ratings (ratingsLine)
// and writes each opponent with theirs in the game's variant
// (withRating).
func (Module) ListGames(ss *referee.Session) (string, func(*archive.Game, string) string) {
	return ratingsLine(ss), func(g *archive.Game, opp string) string { return withRating(ss, opp, g.Variant) }
}

// TellGame names the event and round in the first line of a mail about a
// tournament game (eventHeader).
func (Module) TellGame(_ *referee.Session, lang string, t *referee.Table) (header, section string) {
	return eventHeader(lang, t.G), ""
}

// TakeWatch takes a "watch" of an event's id: its spectator follows
// every game of the event (watchTournament, tournament_watch.go).
func (Module) TakeWatch(ss *referee.Session, c *grammar.WatchCommand) (bool, error) {
	return watchTournament(ss, c)
}

// ThreadTarget is the event whose start mail to its spectators a bare
// "unwatch" answers (eventOfThread).
func (Module) ThreadTarget(ss *referee.Session) string { return eventOfThread(ss.Cause.Mail) }

// TakeUnwatch takes an "unwatch" that stops the sender following an
// event (unwatchTournament).
func (Module) TakeUnwatch(ss *referee.Session, id string, named bool) (bool, error) {
	return unwatchTournament(ss, id, named)
}

// collectTournament adds to change what the session changed of
// tournaments and ratings, and the referee's own mails.
func collectTournament(ss *referee.Session, change *archive.Change) {
	if !ss.Uses(Module{}) {
		return // nothing of tournaments, ratings or the referee's own mails
	}
	ts := tourneyOf(ss)
	tc := &archive.TournamentChange{Entries: ts.entries, Pending: ts.pending}
	for _, id := range sortedKeys(ts.events) {
		if ev := ts.events[id]; ev.write {
			tc.Tournaments = append(tc.Tournaments, ev.t)
		}
	}
	for _, v := range sortedKeys(ts.ratings) {
		tc.Ratings = append(tc.Ratings, ts.ratings[v].update())
	}
	if len(tc.Tournaments) > 0 || len(tc.Entries) > 0 || len(tc.Ratings) > 0 || len(tc.Pending) > 0 {
		change.Writes = append(change.Writes, tc)
	}
	change.Outbox = append(change.Outbox, ts.own...)
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TournamentExport writes the games of a tournament (archive.Store's
// TournamentGames with plies, in schedule order) as one native record
// file: the records one after the other, each with the event's name as
// its Event tag, its Round, its result ("*" for a game that goes on or
// was annulled) and its clock data, which `taflmail validate`, `standings`
// and `ratings` read. The players' leave is cut to the event's allowance
// as the referee counts it.
func TournamentExport(games []*archive.Game) ([]byte, error) { return club.ExportEvent(games) }
