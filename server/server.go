package server

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
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

	Store  Store
	Inbox  Inbox
	Sender Sender

	// Now is the clock, default time.Now.
	Now func() time.Time
	// Rand is the source of game ids and keys, default crypto/rand.
	Rand io.Reader
	// Logger receives the operator's log, default slog.Default().
	Logger *slog.Logger

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
	// AuthservID is the authserv-id of the receiving MTA (RFC 8601 §2.5):
	// only its Authentication-Results fields are read, see
	// mailer.Authenticated. Empty means none is trusted.
	AuthservID string
	// WaitCap bounds one Inbox.Wait, after which Run looks at the mailbox
	// and the outbox again even without news. Default 1 minute.
	WaitCap time.Duration
}

// Server is the referee daemon.
type Server struct {
	opts  Options
	store Store
	log   *slog.Logger
	owner string // this process's name in outbox claims (archive.Store.ClaimOutbox)
}

// New checks the options and returns a Server. It returns an error naming
// the first missing required option.
func New(o Options) (*Server, error) {
	switch {
	case o.Address == "":
		return nil, errors.New("server: Options.Address is required")
	case o.Store == nil:
		return nil, errors.New("server: Options.Store is required")
	}
	o.Address = strings.ToLower(o.Address)
	if o.Name == "" {
		o.Name = "taflmail"
	}
	if o.Domain == "" {
		_, o.Domain, _ = strings.Cut(o.Address, "@")
	}
	if o.Mailbox == "" {
		o.Mailbox = "INBOX"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Rand == nil {
		o.Rand = rand.Reader
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.MaxMailBytes <= 0 {
		o.MaxMailBytes = mailer.DefaultMaxBytes
	}
	switch {
	case o.ErrorRepliesPerHour == 0:
		o.ErrorRepliesPerHour = 5
	case o.ErrorRepliesPerHour < 0:
		o.ErrorRepliesPerHour = 0
	}
	if o.DefaultLanguage != german {
		o.DefaultLanguage = english
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
	owner, err := randomString(rand.Reader, 12)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	owner = fmt.Sprintf("pid%d-%s", os.Getpid(), owner)
	return &Server{opts: o, store: o.Store, log: o.Logger, owner: owner}, nil
}

// HandleMail decides one incoming mail and commits the decision: the
// processed-mail record, the game changes and the replies (queued in the
// outbox) in one transaction. A mail already processed is left alone and
// reported as nil. An error means nothing was recorded: the mail stays
// unread and is tried again later (e.g. archive.ErrUnavailable).
func (s *Server) HandleMail(ctx context.Context, m *mailer.Message) error {
	done, err := s.store.Processed(ctx, m.MessageID, "")
	if err != nil {
		return err
	}
	if done {
		s.log.Info("mail already processed", "message_id", m.MessageID, "uid", m.UID)
		return nil
	}
	for attempt := 0; ; attempt++ {
		change, finished, err := s.decide(ctx, m)
		if err != nil {
			return err
		}
		change.Mailbox = &archive.MailboxState{Mailbox: s.opts.Mailbox, UIDValidity: m.UIDValidity, LastUID: m.UID}
		if m.UID == 0 {
			change.Mailbox = nil
		}
		err = s.store.Commit(ctx, change)
		switch {
		case err == nil:
			s.log.Info("mail processed", "message_id", m.MessageID, "from", m.From,
				"game", change.Mail.GameID, "disposition", change.Mail.Disposition, "replies", len(change.Outbox))
			s.writeRecords(finished)
			return nil
		case errors.Is(err, archive.ErrDuplicate):
			return nil
		case errors.Is(err, archive.ErrConflict) && attempt < 2:
			continue // the game changed under us: decide again on the new state
		default:
			return err
		}
	}
}

// decide runs the mail's commands without writing anything and returns the
// change to commit and the tables of games that finished.
func (s *Server) decide(ctx context.Context, m *mailer.Message) (archive.Change, []*table, error) {
	from := strings.ToLower(m.From)
	ss := &session{
		srv: s, ctx: ctx, msg: m, now: s.opts.Now(), from: from,
		tables: map[string]*table{}, players: map[string]*archive.Player{}, notes: map[string]*note{},
		ref: findGame(m.Subject, m.InReplyTo, m.References),
	}
	change := archive.Change{Mail: archive.ProcessedMail{MessageID: m.MessageID, From: from, GameID: ss.ref.id, At: ss.now}}
	if why := s.ignoreReason(m, from); why != "" {
		s.log.Info("mail ignored", "message_id", m.MessageID, "from", from, "why", why)
		change.Mail.Disposition = ignored
		return change, nil, nil
	}
	ss.lang = ss.langOf(from)
	if n, err := s.recentReplies(ctx, from, ss.now); err != nil {
		return archive.Change{}, nil, err
	} else if n >= maxRepliesPerHour {
		// whatever loops with us (a responder that ignores the rules of
		// RFC 3834) stops getting answers
		s.log.Warn("mail not answered: hourly reply cap reached", "from", from, "count", n)
		change.Mail.Disposition = ignored
		return change, nil, nil
	}
	if m.TooLarge {
		ss.failed = true
		ss.say(nil, tr(ss.lang, "err.toolarge", m.Size, s.opts.MaxMailBytes))
	} else if err := ss.run(); err != nil && (errors.Is(err, archive.ErrUnavailable) || ctx.Err() != nil) {
		return archive.Change{}, nil, err // transient: the mail stays unread and is tried again
	} else if err != nil {
		s.log.Error("handling mail failed", "message_id", m.MessageID, "from", from, "err", err)
		// Answer with an apology and record the mail, so a mail that
		// breaks the referee cannot be retried forever; nothing it asked
		// for is applied.
		ss = &session{srv: s, ctx: ctx, msg: m, now: ss.now, from: from, lang: ss.lang,
			tables: map[string]*table{}, players: map[string]*archive.Player{}, notes: map[string]*note{}}
		ss.failed = true
		ss.say(nil, tr(ss.lang, "err.internal"))
		change.Mail.Disposition = "error"
	}
	if change.Mail.Disposition == "" {
		change.Mail.Disposition = refused
		if ss.did {
			change.Mail.Disposition = applied
		}
	}
	if change.Mail.Disposition != applied {
		n, err := s.store.CountRecent(ctx, from, change.Mail.Disposition, ss.now.Add(-time.Hour))
		if err != nil {
			return archive.Change{}, nil, err
		}
		if n >= s.opts.ErrorRepliesPerHour {
			s.log.Warn("refusal not sent: hourly cap reached", "from", from, "count", n)
			delete(ss.notes, from)
		}
	}
	out, err := ss.compose()
	if err != nil {
		return archive.Change{}, nil, err
	}
	if ss.readErr != nil {
		return archive.Change{}, nil, ss.readErr
	}
	change.Outbox = out
	var finished []*table
	for _, t := range ss.tables {
		if !t.changed {
			continue
		}
		change.Games = append(change.Games, t.g)
		if len(t.newPlies) > 0 {
			if change.NewPlies == nil {
				change.NewPlies = map[string][]archive.Ply{}
			}
			change.NewPlies[t.g.ID] = t.newPlies
		}
		if t.g.Status == archive.Finished {
			finished = append(finished, t)
		}
	}
	for _, p := range ss.players {
		change.Players = append(change.Players, *p)
	}
	return change, finished, nil
}

// loopHeader marks every mail a taflmail referee sends; a mail carrying it
// is never answered, even when a relay stripped Auto-Submitted, so two
// referees cannot keep each other busy.
const loopHeader = "X-Taflmail"

// maxRepliesPerHour caps the mails the referee answers for one address per
// hour, whatever they ask; a person playing by mail stays far below it.
const maxRepliesPerHour = 30

// recentReplies counts the mails from addr answered in the last hour.
func (s *Server) recentReplies(ctx context.Context, addr string, now time.Time) (int, error) {
	total := 0
	for _, d := range []string{applied, refused} {
		n, err := s.store.CountRecent(ctx, addr, d, now.Add(-time.Hour))
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// ignoreReason says why a mail gets no answer at all, or "" to answer it:
// our own mail, bounces and auto-replies (no loops), unreadable mail.
func (s *Server) ignoreReason(m *mailer.Message, from string) string {
	switch {
	case m.ParseError != nil:
		return "unreadable: " + m.ParseError.Error()
	case from == "" || from == s.opts.Address:
		return "sent by the server itself or by nobody"
	case m.IsBounce:
		return "bounce"
	case m.IsAutoReply:
		return "auto-reply"
	case len(m.Header[loopHeader]) > 0:
		return "sent by a taflmail referee (" + loopHeader + ")"
	case s.opts.RequireAuthResults && !s.authenticated(m):
		return "Authentication-Results show no DKIM or SPF pass for the sender's domain"
	}
	return ""
}

// writeRecords writes the native record file of each finished game.
// Failure is logged: the archive holds the game, and `taflmail export`
// writes the record again.
func (s *Server) writeRecords(ts []*table) {
	if s.opts.RecordsDir == "" {
		return
	}
	for _, t := range ts {
		if err := os.MkdirAll(s.opts.RecordsDir, 0o755); err != nil {
			s.log.Error("writing record failed", "game", t.g.ID, "err", err)
			return
		}
		path := filepath.Join(s.opts.RecordsDir, t.g.ID+".tafl")
		if err := os.WriteFile(path, []byte(t.record()), 0o644); err != nil {
			s.log.Error("writing record failed", "game", t.g.ID, "err", err)
		}
	}
}

// compose turns the notes of a session into outbox mails.
func (ss *session) compose() ([]archive.OutboxMail, error) {
	s := ss.srv
	var out []archive.OutboxMail
	for i, addr := range ss.order {
		n, ok := ss.notes[addr]
		if !ok || addr == s.opts.Address || len(n.sections) == 0 {
			continue
		}
		var gameID, token string
		if n.game != nil {
			gameID, token = n.game.g.ID, tokenOf(n.game.g, addr)
		}
		o := mailer.Outgoing{
			MessageID: messageID(ss.msg.MessageID, i, addr, gameID, token, s.opts.Domain),
			From:      fmt.Sprintf("%s <%s>", s.opts.Name, s.opts.Address),
			To:        []string{addr},
			Subject:   ss.subject(n),
			Body:      ss.body(n),
			Date:      ss.now,
			Headers:   map[string]string{},
		}
		o.Headers[loopHeader] = "reply"
		if gameID != "" {
			o.Headers["X-Taflmail-Game"] = gameID
		}
		if addr == ss.from {
			// a hostile mail's ids may not be writable: thread what can be
			if validID(ss.msg.MessageID) {
				o.InReplyTo = ss.msg.MessageID
			}
			for _, id := range append(append([]string(nil), ss.msg.References...), ss.msg.MessageID) {
				if validID(id) {
					o.References = append(o.References, id)
				}
			}
		} else if n.game != nil {
			if th := threadOf(n.game.g, addr); th != "" {
				o.InReplyTo, o.References = th, []string{th}
			}
		}
		if n.game != nil && token != "" {
			setThread(n.game.g, addr, o.MessageID)
			n.game.changed = true
		}
		raw, err := o.Bytes()
		if err != nil {
			// e.g. a From that is no address: such a mail gets no reply
			// rather than blocking the inbox for ever
			s.log.Warn("reply not sent: it cannot be written", "to", addr, "err", err)
			continue
		}
		out = append(out, archive.OutboxMail{GameID: gameID, MessageID: o.MessageID, From: s.opts.Address, To: []string{addr}, Raw: raw})
	}
	return out, nil
}

func threadOf(g *archive.Game, addr string) string {
	if addr == g.Attackers {
		return g.AttackersThread
	}
	return g.DefendersThread
}

func setThread(g *archive.Game, addr, id string) {
	if addr == g.Attackers {
		g.AttackersThread = id
	} else if addr == g.Defenders {
		g.DefendersThread = id
	}
}

// subject writes a reply's subject: the game tag with the recipient's key,
// then what happened.
func (ss *session) subject(n *note) string {
	if n.game == nil {
		// Never the player's own subject: a responder that answers
		// everything would send "Re: help" back, and a subject-only
		// command would be read again and again.
		return tr(n.lang, "subject.reply")
	}
	g := n.game.g
	tag := "[taflmail " + g.ID
	if tok := tokenOf(g, n.to); tok != "" {
		tag += " " + tok
	}
	tag += "] "
	if n.subject != "" {
		return tag + n.subject
	}
	title := n.game.v.Title
	switch {
	case ss.failed && !ss.did && n.to == ss.from:
		return tag + tr(n.lang, "subject.error", title)
	case g.Status == archive.Finished:
		return tag + tr(n.lang, "subject.over", title, tr(n.lang, "result."+g.Result))
	case g.Status == archive.Active:
		return tag + tr(n.lang, "subject.move", title, n.game.moveNumber(), sideName(n.lang, n.game.toMove()))
	}
	return tag + title
}

// body writes a reply: the game header, the sections, the board, the move
// list and the key, then the signature.
func (ss *session) body(n *note) string {
	var b strings.Builder
	b.WriteString(tr(n.lang, "greeting") + "\n\n")
	t := n.game
	if t != nil {
		b.WriteString(tr(n.lang, "game.header", t.g.ID, t.v.Title) + "\n")
		b.WriteString(tr(n.lang, "game.players", t.g.Attackers, t.g.Defenders) + "\n\n")
	}
	for _, s := range n.sections {
		b.WriteString(strings.TrimRight(s, "\n") + "\n\n")
	}
	if t != nil {
		b.WriteString(t.board() + "\n")
		b.WriteString(tr(n.lang, "move.list") + "\n" + t.moveList(n.lang) + "\n")
		if tok := tokenOf(t.g, n.to); tok != "" {
			b.WriteString(tr(n.lang, "game.key", tok) + "\n\n")
		}
	}
	b.WriteString(tr(n.lang, "signature") + "\n")
	return b.String()
}
