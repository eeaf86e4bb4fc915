package archive

import (
	"time"

	"github.com/taflmail/taflmail/notation"
)

// GameStatus is where a game is in its life: [Invited] → [Active] →
// [Finished], or [Invited] → [Declined].
type GameStatus string

// The game statuses. The text is what the games.status column holds.
const (
	Invited  GameStatus = "invited"  // challenge sent, not yet accepted
	Active   GameStatus = "active"   // accepted, being played
	Finished GameStatus = "finished" // over; Result and Reason say how
	Declined GameStatus = "declined" // the challenge was refused or expired
)

// Valid reports whether s is one of the four statuses.
func (s GameStatus) Valid() bool {
	switch s {
	case Invited, Active, Finished, Declined:
		return true
	}
	return false
}

// OutboxStatus is where an outgoing mail is: [Pending] until the SMTP server
// took it ([Sent]) or it was given up ([Failed]).
type OutboxStatus string

// The outbox statuses. The text is what the outbox.status column holds.
const (
	Pending OutboxStatus = "pending"
	Sent    OutboxStatus = "sent"
	Failed  OutboxStatus = "failed"
)

// Valid reports whether s is one of the three statuses.
func (s OutboxStatus) Valid() bool {
	switch s {
	case Pending, Sent, Failed:
		return true
	}
	return false
}

// Game is one game as stored. The referee owns its meaning; the archive
// checks only what its queries depend on (see [Store.Commit]).
type Game struct {
	ID         string     // public id, e.g. "K7QX2M"; never empty
	Variant    string     // variant name as the engine knows it, e.g. "copenhagen"
	Attackers  string     // address of the attacking player (stored lower case)
	Defenders  string     // address of the defending player (stored lower case)
	Challenger string     // address of the player who sent the challenge (lower case)
	Status     GameStatus // Invited, Active, Finished or Declined

	// Plies are the moves played, ply 1 first. Filled by [Store.Game]
	// (and [Store.Games] with GameFilter.WithPlies) only; Commit never reads
	// it: new plies go in Change.NewPlies.
	Plies []Ply
	// PlyCount is the number of stored plies. Every query fills it, also
	// when Plies is not loaded; Commit keeps it and ignores the caller's.
	PlyCount int

	Result      string // "", "attackers", "defenders" or "draw"
	Reason      string // how it ended, e.g. "king captured", "resignation"; "" while playing; for a Declined game "" (declined), "withdrawn", "expired" or "undeliverable" (server/invitations.go)
	DrawOfferBy string // "", "attackers" or "defenders": the side whose draw offer stands

	AttackerToken string // per-game secret of the attackers' player
	DefenderToken string // per-game secret of the defenders' player

	// AttackersThread and DefendersThread are the Message-IDs of the last
	// mail sent to each player, for In-Reply-To and References.
	AttackersThread string
	DefendersThread string

	StartPosition string // OTN position; "" for the variant's start
	// TimeControl is the time control as CORRESPONDENCE.md §1 writes it
	// (notation.TimeControl.String, e.g. "30d+1d" or "3d/move"); "" for an
	// untimed game. Clocks are computed from StartedAt, Ply.At, Ply.Avail
	// and the players' leave (package clock).
	TimeControl  string
	TournamentID string // "" for a casual game
	// EngineLevel is the level (1 to 5, search.Level) of the engine
	// opponent that plays one side of the game under the referee's
	// reserved engine address (docs/engine.md, "Playing the engine by
	// mail"); 0 in a game between two people.
	EngineLevel int
	// Rated reports that the game counts for the ratings
	// (CORRESPONDENCE.md §7.3): a game of a rated tournament, or a casual
	// game both players agreed to rate.
	Rated bool
	// Event is the tournament's part of a tournament game's record (its
	// Event and Round tags, the event's leave allowance), filled by
	// [Store.Game] and [Store.TournamentGames]; nil for a casual game and
	// in lists. Commit ignores it.
	Event *GameEvent

	// StartedAt is when the game started (its acceptance was committed):
	// the first mover's clock starts here (CORRESPONDENCE.md §2.1). Zero
	// before the game starts, and for games stored before clocks existed.
	StartedAt time.Time
	// EndedAt is when the game ended, for a time-out the instant it was
	// declared (the %ts of the record's final "timeout"); zero while it
	// runs and for games stored before clocks existed.
	EndedAt time.Time

	// Leave is each player's leave (indexed by engine.Side: attackers 0,
	// defenders 1), all of it, filled by [Store.Game] from the players'
	// leave; Commit ignores it (leave is per player: a [LeaveWrite]). Replay
	// writes the part that touches the game as leave tags.
	Leave [2][]notation.Leave

	// What correspondence players expect (issue 12, archive/players.go).
	// AttackersPrivate and DefendersPrivate say that the player of that
	// side refuses spectators; a casual game is private when either is
	// set. MessageToAttackers and MessageToDefenders hold the opponent's
	// message (prose of a keyed mail) waiting for the next mail to that
	// player, "" for none. AttackersConditions and DefendersConditions
	// are each player's conditional moves. TakebackBy is "", "attackers"
	// or "defenders": the side whose request to take back its last ply
	// stands. TakenBack lists the plies undone by agreement, oldest
	// first; filled with Plies, never read by Commit (a takeback goes in
	// a TakeBacks write).
	AttackersPrivate    bool
	DefendersPrivate    bool
	MessageToAttackers  string
	MessageToDefenders  string
	AttackersConditions Conditions
	DefendersConditions Conditions
	TakebackBy          string
	TakenBack           []TakenBack

	CreatedAt time.Time // Commit fills a zero value with the store's clock
	UpdatedAt time.Time // Commit fills a zero value with the store's clock

	// Version is the optimistic-concurrency counter: 0 for a game not yet
	// stored, 1 after its first Commit, +1 with every Commit that touches
	// the game or appends to its plies. Commit compares it and sets it.
	Version int64
}

