package referee

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/catalog"
)

// Consent (issue 18 §1, docs/security.md "Consent"): the referee mails an
// address only for what that address asked for from its own mailbox, or
// because it plays in the game or event. A mail's From can be forged, so
// a keyless request that would make the referee mail an address again
// and again — "watch" a game or a tournament, "notify" of an address that
// plays no game, "unblock" — takes effect only when the address confirms
// it: the referee keeps the request (archive.Confirmation) with a key of
// its own and mails the address, once, the line that confirms it ("watch
// K7QX2M confirm 3f9k2m7q4d"), as "join" does (cmd_join.go). A mail that
// carries the sender's key for one of its games proves the mailbox
// already: its requests take effect at once.
//
// What a forger can make the referee send an address this way is
// bounded: one request per thing asked while it waits (a week,
// ConfirmationExpiry), MaxConfirmationMailsPerDay mails of them a day,
// none to an address that wrote "block" (but the request to confirm
// "unblock"). A repeated request sends nothing more: the mail is
// recorded as ignored, with the reason (QuietRequest). An unconfirmed
// request needs no timer: it sends nothing when it lapses, its key is
// checked against its expiry when it comes back, and the archive deletes
// lapsed rows when it writes new ones.
//
// Invitations are the other mail one address causes to another
// (cmd_new.go, mayInvite): an address that never proved its mailbox
// (archive.Player.ProvedAt) gets at most one, and one that wrote "block"
// none.

// ConfirmationExpiry is how long the key of a request to confirm holds;
// after it the request lapses, having sent nothing but the one mail.
const ConfirmationExpiry = 7 * 24 * time.Hour

// MaxConfirmationMailsPerDay is how many mails with requests to confirm
// one address is sent in 24 hours, whatever they ask; the requests of one
// mail (a mail with several "watch" lines) come in one reply.
const MaxConfirmationMailsPerDay = 3

// whatUnblock is the request of "unblock" (cmd_block.go), the one a
// blocked address is still asked to confirm.
const whatUnblock = "unblock"

// ConsentState is what one mail does about consent.
type ConsentState struct {
	// write are the requests this mail mails, and those it confirmed
	// (an archive.Confirmations write).
	write []archive.Confirmation
	// granted are the requests this mail confirmed with their key, by
	// what ("watch K7QX2M").
	granted map[string]bool
	// Quiet says why requests of this mail were not mailed.
	Quiet []string
}

// ConsentOf returns the consent module's state in ss, made on first use
// (StateOf): the one way to it, for consent.go alone.
func ConsentOf(ss *Session) *ConsentState {
	return StateOf[ConsentState](ss, ConsentModule{})
}

// QuietRequest is a request the referee neither carries out nor answers
// (a request to confirm that waits already, the daily cap, a blocked
// address): a handler returns it, the consent module takes it from run
// (TakeError) and records why, and the mail gets no reply for that line.
type QuietRequest struct {
	// Why is the reason recorded for the mail (Unmailed), in the log's
	// words: `request to confirm "watch X" not mailed: …`.
	Why string
}

// Error returns Why.
func (q *QuietRequest) Error() string { return q.Why }

// Consented reports whether request what may take effect without a
// confirmation: the mail carries the sender's key for a game (ss.Auth),
// which only ever went to that address, or it confirmed what with its
// key (ConfirmConsent).
func (ss *Session) Consented(what string) bool {
	return ss.Auth != nil || ss.Uses(ConsentModule{}) && ConsentOf(ss).granted[what]
}

