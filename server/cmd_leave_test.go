package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// The harness's games start on 2026-11-29 (a Sunday) at 10:00 UTC.

// TestLeaveMovesDeadline (Decision C5): leave of either player stops both
// clocks of their game, so the deadline of the side to move moves on by
// the leave, whoever takes it; overlapping leave counts once; the
// opponent is told; cancelling gives the days back and moves the
// deadline back.
func TestLeaveMovesDeadline(t *testing.T) {
	h := newHarness(t)
	id, start := startTimed(t, h, "3d+0d")
	d0 := h.deadlineOf(id)
	if want := start.Add(3*day + time.Second); !d0.Equal(want) {
		t.Fatalf("deadline %v, want start + 3d + 1s = %v", d0, want)
	}
	// alice, to move, takes 1 December
	sent := h.reply(alice, "leave 2026-12-01")
	mustContain(t, "alice's reply", to(t, sent, alice).Text, "Leave taken: 2026-12-01 (1 day). You have 29 days left in 2026.",
		"Games whose clocks this concerns: "+id)
	mustContain(t, "bob's notice", to(t, sent, bob).Text, "alice@player.test takes leave: 2026-12-01 (1 day).",
		"Clocks (3d+0d):", "must move no later than "+catalog.Instant(referee.English, d0.Add(day-time.Second)))
	if d := h.deadlineOf(id); !d.Equal(d0.Add(day)) {
		t.Errorf("after alice's leave the deadline is %v, want one day later: %v", d, d0.Add(day))
	}
	// bob, not to move, takes 1 and 2 December: the union is two days
	sent = h.reply(bob, "urlaub 2026-12-01 bis 2026-12-02")
	mustContain(t, "bob's reply", to(t, sent, bob).Text, "Urlaub eingetragen: 01.12.2026 bis 02.12.2026 (2 Tage). Du hast noch 28 Tage im Jahr 2026.")
	mustContain(t, "alice's notice", to(t, sent, alice).Text, "bob@player.test takes leave: 2026-12-01 to 2026-12-02 (2 days).")
	if d := h.deadlineOf(id); !d.Equal(d0.Add(2 * day)) {
		t.Errorf("with both players' leave the deadline is %v, want two days later (the union): %v", d, d0.Add(2*day))
	}
	sent = h.reply(alice, "clock")
	mustContain(t, "clock", sent[0].msg.Text, "Leave of the attackers: 2026-12-01 (1 day).",
		"Leave of the defenders: 2026-12-01 to 2026-12-02 (2 days).", "must move no later than "+catalog.Instant(referee.English, d0.Add(2*day-time.Second)))
	h.reply(bob, "leave 2026-12-04")
	// a move during leave is played, and charged nothing for the leave
	h.now = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC).Add(-h.step)
	h.reply(alice, openings[0])
	if left := h.stateOf(id).Clock[0]; left != 3*day-(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC).Sub(start)) {
		t.Errorf("attackers' clock after a move on leave: %v; only the time before the leave counts", left)
	}
	// bob's clock runs on 3 December, stands on the 4th, runs the 5th and 6th
	if d, want := h.deadlineOf(id), time.Date(2026, 12, 7, 0, 0, 1, 0, time.UTC); !d.Equal(want) {
		t.Errorf("bob's deadline %v, want %v", d, want)
	}
	// bob cancels on 2 December: the 4th is given back, the 2nd has begun
	sent = h.reply(bob, "cancel leave")
	mustContain(t, "bob's cancel", to(t, sent, bob).Text, "Urlaub abgebrochen: 1 Tag zurückgegeben. Du hast noch 28 Urlaubstage im Jahr 2026.")
	mustContain(t, "alice's notice", to(t, sent, alice).Text, "bob@player.test withdrew their announced leave 2026-12-04 (1 day) before it began; nothing changes for the clocks",
		"defenders 3d left (on leave)")
	mustNotContain(t, "alice's notice", to(t, sent, alice).Text, "run again")
	if d, want := h.deadlineOf(id), time.Date(2026, 12, 6, 0, 0, 1, 0, time.UTC); !d.Equal(want) {
		t.Errorf("after the cancellation bob's deadline is %v, want %v", d, want)
	}
}

