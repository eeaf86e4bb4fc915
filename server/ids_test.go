package server

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/server/internal/tournaments"
)

// twiceReader is a source of randomness that draws every game id twice:
// each read of as many bytes as a game id takes (4) returns the bytes of
// the read before it every second time (A, A, B, B, …), the reads of keys
// pass through. So the second game of a batch draws the first one's id,
// as a 300-player event's 89,700 ids did by chance (issue 18 §4).
type twiceReader struct {
	r    io.Reader
	last []byte
}

func (x *twiceReader) Read(p []byte) (int, error) {
	if len(p) != 4 {
		return x.r.Read(p)
	}
	if x.last != nil {
		copy(p, x.last)
		x.last = nil
		return len(p), nil
	}
	n, err := io.ReadFull(x.r, p)
	x.last = append([]byte(nil), p...)
	return n, err
}

// scriptReader answers its first reads of 4 bytes (game ids, and the
// lots drawn) with script, in order, then reads from r.
type scriptReader struct {
	r      io.Reader
	script [][]byte
}

func (x *scriptReader) Read(p []byte) (int, error) {
	if len(p) == 4 && len(x.script) > 0 {
		copy(p, x.script[0])
		x.script = x.script[1:]
		return len(p), nil
	}
	return x.r.Read(p)
}

// idBytes returns the 4 bytes newGameID turns into id.
func idBytes(t *testing.T, id string) []byte {
	t.Helper()
	b, err := referee.IdEncoding.DecodeString(id + "00")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := referee.NewGameID(&scriptReader{script: [][]byte{b[:4]}}); got != id {
		t.Fatalf("idBytes(%s) make %s", id, got)
	}
	return b[:4]
}

// TestFreshGameID: an id reported taken is drawn again; a source that
// only ever gives taken ids ends with errNoGameID after maxGameIDDraws,
// not in a loop; the check's error is returned.
func TestFreshGameID(t *testing.T) {
	r := &scriptReader{r: rand.NewChaCha8([32]byte{7}), script: [][]byte{idBytes(t, "AAAAAA"), idBytes(t, "BBBBBB"), idBytes(t, "CCCCCC")}}
	var asked []string
	id, err := referee.FreshGameID(r, func(id string) (bool, error) {
		asked = append(asked, id)
		return id != "CCCCCC", nil
	})
	if id != "CCCCCC" || err != nil || fmt.Sprint(asked) != "[AAAAAA BBBBBB CCCCCC]" {
		t.Errorf("freshGameID = %q, %v after %v; want CCCCCC after AAAAAA, BBBBBB", id, err, asked)
	}
	n := 0
	_, err = referee.FreshGameID(rand.NewChaCha8([32]byte{8}), func(string) (bool, error) { n++; return true, nil })
	if !errors.Is(err, referee.ErrNoGameID) || n != referee.MaxGameIDDraws {
		t.Errorf("every id taken: %v after %d draws, want errNoGameID after %d", err, n, referee.MaxGameIDDraws)
	}
	broken := errors.New("disk on fire")
	if _, err := referee.FreshGameID(rand.NewChaCha8([32]byte{9}), func(string) (bool, error) { return false, broken }); !errors.Is(err, broken) {
		t.Errorf("a failing check: %v", err)
	}
}

// TestGameIDNotStored: a new game never gets the id of a stored game: the
// draw that gives one is drawn again (before the fix only the commit
// noticed, with ErrConflict).
func TestGameIDNotStored(t *testing.T) {
	h := newHarness(t)
	ids, err := h.srv.StartGames(h.ctx(), []referee.GameStart{{Variant: "brandubh", Attackers: alice, Defenders: bob}})
	if err != nil {
		t.Fatal(err)
	}
	h.srv.Opts.Rand = &scriptReader{r: rand.NewChaCha8([32]byte{3}), script: [][]byte{idBytes(t, ids[0]), idBytes(t, "K7QX2M")}}
	ss := h.srv.NewSession(h.ctx(), referee.StartCause("", h.now))
	if id, err := ss.GameID(); id != "K7QX2M" || err != nil {
		t.Errorf("gameID with %s stored drew %q, %v; want K7QX2M", ids[0], id, err)
	}
}

