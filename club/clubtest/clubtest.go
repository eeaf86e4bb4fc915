// Package clubtest builds archives that look like a club's: players, a
// finished, a running and an upcoming tournament, casual games (rated,
// timed, private, challenges, against the engine) and the ratings of the
// rated ones, played as random legal games through the engine. The
// tests of club, web and cmd/taflmail read them, and the benchmarks of
// the site use a large one. Everything a page must never show (the
// players' addresses, the games' and entries' keys, the private games)
// is listed in the Fixture, so a test can look for it in what it got.
//
// It is for tests: no binary links it.
package clubtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/tournament"
)

// Options size a fixture; the zero value is the small club of the tests.
type Options struct {
	// Events is the number of finished tournaments besides the running
	// and the upcoming one (1 when 0); EventPlayers the players of each
	// (4 when 0), who play matches of two games.
	Events, EventPlayers int
	// Casual is the number of finished casual games besides the special
	// ones (3 when 0).
	Casual int
	// MaxPlies ends a random game by resignation after that many plies
	// (60 when 0).
	MaxPlies int
	// Seed seeds the random games.
	Seed uint64
}

// Fixture is a built archive and what a page must not show.
type Fixture struct {
	// Path is the archive file.
	Path string
	// Start is the clock at the first game; Now the clock at the end.
	Start, Now time.Time
	// Addresses are every player's address; Secrets every game key,
	// entry key and pending key, and the pseudonym key in hex.
	Addresses, Secrets []string
	// Private are the ids of the private games, Hidden those of the
	// challenges and declined games: no page may show them.
	Private, Hidden []string
	// Named maps the address of the player who chose a public name to
	// it.
	Named map[string]string
	// Finished, Running and Upcoming are the ids of the tournaments.
	Finished []string
	Running  string
	Upcoming string
	// Games is the number of public games.
	Games int
}

// builder holds the state of one Build.
type builder struct {
	ctx   context.Context
	store *archive.Store
	now   time.Time
	rng   *rand.Rand
	f     *Fixture
	o     Options
	seq   int
	rated []ratedGame
}

type ratedGame struct {
	id  string
	g   tournament.RatedGame
	res string
}

// Build writes a fixture archive at path (a new file) and closes it.
func Build(ctx context.Context, path string, o Options) (*Fixture, error) {
	if o.Events == 0 {
		o.Events = 1
	}
	if o.EventPlayers == 0 {
		o.EventPlayers = 4
	}
	if o.Casual == 0 {
		o.Casual = 3
	}
	if o.MaxPlies == 0 {
		o.MaxPlies = 60
	}
	b := &builder{ctx: ctx, now: time.Date(2027, 1, 4, 9, 0, 0, 0, time.UTC), rng: rand.New(rand.NewPCG(o.Seed, 7)), o: o,
		f: &Fixture{Path: path, Named: map[string]string{}}}
	b.f.Start = b.now
	store, err := archive.OpenWith(ctx, path, archive.Options{Now: func() time.Time { return b.now }})
	if err != nil {
		return nil, err
	}
	defer store.Close()
	b.store = store
	if err := b.build(); err != nil {
		return nil, err
	}
	key, err := store.PseudonymKey(ctx)
	if err != nil {
		return nil, err
	}
	b.f.Secrets = append(b.f.Secrets, fmt.Sprintf("%x", key))
	b.f.Now = b.now
	return b.f, nil
}

// player returns the address of player n.
func (b *builder) player(prefix string, n int) string {
	a := fmt.Sprintf("%s%d@club%d.example.org", prefix, n, n%3)
	for _, x := range b.f.Addresses {
		if x == a {
			return a
		}
	}
	b.f.Addresses = append(b.f.Addresses, a)
	return a
}

// tick moves the clock on.
func (b *builder) tick(d time.Duration) { b.now = b.now.Add(d) }

// secret returns a new key of ten characters and lists it.
func (b *builder) secret() string {
	const alpha = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	var s strings.Builder
	for range 10 {
		s.WriteByte(alpha[b.rng.IntN(len(alpha))])
	}
	b.f.Secrets = append(b.f.Secrets, s.String())
	return s.String()
}

// gameID returns a new game id.
func (b *builder) gameID() string {
	b.seq++
	return fmt.Sprintf("G%05d", b.seq)
}

func (b *builder) commit(c archive.Change) error { return b.store.Commit(b.ctx, c) }

func (b *builder) build() error {
	// a player who chose a public name
	ada := b.player("ada", 0)
	b.f.Named[ada] = "Ada Lovelace"
	if err := b.commit(archive.Change{Players: []archive.Player{{Address: ada, Name: "Ada L."}}, Writes: []archive.Write{archive.PublicNames{ada: "Ada Lovelace"}}}); err != nil {
		return err
	}
	n := b.o.EventPlayers
	for e := 0; e < b.o.Events; e++ {
		var players []string
		for i := 0; i < n; i++ {
			players = append(players, b.player("p", (e*n/2+i)%(n*2)))
		}
		players[0] = ada
		id := fmt.Sprintf("cup-%d", e+1)
		if err := b.tournament(id, fmt.Sprintf("Winter Cup %d", e+1), players, true, e == 0); err != nil {
			return err
		}
		b.f.Finished = append(b.f.Finished, id)
	}
	var running []string
	for i := 0; i < 4; i++ {
		running = append(running, b.player("r", i))
	}
	b.f.Running = "spring-2027"
	if err := b.tournament(b.f.Running, "Spring Open 2027", running, false, false); err != nil {
		return err
	}
	if err := b.casual(); err != nil {
		return err
	}
	if err := b.upcoming(); err != nil {
		return err
	}
	return b.rate()
}
