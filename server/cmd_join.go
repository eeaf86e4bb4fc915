package server

import (
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
)

func init() {
	handle("join", (*session).join)
	helpLine(85, "help.join")
}

// join answers "join ID" ("anmelden"): the sender enters a tournament
// that takes entries by mail, until the end of its closing day. The
// entry gets a key of its own, which only a withdrawal needs (it goes to
// the sender's address in the confirmation request, so a forged sender
// cannot withdraw anybody). Joining writes the tournament's row, so a
// join and the event's start never both commit on what the other
// changed. A player who withdrew before the start may join again.
func (ss *session) join(c *grammar.JoinCommand) error {
	ev, err := ss.event(strings.ToLower(c.Tournament.Text))
	if err != nil {
		return err
	}
	t := ev.t
	switch {
	case t.Status != archive.TournamentCreated:
		return ss.refuse("err.join.started", t.Name)
	case !t.OpenEntry:
		return ss.refuse("err.join.invitation", t.Name)
	case !entryOpen(t, ss.now):
		return ss.refuse("err.join.closed", t.Name, dayText(t.EntryCloses))
	}
	if e, ok := ev.entry(ss.from); ok && !e.Withdrawn() {
		return ss.refuse("err.join.twice", t.Name, t.ID)
	}
	key, err := newToken(ss.srv.opts.Rand)
	if err != nil {
		return err
	}
	seq, n := 0, 1
	for _, e := range ev.entries {
		seq = max(seq, e.Seq)
		if !e.Withdrawn() && e.Player != ss.from {
			n++
		}
	}
	ss.setEntry(ev, archive.Entry{TournamentID: t.ID, Player: ss.from, Key: key, Seq: seq + 1, JoinedAt: ss.now})
	ev.write = true
	ss.say(nil, tr(ss.lang, "join.done", t.Name, dayText(t.StartDate), dayText(t.EntryCloses), n)+"\n\n"+
		ss.srv.eventTerms(ss.lang, t)+"\n\n"+tr(ss.lang, "join.withdraw", t.ID))
	return nil
}
