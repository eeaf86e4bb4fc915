package referee

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
)

// HandleMail decides one incoming mail and commits the decision: the
// processed-mail record, the game changes and the replies (queued in the
// outbox) in one transaction. A mail already processed is left alone and
// reported as nil. An error means nothing was recorded: the mail stays
// unread and is tried again later (e.g. archive.ErrUnavailable).
func (s *Server) HandleMail(ctx context.Context, m *mailer.Message) error {
	done, err := s.recordPort().Processed(ctx, m.MessageID, "")
	if err != nil {
		return err
	}
	if done {
		s.Log.Info("mail already processed", "message_id", m.MessageID, "uid", m.UID)
		return nil
	}
	_, err = s.Transact(ctx, MailCause(m), s.mailSteps(ctx, m))
	return err
}

// mailSteps are the steps of mail m in Transact (HandleMail) and in a
// chunk's shared commit (HandleMails): Decide with the mailbox position
// after m, its debug log and what its log line names before the commit,
// and after it the log line, the held replies' count and the observer.
// Each call has its own state: call it once per mail.
func (s *Server) mailSteps(ctx context.Context, m *mailer.Message) Steps {
	var held heldBy // the cap that held the last decided reply back
	var about []any // what it was about, read before Commit sets the versions
	return Steps{
		Decide: func(ss *Session, change *archive.Change) (Verdict, error) {
			v, h, err := s.Decide(ss, change)
			held = h
			if err == nil && m.UID != 0 {
				change.Mailbox = &archive.MailboxState{Mailbox: s.Opts.Mailbox, UIDValidity: m.UIDValidity, LastUID: m.UID}
			}
			return v, err
		},
		Decided: func(ss *Session, change archive.Change, v Verdict) {
			if v == CommitReplies { // answered, not ignored outright
				s.logDecision(ss, change)
			}
			about = processedAbout(&change)
		},
		Committed: func(change archive.Change) {
			level := slog.LevelInfo
			if held != NotHeld {
				level = slog.LevelDebug // counted, and logged once a minute (held.go)
			}
			attrs := append([]any{"message_id", m.MessageID, "from", m.From}, about...)
			s.Log.Log(ctx, level, "mail processed", append(attrs, "disposition", change.Mail.Disposition, "replies", len(change.Outbox))...)
			s.Held.Note(s.Log, held, s.Opts.Now())
			s.Opts.Observer.MailHandled(change.Mail.Disposition)
		},
	}
}

// Decide runs the commands of the mail of session ss without writing
// anything: it writes the processed-mail record into change, leaves the
// replies in the session for Transact to compose and collect, and
// returns the cap that held the sender's reply back (NotHeld when none
// did). A mail the referee does not answer at all is recorded as
// ignored with the reason (archive.ProcessedMail.Reason) and committed
// as it is.
func (s *Server) Decide(ss *Session, change *archive.Change) (Verdict, heldBy, error) {
	ctx, m, from := ss.Ctx, ss.Cause.Mail, ss.From
	ss.Ref = FindGame(m.Subject, m.InReplyTo, m.References)
	if ss.Ref.ID == "" {
		ss.Ref = findGameInText(m.Reply, m.Text)
	}
	change.Mail = archive.ProcessedMail{MessageID: m.MessageID, From: from, GameID: ss.Ref.ID, At: ss.Now,
		Subject: hideKeys(m.Subject), Domain: mailer.OrganizationalDomain(from)}
	ignore := func(why string, held heldBy) (Verdict, heldBy, error) {
		level := slog.LevelInfo
		if held != NotHeld {
			level = slog.LevelDebug // counted, and logged once a minute (held.go)
		}
		s.Log.Log(ctx, level, "mail ignored", "message_id", m.MessageID, "from", from, "game", ss.Ref.ID, "why", why)
		change.Mail.Disposition, change.Mail.Reason = Ignored, why
		return CommitAsIs, held, nil
	}
	if why := s.ignoreReason(m, from); why != "" {
		return ignore(why, NotHeld)
	}
	ss.Lang = ss.LangOf(from)
	if err := ss.authenticate(); err != nil {
		return CommitNothing, NotHeld, err
	}
	change.Mail.Authenticated = ss.Auth != nil
	if ss.Auth != nil {
		ss.markProved() // its key went to this address alone (consent.go)
	}
	if !m.TooLarge {
		ss.Lines, ss.unread = ss.CommandLines()
	}
	budget, err := ss.BudgetOf() // before any budget is consulted, without side effects (triage.go)
	if err != nil {
		return CommitNothing, NotHeld, err
	}
	change.Mail.Budget = budget
	why, held, err := s.replyBudget(ctx, from, change.Mail.Domain, budget, ss.Now)
	if err != nil {
		return CommitNothing, NotHeld, err
	}
	if why != "" {
		return ignore(why, held)
	}
	disposition, err := s.answer(ss)
	if err != nil {
		return CommitNothing, NotHeld, err
	}
	change.Mail.Disposition = disposition
	if change.Mail.Reason, held, err = s.capRefusals(ss, disposition, budget); err != nil {
		return CommitNothing, NotHeld, err
	} else if change.Mail.Reason != "" {
		s.Log.Debug("mail not answered", "message_id", m.MessageID, "from", from, "why", change.Mail.Reason)
	} else if why := ss.Unmailed(); len(why) > 0 {
		change.Mail.Reason = strings.Join(why, "; ")
		s.Log.Info("request not mailed again", "message_id", m.MessageID, "from", from, "why", change.Mail.Reason)
	}
	return CommitReplies, held, nil
}

