package tournaments

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/tournament"
)

// TournamentStarted is what StartTournamentCounted did: how many games
// started and the mails queued in the outbox for them.
type TournamentStarted struct {
	// Games is how many games started.
	Games int
	// Players is how many players still entered were paired.
	Players int
	// PlayerMails is how many players got their start list (one each),
	// SpectatorMails how many spectators who follow every move got the
	// list of the event's games (startWatchMails; one each, none for a
	// mail too large to send).
	PlayerMails, SpectatorMails int
}

// StartChunkGames is how many games a tournament's start makes and
// writes at a time: what it holds of its games in memory, whatever their
// number.
const StartChunkGames = 256

// StartTournament starts a tournament in status created now, whatever its
// start date says (the director's `taflmail tournament start`; the
// scheduler calls it on the start date). The players still entered are
// paired (CORRESPONDENCE.md §6.2): a single round robin with Berger
// numbers drawn by lot from Options.Rand, or groups seeded by rating in
// snake order (each player's rating in the event's variant, 1500 for a
// new player). Every game starts at once with the event's time control,
// with a fresh id no other game has (freshGameID) and a key for each
// player; each player gets one mail listing all their games, and the
// event's state, the entries' groups, Berger numbers and seeding
// ratings, the games' pairings, and one mail to each of the event's
// spectators listing its first games (startWatchMails), are written in
// the same transaction: either all of it starts or nothing does.
//
// The games are made, and written, StartChunkGames at a time, as the
// pairings come (tournament.GroupGames), and each player's list is
// written from the archive's copy of their games: what a start holds in
// memory grows with its players, not its games (a round robin of 1,000
// players in matches is 999,000 games; docs/performance.md). The
// entries are bounded when they are made (Options.MaxTournamentPlayers:
// `tournament create`, "join"), not here. It returns the games' ids in
// schedule order, which StartTournamentCounted does not hold.
//
// Errors: ErrNoTournament, ErrTournamentState (not in status created),
// ErrTooFewPlayers (fewer than MinPlayers still entered, or a group of
// fewer than two), and archive errors.
func StartTournament(s *referee.Server, ctx context.Context, id string) ([]string, error) {
	var ids []string
	_, err := startTournament(s, ctx, id, func(gid string) { ids = append(ids, gid) })
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// StartTournamentCounted is StartTournament, telling how many games
// started, how many players were paired and how many mails were queued
// for players and for spectators (what `taflmail tournament start` and
// the scheduler use, holding no list of the games). Its errors are
// StartTournament's.
func StartTournamentCounted(s *referee.Server, ctx context.Context, id string) (TournamentStarted, error) {
	return startTournament(s, ctx, id, nil)
}

// startTournament does StartTournament's work in one archive batch
// (transact), deciding it afresh when the event changed since it was read
// (a withdrawal: it is paired again); once it started, each game's id
// goes to started when it is not nil, in schedule order.
func startTournament(s *referee.Server, ctx context.Context, id string, started func(gameID string)) (TournamentStarted, error) {
	var ids []string
	var counts *TournamentStarted
	var write func(b *archive.Batch) error
	_, err := s.Transact(ctx, referee.StartCause("start\x00"+id, time.Time{}), referee.Steps{
		Decide: func(ls *referee.Session, _ *archive.Change) (referee.Verdict, error) {
			ids = nil // this attempt's
			collect := started
			if started != nil {
				collect = func(gid string) { ids = append(ids, gid) }
			}
			var err error
			write, counts, err = decideTournamentStart(s, ls, id, collect)
			return referee.CommitBatch, err
		},
		Batch: func(b *archive.Batch) error { return write(b) },
		Committed: func(archive.Change) {
			for _, gid := range ids {
				started(gid)
			}
			s.Log.Info("tournament started", "tournament", id, "players", counts.Players, "games", counts.Games)
		},
	})
	if err != nil {
		return TournamentStarted{}, err
	}
	return *counts, nil
}

// tournamentStart is one tournament's start as decideTournamentStart
// decided it: the event, its players still entered and their pairing,
// what the start's mails need, and the counts its write fills in.
type tournamentStart struct {
	s  *referee.Server
	ls *referee.Session // the session of the start's mails
	id string           // the event's id as the director or the scheduler gave it
	// now is when the event and its games start: the session's now.
	now time.Time
	t   *archive.Tournament
	in  []archive.Entry // the players still entered, in entry order
	tc  notation.TimeControl
	// ratings are the players' ratings in the event's variant (rating).
	ratings map[string]float64
	groups  [][]string
	// games are the pairings, total of them (tournament.GroupGames).
	games iter.Seq[tournament.Game]
	total int
	// place is each player's group and Berger number, both from 1.
	place map[string][2]int
	specs []archive.Spectator // the event's spectators who are no player
	o     startListText       // the players' mails
	// started gets each game's id once it is written, when not nil.
	started func(gameID string)
	counts  *TournamentStarted
}

// decideTournamentStart reads the event in ls, the session of its mails
// (seeded with the event's id), and returns how to start it through one
// archive batch and the counts that write fills in.
func decideTournamentStart(s *referee.Server, ls *referee.Session, id string, started func(gameID string)) (func(b *archive.Batch) error, *TournamentStarted, error) {
	ts := &tournamentStart{s: s, ls: ls, id: id, now: ls.Now, started: started, counts: &TournamentStarted{}}
	if err := ts.readEvent(); err != nil {
		return nil, nil, err
	}
	if err := ts.pair(); err != nil {
		return nil, nil, err
	}
	if err := ts.readForMails(); err != nil {
		return nil, nil, err
	}
	ts.counts.Players = len(ts.in)
	return ts.write, ts.counts, nil
}

// readEvent reads the tournament, its players still entered and its time
// control. Errors: ErrNoTournament, ErrTournamentState (not in status
// created), ErrTooFewPlayers (fewer than MinPlayers still entered), an
// untimed or unreadable time control, and archive errors.
func (ts *tournamentStart) readEvent() error {
	ctx, id := ts.ls.Ctx, ts.id
	t, err := ts.s.TournamentPort().Tournament(ctx, id)
	if errors.Is(err, archive.ErrNotFound) {
		return fmt.Errorf("%w: %q", ErrNoTournament, id)
	}
	if err != nil {
		return err
	}
	if t.Status != archive.TournamentCreated {
		return fmt.Errorf("%w: %s is %s", ErrTournamentState, id, t.Status)
	}
	entries, err := ts.s.TournamentPort().Entries(ctx, id)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Withdrawn() {
			ts.in = append(ts.in, e)
		}
	}
	if len(ts.in) < MinPlayers {
		return fmt.Errorf("%w: %s has %d players, it needs %d", ErrTooFewPlayers, id, len(ts.in), MinPlayers)
	}
	tc, err := notation.ParseTimeControl(id, t.TimeControl)
	if err != nil || !tc.Timed() {
		return fmt.Errorf("server: tournament %s: time control %q: %v", id, t.TimeControl, err)
	}
	ts.t, ts.tc = t, tc
	return nil
}

