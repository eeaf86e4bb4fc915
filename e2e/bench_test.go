package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
	"github.com/taflmail/taflmail/server"
)

// randomGame returns n plies of a legal game of variant name that has not
// ended, chosen with rng: as the referee stores them (canonical OTN with
// the king's moves and the captures marked, "Kd4-d1", "d1-d3xd4") and as a player writes them ("d1-d3"), plus
// one more legal move, the next ply a player could mail.
func randomGame(tb testing.TB, name string, n int, rng *rand.Rand) (stored, moves []string, next string) {
	tb.Helper()
	v, ok := engine.Lookup(name)
	if !ok {
		tb.Fatalf("no variant %q", name)
	}
restart:
	pos, err := engine.NewPosition(v)
	if err != nil {
		tb.Fatal(err)
	}
	stored, moves = stored[:0], moves[:0]
	var buf []engine.Move
	for len(moves) <= n {
		buf = pos.LegalMoves(buf[:0])
		rng.Shuffle(len(buf), func(i, j int) { buf[i], buf[j] = buf[j], buf[i] })
		played := false
		for _, m := range buf {
			p := pos.Clone()
			r, err := p.Play(m)
			if err != nil {
				tb.Fatalf("LegalMoves gave %v: %v", m, err)
			}
			if r.Outcome.Over() {
				continue // a game that ends is no good as a running game
			}
			if len(moves) == n {
				return stored, moves, m.String()
			}
			text := m.String() // canonical OTN, as the referee stores it
			if r.Piece == engine.King {
				text = "K" + text
			}
			for i, c := range r.Captures {
				if i == 0 {
					text += "x"
				} else {
					text += "/"
				}
				text += c.String()
			}
			stored, moves = append(stored, text), append(moves, m.String())
			pos, played = p, true
			break
		}
		if !played {
			goto restart // every move ends the game: start again
		}
	}
	panic("unreachable")
}

// subjectKey reads the game id and the recipient's key from a referee's
// subject, "[taflmail K7QX2M 3f9k2m7q4d] ...".
var subjectKey = regexp.MustCompile(`\[taflmail ([0-9A-Z]{6}) ([0-9a-z]{10})\]`)

// loopWorld is the referee of BenchmarkMailLoop, driven by hand: Poll is
// called once per batch of mails instead of Run waiting for them.
type loopWorld struct {
	stack  *devstack.Stack
	srv    *server.Server
	store  *archive.Store
	player *mailer.Sender
	ref    string
	seq    int
}

// benchGame is a game set up for the benchmark: its id, the players'
// addresses and keys, and the moves to mail.
type benchGame struct {
	id                  string
	attacker, defender  string
	attackerKey, defKey string
	moves               []string
}

