package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/search"
	"github.com/taflmail/taflmail/server/internal/gameclock"
	"github.com/taflmail/taflmail/server/internal/opponent"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// Issue 18 §3: the engine queue is fair and bounded. The order is tested
// on the runner's own queue, without a clock (internal/engineturn); the
// quick slot here, through the real RunTimers with a search that waits
// until the test lets it go.

// TestEngineQuickSlot: through RunTimers, with the one general search
// slot held by a level-5 search that does not end until the test lets
// it, a level-1 game's engine ply is searched and committed. Before issue
// 18 the level-1 turn waited for the slot.
func TestEngineQuickSlot(t *testing.T) {
	h := newEngineHarness(t)
	hold := make(chan struct{})
	holding := make(chan struct{}, 4)
	h.srv.Opts.EngineSearch = func(ctx context.Context, pos *engine.Position, l search.Level, lim search.Limits) (search.Result, error) {
		if l == 5 {
			holding <- struct{}{}
			select {
			case <-hold:
			case <-ctx.Done():
				return search.Result{}, ctx.Err()
			}
		}
		return depthSearch(1)(ctx, pos, l, lim)
	}
	for i := range 3 {
		seedEngineTurnOf(t, h.srv, h.store, fmt.Sprintf("HIGH0%d", i), fmt.Sprintf("p%d@flood.test", i), 5, h.now)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := h.srv.RunTimers(ctx); err != nil {
		t.Fatal(err)
	}
	<-holding // a level-5 search holds the general slot
	seedEngineTurnOf(t, h.srv, h.store, "LOW001", "real@player.test", 1, h.now)
	if _, err := h.srv.RunTimers(ctx); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second) // a bound on a failing test, not a timing assertion
	for plyCount(t, h, "LOW001") == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := plyCount(t, h, "LOW001"); n != 1 {
		t.Fatalf("while a level-5 search holds the general slot the level-1 game has %d plies, want the engine's", n)
	}
	for _, id := range []string{"HIGH00", "HIGH01", "HIGH02"} {
		if n := plyCount(t, h, id); n != 0 {
			t.Fatalf("game %s has %d plies while its search is held", id, n)
		}
	}
	close(hold)
	h.srv.WaitWork() // the engine's turns under way
	for _, id := range []string{"HIGH00", "HIGH01", "HIGH02"} {
		if n := plyCount(t, h, id); n != 1 {
			t.Errorf("game %s has %d plies after its search was let go, want 1", id, n)
		}
	}
}

// seedEngineTurnOf stores a running Brandubh game of player against the
// engine at level, the engine (attackers) to move, its timer due at now.
func seedEngineTurnOf(tb testing.TB, srv *referee.Server, store *archive.Store, id, player string, level search.Level, now time.Time) {
	tb.Helper()
	g := &archive.Game{ID: id, Variant: "brandubh", Status: archive.Active, Attackers: referee.EngineAddress, Defenders: player,
		Challenger: player, DefenderToken: "d000000000", EngineLevel: int(level), StartedAt: now, CreatedAt: now}
	t, err := referee.Load(g)
	if err != nil {
		tb.Fatal(err)
	}
	plan, err := gameclock.TimerPlan(srv, t)
	if err != nil {
		tb.Fatal(err)
	}
	if err := store.Commit(context.Background(), archive.Change{Games: []*archive.Game{g}, Writes: []archive.Write{archive.TimerPlans{id: plan}}}); err != nil {
		tb.Fatal(err)
	}
}

