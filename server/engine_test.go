package server

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/search"
	"github.com/taflmail/taflmail/server/internal/opponent"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// The engine opponent by mail (internal/opponent) through the real referee on a
// fake clock. The engine's search is replaced by searches to a fixed
// depth (deterministic and fast); where a test needs the engine to stand
// lost or worse, only the score of that real search is changed.

// engineSearchFunc is the type of Options.EngineSearch.
type engineSearchFunc = func(context.Context, *engine.Position, search.Level, search.Limits) (search.Result, error)

// depthSearch searches to depth plies with a fresh Searcher of the
// level's evaluation and a 1 MiB table, as the referee would with a
// depth limit.
func depthSearch(depth int) engineSearchFunc {
	return func(ctx context.Context, pos *engine.Position, l search.Level, _ search.Limits) (search.Result, error) {
		o := l.Options()
		o.TableBytes = 1 << 20
		return search.New(o).Search(ctx, pos, search.Limits{Depth: depth})
	}
}

// scored is depthSearch(2) whose result carries score instead.
func scored(score search.Score) engineSearchFunc {
	return func(ctx context.Context, pos *engine.Position, l search.Level, lim search.Limits) (search.Result, error) {
		r, err := depthSearch(2)(ctx, pos, l, lim)
		r.Score = score
		return r, err
	}
}

// newEngineHarness is a harness whose engine searches 2 plies deep. Its
// replies are never held for the engine's answer (Options.EngineReplyHold
// negative), so that these tests see each mail the moment it is made;
// engine_hold_test.go tests the hold.
func newEngineHarness(t *testing.T) *harness {
	h := newHarness(t)
	h.srv.Opts.EngineSearch = depthSearch(2)
	h.srv.Opts.EngineReplyHold = -1
	return h
}

// engineTurns fires the due timers and waits for the engine turns they
// start, until no engine timer is due; it returns the mails sent.
func (h *harness) engineTurns(srv *referee.Server) []sentMail {
	h.t.Helper()
	if srv == nil {
		srv = h.srv
	}
	before := len(h.sender.sent)
	for range 4 {
		if _, err := srv.RunTimers(context.Background()); err != nil {
			h.t.Fatalf("RunTimers: %v", err)
		}
		srv.WaitWork() // the engine's turns under way
		srv.FlushOutbox(context.Background())
		if !h.engineDue() {
			break
		}
	}
	return h.sender.sent[before:]
}

// engineDue reports whether an engine timer is due at the harness's now.
func (h *harness) engineDue() bool {
	h.t.Helper()
	due, err := h.store.DueTimers(context.Background(), h.now, 0)
	if err != nil {
		h.t.Fatal(err)
	}
	for _, tm := range due {
		if tm.Kind == archive.TimerEngine {
			return true
		}
	}
	return false
}

// startEngineGame sends cmd from alice and returns the game it started
// and alice's mail.
func startEngineGame(t *testing.T, h *harness, cmd string) (string, sentMail) {
	t.Helper()
	sent := h.deliver(alice, "a game", cmd, nil)
	if len(sent) != 1 || sent[0].to != alice {
		t.Fatalf("%q sent %d mails, want 1 (to alice):\n%s", cmd, len(sent), texts(sent))
	}
	id := referee.FindGame(sent[0].msg.Subject, "", nil).ID
	if id == "" {
		t.Fatalf("%q: the reply names no game:\n%s", cmd, sent[0].msg.Text)
	}
	return id, sent[0]
}

// tableOf loads game id as the referee does.
func (h *harness) tableOf(id string) *referee.Table {
	h.t.Helper()
	g, err := h.store.Game(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	t, err := referee.Load(g)
	if err != nil {
		h.t.Fatal(err)
	}
	return t
}

// firstMove returns the legal move of game id's side to move that sorts
// first: the player's move in these tests.
func (h *harness) firstMove(id string) string {
	h.t.Helper()
	ms := h.tableOf(id).Pos.LegalMoves(nil)
	if len(ms) == 0 {
		h.t.Fatalf("game %s: no legal move", id)
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].String() < ms[j].String() })
	return ms[0].String()
}

