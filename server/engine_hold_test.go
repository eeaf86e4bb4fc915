package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/search"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// The reply to a move against the engine waits for the engine's answer
// (internal/opponent/engine_hold.go, issue 22 §5), on the harness's clock.

// newHoldHarness is an engine harness with the default reply hold (30 s)
// and a clock that moves a second before each mail.
func newHoldHarness(t *testing.T) *harness {
	h := newHarness(t)
	h.srv.Opts.EngineSearch = depthSearch(2)
	h.step = time.Second
	if h.srv.Opts.EngineReplyHold != referee.DefaultEngineReplyHold {
		t.Fatalf("EngineReplyHold %v, want the default %v", h.srv.Opts.EngineReplyHold, referee.DefaultEngineReplyHold)
	}
	return h
}

// pendingOutbox returns every pending outbox mail, due or not.
func (h *harness) pendingOutbox() []archive.OutboxMail {
	h.t.Helper()
	out, err := h.store.Outbox(context.Background(), archive.Pending)
	if err != nil {
		h.t.Fatal(err)
	}
	return out
}

// TestEngineHoldOneMail: a quick engine answers within the hold, so each
// of alice's moves brings exactly one mail: her move acknowledged, the
// engine's ply, her turn, the board after both, in the thread of her
// mail; the held reply is gone from the outbox. Three rounds.
func TestEngineHoldOneMail(t *testing.T) {
	h := newHoldHarness(t)
	id, _ := startEngineGame(t, h, "new brandubh with engine level 2")
	for round := range 3 {
		mv := h.firstMove(id)
		if sent := h.reply(alice, mv); len(sent) != 0 {
			t.Fatalf("round %d: alice's move %s sent %d mails at once, want its reply held:\n%s", round, mv, len(sent), texts(sent))
		}
		held := h.pendingOutbox()
		if len(held) != 1 || held[0].HeldFor != fmt.Sprintf("ply %d engine", 2*round+2) || !held[0].NextAttempt.Equal(h.now.Add(30*time.Second)) {
			t.Fatalf("round %d: pending %+v, want alice's reply held 30 s for the engine's ply %d", round, held, 2*round+2)
		}
		moveID := fmt.Sprintf("m%d@player.test", h.seq) // the Message-ID of her move's mail
		want := h.wantMove(id, 2)
		sent := h.engineTurns(nil)
		if len(sent) != 1 || sent[0].to != alice {
			t.Fatalf("round %d: the engine's turn sent %d mails, want one to alice:\n%s", round, len(sent), texts(sent))
		}
		text := sent[0].msg.Text
		mustContain(t, "the one mail", text, "You played "+mv+".", "The engine played "+want.String(), "it is your move", "Your key for this game is")
		mustNotContain(t, "the one mail", text, "you will hear from me")
		if sent[0].msg.InReplyTo != moveID {
			t.Errorf("round %d: the one mail answers %q, want alice's move %q", round, sent[0].msg.InReplyTo, moveID)
		}
		if n := len(h.state(id).Plies); n != 2*round+2 {
			t.Fatalf("round %d: %d plies", round, n)
		}
		if p := h.pendingOutbox(); len(p) != 0 {
			t.Errorf("round %d: %d mails still pending: the held reply was not replaced", round, len(p))
		}
	}
	if n := len(h.sentTo(alice)); n != 4 {
		t.Errorf("alice got %d mails, want 4: the start and one per move", n)
	}
}

// sentTo returns the mails sent to addr.
func (h *harness) sentTo(addr string) []sentMail {
	var out []sentMail
	for _, s := range h.sender.sent {
		if s.to == addr {
			out = append(out, s)
		}
	}
	return out
}