// pair reads the players' ratings, puts them into groups (drawGroups) and
// pairs each group (tournament.GroupGames), then refuses an entry that is
// no player's address (tournament create and "join" refuse these; an
// entry written otherwise must not start a game) and places every player
// in their group. A pairing that cannot be made is ErrTooFewPlayers.
func (ts *tournamentStart) pair() error {
	t := ts.t
	rs, err := ts.s.TournamentPort().Ratings(ts.ls.Ctx, t.Variant)
	if err != nil {
		return err
	}
	ts.ratings = map[string]float64{}
	for _, r := range rs {
		ts.ratings[r.Player] = r.Value.R
	}
	if err := ts.drawGroups(); err != nil {
		return err
	}
	ts.games, ts.total, err = tournament.GroupGames(ts.groups, tournament.Options{GamesPerPairing: t.GamesPerPairing})
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrTooFewPlayers, ts.id, err)
	}
	for _, e := range ts.in {
		if !referee.ValidAddress(e.Player) || e.Player == ts.s.Opts.Address || referee.IsEngine(e.Player) {
			return fmt.Errorf("server: tournament %s: %q is not a player's address", ts.id, e.Player)
		}
	}
	ts.place = map[string][2]int{}
	for k, grp := range ts.groups {
		for n, p := range grp {
			ts.place[p] = [2]int{k + 1, n + 1}
		}
	}
	return nil
}

