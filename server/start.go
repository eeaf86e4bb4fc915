package server

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/mail"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// GameStart is a game to start without a challenge: a pairing an
// organiser made (a tournament's round, CORRESPONDENCE.md §6), which both
// players play without accepting it first.
type GameStart struct {
	// Variant is the engine's name of the rules, e.g. "copenhagen".
	Variant string
	// Attackers and Defenders are the players' mail addresses.
	Attackers, Defenders string
	// TimeControl is the game's control; the zero value is untimed
	// (a tournament game always has one, Decision C1).
	TimeControl notation.TimeControl
	// TournamentID names the event, "" for none.
	TournamentID string
	// Rated: the game counts for the ratings (CORRESPONDENCE.md §7.3).
	Rated bool
}

// StartOptions change how StartGamesWith starts games; the zero value is
// what StartGames does.
type StartOptions struct {
	// OneMail sends each player one mail listing all their games of the
	// call (opponent, side, who moves first, the game's id and its tag
	// line with the player's key, which reaches the game) instead of a
	// mail per game with its board: a tournament's start.
	OneMail bool
	// Subject and Intro, with OneMail, give that mail's subject and its
	// first paragraph for a player in a language ("en", "de"); nil gives
	// a plain subject and none.
	Subject func(lang string) string
	Intro   func(lang, player string) string
}

// StartGames starts running games without a challenge and returns their
// ids in the order of starts: each gets a fresh id and a key for each
// player, starts now (Options.Now: both clocks are set, the first mover's
// runs), gets its timers (reminders, deadline), and each player gets a
// mail for each game, opening its thread, with the board, the clocks and
// the key (StartGamesWith with StartOptions.OneMail sends one list
// instead). All of it is one archive transaction: either every game
// starts or none does (9,900 games take about a second,
// docs/performance.md). TournamentID is not checked against the
// tournaments table: StartTournament starts a stored tournament. It fails for an unknown variant or address, a player
// against themselves or the server, or an archive error.
func (s *Server) StartGames(ctx context.Context, starts []GameStart) ([]string, error) {
	return s.StartGamesWith(ctx, starts, StartOptions{})
}

// StartGamesWith is StartGames with options: with o.OneMail each player
// gets one mail listing all their games instead of a mail per game.
func (s *Server) StartGamesWith(ctx context.Context, starts []GameStart, o StartOptions) ([]string, error) {
	var ids []string
	// a conflict (an id taken meanwhile by another writer) draws new ids
	_, err := s.transact(ctx, startCause("", s.opts.Now()), steps{
		decide: func(ss *session, change *archive.Change) (verdict, error) {
			var err error
			ids, err = s.decideStarts(ss, change, starts, o)
			return commitAsIs, err
		},
		committed: func(change archive.Change) {
			s.log.Info("games started", "games", len(ids), "replies", len(change.Outbox))
		},
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// decideStarts builds in change the start of the games of starts and
// returns their ids. Each game is decided in a session of its own, seeded
// with its id, so that a player of two games (a match) gets a mail for
// each, each with its own key; with o.OneMail the lists are written
// instead, by ls, the session of the call, seeded with all the ids.
func (s *Server) decideStarts(ls *session, change *archive.Change, starts []GameStart, o StartOptions) ([]string, error) {
	now := ls.now
	var ids []string
	var tables []*table
	drawn := map[string]bool{}    // the ids of this attempt's games
	plans := archive.TimerPlans{} // every game's timers, the clock's write
	if len(starts) > 0 {
		change.Writes = append(change.Writes, plans)
	}
	for i, st := range starts {
		ss := s.newSession(ls.ctx, startCause("", now))
		ss.lang, ss.drawn = s.opts.DefaultLanguage, drawn
		t, err := ss.startGame(st, now, !o.OneMail)
		if err != nil {
			return nil, fmt.Errorf("server: start game %d (%s vs %s): %w", i+1, st.Attackers, st.Defenders, err)
		}
		ids = append(ids, t.g.ID)
		tables = append(tables, t)
		ss.cause.seed = "start\x00" + t.g.ID // seeds the mails' Message-IDs
		var out []archive.OutboxMail
		if !o.OneMail {
			if out, err = ss.compose(); err != nil {
				return nil, err
			}
		}
		if ss.readErr != nil {
			return nil, ss.readErr
		}
		c := archive.Change{Outbox: out}
		ss.collect(&c)
		change.Games = append(change.Games, c.Games...)
		change.Outbox = append(change.Outbox, c.Outbox...)
		if ps, ok := archive.WriteOf[archive.TimerPlans](&c); ok {
			maps.Copy(plans, ps)
		}
	}
	if o.OneMail {
		ls.cause.seed = "start\x00list\x00" + strings.Join(ids, ",") // seeds the lists' Message-IDs
		ls.lang = s.opts.DefaultLanguage
		lists := ls.startLists(tables, o)
		if ls.readErr != nil {
			return nil, ls.readErr
		}
		change.Outbox = append(change.Outbox, lists...)
	}
	return ids, nil
}

// startGame adds a running game of st to the session, started at now,
// with the players' mails when mails is set.
func (ss *session) startGame(st GameStart, now time.Time, mails bool) (*table, error) {
	v, ok := engine.Lookup(st.Variant)
	if !ok {
		return nil, fmt.Errorf("unknown variant %q", st.Variant)
	}
	att, def := strings.ToLower(strings.TrimSpace(st.Attackers)), strings.ToLower(strings.TrimSpace(st.Defenders))
	for _, a := range []string{att, def} {
		if !validAddress(a) || a == ss.srv.opts.Address || isEngine(a) {
			return nil, fmt.Errorf("%q is not a player's address", a)
		}
	}
	if att == def {
		return nil, errors.New("a player cannot play against themselves")
	}
	ss.from = att // createGame's challenger: the organiser is nobody's opponent
	t, err := ss.createGame(v, def, "attackers")
	ss.from = ""
	if err != nil {
		return nil, err
	}
	t.g.Challenger = ""
	t.g.Status = archive.Active
	t.g.StartedAt = now
	t.g.TournamentID = st.TournamentID
	t.g.Rated = st.Rated
	if st.TimeControl.Timed() {
		t.g.TimeControl = st.TimeControl.String()
	}
	if !mails {
		return t, nil
	}
	for _, p := range []struct{ addr, side, opp string }{{att, "attackers", def}, {def, "defenders", att}} {
		ss.tell(p.addr, t, func(lang string) string {
			return tr(lang, "game.started", variantTitle(lang, v), p.opp, sideName(lang, p.side)) + "\n" + ss.srv.clockTerms(lang, st.TimeControl)
		})
	}
	ss.showPosition(t)
	return t, nil
}

// validAddress reports whether addr is a bare mail address.
func validAddress(addr string) bool {
	a, err := mail.ParseAddress(addr)
	return err == nil && a.Address == addr
}
