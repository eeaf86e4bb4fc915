package tournaments

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/correspondence"
	"github.com/taflmail/taflmail/server/internal/msgid"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/tournament"
)

// A tournament's spectators: "watch ID" of an event's id makes the
// sender one, and "unwatch" stops them following it (watchTournament,
// unwatchTournament: the "watch" and "unwatch" commands are the
// correspondence's, cmd_watch.go, which hands the tournament an id it
// does not know through the core's hooks, and keeps the spectator rows
// it writes). What they hear of the event itself, beyond the mails about
// its games (spectators.go): one mail when it starts, listing its games
// (not to those who asked for results only), the final standings when
// its last game ends, and the notice when it is cancelled. Each is
// written in the same change as the event's own mails (the start:
// StartTournament's transaction).

// MaxStartGames is how many games a spectator's start mail lists; the
// rest are counted, with the way to the crosstable ("standings ID").
const MaxStartGames = 50

// MaxEventSpectatorMailBytes bounds a spectator's final mail of an event
// but for its attachment, the records (bounded by
// Options.MaxAttachmentBytes): the standings of every group, and the
// ratings of a rated event. It is a backstop, never reached by an event
// of 100 players. In bytes; a variable so that package server's test
// can lower it.
var MaxEventSpectatorMailBytes = 1 << 20

// eventThreadID finds the Message-ID of a mail to a tournament's
// spectator about the event itself (msgid.Event):
// "tm.event.<tournament>.<nonce>@domain", the tournament's id of the form
// club.TournamentIDPattern, the one every stored tournament has. It is no
// game's thread (msgid.Thread wants a six-character id and a key).
var eventThreadID = regexp.MustCompile(`^tm\.event\.(` + club.TournamentIDPattern + `)\.[0-9a-f]+@`)

// eventOfThread returns the tournament whose spectator's mail m answers
// (its In-Reply-To, then its References), or "": a bare "unwatch" in
// reply to a start mail, which names no game, stops following the event.
func eventOfThread(m *mailer.Message) string {
	if m == nil {
		return "" // no mail, no thread
	}
	for _, id := range append([]string{m.InReplyTo}, m.References...) {
		if sub := eventThreadID.FindStringSubmatch(id); sub != nil {
			return sub[1]
		}
	}
	return ""
}

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
// TournamentID), or with "results" of their results; its players may
// follow it too (they get no spectator's copy of their own games). An
// event that is over, full (maxEventSpectators), or one more than the
// sender may follow (maxWatchedEvents) is refused; an id that is neither
// a game nor a tournament is not taken (false): "watch" refuses it. Like
// a game's, a keyless request only asks the address to confirm it
// (watchConsent). It is the tournament module's watchTaker; true, with
// the command's error, for an event's id.
func watchTournament(ss *referee.Session, c *grammar.WatchCommand) (bool, error) {
	ev, err := loadEvent(ss, strings.ToLower(c.Target.ID))
	var r *referee.Refusal
	if errors.As(err, &r) {
		return false, nil
	}
	if err != nil {
		return true, err
	}
	return true, watchEvent(ss, c, ev.t)
}

// watchEvent carries out "watch" c of tournament t (watchTournament).
func watchEvent(ss *referee.Session, c *grammar.WatchCommand, t *archive.Tournament) error {
	resultsOnly := c.Results != ""
	if t.Status != archive.TournamentCreated && t.Status != archive.TournamentRunning {
		return ss.Refuse("err.watch.eventover", t.Name)
	}
	was, err := eventSpectatorOf(ss, t.ID)
	if err != nil {
		return err
	}
	if was == nil {
		specs, err := ss.Server.TournamentPort().TournamentSpectators(ss.Ctx, t.ID)
		if err != nil {
			return err
		}
		if len(specs) >= maxEventSpectators {
			return ss.Refuse("err.watch.eventfull", t.Name, maxEventSpectators)
		}
		watching, err := ss.Server.TournamentPort().WatchingTournaments(ss.Ctx, ss.From)
		if err != nil {
			return err
		}
		if len(watching) >= maxWatchedEvents {
			return ss.Refuse("err.watch.events", maxWatchedEvents)
		}
	}
	resultsOnly, asked, err := correspondence.WatchConsent(ss, c, "watch "+t.ID, resultsOnly, was, func(lang string, results bool) string {
		if results {
			return referee.Tr(lang, "confirm.watch.event.results", t.Name, t.ID)
		}
		return referee.Tr(lang, "confirm.watch.event", t.Name, t.ID)
	})
	if err != nil || asked {
		return err
	}
	// the event's own thread for this spectator (msgid.EventThread), which
	// the mails about its games answer too, not the mail that confirmed
	sp := archive.Spectator{TournamentID: t.ID, Address: ss.From, ResultsOnly: resultsOnly,
		Thread: msgid.EventThread(ss.From, t.ID, ss.Server.Opts.Domain)}
	correspondence.StartWatching(ss, sp)
	key := "watch.event"
	if resultsOnly {
		key = "watch.event.results"
	}
	text := referee.Tr(ss.Lang, key, t.Name, t.ID) + "\n" + referee.Tr(ss.Lang, "watch.how", t.ID)
	if was != nil && was.ResultsOnly == resultsOnly {
		text = referee.Tr(ss.Lang, "watch.event.already", t.Name)
	}
	ss.Say(nil, text)
	return nil
}