// Ply is one move of a game.
type Ply struct {
	N    int    // 1-based ply number; the attackers' first move is ply 1 in most variants
	Move string // canonical OTN, e.g. "d1-d3xd4"
	// At is when the ply arrived: the IMAP INTERNALDATE of the mail that
	// carried it (CORRESPONDENCE.md §2.2, Decision C2); the mover's clock
	// stops here. Commit fills a zero value with the store's clock.
	At time.Time
	// Avail is when the referee committed the ply, when that was later
	// than At by more than the referee's slack (the daemon was down); the
	// opponent's clock starts there (§2.1, the record's [%avail]). Zero
	// otherwise.
	Avail     time.Time
	MessageID string // the mail that carried it; "" if none (e.g. a timeout)
}

// Player is a person who plays by mail.
type Player struct {
	Address  string // mail address, the key (stored lower case)
	Name     string // display name from the mail's From header; may be ""
	Language string // reply language, "en" or "de"; "" for the server's default
	// MessagesOff says that the player chose "messages off": the
	// opponents' messages are not relayed to him (issue 12).
	MessagesOff bool
	// Digest says that the player chose "notify digest" (issue 12,
	// archive/digest.go): one mail a day at DigestAt instead of a mail
	// for every ply of an opponent. DigestAt is that time of day in
	// minutes after midnight (0–1439) in the time zone DigestZone, the
	// IANA name of the zone ("Europe/Berlin"; "" for UTC,
	// migrations/009_digest_zone.sql); the archive stores the name and
	// leaves its meaning to the referee. DigestDue is when the next
	// digest is due (an instant, stored in UTC), which must be set with
	// Digest. Without Digest all three are zero (DigestAt and DigestDue
	// stored as NULL: "notify each"). Commit keeps the stored DigestDue
	// when Digest, DigestAt and DigestZone are what is stored, so writing
	// a player read before a digest was sent does not move its timer
	// back.
	Digest     bool
	DigestAt   int
	DigestZone string
	DigestDue  time.Time
	// Blocked says that the address wrote "block" (issue 18,
	// migrations/012_consent.sql): the referee sends it no invitation
	// and no request to confirm that someone else may have made in its
	// name.
	Blocked bool
	// ProvedAt is when a mail from the address first carried a key the
	// referee had mailed to it alone (a player's key, a confirmation's
	// key); zero if never. Commit keeps the first one stored: once set
	// it never changes.
	ProvedAt  time.Time
	CreatedAt time.Time // first seen; kept on later upserts
}

