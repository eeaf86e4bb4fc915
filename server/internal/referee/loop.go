package referee

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
)

// Run is the daemon: it fetches new mail, handles each mail (HandleMail),
// sends the outbox, marks the mail done, fires the timers that are due
// (RunTimers: reminders, time-outs), and waits until the earlier of new
// mail (IDLE or polling) and the next timer (scheduler.go), until ctx
// ends; while it waits it sends what falls due in the outbox
// (outbox_wake.go). Connection trouble is retried with capped backoff;
// Run returns nil when ctx ends, once the engine's searches have
// stopped. An engine search runs beside the loop and wakes it when it
// ends (internal/opponent).
func (s *Server) Run(ctx context.Context) error {
	if s.Opts.Inbox == nil || s.Opts.Sender == nil {
		return errors.New("server: Run needs Options.Inbox and Options.Sender")
	}
	// on the way out, wait for the modules' work beside the loop (the
	// engine's searches, WorkWaiter)
	defer s.WaitWork()
	rescan := true // the first poll reads the whole inbox: mails handled but not yet moved are finished off
	backoff := time.Second
	var down time.Time // the first failure since the mailbox last worked; zero while it works
	for ctx.Err() == nil {
		s.Held.Report(s.Log, s.Opts.Now()) // what the caps held back, once a minute (held.go)
		err := s.Poll(ctx, rescan)
		if err == nil {
			rescan = false
			backoff = time.Second
			down = time.Time{}
			s.FlushOutbox(ctx)
			_, err = s.RunTimers(ctx)
			s.FlushOutbox(ctx)
		}
		if err == nil {
			wctx, cancel := s.waitContext(ctx)
			stopWatch := s.watchOutbox(ctx) // mail queued by another process (outbox_wake.go)
			err = s.Opts.Inbox.Wait(wctx)
			stopWatch()
			woke := errors.Is(context.Cause(wctx), errWoken)
			cancel()
			if err == nil || errors.Is(err, context.DeadlineExceeded) || woke {
				continue
			}
		}
		if ctx.Err() != nil {
			break
		}
		// After any failure read the whole inbox again: a mail whose Done
		// failed is below the remembered UID, and only a rescan finds it
		// (HandleMail then sees it processed and just marks it done).
		rescan = true
		if down.IsZero() {
			down = s.Opts.Now()
		}
		s.Log.Warn("mail loop", "err", err, "retry_in", backoff)
		sleep(ctx, backoff+time.Duration(rand.Int64N(int64(backoff/4)+1)))
		backoff = min(backoff*2, time.Minute)
		if r, ok := s.Opts.Inbox.(reconnecter); ok && errors.Is(err, mailer.ErrConnection) {
			s.reconnect(ctx, r, down)
		}
	}
	return nil
}

// errWoken is the cause that ends Run's wait for mail when Run is woken:
// an engine turn ended, or Wake was called.
var errWoken = errors.New("server: Run was woken")

// waitContext returns the context Run waits for mail under: it ends at
// the next module's due work (UntilNextTimer), or with the cause errWoken
// as soon as Run is woken (Wake: an engine turn ended, or the SMTP relay
// is back), so that the engine's reply, or what Wake made due,
// goes out at once.
func (s *Server) waitContext(ctx context.Context) (context.Context, context.CancelFunc) {
	tctx, cancelTimeout := context.WithTimeout(ctx, s.UntilNextTimer(ctx))
	wctx, cancel := context.WithCancelCause(tctx)
	stop := make(chan struct{})
	go func() {
		select {
		case <-s.wake:
			cancel(errWoken)
		case <-stop:
		case <-wctx.Done():
		}
	}()
	return wctx, func() { close(stop); cancel(nil); cancelTimeout() }
}

// reconnecter is an Inbox that can dial its server again, as
// *mailer.Inbox does.
type reconnecter interface {
	// Reconnect closes the connection and dials the server again; an
	// error is the dial's or the login's.
	Reconnect(ctx context.Context) error
}

// maxReconnectQuiet is the longest Run stays silent while the mailbox is
// unreachable: an operator watching the log sees that it is still down.
const maxReconnectQuiet = 30 * time.Second

// AuthPause bounds the pause after the IMAP server rejects the log-in
// (mailer.ErrAuth): mailer.AuthRetryDelay of the rejections in a row, a
// minute doubling up to half an hour. A variable for tests.
var AuthPause = struct{ Min, Max time.Duration }{mailer.DefaultAuthRetryMinDelay, mailer.DefaultAuthRetryMaxDelay}