// AskConsent asks the sender to confirm request what (its line, request,
// as the confirmation will carry it out; text says in the sender's
// language what it would do): it keeps the request with a new key and
// says, in the reply, the line that confirms it, when it expires, and
// how to refuse all such mail ("block"). It returns a *QuietRequest,
// sending nothing, while a request for what waits already, when the
// sender was sent MaxConfirmationMailsPerDay mails of requests in the
// last 24 hours (this mail's first request counts them; the others ride
// in the same reply), or when the sender blocked such mail (but for
// "unblock").
func (ss *Session) AskConsent(what, request, text string) error {
	if what != whatUnblock {
		if err := ss.BlockedRequest(what); err != nil {
			return err
		}
	}
	cs := ConsentOf(ss)
	for _, c := range cs.write {
		if c.What == what {
			return &QuietRequest{fmt.Sprintf("request to confirm %q not mailed: this mail asks it twice", what)}
		}
	}
	c, err := ss.Server.consentPort().Confirmation(ss.Ctx, ss.From, what)
	switch {
	case err == nil && c.Waiting(ss.Now):
		return &QuietRequest{fmt.Sprintf("request to confirm %q not mailed: one was mailed at %s and waits until %s",
			what, c.AskedAt.UTC().Format(time.RFC3339), c.Expires.UTC().Format(time.RFC3339))}
	case err != nil && !errors.Is(err, archive.ErrNotFound):
		return err
	}
	if !cs.asking() { // the requests of one mail go in one reply
		n, err := ss.Server.consentPort().ConfirmationMails(ss.Ctx, ss.From, ss.Now.Add(-24*time.Hour))
		if err != nil {
			return err
		}
		if n >= MaxConfirmationMailsPerDay {
			return &QuietRequest{fmt.Sprintf("request to confirm %q not mailed: %d mails of requests were sent to this address in the last 24 hours", what, n)}
		}
	}
	key, err := NewToken(ss.Server.Opts.Rand)
	if err != nil {
		return err
	}
	expires := ss.Now.Add(ConfirmationExpiry)
	line := confirmationLine(ss.Lang, request, key)
	body := text + "\n\n" + Tr(ss.Lang, "confirm.how", line, catalog.Day(ss.Lang, expires))
	if what != whatUnblock {
		body += "\n" + Tr(ss.Lang, "confirm.block")
	}
	n2 := ss.NoteFor(ss.From, ss.Lang, nil)
	before := len(n2.Sections)
	if ss.AddSection(n2, body); len(n2.Sections) == before {
		// the replies are full (MaxReplyText): keep no request whose key
		// the address never got
		return &QuietRequest{fmt.Sprintf("request to confirm %q not mailed: the reply was full", what)}
	}
	cs.write = append(cs.write, archive.Confirmation{
		Address: ss.From, What: what, Request: request, Key: key, AskedAt: ss.Now, Expires: expires})
	if n2.Headers == nil {
		n2.Headers = map[string]string{}
	}
	if _, ok := n2.Headers["List-Unsubscribe"]; !ok && what != whatUnblock {
		// the one step out of every such mail: "block" (RFC 2369)
		n2.Headers["List-Unsubscribe"] = ss.Server.mailtoSubject("block")
	}
	ss.Server.Log.Info("request to confirm mailed", "to", ss.From, "what", what, "expires", expires)
	return nil
}

// BlockedRequest returns a *QuietRequest when the sender wrote "block"
// (cmd_block.go), else nil: a request to confirm what ("watch K7QX2M",
// "join xmas-cup") is then neither mailed nor kept, and the mail is
// recorded as ignored with the reason. Every request that mails a key to
// the sender's address asks it first — AskConsent, and requests kept
// elsewhere, as a tournament entry (pending_entries) — because a forged
// From is what "block" guards against (docs/security.md, "Consent").
func (ss *Session) BlockedRequest(what string) error {
	if ss.blocked(ss.From) {
		return &QuietRequest{fmt.Sprintf("request to confirm %q not mailed: the address wrote \"block\"", what)}
	}
	return nil
}

// confirmationLine is the line that confirms request with key, in lang:
// "watch K7QX2M results confirm 3f9k2m7q4d", German "zuschauen K7QX2M
// results bestätigen 3f9k2m7q4d" (the words after a watch's keyword stay
// as the referee wrote them; the grammar reads both languages), "notify
// confirm 3f9k2m7q4d", "unblock confirm 3f9k2m7q4d": the request itself
// is kept with the key, so only "watch" names what it confirms.
func confirmationLine(lang, request, key string) string {
	word, rest, _ := strings.Cut(request, " ")
	if word != "watch" {
		rest = ""
	} else {
		rest = " " + rest
	}
	if lang == German {
		word = map[string]string{"watch": "zuschauen", "notify": "benachrichtigung", "unblock": "entsperren"}[word]
		return word + rest + " bestätigen " + key
	}
	return word + rest + " confirm " + key
}

// ConfirmConsent carries out the sender's confirmation of request what
// with key: the request must wait (not expired, not used) and key must be
// its key (any case). It returns the request as the line that was asked
// (the command to carry out now), marks it confirmed, grants it for this
// mail (Consented) and records that the sender proved its mailbox.
// Anything else is refused, and nothing is done.
func (ss *Session) ConfirmConsent(what string, key *grammar.ConfirmKey) (grammar.Command, error) {
	c, err := ss.Server.consentPort().Confirmation(ss.Ctx, ss.From, what)
	if errors.Is(err, archive.ErrNotFound) || err == nil && (!c.Waiting(ss.Now) || !equalFoldKey(key.Text, c.Key)) {
		return nil, ss.Refuse("err.confirm.key", what, int(ConfirmationExpiry/(24*time.Hour)), what)
	}
	if err != nil {
		return nil, err
	}
	cmd, err := grammar.ParseCommand("request", 1, c.Request)
	if err != nil {
		return nil, fmt.Errorf("server: stored request %q of %s does not parse: %w", c.Request, ss.From, err)
	}
	c.ConfirmedAt = ss.Now
	cs := ConsentOf(ss)
	cs.write = append(cs.write, c)
	if cs.granted == nil {
		cs.granted = map[string]bool{}
	}
	cs.granted[what] = true
	ss.markProved()
	return cmd, nil
}