// ProcessedMail records that an incoming mail was handled and how. Its
// Message-ID, and its content hash when not empty, each identify it: the
// archive accepts each only once.
type ProcessedMail struct {
	MessageID   string    // the mail's Message-ID header, without angle brackets
	ContentHash string    // hash of the mail's content (the referee chooses which); "" if none
	From        string    // sender address (stored lower case)
	GameID      string    // the game the mail named, existing or not; "" if none
	Disposition string    // "applied", "refused", "ignored" or "error"
	At          time.Time // when it was handled; Commit fills a zero value with the store's clock

	// Authenticated reports that the mail carried the sender's valid key
	// for the game it named (docs/security.md): such a mail is always
	// handled and answered, and never counts against a reply budget.
	Authenticated bool
	// Replies is the number of outbox mails the mail caused; Commit sets
	// it to len(Change.Outbox) and ignores the caller's value.
	Replies int
	// Reason says why the mail was ignored or not answered, e.g. "bounce"
	// or "reply budget for unknown senders spent (60 per hour)"; "" when it
	// was answered normally.
	Reason string
	// Subject is the mail's decoded subject, kept for the operator's
	// listing (`taflmail mails`); cut to 200 bytes.
	Subject string
	// Budget is the reply budget a mail without the sender's key was
	// counted in (docs/security.md); [NoBudget] for a keyed mail.
	Budget MailBudget
	// Domain is the sender's organizational domain, which the referee's
	// per-domain budget counts by ("example.org" for
	// "bob@mail.example.org"); stored lower case, "" when unknown.
	Domain string
}

// MailBudget names the reply budget a processed mail without the sender's
// key was counted in (issue 18 §2, docs/security.md "No loops, no
// floods"). The text is what the processed_mails.budget column holds.
type MailBudget string

// The values of MailBudget.
const (
	NoBudget           MailBudget = ""             // a keyed mail: no budget counts it
	JunkBudget         MailBudget = "junk"         // no valid command: budgets per sender, per domain and overall
	CommandBudget      MailBudget = "command"      // a valid command (a challenge, a join): budgets per sender and per domain
	ConfirmationBudget MailBudget = "confirmation" // a confirmation carrying its key: never held back
)

// Valid reports whether b is one of the four values.
func (b MailBudget) Valid() bool {
	return b == NoBudget || b == JunkBudget || b == CommandBudget || b == ConfirmationBudget
}

// The dispositions a ProcessedMail may have.
var dispositions = map[string]bool{"applied": true, "refused": true, "ignored": true, "error": true}

// OutboxMail is an outgoing mail, queued by Commit together with the change
// that caused it and sent later.
type OutboxMail struct {
	ID          int64        // assigned by Commit; ignored on input
	GameID      string       // the game the mail is about; "" for none
	MessageID   string       // the mail's Message-ID, also in Raw
	From        string       // envelope sender (MAIL FROM)
	To          []string     // envelope recipients (RCPT TO); at least one
	Raw         []byte       // the complete message, headers and body, CRLF line ends
	Status      OutboxStatus // "" is taken as Pending on input
	Attempts    int          // failed sending attempts so far (MarkRetry, MarkFailed); MarkSent leaves it
	NextAttempt time.Time    // not before; a zero value on input means CreatedAt
	LastError   string       // the last sending error, kept after success
	CreatedAt   time.Time    // Commit fills a zero value with the store's clock
	SentAt      time.Time    // zero until sent
	ClaimedBy   string       // the sender holding a claim ([Store.ClaimOutbox]); "" for none; ignored on input
	ClaimedAt   time.Time    // when it was claimed; zero for none; ignored on input
	// HeldFor names what a mail held back (NextAttempt later than
	// CreatedAt) waits for, e.g. "ply 4 engine": while it is Pending and
	// claimed by nobody, a later change of the same game may take its
	// place ([Store.HeldOutbox], [Change.Replace]). "" for none.
	HeldFor string
	// Carry is the text of the mail that the mail taking its place
	// repeats; "" for none.
	Carry string
}

