package server

import (
	"errors"
	"fmt"
	"net/mail"
	"sort"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
)

// newGame handles "new <variant> with <address> [as <side>]": it creates
// an invited game and sends the invitation (with the variant's rules in
// brief) to the opponent and a confirmation to the challenger, each with
// their own key.
func (ss *session) newGame(c *grammar.NewGameCommand) error {
	name := strings.ToLower(c.Variant)
	name = strings.NewReplacer("ó", "o", "-", "", "_", "").Replace(name)
	v, ok := engine.Lookup(name)
	if !ok {
		return ss.refuse("err.unknownvariant", c.Variant)
	}
	addr, err := mail.ParseAddress(strings.Trim(c.Opponent, "<>"))
	if err != nil {
		return ss.refuse("err.badaddress", c.Opponent)
	}
	opp := strings.ToLower(addr.Address)
	if opp == ss.from {
		return ss.refuse("err.self")
	}
	if opp == ss.srv.opts.Address {
		return ss.refuse("err.badaddress", c.Opponent)
	}
	side := "attackers"
	if c.Side != "" {
		if side, ok = normalizeSide(c.Side); !ok {
			return ss.refuse("err.badside", c.Side)
		}
	}
	if n, err := ss.recentChallenges(); err != nil {
		return err
	} else if n >= maxChallengesPerHour {
		return ss.refuse("err.challenges", n)
	}
	id, err := newGameID(ss.srv.opts.Rand)
	if err != nil {
		return err
	}
	g := &archive.Game{ID: id, Variant: v.Name, Challenger: ss.from, Status: archive.Invited, CreatedAt: ss.now}
	if side == "attackers" {
		g.Attackers, g.Defenders = ss.from, opp
	} else {
		g.Attackers, g.Defenders = opp, ss.from
	}
	if g.AttackerToken, err = newToken(ss.srv.opts.Rand); err != nil {
		return err
	}
	if g.DefenderToken, err = newToken(ss.srv.opts.Rand); err != nil {
		return err
	}
	t, err := load(g)
	if err != nil {
		return err
	}
	t.changed = true
	ss.tables[id] = t
	oppSide := "defenders"
	if side == "defenders" {
		oppSide = "attackers"
	}
	ss.say(t, tr(ss.lang, "challenge.sent", opp, sideName(ss.lang, side)))
	ss.noteFor(ss.from, ss.lang, t).subject = tr(ss.lang, "subject.challenge", v.Title, opp)
	ss.tell(opp, t, func(lang string) string {
		return tr(lang, "invite.body", ss.from, v.Title, sideName(lang, oppSide)) + "\n" +
			tr(lang, "invite.rules", v.Summary) + "\n\n" + tr(lang, "invite.how")
	})
	ss.notes[opp].subject = tr(ss.langOf(opp), "subject.invite", v.Title, ss.from)
	return nil
}

// maxChallengesPerHour caps the challenges one address may send per hour:
// "new" needs no key, so without a cap a forged sender could make the
// referee mail invitations to anybody without end (docs/security.md).
const maxChallengesPerHour = 5

// recentChallenges counts the games the sender challenged in the last hour,
// this mail's included.
func (ss *session) recentChallenges() (int, error) {
	gs, err := ss.srv.store.GamesOf(ss.ctx, ss.from)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, g := range gs {
		if g.Challenger == ss.from && g.CreatedAt.After(ss.now.Add(-time.Hour)) {
			n++
		}
	}
	for _, t := range ss.tables {
		if t.changed && t.g.Version == 0 && t.g.Challenger == ss.from {
			n++
		}
	}
	return n, nil
}

// invitation returns the invited game the mail answers, checking that the
// sender is the invited player and carries the key.
func (ss *session) invitation() (*table, error) {
	t, err := ss.gameForCommand()
	if err != nil {
		return nil, err
	}
	if t.g.Status != archive.Invited || ss.from == t.g.Challenger {
		return nil, ss.refuse("err.notinvited", t.g.ID)
	}
	return t, nil
}

// accept starts an invited game: both players get the board.
func (ss *session) accept() error {
	t, err := ss.invitation()
	if err != nil {
		return err
	}
	t.g.Status = archive.Active
	t.changed = true
	ss.tell(t.g.Challenger, t, func(lang string) string {
		return tr(lang, "challenge.accepted", ss.from)
	})
	ss.say(t, tr(ss.lang, "challenge.accepted", ss.from))
	ss.showPosition(t)
	return nil
}

