package server

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// Tests of the fixes after the second trial (trial 2 report, numbered as
// there), each through the referee.

// TestTrial2HugeAddressRefused (§1): a challenge to an address longer than
// RFC 5321 allows is refused while the line is read, with a reply that
// quotes neither the line nor the address whole; no game is made.
func TestTrial2HugeAddressRefused(t *testing.T) {
	for _, c := range []struct {
		lang, line string
		wants      []string
	}{
		{referee.English, "new brandubh with " + strings.Repeat("x", 100000) + "@player.test",
			[]string{"at most 1000 bytes long; this one has 100030", "(100030 characters)", "Nothing was changed"}}, // grammar.MaxCommandLine

		{referee.German, "neu brandubh mit " + strings.Repeat("x", 100000) + "@player.test",
			[]string{"höchstens 1000 Bytes lang sein; diese hat 100029", "(100029 Zeichen)", "nichts geändert"}},
		{referee.English, "new brandubh with x@" + strings.Repeat("y", 250) + ".test",
			[]string{"has 257 characters, more than 254"}},
		{referee.German, "neu brandubh mit x@" + strings.Repeat("y", 250) + ".test",
			[]string{"hat 257 Zeichen, mehr als 254"}},
	} {
		h := newHarness(t)
		sent := h.deliver(carol, "huge", c.line, nil)
		if len(sent) != 1 {
			t.Fatalf("%s: %d mails sent, want the refusal alone", c.lang, len(sent))
		}
		text := to(t, sent, carol).Text
		mustContain(t, "refusal", text, c.wants...)
		if len(sent[0].raw) > 8<<10 {
			t.Errorf("%s: the refusal has %d bytes; it quotes too much", c.lang, len(sent[0].raw))
		}
		gs, err := h.store.GamesOf(context.Background(), carol)
		if err != nil || len(gs) != 0 {
			t.Errorf("%s: carol has games %v (%v), want none", c.lang, gs, err)
		}
	}
}

// TestTrial2HugeWatchLine (§2): a 100,000-character "watch" line is
// refused with the line cut short and its length, not with "I answered
// the first part" and nothing else.
func TestTrial2HugeWatchLine(t *testing.T) {
	for _, c := range []struct{ lang, word, want, length string }{
		{referee.English, "watch", "at most 1000 bytes long; this one has 100006", "(100006 characters)"}, // grammar.MaxCommandLine
		{referee.German, "zuschauen", "höchstens 1000 Bytes lang sein; diese hat 100010", "(100010 Zeichen)"},
	} {
		h := newHarness(t)
		sent := h.deliver(carol, "hw", c.word+" "+strings.Repeat("A1", 50000), nil)
		text := to(t, sent, carol).Text
		mustContain(t, "refusal", text, c.want, "…", c.length)
		for _, key := range []string{"err.cut", "err.cutall"} {
			if strings.Contains(text, referee.Tr(c.lang, key)) {
				t.Errorf("%s: the reply says %q:\n%s", c.lang, referee.Tr(c.lang, key), text)
			}
		}
		if len(sent[0].raw) > 8<<10 {
			t.Errorf("%s: the refusal has %d bytes", c.lang, len(sent[0].raw))
		}
	}
}

