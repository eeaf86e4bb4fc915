package server

import (
	"bytes"
	"fmt"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// Issue 18 §2: junk cannot lock anyone out. The budgets limit the replies
// to junk, never the carrying out of a valid command.

// openEvent stores a tournament open for entry until days from now.
func openEvent(h *harness, id string) {
	h.createEvent(id, nil, func(t *archive.Tournament) {
		t.OpenEntry, t.EntryCloses, t.StartDate = true, t.StartDate.AddDate(0, 0, 20), t.StartDate.AddDate(0, 0, 21)
	})
}

// askToJoin has addr ask to join event id and returns the line that
// confirms it, with its key.
func askToJoin(t *testing.T, h *harness, id, addr string) string {
	t.Helper()
	line := joinConfirmLine.FindString(to(t, h.deliver(addr, "x", "join "+id, nil), addr).Text)
	if line == "" {
		t.Fatalf("%s got no line to confirm the entry in %s", addr, id)
	}
	return line
}

// entered reports whether addr is entered in event id.
func entered(t *testing.T, h *harness, id, addr string) bool {
	t.Helper()
	es, err := h.store.Entries(h.ctx(), id)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.Player == addr && !e.Withdrawn() {
			return true
		}
	}
	return false
}

// junkMails are mails that carry no valid command: prose, a near miss, a
// keyless move, informational commands.
var junkMails = []string{"hello, is this the tafl server?", "help", "d1-d3", "varients", "xyzzy plugh", "games"}

// floodJunk sends n junk mails from n new addresses, each of its own
// domain unless domain is given, and returns the replies they got.
func floodJunk(h *harness, n int, tag, domain string) int {
	replies := 0
	for i := range n {
		d := domain
		if d == "" {
			d = fmt.Sprintf("%s%03d.test", tag, i)
		}
		replies += len(h.deliver(fmt.Sprintf("%s%03d@%s", tag, i, d), "hi", junkMails[i%len(junkMails)], nil))
	}
	return replies
}

// TestJunkFloodLocksNobodyOut: 70 junk mails from 70 new addresses (of
// 70 domains) spend the budget for junk; after them a newcomer's
// challenge, a newcomer's game against the engine and a confirmation
// "join ID confirm KEY" are each carried out and answered, while the
// junk got at most the budget. Before issue 18 one hourly budget covered
// every keyless mail, and all three were ignored.
func TestJunkFloodLocksNobodyOut(t *testing.T) {
	h := newHarness(t)
	h.step = 5 * time.Second // the flood takes 6 minutes: one window of the budget for junk
	openEvent(h, "open")
	confirm := askToJoin(t, h, "open", "frank@fresh3.test")

	replies := floodJunk(h, 70, "j", "")
	if budget := h.srv.Opts.JunkReplies; replies > budget || replies == 70 {
		t.Fatalf("70 junk mails got %d replies, want some held back by the budget of %d", replies, budget)
	}

	carol, dave, erin := "carol@fresh1.test", "dave@fresh2.test", "erin@fresh4.test"
	sent := h.deliver(carol, "a game?", "new brandubh with "+dave, nil)
	if len(sent) != 2 {
		t.Fatalf("the newcomer's challenge after the flood got %d mails, want the confirmation and the invitation:\n%s", len(sent), texts(sent))
	}
	mustContain(t, "the challenge's confirmation", to(t, sent, carol).Text, referee.Tr(referee.English, "challenge.sent", dave, "attackers"))
	if id := referee.FindGame(to(t, sent, dave).Subject, "", nil).ID; id == "" {
		t.Errorf("the invitation names no game: %q", to(t, sent, dave).Subject)
	} else if g, err := h.store.Game(h.ctx(), id); err != nil || g.Status != archive.Invited {
		t.Errorf("the challenged game = %v, %v; want it invited", g, err)
	}

	sent = h.deliver(erin, "engine", "new brandubh with engine level 1", nil)
	if len(sent) != 1 {
		t.Fatalf("the newcomer's engine game after the flood got %d mails, want its start:\n%s", len(sent), texts(sent))
	}
	if running, err := h.store.GamesOf(h.ctx(), erin); err != nil || len(running) != 1 || running[0].Status != archive.Active || running[0].EngineLevel != 1 {
		t.Errorf("erin's games after her engine challenge: %v, %v; want one running at level 1", running, err)
	}

	sent = h.deliver("frank@fresh3.test", "x", confirm, nil)
	if len(sent) != 1 || !entered(t, h, "open", "frank@fresh3.test") {
		t.Fatalf("the confirmation after the flood got %d mails and entered frank: %v:\n%s", len(sent), entered(t, h, "open", "frank@fresh3.test"), texts(sent))
	}
	mustContain(t, "the confirmation's answer", sent[0].msg.Text, "You are entered in Cup open")

	// the junk budget still holds for junk
	if sent := h.deliver("late@fresh5.test", "hi", "help", nil); len(sent) != 0 {
		t.Errorf("junk after the flood got %d replies, want none while the budget is spent", len(sent))
	}
}

