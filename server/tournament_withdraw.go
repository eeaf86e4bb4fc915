package server

import (
	"context"
	"errors"
	"fmt"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/tournament"
)

// WithdrawPlayer removes a player from a tournament, as its director
// (`taflmail tournament withdraw`) or, through withdrawFrom, the player's
// confirmed mail does (Decision T3): before the start the entry is only
// marked withdrawn; in a running event a player who finished fewer than
// half of their games has all of them annulled and their running games
// end without a result, otherwise their running games are lost. Both
// players of every game ended are told, the standings and ratings follow
// as after any game, and the event finishes when that was its last game.
// All of it is one archive change without a mail.
//
// Errors: ErrNoTournament, ErrNotEntered (not a player, or withdrawn
// already), ErrTournamentState (the event is over or cancelled), archive
// errors.
func (s *Server) WithdrawPlayer(ctx context.Context, id, player string) (tournament.Withdrawal, error) {
	var w tournament.Withdrawal
	err := s.change(ctx, "withdraw\x00"+id+"\x00"+player, func(ss *session) error {
		ev, err := ss.event(id)
		var r *refusal
		if errors.As(err, &r) {
			return fmt.Errorf("%w: %q", ErrNoTournament, id)
		}
		if err != nil {
			return err
		}
		w, err = ss.withdraw(ev, player)
		return err
	})
	return w, err
}

// withdraw applies Decision T3 to player leaving ev now (see
// WithdrawPlayer) within the session, and returns what it did.
func (ss *session) withdraw(ev *event, player string) (tournament.Withdrawal, error) {
	e, ok := ev.entry(player)
	if !ok || e.Withdrawn() {
		return tournament.Withdrawal{}, fmt.Errorf("%w: %s in %s", ErrNotEntered, player, ev.t.ID)
	}
	entry := *e
	entry.WithdrawnAt = ss.now
	switch ev.t.Status {
	case archive.TournamentCreated:
		ss.setEntry(ev, entry)
		return tournament.Withdrawal{Player: player}, nil
	case archive.TournamentRunning:
	default:
		return tournament.Withdrawal{}, fmt.Errorf("%w: %s is %s", ErrTournamentState, ev.t.ID, ev.t.Status)
	}
	var tgames []tournament.Game
	var agames []*archive.Game
	for _, g := range ev.games {
		if g.Event == nil || g.Event.Pairing.Section != entry.Section {
			continue
		}
		l := ss.live(g)
		tgames = append(tgames, tournament.Game{Attackers: l.Attackers, Defenders: l.Defenders, Result: gameResult(l)})
		agames = append(agames, g)
	}
	w, err := tournament.Withdraw(tgames, player)
	if err != nil {
		return tournament.Withdrawal{}, fmt.Errorf("server: withdrawing %s from %s: %w", player, ev.t.ID, err)
	}
	entry.Annulled = w.Annulled
	ss.setEntry(ev, entry)
	ev.write = true
	for _, i := range w.Unfinished {
		if ss.live(agames[i]).Status != archive.Active {
			continue // annulled with an earlier withdrawal
		}
		t, err := ss.table(agames[i].ID)
		if err != nil {
			return tournament.Withdrawal{}, err
		}
		if lost, err := ss.lostOnTime(t); err != nil {
			return tournament.Withdrawal{}, err
		} else if lost {
			continue // lost on time before the withdrawal
		}
		t.g.Status, t.g.EndedAt, t.g.DrawOfferBy = archive.Finished, ss.now, ""
		if w.Annulled {
			t.g.Result, t.g.Reason = "", "annulled"
		} else {
			t.g.Result, t.g.Reason = opponentSide(sideOf(t.g, player)), "withdrawal"
		}
		t.changed = true
		key := "withdraw.told.lost"
		if w.Annulled {
			key = "withdraw.told.annulled"
		}
		for _, addr := range []string{t.g.Attackers, t.g.Defenders} {
			ss.tell(addr, t, func(lang string) string { return tr(lang, key, player, ev.t.Name) })
		}
		ss.showPosition(t)
	}
	return w, nil
}

// opponentSide is the other side's name.
func opponentSide(side string) string {
	if side == "attackers" {
		return "defenders"
	}
	return "attackers"
}
