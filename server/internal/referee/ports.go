package referee

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

// The archive's ports (issue 19 §3). Each part of the referee reads and
// writes the archive through a small interface of its own, named for what
// it asks: the core's games and records, the outbox, the clock's timers,
// the digest, the engine, the spectators, consent and tournaments. A file
// reaches a port only through its accessor on the Server (gameStore by
// s.GamePort(), digestStore by ss.Srv.DigestPort(), …), never through the
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
	Game(ctx context.Context, id string) (*archive.Game, error)
	GamesOf(ctx context.Context, address string) ([]*archive.Game, error)
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
	Processed(ctx context.Context, messageID, contentHash string) (bool, error)
	Mail(ctx context.Context, messageID string) (archive.ProcessedMail, error)
	CountMails(ctx context.Context, f archive.MailFilter) (int, error)
	Mails(ctx context.Context, f archive.MailFilter) ([]archive.ProcessedMail, error)
	MailboxState(ctx context.Context, mailbox string) (uidValidity, lastUID uint32, err error)
	Commit(ctx context.Context, c archive.Change) error
	WriteBatch(ctx context.Context, fn func(b *archive.Batch) error) error
}

// outboxStore is the sending side of the outbox (loop.go,
// outbox_wake.go): at most limit mails due at now (PendingOutbox), the
// claims of a round by this process's owner name before SMTP
// (ClaimOutboxes: per id whether it was claimed, not when another holds
// it or it is no longer pending), the round's sent mails recorded in one
// transaction (MarkSentAll), and a deferral or a failure for good
// recorded at once (MarkRetry, MarkFailed). The Mark methods return
// archive.ErrNotFound for an unknown id.
type outboxStore interface {
	PendingOutbox(ctx context.Context, now time.Time, limit int) ([]archive.OutboxMail, error)
	// ClaimOutboxes and MarkSentAll claim and record a round of the
	// outbox in one transaction each (FlushOutbox).
	ClaimOutboxes(ctx context.Context, ids []int64, owner string, at time.Time) ([]archive.ClaimState, error)
	MarkSentAll(ctx context.Context, sent []int64, at time.Time, owner string, release []int64) error
	MarkRetry(ctx context.Context, id int64, next time.Time, errText string) error
	MarkFailed(ctx context.Context, id int64, errText string) error
}

// clockStore is the clock's (internal/gameclock: clock.go, clock_timers.go, cmd_leave.go): a
// player's leave, earliest first (Leave; none is not an error), at most
// limit timers due at or before now, earliest first (DueTimers), and
// when the earliest pending timer or digest is due (NextTimer, false
// when none is pending).
type clockStore interface {
	Leave(ctx context.Context, address string) ([]notation.Leave, error)
	DueTimers(ctx context.Context, now time.Time, limit int) ([]archive.Timer, error)
	NextTimer(ctx context.Context) (time.Time, bool, error)
}

// digestStore is the daily digest's (issue 12, digest.go): at most limit
// players' digests due at or before now, earliest first.
type digestStore interface {
	DueDigests(ctx context.Context, now time.Time, limit int) ([]archive.DigestDue, error)
}

// engineStore is the engine opponent's (docs/engine.md): its running
// games by level, level 1–5 → games, for its global cap (EngineGames,
// issue 18 §3, engine.go), and the reply held for its ply (HeldOutbox,
// engine_hold.go: archive.ErrNotFound when none is held).
type engineStore interface {
	EngineGames(ctx context.Context) (map[int]int, error)
	HeldOutbox(ctx context.Context, gameID, heldFor string) (archive.OutboxMail, error)
}

// spectatorStore is the spectators' of games (issue 12, spectators.go,
// cmd_watch.go): a game's spectators in the order they came, and the
// running games an address watches, oldest first; none is not an error.
// An event's spectators are TournamentStore's.
type spectatorStore interface {
	Spectators(ctx context.Context, gameID string) ([]archive.Spectator, error)
	Watching(ctx context.Context, address string) ([]archive.Spectator, error)
}