// TestLeaveRefused: every refusal of CORRESPONDENCE.md §3.3 names the days
// left and changes nothing; a malformed date is a syntax error; leave
// without a key is refused.
func TestLeaveRefused(t *testing.T) {
	h := newHarness(t)
	id, _ := startTimed(t, h, "10d+1d")
	h.reply(alice, "leave 2026-12-24 to 2027-01-02") // 8 days of 2026, 2 of 2027
	before := h.deadlineOf(id)
	for _, tc := range []struct{ line, want string }{
		{"leave 2026-11-28", "The leave 2026-11-28 (1 day) begins before today; leave may begin today at the earliest. You have 22 leave days left in 2026."},
		{"leave 2026-12-30 to 2026-12-31", "The leave 2026-12-30 to 2026-12-31 (2 days) shares days with your leave 2026-12-24 to 2027-01-02 (10 days). You have 22 leave days left in 2026."},
		{"leave 2026-11-30 to 2026-12-22", "The leave 2026-11-30 to 2026-12-22 (23 days) needs 23 days, but you have only 22 leave days left in 2026."},
		{"leave 2027-12-01 to 2028-01-05", "The leave 2027-12-01 to 2028-01-05 (36 days) crosses the new year and needs more days than a year has left: 2027: 31 days asked, 28 left; 2028: 5 days asked, 30 left."},
		{"leave 2026-12-10 to 2026-12-01", "The leave from 2026-12-10 to 2026-12-01 ends before it begins. You have 22 leave days left in 2026."},
		{"leave 2026-13-01", "2026-13-01 is not a day of the calendar."},
		{"leave 12/11/2026", "12/11/2026 can be read as 2026-11-12 or as 2026-12-11: the day and the month could be either way round. Write the day first with dots (12.11.2026 or 11.12.2026), or the year first (2026-11-12)."},
		{"leave 31.11.", "31.11. is not a day of the calendar.\nA date is written in one of these forms"},
		{"leave 24. to 31.", "24. names no month."},
	} {
		sent := h.reply(alice, tc.line)
		if len(sent) != 1 {
			t.Errorf("%q: %d mails, want the refusal to alice only:\n%s", tc.line, len(sent), texts(sent))
			continue
		}
		mustContain(t, tc.line, sent[0].msg.Text, tc.want)
		if leave, _ := h.store.Leave(context.Background(), alice); len(leave) != 1 {
			t.Errorf("%q changed the leave: %v", tc.line, leave)
		}
	}
	if d := h.deadlineOf(id); !d.Equal(before) {
		t.Errorf("refusals moved the deadline from %v to %v", before, d)
	}
	// a year's allowance over a year boundary is taken apart per year
	sent := h.reply(alice, "leave")
	mustContain(t, "leave", sent[0].msg.Text, "You have 22 of your 30 leave days left in 2026.", "Your leave from today on: 2026-12-24 to 2027-01-02 (10 days).")
	// without the key (a new mail): refused, days left may be asked
	sent = h.deliver(alice, "holidays", "leave 2026-12-10", nil)
	mustContain(t, "keyless leave", sent[0].msg.Text, "send it as a reply to a mail about one of your games")
	sent = h.reply(alice, "urlaub 2026-02-30")
	mustContain(t, "German date", sent[0].msg.Text, "2026-02-30 ist kein Tag des Kalenders.")
	sent = h.deliver(carol, "holidays", "urlaub", nil)
	mustContain(t, "keyless query", sent[0].msg.Text, "Du hast noch 30 von 30 Urlaubstagen im Jahr 2026.")
	// nothing to cancel
	h2 := newHarness(t)
	startTimed(t, h2, "10d+1d")
	sent = h2.reply(alice, "cancel leave")
	mustContain(t, "cancel", sent[0].msg.Text, "You have no leave after today to cancel. You have 30 leave days left in 2026.")
}

const carol = "carol@player.test"

