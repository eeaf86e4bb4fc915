package archive_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/notation"
)

// TestWritesOneOfAKind: a change with two writes of one kind, or a nil
// write, is refused as invalid before anything is written, so a feature
// gathers what it writes into one value and no write is silently merged
// or dropped.
func TestWritesOneOfAKind(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	xmas := notation.Leave{First: day(2026, 12, 24), Last: day(2027, 1, 2)}
	for name, c := range map[string]archive.Change{
		"two leave writes": {Mail: mail("<two@x>", ""), Writes: []archive.Write{
			archive.LeaveWrite{"a@x": {xmas}}, archive.LeaveWrite{"b@x": {xmas}}}},
		"a nil write": {Mail: mail("<nil@x>", ""), Writes: []archive.Write{archive.LeaveWrite{"a@x": {xmas}}, nil}},
		"a nil tournament write": {Mail: mail("<niltc@x>", ""), Writes: []archive.Write{
			archive.LeaveWrite{"a@x": {xmas}}, (*archive.TournamentChange)(nil)}},
	} {
		err := s.Commit(ctx, c)
		if !errors.Is(err, archive.ErrInvalid) {
			t.Errorf("%s: Commit = %v, want ErrInvalid", name, err)
		}
		if name == "two leave writes" && (err == nil || !strings.Contains(err.Error(), "LeaveWrite")) {
			t.Errorf("%s: error %v does not name the kind", name, err)
		}
		for _, addr := range []string{"a@x", "b@x"} {
			if got, err := s.Leave(ctx, addr); err != nil || len(got) != 0 {
				t.Errorf("%s: leave of %s = %v, %v; want none", name, addr, got, err)
			}
		}
		if _, err := s.Mail(ctx, c.Mail.MessageID); !errors.Is(err, archive.ErrNotFound) {
			t.Errorf("%s: mail recorded: %v", name, err)
		}
	}
}

// TestWritesWithout: a change with no writes, or an empty list, commits
// its core as before.
func TestWritesWithout(t *testing.T) {
	s, _, _ := openStore(t)
	for i, ws := range [][]archive.Write{nil, {}} {
		g := newGame([]string{"WNONE1", "WNONE2"}[i])
		commit(t, s, archive.Change{Games: []*archive.Game{g}, Writes: ws})
		if got := game(t, s, g.ID); got.Version != 1 {
			t.Errorf("game %s: version %d, want 1", g.ID, got.Version)
		}
	}
}

// TestWritesCheckedAtTheirPlace: a write is checked at its kind's place,
// after the core fields checked before it today: a change with a broken
// game and a broken leave reports the game, and one whose later
// statement fails writes none of the write.
func TestWritesCheckedAtTheirPlace(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	reversed := archive.LeaveWrite{"a@x": {{First: day(2026, 12, 5), Last: day(2026, 12, 1)}}}
	bad := newGame("WBAD01")
	bad.Variant = ""
	err := s.Commit(ctx, archive.Change{Games: []*archive.Game{bad}, Writes: []archive.Write{reversed}})
	if !errors.Is(err, archive.ErrInvalid) || !strings.Contains(err.Error(), "empty variant") {
		t.Errorf("Commit = %v, want the game's ErrInvalid", err)
	}
	xmas := archive.LeaveWrite{"a@x": {{First: day(2026, 12, 24), Last: day(2027, 1, 2)}}}
	err = s.Commit(ctx, archive.Change{Replace: []int64{99}, Writes: []archive.Write{xmas}})
	if !errors.Is(err, archive.ErrConflict) {
		t.Errorf("Commit replacing a missing mail = %v, want ErrConflict", err)
	}
	if got, err := s.Leave(ctx, "a@x"); err != nil || len(got) != 0 {
		t.Errorf("leave after a failed commit = %v, %v; want none", got, err)
	}
	commit(t, s, archive.Change{Writes: []archive.Write{xmas}})
	if got, err := s.Leave(ctx, "a@x"); err != nil || !reflect.DeepEqual(got, xmas["a@x"]) {
		t.Errorf("leave = %v, %v; want %v", got, err, xmas["a@x"])
	}
}

// TestWritesAnyOrder: the writes of a change are checked at their kinds'
// places whatever their order in the list: a broken public name (checked
// right after the mail) is the error of a change whose leave is broken
// too (checked after the mailbox), listed either way round, and a valid
// pair commits the same either way.
func TestWritesAnyOrder(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	badName := archive.PublicNames{"": "Nobody"}
	badLeave := archive.LeaveWrite{"a@x": {{First: day(2026, 12, 5), Last: day(2026, 12, 1)}}}
	for _, ws := range [][]archive.Write{{badName, badLeave}, {badLeave, badName}} {
		err := s.Commit(ctx, archive.Change{Writes: ws})
		if !errors.Is(err, archive.ErrInvalid) || !strings.Contains(err.Error(), "public name without address") {
			t.Errorf("Commit %T, %T = %v, want the public name's ErrInvalid", ws[0], ws[1], err)
		}
	}
	for i, addr := range []string{"a@x", "b@x"} {
		name := archive.PublicNames{addr: "Player " + addr}
		leave := archive.LeaveWrite{addr: {{First: day(2026, 12, 24), Last: day(2027, 1, 2)}}}
		ws := []archive.Write{name, leave}
		if i == 1 {
			ws = []archive.Write{leave, name}
		}
		commit(t, s, archive.Change{Writes: ws})
		if got, err := s.Leave(ctx, addr); err != nil || !reflect.DeepEqual(got, leave[addr]) {
			t.Errorf("leave of %s = %v, %v; want %v", addr, got, err, leave[addr])
		}
	}
	all, err := s.PublicNames(ctx)
	if err != nil || !reflect.DeepEqual(all, map[string]string{"a@x": "Player a@x", "b@x": "Player b@x"}) {
		t.Errorf("PublicNames = %v, %v", all, err)
	}
}

