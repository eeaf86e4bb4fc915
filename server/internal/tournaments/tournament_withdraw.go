package tournaments

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/gameclock"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/tournament"
)

// Withdrawals (Decision T3). A withdrawal is decided when it happens: the
// entry is marked withdrawn, and annulled when the player finished fewer
// than half of their games (tournament.Withdraw). The player's running
// games are then ended by the referee, each in a change of its own
// (settleWithdrawals): without a result when annulled, as losses
// otherwise, both players told in the game's thread with the board and
// the record, the standings and ratings following as after any game. The
// director's withdrawal settles the games at once; a player's, confirmed
// by mail, right after the mail's change commits (HandleMail), or, should
// the process stop in between, at the scheduler's next pass. The games'
// mails are the referee's own, not replies to the player's mail, so the
// caps on one mail's replies do not cut them (a player of a 100-player
// event has 198 games).

// WithdrawPlayer removes a player from a tournament as its director does
// (`taflmail tournament withdraw`): before the start the entry is only
// marked withdrawn; in a running event, a player who finished fewer than
// half of their games has all of them annulled and their running games
// end without a result, otherwise their running games are lost. Both
// players of every game ended are told, the standings and ratings follow
// as after any game, and the event finishes when that was its last game:
// the entry in one archive change, then each game ended in one of its
// own (settleWithdrawals).
//
// Errors: ErrNoTournament, ErrNotEntered (not a player, or withdrawn
// already), ErrTournamentState (the event is over or cancelled), archive
// errors.
func WithdrawPlayer(s *referee.Server, ctx context.Context, id, player string) (tournament.Withdrawal, error) {
	var w tournament.Withdrawal
	err := change(s, ctx, "withdraw\x00"+id+"\x00"+player, func(ss *referee.Session) error {
		ev, err := loadEvent(ss, id)
		var r *referee.Refusal
		if errors.As(err, &r) {
			return fmt.Errorf("%w: %q", ErrNoTournament, id)
		}
		if err != nil {
			return err
		}
		w, err = withdraw(ss, ev, player)
		return err
	})
	if err != nil {
		return w, err
	}
	return w, settleWithdrawals(s, ctx)
}

// withdraw marks player's entry in ev withdrawn now, annulled or not by
// Decision T3, and returns the decision; the player's running games are
// ended by settleWithdrawals.
func withdraw(ss *referee.Session, ev *event, player string) (tournament.Withdrawal, error) {
	e, ok := ev.entry(player)
	if !ok || e.Withdrawn() {
		return tournament.Withdrawal{}, fmt.Errorf("%w: %s in %s", ErrNotEntered, player, ev.t.ID)
	}
	entry := *e
	entry.WithdrawnAt = ss.Now
	switch ev.t.Status {
	case archive.TournamentCreated:
		setEntry(ss, ev, entry)
		ev.write = true
		return tournament.Withdrawal{Player: player}, nil
	case archive.TournamentRunning:
	default:
		return tournament.Withdrawal{}, fmt.Errorf("%w: %s is %s", ErrTournamentState, ev.t.ID, ev.t.Status)
	}
	w, err := tournament.Withdraw(sectionGames(ss, ev, entry.Section), player)
	if err != nil {
		return tournament.Withdrawal{}, fmt.Errorf("server: withdrawing %s from %s: %w", player, ev.t.ID, err)
	}
	entry.Annulled = w.Annulled
	setEntry(ss, ev, entry)
	ev.write = true
	return w, nil
}

// sectionGames returns the games of one group of ev as package tournament
// counts them, with this session's results.
func sectionGames(ss *referee.Session, ev *event, section int) []tournament.Game {
	var out []tournament.Game
	for _, g := range ev.games {
		if g.Event == nil || g.Event.Pairing.Section != section {
			continue
		}
		l := live(ss, g)
		out = append(out, tournament.Game{Attackers: l.Attackers, Defenders: l.Defenders, Result: gameResult(l)})
	}
	return out
}