// TestJunkFromOneDomain: junk from many addresses of one domain is held
// back by the budget per domain, which counts junk apart from commands:
// a newcomer of the same domain still gets a challenge through. A flood
// of commands from one domain is held by the domain's budget for
// commands, but a confirmation carrying its key never is.
func TestJunkFromOneDomain(t *testing.T) {
	h := newHarness(t)
	h.step = 5 * time.Second
	openEvent(h, "open")
	confirm := askToJoin(t, h, "open", "gina@busy.test")

	domain := h.srv.Opts.DomainReplies
	if replies := floodJunk(h, domain+10, "m", "mail.busy.test"); replies > domain || replies == 0 {
		t.Errorf("%d junk mails from one domain got %d replies, want 1 to %d", domain+10, replies, domain)
	}
	if sent := h.deliver("newcomer@busy.test", "x", "new brandubh with host@elsewhere.test", nil); len(sent) != 2 {
		t.Errorf("a newcomer's challenge after junk from its own domain got %d mails, want 2", len(sent))
	}

	asked := 0
	for i := range domain + 5 {
		asked += len(h.deliver(fmt.Sprintf("c%03d@busy.test", i), "x", "join open", nil))
	}
	if asked >= domain+5 {
		t.Errorf("%d join requests from one domain were all answered, want the domain's budget (%d) to hold", domain+5, domain)
	}
	sent := h.deliver("gina@busy.test", "x", confirm, nil)
	if len(sent) != 1 || !entered(t, h, "open", "gina@busy.test") {
		t.Errorf("a confirmation with its key past the domain's budget: %d mails, entered %v; want it carried out and answered",
			len(sent), entered(t, h, "open", "gina@busy.test"))
	}
	// a made-up key is junk, not a confirmation
	if sent := h.deliver("hugo@busy.test", "x", "join open confirm 0123456789", nil); len(sent) != 0 {
		t.Errorf("a confirmation with a made-up key past the domain's junk budget got %d replies, want none", len(sent))
	}
}

// TestBudgetOf: how triage puts a keyless mail in a budget, from its
// lines alone and the archive (nothing is written).
func TestBudgetOf(t *testing.T) {
	h := newHarness(t)
	openEvent(h, "open")
	confirm := askToJoin(t, h, "open", "frank@player.test")
	cases := []struct {
		from, body string
		want       archive.MailBudget
	}{
		{"x@a.test", "hello there", archive.JunkBudget},
		{"x@a.test", "help\nvariants\ngames", archive.JunkBudget},
		{"x@a.test", "new brandubh with y@b.test", archive.CommandBudget},
		{"x@a.test", "neu tablut mit engine stufe 2", archive.CommandBudget},
		{"x@a.test", "new nosuchgame with engine", archive.JunkBudget},
		{"x@a.test", "help\nnew copenhagen with engine", archive.CommandBudget},
		{"x@a.test", "join open", archive.CommandBudget},
		{"x@a.test", "join nosuchevent", archive.JunkBudget},
		{"x@a.test", "join open confirm 0123456789", archive.JunkBudget},
		{"frank@player.test", confirm, archive.ConfirmationBudget},
		{"other@player.test", confirm, archive.JunkBudget}, // frank's key from another address
		{"x@a.test", "withdraw open", archive.JunkBudget},  // not entered
		{"x@a.test", "d1-d3", archive.JunkBudget},
		{"x@a.test", "hlep", archive.JunkBudget}, // a near miss, answered only as junk is
	}
	for _, c := range cases {
		m := h.parseRaw(strings.NewReader(fmt.Sprintf("From: %s\r\nTo: tafl@game.test\r\nSubject: x\r\nMessage-ID: <t%d@x>\r\n\r\n%s\r\n",
			c.from, len(c.body), strings.ReplaceAll(c.body, "\n", "\r\n"))))
		ss := h.srv.NewSession(h.ctx(), referee.Cause{Kind: referee.CauseMail, Seed: m.MessageID, From: c.from, At: h.now, Mail: m})
		ss.Lines, _ = ss.CommandLines()
		got, err := ss.BudgetOf()
		if err != nil || got != c.want {
			t.Errorf("budgetOf(%s: %q) = %q, %v; want %q", c.from, c.body, got, err, c.want)
		}
	}
}