// TestStartIDsDrawnTwice: a source of randomness that draws every id
// twice still starts every game of a batch, each with an id of its own:
// the batch's own ids are checked as they are drawn. Before the fix the
// start failed with `game "…" given twice` (issue 18 §4), for
// StartGames and for a tournament's start alike.
func TestStartIDsDrawnTwice(t *testing.T) {
	h := newHarness(t)
	h.srv.Opts.Rand = &twiceReader{r: rand.NewChaCha8([32]byte{4})}
	ids, err := h.srv.StartGames(h.ctx(), []referee.GameStart{
		{Variant: "brandubh", Attackers: alice, Defenders: bob},
		{Variant: "brandubh", Attackers: bob, Defenders: alice},
		{Variant: "brandubh", Attackers: alice, Defenders: "carol@player.test"},
	})
	if err != nil || len(ids) != 3 || ids[0] == ids[1] || ids[1] == ids[2] || ids[0] == ids[2] {
		t.Fatalf("StartGames with every id drawn twice = %v, %v", ids, err)
	}

	h.createEvent("twice", []string{alice, bob, "carol@player.test", "dave@player.test"}, nil)
	gids, err := StartTournament(h.srv, h.ctx(), "twice")
	if err != nil || len(gids) != 12 {
		t.Fatalf("StartTournament with every id drawn twice = %v, %v", gids, err)
	}
	seen := map[string]bool{}
	for _, id := range append(gids, ids...) {
		if seen[id] {
			t.Errorf("id %s given to two games", id)
		}
		seen[id] = true
	}
	if gs := h.eventGames("twice"); len(gs) != 12 {
		t.Errorf("%d games stored, want 12", len(gs))
	}
}

// TestStartTournamentChunks: an event with more games than a start
// makes at a time (StartChunkGames) starts whole, in one transaction:
// every game stored once with its pairing and timers, each player's
// list naming exactly their games in schedule order, each with its key.
func TestStartTournamentChunks(t *testing.T) {
	h := newHarness(t)
	var players []string
	for i := range 18 { // 306 games in matches, more than one chunk
		players = append(players, fmt.Sprintf("p%02d@player.test", i))
	}
	h.createEvent("chunks", players, nil)
	r, err := StartTournamentCounted(h.srv, h.ctx(), "chunks")
	if err != nil || r.Games != 18*17 || r.Players != 18 || r.PlayerMails != 18 {
		t.Fatalf("StartTournamentCounted = %+v, %v", r, err)
	}
	if 18*17 <= tournaments.StartChunkGames {
		t.Fatalf("the event fits in one chunk of %d", tournaments.StartChunkGames)
	}
	gs := h.eventGames("chunks")
	if len(gs) != 18*17 {
		t.Fatalf("%d games stored, want %d", len(gs), 18*17)
	}
	for _, g := range gs {
		if g.Status != archive.Active || g.Event == nil || len(h.timersOf(g.ID)) == 0 {
			t.Fatalf("game %s: status %s, event %v, timers %d", g.ID, g.Status, g.Event, len(h.timersOf(g.ID)))
		}
	}
	h.srv.FlushOutbox(h.ctx())
	for _, p := range players {
		text := h.last(p).msg.Text
		var want []string
		for _, g := range gs {
			if g.Attackers == p || g.Defenders == p {
				want = append(want, fmt.Sprintf("[taflmail %s %s]", g.ID, referee.TokenOf(g, p)))
			}
		}
		if got := startTags.FindAllString(text, -1); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s's list names %d games, want their %d in schedule order:\n%s", p, len(got), len(want), text)
		}
	}
}

// startTags finds the tag lines of a start list.
var startTags = regexp.MustCompile(`\[taflmail [0-9A-Z]{6} [0-9a-z]{10}\]`)
