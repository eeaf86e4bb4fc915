package archive_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
)

func TestCommitRoundTrip(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)

	g := newGame("K7QX2M")
	g.Attackers = "Alice@Example.org" // stored lower case
	g.TournamentID = "autumn-2026"
	c := archive.Change{
		Mail:  mail("<m1@example.org>", g.ID),
		Games: []*archive.Game{g},
		NewPlies: map[string][]archive.Ply{g.ID: {
			{N: 1, Move: "d1-d3", At: t0, MessageID: "<m1@example.org>"},
		}},
		Players: []archive.Player{
			{Address: "Alice@Example.org", Name: "Alice", Language: "de"},
			{Address: "bob@example.net", Name: "Bob", Language: "en", CreatedAt: t0.Add(-time.Hour)},
		},
		Outbox: []archive.OutboxMail{
			reply(g.ID, "<r1@example.com>", "bob@example.net"),
		},
	}
	commit(t, s, c)

	if g.Version != 1 || g.PlyCount != 1 || !g.CreatedAt.Equal(t0) || !g.UpdatedAt.Equal(t0) || g.Attackers != "alice@example.org" {
		t.Errorf("after Commit: Version %d, PlyCount %d, CreatedAt %v, UpdatedAt %v, Attackers %q; want 1, 1, t0, t0, lower case",
			g.Version, g.PlyCount, g.CreatedAt, g.UpdatedAt, g.Attackers)
	}
	got := game(t, s, g.ID)
	want := *g
	want.Plies = []archive.Ply{{N: 1, Move: "d1-d3", At: t0, MessageID: "<m1@example.org>"}}
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("Game = %+v\nwant   %+v", *got, want)
	}

	alice, err := s.Player(ctx, "ALICE@example.org")
	if err != nil {
		t.Fatalf("Player = %v", err)
	}
	if want := (archive.Player{Address: "alice@example.org", Name: "Alice", Language: "de", CreatedAt: t0}); *alice != want {
		t.Errorf("Player = %+v, want %+v", *alice, want)
	}
	bob, err := s.Player(ctx, "bob@example.net")
	if err != nil || !bob.CreatedAt.Equal(t0.Add(-time.Hour)) {
		t.Errorf("Player(bob) = %+v, %v; want CreatedAt t0-1h", bob, err)
	}
	if _, err := s.Player(ctx, "carol@example.org"); !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("Player(unknown) = %v, want ErrNotFound", err)
	}

	for _, q := range []struct{ id, hash string }{{"<m1@example.org>", ""}, {"<other>", "hash-<m1@example.org>"}, {"<m1@example.org>", "x"}} {
		if ok, err := s.Processed(ctx, q.id, q.hash); !ok || err != nil {
			t.Errorf("Processed(%q, %q) = %v, %v; want true", q.id, q.hash, ok, err)
		}
	}
	if ok, err := s.Processed(ctx, "<other>", ""); ok || err != nil {
		t.Errorf("Processed(other) = %v, %v; want false", ok, err)
	}

	out := outbox(t, s)
	if len(out) != 1 {
		t.Fatalf("Outbox = %d mails, want 1", len(out))
	}
	wantOut := reply(g.ID, "<r1@example.com>", "bob@example.net")
	wantOut.ID, wantOut.Status, wantOut.CreatedAt, wantOut.NextAttempt = out[0].ID, archive.Pending, t0, t0
	if !reflect.DeepEqual(out[0], wantOut) {
		t.Errorf("Outbox[0] = %+v\nwant        %+v", out[0], wantOut)
	}

	// Game not found.
	if _, err := s.Game(ctx, "NOPE"); !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("Game(NOPE) = %v, want ErrNotFound", err)
	}
}

