package server

import (
	"errors"
	"fmt"
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/msgid"
)

// Spectators (issue 12, docs/security.md "Spectators"): an address that
// watches a game gets, after every change of its position, a mail with the
// board and the move list — and never a player's key. Its mails have a
// thread of their own: their Message-IDs are "tm.<game>.watch.<nonce>@…"
// (no key where msgid.Thread looks for one), their subject tag names the game
// without a key, and they answer the spectator's own mail that made it one
// (the confirmation of "watch", consent.go), never a
// player's. So a reply to a spectator's mail, by the spectator or by a
// player it was forwarded to, carries no key and can move nothing.

// maxSpectators is how many addresses may watch one game; maxWatched how
// many running games one address may watch. Spectators' mails are not
// bounded by maxReplyBytes, which bounds the replies a sender can cause:
// they are caused by the players' own moves, one mail per spectator.
const (
	maxSpectators = 20
	maxWatched    = 10
)

// maxSpectatorMailBytes bounds one spectator's mail: a board, the move
// list and the record at the end fit many times over.
const maxSpectatorMailBytes = 64 << 10

// tournamentGame reports whether g belongs to a tournament: such a game is
// always public, never allows takebacks, and its tournament's spectators
// follow it.
func tournamentGame(g *archive.Game) bool { return g.TournamentID != "" }

// privateGame reports whether g refuses spectators: a casual game one of whose
// players wrote "private". A tournament game is always public.
func privateGame(g *archive.Game) bool {
	return (g.AttackersPrivate || g.DefendersPrivate) && !tournamentGame(g)
}

// gameIDShaped reports whether id (upper case) can be a game id: six
// characters of idAlphabet (club.LooksLikeGameID). Mail commands that
// take a game or a tournament ("watch ID") read such an id as a game's
// first; a tournament cannot have one (club.ReadTournamentFile).
func gameIDShaped(id string) bool { return club.LooksLikeGameID(id) }

// maxEventSpectators is how many addresses may follow one tournament;
// maxWatchedEvents how many unfinished tournaments one address may
// follow. A tournament's spectator gets a mail per move of every game of
// the event (or per result), so both are small.
const (
	maxEventSpectators = 20
	maxWatchedEvents   = 3
)

// watchTournament answers "watch <id>" for an id that names no game: a
// tournament's id makes the sender a spectator of every game of the
// event, those its start creates included (archive.Spectator with a
// TournamentID), or with resultsOnly of their results; its players may
// follow it too (they get no spectator's copy of their own games). An
// event that is over, full (maxEventSpectators), or one more than the
// sender may follow (maxWatchedEvents) is refused; an id that is neither
// a game nor a tournament too. Like a game's, a keyless request only asks
// the address to confirm it (watchConsent).
func (ss *session) watchTournament(c *grammar.WatchCommand, id string, resultsOnly bool) error {
	ev, err := ss.event(strings.ToLower(id))
	var r *refusal
	if errors.As(err, &r) {
		return ss.refuse("err.watch.unknown", clip(id))
	}
	if err != nil {
		return err
	}
	t := ev.t
	if t.Status != archive.TournamentCreated && t.Status != archive.TournamentRunning {
		return ss.refuse("err.watch.eventover", t.Name)
	}
	was, err := ss.eventSpectatorOf(t.ID)
	if err != nil {
		return err
	}
	if was == nil {
		specs, err := ss.srv.tournamentPort().TournamentSpectators(ss.ctx, t.ID)
		if err != nil {
			return err
		}
		if len(specs) >= maxEventSpectators {
			return ss.refuse("err.watch.eventfull", t.Name, maxEventSpectators)
		}
		watching, err := ss.srv.tournamentPort().WatchingTournaments(ss.ctx, ss.from)
		if err != nil {
			return err
		}
		if len(watching) >= maxWatchedEvents {
			return ss.refuse("err.watch.events", maxWatchedEvents)
		}
	}
	resultsOnly, asked, err := ss.watchConsent(c, "watch "+t.ID, resultsOnly, was, func(lang string, results bool) string {
		if results {
			return tr(lang, "confirm.watch.event.results", t.Name, t.ID)
		}
		return tr(lang, "confirm.watch.event", t.Name, t.ID)
	})
	if err != nil || asked {
		return err
	}
	sp := archive.Spectator{TournamentID: t.ID, Address: ss.from, ResultsOnly: resultsOnly}
	if msgid.Valid(ss.cause.seed) {
		sp.Thread = ss.cause.seed
	}
	cor := corrOf(ss)
	cor.watch = append(cor.watch, sp)
	key := "watch.event"
	if resultsOnly {
		key = "watch.event.results"
	}
	text := tr(ss.lang, key, t.Name, t.ID) + "\n" + tr(ss.lang, "watch.how", t.ID)
	if was != nil && was.ResultsOnly == resultsOnly {
		text = tr(ss.lang, "watch.event.already", t.Name)
	}
	ss.say(nil, text)
	return nil
}