// endWithdrawnGame ends t, a running game in ev of the player of e, who
// withdrew: without a result when e is annulled, else lost by the player
// (reason "withdrawal", a resignation in the record). A game that its
// deadline had already decided is lost on time instead. Both players are
// told, with the board and the record.
func endWithdrawnGame(ss *referee.Session, ev *event, e archive.Entry, t *referee.Table) error {
	if lost, err := gameclock.LostOnTime(ss, t); err != nil || lost {
		return err
	}
	t.Game.Status, t.Game.EndedAt, t.Game.DrawOfferBy = archive.Finished, ss.Now, ""
	key, mine := "withdraw.told.lost", "withdraw.told.lost.you"
	if e.Annulled {
		t.Game.Result, t.Game.Reason, key, mine = "", "annulled", "withdraw.told.annulled", "withdraw.told.annulled.you"
	} else {
		t.Game.Result, t.Game.Reason = opponentSide(referee.SideOf(t.Game, e.Player)), "withdrawal"
	}
	t.Changed = true
	for _, addr := range []string{t.Game.Attackers, t.Game.Defenders} {
		if addr == e.Player { // the player who withdrew reads "You withdrew …"
			ss.Tell(addr, t, func(lang string) string { return referee.Tr(lang, mine, ev.t.Name) })
			continue
		}
		ss.Tell(addr, t, func(lang string) string { return referee.Tr(lang, key, e.Player, ev.t.Name) })
	}
	ss.ShowPosition(t)
	return nil
}

// settleWithdrawals ends the running games of every player who withdrew
// from a running tournament (archive.Store.UnsettledWithdrawals), each
// game in a change of the referee's own, so that each game's players get
// a mail about that game in its thread, as for any other end.
func settleWithdrawals(s *referee.Server, ctx context.Context) error {
	es, err := s.TournamentPort().UnsettledWithdrawals(ctx)
	if err != nil {
		return err
	}
	for _, e := range es {
		gs, err := s.GamePort().GamesOf(ctx, e.Player)
		if err != nil {
			return err
		}
		// in schedule order: the games end at one instant (to the second
		// their records keep), so they are rated in the order they are
		// ended, which must be the export's (ties in record order,
		// Decision R1)
		schedule, err := s.TournamentPort().TournamentGames(ctx, e.TournamentID, false)
		if err != nil {
			return err
		}
		rank := make(map[string]int, len(schedule))
		for i, g := range schedule {
			rank[g.ID] = i
		}
		slices.SortStableFunc(gs, func(a, b *archive.Game) int { return cmp.Compare(rank[a.ID], rank[b.ID]) })
		n := 0
		for _, g := range gs {
			if g.TournamentID != e.TournamentID || g.Status != archive.Active {
				continue
			}
			err := change(s, ctx, "withdrawn\x00"+g.ID, func(ss *referee.Session) error {
				ev, err := loadEvent(ss, e.TournamentID)
				if err != nil {
					return err
				}
				cur, ok := ev.entry(e.Player)
				t, err := ss.Table(g.ID)
				if err != nil || !ok || !cur.Withdrawn() || t.Game.Status != archive.Active {
					return err
				}
				return endWithdrawnGame(ss, ev, *cur, t)
			})
			if err != nil {
				return fmt.Errorf("server: ending game %s of %s, who withdrew from %s: %w", g.ID, e.Player, e.TournamentID, err)
			}
			n++
		}
		s.Log.Info("games of a withdrawn player ended", "tournament", e.TournamentID, "player", e.Player, "games", n, "annulled", e.Annulled)
	}
	return nil
}

// settleAfter settles the withdrawals a mail's change just committed;
// a failure is logged (the scheduler settles them on its next pass).
func settleAfter(s *referee.Server, ctx context.Context, c archive.Change) {
	tc, _ := archive.WriteOf[*archive.TournamentChange](&c)
	if tc == nil {
		return
	}
	for _, e := range tc.Entries {
		if e.Withdrawn() {
			if err := settleWithdrawals(s, ctx); err != nil {
				s.Log.Error("withdrawal not settled; the scheduler tries again", "err", err)
			}
			return
		}
	}
}

// opponentSide is the other side's name.
func opponentSide(side string) string {
	if side == "attackers" {
		return "defenders"
	}
	return "attackers"
}