// decline refuses an invitation.
func (ss *session) decline() error {
	t, err := ss.invitation()
	if err != nil {
		return err
	}
	t.g.Status = archive.Declined
	t.changed = true
	ss.say(t, tr(ss.lang, "challenge.you.declined"))
	ss.tell(t.g.Challenger, t, func(lang string) string {
		return tr(lang, "challenge.declined", ss.from)
	})
	for _, n := range ss.notes {
		n.subject = tr(n.lang, "subject.declined", t.v.Title)
	}
	return nil
}

// activeGame returns the game of a game command that needs the game to be
// running.
func (ss *session) activeGame() (*table, error) {
	t, err := ss.gameForCommand()
	if err != nil {
		return nil, err
	}
	switch t.g.Status {
	case archive.Active:
		return t, nil
	case archive.Finished:
		return nil, ss.refuse("err.over", t.g.ID, ss.resultText(ss.lang, t))
	}
	return nil, ss.refuse("err.notactive", t.g.ID, string(t.g.Status))
}

// move plays one ply: only the player to move, with the key, in a running
// game; the move-number guard and the capture marks, when written, must
// match.
func (ss *session) move(c *grammar.MoveCommand) error {
	t, err := ss.activeGame()
	if err != nil {
		return err
	}
	mySide := sideOf(t.g, ss.from)
	if c.Ply.Resign {
		return ss.resign()
	}
	if c.Ply.Timeout {
		return ss.refuse("err.timeout")
	}
	if t.toMove() != mySide {
		return ss.refuse("err.notyourturn", sideName(ss.lang, t.toMove()))
	}
	if c.Number > 0 {
		wantDots := "."
		if t.pos.Ply()%2 == 1 {
			wantDots = "..."
		}
		if c.Number != t.moveNumber() || c.Dots != wantDots {
			return ss.refuse("err.movenumber", fmt.Sprintf("%d%s", c.Number, c.Dots), fmt.Sprintf("%d%s", t.moveNumber(), wantDots))
		}
	}
	m := engineMove(c.Ply.Move)
	king, _ := t.pos.King()
	next := t.pos.Clone() // played on a copy: a refused move leaves the game as it was
	r, err := next.Play(m)
	var ill *engine.IllegalMoveError
	if errors.As(err, &ill) {
		return ss.refuse("err.illegal", m, strings.TrimPrefix(ill.Error(), "engine: "+m.String()+": "))
	}
	if err != nil {
		return err
	}
	if marks := c.Ply.Move.CaptureSquares(); len(marks) > 0 && !sameSquares(marks, r.Captures) {
		return ss.refuse("err.captures", squareList(marks), m, capturedText(ss.lang, r.Captures))
	}
	t.pos = next
	t.last = &r
	t.changed = true
	t.newPlies = append(t.newPlies, archive.Ply{N: t.g.PlyCount + len(t.newPlies) + 1, Move: plyText(r, king), At: ss.now, MessageID: ss.msg.MessageID})
	opp := opponentOf(t.g, ss.from)
	if t.g.DrawOfferBy != "" {
		t.g.DrawOfferBy = ""
		ss.tell(opp, t, func(lang string) string { return tr(lang, "draw.lapsed") })
	}
	if o := r.Outcome; o.Over() {
		t.g.Status = archive.Finished
		t.g.Result = o.Result.String()
		t.g.Reason = o.Reason.String()
	}
	played := func(lang string) string {
		s := tr(lang, "move.played", ss.from, plyText(r, king))
		if len(r.Captures) > 0 {
			s += " " + tr(lang, "move.captures", capturedText(lang, r.Captures))
		}
		return s
	}
	ss.tell(opp, t, played)
	ss.say(t, played(ss.lang))
	ss.showPosition(t)
	return nil
}

// sameSquares compares written capture marks with the engine's captures.
func sameSquares(marks []grammar.Square, caps []engine.Square) bool {
	if len(marks) != len(caps) {
		return false
	}
	set := map[engine.Square]bool{}
	for _, c := range caps {
		set[c] = true
	}
	for _, m := range marks {
		if !set[engine.SquareAt(m.File, m.Rank-1)] {
			return false
		}
	}
	return true
}