// wantMove returns the move a depth-2 search finds in game id now.
func (h *harness) wantMove(id string, level search.Level) engine.Move {
	h.t.Helper()
	r, err := depthSearch(2)(context.Background(), h.tableOf(id).Pos, level, search.Limits{})
	if err != nil {
		h.t.Fatal(err)
	}
	return r.Move
}

// noMailToEngine fails when any mail was queued for the engine's address.
func (h *harness) noMailToEngine() {
	h.t.Helper()
	for _, o := range h.outbox() {
		if slices.Contains(o.To, referee.EngineAddress) {
			h.t.Errorf("a mail was queued for the engine: %s", o.MessageID)
		}
	}
	for _, s := range h.sender.sent {
		if s.to == referee.EngineAddress {
			h.t.Errorf("a mail was sent to the engine: %s", s.msg.Subject)
		}
	}
}

// TestEngineGameByMail plays a whole Brandubh game against the engine at
// level 2 by mail: alice attacks, the game starts at once, each of her
// moves is answered by one mail with the engine's move (the move a
// depth-2 search finds in that position), the plies alternate between
// her mails and the engine, and the last mail carries the result and a
// record that reads back to the same plies.
func TestEngineGameByMail(t *testing.T) {
	h := newEngineHarness(t)
	ctx := context.Background()
	id, start := startEngineGame(t, h, "new brandubh with engine level 2")
	mustContain(t, "start mail", start.msg.Text, "against the engine (level 2) starts now", "You play the attackers",
		"Attackers: alice@player.test   Defenders: the engine (level 2)", "it is your move", "Your key for this game is")
	g, err := h.store.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != archive.Active || g.EngineLevel != 2 || g.Defenders != referee.EngineAddress || g.DefenderToken != "" || g.AttackerToken == "" {
		t.Fatalf("game = %+v; want active, level 2, the engine defending without a key", g)
	}
	if sent := h.engineTurns(nil); len(sent) != 0 {
		t.Fatalf("the engine replied before alice moved:\n%s", texts(sent))
	}
	var last sentMail
	for round := 0; ; round++ {
		if round == 150 {
			t.Fatalf("no result after %d plies", 2*round)
		}
		mv := h.firstMove(id)
		sent := h.reply(alice, mv)
		if len(sent) != 1 {
			t.Fatalf("round %d: alice's move %s sent %d mails:\n%s", round, mv, len(sent), texts(sent))
		}
		st := h.state(id)
		if len(st.Plies) != 2*round+1 {
			t.Fatalf("round %d: alice's move %s was not played: %d plies\n%s", round, mv, len(st.Plies), texts(sent))
		}
		if st.Status == archive.Finished {
			last = sent[0]
			break
		}
		want := h.wantMove(id, 2)
		sent = h.engineTurns(nil)
		if len(sent) != 1 || sent[0].to != alice {
			t.Fatalf("round %d: the engine's reply: %d mails\n%s", round, len(sent), texts(sent))
		}
		st = h.state(id)
		if len(st.Plies) != 2*round+2 {
			t.Fatalf("round %d: %d plies after the engine's turn, want %d", round, len(st.Plies), 2*round+2)
		}
		ply := st.Plies[len(st.Plies)-1]
		if !strings.Contains(ply, want.String()) {
			t.Fatalf("round %d: the engine played %s, a depth-2 search finds %s", round, ply, want)
		}
		mustContain(t, "the engine's reply", sent[0].msg.Text, "The engine played "+ply+".", "Moves so far:")
		if st.Status == archive.Finished {
			last = sent[0]
			break
		}
		mustContain(t, "the engine's reply", sent[0].msg.Text, "it is your move")
	}
	g, err = h.store.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range g.Plies {
		if engineMoved := i%2 == 1; engineMoved != (p.MessageID == "") {
			t.Errorf("ply %d %s: message id %q; the engine plays the even plies, alice's mails the odd", i+1, p.Move, p.MessageID)
		}
	}
	rec, err := h.tableOf(id).Record()
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "the last mail", last.msg.Text, "The game is over", "The complete record:", strings.TrimSpace(rec))
	games, err := notation.ReadGames(id+".tafl", []byte(rec), notation.ReadOptions{})
	if err != nil || len(games) != 1 {
		t.Fatalf("the record does not read: %v\n%s", err, rec)
	}
	r := games[0].Replay()
	if r.Err() != nil || r.Final == nil || r.Final.Key() != h.tableOf(id).Pos.Key() || len(r.Plies) != len(g.Plies) {
		t.Errorf("the record does not replay to the game's %d plies and position: %v\n%s", len(g.Plies), r.Err(), rec)
	}
	mustContain(t, "the record", rec, `[Defenders "`+referee.EngineAddress+`"]`)
	if timers := h.timersOf(id); len(timers) != 0 {
		t.Errorf("a finished game keeps timers: %+v", timers)
	}
	h.noMailToEngine()
}

