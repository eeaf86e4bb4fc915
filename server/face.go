package server

import "github.com/taflmail/taflmail/server/internal/referee"

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

// Sender sends the referee's mails (referee.Sender).
type Sender = referee.Sender

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