func squareList(marks []grammar.Square) string {
	var s []string
	for _, m := range marks {
		s = append(s, m.String())
	}
	return strings.Join(s, ", ")
}

// capturedText lists captured squares, or says "nothing".
func capturedText(lang string, caps []engine.Square) string {
	if len(caps) == 0 {
		if lang == german {
			return "nichts"
		}
		return "nothing"
	}
	var s []string
	for _, c := range caps {
		s = append(s, c.String())
	}
	return strings.Join(s, ", ")
}

// showPosition tells both players the position after a change: the board,
// whose move it is, the move list, and at the end the result and the
// record. The board itself is added when the note is written.
func (ss *session) showPosition(t *table) {
	for _, addr := range []string{t.g.Attackers, t.g.Defenders} {
		lang := ss.langOf(addr)
		n := ss.noteFor(addr, lang, t)
		n.game = t
		n.sections = append(n.sections, ss.statusText(lang, t, addr))
	}
}

// statusText says whose move it is, or how the game ended.
func (ss *session) statusText(lang string, t *table, addr string) string {
	var b strings.Builder
	if t.g.Status == archive.Finished {
		b.WriteString(tr(lang, "over.result", ss.resultText(lang, t), t.g.ID))
		b.WriteString("\n\n" + tr(lang, "over.record") + "\n\n" + t.record())
		return b.String()
	}
	if t.toMove() == sideOf(t.g, addr) {
		b.WriteString(tr(lang, "move.yours", t.moveNumber(), sideName(lang, t.toMove())))
		b.WriteString("\n" + tr(lang, "move.how", ss.exampleMove(t)))
	} else {
		b.WriteString(tr(lang, "move.theirs", t.moveNumber(), sideName(lang, t.toMove())))
	}
	return b.String()
}

// exampleMove returns a legal move with its number, for the "how to move"
// line.
func (ss *session) exampleMove(t *table) string {
	ms := t.pos.LegalMoves(nil)
	if len(ms) == 0 {
		return "d1-d3"
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].String() < ms[j].String() })
	dots := "."
	if t.pos.Ply()%2 == 1 {
		dots = "..."
	}
	return fmt.Sprintf("%d%s %s", t.moveNumber(), dots, ms[0])
}

// resultText says who won and why: "the defenders win (the king escaped)".
func (ss *session) resultText(lang string, t *table) string {
	res := tr(lang, "result."+t.g.Result)
	var why string
	switch t.g.Reason {
	case "resignation":
		loser := "attackers"
		if t.g.Result == "attackers" {
			loser = "defenders"
		}
		why = tr(lang, "reason.resignation", sideName(lang, loser))
	default:
		why = tr(lang, "reason."+t.g.Reason)
	}
	return res + ", " + why
}

// board answers with the current position.
func (ss *session) board() error {
	t, err := ss.gameForCommand()
	if err != nil {
		return err
	}
	n := ss.noteFor(ss.from, ss.lang, t)
	n.game = t
	n.sections = append(n.sections, ss.statusText(ss.lang, t, ss.from))
	return nil
}

// history answers with the complete record in the native format.
func (ss *session) history() error {
	t, err := ss.gameForCommand()
	if err != nil {
		return err
	}
	ss.say(t, t.record())
	return nil
}

// games lists the sender's games and whose turn it is.
func (ss *session) games() error {
	gs, err := ss.srv.store.GamesOf(ss.ctx, ss.from)
	if err != nil {
		return err
	}
	if len(gs) == 0 {
		ss.say(nil, tr(ss.lang, "games.none"))
		return nil
	}
	var b strings.Builder
	b.WriteString(tr(ss.lang, "games.header") + "\n")
	for _, g := range gs {
		var state string
		switch g.Status {
		case archive.Active:
			mine := sideOf(g, ss.from)
			turn := "attackers"
			v, _ := engine.Lookup(g.Variant)
			if v != nil && (g.PlyCount%2 == 1) == (v.FirstSide == engine.Attackers) {
				turn = "defenders"
			}
			if turn == mine {
				state = tr(ss.lang, "games.turn.you", g.PlyCount/2+1)
			} else {
				state = tr(ss.lang, "games.turn.them", g.PlyCount/2+1)
			}
		case archive.Invited:
			state = tr(ss.lang, "games.invited")
			if g.Challenger != ss.from {
				state = tr(ss.lang, "games.invited.you")
			}
		case archive.Finished:
			state = tr(ss.lang, "games.finished", tr(ss.lang, "result."+g.Result))
		default:
			state = tr(ss.lang, "games.declined")
		}
		fmt.Fprintf(&b, "  %s\n", tr(ss.lang, "games.line", g.ID, g.Variant, opponentOf(g, ss.from), state))
	}
	ss.say(nil, b.String())
	return nil
}

