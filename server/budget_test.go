package server

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// The findings of the outside attack of issue 8 §1, §2 and §4, reproduced
// through the real referee before they were fixed.

// startCopenhagen has alice challenge bob to Copenhagen (alice attacks) and
// bob accept; it returns the game id.
func startCopenhagen(t *testing.T, h *harness) string {
	t.Helper()
	h.deliver(alice, "a game?", "new copenhagen with bob@player.test", nil)
	id := referee.FindGame(h.last(bob).msg.Subject, "", nil).ID
	if id == "" {
		t.Fatal("no invitation reached bob")
	}
	h.reply(bob, "accept")
	return id
}

// playerMoves returns n moves of a legal Copenhagen game that does not end
// within them, chosen with a fixed seed.
func playerMoves(t *testing.T, n int, seed uint64) []string {
	t.Helper()
	v, _ := engine.Lookup("copenhagen")
	rng := rand.New(rand.NewPCG(seed, 7))
	for try := 0; try < 100; try++ {
		pos, err := engine.NewPosition(v)
		if err != nil {
			t.Fatal(err)
		}
		var moves []string
		var buf []engine.Move
		for len(moves) < n {
			buf = pos.LegalMoves(buf[:0])
			rng.Shuffle(len(buf), func(i, j int) { buf[i], buf[j] = buf[j], buf[i] })
			played := false
			for _, m := range buf {
				next := pos.Clone()
				r, err := next.Play(m)
				if err != nil || r.Outcome.Over() {
					continue
				}
				pos, played = next, true
				moves = append(moves, m.String())
				break
			}
			if !played {
				break
			}
		}
		if len(moves) == n {
			return moves
		}
	}
	t.Fatalf("no %d-ply Copenhagen game without an end found", n)
	return nil
}

// replyTo answers the mail m that was sent to addr, as a mail client
// would (see harness.reply).
func (h *harness) replyTo(addr string, m sentMail, body string) []sentMail {
	h.t.Helper()
	refs := strings.Join(append(append([]string{}, m.msg.References...), m.msg.MessageID), "> <")
	return h.deliver(addr, "Re: "+m.msg.Subject, body, map[string]string{
		"In-Reply-To": "<" + m.msg.MessageID + ">",
		"References":  "<" + refs + ">",
	})
}

// plyCount reads the number of stored plies of a game.
func plyCount(t *testing.T, h *harness, id string) int {
	t.Helper()
	g, err := h.store.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return len(g.Plies)
}

// Issue 8 §1: a forger who knows only alice's address sends 29 keyless
// mails in her name within minutes; alice's next real move, with her key,
// must still be applied and answered.
func TestForgedMailsDoNotDropPlayersMove(t *testing.T) {
	h := newHarness(t)
	id := startCopenhagen(t, h)
	game := h.last(alice) // the start of the game: alice's move, with her key
	h.step = 10 * time.Second
	for i := range 29 {
		h.deliver(alice, fmt.Sprintf("[taflmail %s] move", id), "d1-d3", nil) // no key
		if i%7 == 0 {
			h.deliver(alice, "help please", "help", nil)
		}
	}
	moves := playerMoves(t, 1, 1)
	sent := h.replyTo(alice, game, moves[0])
	if got := plyCount(t, h, id); got != 1 {
		t.Fatalf("after the forger's mails alice's keyed move %s left %d plies stored, want 1", moves[0], got)
	}
	if len(sent) != 2 {
		t.Fatalf("alice's keyed move caused %d replies, want 2 (alice and bob)", len(sent))
	}
	mustContain(t, "bob's mail", to(t, sent, bob).Text, moves[0])
}

// Issue 8 §1: with no attacker, a fast game of 71 plies lost the
// attackers' ply 59 to the hourly cap. Every keyed ply is applied and
// answered however fast the game goes.
func TestFastGameLosesNoPly(t *testing.T) {
	h := newHarness(t)
	id := startCopenhagen(t, h)
	h.step = 20 * time.Second
	moves := playerMoves(t, 71, 2)
	for i, mv := range moves {
		who := []string{alice, bob}[i%2]
		sent := h.reply(who, mv)
		if len(sent) != 2 {
			t.Fatalf("ply %d %s by %s caused %d replies, want 2", i+1, mv, who, len(sent))
		}
	}
	if got := plyCount(t, h, id); got != 71 {
		t.Errorf("%d of 71 plies stored", got)
	}
}

// totalBytes sums the raw sizes of mails.
func totalBytes(ms []sentMail) int {
	n := 0
	for _, m := range ms {
		n += len(m.raw)
	}
	return n
}

