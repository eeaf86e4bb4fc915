package referee

import (
	"context"
	"io"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/engine"
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

	// Store is the archive (store.go); required.
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
	side := EngineSide(t.Game)
	return side != "" && t.ToMove() == side
}
