package opponent

import (
	"errors"
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/search"
	"github.com/taflmail/taflmail/server/internal/gameclock"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// One mail per move against the engine (issue 22 §5, docs/engine.md).
// A player's move against the engine used to bring two mails the same
// second: "engine to move; you will hear from me when they have moved",
// then the engine's ply. Now the reply that leaves the engine to move is
// committed with the move as always, so that nothing is lost whenever the
// daemon stops, but held in the outbox for Options.EngineReplyHold
// (archive.OutboxMail.NextAttempt) and marked as waiting for the engine's
// timer (HeldFor, the timer's key) with its text (Carry, the reply's
// sections but the "engine to move" line). When the engine's reply is
// committed while that mail is still pending and claimed by no sender,
// the engine's mail repeats the held text, answers in the thread of the
// player's mail, and takes the held mail's place in the same transaction
// (archive.Change.Replace): one mail with both plies and the board after
// both. When the engine takes longer (a level that thinks long, a queue
// of turns, a failed search), the held mail goes out when its time is up
// and the engine's ply follows in a mail of its own, as before. A level
// whose think time is at least the hold is not held at all.

// engineHold returns the key of the engine timer the mail of note n
// waits for (engineTaskOf) and the text the engine's reply then repeats;
// "" when the mail waits for nothing. It waits when it goes to the
// engine's opponent about a running game against the engine that the
// session changed and that leaves the engine to move, at a level whose
// think time (LevelThink) is shorter than Options.EngineReplyHold. The
// text is n's sections but the one saying whose move it is.
func engineHold(ss *referee.Session, n *referee.Note) (key, carry string) {
	t, hold := n.Game, ss.Server.Opts.EngineReplyHold
	if hold <= 0 || t == nil || !t.Changed || t.Game.Status != archive.Active || !referee.EngineToMove(t) || n.To != referee.OpponentOf(t.Game, referee.EngineAddress) {
		return "", ""
	}
	level := search.Level(t.Game.EngineLevel)
	if !level.Valid() || LevelThink(ss.Server, level) >= hold {
		return "", ""
	}
	st, err := gameclock.State(t)
	if err != nil {
		return "", ""
	}
	task, ok := engineTaskOf(t, st, false)
	if !ok || task.draw {
		return "", ""
	}
	status := referee.StatusText(n.Lang, t, n.To)
	var kept []string
	for _, s := range n.Sections {
		if s != status {
			kept = append(kept, strings.TrimRight(s, "\n"))
		}
	}
	return task.key, strings.Join(kept, "\n\n")
}

// takeHeld looks for the reply held for the engine's timer key in t
// (engineHold) and, when it is still pending and claimed by no sender,
// starts the engine's mail to the player with its text and returns its
// id for archive.Change.Replace; nil when there is none to take the
// place of (sent, being sent, or never held). Only a failed read is an
// error. If a sender claims the mail before the commit, the commit fails
// with archive.ErrConflict and the reply is decided again.
func takeHeld(ss *referee.Session, t *referee.Table, key string) ([]int64, error) {
	held, err := ss.Server.EnginePort().HeldOutbox(ss.Ctx, t.Game.ID, key)
	if errors.Is(err, archive.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if held.ClaimedBy != "" {
		return nil, nil
	}
	human := referee.OpponentOf(t.Game, referee.EngineAddress)
	n := ss.NoteFor(human, ss.LangOf(human), t)
	n.Game = t
	n.Replaces = &held
	if held.Carry != "" {
		ss.AddSection(n, held.Carry)
	}
	return []int64{held.ID}, nil
}