// rating is player p's rating in the event's variant, 1500 for a player
// with none.
func (ts *tournamentStart) rating(p string) float64 {
	if r, ok := ts.ratings[p]; ok {
		return r
	}
	return 1500
}

// drawGroups makes the event's groups: seeded by rating in snake order
// when it has several (tournament.SeedGroups; too few players for them
// is ErrTooFewPlayers), else one group in the order of Berger numbers
// drawn by lot from Options.Rand (drawLots).
func (ts *tournamentStart) drawGroups() error {
	t := ts.t
	if t.Groups > 1 {
		seeds := make([]tournament.Seed, len(ts.in))
		for i, e := range ts.in {
			seeds[i] = tournament.Seed{Player: e.Player, Rating: ts.rating(e.Player)}
		}
		var err error
		if ts.groups, err = tournament.SeedGroups(seeds, t.Groups); err != nil {
			return fmt.Errorf("%w: %s: %w", ErrTooFewPlayers, ts.id, err)
		}
		return nil
	}
	players := make([]string, len(ts.in))
	for i, e := range ts.in {
		players[i] = e.Player
	}
	if err := drawLots(ts.s.Opts.Rand, players); err != nil {
		return err
	}
	ts.groups = [][]string{players}
	return nil
}

// readForMails reads, in the session of the mails, what they need from
// the archive now (inside the batch it must read nothing but the
// batch): each player's language and, in a rated event, rating, the
// event's spectators who are no player and their languages; and it
// makes the players' mails' subject and introduction.
func (ts *tournamentStart) readForMails() error {
	ls, t := ts.ls, ts.t
	ls.Lang, ls.Own = ts.s.Opts.DefaultLanguage, true
	for _, e := range ts.in {
		ls.LangOf(e.Player)
		if t.Rated {
			currentRating(ls, e.Player, t.Variant)
		}
	}
	playing := map[string]bool{}
	for _, e := range ts.in {
		playing[e.Player] = true
	}
	specs, err := eventWatchers(ls, t.ID, func(a string) bool { return playing[a] }, false)
	if err != nil {
		return err
	}
	for _, sp := range specs {
		ls.LangOf(sp.Address)
	}
	if ls.ReadErr != nil {
		return ls.ReadErr
	}
	ts.specs = specs
	ts.o = startListText{
		subject: func(lang string) string { return referee.Tr(lang, "subject.start", t.Name) },
		intro: func(lang, player string) string {
			text := referee.Tr(lang, "start.intro", t.Name, t.ID, referee.Counted(lang, "players", len(ts.in)), referee.Counted(lang, "games", ts.total)) + "\n" + eventTerms(ts.s, lang, t)
			if t.Groups > 1 {
				k := ts.place[player][0]
				text += "\n" + referee.Trn(lang, "start.group", len(ts.groups[k-1]), k, t.Groups, len(ts.groups[k-1]))
			}
			return text
		},
	}
	return nil
}

// write starts the event through b: its state and entries first, then
// the games a chunk at a time, then the players' and the spectators'
// mails.
func (ts *tournamentStart) write(b *archive.Batch) error {
	ts.ls.Batch = b
	if err := ts.writeEvent(b); err != nil {
		return err
	}
	firstIDs, first, err := ts.writeGames(b)
	if err != nil {
		return err
	}
	return ts.writeMails(b, firstIDs, first)
}

// writeEvent writes the event running since now, and each
// entry with its group, Berger number and seeding rating. It comes
// first: a change since the event was read (a withdrawal) fails here,
// before any game is made.
func (ts *tournamentStart) writeEvent(b *archive.Batch) error {
	st := *ts.t
	st.Status, st.StartedAt = archive.TournamentRunning, ts.now
	tcg := &archive.TournamentChange{Tournaments: []*archive.Tournament{&st}}
	for _, e := range ts.in {
		e.Section, e.Number, e.Rating = ts.place[e.Player][0], ts.place[e.Player][1], ts.rating(e.Player)
		tcg.Entries = append(tcg.Entries, e)
	}
	return b.Write(archive.Change{Writes: []archive.Write{tcg}})
}

