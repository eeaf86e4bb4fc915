package server

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// The attack of issue 18 §1, reproduced through the real referee: a
// stranger who controls two mailboxes plays a game between them and
// sends "watch GID" in the names of 20 addresses that never wrote to the
// referee. Before the fix each victim became a spectator at once and got
// a mail for every ply: 20 victims × 30 plies = 600 mails in minutes.

const (
	mallory = "mallory@evil.test"
	mallet  = "mallet@evil.test"
)

// victim returns the address of the i-th victim of a forger.
func victim(i int) string { return fmt.Sprintf("victim%02d@elsewhere.test", i) }

// TestForgedWatchMailsNobody: forged "watch" requests for 20 victims,
// each repeated three times, then a 30-ply game: every victim gets one
// mail (the request to confirm, which changes nothing unless answered)
// and no spectator's mail; none becomes a spectator.
func TestForgedWatchMailsNobody(t *testing.T) {
	h := newHarness(t)
	h.deliver(mallory, "game", "new copenhagen with "+mallet, nil)
	id := referee.FindGame(h.last(mallet).msg.Subject, "", nil).ID
	h.reply(mallet, "accept")
	h.step = 10 * time.Second
	perVictim := map[string]int{}
	count := func(sent []sentMail) {
		for _, m := range sent {
			if m.to != mallory && m.to != mallet {
				perVictim[m.to]++
			}
		}
	}
	for round := 0; round < 3; round++ {
		for i := 0; i < 20; i++ {
			count(h.deliver(victim(i), "hi", "watch "+id, nil))
		}
	}
	for i, mv := range playerMoves(t, 30, 3) {
		count(h.reply([]string{mallory, mallet}[i%2], mv))
	}
	total := 0
	for i := 0; i < 20; i++ {
		n := perVictim[victim(i)]
		total += n
		if n != 1 {
			t.Errorf("%s, who never wrote, got %d mails, want 1 (the request to confirm)", victim(i), n)
		}
	}
	if len(perVictim) != 20 {
		t.Errorf("mails went to %d addresses other than the players, want the 20 victims", len(perVictim))
	}
	if sp := h.spectatorsOf(id); len(sp) != 0 {
		t.Errorf("forged watch requests made %d spectators, want none: %+v", len(sp), sp)
	}
	t.Logf("mails to the 20 victims: %d", total)
}

// confirmationRE finds the line a request to confirm gives, indented in
// its own paragraph: "watch K7QX2M confirm 3f9k2m7q4d".
var confirmationRE = regexp.MustCompile(`(?m)^ +((?:watch|zuschauen|notify|benachrichtigung|unblock|entsperren) .*(?:confirm|bestätigen) [0-9a-z]{10})$`)

// confirmed has addr send body (a mail with "watch" lines or other
// requests that need a confirmation), then a mail with the lines the
// answer asks to confirm them with and the header fields hdr; it returns
// the confirmation's mails. It fails when the answer gives no such line.
func (h *harness) confirmed(addr, body string, hdr map[string]string) []sentMail {
	h.t.Helper()
	sent := h.deliver(addr, "x", body, nil)
	var lines []string
	for _, m := range confirmationRE.FindAllStringSubmatch(to(h.t, sent, addr).Text, -1) {
		lines = append(lines, m[1])
	}
	if len(lines) == 0 {
		h.t.Fatalf("%s's request %q: the answer gives no line to confirm it:\n%s", addr, body, texts(sent))
	}
	return h.deliver(addr, "x", strings.Join(lines, "\n"), hdr)
}

// lastProcessed returns the archive's record of the last mail delivered.
func (h *harness) lastProcessed() archive.ProcessedMail {
	h.t.Helper()
	m, err := h.store.Mail(context.Background(), fmt.Sprintf("m%d@player.test", h.seq))
	if err != nil {
		h.t.Fatal(err)
	}
	return m
}

// confirmLineIn returns the line the request to confirm m asks for.
func confirmLineIn(t *testing.T, m *mailer.Message) string {
	t.Helper()
	sub := confirmationRE.FindStringSubmatch(m.Text)
	if sub == nil {
		t.Fatalf("no line to confirm in:\n%s", m.Text)
	}
	return sub[1]
}