// logDecision writes, at level debug, what the referee made of a mail it
// answers (issue 21 §7: log.level debug shows the per-mail decision): the
// first word of each command line (never the whole line, which may carry
// a key), the new plies, who gets a reply, and whether the reply is kept
// back (the reason is in "mail not answered"). The keys of subjects never
// appear.
func (s *Server) logDecision(ss *Session, change archive.Change) {
	if !s.Log.Enabled(ss.Ctx, slog.LevelDebug) {
		return
	}
	var commands []string
	for _, l := range ss.Lines {
		word, _, _ := strings.Cut(strings.TrimSpace(l.Text), " ")
		if l.Err != nil {
			word += " (not understood)"
		}
		commands = append(commands, word)
	}
	var to []string
	for _, o := range change.Outbox {
		to = append(to, o.To...)
	}
	plies := 0
	for _, p := range change.NewPlies {
		plies += len(p)
	}
	s.Log.Debug("mail decided", "message_id", change.Mail.MessageID, "from", change.Mail.From, "game", change.Mail.GameID,
		"authenticated", change.Mail.Authenticated, "commands", commands, "unread_lines", ss.unread,
		"disposition", change.Mail.Disposition, "kept_back", change.Mail.Reason != "", "new_plies", plies, "replies_to", to)
}

// answer runs the mail's commands (or refuses a mail too large to read),
// leaving the replies in ss, and returns the mail's disposition. A mail
// that breaks the referee is answered with an apology from a fresh
// session, which replaces everything ss held, and recorded as errored,
// so that it cannot be retried forever; nothing it asked for is applied.
// A transient failure (the archive is unavailable, ctx ended) is
// returned: the mail stays unread.
func (s *Server) answer(ss *Session) (string, error) {
	m := ss.Cause.Mail
	if m.TooLarge {
		ss.Failed = true
		ss.Say(nil, Tr(ss.Lang, "err.toolarge", m.Size, s.Opts.MaxMailBytes))
	} else if err := ss.run(); err != nil && (errors.Is(err, archive.ErrUnavailable) || ss.Ctx.Err() != nil) {
		return "", err
	} else if err != nil {
		s.Log.Error("handling mail failed", "message_id", m.MessageID, "from", ss.From, "err", err)
		c := ss.Cause
		c.At = ss.Now
		apology := s.NewSession(ss.Ctx, c)
		apology.Lang = ss.Lang
		apology.Failed = true
		apology.Say(nil, Tr(apology.Lang, "err.internal"))
		*ss = *apology
		return errored, nil
	}
	if ss.Did {
		return Applied, nil
	}
	if !ss.Failed && len(ss.Unmailed()) > 0 {
		return Ignored, nil // only requests that are not mailed again (module.go's unmailers)
	}
	return Refused, nil
}

// ignoreReason says why a mail gets no answer at all, or "" to answer it:
// our own mail, bounces and auto-replies (no loops), unreadable mail.
func (s *Server) ignoreReason(m *mailer.Message, from string) string {
	switch {
	case m.ParseError != nil:
		return "unreadable: " + m.ParseError.Error()
	case from == "" || from == s.Opts.Address:
		return "sent by the server itself or by nobody"
	case IsEngine(from):
		return "sent as the engine, which sends no mail (" + EngineAddress + ")"
	case m.IsBounce:
		return "bounce"
	case m.IsAutoReply:
		return "auto-reply"
	case len(m.Header[LoopHeader]) > 0:
		return "sent by a taflmail referee (" + LoopHeader + ")"
	case s.Opts.RequireAuthResults && !s.authenticated(m):
		return "Authentication-Results show no DKIM or SPF pass for the sender's domain"
	}
	return ""
}

// authenticated reports whether the Authentication-Results field of the
// receiving server (Options.AuthservID) shows DKIM, SPF or DMARC passing
// aligned with the From domain; see mailer.Authenticated.
func (s *Server) authenticated(m *mailer.Message) bool {
	return mailer.Authenticated(m, s.Opts.AuthservID)
}
