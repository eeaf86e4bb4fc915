package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server"
	"github.com/taflmail/taflmail/tournament"
)

// tournamentNow is the instant the tournament tests act at: --now.
const tournamentNow = "2027-02-20T10:00:00Z"

// tdir is the directory of the tournament files.
const tdir = "testdata/tournament"

// newArchiveFile creates an empty archive and returns its path (the
// operator commands refuse a missing one).
func newArchiveFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "taflmail.db")
	s, err := archive.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	return path
}

// TestTournamentCreateErrors: a file with every kind of mistake is
// refused with each problem at its line, and nothing is stored.
func TestTournamentCreateErrors(t *testing.T) {
	db := newArchiveFile(t)
	for _, name := range []string{"bad.yaml", "bad2.yaml", "bad3.yaml", "bad4.yaml", "bad5.yaml", "bad6.yaml", "bad7.yaml"} {
		t.Run(name, func(t *testing.T) {
			r := run(t, "tournament", "create", filepath.Join(tdir, name), "--archive-path", db, "--now", tournamentNow)
			if r.code != exitFailure || r.stdout != "" {
				t.Fatalf("create %s = code %d, stdout %q; want 1 and nothing", name, r.code, r.stdout)
			}
			checkOperatorGolden(t, "tournament-create-"+strings.TrimSuffix(name, ".yaml")+".txt", r.stderr)
		})
	}
	r := run(t, "tournament", "list", "--archive-path", db)
	if r.code != exitOK || r.stdout != "no tournaments\n" {
		t.Errorf("after the refused files, list = %d %q", r.code, r.stdout)
	}
}

// TestTournamentCreateRefusesWhatCannotStart: create refuses, at the
// line, what `tournament start` could not start (issue 18 §4): the
// engine's address and the referee's own among the players, and more
// players than server.max_tournament_players, named at the first player
// too many. Nothing is stored.
func TestTournamentCreateRefusesWhatCannotStart(t *testing.T) {
	db := newArchiveFile(t)
	for _, tc := range []struct {
		file string
		args []string
	}{
		{"bad8.yaml", []string{"--server-address", "tafl@game.test"}},
		{"big.yaml", []string{"--server-max-tournament-players", "4"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			args := append([]string{"tournament", "create", filepath.Join(tdir, tc.file), "--archive-path", db, "--now", tournamentNow}, tc.args...)
			r := run(t, args...)
			if r.code != exitFailure || r.stdout != "" {
				t.Fatalf("create %s = code %d, stdout %q, stderr %q; want 1 and nothing", tc.file, r.code, r.stdout, r.stderr)
			}
			checkOperatorGolden(t, "tournament-create-"+strings.TrimSuffix(tc.file, ".yaml")+".txt", r.stderr)
		})
	}
	// the same five players where five are allowed (the default)
	r := run(t, "tournament", "create", filepath.Join(tdir, "big.yaml"), "--archive-path", db, "--now", tournamentNow)
	if r.code != exitOK {
		t.Fatalf("create big.yaml with the default maximum = code %d, stderr %q", r.code, r.stderr)
	}
	r = run(t, "tournament", "list", "--archive-path", db)
	if r.code != exitOK || strings.Contains(r.stdout, "summer-2027") || !strings.Contains(r.stdout, "autumn-2027") {
		t.Errorf("after the refused files, list = %d %q", r.code, r.stdout)
	}
}

// TestTournamentCreate: a good file is stored as written; the same id
// again is refused; an open event is listed as taking entries.
func TestTournamentCreate(t *testing.T) {
	db := newArchiveFile(t)
	for _, name := range []string{"good.yaml", "open.yaml"} {
		r := run(t, "tournament", "create", filepath.Join(tdir, name), "--archive-path", db, "--now", tournamentNow)
		if r.code != exitOK || r.stderr != "" {
			t.Fatalf("create %s = code %d, stderr %q", name, r.code, r.stderr)
		}
		checkOperatorGolden(t, "tournament-create-"+strings.TrimSuffix(name, ".yaml")+".txt", r.stdout)
	}
	r := run(t, "tournament", "create", filepath.Join(tdir, "good.yaml"), "--archive-path", db, "--now", tournamentNow)
	if r.code != exitFailure || !strings.Contains(r.stderr, `a tournament "spring-2027" exists already`) {
		t.Errorf("creating spring-2027 twice = code %d, stderr %q", r.code, r.stderr)
	}
	r = run(t, "tournament", "show", "open-2027", "--archive-path", db)
	if r.code != exitOK {
		t.Fatalf("show = code %d, stderr %q", r.code, r.stderr)
	}
	checkOperatorGolden(t, "tournament-show-open.txt", r.stdout)
	r = run(t, "tournament", "show", "nope", "--archive-path", db)
	if r.code != exitFailure || !strings.Contains(r.stderr, `no tournament "nope"`) {
		t.Errorf("show of an unknown id = code %d, stderr %q", r.code, r.stderr)
	}
	// starting needs the server's address, and players
	r = run(t, "tournament", "start", "open-2027", "--archive-path", db, "--now", tournamentNow)
	if r.code != exitUsage || !strings.Contains(r.stderr, "server.address") {
		t.Errorf("start without server.address = code %d, stderr %q", r.code, r.stderr)
	}
	r = run(t, "tournament", "start", "open-2027", "--archive-path", db, "--server-address", "tafl@game.test", "--now", tournamentNow)
	if r.code != exitFailure || !strings.Contains(r.stderr, "too few players") {
		t.Errorf("start with nobody entered = code %d, stderr %q", r.code, r.stderr)
	}
}

