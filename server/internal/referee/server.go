package referee

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/clock"
	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/search"
)

// Options configure a Server. Address, Store, Inbox and Sender are
// required; every other zero value has a working default.
type Options struct {
	// Address is the server's own mail address, e.g. "tafl@example.org".
	// Mail from it is never answered (no loops).
	Address string
	// Name is the display name in From, default "taflmail".
	Name string
	// Domain is the right-hand side of generated Message-IDs, default the
	// domain of Address.
	Domain string
	// Mailbox names the IMAP mailbox whose UIDVALIDITY and last UID are
	// remembered, default "INBOX".
	Mailbox string

	// Store is the archive (ports.go); required.
	Store Store
	// Inbox is the mailbox players' mails are read from (IMAP); Run
	// refuses to start without it.
	Inbox Inbox
	// Sender hands the outbox's mails to the relay (SMTP); Run refuses
	// to start without it.
	Sender Sender

	// Now is the clock, default time.Now.
	Now func() time.Time
	// Rand is the source of game ids and keys, default crypto/rand.
	Rand io.Reader
	// Logger receives the operator's log, default slog.Default().
	Logger *slog.Logger
	// Observer is told of handled mails, sent and deferred replies and
	// engine searches (observer.go), e.g. for /metrics; nil tells no one.
	Observer Observer

	// MaxMailBytes is the largest mail read, in bytes; larger mails are
	// refused politely. Default mailer.DefaultMaxBytes (25 MiB); the
	// Inbox reads only the text parts of a mail (mailer.MaxTextPartBytes).
	MaxMailBytes int64
	// ErrorRepliesPerHour caps the refusals sent to one address per hour;
	// further refusals are logged, not sent. 0 means the default, 5; a
	// negative value sends no refusals at all.
	ErrorRepliesPerHour int
	// DefaultLanguage is "en" (default) or "de".
	DefaultLanguage string
	// RecordsDir receives a native record file <game>.tafl for every
	// finished game; "" writes none.
	RecordsDir string
	// MaxAttachmentBytes is the largest file, in bytes before base64, the
	// referee attaches to a mail: the records of a finished tournament,
	// <tournament>.tafl, in the final mail (finishEvent). Larger records
	// are not attached; the mail says the director has them. 0 means
	// DefaultMaxAttachmentBytes; a negative value attaches nothing.
	MaxAttachmentBytes int64
	// MaxTournamentPlayers is the most players a tournament may have:
	// "join" refuses an entry beyond it (`taflmail tournament create`
	// refuses a longer list). 0 means DefaultMaxTournamentPlayers.
	MaxTournamentPlayers int
	// RetryAfter is the first delay before resending a mail the SMTP server
	// refused temporarily; it doubles per attempt up to 6 hours. Default 1
	// minute.
	RetryAfter time.Duration
	// MaxAttempts is how often a temporarily refused mail is tried before
	// it is given up as failed. Default 20.
	MaxAttempts int
	// RequireAuthResults drops, unanswered, mail whose
	// Authentication-Results header does not show DKIM or SPF passing for
	// the From domain (docs/security.md). Only for servers whose receiving
	// MTA adds that header and strips forged copies of it.
	RequireAuthResults bool
	// JunkReplies is how many mails that carry no player's key and no
	// valid command (archive.JunkBudget, triage.go: help, games, prose,
	// refusals of keyless moves), from all senders together, the referee
	// answers per 10 minutes (BudgetWindow); past it such mails are
	// recorded as ignored with the reason (`taflmail mails --ignored`)
	// and nothing they ask for is done. It never holds a valid command (a
	// challenge, an engine game, a join) or a confirmation with its key,
	// nor a mail with the sender's valid key for its game. The count is
	// kept in the archive, so it holds across restarts. 0 means
	// DefaultJunkReplies; a negative value answers no junk at all. See
	// docs/security.md.
	JunkReplies int
	// DomainReplies is how many keyless mails of one budget (junk, or
	// valid commands, each counted apart) from the addresses of one
	// organizational domain (mailer.OrganizationalDomain) the referee
	// answers per 10 minutes; past it such mails are recorded as ignored
	// with the reason. A confirmation with its key is never held by it.
	// 0 means DefaultDomainReplies.
	DomainReplies int
	// AuthservID is the authserv-id of the receiving MTA (RFC 8601 §2.5):
	// only its Authentication-Results fields are read, see
	// mailer.Authenticated. Empty means none is trusted.
	AuthservID string
	// UnsubscribeURL is the HTTPS address where UnsubscribeHandler is
	// served, e.g. "https://tafl.example.org/unsubscribe": spectators'
	// mails and digests then name it in List-Unsubscribe with
	// List-Unsubscribe-Post, so that a mail program unsubscribes with one
	// POST (RFC 8058; unsubscribe.go). "" names only the mail that stops
	// them. It must be an https URL with a path (the web pages have "/")
	// and without query or fragment.
	UnsubscribeURL string
	// WaitCap bounds one Inbox.Wait, after which Run looks at the mailbox
	// and the outbox again even without news. Default 1 minute. Run waits
	// less when the next timer (a reminder, a deadline) is due sooner.
	WaitCap time.Duration
	// OutboxPoll is how often Run looks at the outbox while it waits for
	// mail, to send what another process queued (`taflmail tournament
	// start`) or what fell due (outbox_wake.go). 0 means
	// DefaultOutboxPoll (5 s); a negative value never looks between
	// wakes.
	OutboxPoll time.Duration

	// LeaveDays is each player's leave allowance per calendar year, in
	// days (CORRESPONDENCE.md §3.1). 0 means clock.DefaultLeaveDays (30);
	// a negative value allows no leave.
	LeaveDays int
	// Reminders are the reminder thresholds of a timed game: the side to
	// move is reminded when its remaining time first falls below each
	// (CORRESPONDENCE.md §4.1). nil means clock.DefaultTimedReminders (7
	// days, 2 days, 12 hours); an empty, non-nil list sends none.
	Reminders []time.Duration
	// UntimedReminders are the reminders of an untimed game: after each
	// of these times without a ply (leave not counted). nil means
	// clock.DefaultUntimedReminders (7, 14 and 21 days); an empty, non-nil
	// list sends none.
	UntimedReminders []time.Duration
	// InvitationExpiry is how long a challenge waits for an answer; then
	// it ends and the challenger is told (invitations.go). 0 means
	// DefaultInvitationExpiry (14 days); a negative value lets
	// invitations wait for ever.
	InvitationExpiry time.Duration
	// ArrivalGrace is how long past a deadline the referee waits before
	// it acts on the deadline (a time-out, an invitation's expiry), for
	// mail the IMAP server stamped before the deadline but shows in the
	// mailbox later (Decision C4, scheduler.go): the poll that counts as
	// reading the inbox up to the deadline begins this much after it. 0
	// means DefaultArrivalGrace (1 minute); a negative value waits for
	// nothing.
	ArrivalGrace time.Duration

	// EngineThink is the engine opponent's think time per ply at its
	// strongest level, search.MaxLevel; the weaker levels think the same
	// fraction of it as in search's level table (docs/engine.md). 0 means
	// that level's default, 10 s.
	EngineThink time.Duration
	// EngineSearches caps the engine searches that run at once; further
	// engine turns wait for one to end. A search keeps one core busy. 0
	// means 1.
	EngineSearches int
	// EngineTableBytes is the transposition table of each engine search,
	// in bytes (search.Options.TableBytes): the engine's memory is about
	// EngineSearches × EngineTableBytes. 0 means search.DefaultTableBytes
	// (16 MiB).
	EngineTableBytes int
	// EngineGames caps the running games one player may have against the
	// engine. 0 means DefaultEngineGames; a negative value switches games
	// against the engine off.
	EngineGames int
	// EngineMaxGames caps the running games against the engine of all
	// players together. 0 means automatic: a new game at level L is taken
	// while one ply of every running game at level L or below, the new
	// one included, fits in EngineSearches × opponent.ServeWindow of think
	// time (opponent's engineBooked), so expensive games never crowd out cheap ones.
	// A negative value means 0.
	EngineMaxGames int
	// EngineReplyHold is how long the reply to a move that leaves the
	// engine to move waits in the outbox for the engine's answer, which
	// then takes its place: one mail with both plies (internal/opponent). A
	// level whose think time is at least this is not held. 0 means
	// DefaultEngineReplyHold (30 s); a negative value never holds.
	EngineReplyHold time.Duration

	// Refused, when set, is given the refusal keys of every run of a
	// mail's commands, a conflict's rerun too (Session.Refusals; tests).
	Refused func(keys []string)
	// EngineSearch, when set, replaces the engine's search (tests).
	EngineSearch func(ctx context.Context, pos *engine.Position, l search.Level, lim search.Limits) (search.Result, error)
}