// eventSpectatorOf returns the sender's spectator row of tournament id,
// stored or added by this mail, or nil.
func (ss *session) eventSpectatorOf(id string) (*archive.Spectator, error) {
	cor := corrOf(ss)
	for i := range cor.watch {
		if w := &cor.watch[i]; w.TournamentID == id && w.Address == ss.from {
			return w, nil
		}
	}
	specs, err := ss.srv.tournamentPort().TournamentSpectators(ss.ctx, id)
	if err != nil {
		return nil, err
	}
	for i := range specs {
		if specs[i].Address == ss.from && !ss.unwatchingEvent(id, ss.from) {
			return &specs[i], nil
		}
	}
	return nil, nil
}

// unwatchingEvent reports whether this mail stops addr following
// tournament id.
func (ss *session) unwatchingEvent(id, addr string) bool {
	if !ss.uses(correspondenceModule{}) {
		return false
	}
	for _, u := range corrOf(ss).unwatch {
		if u.TournamentID == id && u.Address == addr {
			return true
		}
	}
	return false
}

// gameSpectators returns who gets a spectator's mail about t: its own
// spectators, then those of its tournament who do not watch it anyway.
func (ss *session) gameSpectators(t *table) ([]archive.Spectator, error) {
	specs, err := ss.srv.spectatorPort().Spectators(ss.ctx, t.g.ID)
	if err != nil || t.g.TournamentID == "" {
		return specs, err
	}
	evs, err := ss.srv.tournamentPort().TournamentSpectators(ss.ctx, t.g.TournamentID)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, sp := range specs {
		seen[sp.Address] = true
	}
	for _, sp := range evs {
		if !seen[sp.Address] && !ss.unwatchingEvent(sp.TournamentID, sp.Address) {
			specs = append(specs, sp)
		}
	}
	return specs, nil
}

// spectatorClock is the clock part of a spectator's mail: the same lines
// the players' mails show (clocksText, clock.go), or "" for an untimed
// game.
func (ss *session) spectatorClock(t *table, lang string) string { return ss.clocksText(lang, t) }

// spectatorMails composes the mails to the spectators of the games whose
// position this mail changed (correspondence.public), and the farewells to
// spectators of games that became private. A private game's spectators
// get nothing; one who asked for results only gets a mail when the game
// ends. Spectators removed by this mail get nothing more.
func (ss *session) spectatorMails() ([]archive.OutboxMail, error) {
	if !ss.uses(correspondenceModule{}) {
		return nil, nil // no position shown, no spectator removed
	}
	cor := corrOf(ss)
	var out []archive.OutboxMail
	for _, f := range cor.farewells {
		lang := ss.langOf(f.sp.Address)
		text := tr(lang, "watch.private", f.t.g.ID)
		if m, ok := ss.spectatorMail(f.t, f.sp, lang, tr(lang, "subject.watch.end", variantTitle(lang, f.t.v)), text, false); ok {
			out = append(out, m)
		}
	}
	for _, t := range cor.public {
		if privateGame(t.g) {
			continue
		}
		specs, err := ss.gameSpectators(t)
		if err != nil {
			return nil, err
		}
		over := t.g.Status == archive.Finished
		for _, sp := range specs {
			if sp.ResultsOnly && !over || ss.unwatching(t.g.ID, sp.Address) {
				continue
			}
			lang := ss.langOf(sp.Address)
			if m, ok := ss.spectatorMail(t, sp, lang, ss.spectatorSubject(t, lang), ss.spectatorNews(t, lang), true); ok {
				out = append(out, m)
			}
		}
	}
	return out, nil
}

// unwatching reports whether this mail removes addr from game id's
// spectators.
func (ss *session) unwatching(id, addr string) bool {
	if !ss.uses(correspondenceModule{}) {
		return false
	}
	for _, u := range corrOf(ss).unwatch {
		if u.GameID == id && u.Address == addr {
			return true
		}
	}
	return false
}

