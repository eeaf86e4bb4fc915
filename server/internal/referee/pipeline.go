package referee

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/taflmail/taflmail/archive"
)

// Verdict says what Transact does with the change a cause's decide step
// made.
type Verdict int

const (
	// CommitReplies composes the session's replies into the change's
	// outbox (after what decide put there), collects what the session
	// changed and commits.
	CommitReplies Verdict = iota
	// CommitCollected collects what the session changed and commits: the
	// decide step wrote the change's outbox itself (the digest, which
	// sends no notes).
	CommitCollected
	// CommitAsIs commits the change as decide left it: nothing composed,
	// checked or collected (a mail not answered; StartGames's change,
	// built from a session per game).
	CommitAsIs
	// CommitBatch writes through one archive batch (Steps.Batch) what
	// is too large for one change, instead of committing the change: a
	// tournament's start, thousands of games with their mails.
	CommitBatch
	// CommitNothing commits nothing: the cause found nothing (left) to do.
	CommitNothing
)

// Steps are a cause's parts in Transact; Decide is required.
type Steps struct {
	// Decide decides the cause in a fresh session ss, writing into ch
	// what Session.Collect does not take from the session. It runs again, in a
	// new session, when the commit meets a conflict.
	Decide func(ss *Session, ch *archive.Change) (Verdict, error)
	// Decided, when set, sees each change with decide's verdict before
	// it is committed (composed and collected when the verdict says so):
	// the mail's debug log (Server.logDecision) and what its log line
	// names (processedAbout), which Commit's versions would change.
	Decided func(ss *Session, ch archive.Change, v Verdict)
	// Batch writes the decision of a CommitBatch verdict in one
	// archive transaction (archive.Store.WriteBatch).
	Batch func(b *archive.Batch) error
	// Committed, when set, is called once the change is committed,
	// before the records of its finished games are written: the
	// caller's log line.
	Committed func(ch archive.Change)
}

// maxAttempts is how often Transact decides a cause when its commit
// meets archive.ErrConflict (a game, player or tournament it writes
// changed meanwhile, or a new game's id was taken).
const maxAttempts = 3

// Transact is the one pipeline every cause goes through: a session of
// cause c, its decide step, the replies composed (Session.compose), an
// archive read failure turned into an error (NoteReadErr), what the
// session changed collected (Session.Collect, with its modules), and the commit in
// one archive transaction (Commit, or WriteBatch for CommitBatch),
// decided again from a fresh session when the commit meets
// archive.ErrConflict (maxAttempts in all). Once committed,
// the records of the games it finished are written (writeRecords) and,
// for a mail, the modules act on its durable change (AfterCommit: the
// games of a player who withdrew by it end; the referee's own changes
// settle theirs themselves).
//
// It reports whether the change was committed now: false when decide
// found nothing to commit (CommitNothing) or the change had been
// committed before (archive.ErrDuplicate: the mail was processed, the
// timer fired or the digest sent, by another process or an earlier
// run). An error means nothing was committed: decide's, the archive's,
// or the last conflict.
func (s *Server) Transact(ctx context.Context, c Cause, st Steps) (bool, error) {
	for attempt := 1; ; attempt++ {
		change, finished, v, err := s.DecideCause(ctx, c, st)
		if err != nil || v == CommitNothing {
			return false, err
		}
		if v == CommitBatch {
			err = s.recordPort().WriteBatch(ctx, st.Batch)
		} else {
			err = s.recordPort().Commit(ctx, change)
		}
		switch {
		case err == nil:
			s.settleCommitted(ctx, c, st, change, finished)
			return true, nil
		case errors.Is(err, archive.ErrDuplicate):
			return false, nil
		case errors.Is(err, archive.ErrConflict) && attempt < maxAttempts:
			continue // it changed under us: decide again on the new state
		default:
			return false, err
		}
	}
}

// settleCommitted does what follows the commit of cause c's change:
// the committed hook of st (the cause's log line), the records of the
// finished games, and for a mail the modules' CommitWatchers (a player
// who withdrew by this mail: their games end now, module.go).
func (s *Server) settleCommitted(ctx context.Context, c Cause, st Steps, change archive.Change, finished []*Table) {
	if st.Committed != nil {
		st.Committed(change)
	}
	s.writeRecords(finished)
	if c.Kind == CauseMail {
		s.AfterCommit(ctx, change)
	}
}

// DecideCause runs one attempt of Transact up to the commit: it returns
// the change to commit, the tables of the games it finishes and decide's
// verdict.
func (s *Server) DecideCause(ctx context.Context, c Cause, st Steps) (archive.Change, []*Table, Verdict, error) {
	ss := s.NewSession(ctx, c)
	var change archive.Change
	v, err := st.Decide(ss, &change)
	if err != nil {
		return archive.Change{}, nil, CommitNothing, err
	}
	if v == CommitNothing {
		return change, nil, v, nil
	}
	if v == CommitAsIs || v == CommitBatch {
		if st.Decided != nil {
			st.Decided(ss, change, v)
		}
		return change, nil, v, nil
	}
	if v == CommitReplies {
		out, err := ss.compose()
		if err != nil {
			return archive.Change{}, nil, CommitNothing, err
		}
		change.Outbox = append(change.Outbox, out...)
	}
	if ss.ReadErr != nil {
		return archive.Change{}, nil, CommitNothing, ss.ReadErr
	}
	finished := ss.Collect(&change)
	if st.Decided != nil {
		st.Decided(ss, change, v)
	}
	return change, finished, v, nil
}

// Collect adds to change what the session changed: the games, their new
// plies, the player rows (those only when the mail was applied or carried
// the sender's key: a refused forged mail changes nothing), then what
// each module collects (module.go: the public name chosen, spectators,
// requests, tournaments, and last the clocks' leave, end times and
// timers). It returns the tables
// of the games that finished.
func (ss *Session) Collect(change *archive.Change) []*Table {
	var finished []*Table
	for _, t := range ss.Tables {
		if !t.Changed {
			continue
		}
		change.Games = append(change.Games, t.Game)
		if len(t.NewPlies) > 0 {
			if change.NewPlies == nil {
				change.NewPlies = map[string][]archive.Ply{}
			}
			change.NewPlies[t.Game.ID] = t.NewPlies
		}
		if t.Game.Status == archive.Finished {
			finished = append(finished, t)
		}
	}
	if ss.Did || ss.Auth != nil {
		for _, p := range ss.Players {
			change.Players = append(change.Players, *p)
		}
	}
	ss.CollectModules(change) // what each feature changed, the clock's timers last (module.go)
	return finished
}

// writeRecords writes the native record file of each finished game.
// Failure is logged: the archive holds the game, and `taflmail export`
// writes the record again.
func (s *Server) writeRecords(ts []*Table) {
	if s.Opts.RecordsDir == "" {
		return
	}
	for _, t := range ts {
		if err := os.MkdirAll(s.Opts.RecordsDir, 0o755); err != nil {
			s.Log.Error("writing record failed", "game", t.Game.ID, "err", err)
			return
		}
		rec, err := t.Record()
		if err != nil {
			s.Log.Error("writing record failed", "game", t.Game.ID, "err", err)
			continue
		}
		path := filepath.Join(s.Opts.RecordsDir, t.Game.ID+".tafl")
		if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
			s.Log.Error("writing record failed", "game", t.Game.ID, "err", err)
		}
	}
}
