package referee

import (
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/taflmail/taflmail/clock"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/search"
)

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