func newLoopWorld(b *testing.B) *loopWorld {
	b.Helper()
	stack, err := devstack.Start("", map[string]string{"tafl": "secret"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stack.Close() })
	ctx := context.Background()
	store, err := archive.Open(ctx, filepath.Join(b.TempDir(), "taflmail.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	inbox, err := mailer.DialInbox(ctx, mailer.IMAPConfig{Addr: stack.IMAPAddr(), Username: "tafl", Password: "secret", Security: mailer.SecurityNone})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { inbox.Close() })
	w := &loopWorld{stack: stack, store: store, ref: stack.Address("tafl"),
		player: mailer.NewSender(mailer.SMTPConfig{Addr: stack.SMTPAddr(), Security: mailer.SecurityNone, HeloName: "player.test"})}
	w.srv, err = server.New(server.Options{
		Address: w.ref, Store: store, Inbox: inbox, Logger: silence(),
		Sender: mailer.NewSender(mailer.SMTPConfig{Addr: stack.SMTPAddr(), Security: mailer.SecurityNone, HeloName: stack.Domain()}),
		// every game's challenge is a mail without a key, a command
		// from the stack's one domain: a run of more than 20 games in
		// 10 minutes would spend the default budget per domain for such
		// mails and find its 21st invitation unsent
		DomainReplies: 1 << 30,
	})
	if err != nil {
		b.Fatal(err)
	}
	return w
}

// mail renders a player's mail to the referee.
func (w *loopWorld) mail(b *testing.B, from, subject, body string) []byte {
	b.Helper()
	w.seq++
	o := mailer.Outgoing{MessageID: fmt.Sprintf("bench.%d@player.test", w.seq), From: from, To: []string{w.ref},
		Subject: subject, Body: body + "\n", Headers: map[string]string{"Auto-Submitted": "no"}}
	raw, err := o.Bytes()
	if err != nil {
		b.Fatal(err)
	}
	return raw
}

func (w *loopWorld) send(b *testing.B, from string, raw []byte) {
	if err := w.player.Send(context.Background(), from, []string{w.ref}, raw); err != nil {
		b.Fatalf("player mail: %v", err)
	}
}

func (w *loopWorld) poll(b *testing.B) {
	if err := w.srv.Poll(context.Background(), false); err != nil {
		b.Fatalf("Poll: %v", err)
	}
}

// lastKey returns the game id and key in the subject of the last mail in
// user's INBOX.
func (w *loopWorld) lastKey(b *testing.B, user string) (id, key string) {
	b.Helper()
	msgs, err := w.stack.Messages(user)
	if err != nil || len(msgs) == 0 {
		b.Fatalf("mails of %s: %d, %v", user, len(msgs), err)
	}
	m := subjectKey.FindStringSubmatch(msgs[len(msgs)-1].Subject)
	if m == nil {
		b.Fatalf("subject %q carries no game key", msgs[len(msgs)-1].Subject)
	}
	return m[1], m[2]
}

// newGame has two new players start a Copenhagen game through the mail
// loop: a challenge and its acceptance.
func (w *loopWorld) newGame(b *testing.B, i int, moves []string) benchGame {
	b.Helper()
	a, d := fmt.Sprintf("a%d", i), fmt.Sprintf("d%d", i)
	for _, u := range []string{a, d} {
		if err := w.stack.AddUser(u, "secret"); err != nil {
			b.Fatal(err)
		}
	}
	g := benchGame{attacker: w.stack.Address(a), defender: w.stack.Address(d), moves: moves}
	w.send(b, g.attacker, w.mail(b, g.attacker, "a game?", "new copenhagen with "+g.defender+" as attackers"))
	w.poll(b)
	id, key := w.lastKey(b, d)
	w.send(b, g.defender, w.mail(b, g.defender, "[taflmail "+id+" "+key+"]", "accept"))
	w.poll(b)
	g.id, g.defKey = id, key
	_, g.attackerKey = w.lastKey(b, a)
	return g
}

// BenchmarkMailLoop measures move mails per second through the whole
// loop on the in-process servers: a player's mail goes in by SMTP, the
// referee fetches it over IMAP (Poll), decides and commits it to the
// archive (synchronous=FULL), sends both players' replies by SMTP, and
// moves the mail to Processed. The games are Copenhagen games between
// fresh players, set up before the clock runs, and the moves go round
// the games one ply at a time, so the referee replays a game of up to
// 12 plies per mail. batch=1 polls after each mail (the latency-bound
// case); batch=10 lets ten mails queue before a poll. Run it on one core
// too: -cpu 1,2. Beside mails/s it reports the archive's write
// transactions per mail (txns/mail), each one an fsync, and the process's
// CPU time per mail (cpu-µs/mail, processCPU).
func BenchmarkMailLoop(b *testing.B) {
	for _, batch := range []int{1, 10} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) { benchMailLoop(b, batch) })
	}
}

