package archive_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	_ "modernc.org/sqlite"
)

func TestOpenCreatesDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "var", "lib", "taflmail", "games.db")
	s, err := archive.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open = %v", err)
	}
	defer s.Close()
	if _, err := os.Stat(path); err != nil {
		t.Errorf("database file: %v", err)
	}
}

func TestOpenMemory(t *testing.T) {
	ctx := context.Background()
	s, err := archive.Open(ctx, ":memory:")
	if err != nil {
		t.Fatalf("Open(:memory:) = %v", err)
	}
	defer s.Close()
	commit(t, s, archive.Change{Mail: mail("<m>", "G1"), Games: []*archive.Game{newGame("G1")},
		NewPlies: map[string][]archive.Ply{"G1": {{N: 1, Move: "d1-d3"}}}})
	if g := game(t, s, "G1"); len(g.Plies) != 1 {
		t.Errorf("Game has %d plies, want 1", len(g.Plies))
	}
	// Each ":memory:" store is a database of its own.
	s2, err := archive.Open(ctx, ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if _, err := s2.Game(ctx, "G1"); !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("second store: Game = %v, want ErrNotFound", err)
	}
}

func TestOpenBadPath(t *testing.T) {
	ctx := context.Background()
	for _, p := range []string{"", "games.db?mode=ro"} {
		if _, err := archive.Open(ctx, p); !errors.Is(err, archive.ErrInvalid) {
			t.Errorf("Open(%q) = %v, want ErrInvalid", p, err)
		}
	}
	// The parent is a file.
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := archive.Open(ctx, filepath.Join(file, "games.db")); err == nil {
		t.Error("Open(below a file) = nil, want an error")
	}
}

// TestReopen closes the store and opens the file again: everything is
// still there, and the second open changes nothing.
func TestReopen(t *testing.T) {
	ctx := context.Background()
	s, _, path := openStore(t)
	g := newGame("G1")
	commit(t, s, archive.Change{
		Mail:     mail("<m1>", "G1"),
		Games:    []*archive.Game{g},
		NewPlies: map[string][]archive.Ply{"G1": {{N: 1, Move: "d1-d3", At: t0}}},
		Players:  []archive.Player{{Address: "alice@example.org", Name: "Alice", Language: "de"}},
		Outbox:   []archive.OutboxMail{reply("G1", "<r1>", "bob@example.net")},
		Mailbox:  &archive.MailboxState{Mailbox: "INBOX", UIDValidity: 5, LastUID: 12},
	})
	wantGame := game(t, s, "G1")
	wantOut := outbox(t, s)
	if err := s.Close(); err != nil {
		t.Fatalf("Close = %v", err)
	}
	if _, err := s.Game(ctx, "G1"); err == nil {
		t.Error("Game after Close = nil error")
	}

	s, err := archive.Open(ctx, path)
	if err != nil {
		t.Fatalf("Open again = %v", err)
	}
	defer s.Close()
	if got := game(t, s, "G1"); !reflect.DeepEqual(got, wantGame) {
		t.Errorf("Game = %+v\nwant   %+v", got, wantGame)
	}
	if got := outbox(t, s); !reflect.DeepEqual(got, wantOut) {
		t.Errorf("Outbox = %+v\nwant     %+v", got, wantOut)
	}
	if ok, err := s.Processed(ctx, "<m1>", ""); !ok || err != nil {
		t.Errorf("Processed = %v, %v; want true", ok, err)
	}
	if p, err := s.Player(ctx, "alice@example.org"); err != nil || p.Language != "de" {
		t.Errorf("Player = %+v, %v", p, err)
	}
	if v, u, err := s.MailboxState(ctx, "INBOX"); v != 5 || u != 12 || err != nil {
		t.Errorf("MailboxState = %d, %d, %v; want 5, 12", v, u, err)
	}
	err = s.Commit(ctx, archive.Change{Mail: mail("<m1>", "G1")})
	if !errors.Is(err, archive.ErrDuplicate) {
		t.Errorf("Commit(same mail after reopen) = %v, want ErrDuplicate", err)
	}
}