// TestHeldBackLoggedOncePerMinute: a flood the budgets hold back makes no
// log line per mail at Info or above, but a warning "replies held back"
// at most once a minute (on the injected clock), whose counts add up to
// the mails held back.
func TestHeldBackLoggedOncePerMinute(t *testing.T) {
	h := newHarness(t)
	var buf bytes.Buffer
	h.srv.Log = slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
	h.step = 2 * time.Second // 120 mails in 4 minutes: the last 60 held back
	start := h.now
	floodJunk(h, 120, "f", "")
	h.now = h.now.Add(referee.HeldLogEvery)
	h.srv.Held.Report(h.srv.Log, h.now) // as Run does on every round

	held, err := h.store.CountMails(h.ctx(), archive.MailFilter{Disposition: referee.Ignored, Budget: archive.JunkBudget})
	if err != nil || held == 0 {
		t.Fatalf("%d mails held back, %v; want some", held, err)
	}
	lines := regexp.MustCompile(`(?m)^.*msg="replies held back".*$`).FindAllString(buf.String(), -1)
	minutes := int(h.now.Sub(start) / time.Minute)
	if len(lines) == 0 || len(lines) > minutes+1 {
		t.Fatalf("%d warnings in %d minutes, want 1 to %d:\n%s", len(lines), minutes, minutes+1, buf.String())
	}
	total := 0
	for _, l := range lines {
		m := regexp.MustCompile(` count=(\d+) .* junk_budget=(\d+)`).FindStringSubmatch(l)
		if m == nil || m[1] != m[2] {
			t.Errorf("warning %q: want its count, all held by the junk budget", l)
			continue
		}
		n, _ := strconv.Atoi(m[1])
		total += n
	}
	if total != held {
		t.Errorf("the warnings count %d replies held back, the archive %d", total, held)
	}
	if n := strings.Count(buf.String(), "reply budget"); n != 0 {
		t.Errorf("%d log lines give a held mail's reason at Info or above, want none (the warnings count them):\n%s", n, buf.String())
	}
}

// heldLog.report waits a minute after a warning before the next, and
// says nothing when nothing was held.
func TestHeldLogReport(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	var hl referee.HeldLog
	t0 := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	hl.Report(log, t0)
	if buf.Len() != 0 {
		t.Fatalf("nothing held, yet logged: %s", buf.String())
	}
	hl.Note(log, referee.ByDomainBudget, t0) // the first is logged at once
	hl.Note(log, referee.ByJunkBudget, t0.Add(10*time.Second))
	hl.Note(log, referee.ByJunkBudget, t0.Add(59*time.Second))
	hl.Note(log, referee.NotHeld, t0.Add(59*time.Second))
	if n := strings.Count(buf.String(), "replies held back"); n != 1 {
		t.Fatalf("%d warnings within the first minute, want 1:\n%s", n, buf.String())
	}
	hl.Report(log, t0.Add(time.Minute))
	want := []string{"count=1 ", "domain_budget=1", "count=2 ", "junk_budget=2"}
	for _, w := range want {
		if !strings.Contains(buf.String(), w) {
			t.Errorf("the warnings lack %q:\n%s", w, buf.String())
		}
	}
	if n := strings.Count(buf.String(), "replies held back"); n != 2 {
		t.Errorf("%d warnings, want 2", n)
	}
}