// Issue 8 §2: a 240 KB mail from a forged address holding "help" on 40,000
// lines made a 35 MB reply. Each distinct informational command is
// answered once, reading stops after a number of command lines, and the
// replies one mail causes stay under 64 KiB whatever it holds.
func TestOneMailCannotAmplify(t *testing.T) {
	h := newHarness(t)
	sent := h.deliver("stranger@evil.test", "hi", strings.Repeat("help\n", 40000), nil)
	if n := totalBytes(sent); n == 0 || n > 64<<10 {
		t.Errorf("40,000 help lines caused %d bytes of replies, want 1..64 KiB", n)
	}
	if len(sent) != 1 || strings.Count(sent[0].msg.Text, "offer draw / accept draw") != 1 {
		t.Errorf("40,000 help lines: %d replies; want one reply with the help text once", len(sent))
	}

	// Many different commands, each answered: still bounded, and the reply
	// says that reading stopped.
	var b strings.Builder
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&b, "help %s\nvariants\ngames\nhelp moves\nlanguage en\nboard\nhistory\n", []string{"copenhagen", "fetlar", "tablut", "brandubh", "keys"}[i%5])
		fmt.Fprintf(&b, "%s\n", strings.Repeat("x", 3000)) // prose, not commands
		fmt.Fprintf(&b, "new copenhagen with victim%d@example.org\n", i)
	}
	sent = h.deliver("other@evil.test", "hi", b.String(), nil)
	if n := totalBytes(sent); n == 0 || n > 64<<10 {
		t.Errorf("a mail of many distinct commands caused %d bytes of replies, want 1..64 KiB", n)
	}
	// every game the mail starts has its start mails, the challenger's and
	// the invitation (trial 2 report §10): the reply and two per challenge
	if len(sent) > 1+2*referee.MaxChallengesPerHour {
		t.Errorf("one mail caused %d replies (invitations to strangers included), want at most %d", len(sent), 1+2*referee.MaxChallengesPerHour)
	}
	var own strings.Builder
	for _, m := range sent {
		if m.to == "other@evil.test" {
			own.WriteString(m.msg.Text)
		}
	}
	mustContain(t, "replies to a long mail", own.String(), "only the first")
}