// TestWatchConfirmation: a keyless "watch" makes nobody a spectator; it
// asks the address, once, to confirm with a key. A repeated request
// while the key waits sends nothing and is recorded with the reason; a
// wrong key, the right key from another address or for another game, and
// a used or expired key are refused; the right key from the address
// makes it a spectator with what it asked for ("results"), in the thread
// of the confirming mail. After the key expired, a new request mails a
// new key.
func TestWatchConfirmation(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.deliver("erin@player.test", "x", "new tablut with frank@player.test", nil)
	other := referee.FindGame(h.last("frank@player.test").msg.Subject, "", nil).ID
	h.reply("frank@player.test", "accept")

	ask := to(t, h.deliver(watcher, "x", "watch "+id+" results", nil), watcher)
	mustContain(t, "request", ask.Text, referee.Tr(referee.English, "confirm.watch.results", id, alice, bob), referee.Tr(referee.English, "confirm.block"))
	if u := ask.Header["List-Unsubscribe"]; len(u) != 1 || !strings.Contains(u[0], "subject=block") {
		t.Errorf("the request's List-Unsubscribe = %q, want a mail \"block\"", u)
	}
	line := confirmLineIn(t, ask)
	key := line[strings.LastIndex(line, " ")+1:]
	if line != "watch "+id+" results confirm "+key {
		t.Errorf("the line to confirm is %q", line)
	}

	// asked again, in other words too: nothing is sent, the reason kept
	for _, again := range []string{"watch " + id + " results", "watch " + strings.ToLower(id), "zuschauen " + id} {
		if sent := h.deliver(watcher, "x", again, nil); len(sent) != 0 {
			t.Errorf("%q while a request waits sent %d mails:\n%s", again, len(sent), texts(sent))
		}
		if pm := h.lastProcessed(); pm.Disposition != referee.Ignored || !strings.Contains(pm.Reason, "watch "+id) {
			t.Errorf("%q while a request waits was recorded %s, %q", again, pm.Disposition, pm.Reason)
		}
	}
	// a mail with another command still gets that answered
	if m := to(t, h.deliver(watcher, "x", "watch "+id+"\nvariants", nil), watcher); strings.Contains(m.Text, "confirm") {
		t.Errorf("the answer to variants asks to confirm again:\n%s", m.Text)
	}

	for _, c := range []struct{ from, line, want string }{
		{watcher, "watch " + id + " confirm abcdefghjk", referee.Tr(referee.English, "err.confirm.key", "watch "+id, 7, "watch "+id)},
		{viewer, line, referee.Tr(referee.English, "err.confirm.key", "watch "+id, 7, "watch "+id)},
		{watcher, "watch " + other + " confirm " + key, referee.Tr(referee.English, "err.confirm.key", "watch "+other, 7, "watch "+other)},
	} {
		mustContain(t, c.line+" from "+c.from, to(t, h.deliver(c.from, "x", c.line, nil), c.from).Text, c.want, referee.Tr(referee.English, "err.nothing"))
	}
	if sp := h.spectatorsOf(id); len(sp) != 0 {
		t.Fatalf("spectators before the confirmation: %+v", sp)
	}

	conf := to(t, h.deliver(watcher, "x", strings.ToUpper(line), map[string]string{"Message-ID": "<yes@watch.test>"}), watcher)
	mustContain(t, "confirmed", conf.Text, referee.Tr(referee.English, "watch.results", id, alice, bob))
	if sp := h.spectatorsOf(id); len(sp) != 1 || sp[0].Address != watcher || !sp[0].ResultsOnly || sp[0].Thread != "yes@watch.test" {
		t.Fatalf("spectators after the confirmation: %+v", sp)
	}
	if p := h.player(watcher); p.ProvedAt.IsZero() {
		t.Error("the confirmation did not record that the address proved its mailbox")
	}
	mustContain(t, "used key", to(t, h.deliver(watcher, "x", line, nil), watcher).Text, referee.Tr(referee.English, "err.confirm.key", "watch "+id, 7, "watch "+id))
	// from results only to every move is more mail: it asks again
	mustContain(t, "more mail", to(t, h.deliver(watcher, "x", "watch "+id, nil), watcher).Text, referee.Tr(referee.English, "confirm.watch", id, alice, bob))
	// fewer mails need no confirmation
	h.confirmed(viewer, "watch "+other, nil)
	mustContain(t, "fewer mails", to(t, h.deliver(viewer, "x", "watch "+other+" results", nil), viewer).Text,
		referee.Tr(referee.English, "watch.results", other, "erin@player.test", "frank@player.test"))

	// an unanswered request lapses after a week: its key no longer works,
	// and a new request gets a new one
	ask = to(t, h.deliver(viewer, "x", "watch "+id, nil), viewer)
	stale := confirmLineIn(t, ask)
	h.now = h.now.Add(referee.ConfirmationExpiry)
	mustContain(t, "expired key", to(t, h.deliver(viewer, "x", stale, nil), viewer).Text, referee.Tr(referee.English, "err.confirm.key", "watch "+id, 7, "watch "+id))
	fresh := confirmLineIn(t, to(t, h.deliver(viewer, "x", "watch "+id, nil), viewer))
	if fresh == stale {
		t.Errorf("the new request has the expired key: %q", fresh)
	}
	mustContain(t, "new key", to(t, h.deliver(viewer, "x", fresh, nil), viewer).Text, referee.Tr(referee.English, "watch.started", id, alice, bob))
}