func benchMailLoop(b *testing.B, batch int) {
	const plies = 12
	w := newLoopWorld(b)
	rng := rand.New(rand.NewPCG(1, 2))
	nGames := (b.N + plies - 1) / plies
	games := make([]benchGame, nGames)
	for i := range games {
		_, moves, _ := randomGame(b, "copenhagen", plies, rng)
		games[i] = w.newGame(b, i, moves)
	}
	// Mail k is ply k/nGames of game k%nGames: round the games.
	type mail struct {
		from string
		raw  []byte
	}
	mails := make([]mail, b.N)
	for k := range mails {
		g, ply := games[k%nGames], k/nGames
		from, key := g.attacker, g.attackerKey
		if ply%2 == 1 {
			from, key = g.defender, g.defKey
		}
		mails[k] = mail{from, w.mail(b, from, "Re: [taflmail "+g.id+" "+key+"] your move", g.moves[ply])}
	}
	b.ReportAllocs()
	txns := w.store.WriteTransactions()
	cpu := processCPU(b)
	b.ResetTimer()
	for k := 0; k < b.N; k += batch {
		for j := k; j < min(k+batch, b.N); j++ {
			w.send(b, mails[j].from, mails[j].raw)
		}
		w.poll(b)
	}
	b.StopTimer()
	b.ReportMetric(float64(processCPU(b)-cpu)/float64(b.N)/1e3, "cpu-µs/mail")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "mails/s")
	// each write transaction waits for an fsync (synchronous=FULL)
	b.ReportMetric(float64(w.store.WriteTransactions()-txns)/float64(b.N), "txns/mail")

	// Every mail moved a piece and was answered twice.
	all, err := w.store.Games(context.Background(), archive.GameFilter{})
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, g := range all {
		n += g.PlyCount
	}
	if n != b.N {
		b.Fatalf("%d mails stored %d plies, want one each", b.N, n)
	}
	sent, err := w.store.Outbox(context.Background(), archive.Sent)
	if err != nil || len(sent) != 2*b.N+4*nGames {
		b.Fatalf("%d replies sent (%v), want %d", len(sent), err, 2*b.N+4*nGames)
	}
}

// BenchmarkBareTransport is BenchmarkMailLoop without the referee: the
// same in-process IMAP and SMTP servers of mailer/devstack and the same
// clients of package mailer, doing for each mail what the loop's transport
// does and nothing else. A player's mail goes in by SMTP; one Inbox.Fetch
// per batch reads it over IMAP; two replies of the size of a referee's
// move reply (a Copenhagen board and a few lines, about 1.3 kB) are
// rendered with mailer.Outgoing and sent by SMTP to the game's two
// players, the replies of a batch over one connection (a Sender.Session
// for the batch, as the referee's outbox sends a round); Inbox.DoneAll
// moves the batch's mails to Processed (one UID STORE, one UID MOVE, as
// the loop's Poll does). No
// archive, no parsing of commands, no game. Players come in pairs, one
// pair per 12 mails, as the games of BenchmarkMailLoop, so the mailboxes
// grow alike. batch=1 and batch=10 as there. The ratio of the two
// benchmarks' mails/s, run side by side, is the share of the transport's
// speed the referee keeps (docs/performance.md). It reports the
// process's CPU time per mail too (cpu-µs/mail, processCPU).
func BenchmarkBareTransport(b *testing.B) {
	for _, batch := range []int{1, 10} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) { benchBareTransport(b, batch) })
	}
}

// bareReply is the body of each reply BenchmarkBareTransport sends: a
// Copenhagen diagram and a few lines of text, as long as the referee's
// reply to a move.
var bareReply = func() string {
	var sb strings.Builder
	sb.WriteString("Your opponent played d1-d3.\n\n")
	sb.WriteString("    a b c d e f g h i j k\n")
	for r := 11; r >= 1; r-- {
		fmt.Fprintf(&sb, "%2d  . . . X X X X X . . .  %d\n", r, r)
	}
	sb.WriteString("    a b c d e f g h i j k\n\n")
	sb.WriteString("It is your move (attackers, X). Reply with a move such as \"a4-b4\",\n")
	sb.WriteString("keeping the subject line; \"help\" lists the commands.\n\n")
	sb.WriteString("-- \ntaflmail referee, a game of Copenhagen Hnefatafl\n")
	for sb.Len() < 1300 {
		sb.WriteString("History: 1. d1-d3 h11-h9 2. k4-i4 d11-d9 3. a7-c7 e1-e3\n")
	}
	return sb.String()
}()