// TestEngineAsAttackers: alice defends, in German, so the engine opens:
// her start mail says the attackers are to move, the engine's first ply
// follows through the scheduler, then it is her move; both in German.
func TestEngineAsAttackers(t *testing.T) {
	h := newEngineHarness(t)
	id, start := startEngineGame(t, h, "neu brandubh mit engine stufe 1 als verteidiger")
	mustContain(t, "start mail", start.msg.Text, "gegen die Engine (Stufe 1) beginnt jetzt", "Du spielst die Verteidiger",
		"Angreifer: die Engine (Stufe 1)   Verteidiger: alice@player.test", "Angreifer am Zug")
	if g := h.tableOf(id).Game; g.Attackers != referee.EngineAddress || g.AttackerToken != "" || g.EngineLevel != 1 {
		t.Fatalf("game = %+v; want the engine attacking at level 1 without a key", g)
	}
	timers := h.timersOf(id)
	if len(timers) != 1 || timers[0].Kind != archive.TimerEngine || timers[0].Key != "ply 1 engine" || !timers[0].Due.Equal(h.now) {
		t.Fatalf("timers = %+v; want only the engine's reply, due at once", timers)
	}
	want := h.wantMove(id, 1)
	sent := h.engineTurns(nil)
	if len(sent) != 1 {
		t.Fatalf("the engine's first ply: %d mails\n%s", len(sent), texts(sent))
	}
	st := h.state(id)
	if len(st.Plies) != 1 || !strings.Contains(st.Plies[0], want.String()) {
		t.Fatalf("plies = %v; want the engine's %s", st.Plies, want)
	}
	mustContain(t, "the engine's ply", sent[0].msg.Text, "Die Engine hat "+st.Plies[0]+" gezogen.", "du bist am Zug")
	mustContain(t, "the engine's ply", sent[0].msg.Subject, "[taflmail "+id+" ")
	if sent := h.engineTurns(nil); len(sent) != 0 || len(h.state(id).Plies) != 1 {
		t.Fatalf("the engine played again without alice's move:\n%s", texts(sent))
	}
	h.reply(alice, h.firstMove(id))
	if sent := h.engineTurns(nil); len(sent) != 1 || len(h.state(id).Plies) != 3 {
		t.Fatalf("after alice's ply: %d mails, plies %v", len(sent), h.state(id).Plies)
	}
	h.noMailToEngine()
}

