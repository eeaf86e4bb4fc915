package referee

import (
	"context"
	"errors"
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
)

// Poll fetches the mails after the remembered UID (all of them when rescan
// is set or UIDVALIDITY changed) and handles them in UID order, in chunks
// of up to pollChunk (handleChunk): decide each and commit the chunk's
// decisions, send the outbox, mark the chunk's mails done. It stops at the first
// mail that cannot be committed, leaving it unread for the next poll.
func (s *Server) Poll(ctx context.Context, rescan bool) error {
	start := s.Opts.Now() // every mail that arrived before is fetched below
	validity, last, err := s.recordPort().MailboxState(ctx, s.Opts.Mailbox)
	if err != nil && !errors.Is(err, archive.ErrNotFound) {
		return err
	}
	if rescan {
		last = 0
	}
	msgs, current, err := s.Opts.Inbox.Fetch(ctx, validity, last, s.Opts.MaxMailBytes)
	if err != nil {
		return err
	}
	if current != validity && validity != 0 {
		s.Log.Warn("UIDVALIDITY changed: rescanning the mailbox", "old", validity, "new", current)
	}
	for len(msgs) > 0 {
		n := min(len(msgs), pollChunk)
		if err := s.handleChunk(ctx, msgs[:n]); err != nil {
			return err
		}
		msgs = msgs[n:]
	}
	s.polled.Store(start.UnixNano()) // the inbox is read up to start (Decision C4)
	return nil
}

// pollChunk is how many fetched mails Poll decides before it sends
// their replies and marks them done: the decisions that cannot meet are
// then committed in one transaction (HandleMails), the outbox's
// transactions are shared by the chunk's mails (FlushOutbox claims and
// records a round of replies in one transaction each), and so are the
// IMAP commands that mark them done (markDone), while the first
// mail's replies wait for at most pollChunk-1 decisions.
const pollChunk = 20

// handleChunk handles the mails ms in order: each is decided, and the
// decisions committed (HandleMails: those that cannot meet in one
// transaction together, the others each alone after it, a later mail
// seeing what an earlier one about its game or sender wrote); then the
// outbox is sent, with the replies of all of them (FlushOutbox); then
// the handled mails are marked done (markDone: all in one DoneAll when
// the Inbox is a BatchInbox, else each by Done, in order). A mail that
// cannot be committed ends the chunk: those before it are still sent and
// marked done, it and those after it stay in the inbox for the next
// poll, and its error is returned. So a mail is marked done only once
// its decision is committed and its replies were handed to SMTP,
// deferred or failed, each recorded in the archive.
func (s *Server) handleChunk(ctx context.Context, ms []*mailer.Message) error {
	handled, handleErr := s.HandleMails(ctx, ms)
	if handled > 0 {
		s.FlushOutbox(ctx)
	}
	if err := s.markDone(ctx, ms[:handled]); err != nil {
		return err
	}
	return handleErr
}

// markDone marks the handled mails ms done: with one DoneAll for all of
// them when the Inbox is a BatchInbox (two IMAP round trips for the
// chunk), else with Done for each, in order, stopping at the first
// failure. Its error is the Inbox's. After a failed DoneAll any of ms
// may still be in the inbox (BatchInbox); after a failed Done the mails
// before it are done and it and those after it are not. Either way the
// error ends the poll, Run's next poll reads the whole inbox again
// (rescan), and each mail left there is recognised by its Message-ID as
// processed (HandleMail, decideInChunk) and only marked done: no
// decision is applied twice and no reply is queued again.
func (s *Server) markDone(ctx context.Context, ms []*mailer.Message) error {
	if len(ms) == 0 {
		return nil
	}
	if b, ok := s.Opts.Inbox.(BatchInbox); ok {
		uids := make([]uint32, len(ms))
		for i, m := range ms {
			uids[i] = m.UID
		}
		return b.DoneAll(ctx, uids)
	}
	for _, m := range ms {
		if err := s.Opts.Inbox.Done(ctx, m.UID); err != nil {
			return err
		}
	}
	return nil
}

// ChunkCommitter is a Store that writes several changes in one
// transaction, a savepoint each (archive.Store.CommitEach): the
// per-change errors are archive.ErrConflict or archive.ErrDuplicate,
// that change rolled back alone; err means nothing was written. A Store
// without it commits a chunk's mails one by one.
type ChunkCommitter interface {
	CommitEach(ctx context.Context, cs []archive.Change) ([]error, error)
}