// TestEngineOneGamePerMail: three differently worded lines asking for a
// game against the engine start one game; the other lines are refused
// with the reason. Before issue 18 they started three.
func TestEngineOneGamePerMail(t *testing.T) {
	h := newEngineHarness(t)
	sent := h.deliver(alice, "games", "new brandubh with engine\nnew tablut with computer level 1\nchallenge brandubh against engine as defenders", nil)
	gs, err := h.store.GamesOf(h.ctx(), alice)
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) != 1 {
		t.Fatalf("one mail of three engine challenges started %d games, want 1", len(gs))
	}
	var text strings.Builder
	for _, m := range sent {
		text.WriteString(m.msg.Text)
	}
	if n := strings.Count(text.String(), referee.Tr(referee.English, "err.engine.onemail")); n != 2 {
		t.Errorf("the replies give the reason %d times, want 2 (for the second and third line):\n%s", n, text.String())
	}
	// the next mail may start the next game
	if _, m := startEngineGame(t, h, "new tablut with engine level 1"); !strings.Contains(m.msg.Text, "starts now") {
		t.Errorf("a second mail's engine game was refused:\n%s", m.msg.Text)
	}
}

// TestEngineGlobalCap: Options.EngineMaxGames caps the running engine
// games of all players together; automatic (0), a new game at level L
// is taken while one ply of every running game at level L or below fits
// in EngineSearches × opponent.ServeWindow: level-5 games fill it for level
// 5, never for level 1. Refusals say why, and a finished game makes room.
func TestEngineGlobalCap(t *testing.T) {
	h := newEngineHarness(t)
	h.srv.Opts.EngineMaxGames = 2
	startEngineGame(t, h, "new brandubh with engine")
	if sent := h.deliver(bob, "x", "new brandubh with engine level 1", nil); !strings.Contains(to(t, sent, bob).Text, "starts now") {
		t.Fatalf("bob's game under a cap of 2 was refused:\n%s", texts(sent))
	}
	sent := h.deliver("carol@player.test", "x", "new brandubh with engine", nil)
	mustContain(t, "carol's refusal", to(t, sent, "carol@player.test").Text, referee.Tr(referee.English, "err.engine.cap", 2))

	// automatic: 100 s at level 5 on one search slot, 300 s in all: three
	// level-5 games
	a := newEngineHarness(t)
	a.srv.Opts.EngineThink = 100 * time.Second
	if got := opponent.LevelThink(a.srv, 5); got != 100*time.Second || opponent.ServeWindow != 5*time.Minute {
		t.Fatalf("level 5 thinks %v in a window of %v; the test wants 100 s and 5 min", got, opponent.ServeWindow)
	}
	var first sentMail
	for i := range 3 {
		addr := fmt.Sprintf("p%d@flood.test", i)
		sent := a.deliver(addr, "x", "new brandubh with engine level 5", nil)
		if !strings.Contains(to(t, sent, addr).Text, "starts now") {
			t.Fatalf("level-5 game %d of 3 refused:\n%s", i+1, texts(sent))
		}
		if i == 0 {
			first = sent[0]
		}
	}
	sent = a.deliver("p3@flood.test", "x", "new brandubh with engine level 5", nil)
	mustContain(t, "the fourth level-5 game's refusal", to(t, sent, "p3@flood.test").Text, referee.Tr(referee.English, "err.engine.busy", 5, 3, 5))
	a.replyTo("p0@flood.test", first, "resign")
	if sent := a.deliver("p3@flood.test", "x", "new brandubh with engine level 5", nil); !strings.Contains(to(t, sent, "p3@flood.test").Text, "starts now") {
		t.Errorf("after a level-5 game ended the next is refused:\n%s", texts(sent))
	}
	for _, level := range []int{1, 4} {
		addr := fmt.Sprintf("low%d@player.test", level)
		sent := a.deliver(addr, "x", fmt.Sprintf("new brandubh with engine level %d", level), nil)
		if !strings.Contains(to(t, sent, addr).Text, "starts now") {
			t.Errorf("a level-%d game was refused while level 5 is full:\n%s", level, texts(sent))
		}
	}
	sent = a.deliver("p4@flood.test", "x", "neu brandubh mit engine stufe 5", nil)
	mustContain(t, "German refusal", to(t, sent, "p4@flood.test").Text, referee.Tr(referee.German, "err.engine.busy", 5, 5, 5))
}
