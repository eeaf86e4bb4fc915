package archive_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
)

// t0 is the tests' "now".
var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// clock is a settable clock for Options.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

// openStore opens a new archive file in a temporary directory, with a
// clock at t0, and closes it at the end of the test.
func openStore(t testing.TB) (*archive.Store, *clock, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "taflmail.db")
	clk := &clock{t: t0}
	s, err := archive.OpenWith(context.Background(), path, archive.Options{Now: clk.Now})
	if err != nil {
		t.Fatalf("OpenWith(%q) = %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s, clk, path
}

// newGame returns an active game between alice (attackers) and bob.
func newGame(id string) *archive.Game {
	return &archive.Game{
		ID:            id,
		Variant:       "copenhagen",
		Attackers:     "alice@example.org",
		Defenders:     "bob@example.net",
		Challenger:    "alice@example.org",
		Status:        archive.Active,
		AttackerToken: "at-" + id,
		DefenderToken: "dt-" + id,
		TimeControl:   "3d/move",
	}
}

// mail returns an applied mail from alice about game.
func mail(id, game string) archive.ProcessedMail {
	return archive.ProcessedMail{
		MessageID:   id,
		ContentHash: "hash-" + id,
		From:        "Alice@Example.org",
		GameID:      game,
		Disposition: "applied",
		At:          t0,
	}
}

// reply returns an outbox mail about game to one recipient.
func reply(game, msgID, to string) archive.OutboxMail {
	return archive.OutboxMail{
		GameID:    game,
		MessageID: msgID,
		From:      "taflmail@example.com",
		To:        []string{to},
		Raw:       []byte("Subject: " + msgID + "\r\n\r\nboard\r\n"),
	}
}

// commit commits c or fails the test.
func commit(t testing.TB, s *archive.Store, c archive.Change) {
	t.Helper()
	if err := s.Commit(context.Background(), c); err != nil {
		t.Fatalf("Commit = %v", err)
	}
}

// game reads a game or fails the test.
func game(t testing.TB, s *archive.Store, id string) *archive.Game {
	t.Helper()
	g, err := s.Game(context.Background(), id)
	if err != nil {
		t.Fatalf("Game(%q) = %v", id, err)
	}
	return g
}

// outbox reads every outbox mail or fails the test.
func outbox(t testing.TB, s *archive.Store) []archive.OutboxMail {
	t.Helper()
	out, err := s.Outbox(context.Background(), "")
	if err != nil {
		t.Fatalf("Outbox = %v", err)
	}
	return out
}

// ids returns the message ids of mails.
func ids(mails []archive.OutboxMail) []string {
	var out []string
	for _, m := range mails {
		out = append(out, m.MessageID)
	}
	return out
}