// TestConfirmationMailsPerDay: forged requests for one address about
// different games and tournaments bring it at most
// maxConfirmationMailsPerDay mails in 24 hours; the rest send nothing
// and are recorded. The requests of one mail come in one reply. A day
// later it may be asked again.
func TestConfirmationMailsPerDay(t *testing.T) {
	h := newHarness(t)
	h.step = time.Minute
	var games []string
	for i := 0; i < 6; i++ {
		p, q := fmt.Sprintf("p%d@player.test", i), fmt.Sprintf("q%d@player.test", i)
		h.deliver(p, "x", "new brandubh with "+q, nil)
		games = append(games, referee.FindGame(h.last(q).msg.Subject, "", nil).ID)
		h.reply(q, "accept")
	}
	h.createEvent("cup-27", []string{alice, bob, "erin@player.test"}, nil)
	mails := 0
	for _, line := range []string{"watch " + games[0] + "\nwatch " + games[1], "watch " + games[2], "watch cup-27",
		"watch " + games[3], "notify digest", "watch " + games[4]} {
		sent := h.deliver(viewer, "x", line, nil)
		mails += len(sent)
		if len(sent) == 0 && !strings.Contains(h.lastProcessed().Reason, "in the last 24 hours") {
			t.Errorf("%q sent nothing, recorded %q", line, h.lastProcessed().Reason)
		}
	}
	if mails != referee.MaxConfirmationMailsPerDay {
		t.Errorf("6 mails of requests for one address sent it %d mails, want %d", mails, referee.MaxConfirmationMailsPerDay)
	}
	if n := len(confirmationRE.FindAllString(h.sender.sent[len(h.sender.sent)-3].msg.Text, -1)); n != 2 {
		t.Errorf("the reply to a mail with two watch lines gives %d lines to confirm, want 2", n)
	}
	h.now = h.now.Add(24 * time.Hour)
	mustContain(t, "a day later", to(t, h.deliver(viewer, "x", "watch "+games[5], nil), viewer).Text, "    watch "+games[5]+" confirm ")
}

// TestInvitationOnce: an address that never wrote to the referee gets one
// invitation, whoever challenges it: a second challenge, from the same
// challenger in the same mail or from another, is refused, and so is the
// withdrawal notice of the first; the invitation says how to refuse
// every invitation ("block", also as List-Unsubscribe). Once the address
// answers with its key, it may be challenged again.
func TestInvitationOnce(t *testing.T) {
	h := newHarness(t)
	const frank = "frank@player.test"
	sent := h.deliver(alice, "x", "new brandubh with "+frank+"\nnew tablut with "+frank, nil)
	if n := len(mailsTo(sent, frank)); n != 1 {
		t.Fatalf("two challenges to frank in one mail sent him %d mails, want 1:\n%s", n, texts(sent))
	}
	inv := to(t, sent, frank)
	mustContain(t, "invitation", inv.Text, referee.Tr(referee.English, "invite.how"), referee.Tr(referee.English, "invite.block"))
	if u := inv.Header["List-Unsubscribe"]; len(u) != 1 || !strings.Contains(u[0], "subject=block") {
		t.Errorf("the invitation's List-Unsubscribe = %q, want a mail \"block\"", u)
	}
	mustContain(t, "second challenge", to(t, sent, alice).Text, referee.Tr(referee.English, "err.invite.once", frank))

	for _, from := range []string{bob, "mallory@evil.test"} {
		sent := h.deliver(from, "x", "new copenhagen with "+frank, nil)
		mustContain(t, "challenge from "+from, to(t, sent, from).Text, referee.Tr(referee.English, "err.invite.once", frank), referee.Tr(referee.English, "err.nothing"))
		if n := len(mailsTo(sent, frank)); n != 0 {
			t.Errorf("a second challenger's challenge sent frank %d mails", n)
		}
	}
	// alice withdraws: frank, who never wrote, hears nothing more
	if sent := h.reply(alice, "cancel challenge"); len(mailsTo(sent, frank)) != 0 {
		t.Errorf("the withdrawal sent frank, who never wrote, %d mails", len(mailsTo(sent, frank)))
	}

	// an invitee who answers may be invited again, and is told of a withdrawal
	h.deliver(bob, "x", "new brandubh with "+viewer, nil)
	h.reply(viewer, "decline")
	sent = h.deliver("erin@player.test", "x", "new brandubh with "+viewer, nil)
	if n := len(mailsTo(sent, viewer)); n != 1 {
		t.Fatalf("a challenge to an address that answered with its key sent it %d mails, want 1", n)
	}
	if sent := h.reply("erin@player.test", "cancel challenge"); len(mailsTo(sent, viewer)) != 1 {
		t.Errorf("the withdrawal sent viewer, who wrote, %d mails, want 1", len(mailsTo(sent, viewer)))
	}
}