// writeGames makes and writes the games, StartChunkGames at a time
// (startChunk), counting them and handing each id to started. It returns
// the first MaxStartGames games and their ids, which the spectators'
// mail lists.
func (ts *tournamentStart) writeGames(b *archive.Batch) (firstIDs []string, first []tournament.Game, err error) {
	chunk := make([]tournament.Game, 0, StartChunkGames)
	flush := func() error {
		ids, err := startChunk(ts.s, ts.ls.Ctx, b, ts.t, ts.tc, chunk, ts.now)
		if err != nil {
			return err
		}
		for i, gid := range ids {
			if len(firstIDs) < MaxStartGames {
				firstIDs, first = append(firstIDs, gid), append(first, chunk[i])
			}
			if ts.started != nil {
				ts.started(gid)
			}
		}
		ts.counts.Games += len(ids)
		chunk = chunk[:0]
		return nil
	}
	for g := range ts.games {
		if chunk = append(chunk, g); len(chunk) == StartChunkGames {
			if err := flush(); err != nil {
				return nil, nil, err
			}
		}
	}
	if err := flush(); err != nil {
		return nil, nil, err
	}
	return firstIDs, first, nil
}

// writeMails writes each player's list of their games, read from the
// games just written, then the spectators' mail listing the first games
// (firstIDs, first; startWatchMails), and counts them.
func (ts *tournamentStart) writeMails(b *archive.Batch, firstIDs []string, first []tournament.Game) error {
	ls := ts.ls
	tst := tourneyOf(ls)
	var mine []*archive.Game
	for _, e := range ts.in {
		mine = mine[:0]
		err := b.TournamentGamesOf(ts.id, e.Player, func(g *archive.Game) error {
			mine = append(mine, g)
			return nil
		})
		if err != nil {
			return err
		}
		tst.own = tst.own[:0]
		startList(ls, e.Player, mine, ts.o)
		ts.counts.PlayerMails += len(tst.own)
		if err := b.Write(archive.Change{Outbox: tst.own}); err != nil {
			return err
		}
	}
	tst.own = tst.own[:0]
	startWatchMails(ls, ts.t, len(ts.in), ts.specs, firstIDs, first, ts.total)
	ts.counts.SpectatorMails = len(tst.own)
	if ls.ReadErr != nil {
		return ls.ReadErr
	}
	return b.Write(archive.Change{Outbox: tst.own})
}

// startChunk makes the games of the pairings chunk of tournament t, with
// control tc, started at now, and writes them through b with their
// timers and pairings. It returns their ids, in the order of chunk.
func startChunk(s *referee.Server, ctx context.Context, b *archive.Batch, t *archive.Tournament, tc notation.TimeControl, chunk []tournament.Game, now time.Time) ([]string, error) {
	if len(chunk) == 0 {
		return nil, nil
	}
	ss := s.NewSession(ctx, referee.StartCause("", now))
	ss.Lang, ss.Batch = s.Opts.DefaultLanguage, b
	ids := make([]string, len(chunk))
	tcg := &archive.TournamentChange{Pairings: make([]archive.Pairing, len(chunk))}
	for i, g := range chunk {
		st := referee.GameStart{Variant: t.Variant, Attackers: g.Attackers, Defenders: g.Defenders, TimeControl: tc, TournamentID: t.ID, Rated: t.Rated}
		tb, err := ss.StartGame(st, now, false)
		if err != nil {
			return nil, fmt.Errorf("server: tournament %s: start game %s vs %s: %w", t.ID, g.Attackers, g.Defenders, err)
		}
		ids[i] = tb.Game.ID
		tcg.Pairings[i] = archive.Pairing{GameID: tb.Game.ID, TournamentID: t.ID, Section: g.Section, Round: g.Round, Board: g.Board, MatchGame: g.MatchGame}
	}
	c := archive.Change{Writes: []archive.Write{tcg}}
	ss.Collect(&c)
	if ss.ReadErr != nil {
		return nil, ss.ReadErr
	}
	return ids, b.Write(c)
}

// drawLots shuffles players in place (Fisher–Yates) with randomness from
// r: the Berger numbers of a single round robin are drawn by lot.
func drawLots(r io.Reader, players []string) error {
	var b [4]byte
	for i := len(players) - 1; i > 0; i-- {
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return fmt.Errorf("server: drawing lots: %w", err)
		}
		n := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
		j := int(uint64(n) * uint64(i+1) >> 32)
		players[i], players[j] = players[j], players[i]
	}
	return nil
}