func benchBareTransport(b *testing.B, batch int) {
	const plies = 12
	ctx := context.Background()
	stack, err := devstack.Start("", map[string]string{"tafl": "secret"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stack.Close() })
	inbox, err := mailer.DialInbox(ctx, mailer.IMAPConfig{Addr: stack.IMAPAddr(), Username: "tafl", Password: "secret", Security: mailer.SecurityNone})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { inbox.Close() })
	ref := stack.Address("tafl")
	refSender := mailer.NewSender(mailer.SMTPConfig{Addr: stack.SMTPAddr(), Security: mailer.SecurityNone, HeloName: stack.Domain()})
	player := mailer.NewSender(mailer.SMTPConfig{Addr: stack.SMTPAddr(), Security: mailer.SecurityNone, HeloName: "player.test"})

	nGames := (b.N + plies - 1) / plies
	type pair struct{ attacker, defender string }
	pairs := make([]pair, nGames)
	for i := range pairs {
		a, d := fmt.Sprintf("a%d", i), fmt.Sprintf("d%d", i)
		for _, u := range []string{a, d} {
			if err := stack.AddUser(u, "secret"); err != nil {
				b.Fatal(err)
			}
		}
		pairs[i] = pair{stack.Address(a), stack.Address(d)}
	}
	// Mail k comes from a player of pair k%nGames, as in BenchmarkMailLoop.
	type mail struct {
		from string
		raw  []byte
	}
	mails := make([]mail, b.N)
	byID := make(map[string]pair, b.N)
	for k := range mails {
		p := pairs[k%nGames]
		from := p.attacker
		if (k/nGames)%2 == 1 {
			from = p.defender
		}
		id := fmt.Sprintf("bare.%d@player.test", k)
		o := mailer.Outgoing{MessageID: id, From: from, To: []string{ref},
			Subject: "Re: [taflmail K7QX2M 3f9k2m7q4d] your move", Body: "d1-d3\n",
			Headers: map[string]string{"Auto-Submitted": "no"}}
		raw, err := o.Bytes()
		if err != nil {
			b.Fatal(err)
		}
		mails[k], byID[id] = mail{from, raw}, p
	}

	var validity, last uint32
	handled := 0
	b.ReportAllocs()
	cpu := processCPU(b)
	b.ResetTimer()
	for k := 0; k < b.N; k += batch {
		for j := k; j < min(k+batch, b.N); j++ {
			if err := player.Send(ctx, mails[j].from, []string{ref}, mails[j].raw); err != nil {
				b.Fatalf("player mail: %v", err)
			}
		}
		msgs, v, err := inbox.Fetch(ctx, validity, last, 0)
		if err != nil {
			b.Fatalf("Fetch: %v", err)
		}
		validity = v
		replies := refSender.Session()
		var uids []uint32
		for _, m := range msgs {
			p, ok := byID[m.MessageID]
			if !ok {
				b.Fatalf("fetched a mail %q that was not sent", m.MessageID)
			}
			for _, to := range []string{p.attacker, p.defender} {
				o := mailer.Outgoing{From: ref, To: []string{to}, InReplyTo: m.MessageID,
					References: []string{m.MessageID}, Subject: "[taflmail K7QX2M 3f9k2m7q4d] your move",
					Body: bareReply}
				raw, err := o.Bytes()
				if err != nil {
					b.Fatal(err)
				}
				if err := replies.Send(ctx, ref, []string{to}, raw); err != nil {
					b.Fatalf("reply: %v", err)
				}
			}
			uids = append(uids, m.UID)
			last = max(last, m.UID)
			handled++
		}
		if err := replies.Close(); err != nil {
			b.Fatalf("closing the replies' session: %v", err)
		}
		if err := inbox.DoneAll(ctx, uids); err != nil {
			b.Fatalf("DoneAll: %v", err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(processCPU(b)-cpu)/float64(b.N)/1e3, "cpu-µs/mail")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "mails/s")

	// Every mail was fetched once, answered twice and moved to Processed.
	if handled != b.N {
		b.Fatalf("%d mails fetched, want %d", handled, b.N)
	}
	done, err := stack.MailboxMessages("tafl", mailer.DefaultProcessedMailbox)
	if err != nil || len(done) != b.N {
		b.Fatalf("%d mails in Processed (%v), want %d", len(done), err, b.N)
	}
	got := 0
	for i := range pairs {
		for _, u := range []string{fmt.Sprintf("a%d", i), fmt.Sprintf("d%d", i)} {
			msgs, err := stack.Messages(u)
			if err != nil {
				b.Fatal(err)
			}
			got += len(msgs)
		}
	}
	if got != 2*b.N {
		b.Fatalf("the players received %d replies, want %d", got, 2*b.N)
	}
}

