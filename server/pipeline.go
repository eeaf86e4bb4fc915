package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
)

// causeKind is what made the referee act (cause).
type causeKind int

const (
	causeMail          causeKind = iota // a player's mail (HandleMail)
	causeTimer                          // a due reminder, deadline or invitation expiry (clock_timers.go)
	causeEngine                         // the engine's turn, its search done (engine.go)
	causeDigest                         // a player's daily digest falling due (digest.go)
	causeUndeliverable                  // an invitation the outbox gave up on (invitations.go)
	causeStart                          // games started without a challenge, a tournament's start (start.go, tournament_start.go)
	causeOwn                            // the referee's own change: the director's commands, a cancelled event, a withdrawal's games
)

// cause is what made the referee act: one session decides it. Its seed
// is the input of the replies' deterministic Message-IDs (msgid.Reply
// and its kin, server/internal/msgid), so that deciding the same cause again after a
// crash writes the same mails, which the outbox sends once: for a mail
// its Message-ID, for the referee's own causes a string made of what
// they act on (timerCause, digestCause, …), never changed once shipped.
type cause struct {
	kind causeKind
	seed string
	// from is the lower-case sender of a mail, "" for every other cause.
	from string
	// at is when the cause acts; zero means the instant its session
	// starts (Options.Now), taken again at each attempt of transact.
	at time.Time
	// mail is the mail of a causeMail, nil for every other cause: what
	// reads the mail's text, subject or thread checks for nil.
	mail *mailer.Message
}

// mailCause is the cause of mail m.
func mailCause(m *mailer.Message) cause {
	return cause{kind: causeMail, seed: m.MessageID, from: strings.ToLower(m.From), mail: m}
}

// timerCause is the cause of due timer tm acted on at at.
func timerCause(tm archive.Timer, at time.Time) cause {
	return cause{kind: causeTimer, seed: timerSeed(tm), at: at}
}

// engineCause is the cause of the engine's reply to its timer tm: the
// timer's seed, so a reply decided again writes the same mails.
func engineCause(tm archive.Timer) cause {
	return cause{kind: causeEngine, seed: timerSeed(tm)}
}

// timerSeed is the seed of the mails timer tm causes.
func timerSeed(tm archive.Timer) string { return "timer\x00" + tm.GameID + "\x00" + tm.Key }

// digestCause is the cause of the digest of addr due at due, sent at at.
func digestCause(addr string, due, at time.Time) cause {
	return cause{kind: causeDigest, seed: "digest\x00" + addr + "\x00" + due.UTC().Format(time.RFC3339), at: at}
}

// undeliverableCause is the cause of ending the invitation that outbox
// mail m failed to deliver.
func undeliverableCause(m archive.OutboxMail) cause {
	return cause{kind: causeUndeliverable, seed: fmt.Sprintf("undeliverable\x00%s\x00%d", m.GameID, m.ID)}
}

// startCause is the cause of starting games at at, seeded with seed
// ("start\x00" and the game's or the tournament's id).
func startCause(seed string, at time.Time) cause {
	return cause{kind: causeStart, seed: seed, at: at}
}

// ownCause is the cause of a change of the referee's own (Server.change),
// seeded with seed.
func ownCause(seed string) cause {
	return cause{kind: causeOwn, seed: seed}
}

// verdict says what transact does with the change a cause's decide step
// made.
type verdict int

const (
	// commitReplies composes the session's replies into the change's
	// outbox (after what decide put there), collects what the session
	// changed and commits.
	commitReplies verdict = iota
	// commitCollected collects what the session changed and commits: the
	// decide step wrote the change's outbox itself (the digest, which
	// sends no notes).
	commitCollected
	// commitAsIs commits the change as decide left it: nothing composed,
	// checked or collected (a mail not answered; StartGames's change,
	// built from a session per game).
	commitAsIs
	// commitBatch writes through one archive batch (steps.batch) what
	// is too large for one change, instead of committing the change: a
	// tournament's start, thousands of games with their mails.
	commitBatch
	// commitNothing commits nothing: the cause found nothing (left) to do.
	commitNothing
)