// TestTrial2GamesListCut (§1): a "games" list that would not fit into one
// reply is cut and says how many games it leaves out, instead of being
// dropped for "I answered the first part" (here a challenge made before
// addresses were checked, with a 100,000-character opponent, and 300
// games with long addresses).
func TestTrial2GamesListCut(t *testing.T) {
	for _, lang := range []string{referee.English, referee.German} {
		h := newHarness(t)
		sent := h.deliver(carol, "x", "new brandubh with bob@player.test", nil)
		id := referee.FindGame(to(t, sent, bob).Subject, "", nil).ID
		h.setGame(id, func(g *archive.Game) { g.Defenders = strings.Repeat("x", 100000) + "@player.test" })
		cmd := "games"
		if lang == referee.German {
			cmd = "partien"
		}
		text := to(t, h.deliver(carol, "x", cmd, nil), carol).Text
		mustContain(t, "games", text, id, strings.Repeat("x", 100)+"…")
		if strings.Contains(text, referee.Tr(lang, "err.cut")) || strings.Contains(text, referee.Tr(lang, "err.cutall")) {
			t.Errorf("%s: the list was dropped:\n%s", lang, text)
		}

		var c archive.Change
		for i := range 300 {
			c.Games = append(c.Games, &archive.Game{ID: fmt.Sprintf("G%05d", i), Variant: "brandubh", Challenger: carol,
				Attackers: carol, Defenders: fmt.Sprintf("%s%d@player.test", strings.Repeat("y", 60), i),
				AttackerToken: fmt.Sprintf("k%09d", i), DefenderToken: fmt.Sprintf("d%09d", i),
				Status: archive.Active, CreatedAt: h.now})
		}
		if err := h.store.Commit(context.Background(), c); err != nil {
			t.Fatal(err)
		}
		sent = h.deliver(carol, "x", cmd, nil)
		text = to(t, sent, carol).Text
		mustContain(t, "games", text, referee.Tr(lang, "games.header"))
		if !strings.Contains(text, strings.SplitN(referee.Tr(lang, "games.cut", 1), "1", 2)[0]) {
			t.Errorf("%s: the list does not say it was cut:\n%s", lang, text)
		}
		if strings.Contains(text, referee.Tr(lang, "err.cut")) || strings.Contains(text, referee.Tr(lang, "err.cutall")) {
			t.Errorf("%s: the list was dropped:\n%s", lang, text)
		}
	}
}

