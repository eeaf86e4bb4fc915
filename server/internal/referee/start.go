package referee

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

// StartGames starts running games without a challenge and returns their
// ids in the order of starts: each gets a fresh id and a key for each
// player, starts now (Options.Now: both clocks are set, the first mover's
// runs), gets its timers (reminders, deadline), and each player gets a
// mail for each game, opening its thread, with the board, the clocks and
// the key. All of it is one archive transaction: either every game
// starts or none does (9,900 games take about a second,
// docs/performance.md). TournamentID is not checked against the
// tournaments table: StartTournament starts a stored tournament. It fails for an unknown variant or address, a player
// against themselves or the server, or an archive error.
func (s *Server) StartGames(ctx context.Context, starts []GameStart) ([]string, error) {
	var ids []string
	// a conflict (an id taken meanwhile by another writer) draws new ids
	_, err := s.Transact(ctx, StartCause("", s.Opts.Now()), Steps{
		Decide: func(ss *Session, change *archive.Change) (Verdict, error) {
			var err error
			ids, err = s.decideStarts(ss, change, starts)
			return CommitAsIs, err
		},
		Committed: func(change archive.Change) {
			s.Log.Info("games started", "games", len(ids), "replies", len(change.Outbox))
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
// each, each with its own key; ls is the session of the call.
func (s *Server) decideStarts(ls *Session, change *archive.Change, starts []GameStart) ([]string, error) {
	now := ls.Now
	var ids []string
	drawn := map[string]bool{}    // the ids of this attempt's games
	plans := archive.TimerPlans{} // every game's timers, the clock's write
	if len(starts) > 0 {
		change.Writes = append(change.Writes, plans)
	}
	for i, st := range starts {
		ss := s.NewSession(ls.Ctx, StartCause("", now))
		ss.Lang, ss.drawn = s.Opts.DefaultLanguage, drawn
		t, err := ss.StartGame(st, now, true)
		if err != nil {
			return nil, fmt.Errorf("server: start game %d (%s vs %s): %w", i+1, st.Attackers, st.Defenders, err)
		}
		ids = append(ids, t.Game.ID)
		ss.Cause.Seed = "start\x00" + t.Game.ID // seeds the mails' Message-IDs
		out, err := ss.compose()
		if err != nil {
			return nil, err
		}
		if ss.ReadErr != nil {
			return nil, ss.ReadErr
		}
		c := archive.Change{Outbox: out}
		ss.Collect(&c)
		change.Games = append(change.Games, c.Games...)
		change.Outbox = append(change.Outbox, c.Outbox...)
		if ps, ok := archive.WriteOf[archive.TimerPlans](&c); ok {
			maps.Copy(plans, ps)
		}
	}
	return ids, nil
}

// StartGame adds a running game of st to the session, started at now,
// with the players' mails when mails is set.
func (ss *Session) StartGame(st GameStart, now time.Time, mails bool) (*Table, error) {
	v, ok := engine.Lookup(st.Variant)
	if !ok {
		return nil, fmt.Errorf("unknown variant %q", st.Variant)
	}
	att, def := strings.ToLower(strings.TrimSpace(st.Attackers)), strings.ToLower(strings.TrimSpace(st.Defenders))
	for _, a := range []string{att, def} {
		if !ValidAddress(a) || a == ss.Server.Opts.Address || IsEngine(a) {
			return nil, fmt.Errorf("%q is not a player's address", a)
		}
	}
	if att == def {
		return nil, errors.New("a player cannot play against themselves")
	}
	ss.From = att // CreateGame's challenger: the organiser is nobody's opponent
	t, err := ss.CreateGame(v, def, "attackers")
	ss.From = ""
	if err != nil {
		return nil, err
	}
	t.Game.Challenger = ""
	t.Game.Status = archive.Active
	t.Game.StartedAt = now
	t.Game.TournamentID = st.TournamentID
	t.Game.Rated = st.Rated
	if st.TimeControl.Timed() {
		t.Game.TimeControl = st.TimeControl.String()
	}
	if !mails {
		return t, nil
	}
	for _, p := range []struct{ addr, side, opp string }{{att, "attackers", def}, {def, "defenders", att}} {
		ss.Tell(p.addr, t, func(lang string) string {
			return Tr(lang, "game.started", VariantTitle(lang, v), p.opp, SideName(lang, p.side)) + ss.StartedTerms(lang, t) // the clock's terms (module.go)
		})
	}
	ss.ShowPosition(t)
	return t, nil
}

// ValidAddress reports whether addr is a bare mail address.
func ValidAddress(addr string) bool {
	a, err := mail.ParseAddress(addr)
	return err == nil && a.Address == addr
}
