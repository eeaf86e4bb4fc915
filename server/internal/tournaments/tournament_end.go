package tournaments

import (
	"cmp"
	"errors"
	"slices"
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/tournament"
)

// The end of the games a session ended (gamesEnded, run before its
// replies): a game that ends in a session (a move, a resignation, a
// draw, a time-out, a withdrawal) is rated when it is rated, and a
// tournament game's end writes its event (its version guards the last
// game), adds the players' standing to their mails and, for the event's
// last game, finishes the event and mails everyone the final crosstable
// and the records (finishEvent).

// endedTables returns the tables of the games this session ended, by id.
func endedTables(ss *referee.Session) []*referee.Table {
	var ts []*referee.Table
	for _, t := range ss.Tables {
		if t.Changed && !t.WasOver && t.Game.Status == archive.Finished {
			ts = append(ts, t)
		}
	}
	slices.SortFunc(ts, func(a, b *referee.Table) int { return cmp.Compare(a.Game.ID, b.Game.ID) })
	return ts
}

// gamesEnded is run once per session before its replies are written: the
// rated games that ended are rated (their players' mails show the new
// ratings), the tournaments of the tournament games that ended are
// written (version bump), their players' mails show their standing, and
// an event whose last game ended is finished, with the final mails to
// everyone. Archive read failures are kept in ss.readErr. A session
// where no game ended makes no tournament state here (module.go).
func gamesEnded(ss *referee.Session) {
	if ss.Uses(Module{}) && tourneyOf(ss).ended {
		return
	}
	ended := endedTables(ss)
	if len(ended) == 0 {
		return // nothing to rate or tell: no state made for it
	}
	tourneyOf(ss).ended = true
	rateEnded(ss, ended)
	var ids []string
	for _, t := range ended {
		if id := t.Game.TournamentID; id != "" && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		ev, err := loadEvent(ss, id)
		if err != nil {
			var r *referee.Refusal
			if !errors.As(err, &r) {
				ss.NoteReadErr(err)
			}
			continue
		}
		ev.write = true
		sts, err := standings(ss, ev)
		if err != nil {
			ss.Server.Log.Error("tournament standings not computed", "tournament", id, "err", err)
			continue
		}
		told := map[string]bool{}
		for _, t := range ended {
			if t.Game.TournamentID != id {
				continue
			}
			for _, addr := range []string{t.Game.Attackers, t.Game.Defenders} {
				if told[addr] {
					continue
				}
				told[addr] = true
				if line := StandingLine(ss.LangOf(addr), ev.t, sts, addr); line != "" {
					ss.Tell(addr, t, func(string) string { return line })
				}
			}
		}
		if complete(ss, ev) {
			finishEvent(ss, ev, sts)
		}
	}
}

// recordsType is the media type of the records file of an event: the
// native record format is UTF-8 text (docs/notation.md), and the file
// name's ".tafl" says which text.
const recordsType = "text/plain; charset=utf-8"

// finishEvent ends ev, whose last game ended in this session: its status
// and end are written, and every player who entered gets the final
// standings under a first line that names the event (the table does not
// name it again), in a mail of the referee's own with the records of all its
// games attached as one native record file, <tournament>.tafl (as
// `taflmail tournament export` writes it), when they are no larger than
// Options.MaxAttachmentBytes; else the mail says the director has them,
// and the log says why. So does every spectator of the event
// (eventWatchers, those who asked for results only included), in their
// thread and without a way to stop following, as nothing is left to
// follow.
func finishEvent(ss *referee.Session, ev *event, sts []*tournament.Standings) {
	ev.t.Status = archive.TournamentFinished
	ev.t.FinishedAt = ss.Now
	ev.write = true
	games, err := ss.Server.TournamentPort().TournamentGames(ss.Ctx, ev.t.ID, true)
	if err != nil {
		ss.NoteReadErr(err)
		return
	}
	for i, g := range games {
		if t, ok := ss.Tables[g.ID]; ok {
			c := *t.Game
			c.Plies = t.Plies()
			games[i] = &c
		}
	}
	records, err := TournamentExport(games)
	limit := ss.Server.Opts.MaxAttachmentBytes
	var atts []mailer.Attachment
	switch {
	case err != nil:
		ss.Server.Log.Error("tournament records not written", "tournament", ev.t.ID, "err", err)
	case int64(len(records)) > limit:
		ss.Server.Log.Warn("tournament records not attached: larger than server.max_attachment_bytes; the final mail says the director has them",
			"tournament", ev.t.ID, "bytes", len(records), "limit", limit)
	default:
		atts = []mailer.Attachment{{Filename: ev.t.ID + ".tafl", ContentType: recordsType, Data: records}}
	}
	body := func(lang string) string {
		var b strings.Builder
		b.WriteString(referee.Tr(lang, "greeting") + "\n\n")
		b.WriteString(referee.Trn(lang, "tournament.final", len(games), ev.t.Name, len(games)) + "\n\n")
		// the line above names the event: the table does not again, a
		// group's is headed "Group N" (as the standings reply, trial 22)
		b.WriteString(standingsText(ss, lang, ev.t, sts, true) + "\n")
		switch {
		case err != nil:
			b.WriteString(referee.Tr(lang, "tournament.records.unavailable", ev.t.ID) + "\n\n")
		case atts == nil:
			b.WriteString(referee.Tr(lang, "tournament.records.large", (len(records)+1023)/1024, ev.t.ID) + "\n\n")
		case !ev.t.Rated: // its records say [Rated "no"]: `taflmail ratings` rates none of them
			b.WriteString(referee.Trn(lang, "tournament.records.unrated", len(games), len(games), atts[0].Filename) + "\n\n")
		default:
			b.WriteString(referee.Trn(lang, "tournament.records.attached", len(games), len(games), atts[0].Filename) + "\n\n")
		}
		b.WriteString(referee.Tr(lang, "signature") + "\n")
		return b.String()
	}
	played := func(addr string) bool {
		e, ok := ev.entry(addr)
		return ok && e.Section != 0
	}
	for _, e := range ev.entries {
		if e.Section == 0 {
			continue // withdrew before the start
		}
		lang := ss.LangOf(e.Player)
		addOwnMail(ss, "final\x00"+ev.t.ID, e.Player, referee.Tr(lang, "subject.final", ev.t.Name), body(lang), atts...)
	}
	specs, serr := eventWatchers(ss, ev.t.ID, played, true)
	ss.NoteReadErr(serr)
	for _, sp := range specs {
		lang := ss.LangOf(sp.Address)
		eventSpectatorMail(ss, ev.t.ID, sp, referee.Tr(lang, "subject.final", ev.t.Name), body(lang), false, false, MaxEventSpectatorMailBytes, atts...)
	}
	ss.Server.Log.Info("tournament finished", "tournament", ev.t.ID, "games", len(games), "players", len(ev.entries), "spectators", len(specs))
}
