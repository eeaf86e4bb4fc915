package referee

import (
	"bytes"
	"fmt"
	"net/mail"
	"strings"
	"unicode/utf8"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/msgid"
)

// LoopHeader marks every mail a taflmail referee sends; a mail carrying it
// is never answered, even when a relay stripped Auto-Submitted, so two
// referees cannot keep each other busy.
const LoopHeader = "X-Taflmail"

// compose turns the notes of a session into outbox mails: the modules
// prepare the replies, the sender is told of a cut answer, each note
// that is mailed now becomes one mail (replyMail) in the order the notes
// were made, as long as the replies to one mail stay under MaxReplyBytes,
// and the modules' own mails follow.
func (ss *Session) compose() ([]archive.OutboxMail, error) {
	ss.BeforeReplies() // the modules' ReplyPreparers: results, standings and ratings of the games that ended (module.go)
	ss.tellCut()
	var out []archive.OutboxMail
	size := 0
	for i, key := range ss.Order {
		n, ok := ss.Notes[key]
		if !ok || !ss.mailedNow(n) {
			continue
		}
		m, ok := ss.replyMail(i, n)
		if !ok {
			continue
		}
		if size += len(m.Raw); !ss.Own && size > MaxReplyBytes {
			// cannot happen while MaxReplyText holds; never send it anyway
			ss.Server.Log.Error("reply not sent: the replies to one mail would exceed the limit", "to", n.To, "bytes", size)
			continue
		}
		out = append(out, m)
	}
	extra, err := ss.ModuleMails() // the modules' own mails: the spectators' (module.go)
	if err != nil {
		return nil, err
	}
	return append(out, extra...), nil
}

// tellCut ends the sender's reply with the notice that the answer was
// cut (AddSection), when it was: err.cutall when nothing of it is left,
// so that the sender is not told of a first part that is not there
// (trial 2 report §2), else err.cut. AddSection made sure the note
// exists.
func (ss *Session) tellCut() {
	if !ss.cut {
		return
	}
	if n, ok := ss.Notes[ss.From]; ok && len(n.Sections) == 0 {
		n.Sections = append(n.Sections, Tr(ss.Lang, "err.cutall"))
	} else if ok {
		n.Sections = append(n.Sections, Tr(ss.Lang, "err.cut"))
	}
}

// mailedNow reports whether note n becomes a mail now: not when it is to
// the referee itself or the engine, when it says nothing, or when a
// module holds it back (module.go: the player's daily digest brings it).
func (ss *Session) mailedNow(n *Note) bool {
	return n.To != ss.Server.Opts.Address && !IsEngine(n.To) && len(n.Sections) > 0 && !ss.NoteHeld(n)
}

// replyMail writes note n, the i-th note of the session, as an outbox
// mail; false when it cannot be written (logged).
//
// The sender's reply to a mail that named one of the sender's games keeps
// that game's tag, board and key, whatever it answers ("help" in a game's
// thread included), so that replying to it with a move works (issue 8 §5).
// A game's thread columns are updated only when the mail changed the game
// or was applied with the sender's key: a refused forged mail leaves the
// game row as it was (issue 8 §4).
func (ss *Session) replyMail(i int, n *Note) (archive.OutboxMail, bool) {
	s := ss.Server
	addr := n.To
	if n.Game == nil && addr == ss.From {
		n.Game = ss.ContextTable()
	}
	holdFor, carry := ss.ReplyDelay(n) // the engine's hold, before the thread marks the game changed (module.go)
	var gameID, token string
	if n.Game != nil {
		gameID, token = n.Game.Game.ID, TokenOf(n.Game.Game, addr)
	}
	o := ss.outgoing(i, n, gameID, token)
	ss.thread(&o, n)
	if n.Game != nil && token != "" && (n.Game.Changed || ss.Did && n.Game == ss.Auth) {
		setThread(n.Game.Game, addr, o.MessageID)
		n.Game.Changed = true
	}
	raw, err := o.Bytes()
	if err != nil {
		// e.g. a From that is no address: such a mail gets no reply
		// rather than blocking the inbox for ever
		s.Log.Warn("reply not sent: it cannot be written", "to", addr, "err", err)
		return archive.OutboxMail{}, false
	}
	m := archive.OutboxMail{GameID: gameID, MessageID: o.MessageID, From: s.Opts.Address, To: []string{addr}, Raw: raw}
	if holdFor != "" {
		m.NextAttempt, m.HeldFor, m.Carry = ss.Now.Add(s.Opts.EngineReplyHold), holdFor, carry
	}
	return m, true
}

// outgoing is the mail of note n, the i-th note of the session, about
// game gameID ("" for none) with the recipient's key token ("" for
// none), not yet threaded: its Message-ID (seeded by the cause), the
// referee as its sender, its subject and body, and its header fields
// (the loop breaker's, the note's own, the game's id).
func (ss *Session) outgoing(i int, n *Note, gameID, token string) mailer.Outgoing {
	s := ss.Server
	o := mailer.Outgoing{
		MessageID: msgid.Reply(ss.Cause.Seed, i, n.To, gameID, token, s.Opts.Domain),
		From:      fmt.Sprintf("%s <%s>", s.Opts.Name, s.Opts.Address),
		To:        []string{n.To},
		Subject:   ss.subject(n),
		Body:      ss.body(n),
		Date:      ss.Now,
		Headers:   map[string]string{},
		Flowed:    true, // wrapped at 76, boards and tables as built (mailer.Preformatted)
	}
	o.Headers[LoopHeader] = "reply"
	for k, v := range n.Headers {
		o.Headers[k] = v
	}
	if gameID != "" {
		o.Headers["X-Taflmail-Game"] = gameID
	}
	return o
}