// resign ends the game in the opponent's favour; either player may resign
// at any time.
func (ss *session) resign() error {
	t, err := ss.activeGame()
	if err != nil {
		return err
	}
	t.g.Status = archive.Finished
	t.g.Reason = "resignation"
	t.g.Result = "attackers"
	if sideOf(t.g, ss.from) == "attackers" {
		t.g.Result = "defenders"
	}
	t.g.DrawOfferBy = ""
	t.changed = true
	ss.showPosition(t)
	return nil
}

// offerDraw records a draw offer and tells the opponent.
func (ss *session) offerDraw() error {
	t, err := ss.activeGame()
	if err != nil {
		return err
	}
	mine := sideOf(t.g, ss.from)
	if t.g.DrawOfferBy == mine {
		return ss.refuse("err.drawpending", t.g.ID)
	}
	if t.g.DrawOfferBy != "" { // both offered: that is agreement
		return ss.acceptDraw()
	}
	t.g.DrawOfferBy = mine
	t.changed = true
	opp := opponentOf(t.g, ss.from)
	ss.say(t, tr(ss.lang, "draw.offer.sent", opp))
	ss.tell(opp, t, func(lang string) string { return tr(lang, "draw.offered", ss.from) })
	return nil
}

// acceptDraw ends the game drawn when the opponent's offer stands.
func (ss *session) acceptDraw() error {
	t, err := ss.activeGame()
	if err != nil {
		return err
	}
	if t.g.DrawOfferBy == "" || t.g.DrawOfferBy == sideOf(t.g, ss.from) {
		return ss.refuse("err.nodraw", t.g.ID)
	}
	t.g.Status = archive.Finished
	t.g.Result = "draw"
	t.g.Reason = "draw agreed"
	t.g.DrawOfferBy = ""
	t.changed = true
	ss.showPosition(t)
	return nil
}

// declineDraw withdraws the opponent's standing offer.
func (ss *session) declineDraw() error {
	t, err := ss.activeGame()
	if err != nil {
		return err
	}
	if t.g.DrawOfferBy == "" || t.g.DrawOfferBy == sideOf(t.g, ss.from) {
		return ss.refuse("err.nodraw", t.g.ID)
	}
	t.g.DrawOfferBy = ""
	t.changed = true
	ss.say(t, tr(ss.lang, "draw.declined", ss.from))
	ss.tell(opponentOf(t.g, ss.from), t, func(lang string) string { return tr(lang, "draw.declined", ss.from) })
	return nil
}

// variants lists the built-in rule sets.
func (ss *session) variants() error {
	var b strings.Builder
	b.WriteString(tr(ss.lang, "variants.header") + "\n")
	for _, v := range engine.Variants() {
		fmt.Fprintf(&b, "  %-13s %2dx%-2d %s\n", v.Name, v.Size, v.Size, v.Summary)
	}
	ss.say(nil, b.String())
	return nil
}

// language sets the sender's reply language.
func (ss *session) language(l string) error {
	l = strings.ToLower(l)
	switch l {
	case "en", "english", "englisch":
		l = english
	case "de", "deutsch", "german":
		l = german
	default:
		return ss.refuse("err.badlanguage", l)
	}
	ss.lang = l
	p := ss.playerRow(ss.from)
	p.Language = l
	ss.say(nil, tr(l, "language.set"))
	return nil
}

// playerRow returns the player row of addr that this mail writes.
func (ss *session) playerRow(addr string) *archive.Player {
	if p, ok := ss.players[addr]; ok {
		return p
	}
	p := &archive.Player{Address: addr}
	if stored, err := ss.srv.store.Player(ss.ctx, addr); err == nil {
		*p = *stored
	} else {
		ss.noteReadErr(err)
	}
	ss.players[addr] = p
	return p
}