// steps are a cause's parts in transact; decide is required.
type steps struct {
	// decide decides the cause in a fresh session ss, writing into ch
	// what collect does not take from the session. It runs again, in a
	// new session, when the commit meets a conflict.
	decide func(ss *session, ch *archive.Change) (verdict, error)
	// decided, when set, sees each change with decide's verdict before
	// it is committed (composed and collected when the verdict says so):
	// the mail's debug log (Server.logDecision) and what its log line
	// names (processedAbout), which Commit's versions would change.
	decided func(ss *session, ch archive.Change, v verdict)
	// batch writes the decision of a commitBatch verdict in one
	// archive transaction (archive.Store.WriteBatch).
	batch func(b *archive.Batch) error
	// committed, when set, is called once the change is committed,
	// before the records of its finished games are written: the
	// caller's log line.
	committed func(ch archive.Change)
}

// maxAttempts is how often transact decides a cause when its commit
// meets archive.ErrConflict (a game, player or tournament it writes
// changed meanwhile, or a new game's id was taken).
const maxAttempts = 3

// transact is the one pipeline every cause goes through: a session of
// cause c, its decide step, the replies composed (session.compose), an
// archive read failure turned into an error (noteReadErr), what the
// session changed collected (collect, with its modules), and the commit in
// one archive transaction (Commit, or WriteBatch for commitBatch),
// decided again from a fresh session when the commit meets
// archive.ErrConflict (maxAttempts in all). Once committed,
// the records of the games it finished are written (writeRecords) and,
// for a mail, the modules act on its durable change (afterCommit: the
// games of a player who withdrew by it end; the referee's own changes
// settle theirs themselves).
//
// It reports whether the change was committed now: false when decide
// found nothing to commit (commitNothing) or the change had been
// committed before (archive.ErrDuplicate: the mail was processed, the
// timer fired or the digest sent, by another process or an earlier
// run). An error means nothing was committed: decide's, the archive's,
// or the last conflict.
func (s *Server) transact(ctx context.Context, c cause, st steps) (bool, error) {
	for attempt := 1; ; attempt++ {
		change, finished, v, err := s.decideCause(ctx, c, st)
		if err != nil || v == commitNothing {
			return false, err
		}
		if v == commitBatch {
			err = s.recordPort().WriteBatch(ctx, st.batch)
		} else {
			err = s.recordPort().Commit(ctx, change)
		}
		switch {
		case err == nil:
			if st.committed != nil {
				st.committed(change)
			}
			s.writeRecords(finished)
			if c.kind == causeMail {
				s.afterCommit(ctx, change) // the modules' commitWatchers: a player who withdrew by this mail, their games end now (module.go)
			}
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

// decideCause runs one attempt of transact up to the commit: it returns
// the change to commit, the tables of the games it finishes and decide's
// verdict.
func (s *Server) decideCause(ctx context.Context, c cause, st steps) (archive.Change, []*table, verdict, error) {
	ss := s.newSession(ctx, c)
	var change archive.Change
	v, err := st.decide(ss, &change)
	if err != nil {
		return archive.Change{}, nil, commitNothing, err
	}
	if v == commitNothing {
		return change, nil, v, nil
	}
	if v == commitAsIs || v == commitBatch {
		if st.decided != nil {
			st.decided(ss, change, v)
		}
		return change, nil, v, nil
	}
	if v == commitReplies {
		out, err := ss.compose()
		if err != nil {
			return archive.Change{}, nil, commitNothing, err
		}
		change.Outbox = append(change.Outbox, out...)
	}
	if ss.readErr != nil {
		return archive.Change{}, nil, commitNothing, ss.readErr
	}
	finished := ss.collect(&change)
	if st.decided != nil {
		st.decided(ss, change, v)
	}
	return change, finished, v, nil
}
