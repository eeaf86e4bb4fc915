package correspondence

import (
	"errors"
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/msgid"
	"github.com/taflmail/taflmail/server/internal/referee"
)

func init() {
	referee.Handle("watch", watch)
	referee.Handle("unwatch", unwatch)
	referee.HelpLine(63, "help.watch")
}

// watch makes the sender a spectator of a running game (issue 12,
// spectators.go): from now on a mail with the board after every move, or
// with "results" only the result. Spectators are strangers to the game
// and to the caps (caps.go), and a mail's From can be forged, so a
// keyless "watch" only asks the address to confirm (issue 18,
// consent.go): "watch ID confirm KEY" with the key mailed to it makes it
// a spectator; a mail that carries the sender's key for one of its games
// needs no confirmation, nor does a spectator's change to fewer mails
// ("results"). A game that does not exist, has not started, is over, is
// private or is the sender's own is refused; so is a game with
// MaxSpectators spectators, and a sender who watches MaxWatched games. An
// id that is no game may name another module's target (watchOther).
func watch(ss *referee.Session, c *grammar.WatchCommand) error {
	id := strings.ToUpper(c.Target.ID)
	resultsOnly := c.Results != ""
	if !GameIDShaped(id) {
		return watchOther(ss, c)
	}
	t, err := ss.Table(id)
	var r *referee.Refusal
	if errors.As(err, &r) {
		return watchOther(ss, c)
	}
	if err != nil {
		return err
	}
	if err := watchable(ss, t, id); err != nil {
		return err
	}
	was, err := watchRoom(ss, id)
	if err != nil {
		return err
	}
	what := "watch " + id
	resultsOnly, asked, err := WatchConsent(ss, c, what, resultsOnly, was, func(lang string, results bool) string {
		if results {
			return referee.Tr(lang, "confirm.watch.results", id, t.Game.Attackers, t.Game.Defenders)
		}
		return referee.Tr(lang, "confirm.watch", id, t.Game.Attackers, t.Game.Defenders)
	})
	if err != nil || asked {
		return err
	}
	sp := archive.Spectator{GameID: id, Address: ss.From, ResultsOnly: resultsOnly}
	if msgid.Valid(ss.Cause.Seed) {
		sp.Thread = ss.Cause.Seed
	}
	StartWatching(ss, sp)
	watchReply(ss, t, id, was, resultsOnly)
	return nil
}

// watchOther hands a "watch" whose id names no game to the modules (the
// tournament's: following an event, TakeWatch); one no module takes is
// refused as naming nothing known.
func watchOther(ss *referee.Session, c *grammar.WatchCommand) error {
	if took, err := ss.TakeWatch(c); took {
		return err
	}
	return ss.Refuse("err.watch.unknown", referee.Clip(c.Target.ID))
}

// watchable refuses a watch of t (game id) when the sender plays in it,
// it has not started, it is over or declined, or it is private.
func watchable(ss *referee.Session, t *referee.Table, id string) error {
	if referee.SideOf(t.Game, ss.From) != "" {
		return ss.Refuse("err.watch.player", id)
	}
	switch t.Game.Status {
	case archive.Invited:
		return ss.Refuse("err.watch.notstarted", id)
	case archive.Finished:
		return ss.Refuse("err.over", id, referee.ResultText(ss.Lang, t))
	case archive.Declined:
		return ss.Refuse("err.notactive", id, referee.Tr(ss.Lang, "status."+string(t.Game.Status)))
	}
	if privateGame(t.Game) {
		return ss.Refuse("err.watch.private", id)
	}
	return nil
}

// watchRoom returns the sender's spectator record of game id, nil when
// they do not watch it yet; a new spectator is refused when the game has
// MaxSpectators or the sender watches MaxWatched games (counting this
// mail's).
func watchRoom(ss *referee.Session, id string) (*archive.Spectator, error) {
	was, n, err := spectatorOf(ss, id)
	if err != nil || was != nil {
		return was, err
	}
	if n >= MaxSpectators {
		return nil, ss.Refuse("err.watch.full", id, MaxSpectators)
	}
	watching, err := ss.Server.SpectatorPort().Watching(ss.Ctx, ss.From)
	if err != nil {
		return nil, err
	}
	if len(watching)+watchedHere(ss) >= MaxWatched {
		return nil, ss.Refuse("err.watch.toomany", MaxWatched)
	}
	return nil, nil
}

