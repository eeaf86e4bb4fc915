package server

import (
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/catalog"
)

func init() {
	handle("new", (*session).newGame)
	helpLine(10, "help.new")
}

// newGame handles "new <variant> with <address> [as <side>] [time
// <control>]": it creates an invited game and sends the invitation (with
// the variant's rules in brief and the game's terms) to the opponent and
// a confirmation to the challenger, each with their own key. A module
// may play the command itself (its challengeTaker, module.go: a game
// against the engine); the modules set their terms of the game from the
// command and write them into both mails (their offerWriters: the
// challenger's words to the opponent, the time control and the leave
// allowance, whether it is rated and both players' ratings).
func (ss *session) newGame(c *grammar.NewGameCommand) error {
	v, err := ss.variantNamed(c.Variant)
	if err != nil {
		return err
	}
	if took, err := ss.takeChallenge(c, v); took {
		return err
	}
	addr, err := mail.ParseAddress(strings.Trim(c.Opponent, "<>"))
	if err != nil {
		return ss.refuse("err.badaddress", clip(c.Opponent))
	}
	opp := strings.ToLower(addr.Address)
	if opp == ss.from {
		return ss.refuse("err.self")
	}
	if opp == ss.srv.opts.Address {
		return ss.refuse("err.inviteme", opp)
	}
	if isEngine(opp) {
		return ss.refuse("err.badaddress", clip(c.Opponent))
	}
	side := "attackers"
	if c.Side != "" {
		var ok bool
		if side, ok = normalizeSide(c.Side); !ok {
			return ss.refuse("err.badside", clip(c.Side))
		}
	}
	if err := ss.challengeLimit(); err != nil {
		return err
	}
	if err := ss.mayInvite(opp); err != nil {
		return err
	}
	t, err := ss.createGame(v, opp, side)
	if err != nil {
		return err
	}
	offers, err := ss.offers(t, c)
	if err != nil {
		return err
	}
	var told string
	for _, o := range offers {
		told += o.told
	}
	oppSide := "defenders"
	if side == "defenders" {
		oppSide = "attackers"
	}
	// each game a mail starts gets mails of its own (startNote)
	n := ss.startNote(ss.from, ss.lang, t)
	ss.addSection(n, tr(ss.lang, "challenge.sent", opp, sideName(ss.lang, side))+told+"\n"+offerTerms(offers, ss.lang, opp))
	n.subject = tr(ss.lang, "subject.challenge", variantTitle(ss.lang, v), opp)
	lang := ss.langOf(opp)
	var words string
	for _, o := range offers {
		if o.words != nil {
			words += o.words(lang)
		}
	}
	n = ss.startNote(opp, lang, t)
	ss.addSection(n, tr(lang, "invite.body", ss.from, variantTitle(lang, v), sideName(lang, oppSide))+words+"\n"+
		tr(lang, "invite.rules", catalog.VariantSummary(lang, v))+"\n"+offerTerms(offers, lang, ss.from)+"\n\n"+tr(lang, "invite.how")+"\n"+
		tr(lang, "invite.block"))
	n.subject = tr(lang, "subject.invite", variantTitle(lang, v), ss.from)
	// one step to refuse every invitation: a mail "block" (RFC 2369)
	n.headers = map[string]string{"List-Unsubscribe": ss.srv.mailtoSubject("block")}
	return nil
}

// offerTerms writes the terms of a challenge the modules offer (offer),
// in lang to the reader whose opponent is opp: how the game is played,
// then what its players bring to it, each in the registry's order.
func offerTerms(offers []offer, lang, opp string) string {
	var s string
	for _, o := range offers {
		if o.play != nil {
			s += o.play(lang)
		}
	}
	for _, o := range offers {
		if o.players != nil {
			s += o.players(lang, opp)
		}
	}
	return s
}

// mayInvite refuses a challenge to opp that would mail an address that
// did not ask for it (issue 18, consent.go): one that wrote "block", and
// one that never proved its mailbox but was invited before (a game in
// which it is a player and not the challenger, this mail's included):
// an address that never wrote to the referee gets one invitation.
func (ss *session) mayInvite(opp string) error {
	if ss.blocked(opp) {
		return ss.refuse("err.invite.blocked", opp)
	}
	if ss.proved(opp) {
		return nil
	}
	for _, t := range ss.tables {
		if sideOf(t.g, opp) != "" && t.g.Challenger != opp {
			return ss.refuse("err.invite.once", opp)
		}
	}
	gs, err := ss.srv.gamePort().GamesOf(ss.ctx, opp)
	if err != nil {
		return err
	}
	for _, g := range gs {
		if g.Challenger != opp {
			return ss.refuse("err.invite.once", opp)
		}
	}
	return nil
}

