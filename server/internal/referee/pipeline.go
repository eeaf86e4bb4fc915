package referee

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
)

// CauseKind is what made the referee act (cause).
type CauseKind int

const (
	CauseMail          CauseKind = iota // a player's mail (HandleMail)
	CauseTimer                          // a due reminder, deadline or invitation expiry (gameclock's clock_timers.go)
	CauseEngine                         // the engine's turn, its search done (internal/opponent)
	CauseDigest                         // a player's daily digest falling due (digest.go)
	CauseUndeliverable                  // an invitation the outbox gave up on (invitations.go)
	CauseStart                          // games started without a challenge, a tournament's start (start.go, tournament_start.go)
	CauseOwn                            // the referee's own change: the director's commands, a cancelled event, a withdrawal's games
)

// Cause is what made the referee act: one session decides it. Its seed
// is the input of the replies' deterministic Message-IDs (msgid.Reply
// and its kin, server/internal/msgid), so that deciding the same cause again after a
// crash writes the same mails, which the outbox sends once: for a mail
// its Message-ID, for the referee's own causes a string made of what
// they act on (TimerCause, DigestCause, …), never changed once shipped.
type Cause struct {
	Kind CauseKind // what made the referee act: a mail, a timer, …
	// Seed seeds the Message-IDs of the cause's mails (see above).
	Seed string
	// From is the lower-case sender of a mail, "" for every other cause.
	From string
	// At is when the cause acts; zero means the instant its session
	// starts (Options.Now), taken again at each attempt of transact.
	At time.Time
	// Mail is the mail of a CauseMail, nil for every other cause: what
	// reads the mail's text, subject or thread checks for nil.
	Mail *mailer.Message
}

// MailCause is the cause of mail m.
func MailCause(m *mailer.Message) Cause {
	return Cause{Kind: CauseMail, Seed: m.MessageID, From: strings.ToLower(m.From), Mail: m}
}

// TimerCause is the cause of due timer tm acted on at at.
func TimerCause(tm archive.Timer, at time.Time) Cause {
	return Cause{Kind: CauseTimer, Seed: timerSeed(tm), At: at}
}

// EngineCause is the cause of the engine's reply to its timer tm: the
// timer's seed, so a reply decided again writes the same mails.
func EngineCause(tm archive.Timer) Cause {
	return Cause{Kind: CauseEngine, Seed: timerSeed(tm)}
}

// timerSeed is the seed of the mails timer tm causes.
func timerSeed(tm archive.Timer) string { return "timer\x00" + tm.GameID + "\x00" + tm.Key }

// DigestCause is the cause of the digest of addr due at due, sent at at.
func DigestCause(addr string, due, at time.Time) Cause {
	return Cause{Kind: CauseDigest, Seed: "digest\x00" + addr + "\x00" + due.UTC().Format(time.RFC3339), At: at}
}

// UndeliverableCause is the cause of ending the invitation that outbox
// mail m failed to deliver.
func UndeliverableCause(m archive.OutboxMail) Cause {
	return Cause{Kind: CauseUndeliverable, Seed: fmt.Sprintf("undeliverable\x00%s\x00%d", m.GameID, m.ID)}
}

// StartCause is the cause of starting games at at, seeded with seed
// ("start\x00" and the game's or the tournament's id).
func StartCause(seed string, at time.Time) Cause {
	return Cause{Kind: CauseStart, Seed: seed, At: at}
}

// OwnCause is the cause of a change of the referee's own (Server.change),
// seeded with seed.
func OwnCause(seed string) Cause {
	return Cause{Kind: CauseOwn, Seed: seed}
}

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