// TestBlock: "block" stops invitations (the challenger is told) and
// requests to confirm (nothing is sent); a keyless "unblock" asks to
// confirm, even while blocked, and only the confirmation lets them come
// again. German "sperren", "entsperren … bestätigen".
func TestBlock(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	mustContain(t, "block", to(t, h.deliver(watcher, "x", "block", nil), watcher).Text, referee.Tr(referee.English, "block.done"))
	if p := h.player(watcher); !p.Blocked {
		t.Fatal("block did not block")
	}
	sent := h.deliver(alice, "x", "new brandubh with "+watcher, nil)
	mustContain(t, "challenge", to(t, sent, alice).Text, referee.Tr(referee.English, "err.invite.blocked", watcher))
	if len(mailsTo(sent, watcher)) != 0 {
		t.Error("a blocked address was invited")
	}
	for _, line := range []string{"watch " + id, "notify digest"} {
		if sent := h.deliver(watcher, "x", line, nil); len(sent) != 0 {
			t.Errorf("%q from a blocked address sent %d mails", line, len(sent))
		}
		if pm := h.lastProcessed(); pm.Disposition != referee.Ignored || !strings.Contains(pm.Reason, "block") {
			t.Errorf("%q from a blocked address recorded as %s, %q", line, pm.Disposition, pm.Reason)
		}
	}
	mustContain(t, "block again", to(t, h.deliver(watcher, "x", "block", nil), watcher).Text, referee.Tr(referee.English, "block.already"))

	ask := to(t, h.deliver(watcher, "x", "entsperren", nil), watcher)
	mustContain(t, "unblock", ask.Text, referee.Tr(referee.German, "confirm.unblock"), "    entsperren bestätigen ")
	mustNotContain(t, "unblock", ask.Text, referee.Tr(referee.German, "confirm.block"))
	if !h.player(watcher).Blocked {
		t.Fatal("a keyless unblock unblocked")
	}
	mustContain(t, "unblocked", to(t, h.deliver(watcher, "x", confirmLineIn(t, ask), nil), watcher).Text, referee.Tr(referee.German, "unblock.done"))
	if p := h.player(watcher); p.Blocked || p.ProvedAt.IsZero() {
		t.Fatalf("after the confirmation: blocked %v, proved %v", p.Blocked, p.ProvedAt)
	}
	mustContain(t, "unblock, not blocked", to(t, h.deliver(watcher, "x", "unblock", nil), watcher).Text, referee.Tr(referee.German, "unblock.not"))
	if sent := h.deliver(alice, "x", "new brandubh with "+watcher, nil); len(mailsTo(sent, watcher)) != 1 {
		t.Error("no invitation after unblock")
	}
	mustContain(t, "sperren", to(t, h.deliver(viewer, "x", "sperren", nil), viewer).Text, referee.Tr(referee.German, "block.done"))
}

