package tournaments

import (
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/tournament"
)

func init() {
	referee.Handle("withdraw", withdrawCommand)
	referee.HelpLine(86, "help.withdraw")
}

// withdrawCommand answers "withdraw ID" ("abmelden"): a withdrawal is
// irreversible (Decision T3), so without a key the reply only says what
// it would do (before the start: the entry is dropped; in a running event:
// every game annulled, or the running games lost, depending on how many
// the player finished) and asks the player to confirm with "withdraw ID
// confirm KEY", the entry's key. That reply goes to the sender's address,
// so only the player can confirm. With the right key the player
// withdraws (session.withdraw); the referee ends their running games
// right after this mail's change (settleWithdrawals).
func withdrawCommand(ss *referee.Session, c *grammar.WithdrawCommand) error {
	id := strings.ToLower(c.Tournament.Text)
	ev, err := loadEvent(ss, id)
	if err != nil {
		return err
	}
	e, ok := ev.entry(ss.From)
	if !ok || e.Withdrawn() {
		return ss.Refuse("err.withdraw.notin", ev.t.Name)
	}
	if ev.t.Status != archive.TournamentCreated && ev.t.Status != archive.TournamentRunning {
		return ss.Refuse("err.withdraw.over", ev.t.Name)
	}
	if c.Key == nil {
		ss.Say(nil, withdrawWhat(ss, ev, e)+"\n\n"+referee.Tr(ss.Lang, "withdraw.confirm", ev.t.ID, e.Key))
		return nil
	}
	if !strings.EqualFold(c.Key.Text, e.Key) {
		return ss.Refuse("err.withdraw.key", ev.t.ID)
	}
	w, err := withdraw(ss, ev, ss.From)
	if err != nil {
		return err
	}
	switch {
	case ev.t.Status == archive.TournamentCreated:
		ss.Say(nil, referee.Tr(ss.Lang, "withdraw.done.entry", ev.t.Name))
	case w.Annulled:
		ss.Say(nil, referee.Tr(ss.Lang, "withdraw.done.annulled", ev.t.Name, w.Finished, referee.Counted(ss.Lang, "games", w.Games)))
	default:
		ss.Say(nil, referee.Tr(ss.Lang, "withdraw.done.lost", ev.t.Name, w.Finished, referee.Counted(ss.Lang, "games", w.Games)))
	}
	return nil
}

// withdrawWhat says what withdrawing from ev would do to the player of e
// now (Decision T3).
func withdrawWhat(ss *referee.Session, ev *event, e *archive.Entry) string {
	if ev.t.Status == archive.TournamentCreated {
		return referee.Tr(ss.Lang, "withdraw.what.entry", ev.t.Name)
	}
	w, err := tournament.Withdraw(sectionGames(ss, ev, e.Section), e.Player)
	if err != nil || w.Annulled {
		return referee.Tr(ss.Lang, "withdraw.what.annulled", ev.t.Name, w.Finished, referee.Counted(ss.Lang, "games", w.Games))
	}
	return referee.Tr(ss.Lang, "withdraw.what.lost", ev.t.Name, w.Finished, referee.Counted(ss.Lang, "games", w.Games))
}

// withdrawBudget is the reply budget of a keyless mail with the
// "withdraw" line c (triage.go): for a sender entered in the tournament
// and not withdrawn, a command, or a confirmation with the key of their
// entry; else junk. It only reads the archive.
func withdrawBudget(ss *referee.Session, c *grammar.WithdrawCommand) (archive.MailBudget, error) {
	es, err := ss.Server.TournamentPort().Entries(ss.Ctx, strings.ToLower(c.Tournament.Text))
	if err != nil {
		return archive.JunkBudget, referee.IgnoreNotFound(err)
	}
	for _, e := range es {
		if e.Player != ss.From || e.Withdrawn() {
			continue
		}
		switch {
		case c.Key == nil:
			return archive.CommandBudget, nil
		case strings.EqualFold(c.Key.Text, e.Key):
			return archive.ConfirmationBudget, nil
		}
	}
	return archive.JunkBudget, nil
}