// watchReply tells the sender they watch t (game id) now (results only
// or every move), or already did when was, their earlier record, asked
// for the same. The reply is about t (its tag, board and move list) unless the
// mail is about another of the sender's games: then t's board goes into
// the text.
func watchReply(ss *referee.Session, t *referee.Table, id string, was *archive.Spectator, resultsOnly bool) {
	key := "watch.started"
	if resultsOnly {
		key = "watch.results"
	}
	n2 := ss.NoteFor(ss.From, ss.Lang, nil)
	here := ss.ContextTable() == nil && (n2.Game == nil || n2.Game == t)
	how := "watch.how"
	if !here {
		// the reply goes to another game's thread: a bare "unwatch"
		// there would name that game (trial 3 report §1)
		how = "watch.how.send"
	}
	text := referee.Tr(ss.Lang, key, id, t.Game.Attackers, t.Game.Defenders) + "\n" + referee.Tr(ss.Lang, how, id)
	if was != nil && was.ResultsOnly == resultsOnly {
		text = referee.Tr(ss.Lang, "watch.already", id)
	}
	if here {
		// the reply is about the watched game: its tag (without a key),
		// board and move list; a reply to a mail about one of the
		// sender's own games stays about that game (compose)
		n2.Game = t
		n2.Subject = referee.Tr(ss.Lang, "subject.watch", referee.VariantTitle(ss.Lang, t.Variant))
		// a spectator's mail, which docs/commands.md promises can be left
		// from the mail program (trial 2 report §12)
		n2.Headers = ss.Server.UnsubscribeHeaders(ss.From, "unwatch "+id)
		ss.AddSection(n2, text)
		return
	}
	// the reply is about another game of the sender's: this one's board
	// goes into the text, and each board says whose game it shows
	n2.Other = referee.Tr(ss.Lang, "subject.watch.other", id, referee.VariantTitle(ss.Lang, t.Variant))
	ss.AddBoardOf(n2, t, text)
}

// WatchConsent decides whether the sender's "watch" of what ("watch
// K7QX2M", "watch cup-27") takes effect now, and returns resultsOnly as
// it then holds. A confirmation (c.Key) is checked (confirmConsent), and
// the request it confirms decides resultsOnly. Without one, a request
// takes effect at once when the mail is consented (its sender's key for
// a game) or asks for no more mail than the sender gets already (was,
// the sender's spectator row, or nil); any other request is mailed to
// the sender to confirm, with text(lang, resultsOnly) saying what it is
// (askConsent), and asked is true: the command is done, nothing else of
// it takes effect. Refusals and quiet requests are the error.
func WatchConsent(ss *referee.Session, c *grammar.WatchCommand, what string, resultsOnly bool, was *archive.Spectator,
	text func(lang string, resultsOnly bool) string) (results, asked bool, err error) {
	if c.Key != nil {
		req, err := ss.ConfirmConsent(what, c.Key)
		if err != nil {
			return false, false, err
		}
		if w, ok := req.(*grammar.WatchCommand); ok {
			resultsOnly = w.Results != ""
		}
		return resultsOnly, false, nil
	}
	if ss.Consented(what) || was != nil && (resultsOnly || !was.ResultsOnly) {
		return resultsOnly, false, nil
	}
	request := what
	if resultsOnly {
		request += " results"
	}
	return false, true, ss.AskConsent(what, request, text(ss.Lang, resultsOnly))
}

// spectatorOf returns the sender's spectator row of game id, stored or
// added by this mail (nil if none), and how many spectators the game has.
func spectatorOf(ss *referee.Session, id string) (*archive.Spectator, int, error) {
	specs, err := ss.Server.SpectatorPort().Spectators(ss.Ctx, id)
	if err != nil {
		return nil, 0, err
	}
	var mine *archive.Spectator
	for i := range specs {
		if specs[i].Address == ss.From && !unwatching(ss, id, ss.From) {
			mine = &specs[i]
		}
	}
	cor := corrOf(ss)
	for i := range cor.spectatorsAdded {
		if w := &cor.spectatorsAdded[i]; w.GameID == id {
			mine = w
		}
	}
	n := len(specs)
	if mine == nil {
		for _, w := range cor.spectatorsAdded {
			if w.GameID == id {
				n++
			}
		}
	}
	return mine, n, nil
}

// watchedHere counts the games the sender starts watching in this mail.
func watchedHere(ss *referee.Session) int {
	seen := map[string]bool{}
	for _, w := range corrOf(ss).spectatorsAdded {
		if w.GameID != "" {
			seen[w.GameID] = true
		}
	}
	return len(seen)
}