// TestEngineDrawOffers: the engine declines a draw offer in an even
// position, made with alice's move (it answers and moves) or on her own
// turn (it answers without moving, a second offer in the same turn too);
// it accepts when its search scores it an attacker or more behind, on
// its turn and on hers, and the game ends drawn with the record.
func TestEngineDrawOffers(t *testing.T) {
	t.Run("declined with a move", func(t *testing.T) {
		h := newEngineHarness(t)
		id, _ := startEngineGame(t, h, "new brandubh with engine")
		h.reply(alice, h.firstMove(id)+"\noffer draw")
		if got := h.state(id).DrawOfferBy; got != "attackers" {
			t.Fatalf("draw offer by %q, want attackers", got)
		}
		sent := h.engineTurns(nil)
		st := h.state(id)
		if len(sent) != 1 || len(st.Plies) != 2 || st.DrawOfferBy != "" || st.Status != archive.Active {
			t.Fatalf("after the engine's turn: %v, %d mails\n%s", st, len(sent), texts(sent))
		}
		mustContain(t, "the engine's reply", sent[0].msg.Text, "The engine declines your draw offer.", "The engine played "+st.Plies[1])
	})
	t.Run("declined on her turn, twice", func(t *testing.T) {
		h := newEngineHarness(t)
		id, _ := startEngineGame(t, h, "new brandubh with engine")
		for i := range 2 {
			h.reply(alice, "offer draw")
			sent := h.engineTurns(nil)
			st := h.state(id)
			if len(sent) != 1 || len(st.Plies) != 0 || st.DrawOfferBy != "" || st.Status != archive.Active {
				t.Fatalf("offer %d: %v, %d mails\n%s", i+1, st, len(sent), texts(sent))
			}
			mustContain(t, "the engine's answer", sent[0].msg.Text, "The engine declines your draw offer.", "it is your move")
		}
		// the offer is answered without a ply; the game goes on with hers
		h.reply(alice, h.firstMove(id))
		if sent := h.engineTurns(nil); len(sent) != 1 || len(h.state(id).Plies) != 2 {
			t.Fatalf("the game does not go on: %d mails, plies %v", len(sent), h.state(id).Plies)
		}
	})
	t.Run("accepted on its turn", func(t *testing.T) {
		h := newEngineHarness(t)
		h.srv.Opts.EngineSearch = scored(-300)
		id, _ := startEngineGame(t, h, "new brandubh with engine level 4")
		h.reply(alice, h.firstMove(id)+"\noffer draw")
		sent := h.engineTurns(nil)
		st := h.state(id)
		if st.Status != archive.Finished || st.Result != "draw" || st.Reason != "draw agreed" || len(st.Plies) != 1 {
			t.Fatalf("after the engine's turn: %v\n%s", st, texts(sent))
		}
		mustContain(t, "the engine's answer", sent[0].msg.Text, "The engine accepts your draw offer.", "a draw", "The complete record:")
	})
	t.Run("accepted on her turn", func(t *testing.T) {
		h := newEngineHarness(t)
		h.srv.Opts.EngineSearch = scored(+300) // alice's view: the engine stands 3 attackers worse
		id, _ := startEngineGame(t, h, "new brandubh with engine")
		h.reply(alice, "offer draw")
		sent := h.engineTurns(nil)
		if st := h.state(id); st.Status != archive.Finished || st.Result != "draw" || len(st.Plies) != 0 {
			t.Fatalf("after the engine's answer: %v\n%s", st, texts(sent))
		}
		mustContain(t, "the engine's answer", sent[0].msg.Text, "The engine accepts your draw offer.")
	})
	t.Run("a proven win plays on", func(t *testing.T) {
		h := newEngineHarness(t)
		h.srv.Opts.EngineSearch = scored(search.Win - 5)
		id, _ := startEngineGame(t, h, "new brandubh with engine")
		h.reply(alice, h.firstMove(id)+"\noffer draw")
		sent := h.engineTurns(nil)
		if st := h.state(id); st.Status != archive.Active || len(st.Plies) != 2 {
			t.Fatalf("the engine with a win: %v\n%s", st, texts(sent))
		}
		mustContain(t, "the engine's reply", sent[0].msg.Text, "The engine declines your draw offer.")
	})
}

// TestEngineResigns: the engine resigns when its search proves a loss or
// scores it hopeless, on its turn; alice wins by resignation and gets the
// record. An engine merely worse plays on.
func TestEngineResigns(t *testing.T) {
	for _, tt := range []struct {
		score  search.Score
		resign bool
	}{
		{-(search.Win - 3), true},
		{search.ResignScore, true},
		{search.ResignScore + 1, false},
	} {
		t.Run(tt.score.String(), func(t *testing.T) {
			h := newEngineHarness(t)
			h.srv.Opts.EngineSearch = scored(tt.score)
			id, _ := startEngineGame(t, h, "new brandubh with engine level 5 as attackers")
			h.reply(alice, h.firstMove(id))
			sent := h.engineTurns(nil)
			st := h.state(id)
			if !tt.resign {
				if st.Status != archive.Active || len(st.Plies) != 2 {
					t.Fatalf("score %s: %v, want a ply", tt.score, st)
				}
				return
			}
			if st.Status != archive.Finished || st.Result != "attackers" || st.Reason != "resignation" || len(st.Plies) != 1 {
				t.Fatalf("score %s: %v, want alice (attackers) winning by resignation", tt.score, st)
			}
			mustContain(t, "the engine's resignation", sent[0].msg.Text, "The engine resigns", "the defenders resigned", "The complete record:")
			if timers := h.timersOf(id); len(timers) != 0 {
				t.Errorf("timers after the end: %+v", timers)
			}
		})
	}
}