// chunkState is what HandleMails does with one mail of its chunk.
type chunkState int

const (
	chunkSkip   chunkState = iota // processed before, or nothing to commit: only marked done
	chunkShared                   // committed in the chunk's one transaction
	chunkAlone                    // decided again alone after it (HandleMail)
)

// chunkMail is one mail of HandleMails's chunk, with its decision.
type chunkMail struct {
	m        *mailer.Message
	state    chunkState
	steps    Steps
	change   archive.Change
	finished []*Table
}

// HandleMails handles the mails ms, in order, as HandleMail handles one,
// but commits the decisions of those that cannot meet in one
// transaction (sharedKeys) in one archive transaction, a savepoint each
// (ChunkCommitter): one fsync for them where each took one. Each mail is
// decided in its own session against what is committed, as two referee
// processes decide at once; then the shared ones are committed together;
// then, each in turn, the log line, the records of finished games and
// the modules' commit watchers of every committed mail; then the mails
// that may meet an earlier one of the chunk (its sender, a game or a
// player it reads or writes, or a decision that reads counts or ids the
// others could change: keyless mails, new games, feature writes other
// than a game's timers and takebacks) are decided again alone, in order,
// through HandleMail and its retries, so that each sees the earlier
// mails' writes. A shared mail whose savepoint meets
// archive.ErrConflict or archive.ErrDuplicate is rolled back and joins
// them; a failure of the whole transaction sends every shared mail
// there, decided again: nothing is lost, nothing applied twice
// (docs/architecture.md, "The mail loop's transactions").
//
// It returns how many of ms, from the first, are handled (committed now
// or before, or not to be committed) and the error of the one after them
// (a failed decision or commit), nil when all are. A mail after that one
// may be committed already; it stays in the inbox, and the next poll
// recognises it by its Message-ID.
func (s *Server) HandleMails(ctx context.Context, ms []*mailer.Message) (int, error) {
	cc, ok := s.Store.(ChunkCommitter)
	if !ok || len(ms) < 2 {
		for i, m := range ms {
			if err := s.HandleMail(ctx, m); err != nil {
				return i, err
			}
		}
		return len(ms), nil
	}
	mails := make([]chunkMail, 0, len(ms))
	seen := map[string]bool{} // the keys of the chunk's mails so far (sharedKeys)
	var stop error
	for _, m := range ms {
		cm, err := s.decideInChunk(ctx, m, seen)
		if err != nil {
			stop = err
			break
		}
		mails = append(mails, cm)
	}
	s.commitShared(ctx, cc, mails)
	for i, cm := range mails {
		if cm.state != chunkAlone {
			continue
		}
		if err := s.HandleMail(ctx, cm.m); err != nil {
			return i, err
		}
	}
	return len(mails), stop
}

// decideInChunk decides mail m of a chunk, against what is committed,
// and says whether its change may join the chunk's shared commit
// (chunkShared), must be decided again alone after it (chunkAlone), or
// needs no commit (chunkSkip: processed before, or nothing decided).
// seen holds the keys of the chunk's earlier mails; m's are added. A
// mail whose sender or game an earlier mail has, or that names no game
// (it carries no key), goes alone without being decided here. An error
// is a failed read or decision: nothing of m is written.
func (s *Server) decideInChunk(ctx context.Context, m *mailer.Message, seen map[string]bool) (chunkMail, error) {
	cm := chunkMail{m: m, state: chunkAlone}
	done, err := s.recordPort().Processed(ctx, m.MessageID, "")
	if err != nil {
		return cm, err
	}
	if done {
		s.Log.Info("mail already processed", "message_id", m.MessageID, "uid", m.UID)
		cm.state = chunkSkip
		return cm, nil
	}
	c := MailCause(m)
	ref := FindGame(m.Subject, m.InReplyTo, m.References)
	if ref.ID == "" {
		ref = findGameInText(m.Reply, m.Text)
	}
	pre := []string{"addr\x00" + c.From, "game\x00" + ref.ID}
	if ref.ID == "" || anySeen(seen, pre) {
		addSeen(seen, pre)
		return cm, nil // keyless, or after a mail it may meet: alone
	}
	cm.steps = s.mailSteps(ctx, m)
	var keys []string
	shareable := false
	decided := cm.steps.Decided
	cm.steps.Decided = func(ss *Session, change archive.Change, v Verdict) {
		decided(ss, change, v)
		keys, shareable = sharedKeys(ss, change, v)
	}
	change, finished, v, err := s.DecideCause(ctx, c, cm.steps)
	if err != nil {
		return cm, err
	}
	if v == CommitNothing {
		cm.state = chunkSkip
		return cm, nil
	}
	keys = append(keys, pre...)
	if shareable && !anySeen(seen, keys) {
		cm.state, cm.change, cm.finished = chunkShared, change, finished
	}
	addSeen(seen, keys)
	return cm, nil
}