// TestBlockSaysOwnRequestsWait (outside trial §8): the answers to "block"
// and to a second "block" say that the address's own keyless requests
// that need a confirmation get no answer while the block lasts, in both
// languages, and no longer promise that its own mails are answered as
// before: such a request from the address itself ("watch") gets nothing,
// because it cannot be told from a forged one.
func TestBlockSaysOwnRequestsWait(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	for _, c := range []struct {
		lang, block string
		words       []string
	}{
		{referee.English, "block", []string{`"watch"`, `"join"`, `"notify"`, `"unblock"`}},
		{referee.German, "sperren", []string{`"zuschauen"`, `"anmelden"`, `"benachrichtigung"`, `"entsperren"`}},
	} {
		for _, key := range []string{"block.done", "block.already"} {
			mustContain(t, c.lang+" "+key, referee.Tr(c.lang, key), c.words...)
		}
	}
	text := to(t, h.deliver(watcher, "x", "block", nil), watcher).Text
	mustContain(t, "block", text, referee.Tr(referee.English, "block.done"))
	mustNotContain(t, "block", text, "Your own mails are answered as before")
	if sent := h.deliver(watcher, "x", "watch "+id, nil); len(sent) != 0 {
		t.Errorf("the blocked address's own watch sent %d mails", len(sent))
	}
	mustContain(t, "block again", to(t, h.deliver(watcher, "x", "block", nil), watcher).Text, referee.Tr(referee.English, "block.already"))
}

// TestJoinBlocked: a keyless "join" in the name of an address that wrote
// "block" mails it nothing and keeps no request to enter (a forger cannot
// reach a blocked address with a tournament's request to confirm); the
// mail is recorded as ignored because of the block. A request the address
// got before it blocked still enters it with its key, which proves the
// mailbox. Before the fix the blocked address got the request.
func TestJoinBlocked(t *testing.T) {
	h := newHarness(t)
	h.createEvent("open", nil, func(t *archive.Tournament) {
		t.OpenEntry, t.EntryCloses, t.StartDate = true, t.StartDate.AddDate(0, 0, 5), t.StartDate.AddDate(0, 0, 7)
	})
	ask := to(t, h.deliver(alice, "x", "join open", nil), alice)
	mustContain(t, "block", to(t, h.deliver(bob, "x", "sperren", nil), bob).Text, referee.Tr(referee.German, "block.done"))
	mustContain(t, "block", to(t, h.deliver(alice, "x", "block", nil), alice).Text, referee.Tr(referee.English, "block.done"))
	for _, line := range []string{"join open", "anmelden open"} {
		if sent := h.deliver(bob, "x", line, nil); len(sent) != 0 {
			t.Errorf("%q from a blocked address sent %d mails:\n%s", line, len(sent), sent[0].msg.Text)
		}
		if pm := h.lastProcessed(); pm.Disposition != referee.Ignored || !strings.Contains(pm.Reason, "block") {
			t.Errorf("%q from a blocked address recorded as %s, %q", line, pm.Disposition, pm.Reason)
		}
	}
	if _, err := h.store.PendingEntry(h.ctx(), "open", bob); err == nil {
		t.Error("a request to enter was kept for a blocked address")
	}
	m := joinConfirmLine.FindString(ask.Text)
	mustContain(t, "confirmed after block", to(t, h.deliver(alice, "x", m, nil), alice).Text, "You are entered in Cup open")
}

// TestNotifyNonPlayer: an address that plays no game changes its notify
// setting only by confirming it; a player's keyless "notify" still takes
// effect at once.
func TestNotifyNonPlayer(t *testing.T) {
	h := newHarness(t)
	ask := to(t, h.deliver(watcher, "x", "notify digest 07:30 Europe/Berlin", nil), watcher)
	mustContain(t, "request", ask.Text, referee.Tr(referee.English, "confirm.notify", "notify digest 07:30 Europe/Berlin"), "    notify confirm ")
	if p, err := h.store.Player(context.Background(), watcher); err == nil && p.Digest {
		t.Fatal("a keyless notify of a non-player set the digest")
	}
	conf := to(t, h.deliver(watcher, "x", confirmLineIn(t, ask), nil), watcher)
	mustContain(t, "confirmed", conf.Text, referee.Tr(referee.English, "notify.zone.local", "Europe/Berlin"))
	if p := h.player(watcher); !p.Digest || p.DigestAt != 7*60+30 || p.DigestZone != "Europe/Berlin" {
		t.Fatalf("after the confirmation: %+v", p)
	}
	// German
	ask = to(t, h.deliver(viewer, "x", "benachrichtigung täglich 08:00", nil), viewer)
	mustContain(t, "German request", ask.Text, referee.Tr(referee.German, "confirm.notify", "notify digest 08:00"), "    benachrichtigung bestätigen ")
	h.deliver(viewer, "x", confirmLineIn(t, ask), nil)
	if p := h.player(viewer); !p.Digest || p.DigestAt != 8*60 || p.Language != referee.German {
		t.Fatalf("after the German confirmation: %+v", p)
	}

	startBrandubh(t, h)
	h.deliver(bob, "x", "notify digest 09:00", nil)
	if p := h.player(bob); !p.Digest || p.DigestAt != 9*60 {
		t.Errorf("a player's keyless notify: %+v", p)
	}
}