// TestLeaveAllowanceOption: the operator's allowance (Options.LeaveDays)
// bounds leave; the invitation states it.
func TestLeaveAllowanceOption(t *testing.T) {
	h := newHarness(t)
	h.srv.Opts.LeaveDays = 5
	sent := h.deliver(alice, "x", "new copenhagen with bob@player.test time 10d+1d", nil)
	mustContain(t, "invitation", to(t, sent, bob).Text, "each player may take 5 days a year")
	h.reply(bob, "accept")
	sent = h.reply(alice, "leave 2026-12-01 to 2026-12-06")
	mustContain(t, "refusal", sent[0].msg.Text, "needs 6 days, but you have only 5 leave days left in 2026.")
	sent = h.reply(alice, "leave 2026-12-01 to 2026-12-05")
	mustContain(t, "taken", to(t, sent, alice).Text, "You have 0 days left in 2026.")
}

// TestLeaveAcrossGames: leave is the player's, in all running games: both
// games' deadlines move and both opponents are told, each once.
func TestLeaveAcrossGames(t *testing.T) {
	h := newHarness(t)
	id1, _ := startTimed(t, h, "3d+0d")
	sent := h.deliver(alice, "x", "new copenhagen with carol@player.test time 5d+0d", nil)
	h.reply(carol, "accept")
	id2 := referee.FindGame(to(t, sent, carol).Subject, "", nil).ID
	d1, d2 := h.deadlineOf(id1), h.deadlineOf(id2)
	sent = h.reply(alice, "leave 2026-12-01 to 2026-12-02")
	if len(sent) != 3 {
		t.Fatalf("%d mails, want alice's reply and one notice each to bob and carol:\n%s", len(sent), texts(sent))
	}
	mustContain(t, "alice", to(t, sent, alice).Text, "Games whose clocks this concerns: ")
	for _, id := range []string{id1, id2} {
		if !strings.Contains(to(t, sent, alice).Text, id) {
			t.Errorf("alice's reply does not name game %s", id)
		}
	}
	to(t, sent, bob)
	to(t, sent, carol)
	if a, b := h.deadlineOf(id1), h.deadlineOf(id2); !a.Equal(d1.Add(2*day)) || !b.Equal(d2.Add(2*day)) {
		t.Errorf("deadlines %v, %v; want both two days later than %v, %v", a, b, d1, d2)
	}
	if leave, _ := h.store.Leave(context.Background(), alice); len(leave) != 1 || leave[0] != (notation.Leave{
		First: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), Last: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)}) {
		t.Errorf("stored leave %v", leave)
	}
}

