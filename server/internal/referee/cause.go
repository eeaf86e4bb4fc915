package referee

import (
	"fmt"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
)

// CauseKind is what made the referee act (cause).
type CauseKind int

const (
	CauseMail          CauseKind = iota // a player's mail (HandleMail)
	CauseTimer                          // a due reminder, deadline or invitation expiry (gameclock's clock_timers.go)
	CauseEngine                         // the engine's turn, its search done (internal/opponent)
	CauseDigest                         // a player's daily digest falling due (digest.go)
	CauseUndeliverable                  // an invitation the outbox gave up on (invitations.go)
	CauseStart                          // games started without a challenge, a tournament's start (start.go, tournament_start.go)
	CauseOwn                            // the referee's own change: the director's commands, a cancelled event, a withdrawal's games
)

// Cause is what made the referee act: one session decides it. Its seed
// is the input of the replies' deterministic Message-IDs (msgid.Reply
// and its kin, server/internal/msgid), so that deciding the same cause again after a
// crash writes the same mails, which the outbox sends once: for a mail
// its Message-ID, for the referee's own causes a string made of what
// they act on (TimerCause, DigestCause, …), never changed once shipped.
type Cause struct {
	Kind CauseKind // what made the referee act: a mail, a timer, …
	// Seed seeds the Message-IDs of the cause's mails (see above).
	Seed string
	// From is the lower-case sender of a mail, "" for every other cause.
	From string
	// At is when the cause acts; zero means the instant its session
	// starts (Options.Now), taken again at each attempt of transact.
	At time.Time
	// Mail is the mail of a CauseMail, nil for every other cause: what
	// reads the mail's text, subject or thread checks for nil.
	Mail *mailer.Message
}

// MailCause is the cause of mail m.
func MailCause(m *mailer.Message) Cause {
	return Cause{Kind: CauseMail, Seed: m.MessageID, From: strings.ToLower(m.From), Mail: m}
}

// TimerCause is the cause of due timer tm acted on at at.
func TimerCause(tm archive.Timer, at time.Time) Cause {
	return Cause{Kind: CauseTimer, Seed: timerSeed(tm), At: at}
}

// EngineCause is the cause of the engine's reply to its timer tm: the
// timer's seed, so a reply decided again writes the same mails.
func EngineCause(tm archive.Timer) Cause {
	return Cause{Kind: CauseEngine, Seed: timerSeed(tm)}
}

// timerSeed is the seed of the mails timer tm causes.
func timerSeed(tm archive.Timer) string { return "timer\x00" + tm.GameID + "\x00" + tm.Key }

// DigestCause is the cause of the digest of addr due at due, sent at at.
func DigestCause(addr string, due, at time.Time) Cause {
	return Cause{Kind: CauseDigest, Seed: "digest\x00" + addr + "\x00" + due.UTC().Format(time.RFC3339), At: at}
}

// UndeliverableCause is the cause of ending the invitation that outbox
// mail m failed to deliver.
func UndeliverableCause(m archive.OutboxMail) Cause {
	return Cause{Kind: CauseUndeliverable, Seed: fmt.Sprintf("undeliverable\x00%s\x00%d", m.GameID, m.ID)}
}

// StartCause is the cause of starting games at at, seeded with seed
// ("start\x00" and the game's or the tournament's id).
func StartCause(seed string, at time.Time) Cause {
	return Cause{Kind: CauseStart, Seed: seed, At: at}
}

// OwnCause is the cause of a change of the referee's own (Server.change),
// seeded with seed.
func OwnCause(seed string) Cause {
	return Cause{Kind: CauseOwn, Seed: seed}
}