// TestCommitMoves plays a few plies as the referee would: read, change,
// commit with the read version.
func TestCommitMoves(t *testing.T) {
	ctx := context.Background()
	s, clk, _ := openStore(t)
	g := newGame("G1")
	g.Status = archive.Invited
	commit(t, s, archive.Change{Mail: mail("<c>", "G1"), Games: []*archive.Game{g}})

	moves := []string{"d1-d3", "e5-e3", "a4-c4", "f5-f3xe3"}
	for i, mv := range moves {
		clk.Set(t0.Add(time.Duration(i+1) * time.Hour))
		g := game(t, s, "G1")
		g.Status = archive.Active
		n := g.PlyCount + 1
		msg := "<move" + mv + ">"
		commit(t, s, archive.Change{
			Mail:     mail(msg, "G1"),
			Games:    []*archive.Game{g},
			NewPlies: map[string][]archive.Ply{"G1": {{N: n, Move: mv, MessageID: msg}}},
		})
		if g.Version != int64(i+2) || g.PlyCount != n {
			t.Errorf("after ply %d: Version %d, PlyCount %d; want %d, %d", n, g.Version, g.PlyCount, i+2, n)
		}
	}
	g = game(t, s, "G1")
	if len(g.Plies) != len(moves) {
		t.Fatalf("Game has %d plies, want %d", len(g.Plies), len(moves))
	}
	for i, p := range g.Plies {
		if p.N != i+1 || p.Move != moves[i] || !p.At.Equal(t0.Add(time.Duration(i+1)*time.Hour)) {
			t.Errorf("ply %d = %+v", i+1, p)
		}
	}
	if !g.CreatedAt.Equal(t0) || !g.UpdatedAt.Equal(t0.Add(4*time.Hour)) {
		t.Errorf("CreatedAt %v, UpdatedAt %v; want t0, t0+4h", g.CreatedAt, g.UpdatedAt)
	}

	// Plies alone, without the game row: the version is bumped all the same.
	commit(t, s, archive.Change{NewPlies: map[string][]archive.Ply{"G1": {{N: 5, Move: "k1-k2"}, {N: 6, Move: "a1-a2"}}}})
	if g2 := game(t, s, "G1"); g2.Version != g.Version+1 || g2.PlyCount != 6 {
		t.Errorf("after plies alone: Version %d, PlyCount %d; want %d, 6", g2.Version, g2.PlyCount, g.Version+1)
	}

	// Plies that do not continue the stored ones.
	for _, n := range []int{5, 8} {
		err := s.Commit(ctx, archive.Change{NewPlies: map[string][]archive.Ply{"G1": {{N: n, Move: "x"}}}})
		if !errors.Is(err, archive.ErrConflict) {
			t.Errorf("Commit(ply %d after 6) = %v, want ErrConflict", n, err)
		}
	}
	err := s.Commit(ctx, archive.Change{NewPlies: map[string][]archive.Ply{"NOPE": {{N: 1, Move: "x"}}}})
	if !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("Commit(plies of unknown game) = %v, want ErrNotFound", err)
	}
}

// TestCommitDuplicate checks that a mail seen before, by Message-ID or by
// content hash, is refused and that nothing of the change is written.
func TestCommitDuplicate(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	g := newGame("G1")
	commit(t, s, archive.Change{
		Mail:    mail("<m1>", "G1"),
		Games:   []*archive.Game{g},
		Outbox:  []archive.OutboxMail{reply("G1", "<r1>", "bob@example.net")},
		Players: []archive.Player{{Address: "alice@example.org", Name: "Alice"}},
	})
	before := game(t, s, "G1")

	for _, tc := range []struct {
		name string
		mail archive.ProcessedMail
	}{
		{"same Message-ID", archive.ProcessedMail{MessageID: "<m1>", ContentHash: "new", Disposition: "applied"}},
		{"same Message-ID, no hash", archive.ProcessedMail{MessageID: "<m1>", Disposition: "applied"}},
		{"same content hash", archive.ProcessedMail{MessageID: "<m2>", ContentHash: "hash-<m1>", Disposition: "applied"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := game(t, s, "G1")
			g.Status = archive.Finished
			g.Result, g.Reason = "defenders", "resignation"
			err := s.Commit(ctx, archive.Change{
				Mail:     tc.mail,
				Games:    []*archive.Game{g, newGame("G2")},
				NewPlies: map[string][]archive.Ply{"G1": {{N: 1, Move: "d1-d3"}}},
				Players:  []archive.Player{{Address: "alice@example.org", Name: "Mallory"}},
				Outbox:   []archive.OutboxMail{reply("G1", "<r2>", "bob@example.net")},
				Mailbox:  &archive.MailboxState{Mailbox: "INBOX", UIDValidity: 1, LastUID: 9},
			})
			if !errors.Is(err, archive.ErrDuplicate) {
				t.Fatalf("Commit = %v, want ErrDuplicate", err)
			}
			var ae *archive.Error
			if !errors.As(err, &ae) || ae.Op != "commit" || ae.Temporary() {
				t.Errorf("Commit error %#v: want *archive.Error, Op commit, not temporary", err)
			}
			if g.Version != before.Version {
				t.Errorf("caller's game Version = %d after a failed Commit, want %d", g.Version, before.Version)
			}
			assertUnchanged(t, s, before)
		})
	}

	// Mails without a content hash do not collide on it.
	commit(t, s, archive.Change{Mail: archive.ProcessedMail{MessageID: "<n1>", Disposition: "ignored"}})
	commit(t, s, archive.Change{Mail: archive.ProcessedMail{MessageID: "<n2>", Disposition: "ignored"}})
}

