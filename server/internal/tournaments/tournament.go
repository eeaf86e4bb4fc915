package tournaments

import (
	"context"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// The referee's side of correspondence tournaments and ratings
// (CORRESPONDENCE.md §6–§7, docs/tournaments.md). Package tournament
// computes pairings, standings and ratings; the archive stores them; the
// package's files tie them to the games the referee runs, each using only
// the files below it, so that a reader can start at the bottom:
//
//   - tournament_event.go: an event as a session sees it (its entries,
//     sections, standings), the director's errors, MinPlayers;
//   - tournament_state.go: Module's type, the state of a session
//     (tourneyOf), the events loaded in it, and the session of a change
//     no mail caused;
//   - rating.go rates a rated game in the transaction that ends it, and
//     tournament_withdraw.go applies Decision T3;
//   - tournament_text.go writes what players read, tournament_watch.go
//     what the event's spectators hear of its start, end and
//     cancellation;
//   - tournament_start.go starts an event (by the director, or by the
//     scheduler on its start date); tournament_end.go rates the games
//     that end in a session, tells a tournament game's players their
//     standing and, for the event's last game, finishes the event and
//     mails everyone the final crosstable and the records (gamesEnded);
//   - cmd_tournaments.go, cmd_join.go, cmd_withdraw.go, cmd_standings.go
//     and cmd_rating.go are the players' commands;
//   - this file, at the top, is Module's hooks: each hands a call of the
//     core to the files below, and Collect writes what the session
//     changed (collectTournament).

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
	t.Game.Rated = c.Rated
	return referee.Offer{Players: func(lang, opp string) string { return ratedTerms(ss, lang, t.Game, opp) }}, nil
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
	return eventHeader(lang, t.Game), ""
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
