//go:build linux

package e2e

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/mailer/devstack"
)

// The kill storm (issue 18 §6): the real `taflmail serve` binary, killed
// with SIGKILL again and again while timed games, engine games, due
// reminders, due time-outs and moves sent while it is down go through the
// in-process mail system. docs/reliability.md ("Killed for real") has
// the numbers and how to run more kills.

var stormKillsFlag = flag.Int("kills", 0, "SIGKILLs of taflmail serve in TestKillStorm (0: $TAFLMAIL_KILLS, else 100)")

// stormKills is how many times TestKillStorm kills the referee at least:
// the -kills flag, else $TAFLMAIL_KILLS, else 100.
func stormKills(t *testing.T) int {
	if *stormKillsFlag > 0 {
		return *stormKillsFlag
	}
	if s := os.Getenv("TAFLMAIL_KILLS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("TAFLMAIL_KILLS=%q: want a number of kills above 0", s)
		}
		return n
	}
	return 100
}

const (
	// stormGrace is the storm's clock.arrival_grace: short, because the
	// storm runs on the real clock.
	stormGrace = 0 * time.Second
	// shortControl is the control of the games that see a reminder and a
	// deadline during the storm: a reminder one minute into the move
	// (clock.reminders 1m), the deadline a minute later.
	shortControl = "2m/move"
	// longControl is the control of the games that are only played.
	longControl = "10m/move"
	// mailWait bounds every wait for a mail of the referee.
	mailWait = 2 * time.Minute
)

var (
	// the mails name the last second in time; the deadline is the second
	// after it (docs/clock.md, CORRESPONDENCE.md §2.6): see lastInTime
	deadlineRE   = regexp.MustCompile(`Your move must reach me no later than (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC)`)
	lostByRE     = regexp.MustCompile(`(?:their|your) move had to reach me no later than (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC)`)
	enginePlayRE = regexp.MustCompile(`The engine played (\S+)\.`)
)

// parseStamp reads an instant as the referee's mails write it.
func parseStamp(s string) (time.Time, error) {
	return time.Parse("2006-01-02 15:04:05 UTC", s)
}

// deadlineAfter reads the last second in time that a mail names (s, as
// parseStamp reads it) and returns the deadline: the first late second,
// one after it.
func deadlineAfter(s string) (time.Time, error) {
	t, err := parseStamp(s)
	return t.Add(time.Second), err
}

// stormPlayer is a scripted player of the storm: an IMAP session of its
// own that reads every mail of its INBOX once (a copy delivered again
// with the same Message-ID is counted, not read again) and an SMTP
// sender.
type stormPlayer struct {
	name, user, addr string
	inbox            *mailer.Inbox
	sender           *mailer.Sender
	validity         uint32
	lastUID          uint32
	seq              int
	sendTook         time.Duration // how long the last send took

	mails    []*mailer.Message            // distinct mails, in the order they arrived
	byID     map[string]*mailer.Message   // Message-ID → first copy
	copies   map[string]int               // Message-ID → copies delivered
	differ   []string                     // Message-IDs whose copies differ
	consumed map[string]bool              // mails a driver has taken
	sent     map[string]*stormSent        // Message-ID → the mail it sent
	sentList []*stormSent                 // every mail it sent, in order
	byGame   map[string][]*mailer.Message // game id → its mails
}

// stormSent is one mail a player sent to the referee.
type stormSent struct {
	id     string // Message-ID
	from   *stormPlayer
	game   string // game id, "" for a challenge before the game had one
	ply    int    // 0-based ply the mail carries, -1 for none
	move   string // the move, "" for none
	sentAt time.Time
}

// newPlayer creates a fresh account on the storm's mail system and a
// player on it. Each game gets fresh players: the referee answers at
// most a few challenges per sender and hour (docs/security.md).
func (st *storm) newPlayer(name string) (*stormPlayer, error) {
	user := randomName(name)
	if err := st.stack.AddUser(user, st.sys.password); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), st.sys.wait)
	defer cancel()
	in, err := mailer.DialInbox(ctx, st.sys.imapConfig(user, "Read"))
	if err != nil {
		return nil, fmt.Errorf("player %s: %w", name, err)
	}
	p := &stormPlayer{name: name, user: user, addr: st.sys.address(user), inbox: in, sender: st.sys.sender("player.test"),
		byID: map[string]*mailer.Message{}, copies: map[string]int{}, consumed: map[string]bool{},
		sent: map[string]*stormSent{}, byGame: map[string][]*mailer.Message{}}
	st.mu.Lock()
	st.players = append(st.players, p)
	st.mu.Unlock()
	return p, nil
}

// mustPlayer is newPlayer for the test's own goroutine.
func (st *storm) mustPlayer(name string) *stormPlayer {
	p, err := st.newPlayer(name)
	if err != nil {
		st.t.Fatal(err)
	}
	return p
}

// close logs the players out.
func (st *storm) closePlayers() {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, p := range st.players {
		p.inbox.Close()
	}
}

// send mails body to the referee, as a reply to re when set, and records
// it.
func (p *stormPlayer) send(to, subject, body string, re *mailer.Message, game string, ply int, move string) (*stormSent, error) {
	p.seq++
	o := mailer.Outgoing{
		MessageID: fmt.Sprintf("%s.%d.%s@player.test", p.name, p.seq, randomName("")),
		From:      p.addr, To: []string{to}, Subject: subject, Body: body + "\n",
		Headers: map[string]string{"Auto-Submitted": "no"},
	}
	if re != nil {
		o.Subject = "Re: " + re.Subject
		o.InReplyTo = re.MessageID
		o.References = append(append([]string(nil), re.References...), re.MessageID)
	}
	raw, err := o.Bytes()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), mailWait)
	defer cancel()
	s := &stormSent{id: o.MessageID, from: p, game: game, ply: ply, move: move, sentAt: time.Now()}
	if err := p.sender.Send(ctx, p.addr, []string{to}, raw); err != nil {
		return nil, fmt.Errorf("%s sends %q: %w", p.name, body, err)
	}
	p.sendTook = time.Since(s.sentAt)
	p.sent[s.id] = s
	p.sentList = append(p.sentList, s)
	return s, nil
}