// TestLeaveDatesAsWritten (issue 22 §1): the days of a leave command as
// people write them. "urlaub 24.12.2026" was "Erwartet: Zeilenende,
// gefunden: "24""; now it, "24.12.–2.1." (no year: the next such days),
// "Dec 24 to Jan 2" and a day alone before a day with its month are
// taken as the leave they name; a line that cannot be read is answered
// with a caret under the problem and the forms to write, in the player's
// language, and changes nothing.
func TestLeaveDatesAsWritten(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"urlaub 24.12.2026", "Urlaub eingetragen: 24.12.2026 (1 Tag)."},
		{"urlaub 24.12.–2.1.", "Urlaub eingetragen: 24.12.2026 bis 02.01.2027 (10 Tage)."},
		{"urlaub vom 24.12. bis zum 2.1.2027", "Urlaub eingetragen: 24.12.2026 bis 02.01.2027 (10 Tage)."},
		{"leave Dec 24 to Jan 2", "Leave taken: 2026-12-24 to 2027-01-02 (10 days)."},
		{"leave 24-31 Dec", "Leave taken: 2026-12-24 to 2026-12-31 (8 days)."},
		{"leave 2026-12-24", "Leave taken: 2026-12-24 (1 day)."},
		{"leave 24/12", "Leave taken: 2026-12-24 (1 day)."},
		{"leave 1.12.", "Leave taken: 2026-12-01 (1 day)."},
		{"leave 28.11.", "Leave taken: 2027-11-28 (1 day)."}, // yesterday's date is next year's
	} {
		t.Run(tc.line, func(t *testing.T) {
			h := newHarness(t)
			id, _ := startTimed(t, h, "10d+1d")
			sent := h.reply(alice, tc.line)
			games := "Games whose clocks this concerns: " + id
			if !strings.HasPrefix(tc.want, "Leave taken") {
				games = "Betroffene Partien: " + id
			}
			mustContain(t, tc.line, to(t, sent, alice).Text, tc.want, games)
		})
	}

	h := newHarness(t)
	startTimed(t, h, "10d+1d")
	for _, tc := range []struct {
		line  string
		wants []string
	}{
		{"leave 2 weeks", []string{"> leave 2 weeks\n" + strings.Repeat(" ", 10) + "^\n",
			`Expected "-" or "to" or "bis" or end of line, found "weeks".`,
			"A date is written in one of these forms", "DD.MM.YYYY  DD.MM.", "2026-12-24", "Dec 24 to Jan 2"}},
		{"leave 24.12. to 31.2.", []string{"> leave 24.12. to 31.2.\n" + strings.Repeat(" ", 18) + "^\n",
			"31.2. is not a day of the calendar.", "A date is written in one of these forms"}},
		{"leave 29.2.", []string{"29.2. without a year is its next date, in 2027, which has no such day; write the year too."}},
		{"urlaub 24.12.2026 bitte", []string{"> urlaub 24.12.2026 bitte\n" + strings.Repeat(" ", 20) + "^\n",
			`Erwartet: "-" oder "to" oder "bis" oder Zeilenende, gefunden: "bitte".`,
			"Ein Datum schreibst du in einer dieser Formen", "\n    TT.MM.JJJJ  TT.MM.    24.12.2026   24.12.\n",
			"\n    TT. Monat             24. Dez. 2026   24. Dez.   24. Dezember\n",
			"\n    ERSTER - LETZTER      24.12.–2.1.   24. Dez. bis 2. Jan.\n" + strings.Repeat(" ", 26) + "24.12. bis 2.1.\n", // the last example under the first: the row would be 78 wide
			"Es wurde nichts geändert."}},
		{"urlaub 12/11", []string{"> urlaub 12/11\n" + strings.Repeat(" ", 9) + "^\n",
			"12/11 kann 12.11.2027 oder 11.12.2026 heißen: Tag und Monat können vertauscht sein. Schreib den Tag zuerst mit Punkten (12.11. oder 11.12.) oder das Jahr zuerst (2027-11-12)."}},
	} {
		sent := h.reply(alice, tc.line)
		if len(sent) != 1 {
			t.Fatalf("%q: %d mails, want the answer to alice only:\n%s", tc.line, len(sent), texts(sent))
		}
		mustContain(t, tc.line, sent[0].msg.Text, tc.wants...)
	}
	if leave, _ := h.store.Leave(context.Background(), alice); len(leave) != 0 {
		t.Errorf("refused dates took leave: %v", leave)
	}
}

// TestLeaveTodayReturnsTime (issue 22 §6): leave that begins today stops
// both clocks from 00:00 UTC, so the side to move gets back what it used
// today; the taker's reply and the opponent's notice say how much, in
// each language. Leave from tomorrow on gives nothing back and says
// nothing of it.
func TestLeaveTodayReturnsTime(t *testing.T) {
	h := newHarness(t)
	id, start := startTimed(t, h, "3d+0d") // 2026-11-29 10:00, alice to move
	sent := h.replyAt(start.Add(4*time.Hour), bob, "urlaub 2026-11-30")
	for _, m := range sent {
		if strings.Contains(m.msg.Text, "00:00 UTC") {
			t.Errorf("leave from tomorrow says it gives time back:\n%s", m.msg.Text)
		}
	}
	// bob, not to move, takes today 5h after the start: alice used 5h
	sent = h.replyAt(start.Add(5*time.Hour), bob, "urlaub 2026-11-29")
	mustContain(t, "bob's reply", to(t, sent, bob).Text,
		"Der Urlaub beginnt heute, also ist seit 00:00 UTC keine Uhr gelaufen: in Partie "+id+" bekommen die Angreifer 5 Stunden zurück, die sie heute schon verbraucht hatten.")
	mustContain(t, "alice's notice", to(t, sent, alice).Text,
		"bob@player.test takes leave: 2026-11-29 (1 day).",
		"The leave begins today, so no clock has run since 00:00 UTC: in game "+id+" the attackers get back 5h they had used today.",
		"attackers 3d left, defenders 3d left (on leave)")
}