// rssEnv turns BenchmarkServeRSS on.
const rssEnv = "TAFLMAIL_BENCH_RSS"

// BenchmarkServeRSS measures the resident memory of the real `taflmail
// serve` binary over an archive of 10,000 Copenhagen games of 40 plies
// each (one game in five still running), among 200 players of whom one
// plays 1,000 games. Before the daemon starts, its inbox gets 40 moves in
// running archived games, 8 "board" and 2 "history" requests, and
// "games" from the busiest player; the benchmark waits until the first
// poll has handled them all, then reads VmRSS and VmHWM from
// /proc/<pid>/status and stops the daemon with SIGTERM. It reports the
// largest figures of all runs (-benchtime Nx runs the daemon N times, each
// on a fresh copy of the archive).
//
// It builds the binary and fills the archive (about a minute), so it runs
// only with TAFLMAIL_BENCH_RSS=1:
//
//	TAFLMAIL_BENCH_RSS=1 go test -run '^$' -bench ServeRSS -benchtime 1x ./e2e/
//
// and fails when VmHWM reaches 100 MB, the target of docs/performance.md.
func BenchmarkServeRSS(b *testing.B) {
	if os.Getenv(rssEnv) != "1" {
		b.Skipf("set %s=1 to build taflmail and measure serve's memory over 10,000 archived games", rssEnv)
	}
	dir := b.TempDir()
	bin := filepath.Join(dir, "taflmail")
	build := exec.Command("go", "build", "-o", bin, "github.com/taflmail/taflmail/cmd/taflmail")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}

	const players = 200
	users := map[string]string{"tafl": "secret"}
	for i := range players {
		users[fmt.Sprintf("p%03d", i)] = "secret"
	}
	stack, err := devstack.Start("", users)
	if err != nil {
		b.Fatal(err)
	}
	defer stack.Close()

	start := time.Now()
	template := filepath.Join(dir, "template.db")
	running, info := fillArchive(b, template, stack, players)
	b.Logf("archive: %s in %v", info, time.Since(start).Round(time.Millisecond))

	var rss, hwm float64 // the largest of every run
	for i := 0; b.Loop(); i++ {
		r, h := serveOnce(b, bin, template, filepath.Join(dir, fmt.Sprintf("run%d", i)), stack, running)
		b.Logf("run %d: VmRSS %.1f MB, VmHWM %.1f MB", i+1, r, h)
		rss, hwm = max(rss, r), max(hwm, h)
	}
	b.ReportMetric(rss, "MB-VmRSS")
	b.ReportMetric(hwm, "MB-VmHWM")
	if hwm >= 100 {
		b.Errorf("taflmail serve peaked at %.1f MB resident (VmHWM), the target is < 100 MB", hwm)
	}
}