// assertUnchanged checks that game G1 equals before, that no game G2
// exists, that the outbox holds only <r1>, that alice is still Alice and
// that no mailbox state was saved.
func assertUnchanged(t *testing.T, s *archive.Store, before *archive.Game) {
	t.Helper()
	ctx := context.Background()
	if got := game(t, s, "G1"); !reflect.DeepEqual(got, before) {
		t.Errorf("game G1 = %+v, want unchanged %+v", got, before)
	}
	if _, err := s.Game(ctx, "G2"); !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("Game(G2) = %v, want ErrNotFound", err)
	}
	if got := ids(outbox(t, s)); !reflect.DeepEqual(got, []string{"<r1>"}) {
		t.Errorf("outbox = %q, want only <r1>", got)
	}
	if p, err := s.Player(ctx, "alice@example.org"); err != nil || p.Name != "Alice" {
		t.Errorf("Player(alice) = %+v, %v; want Alice", p, err)
	}
	if v, u, err := s.MailboxState(ctx, "INBOX"); v != 0 || u != 0 || err != nil {
		t.Errorf("MailboxState = %d, %d, %v; want 0, 0, nil", v, u, err)
	}
}

func TestCommitConflict(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	commit(t, s, archive.Change{Mail: mail("<m1>", "G1"), Games: []*archive.Game{newGame("G1")}, Outbox: []archive.OutboxMail{reply("G1", "<r1>", "bob@example.net")}})
	before := game(t, s, "G1")

	// Two referees read version 1; the first to commit wins.
	first, second := game(t, s, "G1"), game(t, s, "G1")
	first.DrawOfferBy = "attackers"
	commit(t, s, archive.Change{Mail: mail("<m2>", "G1"), Games: []*archive.Game{first}})
	second.Status = archive.Finished
	err := s.Commit(ctx, archive.Change{Mail: mail("<m3>", "G1"), Games: []*archive.Game{second}, Outbox: []archive.OutboxMail{reply("G1", "<r3>", "bob@example.net")}})
	if !errors.Is(err, archive.ErrConflict) {
		t.Fatalf("Commit(stale version) = %v, want ErrConflict", err)
	}
	if want := `archive: commit: game "G1": version 1, stored 2: conflicting change`; err.Error() != want {
		t.Errorf("error text = %q, want %q", err, want)
	}
	// Nothing of the losing change is written, not even its mail: it can be
	// handled again.
	if ok, _ := s.Processed(ctx, "<m3>", "hash-<m3>"); ok {
		t.Error("the refused change's mail is recorded")
	}
	if got := ids(outbox(t, s)); !reflect.DeepEqual(got, []string{"<r1>"}) {
		t.Errorf("outbox = %q, want only <r1>", got)
	}
	if g := game(t, s, "G1"); g.Version != before.Version+1 || g.Status != archive.Active || g.DrawOfferBy != "attackers" {
		t.Errorf("game = %+v; want the first change", g)
	}

	// A new game whose id is taken.
	err = s.Commit(ctx, archive.Change{Games: []*archive.Game{newGame("G1")}})
	if !errors.Is(err, archive.ErrConflict) {
		t.Errorf("Commit(new game, id taken) = %v, want ErrConflict", err)
	}
	// An update of a game that does not exist.
	ghost := newGame("GHOST")
	ghost.Version = 3
	err = s.Commit(ctx, archive.Change{Games: []*archive.Game{ghost}})
	if !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("Commit(update of unknown game) = %v, want ErrNotFound", err)
	}
}

