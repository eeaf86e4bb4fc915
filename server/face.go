package server

import (
	"context"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/server/internal/tournaments"
	"github.com/taflmail/taflmail/tournament"
	"github.com/taflmail/taflmail/tournament/glicko2"
)

// The public face: the core's types and constants that the daemon, the
// CLI and the end-to-end tests use, under server's name. They are aliases,
// so a *server.Server is a *referee.Server with all of its methods (Run,
// HandleMail, Inspect, FlushOutbox, Poll, RunTimers, Wake, StartGames…),
// and the API is what it was when the core was package server.

// Server is the referee (referee.Server): its options, its store and
// mailboxes, and what runs for its life. Make it with New.
type Server = referee.Server

// Options configure a Server (referee.Options): the store, the inbox and
// the sender are required; every other field has its default.
type Options = referee.Options

// Observer is told of the referee's events for counters such as those of
// /metrics (referee.Observer).
type Observer = referee.Observer

// Inbox is the mailbox the referee reads (referee.Inbox).
type Inbox = referee.Inbox

// BatchInbox is an Inbox that marks a chunk's mails done at once, found
// by type assertion (referee.BatchInbox); *mailer.Inbox is one.
type BatchInbox = referee.BatchInbox

// Sender sends the referee's mails (referee.Sender).
type Sender = referee.Sender

// SessionSender is a Sender that also sends a round of mails over one
// connection (referee.SessionSender); *mailer.Sender is one.
type SessionSender = referee.SessionSender

// Store is everything the referee asks of the archive, the composition of
// its small ports (referee.Store); *archive.Store implements it.
type Store = referee.Store

// TournamentStore is the archive's port for tournaments, entries, an
// event's spectators and ratings (referee.TournamentStore).
type TournamentStore = referee.TournamentStore

// PublicNameStore is the archive's optional port for the public names
// players choose (referee.PublicNameStore).
type PublicNameStore = referee.PublicNameStore

// Inspection is what `taflmail inspect` shows of a mail
// (referee.Inspection).
type Inspection = referee.Inspection

// InspectedCommand is one command line of an Inspection
// (referee.InspectedCommand).
type InspectedCommand = referee.InspectedCommand

// InspectedReply is one reply of an Inspection (referee.InspectedReply).
type InspectedReply = referee.InspectedReply

// GameStart is a game to start without a challenge, a pairing an
// organiser made (referee.GameStart).
type GameStart = referee.GameStart

// The options' defaults (see referee's constants of the same names).
const (
	// DefaultJunkReplies is Options.JunkReplies's default: mails of junk, from all senders together, answered per budget window.
	DefaultJunkReplies = referee.DefaultJunkReplies
	// DefaultDomainReplies is Options.DomainReplies's default: keyless mails of one budget from one organizational domain answered per budget window.
	DefaultDomainReplies = referee.DefaultDomainReplies
	// DefaultInvitationExpiry is how long a challenge waits for an answer when Options.InvitationExpiry is 0: 14 days.
	DefaultInvitationExpiry = referee.DefaultInvitationExpiry
	// DefaultOutboxPoll is Options.OutboxPoll's default: how often Run looks at the outbox while it waits for mail.
	DefaultOutboxPoll = referee.DefaultOutboxPoll
	// DefaultArrivalGrace is how long past a deadline the referee waits for mail stamped before it to show in the mailbox.
	DefaultArrivalGrace = referee.DefaultArrivalGrace
	// DefaultMaxTournamentPlayers is Options.MaxTournamentPlayers's default: 300 players.
	DefaultMaxTournamentPlayers = referee.DefaultMaxTournamentPlayers
	// DefaultMaxAttachmentBytes is Options.MaxAttachmentBytes when it is 0: 5 MiB.
	DefaultMaxAttachmentBytes = referee.DefaultMaxAttachmentBytes
	// DefaultEngineGames is Options.EngineGames's default: running games one player may have against the engine.
	DefaultEngineGames = referee.DefaultEngineGames
	// DefaultEngineReplyHold is Options.EngineReplyHold's default.
	DefaultEngineReplyHold = referee.DefaultEngineReplyHold
	// EngineAddress is the address the engine opponent plays under; no mail comes from it.
	EngineAddress = referee.EngineAddress
)

// New checks the options and returns a Server with the features of the
// assembly (assembly.go). It returns an error naming the first missing
// required option (referee.New).
func New(o Options) (*Server, error) { return referee.New(o) }

// The director's tournament operations and what they return, from the
// tournaments feature (internal/tournaments), under server's name: they
// were server's before the feature had a package of its own, and
// cmd/taflmail calls them so. Each is the feature's function of the same
// name; the errors are the same values, so errors.Is holds for either.

// TournamentStarted is what StartTournamentCounted did
// (tournaments.TournamentStarted): games started, players paired, mails
// queued for players and spectators.
type TournamentStarted = tournaments.TournamentStarted

// MinPlayers is the fewest players a tournament starts with
// (tournaments.MinPlayers, club.MinPlayers).
const MinPlayers = tournaments.MinPlayers

// Errors of the director's tournament operations (StartTournament,
// WithdrawPlayer), wrapped with the detail; the tournaments feature's
// values.
var (
	// ErrNoTournament: no tournament has the id.
	ErrNoTournament = tournaments.ErrNoTournament
	// ErrTournamentState: the tournament is not in the state the
	// operation needs (starting one that started, withdrawing from one
	// that is over).
	ErrTournamentState = tournaments.ErrTournamentState
	// ErrTooFewPlayers: fewer than three players (or a group of fewer
	// than two) at the start.
	ErrTooFewPlayers = tournaments.ErrTooFewPlayers
	// ErrNotEntered: the player is not (or no longer) in the tournament.
	ErrNotEntered = tournaments.ErrNotEntered
)

// StartTournament starts tournament id on s and returns its games' ids in
// schedule order (tournaments.StartTournament). Errors: ErrNoTournament,
// ErrTournamentState, ErrTooFewPlayers, and archive errors.
func StartTournament(s *Server, ctx context.Context, id string) ([]string, error) {
	return tournaments.StartTournament(s, ctx, id)
}

// StartTournamentCounted is StartTournament, telling how many games
// started, players were paired and mails were queued
// (tournaments.StartTournamentCounted). Its errors are StartTournament's.
func StartTournamentCounted(s *Server, ctx context.Context, id string) (TournamentStarted, error) {
	return tournaments.StartTournamentCounted(s, ctx, id)
}

// WithdrawPlayer withdraws player from tournament id on s
// (tournaments.WithdrawPlayer). Errors: ErrNoTournament, ErrNotEntered,
// ErrTournamentState, and archive errors.
func WithdrawPlayer(s *Server, ctx context.Context, id, player string) (tournament.Withdrawal, error) {
	return tournaments.WithdrawPlayer(s, ctx, id, player)
}

// TournamentExport writes the games of a tournament as one native record
// file (tournaments.TournamentExport, club.ExportEvent).
func TournamentExport(games []*archive.Game) ([]byte, error) {
	return tournaments.TournamentExport(games)
}

// EventStandings computes the standings of a tournament from what the
// archive holds, one per group (tournaments.EventStandings).
func EventStandings(t *archive.Tournament, entries []archive.Entry, games []*archive.Game) ([]*tournament.Standings, error) {
	return tournaments.EventStandings(t, entries, games)
}

// RatingAt is a stored rating as of at, the RD grown for the idle time
// since the player's last rated game (tournaments.RatingAt).
func RatingAt(r archive.Rating, at time.Time) glicko2.Rating { return tournaments.RatingAt(r, at) }