// reconnect dials the mailbox again until it succeeds or ctx ends. While
// the server stays unreachable it logs a warning at least every
// maxReconnectQuiet (or WaitCap, when shorter) with how long it has been
// down and the last error, and once connected again how long it was
// down (trial report §9.1: Reconnect retried silently for as long as the
// server was away, and said so only at shutdown). A rejected log-in (a
// wrong password, a revoked token) is logged as an error and tried again
// after a pause that doubles with each rejection, from a minute up to
// half an hour (AuthPause; issue 21: retried at once, a wrong password
// gets the account locked by the provider). Another refusal Reconnect
// does not retry is logged and returned to Run, which tries again after
// its backoff. The end of ctx is not logged: that is the daemon stopping.
// down is when the mailbox was first found broken: "down_for" counts from
// then, the pause before the first attempt included (issue 21 §7: it used
// to count from the first attempt only).
func (s *Server) reconnect(ctx context.Context, r reconnecter, down time.Time) {
	quiet := min(maxReconnectQuiet, s.Opts.WaitCap)
	rejected := 0
	for {
		rctx, cancel := context.WithTimeout(ctx, quiet)
		err := r.Reconnect(rctx)
		cancel()
		switch {
		case err == nil:
			s.Log.Info("IMAP reconnected", "down_for", s.Opts.Now().Sub(down).Round(time.Second))
			return
		case ctx.Err() != nil:
			return
		case errors.Is(err, mailer.ErrAuth):
			rejected++
			pause := mailer.AuthRetryDelay(rejected, AuthPause.Min, AuthPause.Max)
			s.Log.Error("IMAP login rejected, waiting before the next attempt", "rejections", rejected, "retry_in", pause,
				"down_for", s.Opts.Now().Sub(down).Round(time.Second), "err", err)
			sleep(ctx, pause)
		case errors.Is(err, context.DeadlineExceeded):
			s.Log.Warn("IMAP still unreachable, retrying", "down_for", s.Opts.Now().Sub(down).Round(time.Second), "err", err)
		default:
			s.Log.Warn("reconnect failed", "err", err)
			return
		}
	}
}

// Poll fetches the mails after the remembered UID (all of them when rescan
// is set or UIDVALIDITY changed) and handles them in UID order, in chunks
// of up to pollChunk (handleChunk): decide each and commit the chunk's
// decisions, send the outbox, mark each mail done. It stops at the first
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
// then committed in one transaction (HandleMails), and the outbox's
// transactions are shared by the chunk's mails (FlushOutbox claims and
// records a round of replies in one transaction each), while the first
// mail's replies wait for at most pollChunk-1 decisions.
const pollChunk = 20

// handleChunk handles the mails ms in order: each is decided, and the
// decisions committed (HandleMails: those that cannot meet in one
// transaction together, the others each alone after it, a later mail
// seeing what an earlier one about its game or sender wrote); then the
// outbox is sent, with the replies of all of them (FlushOutbox); then
// each handled mail is marked done, in order. A mail that cannot be
// committed ends the chunk: those before it are still sent and marked
// done, it and those after it stay in the inbox for the next poll, and
// its error is returned. So a mail is marked done only once its decision
// is committed and its replies were handed to SMTP, deferred or failed,
// each recorded in the archive.
func (s *Server) handleChunk(ctx context.Context, ms []*mailer.Message) error {
	handled, handleErr := s.HandleMails(ctx, ms)
	if handled > 0 {
		s.FlushOutbox(ctx)
	}
	for _, m := range ms[:handled] {
		if err := s.Opts.Inbox.Done(ctx, m.UID); err != nil {
			return err
		}
	}
	return handleErr
}

// FlushOutbox sends every pending mail that is due, in order per game.
// A temporary SMTP failure (4xx, network) schedules a retry with doubling
// delay; a permanent one (5xx), or too many attempts, marks the mail failed
// and logs it for the operator (`taflmail outbox`).
//
// It works in rounds of up to roundMails mails, each with two archive
// transactions whatever its size: one claims the round's mails
// (archive.Store.ClaimOutboxes) before any goes to SMTP, one records
// those sent and drops the claims of those not tried
// (archive.Store.MarkSentAll) after the last; only a deferral or a
// failure is recorded on its own, at once. A crash between the two sends
// the round's sent mails again after restart, with the same bytes and
// Message-IDs (docs/architecture.md, "The mail loop's transactions").
//
// A mail is sent and its result recorded even when ctx ends meanwhile (the
// Sender's own timeout bounds it): abandoning an SMTP transaction after
// DATA could deliver the mail without recording it, and the restarted
// daemon would send it twice. ctx is looked at only between mails.
func (s *Server) FlushOutbox(ctx context.Context) {
	stop := ctx
	ctx = context.WithoutCancel(ctx)
	for round := 0; round < 100 && stop.Err() == nil; round++ {
		progress, ok := s.flushRound(ctx, stop)
		if !ok || !progress {
			return
		}
	}
}

// roundMails is the number of outbox mails FlushOutbox reads, claims
// and records in one round: at least the replies of a poll's batch of
// mails (two or three a mail), few enough that their raw bytes are no
// burden and that a claim taken at the round's start is far from
// archive.ClaimLease when the last is sent.
const roundMails = 50