// Issue 8 §2: 300 mails from 300 different strangers got 300 replies in
// 4.5 s. Replies to junk (here "help" from addresses of 300 domains)
// share a budget per 10 minutes (issue 18 §2); over it a mail is recorded
// as ignored with the reason, the budget holds across a restart, and a
// player's keyed mail is never held by it.
func TestStrangerReplyBudget(t *testing.T) {
	h := newHarness(t)
	id := startCopenhagen(t, h)
	h.step = time.Second
	budget := h.srv.Opts.JunkReplies
	if budget <= 0 || budget >= 300 {
		t.Fatalf("default JunkReplies = %d, want a modest positive budget", budget)
	}
	replied := 0
	for i := range 150 {
		replied += len(h.deliver(fmt.Sprintf("s%03d@d%03d.test", i, i), "hello", "help", nil))
	}
	// The daemon restarts: the budget is in the archive, not in memory.
	h.srv = h.restart(h.store, nil)
	for i := 150; i < 300; i++ {
		replied += len(h.deliver(fmt.Sprintf("s%03d@d%03d.test", i, i), "hello", "help", nil))
	}
	if replied > budget {
		t.Errorf("300 strangers got %d replies within 5 minutes, want at most the budget %d", replied, budget)
	}
	ignoredMails, err := h.store.Mails(context.Background(), archive.MailFilter{Disposition: "ignored"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ignoredMails) != 300-replied || len(ignoredMails) == 0 || !strings.Contains(ignoredMails[0].Reason, "budget") {
		t.Errorf("%d mails recorded as ignored (first reason %q), want %d, each saying the budget was spent",
			len(ignoredMails), reasonOf(ignoredMails), 300-replied)
	}
	moves := playerMoves(t, 1, 3)
	if sent := h.reply(alice, moves[0]); len(sent) != 2 || plyCount(t, h, id) != 1 {
		t.Errorf("a keyed move after the stranger budget was spent caused %d replies, %d plies; want 2 and 1", len(sent), plyCount(t, h, id))
	}
	h.step = referee.BudgetWindow
	if sent := h.deliver("late@strangers.test", "hello", "help", nil); len(sent) != 1 {
		t.Errorf("a stranger 10 minutes later got %d replies, want 1 (the budget is per 10 minutes)", len(sent))
	}
}

func reasonOf(ms []archive.ProcessedMail) string {
	if len(ms) == 0 {
		return ""
	}
	return ms[0].Reason
}

// Issue 8 §4: a refused forged mail rewrote the game row (version,
// updated_at, a thread column). Refusals change nothing in the archive.
func TestForgedRefusalLeavesGameRow(t *testing.T) {
	h := newHarness(t)
	id := startCopenhagen(t, h)
	before, err := h.store.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	sent := h.deliver(alice, fmt.Sprintf("Re: [taflmail %s] your move", id), "d1-d3", nil) // no key
	if len(sent) != 1 {
		t.Fatalf("a keyless move got %d replies, want 1 refusal", len(sent))
	}
	after, err := h.store.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version != before.Version || !after.UpdatedAt.Equal(before.UpdatedAt) ||
		after.AttackersThread != before.AttackersThread || after.DefendersThread != before.DefendersThread {
		t.Errorf("a refused forged mail changed the game: version %d→%d, updated %v→%v, threads %q/%q→%q/%q",
			before.Version, after.Version, before.UpdatedAt, after.UpdatedAt,
			before.AttackersThread, before.DefendersThread, after.AttackersThread, after.DefendersThread)
	}
}

// Issue 8, "done when": a 100-ply game played at full speed while a forger
// sends 100 keyless mails in one player's name and 300 strangers mail the
// server. Every ply is applied and answered, no mail causes more than
// maxReplyBytes of replies, and the keyless mails get at most their
// budgets (issue 18 §2): the forger the hourly cap of one sender, the
// strangers (one domain) the budget per domain for junk and that for
// commands (their challenges) in each 10 minutes, and all junk together
// at most the budget for junk in each 10 minutes.
func TestAdversarialGame(t *testing.T) {
	h := newHarness(t)
	id := startCopenhagen(t, h)
	h.step = 2 * time.Second // 500 mails in under 17 minutes
	start := h.now
	moves := playerMoves(t, 100, 4)
	lastGameMail := map[string]sentMail{alice: h.last(alice), bob: h.last(bob)}
	forged := []string{"d1-d3", "board", "help", "resign", "offer draw", strings.Repeat("help\n", 2000), "games", "history"}
	strangerMails := []string{"help", "variants", "new copenhagen with victim@example.org", "d1-d3"}
	var strangerJunk, strangerCommands, forgerReplies, keyedReplies, total int
	stranger := 0
	for i, mv := range moves {
		who := []string{alice, bob}[i%2]
		sent := h.replyTo(who, lastGameMail[who], mv)
		if len(sent) != 2 {
			t.Fatalf("ply %d %s by %s caused %d replies, want 2", i+1, mv, who, len(sent))
		}
		for _, m := range sent {
			lastGameMail[m.to] = m
		}
		keyedReplies += len(sent)
		total += checkBound(t, "ply "+mv, sent)

		// the forger, in alice's name, with the game's tag but no key
		sent = h.deliver(alice, fmt.Sprintf("Re: [taflmail %s] move", id), forged[i%len(forged)], nil)
		forgerReplies += len(sent)
		total += checkBound(t, "forged mail", sent)

		for range 3 {
			kind := stranger % len(strangerMails)
			sent = h.deliver(fmt.Sprintf("x%03d@strangers.test", stranger), "hello?", strangerMails[kind], nil)
			stranger++
			for _, m := range sent {
				switch {
				case m.to == "victim@example.org":
				case kind == 2:
					strangerCommands++
				default:
					strangerJunk++
				}
			}
			total += checkBound(t, "stranger's mail", sent)
		}
	}
	if got := plyCount(t, h, id); got != 100 {
		t.Errorf("%d of 100 plies stored", got)
	}
	windows := int(h.now.Sub(start)/referee.BudgetWindow) + 1
	if domain := h.srv.Opts.DomainReplies; strangerJunk > windows*domain || strangerCommands > windows*domain {
		t.Errorf("the strangers of one domain got %d replies to junk and %d to challenges in %d windows, want at most %d each",
			strangerJunk, strangerCommands, windows, windows*domain)
	}
	if junk := h.srv.Opts.JunkReplies; strangerJunk+forgerReplies > windows*junk {
		t.Errorf("strangers got %d and the forger %d replies to junk, want at most the budget %d in %d windows together",
			strangerJunk, forgerReplies, junk, windows)
	}
	if forgerReplies > referee.MaxRepliesPerHour {
		t.Errorf("the forger's 100 mails caused %d replies, want at most %d", forgerReplies, referee.MaxRepliesPerHour)
	}
	keyless := strangerJunk + strangerCommands + forgerReplies
	if bound := keyedReplies*8<<10 + keyless*referee.MaxReplyBytes; total > bound {
		t.Errorf("all replies took %d bytes, want at most %d", total, bound)
	}
	t.Logf("%d keyed replies, %d to the forger, %d to strangers' junk, %d to their challenges, %d bytes in all",
		keyedReplies, forgerReplies, strangerJunk, strangerCommands, total)
}

// checkBound fails when the replies to one mail exceed maxReplyBytes and
// returns their size.
func checkBound(t *testing.T, what string, sent []sentMail) int {
	t.Helper()
	n := totalBytes(sent)
	if n > referee.MaxReplyBytes {
		t.Errorf("%s caused %d bytes of replies, more than %d", what, n, referee.MaxReplyBytes)
	}
	return n
}