// eventSpectatorOf returns the sender's spectator row of tournament id,
// stored or added by this mail, or nil.
func eventSpectatorOf(ss *referee.Session, id string) (*archive.Spectator, error) {
	if w := correspondence.EventWatchAdded(ss, id); w != nil {
		return w, nil
	}
	specs, err := ss.Server.TournamentPort().TournamentSpectators(ss.Ctx, id)
	if err != nil {
		return nil, err
	}
	for i := range specs {
		if specs[i].Address == ss.From && !correspondence.UnwatchingEvent(ss, id, ss.From) {
			return &specs[i], nil
		}
	}
	return nil, nil
}

// unwatchEvent finds the tournament an "unwatch" stops the sender
// following: the one id names (named: the line, or the thread of a
// tournament's start mail, names it), or, for a reply to a spectator's
// mail about a tournament game that the sender does not watch on its
// own, that game's tournament. ok is false when the sender follows no
// such tournament (the line is then about a game).
func unwatchEvent(ss *referee.Session, named bool, id string) (string, bool, error) {
	event := strings.ToLower(id)
	if !named || correspondence.GameIDShaped(id) {
		g, err := ss.Server.GamePort().Game(ss.Ctx, id)
		if errors.Is(err, archive.ErrNotFound) {
			if !named {
				return "", false, nil
			}
		} else if err != nil {
			return "", false, err
		} else {
			specs, err := ss.Server.SpectatorPort().Spectators(ss.Ctx, id)
			if err != nil {
				return "", false, err
			}
			for _, sp := range specs {
				if sp.Address == ss.From {
					return "", false, nil // watched on its own: unwatch the game
				}
			}
			event = g.TournamentID
		}
	}
	if event == "" || correspondence.UnwatchingEvent(ss, event, ss.From) {
		return "", false, nil
	}
	specs, err := ss.Server.TournamentPort().TournamentSpectators(ss.Ctx, event)
	if err != nil {
		return "", false, err
	}
	for _, sp := range specs {
		if sp.Address == ss.From {
			return event, true, nil
		}
	}
	return "", false, nil
}

// unwatchTournament takes an "unwatch" of id, named or not
// (unwatchEvent), that stops the sender following a tournament: the
// row goes (stopWatching) and the sender is told. False for any other
// "unwatch", which is then about a game, except a named id that cannot
// be a game's (gameIDShaped): only a tournament can have it, so one the
// sender does not follow is refused as such, in the id's own case, not as
// a game "BLITZ-1" (event trial §6). It is the tournament module's
// unwatchTaker.
func unwatchTournament(ss *referee.Session, id string, named bool) (bool, error) {
	ev, ok, err := unwatchEvent(ss, named, id)
	if ok {
		correspondence.StopWatching(ss, archive.Spectator{TournamentID: ev, Address: ss.From})
		ss.Say(nil, referee.Tr(ss.Lang, "watch.event.stopped", ev))
	}
	if !ok && err == nil && named && !correspondence.GameIDShaped(id) {
		return true, ss.Refuse("err.unwatch.event.not", referee.Clip(strings.ToLower(id)))
	}
	return ok, err
}

// eventWatchers returns the spectators of tournament id who get a mail
// about the event itself: not those this mail stops, not a player of the
// event (player reports it; they get the players' mails), not the
// referee's own address, and with resultsToo also those who asked for
// results only.
func eventWatchers(ss *referee.Session, id string, player func(string) bool, resultsToo bool) ([]archive.Spectator, error) {
	specs, err := ss.Server.TournamentPort().TournamentSpectators(ss.Ctx, id)
	if err != nil {
		return nil, fmt.Errorf("server: spectators of tournament %s: %w", id, err)
	}
	var out []archive.Spectator
	for _, sp := range specs {
		if sp.ResultsOnly && !resultsToo || correspondence.UnwatchingEvent(ss, id, sp.Address) || player(sp.Address) || sp.Address == ss.Server.Opts.Address {
			continue
		}
		out = append(out, sp)
	}
	return out, nil
}

