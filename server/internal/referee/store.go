package referee

import (
	"context"
	"errors"
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

// BatchInbox is an Inbox that also marks several mails done at once, as
// *mailer.Inbox does (DoneAll: one UID STORE and one UID MOVE for the
// set, two round trips where Done takes two per mail). The referee finds
// it by type assertion, as go-imap's server finds a session's optional
// commands: an Inbox with Done alone is marked done mail by mail
// (handleChunk, poll.go).
type BatchInbox interface {
	Inbox
	// DoneAll marks the mails with the UIDs uids \Seen and moves them out
	// of the inbox, nil for none. It may fail half way: on an error the
	// caller may assume nothing of any of the mails — each may still be
	// in the inbox, \Seen or not, or moved out (a server with MOVE moves
	// the set as one; the COPY + STORE + EXPUNGE fallback may leave
	// copies, or move only some) — and must leave them to the next poll,
	// which reads the inbox again and marks those still there done.
	DoneAll(ctx context.Context, uids []uint32) error
}

// Sender sends one raw message; *mailer.Sender implements it. Its error is
// a *mailer.SendError telling temporary from permanent failures.
type Sender interface {
	// Send hands raw, from the envelope sender from, to the relay for the
	// recipients to.
	Send(ctx context.Context, from string, to []string, raw []byte) error
}

// SessionSender is the optional add-on of a Sender that hands several
// messages to the relay over one connection (issue 19 §8); *mailer.Sender
// implements it. FlushOutbox finds it by type assertion and opens one
// session for a round of outbox mails; a Sender without it (the tests'
// fakes) gets each mail through Send, one connection a mail.
//
// Session returns a mailer.Session that has not connected yet: its first
// Send does. Each of its Sends is one mail with Send's errors (a
// *mailer.SendError, temporary or permanent); nil means the relay
// accepted that mail's DATA, and nothing else. When a Send fails half way
// through a round, the mails before it were taken (each had its nil), the
// failed one was not or is not known to be (a reply lost after its last
// line: a temporary error, retried later as after Send), and the next
// Send may go on: the session sends RSET after a refused mail and
// connects anew when the connection broke or met the relay's limit of
// mails a connection, sending the mail that met it once more there.
// Close says QUIT; its error changes none of the mails' outcomes.
type SessionSender interface {
	Sender
	Session() mailer.Session
}

// The archive's ports (issue 19 §3). Each part of the referee reads and
// writes the archive through a small interface of its own, named for what
// it asks: the core's games and records, the outbox, the clock's timers,
// the digest, the engine, the spectators, consent and tournaments. A file
// reaches a port only through its accessor on the Server (gameStore by
// s.GamePort(), digestStore by ss.Server.DigestPort(), …), never through the
// Store itself,
// so a grep for "Port()" shows what each file asks of the archive, and
// TestPortsByFile (ports_test.go) holds every file to the ports its room
// may use. Store is the composition *archive.Store implements, what
// cmd/taflmail and the tests' fakes hand to New.
//
// Every method takes the caller's context and returns the archive's
// errors (archive.ErrNotFound, ErrInvalid, ErrUnavailable …) as they
// come, wrapped by the caller if at all; *archive.Store's methods of the
// same names document them in full.

// gameStore is what the core and every feature read of games and
// players: the stored game with its plies and leave (Game), a player's
// games without plies (GamesOf), the player row (Player), and whether a
// drawn game id is free (GameIDTaken). Game and Player return
// archive.ErrNotFound when there is none; no games is not an error.
type gameStore interface {
	// Game returns game id with its plies and both players' leave;
	// archive.ErrNotFound when there is none.
	Game(ctx context.Context, id string) (*archive.Game, error)
	// GamesOf returns the games address plays, running and invited ones
	// first, without plies; none is not an error.
	GamesOf(ctx context.Context, address string) ([]*archive.Game, error)
	// Player returns the player row of address (any case);
	// archive.ErrNotFound when there is none.
	Player(ctx context.Context, address string) (*archive.Player, error)
	// GameIDTaken serves game ids unique by construction (session.go).
	GameIDTaken(ctx context.Context, id string) (bool, error)
}

// recordStore is the core's record of mails and its one way to write:
// whether a mail was processed (Processed, by Message-ID or content
// hash), the processed mail (Mail, archive.ErrNotFound for none), how
// many processed mails pass a filter (CountMails, the reply budgets of
// caps.go, per hour) and which (Mails, newest first: when the loop
// breaker's hour ends), the IMAP position (MailboxState: UIDVALIDITY and
// the last UID handled, 0, 0 when never saved), and the writes: Commit
// writes one archive.Change in one transaction (ErrDuplicate,
// ErrConflict, ErrNotFound, ErrInvalid, ErrUnavailable as archive.Store
// documents), WriteBatch a tournament's start in bounded memory
// (tournament_start.go, pipeline.go).
type recordStore interface {
	// Processed reports whether a mail with messageID, or with the
	// content hash contentHash when not "", was committed before.
	Processed(ctx context.Context, messageID, contentHash string) (bool, error)
	// Mail returns the processed mail with messageID;
	// archive.ErrNotFound when none was recorded.
	Mail(ctx context.Context, messageID string) (archive.ProcessedMail, error)
	// CountMails returns how many processed mails pass f (the reply
	// budgets of caps.go, per hour).
	CountMails(ctx context.Context, f archive.MailFilter) (int, error)
	// Mails returns the processed mails that pass f, newest first (the
	// end of the loop breaker's hour).
	Mails(ctx context.Context, f archive.MailFilter) ([]archive.ProcessedMail, error)
	// MailboxState returns the saved UIDVALIDITY of mailbox and the last
	// UID handled in it; 0, 0 when never saved.
	MailboxState(ctx context.Context, mailbox string) (uidValidity, lastUID uint32, err error)
	// Commit writes c in one transaction, all of it or none
	// (archive.ErrDuplicate, ErrConflict, ErrNotFound, ErrInvalid,
	// ErrUnavailable as archive.Store.Commit documents).
	Commit(ctx context.Context, c archive.Change) error
	// WriteBatch runs fn with a batch in one write transaction, committed
	// when fn returns nil (a tournament's start, tournament_start.go).
	WriteBatch(ctx context.Context, fn func(b *archive.Batch) error) error
}

// outboxStore is the sending side of the outbox (outbox.go,
// outbox_wake.go): at most limit mails due at now (PendingOutbox), the
// claims of a round by this process's owner name before SMTP
// (ClaimOutboxes: per id whether it was claimed, not when another holds
// it or it is no longer pending), the round's sent mails recorded in one
// transaction (MarkSentAll), and a deferral or a failure for good
// recorded at once (MarkRetry, MarkFailed). The Mark methods return
// archive.ErrNotFound for an unknown id.
type outboxStore interface {
	// PendingOutbox returns at most limit pending mails due at now, in
	// the order they were queued (a change's mails in the order of its
	// Outbox).
	PendingOutbox(ctx context.Context, now time.Time, limit int) ([]archive.OutboxMail, error)
	// ClaimOutboxes claims the mails ids for owner at at, in one
	// transaction (FlushOutbox): per id whether it was claimed.
	ClaimOutboxes(ctx context.Context, ids []int64, owner string, at time.Time) ([]archive.ClaimState, error)
	// MarkSentAll records the mails sent as handed to the relay at at
	// and drops owner's claims on release, in one transaction
	// (FlushOutbox).
	MarkSentAll(ctx context.Context, sent []int64, at time.Time, owner string, release []int64) error
	// MarkRetry records a failed attempt to send mail id that may work
	// later: it is due again at next, with errText kept.
	MarkRetry(ctx context.Context, id int64, next time.Time, errText string) error
	// MarkFailed records that mail id is given up for good, with errText
	// kept.
	MarkFailed(ctx context.Context, id int64, errText string) error
}

// clockStore is the clock's (internal/gameclock: clock.go, clock_timers.go, cmd_leave.go): a
// player's leave, earliest first (Leave; none is not an error), at most
// limit timers due at or before now, earliest first (DueTimers), and
// when the earliest pending timer or digest is due (NextTimer, false
// when none is pending).
type clockStore interface {
	// Leave returns the leave of the player at address, earliest first.
	Leave(ctx context.Context, address string) ([]notation.Leave, error)
	// DueTimers returns at most limit pending timers due at or before
	// now, earliest first (limit ≤ 0: all).
	DueTimers(ctx context.Context, now time.Time, limit int) ([]archive.Timer, error)
	// NextTimer returns when the earliest pending timer or digest is due,
	// false when none is pending.
	NextTimer(ctx context.Context) (time.Time, bool, error)
}

// digestStore is the daily digest's (issue 12, digest.go): at most limit
// players' digests due at or before now, earliest first.
type digestStore interface {
	// DueDigests returns at most limit players' digests due at or before
	// now, earliest first (limit ≤ 0: all).
	DueDigests(ctx context.Context, now time.Time, limit int) ([]archive.DigestDue, error)
}

// engineStore is the engine opponent's (docs/engine.md): its running
// games by level, level 1–5 → games, for its global cap (EngineGames,
// issue 18 §3, internal/opponent), and the reply held for its ply (HeldOutbox,
// internal/opponent: archive.ErrNotFound when none is held).
type engineStore interface {
	// EngineGames returns the engine's running games by level: level
	// (1–5) → games.
	EngineGames(ctx context.Context) (map[int]int, error)
	// HeldOutbox returns the latest pending mail of game gameID held for
	// heldFor; archive.ErrNotFound when none is held.
	HeldOutbox(ctx context.Context, gameID, heldFor string) (archive.OutboxMail, error)
}

// spectatorStore is the spectators' of games (issue 12, spectators.go,
// cmd_watch.go): a game's spectators in the order they came, and the
// running games an address watches, oldest first; none is not an error.
// An event's spectators are TournamentStore's.
type spectatorStore interface {
	// Spectators returns the spectators of game gameID, in the order they
	// came.
	Spectators(ctx context.Context, gameID string) ([]archive.Spectator, error)
	// Watching returns the running games address watches, oldest first.
	Watching(ctx context.Context, address string) ([]archive.Spectator, error)
}

// consentStore is consent's (issue 18, consent.go): an address's request
// to confirm what (archive.ErrNotFound when there is none), and how many
// mails of requests it was sent at or after since.
type consentStore interface {
	// Confirmation returns address's request to confirm what;
	// archive.ErrNotFound when there is none.
	Confirmation(ctx context.Context, address, what string) (archive.Confirmation, error)
	// ConfirmationMails returns how many mails of requests to confirm
	// were sent to address at or after since.
	ConfirmationMails(ctx context.Context, address string, since time.Time) (int, error)
}

// TournamentStore is the tournaments' and ratings' (docs/tournaments.md,
// tournament*.go, rating.go and the players' commands of events): the
// archive's tournaments, their entries and spectators, and the ratings,
// as the referee uses them, reached through Server.TournamentPort;
// *archive.Store implements it (part of Store).
type TournamentStore interface {
	// Tournament returns tournament id; archive.ErrNotFound when there is
	// none.
	Tournament(ctx context.Context, id string) (*archive.Tournament, error)
	// Tournaments returns the tournaments that pass f, by start date,
	// then id.
	Tournaments(ctx context.Context, f archive.TournamentFilter) ([]*archive.Tournament, error)
	// DueTournaments returns the tournaments not yet started whose start
	// date has come at now, earliest first.
	DueTournaments(ctx context.Context, now time.Time) ([]*archive.Tournament, error)
	// NextTournamentStart returns the start (00:00 UTC of its date) of
	// the earliest tournament still to start, false when there is none.
	NextTournamentStart(ctx context.Context) (time.Time, bool, error)
	// Entries returns the players of tournament tournamentID in the order
	// they entered, withdrawn ones included.
	Entries(ctx context.Context, tournamentID string) ([]archive.Entry, error)
	// EntriesOf returns player's entries in every tournament, by
	// tournament id.
	EntriesOf(ctx context.Context, player string) ([]archive.Entry, error)
	// TournamentGames returns every game of tournament tournamentID in
	// schedule order, with plies and leave only when withPlies.
	TournamentGames(ctx context.Context, tournamentID string, withPlies bool) ([]*archive.Game, error)
	// TournamentResults returns the games of tournament tournamentID with
	// only what its standings need, in schedule order.
	TournamentResults(ctx context.Context, tournamentID string) ([]*archive.Game, error)
	// Rating returns player's rating in variant; archive.ErrNotFound when
	// the player has no rated game in it.
	Rating(ctx context.Context, player, variant string) (archive.Rating, error)
	// RatingsOf returns player's ratings in every variant they have one
	// in, by variant.
	RatingsOf(ctx context.Context, player string) ([]archive.Rating, error)
	// Ratings returns every rating in variant, highest first.
	Ratings(ctx context.Context, variant string) ([]archive.Rating, error)
	// RatingHistory returns player's rated games in variant, oldest
	// first.
	RatingHistory(ctx context.Context, player, variant string) ([]archive.RatingRecord, error)
	// RatedGames returns the rated games of variant in the order they
	// were rated.
	RatedGames(ctx context.Context, variant string) ([]archive.RatedGame, error)
	// UnsettledWithdrawals returns the entries of players who withdrew
	// from a running tournament and still have a running game in it
	// (Decision T3).
	UnsettledWithdrawals(ctx context.Context) ([]archive.Entry, error)
	// PendingEntry serves the confirmation of "join" (cmd_join.go).
	PendingEntry(ctx context.Context, tournamentID, player string) (archive.PendingEntry, error)
	// TournamentSpectators returns the spectators of tournament
	// tournamentID: "watch ID" for a tournament (spectators.go).
	TournamentSpectators(ctx context.Context, tournamentID string) ([]archive.Spectator, error)
	// WatchingTournaments returns the tournaments address follows that
	// have not finished, oldest first.
	WatchingTournaments(ctx context.Context, address string) ([]archive.Spectator, error)
}

var _ TournamentStore = (*archive.Store)(nil)

// PublicNameStore is what "name" reads of the archive (cmd_name.go in
// server/internal/publicname): the public names players chose and the
// key of the pseudonyms (archive/public.go). It is apart from Store so
// that the tests' stores need not have it; *archive.Store implements it.
type PublicNameStore interface {
	// PublicName returns the public name the player at address chose,
	// "" when none.
	PublicName(ctx context.Context, address string) (string, error)
	// PublicNameOwner returns the address of the player whose public name
	// folds to name's fold, "" when nobody's does.
	PublicNameOwner(ctx context.Context, name string) (string, error)
	// PseudonymKey returns the archive's secret key for pseudonyms, never
	// to be shown.
	PseudonymKey(ctx context.Context) ([]byte, error)
}

var _ PublicNameStore = (*archive.Store)(nil)

// Store is the durable state, every port in one; *archive.Store
// implements it. The optional PublicNameStore is found by
// type assertion, so a store without public names is still a Store.
type Store interface {
	gameStore
	recordStore
	outboxStore
	clockStore
	digestStore
	engineStore
	spectatorStore
	consentStore
	TournamentStore // tournaments and ratings
}

var (
	_ Inbox         = (*mailer.Inbox)(nil)
	_ BatchInbox    = (*mailer.Inbox)(nil)
	_ Sender        = (*mailer.Sender)(nil)
	_ SessionSender = (*mailer.Sender)(nil)
	_ Store         = (*archive.Store)(nil)
)

// IgnoreNotFound returns err unless it is archive.ErrNotFound.
func IgnoreNotFound(err error) error {
	if errors.Is(err, archive.ErrNotFound) {
		return nil
	}
	return err
}