// variantNamed looks a variant up as a player writes its name: any case,
// with or without "-", "_" and the accent of "Ó". An unknown name is
// refused, with the nearest known name as a hint.
func (ss *session) variantNamed(written string) (*engine.Variant, error) {
	if v, ok := lookupVariant(written); ok {
		return v, nil
	}
	r := ss.refusalOf("err.unknownvariant", clip(written))
	if h := variantHint(ss.lang, variantKey(written)); h != "" {
		r.after = " " + h
	}
	return nil, r
}

// lookupVariant finds a built-in variant by its name as a player writes it
// (see variantNamed).
func lookupVariant(written string) (*engine.Variant, bool) {
	return engine.Lookup(variantKey(written))
}

// variantKey is a variant's name as written, in lower case without "-",
// "_" and the accent of "Ó": the form engine.Lookup knows.
func variantKey(written string) string {
	return strings.NewReplacer("ó", "o", "-", "", "_", "").Replace(strings.ToLower(written))
}

// createGame makes the invited game of the sender against opp, the sender
// playing side, with a fresh id and a key for each player.
func (ss *session) createGame(v *engine.Variant, opp, side string) (*table, error) {
	id, err := ss.gameID()
	if err != nil {
		return nil, err
	}
	g := &archive.Game{ID: id, Variant: v.Name, Challenger: ss.from, Status: archive.Invited, CreatedAt: ss.now}
	if side == "attackers" {
		g.Attackers, g.Defenders = ss.from, opp
	} else {
		g.Attackers, g.Defenders = opp, ss.from
	}
	if g.AttackerToken, err = newToken(ss.srv.opts.Rand); err != nil {
		return nil, err
	}
	if g.DefenderToken, err = newToken(ss.srv.opts.Rand); err != nil {
		return nil, err
	}
	t, err := load(g)
	if err != nil {
		return nil, err
	}
	t.changed = true
	ss.tables[id] = t
	return t, nil
}

// maxChallengesPerHour caps the challenges one address may send per hour:
// "new" needs no key, so without a cap a forged sender could make the
// referee mail invitations to anybody without end (docs/security.md).
const maxChallengesPerHour = 5

// challengeLimit refuses a challenge when the sender has sent
// maxChallengesPerHour in the last hour (recentChallenges), saying how
// many and from when the next one is taken: when enough of them have left
// the hour's window, written for the sender (instant: in their digest
// zone if they set one, else in UTC as catalog.Instant writes it).
func (ss *session) challengeLimit() error {
	sent, err := ss.recentChallenges()
	if err != nil {
		return err
	}
	if len(sent) < maxChallengesPerHour {
		return nil
	}
	slices.SortFunc(sent, func(a, b time.Time) int { return a.Compare(b) })
	// the window holds len(sent); the next may go when len(sent)-max+1 of
	// them have left it, counted while created after an hour ago
	next := sent[len(sent)-maxChallengesPerHour].Add(time.Hour)
	if t := next.Truncate(time.Second); !t.Equal(next) {
		next = t.Add(time.Second) // a stamp of whole seconds never names a moment still inside
	}
	return ss.refuse("err.challenges", len(sent), ss.instant(ss.lang, next, ss.from))
}

// recentChallenges returns when each game the sender challenged in the
// last hour was created, this mail's included.
func (ss *session) recentChallenges() ([]time.Time, error) {
	gs, err := ss.srv.gamePort().GamesOf(ss.ctx, ss.from)
	if err != nil {
		return nil, err
	}
	var sent []time.Time
	for _, g := range gs {
		if g.Challenger == ss.from && g.CreatedAt.After(ss.now.Add(-time.Hour)) {
			sent = append(sent, g.CreatedAt)
		}
	}
	for _, t := range ss.tables {
		if t.changed && t.g.Version == 0 && t.g.Challenger == ss.from {
			sent = append(sent, ss.now)
		}
	}
	return sent, nil
}

// normalizeSide reads a side as a player writes it (English or German,
// singular or plural, any case); ok is false for anything else.
func normalizeSide(s string) (side string, ok bool) {
	switch strings.ToLower(s) {
	case "attackers", "attacker", "angreifer", "black", "schwarz":
		return "attackers", true
	case "defenders", "defender", "verteidiger", "white", "weiß", "weiss":
		return "defenders", true
	}
	return "", false
}