// Server is the referee daemon.
type Server struct {
	Opts  Options      // the options New was given, defaults filled in
	Store Store        // Opts.Store: the archive, reached through its ports
	Log   *slog.Logger // Opts.Logger: slog.Default() unless set
	owner string       // this process's name in outbox claims (archive.Store.ClaimOutboxes)
	// polled is Options.Now, in Unix nanoseconds, at the start of the last
	// Poll that handled every mail it fetched: the inbox has been read up
	// to then (Decision C4, scheduler.go).
	polled atomic.Int64
	// wake ends Run's wait for mail (Wake: a feature's work beside the
	// loop ended, or the SMTP relay is back); one wake at most is kept.
	wake chan struct{}
	// kept holds what each module keeps for the Server's life (Keep,
	// Kept: the engine opponent its runner), written by the Installers in
	// New and only read after.
	kept map[Module]any
	// Held counts the replies the caps held back, logged once a minute
	// (held.go).
	Held HeldLog
}

// Modules are the registered feature modules, in the order the core asks
// them: the order of their hooks is the order of this list. The assembly
// (package server, assembly.go, the one file that names the features)
// sets it once at init, before any Server is made, as the command
// registry (Handle) is filled at init; the tests swap it to check the
// walkers. Nil, the core runs with no feature at all.
var Modules []Module