func TestGameQueries(t *testing.T) {
	ctx := context.Background()
	s, clk, _ := openStore(t)
	// Games of alice, updated one minute apart, in this order.
	specs := []struct {
		id       string
		status   archive.GameStatus
		opponent string
		aliceAtk bool
	}{
		{"F1", archive.Finished, "bob@example.net", true},
		{"A1", archive.Active, "bob@example.net", false},
		{"I1", archive.Invited, "carol@example.org", true},
		{"D1", archive.Declined, "carol@example.org", false},
		{"A2", archive.Active, "carol@example.org", true},
		{"X1", archive.Active, "bob@example.net", true}, // bob against carol
	}
	for i, sp := range specs {
		clk.Set(t0.Add(time.Duration(i) * time.Minute))
		g := newGame(sp.id)
		g.Status = sp.status
		if sp.id == "X1" {
			g.Attackers, g.Defenders = "bob@example.net", "carol@example.org"
		} else if sp.aliceAtk {
			g.Attackers, g.Defenders = "alice@example.org", sp.opponent
		} else {
			g.Attackers, g.Defenders = sp.opponent, "alice@example.org"
		}
		commit(t, s, archive.Change{Games: []*archive.Game{g},
			NewPlies: map[string][]archive.Ply{sp.id: {{N: 1, Move: "a4-b4"}, {N: 2, Move: "k6-k9"}}}})
	}
	gameIDs := func(gs []*archive.Game) (out []string) {
		for _, g := range gs {
			out = append(out, g.ID)
		}
		return out
	}

	of, err := s.GamesOf(ctx, "ALICE@example.org")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := gameIDs(of), []string{"A2", "I1", "A1", "D1", "F1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("GamesOf(alice) = %q, want %q", got, want)
	}
	if g := of[0]; g.PlyCount != 2 || g.Plies != nil {
		t.Errorf("GamesOf: PlyCount %d, %d plies loaded; want 2, none", g.PlyCount, len(g.Plies))
	}
	if of, err := s.GamesOf(ctx, "nobody@example.org"); len(of) != 0 || err != nil {
		t.Errorf("GamesOf(nobody) = %d games, %v", len(of), err)
	}

	for _, tc := range []struct {
		f    archive.GameFilter
		want []string
	}{
		{archive.GameFilter{}, []string{"X1", "A2", "D1", "I1", "A1", "F1"}},
		{archive.GameFilter{Status: archive.Active}, []string{"X1", "A2", "A1"}},
		{archive.GameFilter{Status: archive.Active, Limit: 2}, []string{"X1", "A2"}},
		{archive.GameFilter{Status: archive.Active, Limit: 2, Offset: 2}, []string{"A1"}},
		{archive.GameFilter{Offset: 4}, []string{"A1", "F1"}},
		{archive.GameFilter{Status: archive.Finished}, []string{"F1"}},
	} {
		gs, err := s.Games(ctx, tc.f)
		if got := gameIDs(gs); !reflect.DeepEqual(got, tc.want) || err != nil {
			t.Errorf("Games(%+v) = %q, %v; want %q", tc.f, got, err, tc.want)
		}
	}
	gs, err := s.Games(ctx, archive.GameFilter{Status: archive.Invited, WithPlies: true})
	if err != nil || len(gs) != 1 || !reflect.DeepEqual(gs[0], game(t, s, "I1")) {
		t.Errorf("Games(invited, with plies) = %+v, %v; want I1 as Game returns it", gs, err)
	}
	if _, err := s.Games(ctx, archive.GameFilter{Status: "paused"}); !errors.Is(err, archive.ErrInvalid) {
		t.Errorf("Games(paused) = %v, want ErrInvalid", err)
	}
}

// TestLockedIsUnavailable holds the write lock from another connection, as
// a second process would: a Commit fails with ErrUnavailable once the busy
// timeout has passed, reads go on (WAL), and the Commit works once the lock
// is gone.
func TestLockedIsUnavailable(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "taflmail.db")
	s, err := archive.OpenWith(ctx, path, archive.Options{BusyTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	commit(t, s, archive.Change{Games: []*archive.Game{newGame("G1")}})

	other, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}

	start := time.Now()
	err = s.Commit(ctx, archive.Change{Mail: mail("<m1>", "G1"), Outbox: []archive.OutboxMail{reply("G1", "<r1>", "bob@example.net")}})
	if !errors.Is(err, archive.ErrUnavailable) {
		t.Fatalf("Commit while locked = %v, want ErrUnavailable", err)
	}
	if waited := time.Since(start); waited < 50*time.Millisecond {
		t.Errorf("Commit gave up after %v, before the busy timeout", waited)
	}
	var ae *archive.Error
	if !errors.As(err, &ae) || !ae.Temporary() {
		t.Errorf("error %v: want a temporary *archive.Error", err)
	}
	for name, err := range map[string]error{
		"MarkSent":        s.MarkSent(ctx, 1, t0),
		"SetMailboxState": s.SetMailboxState(ctx, "INBOX", 1, 1),
	} {
		if !errors.Is(err, archive.ErrUnavailable) {
			t.Errorf("%s while locked = %v, want ErrUnavailable", name, err)
		}
	}
	if _, err := s.Game(ctx, "G1"); err != nil {
		t.Errorf("Game while locked = %v, want a read to work", err)
	}

	if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.Processed(ctx, "<m1>", ""); ok {
		t.Error("the failed Commit's mail is recorded")
	}
	commit(t, s, archive.Change{Mail: mail("<m1>", "G1")})
}

// TestContextCanceled: a canceled context ends a call with its error.
func TestContextCanceled(t *testing.T) {
	s, _, _ := openStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := s.Commit(ctx, archive.Change{Mail: mail("<m1>", "G1")})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Commit(canceled) = %v, want context.Canceled", err)
	}
	if _, err := s.Game(ctx, "G1"); !errors.Is(err, context.Canceled) {
		t.Errorf("Game(canceled) = %v, want context.Canceled", err)
	}
}

func TestErrorText(t *testing.T) {
	s, _, _ := openStore(t)
	ctx := context.Background()
	commit(t, s, archive.Change{Mail: mail("<m1>", "")})
	for _, tc := range []struct {
		err  error
		want string
	}{
		{s.Commit(ctx, archive.Change{Mail: mail("<m1>", "")}), `archive: commit: mail "<m1>": mail already processed`},
		{func() error { _, err := s.Game(ctx, "K7QX2M"); return err }(), `archive: game: game "K7QX2M": not found`},
		{s.MarkSent(ctx, 42, t0), `archive: mark sent: outbox mail 42: not found`},
		{s.Commit(ctx, archive.Change{Games: []*archive.Game{{ID: "G"}}}), `archive: commit: invalid value: game "G": empty variant`},
	} {
		if got := fmt.Sprint(tc.err); got != tc.want {
			t.Errorf("error = %q, want %q", got, tc.want)
		}
	}
}
