package server

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// Tests of the fixes after the third outside trial of tournaments, the
// digest and watching (the tester's findings, lettered as the brief).

// TestTrial3EventSpectatorThread (A, finding 10): the mails a spectator
// of an event gets form the event's own thread, not one under the mail
// that confirmed "watch": the start mail heads it (its Message-ID is an
// event's, it answers nothing), and the mails about the event's games
// and the final standings answer it. Each game mail names the event and
// the game's round in the spectator's language ("Spring Cup, round
// 1.1.1", "Frühjahrspokal, Runde 1.1.1"). A spectator who follows the
// event only after its start gets its game mails in one thread of the
// event too.
func TestTrial3EventSpectatorThread(t *testing.T) {
	h := newHarness(t)
	const erika = "erika@watch.test"
	h.createEvent("cup-40", []string{alice, bob, "dave@player.test"}, func(t *archive.Tournament) { t.Name = "Spring Cup" })
	confirm := h.confirmed(watcher, "watch cup-40", nil)
	h.confirmed(erika, "sprache de\nzuschauen cup-40", nil)
	if _, err := StartTournament(h.srv, h.ctx(), "cup-40"); err != nil {
		t.Fatal(err)
	}
	h.srv.FlushOutbox(h.ctx())
	start := h.last(watcher).msg
	mustContain(t, "the start mail", start.Subject, referee.Tr(referee.English, "subject.start.watch", "Spring Cup"))
	if !strings.HasPrefix(start.MessageID, "tm.event.cup-40.") || start.InReplyTo != "" || len(start.References) != 0 {
		t.Errorf("the start mail is %q answering %q %q; want an event's id heading a thread of its own (not the confirmation %q)",
			start.MessageID, start.InReplyTo, start.References, confirm[0].msg.InReplyTo)
	}
	h.confirmed(viewer, "watch cup-40", nil) // after the start: no start mail heads the thread

	games := h.eventGames("cup-40")
	var viewerThread string
	for i, g := range games {
		before := len(h.sender.sent)
		h.inGame(g.ID, g.Defenders, "resign")
		h.srv.FlushOutbox(h.ctx())
		sent := h.sender.sent[before:]
		for _, c := range []struct{ addr, lang string }{{watcher, referee.English}, {erika, referee.German}} {
			m := gameMail(t, sent, c.addr, g.ID)
			mustContain(t, c.lang+" spectator's mail of game "+g.ID, m.Text, referee.Tr(c.lang, "game.event", "Spring Cup", g.Event.RoundTag()))
		}
		m := gameMail(t, sent, watcher, g.ID)
		if m.InReplyTo != start.MessageID {
			t.Errorf("the mail of game %s answers %q, want the event's start mail %q", g.ID, m.InReplyTo, start.MessageID)
		}
		v := gameMail(t, sent, viewer, g.ID)
		if i == 0 {
			viewerThread = v.InReplyTo
		}
		if !strings.HasPrefix(v.InReplyTo, "tm.event.cup-40.") || v.InReplyTo != viewerThread {
			t.Errorf("the late spectator's mail of game %s answers %q, want the event's thread %q", g.ID, v.InReplyTo, viewerThread)
		}
		if i == len(games)-1 {
			final := finalMails(sent, "Spring Cup")[watcher]
			if len(final) != 1 || final[0].msg.InReplyTo != start.MessageID {
				t.Errorf("the final standings to the spectator: %d mails, want one answering the start mail %q:\n%s", len(final), start.MessageID, subjects(sent))
			}
		}
	}
}

// TestTrial3DigestEventAndDraw (B): the daily digest's entry of a
// tournament game names its event and round, and the entry of a game
// whose opponent offered a draw that still stands says so, with how to
// answer it, in the player's language; an entry without an offer says
// nothing of one.
func TestTrial3DigestEventAndDraw(t *testing.T) {
	for _, c := range []struct{ lang, digest string }{
		{referee.English, "notify digest 07:30"},
		{referee.German, "sprache de\nbenachrichtigung täglich 07:30"},
	} {
		h := newHarness(t)
		h.createEvent("cup-41", []string{alice, bob, "dave@player.test"}, func(t *archive.Tournament) { t.Name = "Spring Cup" })
		if _, err := StartTournament(h.srv, h.ctx(), "cup-41"); err != nil {
			t.Fatal(err)
		}
		h.srv.FlushOutbox(h.ctx())
		h.deliver(bob, "settings", c.digest, nil)
		var offered, first *archive.Game // bob defends against an offer; bob opens
		for _, g := range h.eventGames("cup-41") {
			switch {
			case g.Defenders == bob && offered == nil:
				offered = g
			case g.Attackers == bob && first == nil:
				first = g
			}
		}
		h.inGame(offered.ID, offered.Attackers, "d1-e1\noffer draw")
		if g := h.gameOf(offered.ID); g.DrawOfferBy != "attackers" || len(g.Plies) != 1 {
			t.Fatalf("%s: the offer was not made: %+v", c.lang, g)
		}
		h.now = time.Date(2026, 11, 30, 7, 30, 0, 0, time.UTC)
		digest := to(t, h.runTimers(nil), bob).Text
		drawLine := referee.Tr(c.lang, "digest.draw", offered.Attackers)
		entries := map[string]string{} // each game's entry: from its header to its tag line
		for _, g := range []*archive.Game{offered, first} {
			header := referee.Tr(c.lang, "game.header", g.ID, referee.VariantTitle(c.lang, h.tableOf(g.ID).Variant)) +
				referee.Tr(c.lang, "game.event", "Spring Cup", g.Event.RoundTag())
			mustContain(t, c.lang+" digest", digest, header)
			if i, j := strings.Index(digest, header), strings.Index(digest, "[taflmail "+g.ID); i >= 0 && j > i {
				entries[g.ID] = digest[i:j]
			}
		}
		mustContain(t, c.lang+" entry with the offer", entries[offered.ID], drawLine)
		if n := strings.Count(digest, drawLine); n != 1 {
			t.Errorf("%s: the digest tells the offer %d times, want once (its game alone):\n%s", c.lang, n, digest)
		}
	}
}