// Module is one registered feature. Name is how the registry's test and
// the docs call it.
type Module interface {
	Name() string
}

// New checks the options and returns a Server. It returns an error naming
// the first missing required option.
func New(o Options) (*Server, error) {
	if err := o.checkIdentity(); err != nil {
		return nil, err
	}
	o.defaultRuntime()
	o.defaultCaps()
	o.defaultDelivery()
	o.defaultClock()
	o.defaultEngine()
	owner, err := randomString(rand.Reader, 12)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	owner = fmt.Sprintf("pid%d-%s", os.Getpid(), owner)
	if o.Observer == nil {
		o.Observer = noObserver{}
	}
	s := &Server{Opts: o, Store: o.Store, Log: o.Logger, owner: owner, wake: make(chan struct{}, 1)}
	s.Install() // what the modules keep for the Server's life: the engine's runner (module.go)
	return s, nil
}

// checkIdentity checks the options that say who the referee is and
// where its mail is: Address and Store are required, UnsubscribeURL must
// be an https URL with a path and no query; Address is lower-cased, and
// Name, Domain (Address's) and Mailbox ("INBOX") are filled in. It
// returns an error naming the first option that fails, in that order.
func (o *Options) checkIdentity() error {
	switch {
	case o.Address == "":
		return errors.New("server: Options.Address is required")
	case o.Store == nil:
		return errors.New("server: Options.Store is required")
	}
	o.Address = strings.ToLower(o.Address)
	if o.Name == "" {
		o.Name = "taflmail"
	}
	if o.UnsubscribeURL != "" {
		u, err := url.Parse(o.UnsubscribeURL)
		if err != nil || u.Scheme != "https" || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.Path == "" || u.Path == "/" {
			return fmt.Errorf("server: Options.UnsubscribeURL %q is no https URL with a path and without query (RFC 8058 wants HTTPS)", o.UnsubscribeURL)
		}
	}
	if o.Domain == "" {
		_, o.Domain, _ = strings.Cut(o.Address, "@")
	}
	if o.Mailbox == "" {
		o.Mailbox = "INBOX"
	}
	return nil
}