func TestCommitInvalid(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	mod := func(f func(g *archive.Game)) []*archive.Game {
		g := newGame("G1")
		f(g)
		return []*archive.Game{g}
	}
	for _, tc := range []struct {
		name string
		c    archive.Change
	}{
		{"mail without Message-ID", archive.Change{Mail: archive.ProcessedMail{From: "a@b", Disposition: "applied"}}},
		{"unknown disposition", archive.Change{Mail: archive.ProcessedMail{MessageID: "<x>", Disposition: "eaten"}}},
		{"nil game", archive.Change{Games: []*archive.Game{nil}}},
		{"game without id", archive.Change{Games: mod(func(g *archive.Game) { g.ID = "" })}},
		{"game without variant", archive.Change{Games: mod(func(g *archive.Game) { g.Variant = "" })}},
		{"game without defenders", archive.Change{Games: mod(func(g *archive.Game) { g.Defenders = "" })}},
		{"unknown status", archive.Change{Games: mod(func(g *archive.Game) { g.Status = "paused" })}},
		{"unknown result", archive.Change{Games: mod(func(g *archive.Game) { g.Result = "king" })}},
		{"unknown draw offer", archive.Change{Games: mod(func(g *archive.Game) { g.DrawOfferBy = "draw" })}},
		{"negative version", archive.Change{Games: mod(func(g *archive.Game) { g.Version = -1 })}},
		{"game twice", archive.Change{Games: []*archive.Game{newGame("G1"), newGame("G1")}}},
		{"ply 0", archive.Change{NewPlies: map[string][]archive.Ply{"G1": {{N: 0, Move: "a1-a2"}}}}},
		{"ply gap", archive.Change{NewPlies: map[string][]archive.Ply{"G1": {{N: 1, Move: "a1-a2"}, {N: 3, Move: "a2-a1"}}}}},
		{"empty move", archive.Change{NewPlies: map[string][]archive.Ply{"G1": {{N: 1}}}}},
		{"no plies", archive.Change{NewPlies: map[string][]archive.Ply{"G1": {}}}},
		{"player without address", archive.Change{Players: []archive.Player{{Name: "x"}}}},
		{"outbox without recipients", archive.Change{Outbox: []archive.OutboxMail{{From: "a@b", Raw: []byte("x")}}}},
		{"outbox without body", archive.Change{Outbox: []archive.OutboxMail{{From: "a@b", To: []string{"c@d"}}}}},
		{"outbox without sender", archive.Change{Outbox: []archive.OutboxMail{{To: []string{"c@d"}, Raw: []byte("x")}}}},
		{"outbox status", archive.Change{Outbox: []archive.OutboxMail{{From: "a@b", To: []string{"c@d"}, Raw: []byte("x"), Status: "lost"}}}},
		{"mailbox without name", archive.Change{Mailbox: &archive.MailboxState{LastUID: 3}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := s.Commit(ctx, tc.c); !errors.Is(err, archive.ErrInvalid) {
				t.Errorf("Commit = %v, want ErrInvalid", err)
			}
		})
	}
	if gs, err := s.Games(ctx, archive.GameFilter{}); len(gs) != 0 || err != nil {
		t.Errorf("Games = %d games, %v; want none", len(gs), err)
	}
}

// TestConcurrentCommit delivers the same mail twice at once, through one
// Store and through two Stores on the same file: exactly one wins.
func TestConcurrentCommit(t *testing.T) {
	ctx := context.Background()
	s1, _, path := openStore(t)
	s2, err := archive.OpenWith(ctx, path, archive.Options{Now: func() time.Time { return t0 }})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	commit(t, s1, archive.Change{Games: []*archive.Game{newGame("G1")}})

	for round, stores := range [][2]*archive.Store{{s1, s1}, {s1, s2}} {
		for try := range 10 {
			msgID := strings.Repeat("x", round+1) + string(rune('a'+try))
			var wg sync.WaitGroup
			errs := make([]error, 2)
			for i, s := range stores {
				wg.Go(func() {
					errs[i] = s.Commit(ctx, archive.Change{
						Mail:   archive.ProcessedMail{MessageID: msgID, Disposition: "applied"},
						Outbox: []archive.OutboxMail{reply("G1", msgID+"-reply", "bob@example.net")},
					})
				})
			}
			wg.Wait()
			won, dup := 0, 0
			for _, err := range errs {
				switch {
				case err == nil:
					won++
				case errors.Is(err, archive.ErrDuplicate):
					dup++
				default:
					t.Errorf("round %d: Commit = %v", round, err)
				}
			}
			if won != 1 || dup != 1 {
				t.Errorf("round %d try %d: %d won, %d duplicates; want 1, 1", round, try, won, dup)
			}
		}
	}
	if n := len(outbox(t, s1)); n != 20 {
		t.Errorf("outbox has %d mails, want 20 (one per delivered mail)", n)
	}
}

// TestConcurrentMoves has two referees race to play the next ply of the
// same game: one wins, the other gets ErrConflict.
func TestConcurrentMoves(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	commit(t, s, archive.Change{Games: []*archive.Game{newGame("G1")}})
	for try := range 10 {
		var wg sync.WaitGroup
		errs := make([]error, 2)
		start := make(chan struct{})
		games := []*archive.Game{game(t, s, "G1"), game(t, s, "G1")}
		for i := range 2 {
			wg.Go(func() {
				<-start
				g := games[i]
				msg := string(rune('a'+try)) + string(rune('0'+i))
				errs[i] = s.Commit(ctx, archive.Change{
					Mail:     archive.ProcessedMail{MessageID: msg, Disposition: "applied"},
					Games:    []*archive.Game{g},
					NewPlies: map[string][]archive.Ply{"G1": {{N: g.PlyCount + 1, Move: "a1-a" + msg}}},
				})
			})
		}
		close(start)
		wg.Wait()
		if (errs[0] == nil) == (errs[1] == nil) || !(errors.Is(errs[0], archive.ErrConflict) || errors.Is(errs[1], archive.ErrConflict)) {
			t.Errorf("try %d: Commit = %v, %v; want one nil, one ErrConflict", try, errs[0], errs[1])
		}
	}
	if g := game(t, s, "G1"); len(g.Plies) != 10 || g.Version != 11 {
		t.Errorf("game has %d plies, version %d; want 10, 11", len(g.Plies), g.Version)
	}
}