// crosstableRow matches a player's row of a crosstable: the place (shared
// ones "1–4"), the player, the rest of the line.
var crosstableRow = regexp.MustCompile(`(?m)^ +[0-9]+(?:–[0-9]+)? +\S+@\S+.*$`)

// crosstableRows returns the players' rows of the crosstables in text, in
// their order, each line as written.
func crosstableRows(text string) string {
	return strings.Join(crosstableRow.FindAllString(text, -1), "\n")
}

// TestTrial3SharedPlacesOneOrder (C, finding 11): players who share a
// place stand in one order wherever the standings are shown: the
// "standings" reply, the final standings mail, what `taflmail
// tournament standings` prints (club.EventStandings, the archive's
// entries) and what `taflmail standings` prints from the records the
// final mail attaches (club.RecordSections) — their Berger numbers'
// (docs/tournaments.md, Decision T2). The players' ratings seed them so
// that the Berger numbers follow neither the order of entry nor the
// order in which the records first name them; every game is drawn, so
// all four share the place.
func TestTrial3SharedPlacesOneOrder(t *testing.T) {
	h := newHarness(t)
	players := []string{"d@player.test", "c@player.test", "b@player.test", "a@player.test"}
	var ratings []archive.Rating
	for i, p := range players {
		ratings = append(ratings, archive.Rating{Player: p, Variant: "brandubh", Value: archive.RatingValue{R: 1450 + 50*float64(i), RD: 100, Volatility: 0.06},
			Games: 5, LastEnd: h.now.Add(-day)})
	}
	if err := h.store.Commit(h.ctx(), archive.Change{Writes: []archive.Write{&archive.TournamentChange{Ratings: []archive.RatingUpdate{{Variant: "brandubh", Ratings: ratings}}}}}); err != nil {
		t.Fatal(err)
	}
	h.createEvent("tie-42", players, func(t *archive.Tournament) { t.GamesPerPairing = 1 })
	if _, err := StartTournament(h.srv, h.ctx(), "tie-42"); err != nil {
		t.Fatal(err)
	}
	h.srv.FlushOutbox(h.ctx())
	before := len(h.sender.sent)
	for _, g := range h.eventGames("tie-42") {
		h.inGame(g.ID, g.Attackers, "offer draw")
		h.inGame(g.ID, g.Defenders, "accept draw")
	}
	h.srv.FlushOutbox(h.ctx())
	final := finalMails(h.sender.sent[before:], "Cup tie-42")[players[0]]
	if len(final) != 1 {
		t.Fatalf("%d final mails to %s, want 1", len(final), players[0])
	}

	es, err := h.store.Entries(h.ctx(), "tie-42")
	if err != nil {
		t.Fatal(err)
	}
	berger := make([]string, len(es))
	for _, e := range es {
		berger[e.Number-1] = e.Player
	}
	var want []string
	for _, p := range berger {
		want = append(want, "1–4 "+p)
	}

	tt, entries, games, err := club.LoadEvent(h.ctx(), h.store, "tie-42", true)
	if err != nil {
		t.Fatal(err)
	}
	sts, err := club.EventStandings(tt, entries, games)
	if err != nil {
		t.Fatal(err)
	}
	records, err := TournamentExport(games)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := notation.ReadGames("tie-42.tafl", records, notation.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	secs, problems, err := club.RecordSections(parsed, nil)
	if err != nil || len(problems) != 0 || len(secs) != 1 {
		t.Fatalf("the records' sections: %d, problems %v, %v", len(secs), problems, err)
	}
	fromRecords, err := secs[0].Standings()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ what, rows string }{
		{"the standings reply", crosstableRows(to(t, h.deliver("stranger@player.test", "x", "standings tie-42", nil), "stranger@player.test").Text)},
		{"the final mail", crosstableRows(final[0].msg.Text)},
		{"taflmail tournament standings", crosstableRows(sts[0].Text())},
		{"taflmail standings of the records", crosstableRows(fromRecords.Text())},
	} {
		var got []string
		for _, row := range strings.Split(c.rows, "\n") {
			got = append(got, strings.Join(strings.Fields(row)[:2], " "))
		}
		if strings.Join(got, ", ") != strings.Join(want, ", ") {
			t.Errorf("%s lists the shared place as %q, want the Berger numbers' order %q", c.what, got, want)
		}
	}
}