// ConfirmsWaiting reports whether key confirms the sender's waiting
// request what (triage.go: such a mail is never held back). It only
// reads the archive.
func (ss *Session) ConfirmsWaiting(what, key string) (bool, error) {
	c, err := ss.Server.consentPort().Confirmation(ss.Ctx, ss.From, what)
	if err != nil {
		return false, IgnoreNotFound(err)
	}
	return c.Waiting(ss.Now) && equalFoldKey(key, c.Key), nil
}

// equalFoldKey compares a key as written with the one kept, in any case.
func equalFoldKey(written, kept string) bool {
	return len(written) == len(kept) && kept != "" && strings.EqualFold(written, kept)
}

// markProved records that the sender's mail carried a key the referee
// mailed to the sender alone (a player's key, a confirmation's key): the
// first time, the sender's player row gets ProvedAt.
func (ss *Session) markProved() {
	if p, ok := ss.Players[ss.From]; ok {
		if p.ProvedAt.IsZero() {
			p.ProvedAt = ss.Now
		}
		return
	}
	p, err := ss.StoredPlayer(ss.From)
	if err == nil && !p.ProvedAt.IsZero() {
		return
	}
	ss.NoteReadErr(err)
	ss.PlayerRow(ss.From).ProvedAt = ss.Now
}

// Proved reports whether addr ever proved its mailbox (markProved).
func (ss *Session) Proved(addr string) bool {
	if p, ok := ss.Players[addr]; ok && !p.ProvedAt.IsZero() {
		return true
	}
	p, err := ss.StoredPlayer(addr)
	ss.NoteReadErr(err)
	return err == nil && !p.ProvedAt.IsZero()
}

// blocked reports whether addr wrote "block" (cmd_block.go), as this mail
// leaves it.
func (ss *Session) blocked(addr string) bool {
	if p, ok := ss.Players[addr]; ok {
		return p.Blocked
	}
	p, err := ss.StoredPlayer(addr)
	ss.NoteReadErr(err)
	return err == nil && p.Blocked
}

// asking reports whether this mail asks the sender to confirm a request
// already.
func (c *ConsentState) asking() bool {
	for _, w := range c.write {
		if w.ConfirmedAt.IsZero() {
			return true
		}
	}
	return false
}

// ConsentModule registers the requests to confirm (module.go).
type ConsentModule struct{}

// Name is "consent", the module's name in the registry's test and docs.
func (ConsentModule) Name() string { return "consent" }

// Collect adds to change the requests this mail mailed or confirmed.
func (ConsentModule) Collect(ss *Session, change *archive.Change) { ss.collectConsent(change) }

// Unmailed returns why the mail's requests to confirm were not mailed
// again (quiet requests, consent.go): the reasons the mail is recorded
// as ignored with.
func (ConsentModule) Unmailed(ss *Session) []string {
	if !ss.Uses(ConsentModule{}) {
		return nil
	}
	return ConsentOf(ss).Quiet
}

// TakeError takes a QuietRequest from a command line: the request is
// neither carried out nor answered, and why is recorded (Unmailed).
func (ConsentModule) TakeError(ss *Session, err error) bool {
	var q *QuietRequest
	if !errors.As(err, &q) {
		return false
	}
	cs := ConsentOf(ss)
	cs.Quiet = append(cs.Quiet, q.Why)
	return true
}

// collectConsent adds to change the requests this mail mailed or
// confirmed.
func (ss *Session) collectConsent(change *archive.Change) {
	if ss.Uses(ConsentModule{}) {
		if cs := ConsentOf(ss).write; len(cs) > 0 {
			change.Writes = append(change.Writes, archive.Confirmations(cs))
		}
	}
}

// mailtoSubject is a List-Unsubscribe field (RFC 2369) whose mail to the
// referee has the subject subject, a command line the referee reads
// when the mail has no text: "<mailto:tafl@example.org?subject=unwatch%20K7QX2M>".
func (s *Server) mailtoSubject(subject string) string {
	return "<mailto:" + s.Opts.Address + "?subject=" + url.PathEscape(subject) + ">"
}
