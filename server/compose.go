package server

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

// loopHeader marks every mail a taflmail referee sends; a mail carrying it
// is never answered, even when a relay stripped Auto-Submitted, so two
// referees cannot keep each other busy.
const loopHeader = "X-Taflmail"

// compose turns the notes of a session into outbox mails: the modules
// prepare the replies, the sender is told of a cut answer, each note
// that is mailed now becomes one mail (replyMail) in the order the notes
// were made, as long as the replies to one mail stay under maxReplyBytes,
// and the modules' own mails follow.
func (ss *session) compose() ([]archive.OutboxMail, error) {
	ss.beforeReplies() // the modules' replyPreparers: results, standings and ratings of the games that ended (module.go)
	ss.tellCut()
	var out []archive.OutboxMail
	size := 0
	for i, key := range ss.order {
		n, ok := ss.notes[key]
		if !ok || !ss.mailedNow(n) {
			continue
		}
		m, ok := ss.replyMail(i, n)
		if !ok {
			continue
		}
		if size += len(m.Raw); !ss.own && size > maxReplyBytes {
			// cannot happen while maxReplyText holds; never send it anyway
			ss.srv.log.Error("reply not sent: the replies to one mail would exceed the limit", "to", n.to, "bytes", size)
			continue
		}
		out = append(out, m)
	}
	extra, err := ss.moduleMails() // the modules' own mails: the spectators' (module.go)
	if err != nil {
		return nil, err
	}
	return append(out, extra...), nil
}

// tellCut ends the sender's reply with the notice that the answer was
// cut (addSection), when it was: err.cutall when nothing of it is left,
// so that the sender is not told of a first part that is not there
// (trial 2 report §2), else err.cut. addSection made sure the note
// exists.
func (ss *session) tellCut() {
	if !ss.cut {
		return
	}
	if n, ok := ss.notes[ss.from]; ok && len(n.sections) == 0 {
		n.sections = append(n.sections, tr(ss.lang, "err.cutall"))
	} else if ok {
		n.sections = append(n.sections, tr(ss.lang, "err.cut"))
	}
}