// TestMessagesMailNoOneNew: a challenger's keyed mails of prose about an
// invited game bring the invited address, which never wrote, nothing:
// the words wait for its next mail about the game.
func TestMessagesMailNoOneNew(t *testing.T) {
	h := newHarness(t)
	h.deliver(alice, "x", "new brandubh with "+viewer, nil)
	for i := 0; i < 5; i++ {
		if sent := h.reply(alice, fmt.Sprintf("Hello, are you there? (%d)", i)); len(mailsTo(sent, viewer)) != 0 {
			t.Fatalf("alice's message %d sent the invited address a mail", i)
		}
	}
	mustContain(t, "accept", to(t, h.reply(viewer, "accept"), viewer).Text, "Hello, are you there? (4)")
}

// TestKeyedMailProves: a mail with the sender's key records that the
// address proved its mailbox; a keyless one does not.
func TestKeyedMailProves(t *testing.T) {
	h := newHarness(t)
	startBrandubh(t, h) // bob answered the invitation with his key
	if p := h.player(bob); p.ProvedAt.IsZero() {
		t.Error("bob's keyed accept did not prove his address")
	}
	if p, err := h.store.Player(context.Background(), alice); err == nil && !p.ProvedAt.IsZero() {
		t.Errorf("alice's keyless challenge proved her address: %+v", p)
	}
}

// TestConsentBudgets: a line that confirms a waiting request with its key
// puts its mail in the confirmation budget (never held back); "block" is a
// command; a keyless "watch", a wrong key and a key from another address
// are junk. So during a flood of junk, a confirmation and a "block" are
// still carried out.
func TestConsentBudgets(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	line := confirmLineIn(t, to(t, h.deliver(watcher, "x", "watch "+id, nil), watcher))
	key := line[strings.LastIndex(line, " ")+1:]
	notify := confirmLineIn(t, to(t, h.deliver(viewer, "x", "notify digest", nil), viewer))
	for _, c := range []struct {
		from, body string
		want       archive.MailBudget
	}{
		{watcher, line, archive.ConfirmationBudget},
		{watcher, strings.ToLower(line), archive.ConfirmationBudget},
		{watcher, "zuschauen " + id + " bestätigen " + key, archive.ConfirmationBudget},
		{viewer, notify, archive.ConfirmationBudget},
		{viewer, line, archive.JunkBudget}, // watcher's key from another address
		{watcher, "watch " + id + " confirm 0123456789", archive.JunkBudget},
		{watcher, "notify confirm " + key, archive.JunkBudget},
		{watcher, "unblock confirm " + key, archive.JunkBudget},
		{"x@a.test", "watch " + id, archive.JunkBudget},
		{"x@a.test", "block", archive.CommandBudget},
	} {
		m := h.parseRaw(strings.NewReader(fmt.Sprintf("From: %s\r\nTo: tafl@game.test\r\nSubject: x\r\nMessage-ID: <b%d@x>\r\n\r\n%s\r\n", c.from, h.seq, c.body)))
		ss := h.srv.NewSession(h.ctx(), referee.Cause{Kind: referee.CauseMail, Seed: m.MessageID, From: c.from, At: h.now, Mail: m})
		ss.Lines, _ = ss.CommandLines()
		if got, err := ss.BudgetOf(); err != nil || got != c.want {
			t.Errorf("budgetOf(%s: %q) = %q, %v; want %q", c.from, c.body, got, err, c.want)
		}
	}

	h.step = time.Second
	floodJunk(h, 2*referee.DefaultJunkReplies, "f", "")
	if sent := h.deliver("late@late.test", "x", "help", nil); len(sent) != 0 {
		t.Fatalf("the flood did not spend the budget for junk: help was answered")
	}
	mustContain(t, "confirmation in a flood", to(t, h.deliver(watcher, "x", line, nil), watcher).Text, referee.Tr(referee.English, "watch.started", id, alice, bob))
	mustContain(t, "block in a flood", to(t, h.deliver("newcomer@late.test", "x", "block", nil), "newcomer@late.test").Text, referee.Tr(referee.English, "block.done"))
}