// consentStore is consent's (issue 18, consent.go): an address's request
// to confirm what (archive.ErrNotFound when there is none), and how many
// mails of requests it was sent at or after since.
type consentStore interface {
	Confirmation(ctx context.Context, address, what string) (archive.Confirmation, error)
	ConfirmationMails(ctx context.Context, address string, since time.Time) (int, error)
}

// TournamentStore is the tournaments' and ratings' (docs/tournaments.md,
// tournament*.go, rating.go and the players' commands of events): the
// archive's tournaments, their entries and spectators, and the ratings,
// as the referee uses them, reached through Server.TournamentPort;
// *archive.Store implements it (part of Store).
type TournamentStore interface {
	Tournament(ctx context.Context, id string) (*archive.Tournament, error)
	Tournaments(ctx context.Context, f archive.TournamentFilter) ([]*archive.Tournament, error)
	DueTournaments(ctx context.Context, now time.Time) ([]*archive.Tournament, error)
	NextTournamentStart(ctx context.Context) (time.Time, bool, error)
	Entries(ctx context.Context, tournamentID string) ([]archive.Entry, error)
	EntriesOf(ctx context.Context, player string) ([]archive.Entry, error)
	TournamentGames(ctx context.Context, tournamentID string, withPlies bool) ([]*archive.Game, error)
	TournamentResults(ctx context.Context, tournamentID string) ([]*archive.Game, error)
	Rating(ctx context.Context, player, variant string) (archive.Rating, error)
	RatingsOf(ctx context.Context, player string) ([]archive.Rating, error)
	Ratings(ctx context.Context, variant string) ([]archive.Rating, error)
	RatingHistory(ctx context.Context, player, variant string) ([]archive.RatingRecord, error)
	RatedGames(ctx context.Context, variant string) ([]archive.RatedGame, error)
	UnsettledWithdrawals(ctx context.Context) ([]archive.Entry, error)
	// PendingEntry serves the confirmation of "join" (cmd_join.go).
	PendingEntry(ctx context.Context, tournamentID, player string) (archive.PendingEntry, error)
	// TournamentSpectators and WatchingTournaments serve "watch ID" for a
	// tournament (spectators.go).
	TournamentSpectators(ctx context.Context, tournamentID string) ([]archive.Spectator, error)
	WatchingTournaments(ctx context.Context, address string) ([]archive.Spectator, error)
}

var _ TournamentStore = (*archive.Store)(nil)

// PublicNameStore is what "name" reads of the archive (cmd_name.go in
// server/internal/publicname): the public names players chose and the
// key of the pseudonyms (archive/public.go). It is apart from Store so
// that the tests' stores need not have it; *archive.Store implements it.
type PublicNameStore interface {
	PublicName(ctx context.Context, address string) (string, error)
	PublicNameOwner(ctx context.Context, name string) (string, error)
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

// The accessors of the ports: the only places that read s.Store.

// GamePort is the archive's games and players.
func (s *Server) GamePort() gameStore { return s.Store }

// recordPort is the record of mails and the one way to write.
func (s *Server) recordPort() recordStore { return s.Store }

// outboxPort is the sending side of the outbox.
func (s *Server) outboxPort() outboxStore { return s.Store }

// ClockPort is the clock's leave and timers.
func (s *Server) ClockPort() clockStore { return s.Store }

// DigestPort is the daily digest's due digests.
func (s *Server) DigestPort() digestStore { return s.Store }

// EnginePort is the engine opponent's games and held replies.
func (s *Server) EnginePort() engineStore { return s.Store }

// SpectatorPort is the spectators of games.
func (s *Server) SpectatorPort() spectatorStore { return s.Store }

// consentPort is the requests to confirm.
func (s *Server) consentPort() consentStore { return s.Store }

// TournamentPort is the tournaments, their entries and spectators, and
// the ratings.
func (s *Server) TournamentPort() TournamentStore { return s.Store }

// NamePort is the public names, and false when the store keeps none.
func (s *Server) NamePort() (PublicNameStore, bool) {
	ns, ok := s.Store.(PublicNameStore)
	return ns, ok
}

var (
	_ Inbox  = (*mailer.Inbox)(nil)
	_ Sender = (*mailer.Sender)(nil)
	_ Store  = (*archive.Store)(nil)
)