// eventSpectatorMail queues a mail about tournament event to its
// spectator sp, a mail of the referee's own (ownMail's caps and budgets
// do not apply): in the event's own thread for the spectator
// (msgid.EventThread), which with head it starts (the start mail, or the
// cancellation: the event's first mail) and otherwise answers — not
// under the spectator's confirmation of "watch" (trial 3, finding 10);
// with leave the List-Unsubscribe fields that stop following the event
// (none when the event is over: nothing is left to leave), and the files
// atts attached. A mail that cannot be written, or is larger than
// maxBytes plus twice the bytes of its attachments (base64 writes 4 bytes
// for 3, and a line end for every 76), is logged and not sent.
func eventSpectatorMail(ss *referee.Session, event string, sp archive.Spectator, subject, body string, leave, head bool, maxBytes int, atts ...mailer.Attachment) {
	s := ss.Server
	thread := msgid.EventThread(sp.Address, event, s.Opts.Domain)
	o := mailer.Outgoing{
		MessageID: msgid.Event(ss.Cause.Seed, sp.Address, event, s.Opts.Domain),
		From:      fmt.Sprintf("%s <%s>", s.Opts.Name, s.Opts.Address),
		To:        []string{sp.Address},
		Subject:   subject,
		Body:      body,
		Flowed:    true, // wrapped at 76, boards and tables as built (mailer.Preformatted)
		Date:      ss.Now,
		Headers:   map[string]string{referee.LoopHeader: "spectator", "Auto-Submitted": "auto-generated"},

		Attachments: atts,
	}
	for _, a := range atts {
		maxBytes += 2 * len(a.Data)
	}
	if leave {
		for k, v := range s.UnsubscribeHeaders(sp.Address, "unwatch "+event) {
			o.Headers[k] = v
		}
	}
	if head {
		o.MessageID = thread
	} else {
		o.InReplyTo, o.References = thread, []string{thread}
	}
	raw, err := o.Bytes()
	if err != nil {
		s.Log.Warn("tournament spectator mail not sent: it cannot be written", "to", sp.Address, "tournament", event, "err", err)
		return
	}
	if len(raw) > maxBytes {
		s.Log.Error("tournament spectator mail not sent: too large", "to", sp.Address, "tournament", event, "bytes", len(raw))
		return
	}
	tst := tourneyOf(ss)
	tst.own = append(tst.own, archive.OutboxMail{MessageID: o.MessageID, From: s.Opts.Address, To: []string{sp.Address}, Raw: raw})
}

// startWatchMails writes, at the start of tournament t with players
// entered, one mail to each of specs, its spectators who follow every
// move (eventWatchers without those who asked for results only, who get
// none; docs/tournaments.md): the event's name and id, its terms, its
// games with id, round tag and who plays whom — the first MaxStartGames
// of its total, given as ids and games (in the same order), then how
// many more — and how to stop following.
func startWatchMails(ss *referee.Session, t *archive.Tournament, players int, specs []archive.Spectator, ids []string, games []tournament.Game, total int) {
	for _, sp := range specs {
		lang := ss.LangOf(sp.Address)
		var b strings.Builder
		b.WriteString(referee.Tr(lang, "greeting") + "\n\n")
		b.WriteString(referee.Tr(lang, "start.intro", t.Name, t.ID, referee.Counted(lang, "players", players), referee.Counted(lang, "games", total)) + "\n" + eventTerms(ss.Server, lang, t) + "\n\n")
		b.WriteString(referee.Trn(lang, "start.watch.list", total, total) + "\n")
		section := 0
		for i, g := range games[:min(len(games), MaxStartGames)] {
			if t.Groups > 1 && g.Section != section {
				section = g.Section
				b.WriteString(referee.Tr(lang, "start.watch.group", section) + "\n")
			}
			ev := archive.GameEvent{Pairing: archive.Pairing{Round: g.Round, Board: g.Board, MatchGame: g.MatchGame}, GamesPerPairing: t.GamesPerPairing}
			b.WriteString(referee.TableRow(fmt.Sprintf("  %s  %-7s  %s %s", ids[i], ev.RoundTag(), g.Attackers, referee.Tr(lang, "start.vs", g.Defenders)), len(referee.GamesIndent)) + "\n")
		}
		if n := total - min(len(games), MaxStartGames); n > 0 {
			b.WriteString(referee.Trn(lang, "start.watch.more", n, n, t.ID) + "\n")
		}
		b.WriteString("\n" + referee.Tr(lang, "watch.how", t.ID) + "\n\n")
		b.WriteString(referee.Tr(lang, "signature") + "\n")
		eventSpectatorMail(ss, t.ID, sp, referee.Tr(lang, "subject.start.watch", t.Name), b.String(), true, true, correspondence.MaxSpectatorMailBytes)
	}
}

// cancelWatchMails tells the spectators of tournament t, which is
// cancelled before its start for lack of players (entered: how many were
// still in), that it will not take place; those who asked for results
// only too, as the event's last news. Archive read failures are kept in
// ss.readErr.
func cancelWatchMails(ss *referee.Session, t *archive.Tournament, entered func(string) bool, n int) {
	specs, err := eventWatchers(ss, t.ID, entered, true)
	ss.NoteReadErr(err)
	for _, sp := range specs {
		lang := ss.LangOf(sp.Address)
		body := referee.Tr(lang, "greeting") + "\n\n" + referee.Trn(lang, "tournament.cancelled", n, t.Name, n, MinPlayers) + "\n\n" + referee.Tr(lang, "signature") + "\n"
		eventSpectatorMail(ss, t.ID, sp, referee.Tr(lang, "subject.cancelled", t.Name), body, false, true, correspondence.MaxSpectatorMailBytes)
	}
}
