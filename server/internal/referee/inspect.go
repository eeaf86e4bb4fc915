package referee

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
)

// Inspection is what the referee reads from a mail and what it would do
// with it, computed without changing anything (`taflmail inspect`).
type Inspection struct {
	// MessageID is the mail's Message-ID.
	MessageID string `json:"message_id"`
	// From is the sender's address, lower-cased as the referee reads it.
	From string `json:"from"`
	// Subject is the mail's subject.
	Subject string `json:"subject"`
	// Game is the game id the subject tag or the thread names, "" if none.
	Game string `json:"game"`
	// GameExists reports whether the archive holds Game.
	GameExists bool `json:"game_exists"`
	// KeyOK reports whether the mail carries the sender's key for Game.
	KeyOK bool `json:"key_ok"`
	// Player is the sender's side in Game ("attackers", "defenders") or "".
	Player string `json:"player"`
	// Auth is the Authentication-Results verdict: "pass", "fail", or
	// "not checked" when server.require_auth_results is off.
	Auth string `json:"auth"`
	// Text is what is left after cutting quotes and signatures.
	Text string `json:"text"`
	// Commands lists every command line found, with its parse result.
	Commands []InspectedCommand `json:"commands"`
	// Action is "answer", "ignore" or "refuse".
	Action string `json:"action"`
	// Why says why the mail is ignored or refused; "" when it is
	// answered.
	Why string `json:"why,omitempty"`
	// Replies are the mails that would be sent: recipients, subject and text.
	Replies []InspectedReply `json:"replies"`
}

// InspectedCommand is one command line of an inspected mail.
type InspectedCommand struct {
	Line    int    `json:"line"`              // 1-based line of the reply text; 0 for the subject
	Text    string `json:"text"`              // the line as written
	Command string `json:"command,omitempty"` // e.g. "move", "board"
	Error   string `json:"error,omitempty"`   // "mail:3:9: expected …"
}

// InspectedReply is one reply an inspected mail would cause.
type InspectedReply struct {
	To      string `json:"to"`      // the recipients' addresses, joined by ", "
	Subject string `json:"subject"` // the reply's subject
	Body    string `json:"body"`    // the reply's text part
}

// Inspect decides m exactly as HandleMail would, against the current
// archive, but writes nothing and sends nothing.
func (s *Server) Inspect(ctx context.Context, m *mailer.Message) (*Inspection, error) {
	in := s.inspectRead(ctx, m)
	done, err := s.inspectProcessed(ctx, in, m)
	if err != nil {
		return nil, err
	}
	if done {
		return in, nil
	}
	decide := func(ss *Session, change *archive.Change) (Verdict, error) {
		v, _, err := s.Decide(ss, change)
		return v, err
	}
	decided := func(ss *Session, change archive.Change, v Verdict) {
		if v == CommitReplies {
			s.logDecision(ss, change)
		}
	}
	change, _, _, err := s.DecideCause(ctx, MailCause(m), Steps{Decide: decide, Decided: decided}) // as HandleMail, without the commit
	if err != nil {
		return nil, err
	}
	in.outcome(change)
	return in, nil
}

// inspectRead returns what the referee reads from m before deciding it:
// the sender, the game its subject, thread or text names (whether it
// exists, the sender's side and key), the Authentication-Results verdict
// and each command line with its parse result. A game the archive cannot
// read is reported as not existing.
func (s *Server) inspectRead(ctx context.Context, m *mailer.Message) *Inspection {
	from := strings.ToLower(m.From)
	ref := FindGame(m.Subject, m.InReplyTo, m.References)
	if ref.ID == "" {
		ref = findGameInText(m.Reply, m.Text)
	}
	in := &Inspection{MessageID: m.MessageID, From: from, Subject: m.Subject, Game: ref.ID, Text: m.Reply, Auth: "not checked"}
	if s.Opts.RequireAuthResults {
		in.Auth = "fail"
		if s.authenticated(m) {
			in.Auth = "pass"
		}
	}
	if ref.ID != "" {
		if g, err := s.GamePort().Game(ctx, ref.ID); err == nil {
			in.GameExists = true
			t := &Table{Game: g}
			in.Player = SideOf(g, from)
			ss := &Session{From: from, Ref: ref}
			in.KeyOK = ss.hasKey(t)
		}
	}
	ss := &Session{Server: s, Ctx: ctx, Cause: Cause{Kind: CauseMail, Seed: m.MessageID, From: from, Mail: m}, From: from}
	lines, _ := ss.CommandLines()
	for _, l := range lines {
		c := InspectedCommand{Line: l.N, Text: l.Text}
		if l.Err != nil {
			c.Error = l.Err.Error()
		} else {
			c.Command = CommandName(l.cmd)
		}
		in.Commands = append(in.Commands, c)
	}
	return in
}

// inspectProcessed reports whether m was processed already; if so, in's
// action is "ignore" and its reason says when and how (the processed
// mail's disposition and reason, when the archive still has it). Its
// errors are archive.Store.Processed's.
func (s *Server) inspectProcessed(ctx context.Context, in *Inspection, m *mailer.Message) (bool, error) {
	done, err := s.recordPort().Processed(ctx, m.MessageID, "")
	if err != nil || !done {
		return false, err
	}
	in.Action, in.Why = "ignore", "already processed"
	if pm, err := s.recordPort().Mail(ctx, m.MessageID); err == nil {
		in.Why = fmt.Sprintf("already processed at %s: %s", pm.At.UTC().Format(time.RFC3339), pm.Disposition)
		if pm.Reason != "" {
			in.Why += " (" + pm.Reason + ")"
		}
	}
	return true, nil
}

// outcome fills in's action, its reason and the replies from change, the
// decision of the mail: ignored, refused, or answered.
func (in *Inspection) outcome(change archive.Change) {
	switch change.Mail.Disposition {
	case Ignored:
		in.Action = "ignore"
		in.Why = change.Mail.Reason
	case Refused:
		in.Action = "refuse"
		in.Why = "every command was refused or none was found"
		if change.Mail.Reason != "" {
			in.Why += "; " + change.Mail.Reason
		}
	default:
		in.Action = "answer"
	}
	for _, o := range change.Outbox {
		r := InspectedReply{To: strings.Join(o.To, ", ")}
		if pm, err := mailer.Parse(strings.NewReader(string(o.Raw)), 0); err == nil {
			r.Subject, r.Body = pm.Subject, pm.Text
		}
		in.Replies = append(in.Replies, r)
	}
}