// startListText gives a start list's subject and its first paragraph for
// a player in a language ("en", "de") (startList); nil gives a plain
// subject and none.
type startListText struct {
	subject func(lang string) string
	intro   func(lang, player string) string
}

// startList queues player p's one mail listing games, p's games in
// schedule order, at an event's start: for each its id, p's side, the
// opponent (with their rating in a rated game), who moves first, and the
// tag line with p's key. It reads the archive only for what langOf and
// currentRating have not cached.
func startList(ss *referee.Session, p string, games []*archive.Game, o startListText) {
	lang := ss.LangOf(p)
	var b strings.Builder
	b.WriteString(referee.Tr(lang, "greeting") + "\n\n")
	if o.intro != nil {
		b.WriteString(o.intro(lang, p) + "\n\n")
	}
	b.WriteString(referee.Trn(lang, "start.list", len(games), len(games)) + "\n")
	for _, g := range games {
		side, opp := referee.SideOf(g, p), referee.OpponentOf(g, p)
		first := "start.first.them"
		if v, ok := engine.Lookup(g.Variant); ok && side == v.FirstSide.String() {
			first = "start.first.you"
		}
		if g.Rated {
			opp = withRating(ss, opp, g.Variant)
		}
		b.WriteString(referee.TableRow(fmt.Sprintf("  %s  %-9s  %s  %s", g.ID, referee.SideName(lang, side), referee.Tr(lang, "start.vs", opp), referee.Tr(lang, first)), len(referee.GamesIndent)) + "\n")
		b.WriteString(referee.TableRow(fmt.Sprintf(referee.GamesIndent+"[taflmail %s %s]", g.ID, referee.TokenOf(g, p)), len(referee.GamesIndent)) + "\n")
	}
	b.WriteString("\n" + referee.Tr(lang, "start.how") + "\n\n")
	b.WriteString(referee.Tr(lang, "signature") + "\n")
	subject := referee.Tr(lang, "subject.reply")
	if o.subject != nil {
		subject = o.subject(lang)
	}
	addOwnMail(ss, ss.Cause.Seed, p, subject, b.String())
}

// startDueTournaments starts the tournaments whose start date has come
// (archive.Store.DueTournaments) and returns how many it started or
// cancelled. One that cannot start for lack of players is cancelled and
// its players are told; any other failure stops it (the scheduler tries
// again).
func startDueTournaments(s *referee.Server, ctx context.Context) (int, error) {
	due, err := s.TournamentPort().DueTournaments(ctx, s.Opts.Now())
	if err != nil {
		return 0, err
	}
	n := 0
	for _, t := range due {
		_, err := StartTournamentCounted(s, ctx, t.ID)
		switch {
		case errors.Is(err, ErrTooFewPlayers):
			s.Log.Warn("tournament cancelled", "tournament", t.ID, "err", err)
			if err := cancelTournament(s, ctx, t.ID); err != nil {
				return n, err
			}
		case errors.Is(err, ErrTournamentState):
			continue // started meanwhile by the director
		case err != nil:
			return n, err
		}
		n++
	}
	return n, nil
}

// cancelTournament cancels a tournament that cannot start and tells its
// players and its spectators.
func cancelTournament(s *referee.Server, ctx context.Context, id string) error {
	return change(s, ctx, "cancel\x00"+id, func(ss *referee.Session) error {
		ev, err := loadEvent(ss, id)
		if err != nil {
			return err
		}
		if ev.t.Status != archive.TournamentCreated {
			return nil
		}
		ev.t.Status, ev.write = archive.TournamentCancelled, true
		n := 0
		for _, e := range ev.entries {
			if !e.Withdrawn() {
				n++
			}
		}
		for _, e := range ev.entries {
			if e.Withdrawn() {
				continue
			}
			lang := ss.LangOf(e.Player)
			body := referee.Tr(lang, "greeting") + "\n\n" + referee.Trn(lang, "tournament.cancelled", n, ev.t.Name, n, MinPlayers) + "\n\n" + referee.Tr(lang, "signature") + "\n"
			addOwnMail(ss, "cancel\x00"+id, e.Player, referee.Tr(lang, "subject.cancelled", ev.t.Name), body)
		}
		cancelWatchMails(ss, ev.t, func(addr string) bool {
			e, ok := ev.entry(addr)
			return ok && !e.Withdrawn()
		}, n)
		return nil
	})
}
