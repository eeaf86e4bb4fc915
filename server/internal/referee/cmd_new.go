package referee

import (
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/catalog"
)

func init() {
	Handle("new", (*Session).newGame)
	HelpLine(10, "help.new")
}

// newGame handles "new <variant> with <address> [as <side>] [time
// <control>]": it creates an invited game and sends the invitation (with
// the variant's rules in brief and the game's terms) to the opponent and
// a confirmation to the challenger, each with their own key. A module
// may play the command itself (its ChallengeTaker, module.go: a game
// against the engine); the modules set their terms of the game from the
// command and write them into both mails (their OfferWriters: the
// challenger's words to the opponent, the time control and the leave
// allowance, whether it is rated and both players' ratings).
func (ss *Session) newGame(c *grammar.NewGameCommand) error {
	v, err := ss.VariantNamed(c.Variant)
	if err != nil {
		return err
	}
	if took, err := ss.TakeChallenge(c, v); took {
		return err
	}
	addr, err := mail.ParseAddress(strings.Trim(c.Opponent, "<>"))
	if err != nil {
		return ss.Refuse("err.badaddress", Clip(c.Opponent))
	}
	opp := strings.ToLower(addr.Address)
	if opp == ss.From {
		return ss.Refuse("err.self")
	}
	if opp == ss.Server.Opts.Address {
		return ss.Refuse("err.inviteme", opp)
	}
	if IsEngine(opp) {
		return ss.Refuse("err.badaddress", Clip(c.Opponent))
	}
	side := "attackers"
	if c.Side != "" {
		var ok bool
		if side, ok = NormalizeSide(c.Side); !ok {
			return ss.Refuse("err.badside", Clip(c.Side))
		}
	}
	if err := ss.ChallengeLimit(); err != nil {
		return err
	}
	if err := ss.mayInvite(opp); err != nil {
		return err
	}
	t, err := ss.CreateGame(v, opp, side)
	if err != nil {
		return err
	}
	offers, err := ss.Offers(t, c)
	if err != nil {
		return err
	}
	var told string
	for _, o := range offers {
		told += o.Told
	}
	oppSide := "defenders"
	if side == "defenders" {
		oppSide = "attackers"
	}
	// each game a mail starts gets mails of its own (StartNote)
	n := ss.StartNote(ss.From, ss.Lang, t)
	ss.AddSection(n, Tr(ss.Lang, "challenge.sent", opp, SideName(ss.Lang, side))+told+"\n"+offerTerms(offers, ss.Lang, opp))
	n.Subject = Tr(ss.Lang, "subject.challenge", VariantTitle(ss.Lang, v), opp)
	lang := ss.LangOf(opp)
	var words string
	for _, o := range offers {
		if o.Words != nil {
			words += o.Words(lang)
		}
	}
	n = ss.StartNote(opp, lang, t)
	ss.AddSection(n, Tr(lang, "invite.body", ss.From, VariantTitle(lang, v), SideName(lang, oppSide))+words+"\n"+
		Tr(lang, "invite.rules", catalog.VariantSummary(lang, v))+"\n"+offerTerms(offers, lang, ss.From)+"\n\n"+Tr(lang, "invite.how")+"\n"+
		Tr(lang, "invite.block"))
	n.Subject = Tr(lang, "subject.invite", VariantTitle(lang, v), ss.From)
	// one step to refuse every invitation: a mail "block" (RFC 2369)
	n.Headers = map[string]string{"List-Unsubscribe": ss.Server.mailtoSubject("block")}
	return nil
}

// offerTerms writes the terms of a challenge the modules offer (offer),
// in lang to the reader whose opponent is opp: how the game is played,
// then what its players bring to it, each in the registry's order.
func offerTerms(offers []Offer, lang, opp string) string {
	var s string
	for _, o := range offers {
		if o.Play != nil {
			s += o.Play(lang)
		}
	}
	for _, o := range offers {
		if o.Players != nil {
			s += o.Players(lang, opp)
		}
	}
	return s
}