// TestEngineKilledWhileThinking: the daemon dies while the engine
// thinks: nothing is committed, the timer stays pending, and after the
// restart the engine searches again and plays one ply. A second process
// whose search of the same turn ends after the first one's commit adds
// no second ply and no second mail.
func TestEngineKilledWhileThinking(t *testing.T) {
	h := newEngineHarness(t)
	id, _ := startEngineGame(t, h, "new brandubh with engine")
	h.reply(alice, h.firstMove(id))
	started := make(chan struct{}, 2)
	release := make(chan struct{})
	blocking := func(ctx context.Context, pos *engine.Position, l search.Level, lim search.Limits) (search.Result, error) {
		started <- struct{}{}
		select {
		case <-ctx.Done():
			return search.Result{}, ctx.Err()
		case <-release:
		}
		return depthSearch(2)(context.Background(), pos, l, lim)
	}

	// kill -9 while thinking
	h.srv.Opts.EngineSearch = blocking
	killed := h.restart(h.store, nil)
	kctx, kill := context.WithCancel(context.Background())
	if _, err := killed.RunTimers(kctx); err != nil {
		t.Fatal(err)
	}
	<-started
	if d := killed.UntilNextTimer(context.Background()); d != killed.Opts.WaitCap {
		t.Errorf("while the engine thinks, Run waits %v, want WaitCap (the search's end wakes it)", d)
	}
	kill()
	killed.WaitWork() // the engine's turns under way
	killed.FlushOutbox(context.Background())
	if st := h.state(id); len(st.Plies) != 1 {
		t.Fatalf("the killed search committed: %v", st)
	}
	if !h.engineDue() {
		t.Fatal("the engine's timer is not pending after the kill")
	}

	// two processes: the first's search ends after the second committed
	slow := h.restart(h.store, nil)
	if _, err := slow.RunTimers(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-started
	h.srv.Opts.EngineSearch = depthSearch(2)
	restarted := h.restart(h.store, nil)
	sent := h.engineTurns(restarted)
	if len(sent) != 1 || len(h.state(id).Plies) != 2 {
		t.Fatalf("after the restart: %d mails, plies %v", len(sent), h.state(id).Plies)
	}
	close(release)
	slow.WaitWork() // the engine's turns under way
	slow.FlushOutbox(context.Background())
	sent = h.engineTurns(restarted)
	if st := h.state(id); len(st.Plies) != 2 || len(sent) != 0 {
		t.Fatalf("the late search of the same turn changed the game: %v\n%s", st, texts(sent))
	}
	engineMails := 0
	for _, o := range h.outbox() {
		if strings.Contains(string(o.Raw), "The engine played") {
			engineMails++
		}
	}
	if engineMails != 1 {
		t.Errorf("%d mails with the engine's ply queued, want 1", engineMails)
	}
}

// TestEngineForgedFrom: a mail From the engine's address, even in the
// game's thread with a move, is ignored unanswered; nobody can challenge
// the engine's address as a person, or start a pairing with it.
func TestEngineForgedFrom(t *testing.T) {
	h := newEngineHarness(t)
	id, _ := startEngineGame(t, h, "new brandubh with engine as defenders")
	h.engineTurns(nil) // the engine opens
	before := h.state(id)
	sentBefore := len(h.sender.sent)
	subject := h.last(alice).msg.Subject
	h.deliver(referee.EngineAddress, "Re: "+subject, h.firstMove(id)+"\nresign", nil)
	h.deliver("Engine@TaflMail.Invalid", "Re: "+subject, "offer draw", nil)
	h.unchanged("mail forged from the engine", id, before)
	if len(h.sender.sent) != sentBefore {
		t.Errorf("mail forged from the engine was answered:\n%s", texts(h.sender.sent[sentBefore:]))
	}
	mails, err := h.store.Mails(context.Background(), archive.MailFilter{From: referee.EngineAddress})
	if err != nil || len(mails) != 2 {
		t.Fatalf("mails from the engine recorded: %+v, %v", mails, err)
	}
	for _, m := range mails {
		if m.Disposition != referee.Ignored || !strings.Contains(m.Reason, "sent as the engine") || m.Authenticated {
			t.Errorf("mail from the engine recorded as %+v", m)
		}
	}

	sent := h.deliver(bob, "x", "new brandubh with "+referee.EngineAddress, nil)
	mustContain(t, "challenge to the engine's address", to(t, sent, bob).Text, "is not a mail address I can invite")
	if _, err := h.srv.StartGames(context.Background(), []referee.GameStart{{Variant: "brandubh", Attackers: bob, Defenders: referee.EngineAddress}}); err == nil {
		t.Error("StartGames paired a player with the engine's address")
	}
	h.noMailToEngine()
}

// TestEngineGamesCap: a player may run DefaultEngineGames games against
// the engine; the next is refused with the reason and the games; one
// finished makes room. With Options.EngineGames negative there are none.
func TestEngineGamesCap(t *testing.T) {
	h := newEngineHarness(t)
	var ids []string
	var starts []sentMail
	for i := 0; i < referee.DefaultEngineGames; i++ {
		id, m := startEngineGame(t, h, "new brandubh with engine")
		ids, starts = append(ids, id), append(starts, m)
	}
	sent := h.deliver(alice, "one more", "new tablut with engine", nil)
	mustContain(t, "refusal", to(t, sent, alice).Text,
		fmt.Sprintf("You are playing %d games against the engine already (%s); %d at a time is the most.",
			referee.DefaultEngineGames, strings.Join(sortedIDs(h, ids), ", "), referee.DefaultEngineGames))
	h.replyTo(alice, starts[0], "resign")
	if st := h.state(ids[0]); st.Status != archive.Finished {
		t.Fatalf("alice's resignation: %v", st)
	}
	if _, mail := startEngineGame(t, h, "new tablut with engine"); !strings.Contains(mail.msg.Text, "starts now") {
		t.Errorf("after a resignation the next game is refused:\n%s", mail.msg.Text)
	}
	// bob's games are his own
	if sent := h.deliver(bob, "x", "new brandubh with engine", nil); !strings.Contains(to(t, sent, bob).Text, "starts now") {
		t.Errorf("bob's first engine game refused:\n%s", texts(sent))
	}

	off := newEngineHarness(t)
	off.srv.Opts.EngineGames = 0 // what New makes of a negative value
	sent = off.deliver(alice, "x", "neu brandubh mit engine", nil)
	mustContain(t, "switched off", to(t, sent, alice).Text, "Partien gegen die Engine sind auf diesem Server abgeschaltet.")
}

// sortedIDs lists ids in the order GamesOf returns them.
func sortedIDs(h *harness, ids []string) []string {
	gs, err := h.store.GamesOf(context.Background(), alice)
	if err != nil {
		h.t.Fatal(err)
	}
	var out []string
	for _, g := range gs {
		if slices.Contains(ids, g.ID) {
			out = append(out, g.ID)
		}
	}
	return out
}

// TestEngineLevelRefused: levels outside 1 to 5, a level with a
// person's address, and a rated game against the engine (ratings are
// between people; before the fix "rated" was accepted and silently not
// rated) are refused with the reason, in English and German; nothing is
// started.
func TestEngineLevelRefused(t *testing.T) {
	h := newEngineHarness(t)
	for _, tt := range []struct{ cmd, want string }{
		{"new brandubh with engine level 0", "There is no level 0: the engine plays at levels 1 (weakest) to 5 (strongest)."},
		{"new brandubh with engine level 6", "There is no level 6"},
		{"new brandubh with engine level 4000000", "There is no level 4000000"},
		{"neu brandubh mit engine stufe 7", "Eine Stufe 7 gibt es nicht: die Engine spielt auf den Stufen 1 (die schwächste) bis 5 (die stärkste)."},
		{"new brandubh with bob@player.test level 3", "A level is for a game against the engine"},
		{"new brandubh with engine as kings", `"kings" is not a side`},
		{"new brandubh with engine level 2 rated", referee.Tr(referee.English, "err.engine.rated")},
		{"neu brandubh mit engine gewertet", referee.Tr(referee.German, "err.engine.rated")},
	} {
		sent := h.deliver(alice, "x", tt.cmd, nil)
		mustContain(t, tt.cmd, to(t, sent, alice).Text, tt.want)
		if len(sent) != 1 {
			t.Errorf("%q sent %d mails", tt.cmd, len(sent))
		}
	}
	if gs, err := h.store.GamesOf(context.Background(), alice); err != nil || len(gs) != 0 {
		t.Errorf("refused challenges made games: %d, %v", len(gs), err)
	}
}

// TestEngineTimed: in a timed game the engine's clock is charged from
// the start of its turn to its ply's arrival (the search's time, rounded
// up to a second), it has no reminder or deadline of its own, and
// alice's deadline follows its ply.
func TestEngineTimed(t *testing.T) {
	h := newEngineHarness(t)
	id, start := startEngineGame(t, h, "new brandubh with engine level 3 as defenders time 1d+0d")
	mustContain(t, "start mail", start.msg.Text, "Time control: 1d+0d", "Clocks (1d+0d)")
	turn := h.now
	h.now = turn.Add(10 * time.Minute) // the search waited for a slot, or the daemon was down
	h.engineTurns(nil)
	g := h.tableOf(id).Game
	if len(g.Plies) != 1 {
		t.Fatalf("plies %v", g.Plies)
	}
	if p := g.Plies[0]; !p.At.Equal(turn.Add(time.Second)) || !p.Avail.Equal(h.now) {
		t.Errorf("the engine's ply arrived %v, committed %v; want %v and %v", p.At, p.Avail, turn.Add(time.Second), h.now)
	}
	st := h.stateOf(id)
	if st.Clock[engine.Attackers] != day-time.Second || !st.Since.Equal(h.now) {
		t.Errorf("after the engine's ply: its clock %v, alice's turn since %v; want 1d-1s and the commit %v", st.Clock[engine.Attackers], st.Since, h.now)
	}
	if dl := h.deadlineOf(id); !dl.Equal(h.now.Add(day + time.Second)) {
		t.Errorf("alice's deadline %v, want a day after the commit", dl)
	}
	mustContain(t, "the engine's reply", h.last(alice).msg.Text, "Clocks (1d+0d): attackers 23h59min left, defenders 1d left.")
}

// TestEngineRunWakes: Run, with a WaitCap of an hour, sends the engine's
// reply as soon as its search ends, on the real clock.
func TestEngineRunWakes(t *testing.T) {
	h := newEngineHarness(t)
	h.now = time.Now().UTC().Truncate(time.Second).Add(-time.Minute)
	h.step = time.Second
	id, _ := startEngineGame(t, h, "new brandubh with engine as defenders")
	in := newFakeInbox()
	srv := h.restart(h.store, in)
	srv.Opts.Now = time.Now
	srv.Opts.WaitCap = time.Hour
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	for ctx.Err() == nil {
		time.Sleep(20 * time.Millisecond)
		if out, _ := h.store.Outbox(context.Background(), archive.Sent); sentContaining(out, "The engine played") > 0 {
			break
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	out, _ := h.store.Outbox(context.Background(), archive.Sent)
	if n := sentContaining(out, "The engine played"); n != 1 {
		t.Fatalf("Run sent %d mails with the engine's ply within 30 s, want 1", n)
	}
	if st := h.state(id); len(st.Plies) != 1 {
		t.Errorf("plies %v, want the engine's first", st.Plies)
	}
}

// sentContaining counts the outbox mails whose text contains s.
func sentContaining(out []archive.OutboxMail, s string) int {
	n := 0
	for _, m := range out {
		if strings.Contains(string(m.Raw), s) {
			n++
		}
	}
	return n
}

// TestEngineThinkTime: the engine's think time per level scales
// Options.EngineThink by search's level table, and a timed game leaves
// it at most a twentieth of its clock.
func TestEngineThinkTime(t *testing.T) {
	h := newEngineHarness(t)
	h.srv.Opts.EngineThink = 20 * time.Second
	id, _ := startEngineGame(t, h, "new brandubh with engine as defenders")
	tb := h.tableOf(id)
	st := h.stateOf(id)
	if _, ok := opponent.PlyThinkTime(h.srv, search.MinLevel, tb, st); !ok {
		t.Fatalf("the engine owes no ply in %s", id)
	}
	for l := search.MinLevel; l <= search.MaxLevel; l++ {
		want := 2 * l.Spec().Think
		if got, _ := opponent.PlyThinkTime(h.srv, l, tb, st); got != want {
			t.Errorf("level %d thinks %v, want %v", l, got, want)
		}
	}
	id, _ = startEngineGame(t, h, "new brandubh with engine as defenders time 3m+0m")
	tb, st = h.tableOf(id), h.stateOf(id)
	if got, _ := opponent.PlyThinkTime(h.srv, 5, tb, st); got != 9*time.Second {
		t.Errorf("level 5 with 3m on its clock thinks %v, want 9s", got)
	}
}

// TestEngineCommitFaults: the engine's reply meets the archive failing
// while it reads the game (to queue the turn, for the search, or again
// for the commit), at
// its commit (before the commit took effect, after it did with the
// process killed, or a conflict). A failure before the commit leaves no
// ply, no mail and the timer pending; the next RunTimers tries the turn
// again. In the end, also after a restart, there is exactly one engine
// ply, one mail with it and no engine timer due.
func TestEngineCommitFaults(t *testing.T) {
	for _, tc := range []struct {
		name, op  string
		faults    []fault
		committed bool // the first attempt took effect
	}{
		{"game-for-queue", "Game", []fault{{err: errUnavailable}}, false}, // queuedTurnOf (issue 18 §3)
		{"game-for-search", "Game", []fault{{}, {err: errUnavailable}}, false},
		{"game-for-commit", "Game", []fault{{}, {}, {err: errUnavailable}}, false},
		{"commit", "Commit", []fault{{err: errUnavailable}}, false},
		{"killed-at-commit", "Commit", []fault{{err: errKilled}}, false},
		{"killed-after-commit", "Commit", []fault{{err: errKilled, after: true}}, true},
		{"conflict", "Commit", []fault{{err: errConflict}}, true}, // decided again at once
		{"conflict-thrice", "Commit", []fault{{err: errConflict}, {err: errConflict}, {err: errConflict}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newEngineHarness(t)
			id, _ := startEngineGame(t, h, "new brandubh with engine as defenders")
			fs := h.withFaults()
			fs.inject(tc.op, tc.faults...)
			srv := h.restart(fs, nil)
			ctx := context.Background()
			if _, err := srv.RunTimers(ctx); err != nil {
				t.Fatalf("RunTimers: %v", err)
			}
			srv.WaitWork() // the engine's turns under way
			srv.FlushOutbox(ctx)
			fs.mu.Lock()
			left := len(fs.faults[tc.op])
			fs.mu.Unlock()
			if left != 0 {
				t.Fatalf("%d of the injected %s faults never fired", left, tc.op)
			}
			plies, want := len(h.state(id).Plies), 0
			if tc.committed {
				want = 1
			}
			if plies != want || h.engineDue() == tc.committed {
				t.Fatalf("after the failed attempt: %d plies (want %d), engine timer due %v", plies, want, h.engineDue())
			}
			if n := sentContaining(h.outbox(), "The engine played"); n != want {
				t.Fatalf("after the failed attempt: %d mails with the engine's ply, want %d", n, want)
			}

			h.engineTurns(srv) // the same process tries again
			h.engineTurns(h.restart(h.store, nil))
			if st := h.state(id); len(st.Plies) != 1 {
				t.Fatalf("plies %v, want the engine's one", st.Plies)
			}
			if n := sentContaining(h.outbox(), "The engine played"); n != 1 {
				t.Errorf("%d mails with the engine's ply queued, want 1", n)
			}
			if h.engineDue() {
				t.Error("the engine's timer is still due")
			}
			h.noMailToEngine()
		})
	}
}
