package tournaments

import (
	"errors"
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/referee"
)

func init() {
	referee.Handle("join", join)
	referee.HelpLine(85, "help.join")
}

// join answers "join ID" ("anmelden"), in two steps, because a mail's
// From can be forged and an entry commits the address to games it loses
// on time when it does not play (docs/security.md, "Tournament
// entries"). "join ID" enters nobody: it keeps a request
// (archive.PendingEntry) with a key of its own and mails the address the
// line that confirms it, "join ID confirm KEY"; a repeated request mails
// the same key, so a forger who repeats it cannot void the one the player
// holds. Only that line, from that address, with that key, enters the
// player, while the event still takes entries (until the end of its
// closing day), and has fewer than Options.MaxTournamentPlayers
// players. The entry gets a key of its own, which a withdrawal needs. Entering writes the tournament's row, so an entry and the
// event's start never both commit on what the other changed. A player
// who withdrew before the start may join again.
func join(ss *referee.Session, c *grammar.JoinCommand) error {
	ev, err := loadEvent(ss, strings.ToLower(c.Tournament.Text))
	if err != nil {
		return err
	}
	t := ev.t
	switch {
	case t.Status != archive.TournamentCreated:
		return ss.Refuse("err.join.started", t.Name)
	case !t.OpenEntry:
		return ss.Refuse("err.join.invitation", t.Name)
	case !entryOpen(t, ss.Now):
		return ss.Refuse("err.join.closed", t.Name, catalog.Day(ss.Lang, t.EntryCloses))
	}
	if e, ok := ev.entry(ss.From); ok && !e.Withdrawn() {
		return ss.Refuse("err.join.twice", t.Name, t.ID)
	}
	seq, others := 0, 0
	for _, e := range ev.entries {
		seq = max(seq, e.Seq)
		if !e.Withdrawn() && e.Player != ss.From {
			others++
		}
	}
	if most := ss.Server.Opts.MaxTournamentPlayers; others >= most {
		// whatever is entered must start (issue 18 §4): an entry beyond
		// the most players is refused, at the request and at its
		// confirmation
		return ss.Refusen("err.join.full", most, t.Name, most)
	}
	p, found, err := pendingEntry(ss, t.ID)
	if err != nil {
		return err
	}
	if c.Key == nil {
		if err := ss.BlockedRequest("join " + t.ID); err != nil {
			return err // no request to confirm to an address that wrote "block"
		}
		if !found {
			if p.Key, err = referee.NewToken(ss.Server.Opts.Rand); err != nil {
				return err
			}
			p = archive.PendingEntry{TournamentID: t.ID, Player: ss.From, Key: p.Key, AskedAt: ss.Now}
			tst := tourneyOf(ss)
			tst.pending = append(tst.pending, p)
		}
		ss.Say(nil, referee.Tr(ss.Lang, "join.ask", t.Name, catalog.Day(ss.Lang, t.StartDate), catalog.Day(ss.Lang, t.EntryCloses))+"\n\n"+
			eventTerms(ss.Server, ss.Lang, t)+"\n\n"+referee.Tr(ss.Lang, "join.confirm", t.ID, p.Key))
		return nil
	}
	if !found || !strings.EqualFold(c.Key.Text, p.Key) {
		return ss.Refuse("err.join.key", t.Name, t.ID)
	}
	key, err := referee.NewToken(ss.Server.Opts.Rand)
	if err != nil {
		return err
	}
	n := others + 1
	setEntry(ss, ev, archive.Entry{TournamentID: t.ID, Player: ss.From, Key: key, Seq: seq + 1, JoinedAt: ss.Now})
	ev.write = true
	ss.Say(nil, referee.Trn(ss.Lang, "join.done", n, t.Name, catalog.Day(ss.Lang, t.StartDate), catalog.Day(ss.Lang, t.EntryCloses), n)+"\n\n"+
		eventTerms(ss.Server, ss.Lang, t)+"\n\n"+referee.Tr(ss.Lang, "join.withdraw", t.ID))
	return nil
}

// pendingEntry returns the sender's request to enter tournament id, kept
// or made by this mail, and whether there is one.
func pendingEntry(ss *referee.Session, id string) (archive.PendingEntry, bool, error) {
	for _, p := range tourneyOf(ss).pending {
		if p.TournamentID == id && p.Player == ss.From {
			return p, true, nil
		}
	}
	p, err := ss.Server.TournamentPort().PendingEntry(ss.Ctx, id, ss.From)
	if errors.Is(err, archive.ErrNotFound) {
		return archive.PendingEntry{}, false, nil
	}
	return p, err == nil, err
}

// joinBudget is the reply budget of a keyless mail with the "join" line c
// (triage.go): a confirmation when its key is the one of the sender's
// pending entry, a command when the tournament exists, else junk. It
// only reads the archive.
func joinBudget(ss *referee.Session, c *grammar.JoinCommand) (archive.MailBudget, error) {
	id := strings.ToLower(c.Tournament.Text)
	if c.Key != nil {
		p, err := ss.Server.TournamentPort().PendingEntry(ss.Ctx, id, ss.From)
		if err != nil {
			return archive.JunkBudget, referee.IgnoreNotFound(err)
		}
		if strings.EqualFold(c.Key.Text, p.Key) {
			return archive.ConfirmationBudget, nil
		}
		return archive.JunkBudget, nil
	}
	if _, err := ss.Server.TournamentPort().Tournament(ss.Ctx, id); err != nil {
		return archive.JunkBudget, referee.IgnoreNotFound(err)
	}
	return archive.CommandBudget, nil
}