// TestEngineHoldSlowEngine: an engine that answers after the hold (the
// clock moved 31 s on) finds the held reply sent: alice gets it ("you
// will hear from me"), then the engine's ply in a mail of its own that
// repeats nothing of it.
func TestEngineHoldSlowEngine(t *testing.T) {
	h := newHoldHarness(t)
	id, _ := startEngineGame(t, h, "new brandubh with engine level 2")
	mv := h.firstMove(id)
	if sent := h.reply(alice, mv); len(sent) != 0 {
		t.Fatalf("alice's move sent %d mails at once, want its reply held", len(sent))
	}
	h.now = h.now.Add(31 * time.Second)
	h.srv.FlushOutbox(context.Background())
	note := h.last(alice)
	mustContain(t, "the held reply", note.msg.Text, "You played "+mv+".", "you will hear from me")
	sent := h.engineTurns(nil)
	if len(sent) != 1 {
		t.Fatalf("the engine's turn sent %d mails, want 1:\n%s", len(sent), texts(sent))
	}
	mustContain(t, "the engine's mail", sent[0].msg.Text, "The engine played", "it is your move")
	mustNotContain(t, "the engine's mail", sent[0].msg.Text, "You played "+mv+".")
	if n := len(h.sentTo(alice)); n != 3 {
		t.Errorf("alice got %d mails, want 3: the start, the held reply, the engine's ply", n)
	}
	if p := h.pendingOutbox(); len(p) != 0 {
		t.Errorf("%d mails still pending", len(p))
	}
}

// TestEngineHoldEngineFails: when the engine's search fails (its turn is
// parked until a restart), the held reply is not lost: it goes out once
// its hold is over, and nothing else does.
func TestEngineHoldEngineFails(t *testing.T) {
	h := newHoldHarness(t)
	id, _ := startEngineGame(t, h, "new brandubh with engine level 2")
	h.srv.Opts.EngineSearch = func(context.Context, *engine.Position, search.Level, search.Limits) (search.Result, error) {
		return search.Result{}, errors.New("the search broke")
	}
	mv := h.firstMove(id)
	if sent := h.reply(alice, mv); len(sent) != 0 {
		t.Fatalf("alice's move sent %d mails at once, want its reply held", len(sent))
	}
	if sent := h.engineTurns(nil); len(sent) != 0 {
		t.Fatalf("the failed turn sent %d mails:\n%s", len(sent), texts(sent))
	}
	h.now = h.now.Add(30 * time.Second)
	h.srv.FlushOutbox(context.Background())
	if n := len(h.sentTo(alice)); n != 2 {
		t.Fatalf("alice got %d mails, want the start and the held reply", n)
	}
	mustContain(t, "the held reply", h.last(alice).msg.Text, "You played "+mv+".", "you will hear from me")
	if n := len(h.state(id).Plies); n != 1 {
		t.Errorf("%d plies, want alice's alone", n)
	}
}

// TestEngineHoldRestart: the daemon stops between alice's commit and the
// engine's: the held reply is in the archive, and the engine's reply
// after the restart takes its place, one mail as without the stop.
func TestEngineHoldRestart(t *testing.T) {
	h := newHoldHarness(t)
	id, _ := startEngineGame(t, h, "new brandubh with engine level 2")
	mv := h.firstMove(id)
	h.reply(alice, mv)
	srv := h.restart(h.store, nil) // the first process never ran its engine turn
	sent := h.engineTurns(srv)
	if len(sent) != 1 {
		t.Fatalf("after the restart the engine's turn sent %d mails, want 1:\n%s", len(sent), texts(sent))
	}
	mustContain(t, "the one mail", sent[0].msg.Text, "You played "+mv+".", "The engine played")
	if n := len(h.sentTo(alice)); n != 2 {
		t.Errorf("alice got %d mails, want the start and the one mail", n)
	}
}