// anySeen reports whether one of keys is in seen.
func anySeen(seen map[string]bool, keys []string) bool {
	for _, k := range keys {
		if seen[k] {
			return true
		}
	}
	return false
}

// addSeen adds keys to seen.
func addSeen(seen map[string]bool, keys []string) {
	for _, k := range keys {
		seen[k] = true
	}
}

// sharedKeys returns the keys of what the decision of session ss (its
// change and verdict) reads or writes that another mail of its chunk
// could also read or write: its sender, every game it read or writes,
// every player it writes or mails. shareable says whether the change
// may be committed in the chunk's shared transaction at all: only a
// keyed mail's answered decision (archive.NoBudget: no reply budget or
// cap per domain or for all senders counts it; its loop breaker and
// refusal caps count the sender's mails, a key) that starts no game (a
// new game's id and the engine's and a player's caps of running games
// are read, not written, by the others) and whose feature writes are
// only a game's timers, its fired timers and takebacks (a tournament's
// entries, public names, confirmations, digests, leave and spectators
// are counted or unique across players).
func sharedKeys(ss *Session, change archive.Change, v Verdict) (keys []string, shareable bool) {
	keys = []string{"addr\x00" + ss.From, "game\x00" + change.Mail.GameID}
	for id := range ss.Tables {
		keys = append(keys, "game\x00"+id)
	}
	for addr := range ss.Players {
		keys = append(keys, "addr\x00"+strings.ToLower(addr))
	}
	shareable = v == CommitReplies && ss.Auth != nil && change.Mail.Budget == archive.NoBudget
	for _, g := range change.Games {
		keys = append(keys, "game\x00"+g.ID)
		if g.Version == 0 {
			shareable = false
		}
	}
	for id := range change.NewPlies {
		keys = append(keys, "game\x00"+id)
	}
	for _, p := range change.Players {
		keys = append(keys, "addr\x00"+strings.ToLower(p.Address))
	}
	for _, o := range change.Outbox {
		for _, to := range o.To {
			keys = append(keys, "addr\x00"+strings.ToLower(to))
		}
	}
	for _, w := range change.Writes {
		switch w.(type) {
		case archive.TimerPlans, archive.FiredTimers, archive.TakeBacks:
		default:
			shareable = false
		}
	}
	return keys, shareable
}

// commitShared commits the changes of the chunk's shared mails in one
// transaction (one change alone through Commit) and then, for each
// committed one in order, what follows a commit (settleCommitted). A
// shared mail whose change met a conflict or a duplicate, or all of
// them when the transaction failed, become chunkAlone: decided again.
// A shared mail after the first mail that goes alone does not move the
// remembered mailbox position past that one.
func (s *Server) commitShared(ctx context.Context, cc ChunkCommitter, mails []chunkMail) {
	var idx []int
	var cs []archive.Change
	alone := false
	for i := range mails {
		switch mails[i].state {
		case chunkAlone:
			alone = true
		case chunkShared:
			if alone {
				mails[i].change.Mailbox = nil
			}
			idx, cs = append(idx, i), append(cs, mails[i].change)
		}
	}
	if len(cs) == 0 {
		return
	}
	var errs []error
	var err error
	if len(cs) == 1 {
		errs = []error{s.recordPort().Commit(ctx, cs[0])}
	} else {
		errs, err = cc.CommitEach(ctx, cs)
	}
	if err != nil {
		s.Log.Warn("committing a chunk of mails failed: deciding each again", "mails", len(cs), "err", err)
		for _, i := range idx {
			mails[i].state = chunkAlone
		}
		return
	}
	for k, i := range idx {
		cm := &mails[i]
		if errs[k] != nil {
			s.Log.Debug("mail of a chunk not committed with it: deciding it again", "message_id", cm.m.MessageID, "err", errs[k])
			cm.state = chunkAlone
			continue
		}
		s.settleCommitted(ctx, MailCause(cm.m), cm.steps, cs[k], cm.finished)
	}
}
