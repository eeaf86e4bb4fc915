package server

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// fuzzSender counts what the server sends and keeps nothing but the
// count of mails to a spectator that hold a player's key.
type fuzzSender struct {
	n      int
	toSelf int
	keys   []string // the players' keys
	leaks  int      // mails to the spectator holding one
}

func (f *fuzzSender) Send(_ context.Context, _ string, to []string, raw []byte) error {
	f.n++
	for _, a := range to {
		if strings.EqualFold(a, "tafl@game.test") {
			f.toSelf++
		}
		if strings.EqualFold(a, watcher) {
			for _, k := range f.keys {
				if bytes.Contains(bytes.ToLower(raw), []byte(k)) {
					f.leaks++
				}
			}
		}
	}
	return nil
}

// fuzzWorld is a referee with its own archive and a live Brandubh game
// (alice has played d1-e1 and set "if d3-f3 then d2-f2xf3", bob is to
// move, watcher watches), built anew for every input so that a saved
// crasher reproduces on its own, whatever ran before it.
type fuzzWorld struct {
	h      *harness
	sender *fuzzSender
	game   string
}

// newFuzzWorld opens an archive, starts the referee and the game, and
// points the referee at a fuzzSender.
func newFuzzWorld(t *testing.T) *fuzzWorld {
	h := &harness{t: t, now: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC), sender: &fakeSender{}}
	clock := func() time.Time { return h.now }
	// In memory: the fuzzer looks for wrong decisions, not lost writes
	// (TestFaultPoints), and a file costs an fsync per commit.
	st, err := archive.OpenWith(context.Background(), ":memory:", archive.Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h.store = st
	h.srv, err = referee.New(referee.Options{Address: "tafl@game.test", Store: st, Sender: h.sender, Now: clock,
		Rand: rand.NewChaCha8([32]byte{9}), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	w := &fuzzWorld{h: h, sender: &fuzzSender{}}
	w.game = startBrandubh(t, h)
	h.play(w.game, "d1-e1")
	h.reply(alice, "if d3-f3 then d2-f2xf3")
	h.deliver(watcher, "x", "watch "+w.game, nil)
	w.sender.keys = h.keysOf(w.game)
	h.srv.Opts.Sender = w.sender
	return w
}

// fuzzSeeds are inputs besides the mail files of testdata/mail.
var fuzzSeeds = []string{
	"From: alice@player.test\r\nSubject: [taflmail {{GAME}} {{KEY}}] board\r\nMessage-ID: <{{UNIQUE}}@f>\r\n\r\n",
	"From: bob@player.test\r\nSubject: Re: [taflmail {{GAME}} {{KEY}}]\r\nIn-Reply-To: <{{MSGID}}>\r\n\r\n1... d3-e3\r\n",
	"From: bob@player.test\r\nSubject: Re: [taflmail {{GAME}} {{KEY}}]\r\n\r\nresign\r\n",
	"From: bob@player.test\r\nSubject: [taflmail {{GAME}} {{KEY}}]\r\n\r\noffer draw\r\naccept draw\r\nd3-e3\r\n",
	"From: alice@player.test\r\nSubject: x\r\n\r\nnew brandubh with carol@player.test as defenders\r\n",
	"From: alice@player.test\r\nSubject: games\r\n\r\n",
	"From: MAILER-DAEMON@x\r\nSubject: [taflmail {{GAME}} {{KEY}}]\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=b\r\n\r\n--b\r\n\r\nd3-e3\r\n--b--\r\n",
	"From: bob@player.test\r\nSubject: [taflmail {{GAME}} {{KEY}}]\r\nContent-Type: text/html\r\n\r\n<p>d3-e3</p><blockquote>d4-d1</blockquote>\r\n",
	"From: bob@player.test\r\nSubject: [taflmail {{GAME}} {{KEY}}]\r\nContent-Transfer-Encoding: base64\r\n\r\nZDMtZTM=\r\n",
	"From: =?utf-8?q?B=C3=B6b?= <BOB@Player.Test>\r\nSubject: =?utf-8?q?[taflmail_{{GAME}}_{{KEY}}]_brett?=\r\n\r\n",
	// issue 12
	"From: bob@player.test\r\nSubject: Re: [taflmail {{GAME}} {{KEY}}]\r\nIn-Reply-To: <{{MSGID}}>\r\n\r\nHi Alice, {{KEY}}!\r\nd3-f3\r\nif d2-f2xf3 then e4-e3\r\nprivate\r\ntakeback\r\nmessages off\r\n",
	"From: bob@player.test\r\nSubject: [taflmail {{GAME}} {{KEY}}]\r\n\r\nd3-e3\r\nwenn a4-a5 dann e3-e2 wenn a5-a6 dann e2-d2\r\nbedingungen\r\nzurücknehmen\r\n",
	"From: carol@watch.test\r\nSubject: Re: [taflmail {{GAME}}] Brandubh\r\n\r\nd3-f3\r\nunwatch\r\nwatch {{GAME}} results\r\n",
	"From: alice@player.test\r\nSubject: Re: [taflmail {{GAME}}]\r\n\r\nYou cheat!\r\ncancel conditions\r\naccept takeback\r\npublic\r\n",
}

// FuzzMailToCommands feeds raw RFC 5322 bytes through mailer.Parse into
// Server.HandleMail, on a referee with a live game, and checks what must
// hold for any mail: no panic; no error but archive unavailability; the
// game's plies only ever grow, by at most one per mail (two when bob's
// ply meets alice's conditional answer, which must then be that answer),
// and always replay as legal moves; a finished game never changes;
// nothing is sent for a bounce, an auto-reply or our own mail, and
// nothing to our own address; no mail to the spectator holds a key.
//
// Inputs may hold placeholders, replaced from the live game: {{GAME}},
// {{KEY}} (bob's key: bob is to move), {{MSGID}} (the last mail to bob).
// Each input meets a world of its own (newFuzzWorld): a fresh archive,
// referee and game, so an input found failing fails alone too.
//
//	go test ./server -run '^$' -fuzz FuzzMailToCommands -fuzztime 3m
func FuzzMailToCommands(f *testing.F) {
	ents, err := os.ReadDir(mailDir)
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range ents {
		raw, err := os.ReadFile(filepath.Join(mailDir, e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		w := newFuzzWorld(t)
		h, id := w.h, w.game
		g, err := h.store.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		threadBob := g.DefendersThread
		raw = bytes.ReplaceAll(raw, []byte("{{GAME}}"), []byte(id))
		raw = bytes.ReplaceAll(raw, []byte("{{KEY}}"), []byte(g.DefenderToken))
		raw = bytes.ReplaceAll(raw, []byte("{{MSGID}}"), []byte(threadBob))
		raw = bytes.ReplaceAll(raw, []byte("{{UNIQUE}}"), []byte("u1"))
		raw = bytes.ReplaceAll(raw, []byte("{{REFS}}"), []byte("<"+threadBob+">"))
		raw = bytes.ReplaceAll(raw, []byte("{{SUBJECT}}"), []byte("[taflmail "+id+" "+g.DefenderToken+"] Brandubh"))
		m, err := mailer.Parse(bytes.NewReader(raw), h.srv.Opts.MaxMailBytes)
		if err != nil {
			return // not a mail: the inbox hands it over with ParseError, see TestFaultPoints/decode
		}
		m.MessageID += ".fuzz" // never one of the game's set-up mails
		m.UID, m.UIDValidity = 100, 1
		h.now = h.now.Add(time.Hour) // keep the refusal cap out of the way

		before := h.state(id)
		sentBefore, selfBefore := w.sender.n, w.sender.toSelf
		err = h.srv.HandleMail(context.Background(), m)
		if err != nil && !errors.Is(err, archive.ErrUnavailable) {
			t.Fatalf("HandleMail: %v", err)
		}
		h.srv.FlushOutbox(context.Background())
		after := h.state(id)
		if len(after.Plies) < len(before.Plies) || !slices.Equal(after.Plies[:len(before.Plies)], before.Plies) {
			t.Fatalf("plies went from %v to %v", before.Plies, after.Plies)
		}
		if n := len(after.Plies) - len(before.Plies); n > 2 || n == 2 && after.Plies[len(after.Plies)-1] != "d2-f2xf3" {
			t.Fatalf("one mail added %d plies: %v", n, after.Plies[len(before.Plies):])
		}
		if w.sender.leaks > 0 {
			t.Fatalf("%d mails to the spectator held a player's key", w.sender.leaks)
		}
		if before.Status == archive.Finished && !equalState(before, after) {
			t.Fatalf("a finished game changed: %v → %v", before, after)
		}
		if len(after.Plies) > len(before.Plies) && before.Status != archive.Active {
			t.Fatalf("a ply was added to a %s game", before.Status)
		}
		if gg, err := h.store.Game(context.Background(), id); err != nil {
			t.Fatal(err)
		} else if _, err := referee.Load(gg); err != nil {
			t.Fatalf("the stored game no longer replays: %v", err)
		}
		from := strings.ToLower(m.From)
		if (m.IsBounce || m.IsAutoReply || from == "tafl@game.test" || from == "") && w.sender.n != sentBefore {
			t.Fatalf("%d mails sent for a bounce/auto-reply/own mail (bounce %v auto %v from %q)",
				w.sender.n-sentBefore, m.IsBounce, m.IsAutoReply, from)
		}
		if w.sender.toSelf != selfBefore {
			t.Fatal("a mail was sent to the server's own address")
		}
	})
}