// TestEngineHoldEngineFirst: when the engine opens (alice defends), the
// start mail waits for its first ply: one mail with the start, her key,
// the engine's ply and her turn.
func TestEngineHoldEngineFirst(t *testing.T) {
	h := newHoldHarness(t)
	if sent := h.deliver(alice, "a game", "new brandubh with engine level 1 as defenders", nil); len(sent) != 0 {
		t.Fatalf("the start sent %d mails at once, want it held:\n%s", len(sent), texts(sent))
	}
	sent := h.engineTurns(nil)
	if len(sent) != 1 || sent[0].to != alice {
		t.Fatalf("the engine's first turn sent %d mails, want one to alice:\n%s", len(sent), texts(sent))
	}
	mustContain(t, "the start with the engine's ply", sent[0].msg.Text, "against the engine (level 1) starts now", "You play the defenders",
		"The engine played", "it is your move", "Your key for this game is")
	if id := referee.FindGame(sent[0].msg.Subject, "", nil).ID; id == "" || len(h.state(id).Plies) != 1 {
		t.Errorf("subject %q: want the game's tag and one ply", sent[0].msg.Subject)
	}
}

// TestEngineHoldLongThinker: a level that thinks at least the hold gets
// its reply at once ("you will hear from me"), as before the hold.
func TestEngineHoldLongThinker(t *testing.T) {
	h := newHoldHarness(t)
	h.srv.Opts.EngineReplyHold = 10 * time.Second // level 5 thinks EngineThink, 10 s
	id, _ := startEngineGame(t, h, "new brandubh with engine level 5")
	sent := h.reply(alice, h.firstMove(id))
	if len(sent) != 1 {
		t.Fatalf("a move at level 5 sent %d mails at once, want its reply", len(sent))
	}
	mustContain(t, "the reply", sent[0].msg.Text, "you will hear from me")
	id2, _ := startEngineGame(t, h, "new brandubh with engine level 4") // 3 s
	if sent := h.reply(alice, h.firstMove(id2)); len(sent) != 0 {
		t.Errorf("a move at level 4 sent %d mails at once, want its reply held", len(sent))
	}
}

// sentBeforeCommit is a Store on which another sender claims and sends
// the mail the first Commit wants to replace, just before that Commit.
type sentBeforeCommit struct {
	referee.Store
	done bool
	at   time.Time
}

func (s *sentBeforeCommit) Commit(ctx context.Context, c archive.Change) error {
	if len(c.Replace) > 0 && !s.done {
		s.done = true
		if claims, err := s.ClaimOutboxes(ctx, c.Replace[:1], "other-sender", s.at); err != nil || claims[0] != archive.ClaimTaken {
			return fmt.Errorf("test: claim: %v, %v", claims, err)
		}
		if err := s.MarkSentAll(ctx, c.Replace[:1], s.at, "other-sender", nil); err != nil {
			return err
		}
	}
	return s.Store.Commit(ctx, c)
}

// TestEngineHoldSentMeanwhile: the held reply falls due and another
// sender sends it between the engine's decision and its commit. The
// commit that would replace it fails (archive.ErrConflict), the engine's
// reply is decided again and then repeats nothing: alice has the held
// reply and the engine's ply, each once.
func TestEngineHoldSentMeanwhile(t *testing.T) {
	h := newHoldHarness(t)
	id, _ := startEngineGame(t, h, "new brandubh with engine level 2")
	mv := h.firstMove(id)
	h.reply(alice, mv)
	h.now = h.now.Add(31 * time.Second)
	st := &sentBeforeCommit{Store: h.store, at: h.now}
	srv := h.restart(st, nil)
	sent := h.engineTurns(srv)
	if !st.done {
		t.Fatal("the engine's commit never tried to replace the held reply")
	}
	if len(sent) != 1 {
		t.Fatalf("the engine's turn sent %d mails, want 1:\n%s", len(sent), texts(sent))
	}
	mustContain(t, "the engine's mail", sent[0].msg.Text, "The engine played")
	mustNotContain(t, "the engine's mail", sent[0].msg.Text, "You played "+mv+".")
	out, err := h.store.Outbox(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 3 || out[1].Status != archive.Sent || !strings.Contains(string(out[1].Raw), "you will hear from me") {
		t.Errorf("outbox %d mails, want the start, the held reply (sent) and the engine's", len(out))
	}
	if n := len(h.state(id).Plies); n != 2 {
		t.Errorf("%d plies, want 2", n)
	}
}
