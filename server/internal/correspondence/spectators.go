package correspondence

import (
	"fmt"
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/gameclock"
	"github.com/taflmail/taflmail/server/internal/msgid"
	"github.com/taflmail/taflmail/server/internal/referee"
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

// MaxSpectatorMailBytes bounds one spectator's mail, in bytes: a board,
// the move list and the record at the end fit many times over. The
// tournaments' mails to an event's spectators are bounded by it too.
const MaxSpectatorMailBytes = 64 << 10

// gameSpectators returns who gets a spectator's mail about t: its own
// spectators, then those of its tournament who do not watch it anyway.
func gameSpectators(ss *referee.Session, t *referee.Table) ([]archive.Spectator, error) {
	specs, err := ss.Server.SpectatorPort().Spectators(ss.Ctx, t.Game.ID)
	if err != nil || t.Game.TournamentID == "" {
		return specs, err
	}
	evs, err := ss.Server.TournamentPort().TournamentSpectators(ss.Ctx, t.Game.TournamentID)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, sp := range specs {
		seen[sp.Address] = true
	}
	for _, sp := range evs {
		if !seen[sp.Address] && !UnwatchingEvent(ss, sp.TournamentID, sp.Address) {
			specs = append(specs, sp)
		}
	}
	return specs, nil
}

// spectatorClock is the clock part of a spectator's mail: the same lines
// the players' mails show (clocksText, clock.go), or "" for an untimed
// game.
func spectatorClock(ss *referee.Session, t *referee.Table, lang string) string {
	return gameclock.ClocksText(ss, lang, t)
}

// spectatorMails composes the mails to the spectators of the games whose
// position this mail changed (correspondence.public), and the farewells to
// spectators of games that became private. A private game's spectators
// get nothing; one who asked for results only gets a mail when the game
// ends. Spectators removed by this mail get nothing more.
func spectatorMails(ss *referee.Session) ([]archive.OutboxMail, error) {
	if !ss.Uses(Module{}) {
		return nil, nil // no position shown, no spectator removed
	}
	cor := corrOf(ss)
	var out []archive.OutboxMail
	for _, f := range cor.farewells {
		lang := ss.LangOf(f.sp.Address)
		text := referee.Tr(lang, "watch.private", f.t.Game.ID)
		if m, ok := spectatorMail(ss, f.t, f.sp, lang, referee.Tr(lang, "subject.watch.end", referee.VariantTitle(lang, f.t.Variant)), text, false); ok {
			out = append(out, m)
		}
	}
	for _, t := range cor.public {
		if privateGame(t.Game) {
			continue
		}
		specs, err := gameSpectators(ss, t)
		if err != nil {
			return nil, err
		}
		over := t.Game.Status == archive.Finished
		for _, sp := range specs {
			if sp.ResultsOnly && !over || unwatching(ss, t.Game.ID, sp.Address) {
				continue
			}
			lang := ss.LangOf(sp.Address)
			if m, ok := spectatorMail(ss, t, sp, lang, spectatorSubject(ss, t, lang), spectatorNews(ss, t, lang), true); ok {
				out = append(out, m)
			}
		}
	}
	return out, nil
}

// spectatorMail writes one mail to the spectator sp of t: text, and with
// board the board, the move list, the clocks and the List-Unsubscribe
// fields (unsubscribeHeaders; without board it is the farewell of a game
// that became private). It reports false, and
// logs why, when the mail cannot be written or is too large.
func spectatorMail(ss *referee.Session, t *referee.Table, sp archive.Spectator, lang, subject, text string, board bool) (archive.OutboxMail, bool) {
	s := ss.Server
	addr := sp.Address
	stop := t.Game.ID // what "unwatch" names: the game, or the tournament followed
	if sp.TournamentID != "" {
		stop = sp.TournamentID
	}
	if addr == s.Opts.Address || referee.SideOf(t.Game, addr) != "" {
		return archive.OutboxMail{}, false // never the server, never a player as a spectator
	}
	o := mailer.Outgoing{
		MessageID: msgid.Spectator(ss.Cause.Seed, addr, t.Game.ID, s.Opts.Domain),
		From:      fmt.Sprintf("%s <%s>", s.Opts.Name, s.Opts.Address),
		To:        []string{addr},
		Subject:   "[taflmail " + t.Game.ID + "] " + subject,
		Body:      spectatorBody(ss, t, lang, text, stop, board),
		Flowed:    true, // wrapped at 76, boards and tables as built (mailer.Preformatted)
		Date:      ss.Now,
		Headers: map[string]string{
			referee.LoopHeader: "spectator",
			"X-Taflmail-Game":  t.Game.ID,
		},
	}
	if board { // not the farewell of a game that became private: nothing is left to leave
		for k, v := range s.UnsubscribeHeaders(addr, "unwatch "+stop) {
			o.Headers[k] = v
		}
	}
	if msgid.Valid(sp.Thread) {
		o.InReplyTo, o.References = sp.Thread, []string{sp.Thread}
	}
	raw, err := o.Bytes()
	if err != nil {
		s.Log.Warn("spectator mail not sent: it cannot be written", "to", addr, "game", t.Game.ID, "err", err)
		return archive.OutboxMail{}, false
	}
	if len(raw) > MaxSpectatorMailBytes {
		s.Log.Error("spectator mail not sent: too large", "to", addr, "game", t.Game.ID, "bytes", len(raw))
		return archive.OutboxMail{}, false
	}
	return archive.OutboxMail{GameID: t.Game.ID, MessageID: o.MessageID, From: s.Opts.Address, To: []string{addr}, Raw: raw}, true
}

// spectatorNews says what happened in this mail, for a spectator: who
// played which ply, a takeback, and whose move it is or how the game
// ended (with the record).
func spectatorNews(ss *referee.Session, t *referee.Table, lang string) string {
	var lines []string
	for _, p := range t.NewPlies {
		lines = append(lines, referee.Tr(lang, "move.played", referee.AddressOf(t.Game, plySide(t.Variant, p.N)), p.Move))
	}
	for _, f := range corrOf(ss).news[t.Game.ID] {
		lines = append(lines, f(lang))
	}
	if t.Game.Status == archive.Finished {
		lines = append(lines, "", referee.Tr(lang, "over.result", referee.ResultText(lang, t), t.Game.ID), "", referee.Tr(lang, "over.record"), "", t.RecordText(lang))
	} else {
		lines = append(lines, "", referee.Tr(lang, "watch.tomove", t.MoveNumber(), referee.SideName(lang, t.ToMove())))
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

// spectatorBody writes a spectator's mail: the game header (with the
// modules' additions to it, the event and round of a tournament game:
// trial 3, finding 10), text, with
// board the board, the move list and the clocks, then how to stop
// watching (stop: the game's id, or the tournament's the spectator
// follows; nothing when the game, and so its watching, is over). It never holds a player's key.
func spectatorBody(ss *referee.Session, t *referee.Table, lang, text, stop string, board bool) string {
	var b strings.Builder
	b.WriteString(referee.Tr(lang, "greeting") + "\n\n")
	header, _ := ss.TellGame(lang, t) // a tournament game's event and round, as the players read them
	b.WriteString(referee.Tr(lang, "game.header", t.Game.ID, referee.VariantTitle(lang, t.Variant)) + header + "\n")
	b.WriteString(referee.Tr(lang, "game.players", t.Game.Attackers, t.Game.Defenders) + "\n\n")
	b.WriteString(strings.TrimRight(text, "\n") + "\n\n")
	if board {
		b.WriteString(referee.BoardText(lang, t, false) + "\n")
		if c := spectatorClock(ss, t, lang); c != "" {
			b.WriteString(c + "\n\n")
		}
		if t.Game.Status != archive.Finished || stop != t.Game.ID {
			// an ended game has nothing left to stop; a tournament's
			// spectator still follows its other games
			b.WriteString(referee.Tr(lang, "watch.how", stop) + "\n\n")
		}
	}
	b.WriteString(referee.Tr(lang, "signature") + "\n")
	return b.String()
}
