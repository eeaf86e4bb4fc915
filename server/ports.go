package server

import (
	"context"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/notation"
)

// Inbox is where mail comes from; *mailer.Inbox implements it.
type Inbox interface {
	// Fetch returns the mails with UID > afterUID (every mail when the
	// mailbox's UIDVALIDITY is not uidValidity) and the current UIDVALIDITY.
	Fetch(ctx context.Context, uidValidity, afterUID uint32, maxBytes int64) ([]*mailer.Message, uint32, error)
	// Done marks a mail \Seen and moves it out of the inbox.
	Done(ctx context.Context, uid uint32) error
	// Wait returns when new mail may have arrived (IDLE or a poll interval)
	// or ctx ends.
	Wait(ctx context.Context) error
}

// Sender sends one raw message; *mailer.Sender implements it. Its error is
// a *mailer.SendError telling temporary from permanent failures.
type Sender interface {
	Send(ctx context.Context, from string, to []string, raw []byte) error
}

// Store is the durable state; *archive.Store implements it.
type Store interface {
	Processed(ctx context.Context, messageID, contentHash string) (bool, error)
	Commit(ctx context.Context, c archive.Change) error
	Game(ctx context.Context, id string) (*archive.Game, error)
	// GameIDTaken and WriteBatch serve game ids unique by construction
	// and a tournament's start in bounded memory (tournament_start.go).
	GameIDTaken(ctx context.Context, id string) (bool, error)
	WriteBatch(ctx context.Context, fn func(b *archive.Batch) error) error
	GamesOf(ctx context.Context, address string) ([]*archive.Game, error)
	Player(ctx context.Context, address string) (*archive.Player, error)
	CountMails(ctx context.Context, f archive.MailFilter) (int, error)
	Mail(ctx context.Context, messageID string) (archive.ProcessedMail, error)
	PendingOutbox(ctx context.Context, now time.Time, limit int) ([]archive.OutboxMail, error)
	// ClaimOutboxes and MarkSentAll claim and record a round of the
	// outbox in one transaction each (FlushOutbox).
	ClaimOutboxes(ctx context.Context, ids []int64, owner string, at time.Time) ([]archive.ClaimState, error)
	MarkSentAll(ctx context.Context, sent []int64, at time.Time, owner string, release []int64) error
	MarkRetry(ctx context.Context, id int64, next time.Time, errText string) error
	MarkFailed(ctx context.Context, id int64, errText string) error
	// HeldOutbox finds a reply held for the engine's answer (engine_hold.go).
	HeldOutbox(ctx context.Context, gameID, heldFor string) (archive.OutboxMail, error)
	MailboxState(ctx context.Context, mailbox string) (uidValidity, lastUID uint32, err error)
	Leave(ctx context.Context, address string) ([]notation.Leave, error)
	DueTimers(ctx context.Context, now time.Time, limit int) ([]archive.Timer, error)
	NextTimer(ctx context.Context) (time.Time, bool, error)
	// DueDigests serves the daily digest (issue 12, digest.go).
	DueDigests(ctx context.Context, now time.Time, limit int) ([]archive.DigestDue, error)
	// EngineGames counts the running games against the engine by level,
	// for its global cap (issue 18 §3, engine.go).
	EngineGames(ctx context.Context) (map[int]int, error)
	// Spectators and Watching serve "watch" (issue 12, spectators.go).
	Spectators(ctx context.Context, gameID string) ([]archive.Spectator, error)
	Watching(ctx context.Context, address string) ([]archive.Spectator, error)
	// Confirmation and ConfirmationMails serve the requests an address
	// must confirm (issue 18, consent.go).
	Confirmation(ctx context.Context, address, what string) (archive.Confirmation, error)
	ConfirmationMails(ctx context.Context, address string, since time.Time) (int, error)
	TournamentStore // tournaments and ratings (tournament.go)
}

var (
	_ Inbox  = (*mailer.Inbox)(nil)
	_ Sender = (*mailer.Sender)(nil)
	_ Store  = (*archive.Store)(nil)
)