// defaultRuntime fills in the clock, the randomness and the logger: the
// system's when not given.
func (o *Options) defaultRuntime() {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Rand == nil {
		o.Rand = rand.Reader
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
}

// DefaultMaxTournamentPlayers is Options.MaxTournamentPlayers's default
// and server.max_tournament_players's: a round robin of 300 players in
// matches is 89,700 games, each player's start list 598 of them; its
// start takes about two minutes in bounded memory (docs/performance.md).
const DefaultMaxTournamentPlayers = 300

// DefaultMaxAttachmentBytes is Options.MaxAttachmentBytes when it is 0:
// 5 MiB, the records of about 3,000 games (a 10-player event's 90 are
// about 150 KB), a mail of about 7 MB in base64, under Postfix's default
// message_size_limit of 10,240,000 bytes.
const DefaultMaxAttachmentBytes = 5 << 20

// defaultCaps fills in the bounds on mails, attachments, tournaments and
// replies (caps.go); a negative attachment, error-reply or junk-reply
// bound means none (0).
func (o *Options) defaultCaps() {
	if o.MaxMailBytes <= 0 {
		o.MaxMailBytes = mailer.DefaultMaxBytes
	}
	if o.MaxTournamentPlayers <= 0 {
		o.MaxTournamentPlayers = DefaultMaxTournamentPlayers
	}
	switch {
	case o.MaxAttachmentBytes == 0:
		o.MaxAttachmentBytes = DefaultMaxAttachmentBytes
	case o.MaxAttachmentBytes < 0:
		o.MaxAttachmentBytes = 0
	}
	switch {
	case o.ErrorRepliesPerHour == 0:
		o.ErrorRepliesPerHour = 5
	case o.ErrorRepliesPerHour < 0:
		o.ErrorRepliesPerHour = 0
	}
	switch {
	case o.JunkReplies == 0:
		o.JunkReplies = DefaultJunkReplies
	case o.JunkReplies < 0:
		o.JunkReplies = 0
	}
	if o.DomainReplies <= 0 {
		o.DomainReplies = DefaultDomainReplies
	}
}

// defaultDelivery fills in the language of new players and how the
// outbox is retried and looked at (outbox_wake.go).
func (o *Options) defaultDelivery() {
	if o.DefaultLanguage != German {
		o.DefaultLanguage = English
	}
	if o.RetryAfter <= 0 {
		o.RetryAfter = time.Minute
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 20
	}
	if o.WaitCap <= 0 {
		o.WaitCap = time.Minute
	}
	if o.OutboxPoll == 0 {
		o.OutboxPoll = DefaultOutboxPoll
	}
}

// defaultClock fills in leave, reminders, invitation expiry and the grace
// for a mail's arrival (internal/gameclock); a negative leave or grace means none.
func (o *Options) defaultClock() {
	switch {
	case o.LeaveDays == 0:
		o.LeaveDays = clock.DefaultLeaveDays
	case o.LeaveDays < 0:
		o.LeaveDays = 0
	}
	if o.Reminders == nil {
		o.Reminders = clock.DefaultTimedReminders
	}
	if o.InvitationExpiry == 0 {
		o.InvitationExpiry = DefaultInvitationExpiry
	}
	switch {
	case o.ArrivalGrace == 0:
		o.ArrivalGrace = DefaultArrivalGrace
	case o.ArrivalGrace < 0:
		o.ArrivalGrace = 0
	}
	if o.UntimedReminders == nil {
		o.UntimedReminders = clock.DefaultUntimedReminders
	}
}

// DefaultEngineGames is the default of Options.EngineGames: how many
// running games one player may have against the engine.
const DefaultEngineGames = 3

// DefaultEngineReplyHold is the default of Options.EngineReplyHold.
const DefaultEngineReplyHold = 30 * time.Second

// defaultEngine fills in the engine opponent's thinking time, searches,
// table size, games and reply hold (internal/opponent); a negative number of
// engine games means none.
func (o *Options) defaultEngine() {
	if o.EngineThink <= 0 {
		o.EngineThink = search.MaxLevel.Spec().Think
	}
	if o.EngineSearches <= 0 {
		o.EngineSearches = 1
	}
	if o.EngineTableBytes <= 0 {
		o.EngineTableBytes = search.DefaultTableBytes
	}
	if o.EngineMaxGames < 0 {
		o.EngineMaxGames = 0
	}
	if o.EngineReplyHold == 0 {
		o.EngineReplyHold = DefaultEngineReplyHold
	}
	switch {
	case o.EngineGames == 0:
		o.EngineGames = DefaultEngineGames
	case o.EngineGames < 0:
		o.EngineGames = 0
	}
}

// HandleMail decides one incoming mail and commits the decision: the
// processed-mail record, the game changes and the replies (queued in the
// outbox) in one transaction. A mail already processed is left alone and
// reported as nil. An error means nothing was recorded: the mail stays
// unread and is tried again later (e.g. archive.ErrUnavailable).
func (s *Server) HandleMail(ctx context.Context, m *mailer.Message) error {
	done, err := s.recordPort().Processed(ctx, m.MessageID, "")
	if err != nil {
		return err
	}
	if done {
		s.Log.Info("mail already processed", "message_id", m.MessageID, "uid", m.UID)
		return nil
	}
	_, err = s.Transact(ctx, MailCause(m), s.mailSteps(ctx, m))
	return err
}

// mailSteps are the steps of mail m in Transact (HandleMail) and in a
// chunk's shared commit (HandleMails): Decide with the mailbox position
// after m, its debug log and what its log line names before the commit,
// and after it the log line, the held replies' count and the observer.
// Each call has its own state: call it once per mail.
func (s *Server) mailSteps(ctx context.Context, m *mailer.Message) Steps {
	var held heldBy // the cap that held the last decided reply back
	var about []any // what it was about, read before Commit sets the versions
	return Steps{
		Decide: func(ss *Session, change *archive.Change) (Verdict, error) {
			v, h, err := s.Decide(ss, change)
			held = h
			if err == nil && m.UID != 0 {
				change.Mailbox = &archive.MailboxState{Mailbox: s.Opts.Mailbox, UIDValidity: m.UIDValidity, LastUID: m.UID}
			}
			return v, err
		},
		Decided: func(ss *Session, change archive.Change, v Verdict) {
			if v == CommitReplies { // answered, not ignored outright
				s.logDecision(ss, change)
			}
			about = processedAbout(&change)
		},
		Committed: func(change archive.Change) {
			level := slog.LevelInfo
			if held != NotHeld {
				level = slog.LevelDebug // counted, and logged once a minute (held.go)
			}
			attrs := append([]any{"message_id", m.MessageID, "from", m.From}, about...)
			s.Log.Log(ctx, level, "mail processed", append(attrs, "disposition", change.Mail.Disposition, "replies", len(change.Outbox))...)
			s.Held.Note(s.Log, held, s.Opts.Now())
			s.Opts.Observer.MailHandled(change.Mail.Disposition)
		},
	}
}

// Decide runs the commands of the mail of session ss without writing
// anything: it writes the processed-mail record into change, leaves the
// replies in the session for Transact to compose and collect, and
// returns the cap that held the sender's reply back (NotHeld when none
// did). A mail the referee does not answer at all is recorded as
// ignored with the reason (archive.ProcessedMail.Reason) and committed
// as it is.
func (s *Server) Decide(ss *Session, change *archive.Change) (Verdict, heldBy, error) {
	ctx, m, from := ss.Ctx, ss.Cause.Mail, ss.From
	ss.Ref = FindGame(m.Subject, m.InReplyTo, m.References)
	if ss.Ref.ID == "" {
		ss.Ref = findGameInText(m.Reply, m.Text)
	}
	change.Mail = archive.ProcessedMail{MessageID: m.MessageID, From: from, GameID: ss.Ref.ID, At: ss.Now,
		Subject: hideKeys(m.Subject), Domain: mailer.OrganizationalDomain(from)}
	ignore := func(why string, held heldBy) (Verdict, heldBy, error) {
		level := slog.LevelInfo
		if held != NotHeld {
			level = slog.LevelDebug // counted, and logged once a minute (held.go)
		}
		s.Log.Log(ctx, level, "mail ignored", "message_id", m.MessageID, "from", from, "game", ss.Ref.ID, "why", why)
		change.Mail.Disposition, change.Mail.Reason = Ignored, why
		return CommitAsIs, held, nil
	}
	if why := s.ignoreReason(m, from); why != "" {
		return ignore(why, NotHeld)
	}
	ss.Lang = ss.LangOf(from)
	if err := ss.authenticate(); err != nil {
		return CommitNothing, NotHeld, err
	}
	change.Mail.Authenticated = ss.Auth != nil
	if ss.Auth != nil {
		ss.markProved() // its key went to this address alone (consent.go)
	}
	if !m.TooLarge {
		ss.Lines, ss.unread = ss.CommandLines()
	}
	budget, err := ss.BudgetOf() // before any budget is consulted, without side effects (triage.go)
	if err != nil {
		return CommitNothing, NotHeld, err
	}
	change.Mail.Budget = budget
	why, held, err := s.replyBudget(ctx, from, change.Mail.Domain, budget, ss.Now)
	if err != nil {
		return CommitNothing, NotHeld, err
	}
	if why != "" {
		return ignore(why, held)
	}
	disposition, err := s.answer(ss)
	if err != nil {
		return CommitNothing, NotHeld, err
	}
	change.Mail.Disposition = disposition
	if change.Mail.Reason, held, err = s.capRefusals(ss, disposition, budget); err != nil {
		return CommitNothing, NotHeld, err
	} else if change.Mail.Reason != "" {
		s.Log.Debug("mail not answered", "message_id", m.MessageID, "from", from, "why", change.Mail.Reason)
	} else if why := ss.Unmailed(); len(why) > 0 {
		change.Mail.Reason = strings.Join(why, "; ")
		s.Log.Info("request not mailed again", "message_id", m.MessageID, "from", from, "why", change.Mail.Reason)
	}
	return CommitReplies, held, nil
}

// logDecision writes, at level debug, what the referee made of a mail it
// answers (issue 21 §7: log.level debug shows the per-mail decision): the
// first word of each command line (never the whole line, which may carry
// a key), the new plies, who gets a reply, and whether the reply is kept
// back (the reason is in "mail not answered"). The keys of subjects never
// appear.
func (s *Server) logDecision(ss *Session, change archive.Change) {
	if !s.Log.Enabled(ss.Ctx, slog.LevelDebug) {
		return
	}
	var commands []string
	for _, l := range ss.Lines {
		word, _, _ := strings.Cut(strings.TrimSpace(l.Text), " ")
		if l.Err != nil {
			word += " (not understood)"
		}
		commands = append(commands, word)
	}
	var to []string
	for _, o := range change.Outbox {
		to = append(to, o.To...)
	}
	plies := 0
	for _, p := range change.NewPlies {
		plies += len(p)
	}
	s.Log.Debug("mail decided", "message_id", change.Mail.MessageID, "from", change.Mail.From, "game", change.Mail.GameID,
		"authenticated", change.Mail.Authenticated, "commands", commands, "unread_lines", ss.unread,
		"disposition", change.Mail.Disposition, "kept_back", change.Mail.Reason != "", "new_plies", plies, "replies_to", to)
}

// answer runs the mail's commands (or refuses a mail too large to read),
// leaving the replies in ss, and returns the mail's disposition. A mail
// that breaks the referee is answered with an apology from a fresh
// session, which replaces everything ss held, and recorded as errored,
// so that it cannot be retried forever; nothing it asked for is applied.
// A transient failure (the archive is unavailable, ctx ended) is
// returned: the mail stays unread.
func (s *Server) answer(ss *Session) (string, error) {
	m := ss.Cause.Mail
	if m.TooLarge {
		ss.Failed = true
		ss.Say(nil, Tr(ss.Lang, "err.toolarge", m.Size, s.Opts.MaxMailBytes))
	} else if err := ss.run(); err != nil && (errors.Is(err, archive.ErrUnavailable) || ss.Ctx.Err() != nil) {
		return "", err
	} else if err != nil {
		s.Log.Error("handling mail failed", "message_id", m.MessageID, "from", ss.From, "err", err)
		c := ss.Cause
		c.At = ss.Now
		apology := s.NewSession(ss.Ctx, c)
		apology.Lang = ss.Lang
		apology.Failed = true
		apology.Say(nil, Tr(apology.Lang, "err.internal"))
		*ss = *apology
		return errored, nil
	}
	if ss.Did {
		return Applied, nil
	}
	if !ss.Failed && len(ss.Unmailed()) > 0 {
		return Ignored, nil // only requests that are not mailed again (module.go's unmailers)
	}
	return Refused, nil
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
		change.Games = append(change.Games, t.G)
		if len(t.NewPlies) > 0 {
			if change.NewPlies == nil {
				change.NewPlies = map[string][]archive.Ply{}
			}
			change.NewPlies[t.G.ID] = t.NewPlies
		}
		if t.G.Status == archive.Finished {
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

// EngineAddress is the address the engine opponent plays under,
// club.EngineAddress (the club's pages name it too). Its
// domain, .invalid, is reserved never to exist (RFC 2606 §2): no mail can
// be delivered to it, and no mail can honestly come from it. The referee
// ignores every mail From it (ignoreReason), never composes a reply to it
// (compose) and gives its side of a game no key, so nobody can act as the
// engine; nobody can challenge it under this address either.
const EngineAddress = club.EngineAddress

// IsEngine reports whether addr is the engine's address.
func IsEngine(addr string) bool { return addr == EngineAddress }

// EngineSide returns the side the engine opponent plays in g
// ("attackers" or "defenders"), or "" when g is a game between two
// people (no EngineLevel).
func EngineSide(g *archive.Game) string {
	if g.EngineLevel <= 0 {
		return ""
	}
	return SideOf(g, EngineAddress)
}

// EngineToMove reports whether the engine opponent is to move in t: it
// plays in t (EngineSide) and its side is the side to move.
func EngineToMove(t *Table) bool {
	side := EngineSide(t.G)
	return side != "" && t.ToMove() == side
}

// ignoreReason says why a mail gets no answer at all, or "" to answer it:
// our own mail, bounces and auto-replies (no loops), unreadable mail.
func (s *Server) ignoreReason(m *mailer.Message, from string) string {
	switch {
	case m.ParseError != nil:
		return "unreadable: " + m.ParseError.Error()
	case from == "" || from == s.Opts.Address:
		return "sent by the server itself or by nobody"
	case IsEngine(from):
		return "sent as the engine, which sends no mail (" + EngineAddress + ")"
	case m.IsBounce:
		return "bounce"
	case m.IsAutoReply:
		return "auto-reply"
	case len(m.Header[LoopHeader]) > 0:
		return "sent by a taflmail referee (" + LoopHeader + ")"
	case s.Opts.RequireAuthResults && !s.authenticated(m):
		return "Authentication-Results show no DKIM or SPF pass for the sender's domain"
	}
	return ""
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
			s.Log.Error("writing record failed", "game", t.G.ID, "err", err)
			return
		}
		rec, err := t.Record()
		if err != nil {
			s.Log.Error("writing record failed", "game", t.G.ID, "err", err)
			continue
		}
		path := filepath.Join(s.Opts.RecordsDir, t.G.ID+".tafl")
		if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
			s.Log.Error("writing record failed", "game", t.G.ID, "err", err)
		}
	}
}