// flushRound reads, claims, sends and records one round of due outbox
// mails (FlushOutbox). progress says whether a mail was sent; ok is
// false when FlushOutbox must stop: nothing was due, an archive call
// failed (a sent mail that could not be recorded included: every further
// round would send it again), or stop ended.
func (s *Server) flushRound(ctx, stop context.Context) (progress, ok bool) {
	now := s.Opts.Now()
	pending, err := s.outboxPort().PendingOutbox(ctx, now, roundMails)
	if err != nil {
		s.Log.Error("reading the outbox failed", "err", err)
		return false, false
	}
	if len(pending) == 0 {
		return false, false
	}
	ids := make([]int64, len(pending))
	for i, m := range pending {
		ids[i] = m.ID
	}
	// Claim the mails first: a second process on this archive (one that
	// slipped past the daemon's lock) then never sends them too.
	claims, err := s.outboxPort().ClaimOutboxes(ctx, ids, s.owner, now)
	if err != nil {
		s.Log.Error("claiming outbox mails failed", "ids", len(ids), "err", err)
		return false, false
	}
	claimedAt := now
	var sent, release []int64
	held := map[string]bool{} // game and recipients of a mail deferred in this round
	ok = true
	for i, m := range pending {
		if claims[i] != archive.ClaimTaken {
			if claims[i] == archive.ClaimRefused {
				s.Log.Warn("outbox mail claimed by another process: not sent here", "id", m.ID)
				held[m.GameID+"\x00"+strings.Join(m.To, ",")] = true
			} // ClaimGone: the engine's reply took its place meanwhile (internal/opponent)
			continue
		}
		key := m.GameID + "\x00" + strings.Join(m.To, ",")
		if held[key] || stop.Err() != nil || !ok {
			release = append(release, m.ID) // a later mail must not overtake a deferred one
			continue
		}
		if s.Opts.Now().Sub(claimedAt) > archive.ClaimLease/2 {
			// A slow SMTP server: renew the claims not yet used before
			// they lapse and another sender may take them.
			claimedAt = s.Opts.Now()
			if !s.renewClaims(ctx, pending[i:], claims[i:], claimedAt) {
				ok = false
			}
			if !ok || claims[i] != archive.ClaimTaken {
				if claims[i] == archive.ClaimTaken {
					release = append(release, m.ID)
				} else {
					held[key] = true
				}
				continue
			}
		}
		err := s.Opts.Sender.Send(ctx, m.From, m.To, m.Raw)
		if err == nil {
			progress = true
			sent = append(sent, m.ID)
			s.Opts.Observer.ReplySent()
			if m.Attempts > 0 {
				s.Log.Info("sending succeeded after a retry", "id", m.ID, "to", m.To, "attempts", m.Attempts+1,
					"waited", s.Opts.Now().Sub(m.CreatedAt).Round(time.Second), "last_err", m.LastError)
			}
			continue
		}
		held[key] = true
		s.sendFailed(ctx, m, now, err)
	}
	if err := s.outboxPort().MarkSentAll(ctx, sent, s.Opts.Now(), s.owner, release); err != nil {
		// the mails went out but are still pending: stop, or every
		// round would send them again
		s.Log.Error("recording sent mails failed", "ids", sent, "err", err)
		return progress, false
	}
	return progress, ok
}

// renewClaims claims again, at at, the mails of pending whose claims
// (the same index) are held, and writes the outcome into claims: a claim
// that lapsed meanwhile may have been taken by another sender. It
// reports false, the claims unchanged, when the archive failed.
func (s *Server) renewClaims(ctx context.Context, pending []archive.OutboxMail, claims []archive.ClaimState, at time.Time) bool {
	var ids []int64
	var idx []int
	for j, m := range pending {
		if claims[j] == archive.ClaimTaken {
			ids, idx = append(ids, m.ID), append(idx, j)
		}
	}
	renewed, err := s.outboxPort().ClaimOutboxes(ctx, ids, s.owner, at)
	if err != nil {
		s.Log.Error("claiming outbox mails failed", "ids", len(ids), "err", err)
		return false
	}
	for k, j := range idx {
		claims[j] = renewed[k]
	}
	return true
}

// sendFailed records that sending outbox mail m failed with err at now:
// a temporary failure is retried after a doubling delay (MarkRetry), a
// permanent one, or the last attempt, marks it failed (MarkFailed) and
// tells a challenger whose invitation it was.
func (s *Server) sendFailed(ctx context.Context, m archive.OutboxMail, now time.Time, err error) {
	var se *mailer.SendError
	temporary := !errors.As(err, &se) || se.Temporary
	if temporary && m.Attempts+1 < s.Opts.MaxAttempts {
		delay := s.Opts.RetryAfter << min(m.Attempts, 16)
		delay = min(delay, 6*time.Hour)
		s.Log.Warn("sending deferred", "id", m.ID, "to", m.To, "err", err, "retry_in", delay)
		s.Opts.Observer.ReplyDeferred()
		if err := s.outboxPort().MarkRetry(ctx, m.ID, now.Add(delay), err.Error()); err != nil {
			s.Log.Error("recording a retry failed", "id", m.ID, "err", err)
		}
		return
	}
	s.Log.Error("sending failed for good", "id", m.ID, "to", m.To, "err", err)
	s.Opts.Observer.ReplyFailed()
	if err := s.outboxPort().MarkFailed(ctx, m.ID, err.Error()); err != nil {
		s.Log.Error("recording a failed mail failed", "id", m.ID, "err", err)
	} else {
		s.invitationFailed(ctx, m) // the challenger learns of it (invitations.go)
	}
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
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