// GameFilter selects games for [Store.Games].
type GameFilter struct {
	Status    GameStatus // "" for every status
	Limit     int        // at most this many games; 0 or less for all
	Offset    int        // skip this many games first
	WithPlies bool       // load each game's plies too
}

// MailFilter selects processed mails for [Store.Mails] and
// [Store.CountMails]. The zero value selects every mail.
type MailFilter struct {
	From         string     // only mails from this sender (any case); "" for every sender
	GameID       string     // only mails that named this game; "" for any
	Disposition  string     // only this disposition; "" for any
	Auth         AuthFilter // by what authenticated the mail
	AnsweredOnly bool       // only mails that caused at least one reply
	Since        time.Time  // only mails handled at or after this instant; zero for all
	Budget       MailBudget // only mails counted in this budget; NoBudget for any (keyed mails included)
	Domain       string     // only mails whose ProcessedMail.Domain is this (any case); "" for any
	Limit        int        // Mails returns at most this many, newest first; 0 or less for all
}

// AuthFilter selects mails by [ProcessedMail.Authenticated].
type AuthFilter int

// The values of AuthFilter.
const (
	AnyAuth             AuthFilter = iota // authenticated or not
	OnlyAuthenticated                     // mails that carried the sender's key
	OnlyUnauthenticated                   // mails that did not
)

// MailboxState is the IMAP position of one watched mailbox: the
// UIDVALIDITY seen and the highest UID handled (RFC 9051 section 2.3.1.1).
type MailboxState struct {
	Mailbox     string
	UIDValidity uint32
	LastUID     uint32
}

// TimerKind says what a timer does when it fires. The text is what the
// timers.kind column holds.
type TimerKind string

// The timer kinds (package clock's TimerReminder and TimerDeadline, and
// the engine opponent's turn).
const (
	TimerReminder TimerKind = "reminder" // remind the side to move (CORRESPONDENCE.md §4.1)
	TimerDeadline TimerKind = "deadline" // end the game on time (§2.6, §4.2)
	TimerEngine   TimerKind = "engine"   // the engine opponent replies: its ply, or its answer to a draw offer
)

// Valid reports whether k is one of the three kinds.
func (k TimerKind) Valid() bool { return k == TimerReminder || k == TimerDeadline || k == TimerEngine }

// Timer is an instant at which a game needs the referee without a mail:
// a reminder, a deadline (the scheduler's timers, docs/clock.md) or the
// engine opponent's reply (docs/engine.md).
type Timer struct {
	// GameID is the game; filled by the queries, ignored in a TimerPlan
	// (whose map key names the game).
	GameID string
	// Key identifies the timer within its game independently of Due, e.g.
	// "ply 12 reminder 7d" or "ply 12 deadline" (clock.Timer.Key): with
	// GameID it is the idempotency key of what the timer does. Not empty.
	Key  string
	Kind TimerKind
	// Ply is the 1-based number of the ply the timer waits for.
	Ply int
	// Due is when it fires (UTC).
	Due time.Time
	// Done is when its effect was committed ([FiredTimers]); zero while
	// it is pending.
	Done time.Time
}

// TimerPlan replaces the timers of one game ([TimerPlans]).
type TimerPlan struct {
	// Ply is the ply the game waits for: the done marks of earlier plies
	// are dropped, those of Ply and later kept. 0 drops every timer of the
	// game, done or not, and then Timers must be empty: for a game that
	// is over or not running.
	Ply int
	// Timers are the game's pending timers from now on, replacing every
	// pending one. A timer whose Key is already done stays done: it is not
	// pending again (a leave that moves a reminder does not repeat it).
	Timers []Timer
}

// TimerRef names one timer: its game and its key.
type TimerRef struct {
	GameID string
	Key    string
}