// mayInvite refuses a challenge to opp that would mail an address that
// did not ask for it (issue 18, consent.go): one that wrote "block", and
// one that never proved its mailbox but was invited before (a game in
// which it is a player and not the challenger, this mail's included):
// an address that never wrote to the referee gets one invitation.
func (ss *Session) mayInvite(opp string) error {
	if ss.blocked(opp) {
		return ss.Refuse("err.invite.blocked", opp)
	}
	if ss.Proved(opp) {
		return nil
	}
	for _, t := range ss.Tables {
		if SideOf(t.Game, opp) != "" && t.Game.Challenger != opp {
			return ss.Refuse("err.invite.once", opp)
		}
	}
	gs, err := ss.Server.GamePort().GamesOf(ss.Ctx, opp)
	if err != nil {
		return err
	}
	for _, g := range gs {
		if g.Challenger != opp {
			return ss.Refuse("err.invite.once", opp)
		}
	}
	return nil
}

// VariantNamed looks a variant up as a player writes its name: any case,
// with or without "-", "_" and the accent of "Ó". An unknown name is
// refused, with the nearest known name as a hint.
func (ss *Session) VariantNamed(written string) (*engine.Variant, error) {
	if v, ok := lookupVariant(written); ok {
		return v, nil
	}
	r := ss.RefusalOf("err.unknownvariant", Clip(written))
	if h := VariantHint(ss.Lang, variantKey(written)); h != "" {
		r.After = " " + h
	}
	return nil, r
}

// MaxChallengesPerHour caps the challenges one address may send per hour:
// "new" needs no key, so without a cap a forged sender could make the
// referee mail invitations to anybody without end (docs/security.md).
const MaxChallengesPerHour = 5

// ChallengeLimit refuses a challenge when the sender has sent
// MaxChallengesPerHour in the last hour (recentChallenges), saying how
// many and from when the next one is taken: when enough of them have left
// the hour's window, written for the sender (instant: in their digest
// zone if they set one, else in UTC as catalog.Instant writes it).
func (ss *Session) ChallengeLimit() error {
	sent, err := ss.recentChallenges()
	if err != nil {
		return err
	}
	if len(sent) < MaxChallengesPerHour {
		return nil
	}
	slices.SortFunc(sent, func(a, b time.Time) int { return a.Compare(b) })
	// the window holds len(sent); the next may go when len(sent)-max+1 of
	// them have left it, counted while created after an hour ago
	next := sent[len(sent)-MaxChallengesPerHour].Add(time.Hour)
	if t := next.Truncate(time.Second); !t.Equal(next) {
		next = t.Add(time.Second) // a stamp of whole seconds never names a moment still inside
	}
	return ss.Refuse("err.challenges", len(sent), ss.Instant(ss.Lang, next, ss.From))
}

// recentChallenges returns when each game the sender challenged in the
// last hour was created, this mail's included.
func (ss *Session) recentChallenges() ([]time.Time, error) {
	gs, err := ss.Server.GamePort().GamesOf(ss.Ctx, ss.From)
	if err != nil {
		return nil, err
	}
	var sent []time.Time
	for _, g := range gs {
		if g.Challenger == ss.From && g.CreatedAt.After(ss.Now.Add(-time.Hour)) {
			sent = append(sent, g.CreatedAt)
		}
	}
	for _, t := range ss.Tables {
		if t.Changed && t.Game.Version == 0 && t.Game.Challenger == ss.From {
			sent = append(sent, ss.Now)
		}
	}
	return sent, nil
}

// NormalizeSide reads a side as a player writes it (English or German,
// singular or plural, any case); ok is false for anything else.
func NormalizeSide(s string) (side string, ok bool) {
	switch strings.ToLower(s) {
	case "attackers", "attacker", "angreifer", "black", "schwarz":
		return "attackers", true
	case "defenders", "defender", "verteidiger", "white", "weiß", "weiss":
		return "defenders", true
	}
	return "", false
}