// fetch reads the mails that arrived since the last fetch.
func (p *stormPlayer) fetch() error {
	ctx, cancel := context.WithTimeout(context.Background(), mailWait)
	defer cancel()
	msgs, v, err := p.inbox.Fetch(ctx, p.validity, p.lastUID, 0)
	if errors.Is(err, mailer.ErrConnection) {
		if rerr := p.inbox.Reconnect(ctx); rerr != nil {
			return fmt.Errorf("%s: reconnect after %v: %w", p.name, err, rerr)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: fetch: %w", p.name, err)
	}
	p.validity = v
	for _, m := range msgs {
		p.lastUID = max(p.lastUID, m.UID)
		p.copies[m.MessageID]++
		if first, ok := p.byID[m.MessageID]; ok {
			if first.Subject != m.Subject || first.Text != m.Text {
				p.differ = append(p.differ, m.MessageID)
			}
			continue
		}
		p.byID[m.MessageID] = m
		p.mails = append(p.mails, m)
		if tag := gameTag.FindStringSubmatch(m.Subject); tag != nil {
			p.byGame[tag[1]] = append(p.byGame[tag[1]], m)
		}
	}
	return nil
}

// wait returns the first mail not yet taken for which pred holds, and
// takes it; it fetches until one comes or mailWait has passed.
func (p *stormPlayer) wait(what string, pred func(*mailer.Message) bool) (*mailer.Message, error) {
	deadline := time.Now().Add(mailWait)
	for {
		for _, m := range p.mails {
			if !p.consumed[m.MessageID] && pred(m) {
				p.consumed[m.MessageID] = true
				return m, nil
			}
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s: no mail %s within %v (%d mails so far)", p.name, what, mailWait, len(p.mails))
		}
		if err := p.fetch(); err != nil {
			return nil, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// until fetches until cond holds or mailWait has passed.
func (p *stormPlayer) until(what string, cond func() bool) error {
	deadline := time.Now().Add(mailWait)
	for !cond() {
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: %s: not within %v (%d mails so far)", p.name, what, mailWait, len(p.mails))
		}
		if err := p.fetch(); err != nil {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

// isReminder tells a reminder from the mails that answer a mail.
func isReminder(m *mailer.Message) bool { return strings.Contains(m.Subject, ": reminder, move ") }

// answers counts the mails of game id that are not reminders.
func (p *stormPlayer) answers(id string) int {
	n := 0
	for _, m := range p.byGame[id] {
		if !isReminder(m) {
			n++
		}
	}
	return n
}

// latest returns the last mail of game id, a reminder too: the one a move
// replies to.
func (p *stormPlayer) latest(id string) *mailer.Message {
	ms := p.byGame[id]
	if len(ms) == 0 {
		return nil
	}
	return ms[len(ms)-1]
}

// window is a span of the storm in which the referee must be down (a move
// is sent while it is down, it comes back just after the deadline) or up
// (a move is sent just before the deadline while it waits for it).
type window struct {
	from, to time.Time
	down     bool
	// again: after the restart at to, kill it once more at once and
	// start it again.
	again bool
}

// closeCall says how the stalled move of a close-call game is sent.
type closeCall int

const (
	noCloseCall closeCall = iota
	// downAfter: the referee is down from 2.5 s before the deadline, the
	// move is sent 1.5 s before it, the referee starts 0.25 s after it.
	downAfter
	// downTwice: as downAfter, and killed again just after that start.
	downTwice
	// upEdge: the referee is up and waits for the deadline; the move is
	// sent just before it (0.3–0.6 s and three times what a send takes),
	// so that it lands just before the deadline, or on a loaded machine
	// just after.
	upEdge
)

// storm is the shared state of TestKillStorm: the kill controller's
// windows and the signal that play stops.
type storm struct {
	t        *testing.T
	stack    *devstack.Stack
	sys      *mailSystem
	referee  string // the referee's address
	stopPlay chan struct{}

	mu      sync.Mutex
	windows []window
	players []*stormPlayer // every player, in the order created
}

func (st *storm) stopped() bool {
	select {
	case <-st.stopPlay:
		return true
	default:
		return false
	}
}

func (st *storm) addWindow(w window) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.windows = append(st.windows, w)
}

// windowAt returns the window at instant at, if any.
func (st *storm) windowAt(at time.Time) (window, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, w := range st.windows {
		if !at.Before(w.from) && at.Before(w.to) {
			return w, true
		}
	}
	return window{}, false
}

// nextDown returns the start of the first down window after at.
func (st *storm) nextDown(at time.Time) (time.Time, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	var first time.Time
	for _, w := range st.windows {
		if w.down && w.from.After(at) && (first.IsZero() || w.from.Before(first)) {
			first = w.from
		}
	}
	return first, !first.IsZero()
}

// humanGame is a game between two scripted players through the storm.
type humanGame struct {
	kind       string // steady, timeout, close
	alice, bob *stormPlayer
	control    string
	script     []string
	stall      int // the ply whose mover stops, -1 for none
	close      closeCall
	startAfter time.Duration // wait before the challenge

	id       string
	mails    []*stormSent // every mail to the referee about the game
	deadline time.Time    // close call: the deadline the reminder announced
	edge     time.Duration
	err      error
}

func (g *humanGame) mover(i int) *stormPlayer {
	if i%2 == 0 {
		return g.alice
	}
	return g.bob
}

// both waits until both players have n answers in the game.
func (g *humanGame) both(n int, what string) error {
	for _, p := range []*stormPlayer{g.alice, g.bob} {
		if err := p.until(fmt.Sprintf("game %s %s: %d mails", g.id, what, n), func() bool { return p.answers(g.id) >= n }); err != nil {
			return err
		}
	}
	return nil
}

// over reports whether a mail of the game to either player says it
// ended.
func (g *humanGame) over() bool {
	for _, p := range []*stormPlayer{g.alice, g.bob} {
		for _, m := range p.byGame[g.id] {
			if strings.Contains(m.Text, "The game is over") {
				return true
			}
		}
	}
	return false
}

// play plays the game through the referee: challenge, accept, the
// script, with the stall and its close call.
func (g *humanGame) play(st *storm) {
	g.err = g.run(st)
}

func (g *humanGame) run(st *storm) error {
	time.Sleep(g.startAfter)
	a, b := g.alice, g.bob
	s, err := a.send(st.referee, "a game?", "new brandubh with "+b.addr+" as attackers time "+g.control, nil, "", -1, "")
	if err != nil {
		return err
	}
	g.mails = append(g.mails, s)
	inv, err := b.wait("invitation", func(m *mailer.Message) bool { return strings.Contains(m.Text, a.addr+" challenges you") })
	if err != nil {
		return err
	}
	tag := gameTag.FindStringSubmatch(inv.Subject)
	if tag == nil {
		return fmt.Errorf("invitation %q names no game", inv.Subject)
	}
	g.id = tag[1]
	s.game = g.id
	if s, err = b.send(st.referee, "", "accept", inv, g.id, -1, ""); err != nil {
		return err
	}
	g.mails = append(g.mails, s)
	if err := g.both(2, "started"); err != nil {
		return err
	}
	for i, mv := range g.script {
		p := g.mover(i)
		n := len(g.mails)
		if i == g.stall {
			rem, err := p.wait("reminder", func(m *mailer.Message) bool {
				return isReminder(m) && strings.Contains(m.Subject, g.id)
			})
			if err != nil {
				return err
			}
			d := deadlineRE.FindStringSubmatch(rem.Text)
			if d == nil {
				return fmt.Errorf("game %s: the reminder names no deadline:\n%s", g.id, rem.Text)
			}
			if g.deadline, err = deadlineAfter(d[1]); err != nil {
				return err
			}
			switch g.close {
			case noCloseCall:
				// never moves: the game is lost on time
				return g.both(n+1, "lost on time")
			case downAfter, downTwice:
				st.addWindow(window{from: g.deadline.Add(-2500 * time.Millisecond), to: g.deadline.Add(250 * time.Millisecond),
					down: true, again: g.close == downTwice})
				time.Sleep(time.Until(g.deadline.Add(-1500 * time.Millisecond)))
			case upEdge:
				st.addWindow(window{from: g.deadline.Add(-5 * time.Second), to: g.deadline.Add(stormGrace + 2*time.Second)})
				// just before the deadline: a little more than a send takes
				g.edge = min(3*p.sendTook, time.Second) + time.Duration(300+rand.IntN(300))*time.Millisecond
				time.Sleep(time.Until(g.deadline.Add(-g.edge)))
			}
		}
		s, err := p.send(st.referee, "", "my move:\n"+mv, p.latest(g.id), g.id, i, mv)
		if err != nil {
			return err
		}
		g.mails = append(g.mails, s)
		if err := g.both(n+1, "ply "+mv); err != nil {
			return err
		}
		if g.over() {
			return nil
		}
	}
	return nil
}

// engineGames is one player's games against the engine, one after the
// other until play stops, with moves drawn at random.
type engineGames struct {
	rng *rand.Rand
	ids []string
	// player is the player of each game, mine the mails it sent.
	player map[string]*stormPlayer
	mine   map[string][]*stormSent
	err    error
}

func (e *engineGames) play(st *storm) {
	e.err = e.run(st)
}

func (e *engineGames) run(st *storm) error {
	v, ok := engine.Lookup("brandubh")
	if !ok {
		return errors.New("no brandubh")
	}
	for !st.stopped() {
		p, err := st.newPlayer("eng")
		if err != nil {
			return err
		}
		s, err := p.send(st.referee, "a game", "new brandubh with engine level 1 as attackers time "+longControl, nil, "", -1, "")
		if err != nil {
			return err
		}
		start, err := p.wait("engine game start", func(m *mailer.Message) bool { return strings.Contains(m.Text, "against the engine") })
		if err != nil {
			return err
		}
		tag := gameTag.FindStringSubmatch(start.Subject)
		if tag == nil {
			return fmt.Errorf("the engine game's start %q names no game", start.Subject)
		}
		id := tag[1]
		s.game = id
		e.ids = append(e.ids, id)
		e.player[id] = p
		e.mine[id] = append(e.mine[id], s)
		pos, err := engine.NewPosition(v)
		if err != nil {
			return err
		}
		last := start
		for !st.stopped() {
			legal := pos.LegalMoves(nil)
			mv := legal[e.rng.IntN(len(legal))]
			r, err := pos.Play(mv)
			if err != nil {
				return err
			}
			s, err := p.send(st.referee, "", "my move:\n"+mv.String(), last, id, len(e.mine[id])-1, mv.String())
			if err != nil {
				return err
			}
			e.mine[id] = append(e.mine[id], s)
			reply, err := p.wait("the answer to "+mv.String(), func(m *mailer.Message) bool { return m.InReplyTo == s.id })
			if err != nil {
				return err
			}
			if r.Outcome.Over() || strings.Contains(reply.Text, "The game is over") {
				break
			}
			// the engine answers within the reply hold (engine.reply_hold):
			// one mail with both plies; else the held reply, then the ply
			em := reply
			if enginePlayRE.FindString(reply.Text) == "" {
				em, err = p.wait("the engine's ply", func(m *mailer.Message) bool {
					return strings.Contains(m.Subject, id) && m.InReplyTo != s.id
				})
				if err != nil {
					return err
				}
			}
			last = em
			played := enginePlayRE.FindStringSubmatch(em.Text)
			if played == nil {
				break // the engine resigned, or the game ended otherwise
			}
			ft := fromTo.FindString(played[1])
			var found bool
			for _, m := range pos.LegalMoves(nil) {
				if m.String() == ft {
					if r, err = pos.Play(m); err != nil {
						return err
					}
					found = true
					break
				}
			}
			if !found {
				return fmt.Errorf("game %s: the engine's ply %s is not legal in the player's position", id, played[1])
			}
			if r.Outcome.Over() || strings.Contains(em.Text, "The game is over") {
				break
			}
		}
	}
	return nil
}

// TestKillStorm runs the real `taflmail serve` against the in-process
// mail servers and kills it with SIGKILL at random points, at least
// stormKills times (100 by default; -kills N or TAFLMAIL_KILLS=N for
// more), about a third of them at once after a start and some while a
// busy loop runs on every core, while the players go on mailing:
//
//   - three pairs play timed Brandubh games one after the other (10m/move);
//   - two timed games (2m/move) stall: a player never moves, gets one
//     reminder, and loses on time;
//   - three timed games (2m/move) stall until the reminder, then the
//     move is sent just before the deadline: once while the referee is
//     down and comes back just after the deadline, once the same with a
//     second kill right after that start, once while it is up and waits
//     for the deadline (the move lands just before it, or on a loaded
//     machine just after, and then loses on time);
//   - a player plays the engine, game after game, moves at random.
//
// After the storm the referee runs once more until it is idle, and the
// archive and every mailbox must show: every mail to the referee handled
// once (in Processed once, recorded once), every ply applied exactly
// once from the mail that carried it and timed by its INTERNALDATE, every
// move that arrived before its deadline played (CORRESPONDENCE.md C4) and
// no time-out declared against one, each reminder and each engine ply
// mailed once, every reply delivered (a copy delivered twice, killed
// between SMTP's OK and the outbox's mark, has the same Message-ID and
// text), nothing left in the outbox.
//
// The referee is the binary built without the race detector; -race
// applies to this process (the mail servers and the players).
func TestKillStorm(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the taflmail binary and runs for minutes")
	}
	want := stormKills(t)
	stack, err := devstack.Start("", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stack.Close()
	sys := devSystemOf(stack)
	refUser := randomName("tafl")
	if err := stack.AddUser(refUser, sys.password); err != nil {
		t.Fatal(err)
	}
	bin := buildTaflmail(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "taflmail.db")
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + dir,
		"TAFLMAIL_IMAP_ADDR=" + stack.IMAPAddr(), "TAFLMAIL_IMAP_USERNAME=" + refUser, "TAFLMAIL_IMAP_PASSWORD=" + sys.password,
		"TAFLMAIL_IMAP_SECURITY=none", "TAFLMAIL_IMAP_POLL_INTERVAL=2s",
		"TAFLMAIL_SMTP_ADDR=" + stack.SMTPAddr(), "TAFLMAIL_SMTP_SECURITY=none",
		"TAFLMAIL_SERVER_ADDRESS=" + sys.address(refUser), "TAFLMAIL_SERVER_DOMAIN=" + stack.Domain(),
		// every player of the storm is on devstack's one domain: its
		// challenges would soon spend a real domain's budget
		"TAFLMAIL_SERVER_DOMAIN_REPLIES_PER_10M=100000",
		"TAFLMAIL_ARCHIVE_PATH=" + db, "TAFLMAIL_ARCHIVE_RECORDS_DIR=" + filepath.Join(dir, "records"),
		"TAFLMAIL_CLOCK_REMINDERS=1m", "TAFLMAIL_CLOCK_ARRIVAL_GRACE=" + stormGrace.String(),
		"TAFLMAIL_ENGINE_THINK=500ms",
	}
	st := &storm{t: t, stack: stack, sys: sys, referee: sys.address(refUser), stopPlay: make(chan struct{})}
	defer st.closePlayers()
	pair := func(name string) (*stormPlayer, *stormPlayer) {
		return st.mustPlayer(name + "a"), st.mustPlayer(name + "b")
	}
	game := func(kind, name, control string, stall int, cc closeCall, after time.Duration) *humanGame {
		a, b := pair(name)
		return &humanGame{kind: kind, alice: a, bob: b, control: control, script: brandubhEscape, stall: stall, close: cc, startAfter: after}
	}
	timeouts := []*humanGame{
		game("timeout", "to1", shortControl, 0, noCloseCall, 0),
		game("timeout", "to2", shortControl, 3, noCloseCall, 0),
	}
	closes := []*humanGame{
		game("close", "cc1", shortControl, 0, downAfter, 0),
		game("close", "cc2", shortControl, 0, downTwice, 12*time.Second),
		game("close", "cc3", shortControl, 0, upEdge, 24*time.Second),
	}
	eng := &engineGames{rng: rand.New(rand.NewPCG(18, 6)), player: map[string]*stormPlayer{}, mine: map[string][]*stormSent{}}

	var timed sync.WaitGroup // the time-out and close-call games
	var all sync.WaitGroup   // every driver
	for _, g := range append(append([]*humanGame(nil), timeouts...), closes...) {
		timed.Add(1)
		all.Add(1)
		go func() { defer all.Done(); defer timed.Done(); g.play(st) }()
	}
	var steadyMu sync.Mutex
	var steady []*humanGame // added as they start
	for i := range 3 {
		all.Add(1)
		go func() {
			defer all.Done()
			for n := 0; !st.stopped(); n++ {
				g := &humanGame{kind: "steady", control: longControl, script: brandubhEscape, stall: -1}
				var err error
				if g.alice, err = st.newPlayer(fmt.Sprintf("st%d%da", i, n)); err == nil {
					g.bob, err = st.newPlayer(fmt.Sprintf("st%d%db", i, n))
				}
				if err != nil {
					t.Error(err)
					return
				}
				steadyMu.Lock()
				steady = append(steady, g)
				steadyMu.Unlock()
				if g.play(st); g.err != nil {
					return
				}
			}
		}()
	}
	all.Add(1)
	go func() { defer all.Done(); eng.play(st) }()
	timedDone := make(chan struct{})
	go func() { timed.Wait(); close(timedDone) }()
	allDone := make(chan struct{})
	go func() { all.Wait(); close(allDone) }()

	// the storm
	c := &killer{t: t, st: st, bin: bin, env: env, rng: rand.New(rand.NewPCG(6, 18))}
	began := time.Now()
	stopAt := began.Add(20*time.Minute + time.Duration(want)*3*time.Second) // a hung storm fails rather than runs for ever
	for {
		if time.Now().After(stopAt) {
			t.Errorf("the storm did not end within %v", time.Since(began))
			if !st.stopped() {
				close(st.stopPlay)
			}
			<-allDone // each driver's waits are bounded
			break
		}
		c.cycle()
		select {
		case <-timedDone:
			if c.kills >= want && !st.stopped() {
				close(st.stopPlay)
			}
		default:
		}
		if st.stopped() {
			select {
			case <-allDone:
			default:
				continue
			}
			break
		}
	}
	c.setPressure(false)
	stormTime := time.Since(began)

	// the referee once more, until it is idle, then stopped as by the
	// operator
	d := startServe(t, bin, env)
	c.runs++
	processedWant := 0
	for _, p := range st.players {
		processedWant += len(p.sentList)
	}
	idle := func() string {
		inbox, err := stack.Messages(refUser)
		if err != nil {
			return err.Error()
		}
		done, err := stack.MailboxMessages(refUser, mailer.DefaultProcessedMailbox)
		if err != nil {
			return err.Error()
		}
		if len(inbox) != 0 || len(done) != processedWant {
			return fmt.Sprintf("the referee's INBOX holds %d mails and Processed %d; want 0 and %d", len(inbox), len(done), processedWant)
		}
		s, err := archive.OpenWith(context.Background(), db, archive.Options{Existing: true})
		if err != nil {
			return err.Error()
		}
		defer s.Close()
		pending, err := s.Outbox(context.Background(), archive.Pending)
		if err != nil {
			return err.Error()
		}
		due, err := s.DueTimers(context.Background(), time.Now(), 0)
		if err != nil {
			return err.Error()
		}
		if len(pending) > 0 || len(due) > 0 {
			return fmt.Sprintf("%d outbox mails pending, %d timers due", len(pending), len(due))
		}
		return ""
	}
	for limit := time.Now().Add(3 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		why := idle()
		if why == "" {
			break
		}
		if time.Now().After(limit) {
			t.Errorf("the referee is not idle 3 minutes after the storm: %s", why) // the checks below say more
			break
		}
	}
	if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-d.exited:
	case <-time.After(time.Minute):
		t.Fatal("taflmail serve did not stop within a minute of SIGTERM")
	}
	c.logs = append(c.logs, d.log.String())
	time.Sleep(500 * time.Millisecond)

	t.Logf("storm: %v, %d runs, %d SIGKILLs (%d right after a start: %d within 150 ms of serving; %d before it served; %d under CPU pressure), then one run stopped by SIGTERM",
		stormTime.Round(time.Second), c.runs, c.kills, c.quick, c.served, c.beforeServing, c.pressured)
	v := &stormCheck{t: t, stack: stack, refUser: refUser, db: db, logs: c.logs}
	v.check(timeouts, closes, steady, eng, st.players)
	if t.Failed() {
		v.dumpLogs()
	}
	if c.kills < want {
		t.Errorf("%d SIGKILLs, want at least %d", c.kills, want)
	}
}

// killer starts and kills the referee.
type killer struct {
	t   *testing.T
	st  *storm
	bin string
	env []string
	rng *rand.Rand

	runs, kills, quick, served, beforeServing, pressured int
	logs                                                 []string

	busy chan struct{} // closed to end the busy loops; nil without
}

// setPressure starts or ends a busy loop on every core.
func (c *killer) setPressure(on bool) {
	switch {
	case on && c.busy == nil:
		c.busy = make(chan struct{})
		for range runtime.NumCPU() {
			go func(stop chan struct{}) {
				x := 0
				for {
					for range 1 << 16 {
						x++
					}
					select {
					case <-stop:
						return
					default:
					}
				}
			}(c.busy)
		}
	case !on && c.busy != nil:
		close(c.busy)
		c.busy = nil
	}
}

// cycle keeps the referee down while a down window lasts, starts it,
// lets it run for a random time (none at all: killed right after the
// start, about a third of the time), never into a down window and never
// killing it inside an up window, and kills it with SIGKILL.
func (c *killer) cycle() {
	for {
		w, ok := c.st.windowAt(time.Now())
		if !ok || !w.down {
			break
		}
		time.Sleep(time.Until(w.to))
		if w.again {
			// back just after the deadline, and killed again at once
			d := c.start()
			time.Sleep(time.Duration(c.rng.IntN(30)) * time.Millisecond)
			c.kill(d, true)
		}
	}
	// CPU pressure: for the second quarter of the kills, and around the
	// close calls' deadlines
	c.setPressure(c.kills%100 >= 25 && c.kills%100 < 50 || c.nearWindow())
	d := c.start()
	up := time.Duration(200+c.rng.IntN(2300)) * time.Millisecond
	quick := false
	switch c.rng.IntN(6) {
	case 0: // at once: mostly before it serves (opening the archive, logging in)
		quick, up = true, time.Duration(c.rng.IntN(60))*time.Millisecond
	case 1: // right after it serves: its first poll (a rescan), the timers after it
		quick = true
	wait:
		for limit := time.Now().Add(time.Minute); !strings.Contains(d.log.String(), "taflmail serving") && time.Now().Before(limit); {
			select {
			case <-d.exited:
				break wait
			case <-time.After(5 * time.Millisecond):
			}
		}
		c.served++
		up = time.Duration(c.rng.IntN(150)) * time.Millisecond
	}
	until := time.Now().Add(up)
	for {
		now := time.Now()
		if next, ok := c.st.nextDown(now); ok && next.Before(until) {
			until = next
		}
		if w, ok := c.st.windowAt(until); ok && !w.down {
			until = w.to
		}
		if !now.Before(until) {
			break
		}
		select {
		case <-d.exited:
			c.t.Errorf("taflmail serve run %d exited by itself (%v):\n%s", c.runs, d.err, tail(d.log.String(), 40))
			c.logs = append(c.logs, d.log.String())
			d = c.start()
		case <-time.After(min(20*time.Millisecond, until.Sub(now))):
		}
	}
	c.kill(d, quick)
	time.Sleep(time.Duration(c.rng.IntN(800)) * time.Millisecond)
}

// nearWindow reports whether a window begins or ends within 10 s.
func (c *killer) nearWindow() bool {
	c.st.mu.Lock()
	defer c.st.mu.Unlock()
	now := time.Now()
	for _, w := range c.st.windows {
		if now.After(w.from.Add(-10*time.Second)) && now.Before(w.to.Add(5*time.Second)) {
			return true
		}
	}
	return false
}

func (c *killer) start() *daemon {
	c.runs++
	return startServe(c.t, c.bin, c.env)
}

// kill sends SIGKILL and waits for the process to end.
func (c *killer) kill(d *daemon, quick bool) {
	if err := d.cmd.Process.Signal(syscall.SIGKILL); err != nil && !errors.Is(err, os.ErrProcessDone) {
		c.t.Errorf("SIGKILL: %v", err)
	}
	<-d.exited
	c.kills++
	log := d.log.String()
	if quick {
		c.quick++
	}
	if !strings.Contains(log, "taflmail serving") {
		c.beforeServing++
	}
	if c.busy != nil {
		c.pressured++
	}
	c.logs = append(c.logs, log)
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// stormCheck checks the state after the storm.
type stormCheck struct {
	t       *testing.T
	stack   *devstack.Stack
	refUser string
	db      string
	logs    []string

	store   *archive.Store
	arrived map[string]time.Time // Message-ID of a mail to the referee → its INTERNALDATE
}

func (v *stormCheck) check(timeouts, closes, steady []*humanGame, eng *engineGames, players []*stormPlayer) {
	t := v.t
	ctx := context.Background()
	s, err := archive.OpenWith(ctx, v.db, archive.Options{Existing: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	v.store = s

	// every mail to the referee: in Processed once, recorded once
	done, err := v.stack.MailboxMessages(v.refUser, mailer.DefaultProcessedMailbox)
	if err != nil {
		t.Fatal(err)
	}
	inbox, err := v.stack.Messages(v.refUser)
	if err != nil {
		t.Fatal(err)
	}
	if len(inbox) != 0 {
		t.Errorf("the referee's INBOX holds %d mails after the storm", len(inbox))
	}
	v.arrived = map[string]time.Time{}
	inProcessed := map[string]int{}
	for _, m := range done {
		inProcessed[m.MessageID]++
		v.arrived[m.MessageID] = m.Arrived
	}
	sentAll := 0
	for _, p := range players {
		for _, m := range p.sentList {
			sentAll++
			if inProcessed[m.id] != 1 {
				t.Errorf("%s's mail %s is %d times in Processed, want once", p.name, m.id, inProcessed[m.id])
			}
			if ok, err := s.Processed(ctx, m.id, ""); err != nil || !ok {
				t.Errorf("%s's mail %s is not recorded as processed (%v)", p.name, m.id, err)
			}
		}
	}
	if len(done) != sentAll {
		t.Errorf("Processed holds %d mails, the players sent %d", len(done), sentAll)
	}

	// every reply delivered, copies identical, none unknown to the outbox
	sent, err := s.Outbox(ctx, archive.Sent)
	if err != nil {
		t.Fatal(err)
	}
	for _, status := range []archive.OutboxStatus{archive.Pending, archive.Failed} {
		if left, err := s.Outbox(ctx, status); err != nil || len(left) > 0 {
			t.Errorf("%d outbox mails %s after the storm (%v)", len(left), status, err)
		}
	}
	byAddr := map[string]*stormPlayer{}
	for _, p := range players {
		byAddr[p.addr] = p
		if err := p.fetch(); err != nil {
			t.Error(err)
		}
	}
	outbox := map[string]bool{}
	for _, o := range sent {
		// a mail decided twice (a timer fired again, a mail handled again)
		// would be queued twice under the same Message-ID
		if outbox[o.MessageID] {
			t.Errorf("the outbox holds %s to %v twice: it was decided twice", o.MessageID, o.To)
		}
		outbox[o.MessageID] = true
		p := byAddr[o.To[0]]
		if p == nil {
			t.Errorf("outbox mail %s to %v: not a player of the storm", o.MessageID, o.To)
			continue
		}
		if p.copies[o.MessageID] == 0 {
			t.Errorf("outbox mail %s to %s, marked sent, never reached the INBOX", o.MessageID, p.name)
		}
	}
	twice, replies := 0, 0
	for _, p := range players {
		for id, n := range p.copies {
			replies++
			twice += n - 1
			if !outbox[id] {
				t.Errorf("%s got %s, which the outbox does not hold", p.name, id)
			}
		}
		for _, id := range p.differ {
			t.Errorf("%s got copies of %s that differ", p.name, id)
		}
		// no reminder twice: one per move number a player is reminded of
		reminders := map[string]int{}
		for _, m := range p.mails {
			if isReminder(m) {
				reminders[m.Subject]++
			}
		}
		for subj, n := range reminders {
			if n > 1 {
				t.Errorf("%s got %d reminders %q", p.name, n, subj)
			}
		}
	}

	inTime, late := 0, 0
	for _, g := range append(append(append([]*humanGame(nil), timeouts...), closes...), steady...) {
		if g.err != nil {
			t.Errorf("%s game %s (%s, %s): %v", g.kind, g.id, g.alice.name, g.bob.name, g.err)
			continue
		}
		i, l := v.humanGame(g)
		inTime, late = inTime+i, late+l
	}
	enginePlies := v.engineGames(eng)

	errorLines := 0
	for _, l := range v.logs {
		for _, line := range strings.Split(l, "\n") {
			if strings.Contains(line, "level=ERROR") {
				errorLines++
				if errorLines <= 5 {
					t.Errorf("the referee logged an error: %s", line)
				}
			}
		}
	}
	t.Logf("after the storm: %d mails to the referee; %d distinct replies (%d copies delivered a second time); %d games between players (%d meant to be lost on time, %d close calls: %d moves arrived in time, %d late); %d engine games with %d engine plies; %d error lines logged",
		sentAll, replies, twice, len(timeouts)+len(closes)+len(steady), len(timeouts), len(closes), inTime, late, len(eng.ids), enginePlies, errorLines)
}

// humanGame checks one game between players: its plies against the mails
// that carried them, its end, the mails each player got. It returns the
// close call's in-time and late moves.
func (v *stormCheck) humanGame(g *humanGame) (inTime, late int) {
	t := v.t
	gm, err := v.store.Game(context.Background(), g.id)
	if err != nil {
		t.Errorf("%s game %s: %v", g.kind, g.id, err)
		return 0, 0
	}
	var plyMails []*stormSent
	for _, m := range g.mails {
		if m.ply >= 0 {
			plyMails = append(plyMails, m)
		}
	}
	played := plyMails
	timedOut := gm.Reason == "timeout"
	var deadline time.Time
	if timedOut {
		for _, m := range append(append([]*mailer.Message(nil), g.alice.byGame[g.id]...), g.bob.byGame[g.id]...) {
			if d := lostByRE.FindStringSubmatch(m.Text); d != nil {
				deadline, _ = deadlineAfter(d[1])
			}
		}
		if deadline.IsZero() {
			t.Errorf("%s game %s was lost on time, and no mail says the deadline", g.kind, g.id)
		}
	}
	if g.close != noCloseCall {
		i := slices.IndexFunc(plyMails, func(m *stormSent) bool { return m.ply == g.stall })
		if i < 0 {
			t.Errorf("close call %s: the stalled move was never sent", g.id)
			return 0, 0
		}
		m := plyMails[i]
		arrival := v.arrived[m.id]
		if arrival.Before(g.deadline) {
			inTime++
			if timedOut {
				t.Errorf("close call %s (%v): the move %s arrived at %v, before the deadline %v, and the game was lost on time",
					g.id, g.close, m.move, arrival, g.deadline)
			}
		} else {
			late++
			played = plyMails[:i] // the moves after it were refused: the game was over
			if !timedOut {
				t.Errorf("close call %s (%v): the move %s arrived at %v, not before the deadline %v, and the game was not lost on time",
					g.id, g.close, m.move, arrival, g.deadline)
			}
		}
		t.Logf("close call %s (%v, sent %v before the deadline): arrived %v, deadline %v, %s",
			g.id, g.close, g.deadline.Sub(m.sentAt).Round(time.Millisecond), arrival.Format(time.TimeOnly), g.deadline.Format(time.TimeOnly),
			map[bool]string{true: "lost on time", false: "played"}[timedOut])
	}
	if len(gm.Plies) != len(played) {
		t.Errorf("%s game %s: %d plies stored, %d moves to play were sent: %v", g.kind, g.id, len(gm.Plies), len(played), gm.Plies)
	}
	for i, p := range gm.Plies {
		if i >= len(played) {
			break
		}
		m := played[i]
		if fromTo.FindString(p.Move) != m.move || p.MessageID != m.id || p.N != i+1 {
			t.Errorf("%s game %s ply %d: %s from %s, want %s from %s", g.kind, g.id, i+1, p.Move, p.MessageID, m.move, m.id)
		}
		if a := v.arrived[m.id]; !p.At.Equal(a) {
			t.Errorf("%s game %s ply %d: timed at %v, its mail arrived at %v", g.kind, g.id, i+1, p.At, a)
		}
	}
	// every move that arrived before the deadline was played
	if timedOut {
		for _, m := range plyMails[len(played):] {
			if a := v.arrived[m.id]; a.Before(deadline) {
				t.Errorf("%s game %s: the move %s arrived at %v, before the deadline %v, and the game was lost on time", g.kind, g.id, m.move, a, deadline)
			}
		}
	}
	switch {
	case gm.Status != archive.Finished:
		t.Errorf("%s game %s is %s after the storm", g.kind, g.id, gm.Status)
	case g.kind == "timeout" && (!timedOut || addressOf(gm, gm.Result) == g.mover(g.stall).addr):
		t.Errorf("timeout game %s: %s won by %q (%s), want lost on time by %s", g.id, gm.Result, addressOf(gm, gm.Result), gm.Reason, g.mover(g.stall).name)
	case g.kind == "steady" && (timedOut || gm.Result != "defenders"):
		t.Errorf("steady game %s: %s won (%s), want the king's escape", g.id, gm.Result, gm.Reason)
	}
	// each player: one mail per mail sent to the referee, plus the result
	// of a time-out; the staller one reminder for the stalled move
	if g.close != noCloseCall && timedOut {
		return inTime, late // a late move's answers depend on whether the timer or the mail came first
	}
	for _, p := range []*stormPlayer{g.alice, g.bob} {
		want := len(g.mails)
		if timedOut {
			want++
		}
		if got := p.answers(g.id); got != want {
			t.Errorf("%s game %s: %s got %d mails (reminders not counted), want %d", g.kind, g.id, p.name, got, want)
		}
	}
	if g.stall >= 0 {
		p := g.mover(g.stall)
		n := 0
		for _, m := range p.byGame[g.id] {
			if isReminder(m) && strings.Contains(m.Subject, fmt.Sprintf("reminder, move %d", g.stall/2+1)) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s game %s: %s got %d reminders for the stalled move, want 1", g.kind, g.id, p.name, n)
		}
	}
	return inTime, late
}

// engineGames checks the games against the engine: the player's plies
// from the mails that carried them, each engine ply mailed once. It
// returns the number of engine plies.
func (v *stormCheck) engineGames(e *engineGames) int {
	t := v.t
	if e.err != nil {
		t.Errorf("engine games: %v", e.err)
	}
	total := 0
	for _, id := range e.ids {
		gm, err := v.store.Game(context.Background(), id)
		if err != nil {
			t.Errorf("engine game %s: %v", id, err)
			continue
		}
		var mine []*stormSent
		for _, m := range e.mine[id] {
			if m.ply >= 0 {
				mine = append(mine, m)
			}
		}
		// the engine's plies as mailed: one mail per ply, so each subject
		// (it names the move number) once, and the plies those mails name
		// are the engine's plies in the archive
		var mailed []string
		subjects := map[string]int{}
		for _, m := range e.player[id].byGame[id] {
			if played := enginePlayRE.FindStringSubmatch(m.Text); played != nil {
				mailed = append(mailed, played[1])
				if subjects[m.Subject]++; subjects[m.Subject] == 2 {
					t.Errorf("engine game %s: two engine plies mailed under %q", id, m.Subject)
				}
			}
		}
		var stored []string
		k, enginePlies := 0, 0
		for i, p := range gm.Plies {
			if i%2 == 0 { // the player attacks
				if k >= len(mine) || fromTo.FindString(p.Move) != mine[k].move || p.MessageID != mine[k].id {
					t.Errorf("engine game %s ply %d: %s from %q, not the player's next move", id, i+1, p.Move, p.MessageID)
				} else if a := v.arrived[mine[k].id]; !p.At.Equal(a) {
					t.Errorf("engine game %s ply %d: timed at %v, its mail arrived at %v", id, i+1, p.At, a)
				}
				k++
				continue
			}
			enginePlies++
			stored = append(stored, p.Move)
			if p.MessageID != "" {
				t.Errorf("engine game %s ply %d: %s from mail %s; the engine's plies come from no mail", id, i+1, p.Move, p.MessageID)
			}
		}
		if !slices.Equal(mailed, stored) {
			t.Errorf("engine game %s: the engine's plies mailed %v, stored %v", id, mailed, stored)
		}
		if k != len(mine) {
			t.Errorf("engine game %s: %d of the player's %d moves stored", id, k, len(mine))
		}
		total += enginePlies
	}
	return total
}

// dumpLogs writes every run's log to a file that outlives the test, for
// a failed storm.
func (v *stormCheck) dumpLogs() {
	f, err := os.CreateTemp("", "taflmail-killstorm-*.log")
	if err != nil {
		v.t.Log(err)
		return
	}
	defer f.Close()
	for i, l := range v.logs {
		fmt.Fprintf(f, "===== run %d =====\n%s\n", i+1, l)
	}
	v.t.Logf("the referee's logs of all %d runs: %s", len(v.logs), f.Name())
}

// addressOf returns the address of side ("attackers", "defenders") in g.
func addressOf(g *archive.Game, side string) string {
	switch side {
	case "attackers":
		return g.Attackers
	case "defenders":
		return g.Defenders
	}
	return ""
}