// mailedNow reports whether note n becomes a mail now: not when it is to
// the referee itself or the engine, when it says nothing, or when a
// module holds it back (module.go: the player's daily digest brings it).
func (ss *session) mailedNow(n *note) bool {
	return n.to != ss.srv.opts.Address && !isEngine(n.to) && len(n.sections) > 0 && !ss.noteHeld(n)
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
func (ss *session) replyMail(i int, n *note) (archive.OutboxMail, bool) {
	s := ss.srv
	addr := n.to
	if n.game == nil && addr == ss.from {
		n.game = ss.contextTable()
	}
	holdFor, carry := ss.replyDelay(n) // the engine's hold, before the thread marks the game changed (module.go)
	var gameID, token string
	if n.game != nil {
		gameID, token = n.game.g.ID, tokenOf(n.game.g, addr)
	}
	o := ss.outgoing(i, n, gameID, token)
	ss.thread(&o, n)
	if n.game != nil && token != "" && (n.game.changed || ss.did && n.game == ss.auth) {
		setThread(n.game.g, addr, o.MessageID)
		n.game.changed = true
	}
	raw, err := o.Bytes()
	if err != nil {
		// e.g. a From that is no address: such a mail gets no reply
		// rather than blocking the inbox for ever
		s.log.Warn("reply not sent: it cannot be written", "to", addr, "err", err)
		return archive.OutboxMail{}, false
	}
	m := archive.OutboxMail{GameID: gameID, MessageID: o.MessageID, From: s.opts.Address, To: []string{addr}, Raw: raw}
	if holdFor != "" {
		m.NextAttempt, m.HeldFor, m.Carry = ss.now.Add(s.opts.EngineReplyHold), holdFor, carry
	}
	return m, true
}

// outgoing is the mail of note n, the i-th note of the session, about
// game gameID ("" for none) with the recipient's key token ("" for
// none), not yet threaded: its Message-ID (seeded by the cause), the
// referee as its sender, its subject and body, and its header fields
// (the loop breaker's, the note's own, the game's id).
func (ss *session) outgoing(i int, n *note, gameID, token string) mailer.Outgoing {
	s := ss.srv
	o := mailer.Outgoing{
		MessageID: msgid.Reply(ss.cause.seed, i, n.to, gameID, token, s.opts.Domain),
		From:      fmt.Sprintf("%s <%s>", s.opts.Name, s.opts.Address),
		To:        []string{n.to},
		Subject:   ss.subject(n),
		Body:      ss.body(n),
		Date:      ss.now,
		Headers:   map[string]string{},
		Flowed:    true, // wrapped at 76, boards and tables as built (mailer.Preformatted)
	}
	o.Headers[loopHeader] = "reply"
	for k, v := range n.headers {
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
// a reply that takes the place of a held one (note.replaces) is threaded
// as that one was.
func (ss *session) thread(o *mailer.Outgoing, n *note) {
	if n.to == ss.from {
		// a hostile mail's ids may not be writable: thread what can be
		if msgid.Valid(ss.cause.seed) {
			o.InReplyTo = ss.cause.seed
		}
		var refs []string
		if m := ss.cause.mail; m != nil {
			refs = m.References
		}
		for _, id := range append(append([]string(nil), refs...), ss.cause.seed) {
			if msgid.Valid(id) {
				o.References = append(o.References, id)
			}
		}
	} else if n.game != nil {
		if th := threadOf(n.game.g, n.to); th != "" {
			o.InReplyTo, o.References = th, []string{th}
		}
	}
	if n.replaces != nil {
		if irt, refs, ok := heldThread(n.replaces.Raw); ok {
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
	if n.other != "" && len(n.sections) == 1 {
		return tag + n.other
	}
	title := variantTitle(n.lang, n.game.v)
	switch {
	case ss.failed && !ss.did && n.to == ss.from:
		return tag + tr(n.lang, "subject.error", title)
	case g.Status == archive.Finished:
		return tag + tr(n.lang, "subject.over", title, resultWordsFor(n.lang, g, n.to))
	case g.Status == archive.Active:
		return tag + tr(n.lang, "subject.move", title, n.game.moveNumber(), sideName(n.lang, n.game.toMove()))
	}
	return tag + title
}

// tableRow is one row of a table or list for a mail body, marked
// mailer.Preformatted: as it is when it fits in mailer.WrapWidth, else
// wrapped at spaces with the lines after the first indented by hang
// spaces, under the row's first column.
func tableRow(row string, hang int) string {
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
// gameTellers, module.go: the event of a tournament game, the clocks).
func (ss *session) body(n *note) string {
	var b strings.Builder
	b.WriteString(tr(n.lang, "greeting") + "\n\n")
	t := n.game
	var sections string // the modules' own
	if t != nil {
		var header string
		header, sections = ss.tellGame(n.lang, t)
		b.WriteString(tr(n.lang, "game.header", t.g.ID, variantTitle(n.lang, t.v)) + header + "\n")
		b.WriteString(tr(n.lang, "game.players", playerLabel(n.lang, t.g, t.g.Attackers), playerLabel(n.lang, t.g, t.g.Defenders)) + "\n\n")
	}
	for _, s := range n.sections {
		b.WriteString(strings.TrimRight(s, "\n") + "\n\n")
	}
	if t != nil && t.g.Status != archive.Declined {
		// a declined, withdrawn, expired or undeliverable challenge never
		// starts: no board with a side to move, no move list, no key
		// (trial 22); its sections say how it ended
		b.WriteString(sections)
		b.WriteString(boardText(n.lang, t, n.boards) + "\n")
		if tok := tokenOf(t.g, n.to); tok != "" {
			b.WriteString(tr(n.lang, "game.key", tok) + "\n\n")
		}
	}
	b.WriteString(tr(n.lang, "signature") + "\n")
	return b.String()
}

// indent puts two spaces before every line of text that is not blank.
func indent(text string) string {
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