// tournamentFixture is an archive in which good.yaml's event was created
// by the CLI, started by a referee with a seeded random source and a
// fixed clock, and played in part by mail, as spring.go's players would:
// ids, keys and times are the same on every run.
type tournamentFixture struct {
	path  string
	srv   *server.Server
	store *archive.Store
	now   *time.Time
	seq   int
}

func newTournamentFixture(t *testing.T) *tournamentFixture {
	t.Helper()
	ctx := context.Background()
	f := &tournamentFixture{path: newArchiveFile(t)}
	r := run(t, "tournament", "create", filepath.Join(tdir, "good.yaml"), "--archive-path", f.path, "--now", tournamentNow)
	if r.code != exitOK {
		t.Fatalf("create = %d %q", r.code, r.stderr)
	}
	now, _ := time.Parse(time.RFC3339, "2027-03-01T00:00:00Z")
	f.now = &now
	clock := func() time.Time { return *f.now }
	store, err := archive.OpenWith(ctx, f.path, archive.Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	f.store = store
	f.srv, err = server.New(server.Options{Address: "tafl@game.test", Store: store, Sender: &fixtureSender{}, Now: clock,
		Rand: rand.NewChaCha8([32]byte{11}), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	// the scheduler starts it on its start date
	if n, err := f.srv.RunTimers(ctx); err != nil || n != 1 {
		t.Fatalf("RunTimers on the start date = %d, %v", n, err)
	}
	gs, err := store.TournamentGames(ctx, "spring-2027", false)
	if err != nil || len(gs) != 12 {
		t.Fatalf("%d games, %v", len(gs), err)
	}
	// the first six games: a ply each, then three resignations and a draw
	for _, g := range gs[:6] {
		f.mail(t, g, g.Attackers, "d1-e1")
	}
	f.mail(t, gs[0], gs[0].Defenders, "resign")
	f.mail(t, gs[1], gs[1].Attackers, "resign")
	f.mail(t, gs[2], gs[2].Defenders, "offer draw")
	f.mail(t, gs[2], gs[2].Attackers, "accept draw")
	f.mail(t, gs[3], gs[3].Defenders, "resign")
	return f
}

// mail delivers a mail from player about game g with its tag and key.
func (f *tournamentFixture) mail(t *testing.T, g *archive.Game, player, body string) {
	t.Helper()
	ctx := context.Background()
	full, err := f.store.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	key := full.AttackerToken
	if player == full.Defenders {
		key = full.DefenderToken
	}
	f.seq++
	*f.now = f.now.Add(time.Hour)
	raw := fmt.Sprintf("From: %s\r\nTo: tafl@game.test\r\nSubject: [taflmail %s %s]\r\nDate: %s\r\nMessage-ID: <t%d@player.test>\r\n"+
		"Content-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n", player, g.ID, key, f.now.Format(time.RFC1123Z), f.seq, body)
	m, err := mailer.Parse(strings.NewReader(raw), 0)
	if err != nil {
		t.Fatal(err)
	}
	m.Arrived = *f.now
	if err := f.srv.HandleMail(ctx, m); err != nil {
		t.Fatal(err)
	}
}

// run runs taflmail on the fixture's archive at the fixture's clock.
func (f *tournamentFixture) run(t *testing.T, args ...string) result {
	t.Helper()
	return run(t, append(args, "--archive-path", f.path, "--now", f.now.Format(time.RFC3339))...)
}

// TestTournamentDirector: list, show, standings (text and JSON), the
// director's withdrawal and the export, whose records validate, give the
// same standings with the withdrawal named, and the same ratings.
func TestTournamentDirector(t *testing.T) {
	f := newTournamentFixture(t)
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"tournament-list.txt", []string{"tournament", "list"}},
		{"tournament-show.txt", []string{"tournament", "show", "SPRING-2027"}},
		{"tournament-standings.txt", []string{"tournament", "standings", "spring-2027"}},
		{"tournament-standings.jsonl", []string{"tournament", "standings", "spring-2027", "--json"}},
	} {
		r := f.run(t, tc.args...)
		if r.code != exitOK || r.stderr != "" {
			t.Fatalf("taflmail %v = code %d, stderr %q", tc.args, r.code, r.stderr)
		}
		checkOperatorGolden(t, tc.golden, r.stdout)
	}

	// the games list shows the ratings of rated games
	r := run(t, "games", "--status", "finished", "--archive-path", f.path)
	if r.code != exitOK {
		t.Fatalf("games = code %d, stderr %q", r.code, r.stderr)
	}
	checkOperatorGolden(t, "games-rated.txt", r.stdout)

	// dave withdraws (by the director) having finished fewer than half
	r = f.run(t, "tournament", "withdraw", "spring-2027", "dave@player.test", "--server-address", "tafl@game.test")
	if r.code != exitOK {
		t.Fatalf("withdraw = code %d, stderr %q", r.code, r.stderr)
	}
	checkOperatorGolden(t, "tournament-withdraw.txt", r.stdout)
	// list and show count dave's annulled games as the crosstable does:
	// neither finished nor scheduled (issue 22 §9: list said 8/12)
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"tournament-list-annulled.txt", []string{"tournament", "list"}},
		{"tournament-show-annulled.txt", []string{"tournament", "show", "spring-2027"}},
	} {
		r := f.run(t, tc.args...)
		if r.code != exitOK || r.stderr != "" {
			t.Fatalf("taflmail %v = code %d, stderr %q", tc.args, r.code, r.stderr)
		}
		checkOperatorGolden(t, tc.golden, r.stdout)
	}
	r = f.run(t, "tournament", "withdraw", "spring-2027", "dave@player.test", "--server-address", "tafl@game.test")
	if r.code != exitFailure || !strings.Contains(r.stderr, "not a player") {
		t.Errorf("withdrawing dave twice = code %d, stderr %q", r.code, r.stderr)
	}
	// a running event cannot start again: said in the director's words,
	// not the server package's (outside trial §15)
	r = f.run(t, "tournament", "start", "spring-2027", "--server-address", "tafl@game.test")
	if want := "taflmail: tournament spring-2027 cannot be started: it is running; only a tournament that has not started yet can be\n"; r.code != exitFailure || r.stderr != want {
		t.Errorf("starting a running event = code %d, stderr %q; want %q", r.code, r.stderr, want)
	}

	out := filepath.Join(t.TempDir(), "spring.tafl")
	r = f.run(t, "tournament", "export", "spring-2027", "-o", out)
	if r.code != exitOK || r.stderr != "withdrawn players: taflmail standings --withdrawn dave@player.test FILE\n" {
		t.Fatalf("export = code %d, stderr %q", r.code, r.stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	checkOperatorGolden(t, "tournament-export.tafl", string(data))
	if v := run(t, "validate", out); v.code != exitOK {
		t.Errorf("validate of the export = code %d, stderr %q\n%s", v.code, v.stderr, v.stdout)
	}
	// standings: the records with the withdrawal named = the archive's
	fromRecords := run(t, "standings", "--json", "--withdrawn", "dave@player.test", out)
	fromArchive := f.run(t, "tournament", "standings", "spring-2027", "--json")
	if fromRecords.code != exitOK || fromArchive.code != exitOK {
		t.Fatalf("standings = %d %q, tournament standings = %d %q", fromRecords.code, fromRecords.stderr, fromArchive.code, fromArchive.stderr)
	}
	var a, b tournament.Standings
	if err := json.Unmarshal([]byte(fromRecords.stdout), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(fromArchive.stdout), &b); err != nil {
		t.Fatal(err)
	}
	if len(a.Rows) != 3 || !sameStandings(a, b) || len(a.Annulled) != 1 || a.Annulled[0] != "dave@player.test" {
		t.Errorf("standings of the export:\n%s\nof the archive:\n%s", fromRecords.stdout, fromArchive.stdout)
	}
	// ratings: taflmail ratings over the export = the archive's
	rr := run(t, "ratings", "--json", out)
	if rr.code != exitOK {
		t.Fatalf("ratings = code %d, stderr %q", rr.code, rr.stderr)
	}
	for _, line := range strings.Split(strings.TrimSpace(rr.stdout), "\n") {
		var j ratingJSON
		if err := json.Unmarshal([]byte(line), &j); err != nil {
			t.Fatal(err)
		}
		got, err := f.store.Rating(context.Background(), j.Player, j.Variant)
		if err != nil || round(got.Value.R, 2) != j.Rating || round(got.Value.RD, 2) != j.RD || got.Games != j.Games {
			t.Errorf("%s: archive %+v, %v; ratings over the export %+v", j.Player, got, err, j)
		}
	}
}

// sameStandings compares the places and scores of two tables.
func sameStandings(a, b tournament.Standings) bool {
	if len(a.Rows) != len(b.Rows) || a.Games != b.Games || a.Finished != b.Finished {
		return false
	}
	for i := range a.Rows {
		x, y := a.Rows[i], b.Rows[i]
		if x.Player != y.Player || x.Place != y.Place || x.Points != y.Points || x.SonnebornBerger != y.SonnebornBerger || x.Wins != y.Wins {
			return false
		}
	}
	return true
}