// TestWritesAppliedAtTheirPlace: the writes of a change are written at
// their kinds' places whatever their order in the list: public names go
// right after the players and before the digests sent, so a change whose
// public name is taken (ErrConflict) and whose digest was sent already
// (ErrDuplicate) fails with the name's error, listed either way round.
func TestWritesAppliedAtTheirPlace(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	commit(t, s, archive.Change{Players: []archive.Player{{Address: "alice@example.org", Digest: true, DigestAt: 60, DigestDue: t0}},
		Writes: []archive.Write{archive.PublicNames{"alice@example.org": "Ada"}}})
	sent := archive.DigestsSent{{Address: "alice@example.org", Due: t0, Next: t0.Add(24 * time.Hour)}}
	commit(t, s, archive.Change{Writes: []archive.Write{sent}})
	taken := archive.PublicNames{"bob@example.net": "ADA"}
	for _, ws := range [][]archive.Write{{sent, taken}, {taken, sent}} {
		err := s.Commit(ctx, archive.Change{Writes: ws})
		if !errors.Is(err, archive.ErrConflict) || !strings.Contains(err.Error(), "public name") {
			t.Errorf("Commit %T, %T = %v, want the public name's ErrConflict", ws[0], ws[1], err)
		}
	}
	if err := s.Commit(ctx, archive.Change{Writes: []archive.Write{sent}}); !errors.Is(err, archive.ErrDuplicate) {
		t.Errorf("the digest alone again: Commit = %v, want ErrDuplicate", err)
	}
}

// TestWritesWatchOfANewGame: a spectator of a game the same change
// inserts is written after the game, as when it was a field of Change,
// whether the watch comes first in the list of writes or last.
func TestWritesWatchOfANewGame(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	leave := archive.LeaveWrite{"carol@example.org": {{First: day(2026, 12, 24), Last: day(2027, 1, 2)}}}
	for i, id := range []string{"WWATCH", "WWATC2"} {
		g := newGame(id)
		watch := archive.WatchWrite{Watch: []archive.Spectator{{GameID: id, Address: "Carol@example.org"}}}
		ws := []archive.Write{watch, leave}
		if i == 1 {
			ws = []archive.Write{leave, watch}
		}
		commit(t, s, archive.Change{Writes: ws, Games: []*archive.Game{g}})
		got, err := s.Spectators(ctx, id)
		if err != nil || len(got) != 1 || got[0].Address != "carol@example.org" || !got[0].CreatedAt.Equal(t0) {
			t.Errorf("Spectators(%s) = %+v, %v; want carol since t0", id, got, err)
		}
	}
	err := s.Commit(ctx, archive.Change{Writes: []archive.Write{archive.WatchWrite{Watch: []archive.Spectator{{GameID: "NOSUCH", Address: "carol@example.org"}}}}})
	if !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("watching a game nobody writes: Commit = %v, want ErrNotFound", err)
	}
}

// TestWritesTakeBackWithTheCore: a takeback is checked against the
// change's new plies (they must start at the ply taken back) and written
// between the games and the new plies, and the game in Games gets the
// ply count of both once committed.
func TestWritesTakeBackWithTheCore(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	g, plies := brandubhGame("WT4KEB", "d1-e1", "d3-f3", "d2-f2xf3")
	commit(t, s, archive.Change{Games: []*archive.Game{g}, NewPlies: plies})
	last := game(t, s, g.ID).Plies[2]
	err := s.Commit(ctx, archive.Change{Writes: []archive.Write{archive.TakeBacks{g.ID: {Ply: last}}},
		NewPlies: map[string][]archive.Ply{g.ID: {{N: 4, Move: "a4-b4"}}}})
	if !errors.Is(err, archive.ErrInvalid) {
		t.Errorf("new plies not at the ply taken back: Commit = %v, want ErrInvalid", err)
	}
	version := g.Version
	commit(t, s, archive.Change{Games: []*archive.Game{g}, Writes: []archive.Write{archive.TakeBacks{g.ID: {Ply: last}}},
		NewPlies: map[string][]archive.Ply{g.ID: {{N: 3, Move: "g4-g5"}}}})
	if g.PlyCount != 3 || g.Version != version+1 {
		t.Errorf("settled game: PlyCount %d, Version %d; want 3, %d", g.PlyCount, g.Version, version+1)
	}
	if got := game(t, s, g.ID); got.Plies[2].Move != "g4-g5" || len(got.TakenBack) != 1 {
		t.Errorf("stored plies %v, taken back %v", got.Plies, got.TakenBack)
	}
}

// TestWriteOf: WriteOf finds a change's write by its type, and reports
// none when the change has no write of that type.
func TestWriteOf(t *testing.T) {
	tc := &archive.TournamentChange{}
	c := archive.Change{Writes: []archive.Write{archive.PublicNames{"a@x": "A"}, tc}}
	if got, ok := archive.WriteOf[*archive.TournamentChange](&c); !ok || got != tc {
		t.Errorf("WriteOf[*TournamentChange] = %p, %v; want %p, true", got, ok, tc)
	}
	if got, ok := archive.WriteOf[archive.PublicNames](&c); !ok || got["a@x"] != "A" {
		t.Errorf("WriteOf[PublicNames] = %v, %v", got, ok)
	}
	if got, ok := archive.WriteOf[archive.LeaveWrite](&c); ok || got != nil {
		t.Errorf("WriteOf[LeaveWrite] = %v, %v; want none", got, ok)
	}
}