// runningGame is an archived game still being played, with the keys and
// the next legal move to mail.
type runningGame struct {
	id, attacker, attackerKey, defender, defenderKey, next string
}

// fillArchive writes 10,000 games of 40 plies to path (see
// BenchmarkServeRSS), in one transaction per 250 games, and returns the
// running ones and a line describing the file.
func fillArchive(b *testing.B, path string, stack *devstack.Stack, players int) ([]runningGame, string) {
	b.Helper()
	const games, plies, batch = 10000, 40, 250
	ctx := context.Background()
	st, err := archive.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var running []runningGame
	var c archive.Change
	for i := 0; i < players; i++ {
		c.Players = append(c.Players, archive.Player{Address: stack.Address(fmt.Sprintf("p%03d", i))})
	}
	for i := range games {
		stored, _, next := randomGame(b, "copenhagen", plies, rng)
		g := &archive.Game{
			ID: fmt.Sprintf("G%05d", i), Variant: "copenhagen",
			Attackers: stack.Address(fmt.Sprintf("p%03d", (i+1)%players)),
			Defenders: stack.Address(fmt.Sprintf("p%03d", (i*7+2)%players)),
			Status:    archive.Finished, Result: "attackers", Reason: "resignation",
			AttackerToken: fmt.Sprintf("a%09d", i), DefenderToken: fmt.Sprintf("d%09d", i),
			CreatedAt: t0.Add(time.Duration(i) * time.Minute),
		}
		if i%10 == 0 {
			g.Defenders = stack.Address("p000") // the busiest player: 1,000 games
		}
		if g.Attackers == g.Defenders {
			g.Attackers = stack.Address(fmt.Sprintf("p%03d", (i+3)%players))
		}
		g.Challenger = g.Attackers
		if i%5 == 0 {
			g.Status, g.Result, g.Reason = archive.Active, "", ""
			running = append(running, runningGame{g.ID, g.Attackers, g.AttackerToken, g.Defenders, g.DefenderToken, next})
		}
		ps := make([]archive.Ply, plies)
		for n := range ps {
			ps[n] = archive.Ply{N: n + 1, Move: stored[n], At: g.CreatedAt.Add(time.Duration(n) * time.Hour),
				MessageID: fmt.Sprintf("m%d.%d@player.test", i, n)}
		}
		if c.NewPlies == nil {
			c.NewPlies = map[string][]archive.Ply{}
		}
		c.Games = append(c.Games, g)
		c.NewPlies[g.ID] = ps
		if len(c.Games) == batch {
			if err := st.Commit(ctx, c); err != nil {
				b.Fatal(err)
			}
			c = archive.Change{}
		}
	}
	if err := st.Close(); err != nil {
		b.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return running, fmt.Sprintf("%d games, %d plies each, %d running, %.1f MB", games, plies, len(running), float64(fi.Size())/1e6)
}

// serveOnce copies the archive template to dir, fills the referee's inbox,
// runs `taflmail serve` until its first poll has handled every mail, and
// returns its VmRSS and VmHWM in MB.
func serveOnce(b *testing.B, bin, template, dir string, stack *devstack.Stack, running []runningGame) (rss, hwm float64) {
	b.Helper()
	b.StopTimer()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	db := filepath.Join(dir, "taflmail.db")
	copyFile(b, template, db)

	// A fresh referee account per run: its INBOX holds exactly this run's
	// mails, and Processed counts them.
	ref := fmt.Sprintf("ref%d", time.Now().UnixNano())
	if err := stack.AddUser(ref, "secret"); err != nil {
		b.Fatal(err)
	}
	refAddr := stack.Address(ref)
	seq := 0
	deliver := func(from, subject, body string) {
		seq++
		o := mailer.Outgoing{MessageID: fmt.Sprintf("rss.%s.%d@player.test", ref, seq), From: from, To: []string{refAddr},
			Subject: subject, Body: body + "\n", Headers: map[string]string{"Auto-Submitted": "no"}}
		raw, err := o.Bytes()
		if err != nil {
			b.Fatal(err)
		}
		if err := stack.Deliver(ref, raw); err != nil {
			b.Fatal(err)
		}
	}
	for i, g := range running[:40] {
		deliver(g.attacker, "Re: [taflmail "+g.id+" "+g.attackerKey+"] your move", "21. "+g.next)
		if i < 8 {
			deliver(g.defender, "[taflmail "+g.id+" "+g.defenderKey+"]", "board")
		}
		if i < 2 {
			deliver(g.defender, "[taflmail "+g.id+" "+g.defenderKey+"]", "history")
		}
	}
	deliver(stack.Address("p000"), "my games", "games")

	cmd := exec.Command(bin, "serve")
	cmd.Dir = dir
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + dir,
		"TAFLMAIL_IMAP_ADDR=" + stack.IMAPAddr(), "TAFLMAIL_IMAP_USERNAME=" + ref, "TAFLMAIL_IMAP_PASSWORD=secret",
		"TAFLMAIL_IMAP_SECURITY=none",
		"TAFLMAIL_SMTP_ADDR=" + stack.SMTPAddr(), "TAFLMAIL_SMTP_SECURITY=none",
		"TAFLMAIL_SERVER_ADDRESS=" + refAddr, "TAFLMAIL_SERVER_DOMAIN=" + stack.Domain(),
		"TAFLMAIL_ARCHIVE_PATH=" + db, "TAFLMAIL_ARCHIVE_RECORDS_DIR=" + filepath.Join(dir, "records"),
	}
	log := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	b.StartTimer()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	defer func() {
		cmd.Process.Kill() // after a failure; harmless once it exited
		<-exited
	}()

	// The first poll handles every mail in the inbox and moves it to
	// Processed: then the daemon has done its work.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		done, err := stack.MailboxMessages(ref, mailer.DefaultProcessedMailbox)
		if err == nil && len(done) == seq {
			break
		}
		select {
		case <-exited:
			b.Fatalf("taflmail serve exited: %v\n%s", waitErr, log.String())
		default:
		}
		if time.Now().After(deadline) {
			b.Fatalf("taflmail serve handled %d of %d mails in 2 minutes (%v)\n%s", len(done), seq, err, log.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	rss, hwm = procMB(b, cmd.Process.Pid, "VmRSS"), procMB(b, cmd.Process.Pid, "VmHWM")
	b.StopTimer()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		b.Fatal(err)
	}
	select {
	case <-exited:
		if waitErr != nil {
			b.Errorf("taflmail serve after SIGTERM: %v\n%s", waitErr, log.String())
		}
	case <-time.After(30 * time.Second):
		b.Errorf("taflmail serve did not stop within 30 s of SIGTERM")
	}
	if n := strings.Count(log.String(), "mail processed"); n != seq {
		b.Errorf("serve logged %d processed mails, want %d\n%s", n, seq, log.String())
	}
	if strings.Contains(log.String(), "level=ERROR") || strings.Contains(log.String(), "disposition=refused") {
		b.Errorf("serve logged errors or refusals:\n%s", log.String())
	}
	b.StartTimer()
	return rss, hwm
}

// procMB reads a "VmXXX:  1234 kB" line of /proc/<pid>/status in MB
// (10⁶ bytes).
func procMB(b *testing.B, pid int, field string) float64 {
	b.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || name != field {
			continue
		}
		kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
		if err != nil {
			b.Fatalf("%s: %q: %v", field, rest, err)
		}
		return kb * 1024 / 1e6
	}
	b.Fatalf("/proc/%d/status has no %s", pid, field)
	return 0
}

// lockedBuffer collects a child process's output; String may be called
// while the process still writes.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write implements io.Writer.
func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// String returns everything written so far.
func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func copyFile(b *testing.B, from, to string) {
	b.Helper()
	in, err := os.Open(from)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		b.Fatal(err)
	}
	if err := out.Close(); err != nil {
		b.Fatal(err)
	}
}
