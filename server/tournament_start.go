package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/tournament"
)

// TournamentStarted is what StartTournamentCounted did: the games
// started and the mails queued in the outbox for them.
type TournamentStarted struct {
	// Games are the games' ids in schedule order.
	Games []string
	// Players is how many players still entered were paired.
	Players int
	// PlayerMails is how many players got their start list (one each),
	// SpectatorMails how many spectators who follow every move got the
	// list of the event's games (startWatchMails; one each, none for a
	// mail too large to send).
	PlayerMails, SpectatorMails int
}

// StartTournament starts a tournament in status created now, whatever its
// start date says (the director's `taflmail tournament start`; the
// scheduler calls it on the start date). The players still entered are
// paired (CORRESPONDENCE.md §6.2): a single round robin with Berger
// numbers drawn by lot from Options.Rand, or groups seeded by rating in
// snake order (each player's rating in the event's variant, 1500 for a
// new player). Every game starts at once with the event's time control
// (StartGamesWith), each player gets one mail listing all their games,
// and the event's state, the entries' groups, Berger numbers and seeding
// ratings, the games' pairings, and one mail to each of the event's
// spectators listing its games (startWatchMails), are written in the same
// transaction. It returns the games' ids in schedule order.
//
// Errors: ErrNoTournament, ErrTournamentState (not in status created),
// ErrTooFewPlayers (fewer than MinPlayers still entered, or a group of
// fewer than two), and archive errors.
func (s *Server) StartTournament(ctx context.Context, id string) ([]string, error) {
	r, err := s.StartTournamentCounted(ctx, id)
	return r.Games, err
}

// StartTournamentCounted is StartTournament, telling also how many
// players were paired and how many mails were queued for players and for
// spectators (what `taflmail tournament start` reports). Its errors are
// StartTournament's.
func (s *Server) StartTournamentCounted(ctx context.Context, id string) (TournamentStarted, error) {
	var started TournamentStarted
	ids, err := s.startTournament(ctx, id, &started)
	if err != nil {
		return TournamentStarted{}, err
	}
	started.Games = ids
	return started, nil
}

// startTournament does StartTournament's work, writing the counts of
// players and mails into counts.
func (s *Server) startTournament(ctx context.Context, id string, counts *TournamentStarted) ([]string, error) {
	t, err := s.store.Tournament(ctx, id)
	if errors.Is(err, archive.ErrNotFound) {
		return nil, fmt.Errorf("%w: %q", ErrNoTournament, id)
	}
	if err != nil {
		return nil, err
	}
	if t.Status != archive.TournamentCreated {
		return nil, fmt.Errorf("%w: %s is %s", ErrTournamentState, id, t.Status)
	}
	entries, err := s.store.Entries(ctx, id)
	if err != nil {
		return nil, err
	}
	var in []archive.Entry
	for _, e := range entries {
		if !e.Withdrawn() {
			in = append(in, e)
		}
	}
	if len(in) < MinPlayers {
		return nil, fmt.Errorf("%w: %s has %d players, it needs %d", ErrTooFewPlayers, id, len(in), MinPlayers)
	}
	tc, err := notation.ParseTimeControl(id, t.TimeControl)
	if err != nil || !tc.Timed() {
		return nil, fmt.Errorf("server: tournament %s: time control %q: %v", id, t.TimeControl, err)
	}
	ratings := map[string]float64{}
	rs, err := s.store.Ratings(ctx, t.Variant)
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		ratings[r.Player] = r.Value.R
	}
	rating := func(p string) float64 {
		if r, ok := ratings[p]; ok {
			return r
		}
		return 1500
	}
	var groups [][]string
	if t.Groups > 1 {
		seeds := make([]tournament.Seed, len(in))
		for i, e := range in {
			seeds[i] = tournament.Seed{Player: e.Player, Rating: rating(e.Player)}
		}
		if groups, err = tournament.SeedGroups(seeds, t.Groups); err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrTooFewPlayers, id, err)
		}
	} else {
		players := make([]string, len(in))
		for i, e := range in {
			players[i] = e.Player
		}
		if err := drawLots(s.opts.Rand, players); err != nil {
			return nil, err
		}
		groups = [][]string{players}
	}
	games, err := tournament.GroupRoundRobin(groups, tournament.Options{GamesPerPairing: t.GamesPerPairing})
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrTooFewPlayers, id, err)
	}
	starts := make([]GameStart, len(games))
	for i, g := range games {
		starts[i] = GameStart{Variant: t.Variant, Attackers: g.Attackers, Defenders: g.Defenders, TimeControl: tc,
			TournamentID: id, Rated: t.Rated}
	}
	place := map[string][2]int{}
	for k, grp := range groups {
		for n, p := range grp {
			place[p] = [2]int{k + 1, n + 1}
		}
	}
	o := StartOptions{
		OneMail: true,
		Subject: func(lang string) string { return tr(lang, "subject.start", t.Name) },
		Intro: func(lang, player string) string {
			text := tr(lang, "start.intro", t.Name, t.ID, len(in), len(games)) + "\n" + s.eventTerms(lang, t)
			if t.Groups > 1 {
				k := place[player][0]
				text += "\n" + tr(lang, "start.group", k, t.Groups, len(groups[k-1]))
			}
			return text
		},
		extend: func(ss *session, ts []*table, c *archive.Change) error {
			started := *t
			started.Status, started.StartedAt = archive.TournamentRunning, ss.now
			tcg := &archive.TournamentChange{Tournaments: []*archive.Tournament{&started}}
			for _, e := range in {
				e.Section, e.Number, e.Rating = place[e.Player][0], place[e.Player][1], rating(e.Player)
				tcg.Entries = append(tcg.Entries, e)
			}
			for i, g := range games {
				tcg.Pairings = append(tcg.Pairings, archive.Pairing{GameID: ts[i].g.ID, TournamentID: id, Section: g.Section,
					Round: g.Round, Board: g.Board, MatchGame: g.MatchGame})
			}
			c.Tournament = tcg
			// the start lists are queued already (startLists runs
			// first); a retry after an id conflict counts afresh
			players := len(ss.tourney.own)
			err := ss.startWatchMails(t, in, ts, games)
			counts.Players, counts.PlayerMails, counts.SpectatorMails = len(in), players, len(ss.tourney.own)-players
			return err
		},
	}
	ids, err := s.StartGamesWith(ctx, starts, o)
	if err != nil {
		return nil, err
	}
	s.log.Info("tournament started", "tournament", id, "players", len(in), "games", len(ids))
	return ids, nil
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

