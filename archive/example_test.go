package archive_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/taflmail/taflmail/archive"
)

// The referee's round for one move mail, and the sender's for its reply.
func Example() {
	ctx := context.Background()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	s, err := archive.OpenWith(ctx, ":memory:", archive.Options{Now: func() time.Time { return now }})
	if err != nil {
		panic(err)
	}
	defer s.Close()

	// A challenge accepted earlier.
	err = s.Commit(ctx, archive.Change{Games: []*archive.Game{{
		ID: "K7QX2M", Variant: "copenhagen", Status: archive.Active,
		Attackers: "alice@example.org", Defenders: "bob@example.net", Challenger: "alice@example.org",
	}}})
	if err != nil {
		panic(err)
	}

	// Alice's move arrives. Read the game, check the move (the engine's
	// job), then record the mail, the ply and the reply at once.
	g, err := s.Game(ctx, "K7QX2M")
	if err != nil {
		panic(err)
	}
	change := archive.Change{
		Mail:     archive.ProcessedMail{MessageID: "m1@example.org", From: "alice@example.org", GameID: g.ID, Disposition: "applied", At: now},
		Games:    []*archive.Game{g},
		NewPlies: map[string][]archive.Ply{g.ID: {{N: g.PlyCount + 1, Move: "d1-d3", At: now, MessageID: "m1@example.org"}}},
		Outbox: []archive.OutboxMail{{GameID: g.ID, MessageID: "r1@taflmail.example", From: "games@taflmail.example",
			To: []string{"bob@example.net"}, Raw: []byte("Subject: K7QX2M: alice played d1-d3\r\n\r\n...")}},
	}
	fmt.Println("commit:", s.Commit(ctx, change))
	fmt.Println("version:", g.Version, "plies:", g.PlyCount)

	// The same mail delivered again changes nothing.
	err = s.Commit(ctx, change)
	fmt.Println("again:", errors.Is(err, archive.ErrDuplicate))

	// The sender drains the outbox.
	due, err := s.PendingOutbox(ctx, now, 10)
	if err != nil {
		panic(err)
	}
	for _, m := range due {
		fmt.Println("send", m.MessageID, "to", m.To)
		_ = s.MarkSent(ctx, m.ID, now)
	}
	// Output:
	// commit: <nil>
	// version: 2 plies: 1
	// again: true
	// send r1@taflmail.example to [bob@example.net]
}
