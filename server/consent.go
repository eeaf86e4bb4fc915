package server

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
// confirmationExpiry), maxConfirmationMailsPerDay mails of them a day,
// none to an address that wrote "block" (but the request to confirm
// "unblock"). A repeated request sends nothing more: the mail is
// recorded as ignored, with the reason (quietRequest). An unconfirmed
// request needs no timer: it sends nothing when it lapses, its key is
// checked against its expiry when it comes back, and the archive deletes
// lapsed rows when it writes new ones.
//
// Invitations are the other mail one address causes to another
// (cmd_new.go, mayInvite): an address that never proved its mailbox
// (archive.Player.ProvedAt) gets at most one, and one that wrote "block"
// none.

// confirmationExpiry is how long the key of a request to confirm holds;
// after it the request lapses, having sent nothing but the one mail.
const confirmationExpiry = 7 * 24 * time.Hour

// maxConfirmationMailsPerDay is how many mails with requests to confirm
// one address is sent in 24 hours, whatever they ask; the requests of one
// mail (a mail with several "watch" lines) come in one reply.
const maxConfirmationMailsPerDay = 3

// whatUnblock is the request of "unblock" (cmd_block.go), the one a
// blocked address is still asked to confirm.
const whatUnblock = "unblock"

// consentState is what one mail does about consent.
type consentState struct {
	// write are the requests this mail mails, and those it confirmed
	// (an archive.Confirmations write).
	write []archive.Confirmation
	// granted are the requests this mail confirmed with their key, by
	// what ("watch K7QX2M").
	granted map[string]bool
	// quiet says why requests of this mail were not mailed.
	quiet []string
}

// consentOf returns the consent module's state in ss, made on first use
// (stateOf): the one way to it, for consent.go alone.
func consentOf(ss *session) *consentState {
	return stateOf[consentState](ss, consentModule{})
}

// quietRequest is a request the referee neither carries out nor answers
// (a request to confirm that waits already, the daily cap, a blocked
// address): a handler returns it, the consent module takes it from run
// (takeError) and records why, and the mail gets no reply for that line.
type quietRequest struct{ why string }

func (q *quietRequest) Error() string { return q.why }

// consented reports whether request what may take effect without a
// confirmation: the mail carries the sender's key for a game (ss.auth),
// which only ever went to that address, or it confirmed what with its
// key (confirmConsent).
func (ss *session) consented(what string) bool {
	return ss.auth != nil || ss.uses(consentModule{}) && consentOf(ss).granted[what]
}

// askConsent asks the sender to confirm request what (its line, request,
// as the confirmation will carry it out; text says in the sender's
// language what it would do): it keeps the request with a new key and
// says, in the reply, the line that confirms it, when it expires, and
// how to refuse all such mail ("block"). It returns a *quietRequest,
// sending nothing, while a request for what waits already, when the
// sender was sent maxConfirmationMailsPerDay mails of requests in the
// last 24 hours (this mail's first request counts them; the others ride
// in the same reply), or when the sender blocked such mail (but for
// "unblock").
func (ss *session) askConsent(what, request, text string) error {
	if what != whatUnblock && ss.blocked(ss.from) {
		return &quietRequest{fmt.Sprintf("request to confirm %q not mailed: the address wrote \"block\"", what)}
	}
	cs := consentOf(ss)
	for _, c := range cs.write {
		if c.What == what {
			return &quietRequest{fmt.Sprintf("request to confirm %q not mailed: this mail asks it twice", what)}
		}
	}
	c, err := ss.srv.consentPort().Confirmation(ss.ctx, ss.from, what)
	switch {
	case err == nil && c.Waiting(ss.now):
		return &quietRequest{fmt.Sprintf("request to confirm %q not mailed: one was mailed at %s and waits until %s",
			what, c.AskedAt.UTC().Format(time.RFC3339), c.Expires.UTC().Format(time.RFC3339))}
	case err != nil && !errors.Is(err, archive.ErrNotFound):
		return err
	}
	if !cs.asking() { // the requests of one mail go in one reply
		n, err := ss.srv.consentPort().ConfirmationMails(ss.ctx, ss.from, ss.now.Add(-24*time.Hour))
		if err != nil {
			return err
		}
		if n >= maxConfirmationMailsPerDay {
			return &quietRequest{fmt.Sprintf("request to confirm %q not mailed: %d mails of requests were sent to this address in the last 24 hours", what, n)}
		}
	}
	key, err := newToken(ss.srv.opts.Rand)
	if err != nil {
		return err
	}
	expires := ss.now.Add(confirmationExpiry)
	line := confirmationLine(ss.lang, request, key)
	body := text + "\n\n" + tr(ss.lang, "confirm.how", line, catalog.Day(ss.lang, expires))
	if what != whatUnblock {
		body += "\n" + tr(ss.lang, "confirm.block")
	}
	n2 := ss.noteFor(ss.from, ss.lang, nil)
	before := len(n2.sections)
	if ss.addSection(n2, body); len(n2.sections) == before {
		// the replies are full (maxReplyText): keep no request whose key
		// the address never got
		return &quietRequest{fmt.Sprintf("request to confirm %q not mailed: the reply was full", what)}
	}
	cs.write = append(cs.write, archive.Confirmation{
		Address: ss.from, What: what, Request: request, Key: key, AskedAt: ss.now, Expires: expires})
	if n2.headers == nil {
		n2.headers = map[string]string{}
	}
	if _, ok := n2.headers["List-Unsubscribe"]; !ok && what != whatUnblock {
		// the one step out of every such mail: "block" (RFC 2369)
		n2.headers["List-Unsubscribe"] = ss.srv.mailtoSubject("block")
	}
	ss.srv.log.Info("request to confirm mailed", "to", ss.from, "what", what, "expires", expires)
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
	if lang == german {
		word = map[string]string{"watch": "zuschauen", "notify": "benachrichtigung", "unblock": "entsperren"}[word]
		return word + rest + " bestätigen " + key
	}
	return word + rest + " confirm " + key
}