// spectatorMail writes one mail to the spectator sp of t: text, and with
// board the board, the move list, the clocks and the List-Unsubscribe
// fields (unsubscribeHeaders; without board it is the farewell of a game
// that became private). It reports false, and
// logs why, when the mail cannot be written or is too large.
func (ss *session) spectatorMail(t *table, sp archive.Spectator, lang, subject, text string, board bool) (archive.OutboxMail, bool) {
	s := ss.srv
	addr := sp.Address
	stop := t.g.ID // what "unwatch" names: the game, or the tournament followed
	if sp.TournamentID != "" {
		stop = sp.TournamentID
	}
	if addr == s.opts.Address || sideOf(t.g, addr) != "" {
		return archive.OutboxMail{}, false // never the server, never a player as a spectator
	}
	o := mailer.Outgoing{
		MessageID: msgid.Spectator(ss.cause.seed, addr, t.g.ID, s.opts.Domain),
		From:      fmt.Sprintf("%s <%s>", s.opts.Name, s.opts.Address),
		To:        []string{addr},
		Subject:   "[taflmail " + t.g.ID + "] " + subject,
		Body:      ss.spectatorBody(t, lang, text, stop, board),
		Flowed:    true, // wrapped at 76, boards and tables as built (mailer.Preformatted)
		Date:      ss.now,
		Headers: map[string]string{
			loopHeader:        "spectator",
			"X-Taflmail-Game": t.g.ID,
		},
	}
	if board { // not the farewell of a game that became private: nothing is left to leave
		for k, v := range s.unsubscribeHeaders(addr, "unwatch "+stop) {
			o.Headers[k] = v
		}
	}
	if msgid.Valid(sp.Thread) {
		o.InReplyTo, o.References = sp.Thread, []string{sp.Thread}
	}
	raw, err := o.Bytes()
	if err != nil {
		s.log.Warn("spectator mail not sent: it cannot be written", "to", addr, "game", t.g.ID, "err", err)
		return archive.OutboxMail{}, false
	}
	if len(raw) > maxSpectatorMailBytes {
		s.log.Error("spectator mail not sent: too large", "to", addr, "game", t.g.ID, "bytes", len(raw))
		return archive.OutboxMail{}, false
	}
	return archive.OutboxMail{GameID: t.g.ID, MessageID: o.MessageID, From: s.opts.Address, To: []string{addr}, Raw: raw}, true
}

// spectatorSubject is a spectator's subject after the tag: the move and
// who is to move, or the result.
func (ss *session) spectatorSubject(t *table, lang string) string {
	if t.g.Status == archive.Finished {
		return tr(lang, "subject.over", variantTitle(lang, t.v), tr(lang, "result."+t.g.Result))
	}
	return tr(lang, "subject.move", variantTitle(lang, t.v), t.moveNumber(), sideName(lang, t.toMove()))
}

// spectatorNews says what happened in this mail, for a spectator: who
// played which ply, a takeback, and whose move it is or how the game
// ended (with the record).
func (ss *session) spectatorNews(t *table, lang string) string {
	var lines []string
	for _, p := range t.newPlies {
		lines = append(lines, tr(lang, "move.played", addressOf(t.g, plySide(t.v, p.N)), p.Move))
	}
	for _, f := range corrOf(ss).news[t.g.ID] {
		lines = append(lines, f(lang))
	}
	if t.g.Status == archive.Finished {
		lines = append(lines, "", tr(lang, "over.result", resultText(lang, t), t.g.ID), "", tr(lang, "over.record"), "", t.recordText(lang))
	} else {
		lines = append(lines, "", tr(lang, "watch.tomove", t.moveNumber(), sideName(lang, t.toMove())))
	}
	return strings.TrimLeft(strings.Join(lines, "\n"), "\n")
}

// plySide returns the side that plays ply n (1-based) of a game of v
// from its start position.
func plySide(v *engine.Variant, n int) string {
	s := v.FirstSide
	if n%2 == 0 {
		s = s.Opponent()
	}
	return s.String()
}

// spectatorBody writes a spectator's mail: the game header, text, with
// board the board, the move list and the clocks, then how to stop
// watching (stop: the game's id, or the tournament's the spectator
// follows; nothing when the game, and so its watching, is over). It never holds a player's key.
func (ss *session) spectatorBody(t *table, lang, text, stop string, board bool) string {
	var b strings.Builder
	b.WriteString(tr(lang, "greeting") + "\n\n")
	b.WriteString(tr(lang, "game.header", t.g.ID, variantTitle(lang, t.v)) + "\n")
	b.WriteString(tr(lang, "game.players", t.g.Attackers, t.g.Defenders) + "\n\n")
	b.WriteString(strings.TrimRight(text, "\n") + "\n\n")
	if board {
		b.WriteString(boardText(lang, t, false) + "\n")
		if c := ss.spectatorClock(t, lang); c != "" {
			b.WriteString(c + "\n\n")
		}
		if t.g.Status != archive.Finished || stop != t.g.ID {
			// an ended game has nothing left to stop; a tournament's
			// spectator still follows its other games
			b.WriteString(tr(lang, "watch.how", stop) + "\n\n")
		}
	}
	b.WriteString(tr(lang, "signature") + "\n")
	return b.String()
}