// TestCancelLeaveSaysWhatIsTrue (trial 22): the notice of a cancelled
// leave says what happens to the clocks. Leave not yet begun is withdrawn
// and changes nothing for the clocks now; leave running today ends
// tonight and the clocks run again from tomorrow, unless other leave
// (here the opponent's own) keeps them stopped: then it says from which
// day they run. Canceller and opponent read the same, each in their
// language.
func TestCancelLeaveSaysWhatIsTrue(t *testing.T) {
	notBegun := func(t *testing.T) {
		h := newHarness(t)
		id, start := startTimed(t, h, "10d+1d")
		h.replyAt(start.Add(time.Hour), bob, "urlaub 24.12.–31.12.")
		sent := h.replyAt(start.Add(2*time.Hour), bob, "urlaub abbrechen")
		notice := to(t, sent, alice).Text
		mustContain(t, "alice's notice", notice, referee.Tr(referee.English, "leave.withdrawn", bob, "2026-12-24 to 2026-12-31 (8 days)"))
		mustNotContain(t, "alice's notice", notice, "run again", "tomorrow")
		mustNotContain(t, "bob's reply", to(t, sent, bob).Text, "ab morgen", "wieder")
		if h.stateOf(id).Paused(start.Add(day)) {
			t.Errorf("the clocks stand still tomorrow after the withdrawal")
		}
	}
	t.Run("not begun", notBegun)
	t.Run("cut short", func(t *testing.T) {
		h := newHarness(t)
		id, start := startTimed(t, h, "10d+1d") // 2026-11-29
		h.replyAt(start.Add(time.Hour), alice, "leave 29.11. to 5.12.")
		h.replyAt(start.Add(2*time.Hour), alice, "leave 20.12.")
		sent := h.replyAt(start.Add(day), alice, "cancel leave") // on 2026-11-30
		want := referee.Tr(referee.English, "leave.resume", id, "2026-12-01")
		mustContain(t, "alice's reply", to(t, sent, alice).Text, want)
		mustContain(t, "bob's notice", to(t, sent, bob).Text,
			referee.Tr(referee.English, "leave.cancel.cut", alice, "2026-11-30"),
			referee.Tr(referee.English, "leave.cancel.also", "2026-12-20 (1 day)"),
			want)
		if st := h.stateOf(id); !st.Paused(start.Add(day)) || st.Paused(start.Add(2*day)) {
			t.Errorf("the clocks should stand today and run tomorrow")
		}
	})
	t.Run("opponent on leave", func(t *testing.T) {
		h := newHarness(t)
		id, start := startTimed(t, h, "10d+1d") // 2026-11-29
		h.replyAt(start.Add(time.Hour), bob, "urlaub 29.11. bis 5.12.")
		h.replyAt(start.Add(2*time.Hour), alice, "leave 30.11. to 20.12.")
		sent := h.replyAt(start.Add(day), alice, "cancel leave") // on 2026-11-30; bob's leave runs to 5 Dec
		for _, m := range []struct{ who, lang string }{{alice, referee.English}, {bob, referee.German}} {
			text := to(t, sent, m.who).Text
			mustContain(t, m.who, text, referee.Tr(m.lang, "leave.resume.late", id, catalog.Day(m.lang, start.Add(7*day))))
			mustNotContain(t, m.who, text, referee.Tr(m.lang, "leave.resume", id, catalog.Day(m.lang, start.Add(2*day))))
		}
		if st := h.stateOf(id); !st.Paused(start.Add(6*day)) || st.Paused(start.Add(7*day)) {
			t.Errorf("the clocks should stand to 5 December and run from the 6th")
		}
	})
}