// confirmConsent carries out the sender's confirmation of request what
// with key: the request must wait (not expired, not used) and key must be
// its key (any case). It returns the request as the line that was asked
// (the command to carry out now), marks it confirmed, grants it for this
// mail (consented) and records that the sender proved its mailbox.
// Anything else is refused, and nothing is done.
func (ss *session) confirmConsent(what string, key *grammar.ConfirmKey) (grammar.Command, error) {
	c, err := ss.srv.consentPort().Confirmation(ss.ctx, ss.from, what)
	if errors.Is(err, archive.ErrNotFound) || err == nil && (!c.Waiting(ss.now) || !equalFoldKey(key.Text, c.Key)) {
		return nil, ss.refuse("err.confirm.key", what, int(confirmationExpiry/(24*time.Hour)), what)
	}
	if err != nil {
		return nil, err
	}
	cmd, err := grammar.ParseCommand("request", 1, c.Request)
	if err != nil {
		return nil, fmt.Errorf("server: stored request %q of %s does not parse: %w", c.Request, ss.from, err)
	}
	c.ConfirmedAt = ss.now
	cs := consentOf(ss)
	cs.write = append(cs.write, c)
	if cs.granted == nil {
		cs.granted = map[string]bool{}
	}
	cs.granted[what] = true
	ss.markProved()
	return cmd, nil
}

// confirmsWaiting reports whether key confirms the sender's waiting
// request what (triage.go: such a mail is never held back). It only
// reads the archive.
func (ss *session) confirmsWaiting(what, key string) (bool, error) {
	c, err := ss.srv.consentPort().Confirmation(ss.ctx, ss.from, what)
	if err != nil {
		return false, ignoreNotFound(err)
	}
	return c.Waiting(ss.now) && equalFoldKey(key, c.Key), nil
}

// equalFoldKey compares a key as written with the one kept, in any case.
func equalFoldKey(written, kept string) bool {
	return len(written) == len(kept) && kept != "" && strings.EqualFold(written, kept)
}

// markProved records that the sender's mail carried a key the referee
// mailed to the sender alone (a player's key, a confirmation's key): the
// first time, the sender's player row gets ProvedAt.
func (ss *session) markProved() {
	if p, ok := ss.players[ss.from]; ok {
		if p.ProvedAt.IsZero() {
			p.ProvedAt = ss.now
		}
		return
	}
	p, err := ss.storedPlayer(ss.from)
	if err == nil && !p.ProvedAt.IsZero() {
		return
	}
	ss.noteReadErr(err)
	ss.playerRow(ss.from).ProvedAt = ss.now
}

// proved reports whether addr ever proved its mailbox (markProved).
func (ss *session) proved(addr string) bool {
	if p, ok := ss.players[addr]; ok && !p.ProvedAt.IsZero() {
		return true
	}
	p, err := ss.storedPlayer(addr)
	ss.noteReadErr(err)
	return err == nil && !p.ProvedAt.IsZero()
}

// blocked reports whether addr wrote "block" (cmd_block.go), as this mail
// leaves it.
func (ss *session) blocked(addr string) bool {
	if p, ok := ss.players[addr]; ok {
		return p.Blocked
	}
	p, err := ss.storedPlayer(addr)
	ss.noteReadErr(err)
	return err == nil && p.Blocked
}

// asking reports whether this mail asks the sender to confirm a request
// already.
func (c *consentState) asking() bool {
	for _, w := range c.write {
		if w.ConfirmedAt.IsZero() {
			return true
		}
	}
	return false
}

// consentModule registers the requests to confirm (module.go).
type consentModule struct{}

func (consentModule) name() string { return "consent" }

func (consentModule) collect(ss *session, change *archive.Change) { ss.collectConsent(change) }

// unmailed returns why the mail's requests to confirm were not mailed
// again (quiet requests, consent.go): the reasons the mail is recorded
// as ignored with.
func (consentModule) unmailed(ss *session) []string {
	if !ss.uses(consentModule{}) {
		return nil
	}
	return consentOf(ss).quiet
}

// takeError takes a quietRequest from a command line: the request is
// neither carried out nor answered, and why is recorded (unmailed).
func (consentModule) takeError(ss *session, err error) bool {
	var q *quietRequest
	if !errors.As(err, &q) {
		return false
	}
	cs := consentOf(ss)
	cs.quiet = append(cs.quiet, q.why)
	return true
}

// collectConsent adds to change the requests this mail mailed or
// confirmed.
func (ss *session) collectConsent(change *archive.Change) {
	if ss.uses(consentModule{}) {
		if cs := consentOf(ss).write; len(cs) > 0 {
			change.Writes = append(change.Writes, archive.Confirmations(cs))
		}
	}
}

// mailtoSubject is a List-Unsubscribe field (RFC 2369) whose mail to the
// referee has the subject subject, a command line the referee reads
// when the mail has no text: "<mailto:tafl@example.org?subject=unwatch%20K7QX2M>".
func (s *Server) mailtoSubject(subject string) string {
	return "<mailto:" + s.opts.Address + "?subject=" + url.PathEscape(subject) + ">"
}