// unwatch ends the sender's watching of a game: the one the line names,
// or the one the mail's subject names (a reply to a spectator's mail);
// or of another module's target (the tournament's events, TakeUnwatch),
// also the one a bare "unwatch" names by the mail's thread
// (ThreadTarget: the event whose start mail it answers).
// It needs no key; the worst a forger can do with it is stop someone's
// spectator mails, which "watch" starts again (docs/security.md).
func unwatch(ss *referee.Session, c *grammar.UnwatchCommand) error {
	id, named := ss.Ref.ID, c.Target != nil
	if named {
		id = strings.ToUpper(c.Target.ID)
	} else if id == "" {
		id = strings.ToUpper(ss.ThreadTarget())
		named = id != ""
	}
	if id == "" {
		return ss.Refuse("err.unwatch.which")
	}
	if took, err := ss.TakeUnwatch(id, named); took || err != nil {
		return err
	}
	specs, err := ss.Server.SpectatorPort().Spectators(ss.Ctx, id)
	if err != nil {
		return err
	}
	found := false
	for _, sp := range specs {
		found = found || sp.Address == ss.From
	}
	cor := corrOf(ss)
	kept := cor.spectatorsAdded[:0]
	for _, w := range cor.spectatorsAdded {
		if w.GameID == id {
			found = true
			continue
		}
		kept = append(kept, w)
	}
	cor.spectatorsAdded = kept
	if !found || unwatching(ss, id, ss.From) {
		return ss.Refuse("err.unwatch.not", referee.Clip(id))
	}
	cor.spectatorsRemoved = append(cor.spectatorsRemoved, archive.Spectator{GameID: id, Address: ss.From})
	ss.Say(nil, referee.Tr(ss.Lang, "watch.stopped", id))
	return nil
}

// watchBudget is the reply budget of a keyless mail with the "watch" line
// c (triage.go): a confirmation when its key is the one the referee
// mailed this address for that request ("watch ID confirm KEY", the id as
// written in either case), else junk. It only reads the archive.
func watchBudget(ss *referee.Session, c *grammar.WatchCommand) (archive.MailBudget, error) {
	if c.Key != nil {
		for _, what := range []string{"watch " + strings.ToUpper(c.Target.ID), "watch " + strings.ToLower(c.Target.ID)} {
			if ok, err := ss.ConfirmsWaiting(what, c.Key.Text); err != nil || ok {
				return referee.ConfirmationIf(ok), err
			}
		}
	}
	return archive.JunkBudget, nil
}

// watchedBoard answers a spectator's "board" (the correspondence
// module's boardShower): when the mail names a game the sender watches
// (watchedGame), with the position as their mails show it
// (spectatorBoard). False for any other mail; err is an archive failure.
func watchedBoard(ss *referee.Session) (bool, error) {
	t, err := watchedGame(ss)
	if t == nil || err != nil {
		return err != nil, err
	}
	spectatorBoard(ss, t)
	return true, nil
}

// watchedGame returns the one game the mail names when the sender does
// not play in it but watches it, and it is not private (docs/commands.md,
// "private": its spectators are removed anyway); nil for anything else,
// which gameForCommand then refuses. Only an archive failure is returned.
func watchedGame(ss *referee.Session) (*referee.Table, error) {
	if ss.Ref.ID == "" || len(ss.Ref.Several) > 1 {
		return nil, nil
	}
	t, err := ss.Table(ss.Ref.ID)
	var r *referee.Refusal
	if errors.As(err, &r) {
		return nil, nil
	}
	if err != nil || referee.SideOf(t.Game, ss.From) != "" || privateGame(t.Game) {
		return nil, err
	}
	sp, _, err := spectatorOf(ss, t.Game.ID)
	if err != nil || sp == nil {
		return nil, err
	}
	return t, nil
}

// spectatorBoard answers a spectator's "board" as their mails show the
// game: its tag without a key, whose move it is (or the result), the
// board and the move list, and how to stop watching. Nothing in it lets
// the spectator move (docs/security.md, Spectators).
func spectatorBoard(ss *referee.Session, t *referee.Table) {
	n := ss.NoteFor(ss.From, ss.Lang, nil)
	text := referee.Tr(ss.Lang, "watch.tomove", t.MoveNumber(), referee.SideName(ss.Lang, t.ToMove())) + "\n" + referee.Tr(ss.Lang, "watch.how", t.Game.ID)
	if t.Game.Status == archive.Finished {
		text = referee.Tr(ss.Lang, "over.result", referee.ResultText(ss.Lang, t), t.Game.ID)
	}
	if n.Game != nil && n.Game != t {
		ss.AddBoardOf(n, t, text)
		return
	}
	n.Game = t
	n.Subject = spectatorSubject(ss, t, ss.Lang)
	n.Headers = ss.Server.UnsubscribeHeaders(ss.From, "unwatch "+t.Game.ID)
	ss.AddSection(n, text)
}