// thread sets In-Reply-To and References of o, the mail of note n: the
// sender's reply answers the cause's mail (its ids that are valid), a
// mail to another player continues that player's thread of the game, and
// a reply that takes the place of a held one (Note.Replaces) is threaded
// as that one was.
func (ss *Session) thread(o *mailer.Outgoing, n *Note) {
	if n.To == ss.From {
		// a hostile mail's ids may not be writable: thread what can be
		if msgid.Valid(ss.Cause.Seed) {
			o.InReplyTo = ss.Cause.Seed
		}
		var refs []string
		if m := ss.Cause.Mail; m != nil {
			refs = m.References
		}
		for _, id := range append(append([]string(nil), refs...), ss.Cause.Seed) {
			if msgid.Valid(id) {
				o.References = append(o.References, id)
			}
		}
	} else if n.Game != nil {
		if th := threadOf(n.Game.Game, n.To); th != "" {
			o.InReplyTo, o.References = th, []string{th}
		}
	}
	if n.Replaces != nil {
		if irt, refs, ok := heldThread(n.Replaces.Raw); ok {
			o.InReplyTo, o.References = irt, refs
		}
	}
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
func (ss *Session) subject(n *Note) string {
	if n.Game == nil {
		// Never the player's own subject: a responder that answers
		// everything would send "Re: help" back, and a subject-only
		// command would be read again and again.
		return Tr(n.Lang, "subject.reply")
	}
	g := n.Game.Game
	tag := "[taflmail " + g.ID
	if tok := TokenOf(g, n.To); tok != "" {
		tag += " " + tok
	}
	tag += "] "
	if n.Subject != "" {
		return tag + n.Subject
	}
	if n.Other != "" && len(n.Sections) == 1 {
		return tag + n.Other
	}
	title := VariantTitle(n.Lang, n.Game.Variant)
	switch {
	case ss.Failed && !ss.Did && n.To == ss.From:
		return tag + Tr(n.Lang, "subject.error", title)
	case g.Status == archive.Finished:
		return tag + Tr(n.Lang, "subject.over", title, resultWordsFor(n.Lang, g, n.To))
	case g.Status == archive.Active:
		return tag + Tr(n.Lang, "subject.move", title, n.Game.MoveNumber(), SideName(n.Lang, n.Game.ToMove()))
	}
	return tag + title
}

// TableRow is one row of a table or list for a mail body, marked
// mailer.Preformatted: as it is when it fits in mailer.WrapWidth, else
// wrapped at spaces with the lines after the first indented by hang
// spaces, under the row's first column.
func TableRow(row string, hang int) string {
	if utf8.RuneCountInString(row) <= mailer.WrapWidth {
		return mailer.Preformatted(row)
	}
	text := strings.TrimLeft(row, " ")
	lead := row[:len(row)-len(text)]
	first := mailer.Wrap(text, mailer.WrapWidth-len(lead))[0]
	lines := []string{lead + first}
	if rest := strings.TrimLeft(text[len(first):], " "); rest != "" {
		for _, l := range mailer.Wrap(rest, mailer.WrapWidth-hang) {
			lines = append(lines, strings.Repeat(" ", hang)+l)
		}
	}
	return mailer.Preformatted(strings.Join(lines, "\n"))
}

// body writes a reply: the game header, the sections, the board, the move
// list and the key, then the signature. A game that ended without starting
// (archive.Declined) gets only the header and the sections. The modules
// add to the header and a section of their own before the board (their
// GameTellers, module.go: the event of a tournament game, the clocks).
func (ss *Session) body(n *Note) string {
	var b strings.Builder
	b.WriteString(Tr(n.Lang, "greeting") + "\n\n")
	t := n.Game
	var sections string // the modules' own
	if t != nil {
		var header string
		header, sections = ss.TellGame(n.Lang, t)
		b.WriteString(Tr(n.Lang, "game.header", t.Game.ID, VariantTitle(n.Lang, t.Variant)) + header + "\n")
		b.WriteString(Tr(n.Lang, "game.players", PlayerLabel(n.Lang, t.Game, t.Game.Attackers), PlayerLabel(n.Lang, t.Game, t.Game.Defenders)) + "\n\n")
	}
	for _, s := range n.Sections {
		b.WriteString(strings.TrimRight(s, "\n") + "\n\n")
	}
	if t != nil && t.Game.Status != archive.Declined {
		// a declined, withdrawn, expired or undeliverable challenge never
		// starts: no board with a side to move, no move list, no key
		// (trial 22); its sections say how it ended
		b.WriteString(sections)
		b.WriteString(BoardText(n.Lang, t, n.boards) + "\n")
		if tok := TokenOf(t.Game, n.To); tok != "" {
			b.WriteString(Tr(n.Lang, "game.key", tok) + "\n\n")
		}
	}
	b.WriteString(Tr(n.Lang, "signature") + "\n")
	return b.String()
}

// Indent puts two spaces before every line of text that is not blank.
func Indent(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "  " + l
		}
	}
	return strings.Join(lines, "\n")
}

// heldThread returns the In-Reply-To and References of the mail raw (a
// held reply), ids without angle brackets, so that the mail taking its
// place answers the player's mail as it would have; ok is false when raw
// cannot be read.
func heldThread(raw []byte) (inReplyTo string, refs []string, ok bool) {
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return "", nil, false
	}
	strip := func(id string) string { return strings.TrimSuffix(strings.TrimPrefix(id, "<"), ">") }
	inReplyTo = strip(strings.TrimSpace(m.Header.Get("In-Reply-To")))
	for _, id := range strings.Fields(m.Header.Get("References")) {
		refs = append(refs, strip(id))
	}
	return inReplyTo, refs, true
}