// gameOf returns the stored game id.
func (h *harness) gameOf(id string) *archive.Game {
	h.t.Helper()
	g, err := h.store.Game(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return g
}

// TestTrial2MisspeltCommands (§4): a line that is a command with a typo
// is answered "Did you mean …?" and never passed on to the opponent;
// prose that merely starts with a word near a command still is.
func TestTrial2MisspeltCommands(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	for _, c := range []struct{ line, lang, want string }{
		{"aufgebn", referee.German, `Meintest du "aufgeben"?`},
		{"zurücknehmn", referee.German, `Meintest du "zurücknehmen"?`},
		{"bedingungn löschen", referee.German, `Meintest du "bedingungen löschen"?`},
		{"rücknahme annehmn", referee.German, `Meintest du "rücknahme annehmen"?`},
		{"nachrichten aus bitte", referee.German, `Meintest du "nachrichten aus"?`},
		{"resing", referee.English, `Did you mean "resign"?`},
		{"notfy", referee.English, `Did you mean "notify"?`},
		{"Takebak!", referee.English, `Did you mean "takeback"?`},
		{"messages off please", referee.English, `Did you mean "messages off"?`},
	} {
		h.setPlayerLanguage(bob, c.lang)
		text := to(t, h.reply(bob, c.line), bob).Text
		mustContain(t, c.line, text, "> "+c.line, c.want, referee.Tr(c.lang, "err.nothing"))
		g := h.gameOf(id)
		if g.Status != archive.Active || g.MessageToAttackers != "" {
			t.Errorf("%q: the game is %s, alice's waiting message %q; want it active and nothing passed on", c.line, g.Status, g.MessageToAttackers)
		}
	}
	// prose near a command word is passed on
	h.setPlayerLanguage(bob, referee.German)
	prose := "Aufgabe gelöst!\nPartie gefällt mir\nNotify me when you are back\nMessages are welcome"
	text := to(t, h.reply(bob, prose), bob).Text
	if strings.Contains(text, "Meintest du") {
		t.Errorf("prose got a did-you-mean:\n%s", text)
	}
	if g := h.gameOf(id); g.MessageToAttackers != prose {
		t.Errorf("alice's waiting message is %q, want the prose %q", g.MessageToAttackers, prose)
	}
}

// setPlayerLanguage sets the stored reply language of addr.
func (h *harness) setPlayerLanguage(addr, lang string) {
	h.t.Helper()
	p, err := h.store.Player(context.Background(), addr)
	if err != nil {
		p = &archive.Player{Address: addr}
	}
	p.Language = lang
	if err := h.store.Commit(context.Background(), archive.Change{Players: []archive.Player{*p}}); err != nil {
		h.t.Fatal(err)
	}
}

// TestTrial2SecondWordCaret (§5): "remis anbiten" is refused with the
// caret under "anbiten", the words that may stand there, and the command
// meant; "offer drw" likewise (a word of four letters gets no "Did you
// mean", nearmiss.go).
func TestTrial2SecondWordCaret(t *testing.T) {
	for _, c := range []struct {
		lang, line string
		wants      []string
	}{
		{referee.German, "remis anbiten", []string{"> remis anbiten\n        ^\n",
			`Erwartet: "anbieten" oder "annehmen" oder "ablehnen", gefunden: "anbiten".`, `Meintest du "remis anbieten"?`}},
		{referee.English, "offer drw", []string{"> offer drw\n        ^\n", `Expected "draw", found "drw".`}},
	} {
		h := newHarness(t)
		startBrandubh(t, h)
		h.setPlayerLanguage(bob, c.lang)
		mustContain(t, c.line, to(t, h.reply(bob, c.line), bob).Text, c.wants...)
	}
}

// TestTrial2NotifyAfterDigest (§6): "notify" after "notify digest 06:00"
// in the same mail tells the digest just set (the mail of a player: an
// address that plays no game confirms its change first, consent.go).
func TestTrial2NotifyAfterDigest(t *testing.T) {
	for _, c := range []struct{ lang, body string }{
		{referee.English, "notify digest 06:00\nnotify"},
		{referee.German, "benachrichtigung täglich 06:00\nbenachrichtigung"},
	} {
		h := newHarness(t)
		startBrandubh(t, h)
		text := to(t, h.deliver(bob, "n", c.body, nil), bob).Text
		show := referee.Tr(c.lang, "notify.show.digest", "06:00", "")
		show = show[:strings.Index(show, "06:00")+5]
		if !strings.Contains(text, show) {
			t.Errorf("%s: the reply does not tell the digest just set (%q):\n%s", c.lang, show, text)
		}
		if old := referee.Tr(c.lang, "notify.show.each")[:30]; strings.Contains(text, old) {
			t.Errorf("%s: the reply tells the old setting (%q):\n%s", c.lang, old, text)
		}
	}
}

// TestTrial2SeveralNewGames (§10): every game one mail starts, against
// the engine or a person, gets start mails of its own, each with its own
// tag, key and board, in its own thread; nothing of one game is in
// another's mail. (One mail starts at most one game against the engine,
// issue 18 §3, so the second game here is against a person.)
func TestTrial2SeveralNewGames(t *testing.T) {
	for _, lang := range []string{referee.English, referee.German} {
		h := newEngineHarness(t)
		// three people who never wrote: each gets one invitation (consent.go)
		body := "new brandubh with engine level 1\nnew tablut with dave@player.test as defenders\n" +
			"new brandubh with bob@player.test\nnew copenhagen with erin@player.test time 30d+1d"
		if lang == referee.German {
			body = "neu brandubh mit engine stufe 1\nneu tablut mit dave@player.test als verteidiger\n" +
				"neu brandubh mit bob@player.test\nneu copenhagen mit erin@player.test zeit 30d+1d"
		}
		sent := h.deliver(carol, "games", body, nil)
		games := map[string]map[string]bool{} // recipient → games named
		for _, m := range sent {
			ref := referee.FindGame(m.msg.Subject, "", nil)
			if ref.ID == "" || len(ref.Tokens) != 1 {
				t.Errorf("%s: a mail to %s names no game with a key: %q", lang, m.to, m.msg.Subject)
				continue
			}
			g := h.gameOf(ref.ID)
			if referee.TokenOf(g, m.to) != ref.Tokens[0] || !strings.Contains(m.msg.Text, ref.Tokens[0]) {
				t.Errorf("%s: the mail to %s about %s does not carry the recipient's key", lang, m.to, ref.ID)
			}
			v, _ := engine.Lookup(g.Variant)
			ml := lang
			if m.to == "dave@player.test" || m.to == "erin@player.test" {
				ml = referee.English // they never wrote: the server's default language
			}
			mustContain(t, "start mail of "+ref.ID, m.msg.Text, referee.VariantTitle(ml, v), fmt.Sprintf("%d  ", v.Size))
			for _, other := range []string{"Tablut", "Copenhagen"} {
				if !strings.Contains(referee.VariantTitle(ml, v), other) && strings.Contains(m.msg.Text, other) {
					t.Errorf("%s: the mail about %s (%s) speaks of %s:\n%s", lang, ref.ID, g.Variant, other, m.msg.Text)
				}
			}
			if games[m.to] == nil {
				games[m.to] = map[string]bool{}
			}
			if games[m.to][ref.ID] {
				t.Errorf("%s: two mails to %s about %s", lang, m.to, ref.ID)
			}
			games[m.to][ref.ID] = true
		}
		if len(games[carol]) != 4 || len(games[bob]) != 1 || len(games["dave@player.test"]) != 1 || len(games["erin@player.test"]) != 1 {
			t.Errorf("%s: carol got mails about %d games, bob about %d, dave about %d, erin about %d; want 4, 1, 1 and 1", lang,
				len(games[carol]), len(games[bob]), len(games["dave@player.test"]), len(games["erin@player.test"]))
		}
	}
}

// TestTrial2Plurals (§12): one conditional line and one removed spectator
// are counted in the singular, in both languages; the mail after a broken
// chain says once who played the move.
func TestTrial2Plurals(t *testing.T) {
	for _, c := range []struct {
		lang, cond, private string
		wants               []string
	}{
		{referee.English, "if d3-f3 then d2-f2xf3 if c4-c3 then g4-g3", "private",
			[]string{"You have 1 conditional line in this game; only you can see it.", "1 spectator was removed.",
				"1 conditional line stays set:", "Your 1 conditional line did not expect e4-e3; it is cancelled."}},
		{referee.German, "wenn d3-f3 dann d2-f2xf3 wenn c4-c3 dann g4-g3", "privat",
			[]string{"Du hast 1 bedingte Zeile in dieser Partie; nur du siehst sie.", "1 Zuschauer wurde entfernt.",
				"1 bedingte Zeile bleibt gesetzt:", "Deine 1 bedingte Zeile hat e4-e3 nicht erwartet; sie ist gelöscht."}},
	} {
		h := newHarness(t)
		id := startBrandubh(t, h)
		h.setPlayerLanguage(alice, c.lang)
		h.setPlayerLanguage(bob, c.lang)
		h.reply(alice, "d1-e1")
		var all strings.Builder
		all.WriteString(to(t, h.reply(alice, c.cond), alice).Text)
		h.confirmed(watcher, "watch "+id, nil)
		all.WriteString(to(t, h.reply(alice, c.private), alice).Text)
		all.WriteString(to(t, h.reply(bob, "d3-f3"), alice).Text)
		broken := to(t, h.reply(bob, "e4-e3"), alice).Text
		all.WriteString(broken)
		mustContain(t, c.lang+" replies", all.String(), c.wants...)
		if n := strings.Count(broken, "played e4-e3") + strings.Count(broken, "hat e4-e3 gezogen"); n != 1 {
			t.Errorf("%s: the mail after the broken chain says %d times who played e4-e3:\n%s", c.lang, n, broken)
		}
	}
}

// TestTrial2WatchConfirmationUnsubscribe (§12): the confirmation of
// "watch" is a spectator's mail and carries List-Unsubscribe, as every
// spectator mail does, but for the farewell of a game made private: the
// spectator is gone already.
func TestTrial2WatchConfirmationUnsubscribe(t *testing.T) {
	for _, cmd := range []string{"watch", "zuschauen"} {
		h := newHarness(t)
		id := startBrandubh(t, h)
		m := to(t, h.confirmed(watcher, cmd+" "+id, nil), watcher)
		if got := m.Header["List-Unsubscribe"]; len(got) != 1 || !strings.Contains(got[0], "subject=unwatch%20"+id) {
			t.Errorf("%s: the confirmation's List-Unsubscribe = %q", cmd, got)
		}
		bye := to(t, h.reply(alice, "private"), watcher)
		if got := bye.Header["List-Unsubscribe"]; len(got) != 0 {
			t.Errorf("%s: the farewell of a game made private has List-Unsubscribe %q", cmd, got)
		}
	}
}