// startLists writes each player's one mail listing their games of a
// StartGamesWith call with StartOptions.OneMail.
func (ss *session) startLists(ts []*table, o StartOptions) {
	var order []string
	byPlayer := map[string][]*table{}
	for _, t := range ts {
		for _, p := range []string{t.g.Attackers, t.g.Defenders} {
			if _, ok := byPlayer[p]; !ok {
				order = append(order, p)
			}
			byPlayer[p] = append(byPlayer[p], t)
		}
	}
	for _, p := range order {
		lang := ss.langOf(p)
		var b strings.Builder
		b.WriteString(tr(lang, "greeting") + "\n\n")
		if o.Intro != nil {
			b.WriteString(o.Intro(lang, p) + "\n\n")
		}
		games := byPlayer[p]
		b.WriteString(tr(lang, "start.list", len(games)) + "\n")
		for _, t := range games {
			side, opp := sideOf(t.g, p), opponentOf(t.g, p)
			first := "start.first.them"
			if side == t.v.FirstSide.String() {
				first = "start.first.you"
			}
			if t.g.Rated {
				opp = ss.withRating(opp, t.g.Variant)
			}
			fmt.Fprintf(&b, "  %s  %-9s  %s  %s\n", t.g.ID, sideName(lang, side), tr(lang, "start.vs", opp), tr(lang, first))
			fmt.Fprintf(&b, "          [taflmail %s %s]\n", t.g.ID, tokenOf(t.g, p))
		}
		b.WriteString("\n" + tr(lang, "start.how") + "\n\n")
		b.WriteString(tr(lang, "signature") + "\n")
		subject := tr(lang, "subject.reply")
		if o.Subject != nil {
			subject = o.Subject(lang)
		}
		ss.ownMail(ss.msg.MessageID, p, subject, b.String())
	}
}

// startDueTournaments starts the tournaments whose start date has come
// (archive.Store.DueTournaments) and returns how many it started or
// cancelled. One that cannot start for lack of players is cancelled and
// its players are told; any other failure stops it (the scheduler tries
// again).
func (s *Server) startDueTournaments(ctx context.Context) (int, error) {
	due, err := s.store.DueTournaments(ctx, s.opts.Now())
	if err != nil {
		return 0, err
	}
	n := 0
	for _, t := range due {
		_, err := s.StartTournament(ctx, t.ID)
		switch {
		case errors.Is(err, ErrTooFewPlayers):
			s.log.Warn("tournament cancelled", "tournament", t.ID, "err", err)
			if err := s.cancelTournament(ctx, t.ID); err != nil {
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
func (s *Server) cancelTournament(ctx context.Context, id string) error {
	return s.change(ctx, "cancel\x00"+id, func(ss *session) error {
		ev, err := ss.event(id)
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
			lang := ss.langOf(e.Player)
			body := tr(lang, "greeting") + "\n\n" + tr(lang, "tournament.cancelled", ev.t.Name, n, MinPlayers) + "\n\n" + tr(lang, "signature") + "\n"
			ss.ownMail("cancel\x00"+id, e.Player, tr(lang, "subject.cancelled", ev.t.Name), body)
		}
		ss.cancelWatchMails(ev.t, func(addr string) bool {
			e, ok := ev.entry(addr)
			return ok && !e.Withdrawn()
		}, n)
		return nil
	})
}

// change decides and commits a change that no mail caused (the director's
// commands, the scheduler): fn works in a session of its own, whose
// replies and own mails go out with the change, which is decided again
// when a game or tournament it writes changed meanwhile. A refusal of fn
// is returned as an error with its text.
func (s *Server) change(ctx context.Context, seed string, fn func(ss *session) error) error {
	for attempt := 0; ; attempt++ {
		ss := s.newSession(ctx, &mailer.Message{MessageID: seed}, "", s.opts.Now())
		ss.lang, ss.own = s.opts.DefaultLanguage, true
		if err := fn(ss); err != nil {
			return err
		}
		out, err := ss.compose()
		if err != nil {
			return err
		}
		if ss.readErr != nil {
			return ss.readErr
		}
		c := archive.Change{Outbox: out}
		finished := ss.collect(&c)
		ss.collectClock(&c)
		err = s.store.Commit(ctx, c)
		switch {
		case err == nil:
			s.writeRecords(finished)
			return nil
		case errors.Is(err, archive.ErrConflict) && attempt < 2:
			continue
		default:
			return err
		}
	}
}
