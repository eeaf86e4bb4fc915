package club_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club"
)

// TestValidTournamentID: 2 to 32 lower-case letters, digits and "-",
// starting with a letter, not ending in "-".
func TestValidTournamentID(t *testing.T) {
	for id, want := range map[string]bool{
		"winter-2027": true, "cup-27": true, "ab": true, "a1": true, "spring-cup": true,
		"a" + strings.Repeat("b", 31): true,
		"":                            false, "a": false, "cup-": false, "-cup": false, "2027-cup": false,
		"Spring-2027": false, "spring 2027": false, "spring_2027": false, "winter.2027": false,
		"a" + strings.Repeat("b", 32): false,
	} {
		if got := club.ValidTournamentID(id); got != want {
			t.Errorf("ValidTournamentID(%q) = %v, want %v", id, got, want)
		}
	}
}

// TestLooksLikeGameID: six characters of the game ids' alphabet, in any
// case; I, L, O and U are not in it.
func TestLooksLikeGameID(t *testing.T) {
	for id, want := range map[string]bool{
		"K7QX2M": true, "k7qx2m": true, "abc123": true, "ZZZZZZ": true,
		"K7QX2": false, "K7QX2MA": false, "ILOU12": false, "abc-12": false, "": false,
	} {
		if got := club.LooksLikeGameID(id); got != want {
			t.Errorf("LooksLikeGameID(%q) = %v, want %v", id, got, want)
		}
	}
}

// fileNow is the instant the tournament files below are read at.
var fileNow = time.Date(2027, 2, 20, 10, 0, 0, 0, time.UTC)

// TestReadTournamentFile: a good file becomes the event to store and its
// players, lower-cased in the file's order, with the terms' leave as the
// default.
func TestReadTournamentFile(t *testing.T) {
	data := []byte(`id: spring-2027
name: " Spring Cup 2027 "
variant: Brandubh
time_control: 30d+1d
format: groups
groups: 2
games_per_pairing: 1
start: 2027-03-01
rated: yes
players: [alice@player.test, Bob@Player.test, carol@player.test, dave@player.test]
`)
	f, err := club.ReadTournamentFile("spring.yaml", data, fileNow, club.TournamentTerms{LeaveDays: 12, MaxPlayers: 10})
	if err != nil {
		t.Fatal(err)
	}
	tm := f.Tournament
	if tm.ID != "spring-2027" || tm.Name != "Spring Cup 2027" || tm.Variant != "brandubh" || tm.TimeControl != "30d+1d" ||
		tm.Groups != 2 || tm.GamesPerPairing != 1 || !tm.Rated || tm.LeaveDays != 12 || tm.OpenEntry ||
		tm.Status != archive.TournamentCreated || !tm.CreatedAt.Equal(fileNow) ||
		!tm.StartDate.Equal(time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("tournament = %+v", tm)
	}
	if got := strings.Join(f.Players, " "); got != "alice@player.test bob@player.test carol@player.test dave@player.test" {
		t.Errorf("players = %s", got)
	}
}

// TestReadTournamentFileProblems: every problem is a *FileProblem at its
// line, in line order, and the rules the referee shares (the id's form,
// a game id's shape, MinPlayers, the engine's and the referee's own
// address, the most players) are applied.
func TestReadTournamentFileProblems(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		terms      club.TournamentTerms
		want       []string // how each Error() starts after "t.yaml": ":LINE: …", or ": …" for the file
	}{
		{"trailing dash", "id: cup-\nname: Cup\nvariant: brandubh\ntime_control: 30d+1d\nstart: 2027-03-01\nplayers: [a@p.test, b@p.test, c@p.test]\n",
			club.TournamentTerms{}, []string{":1: id: \"cup-\" is not an id"}},
		{"game id", "id: abc123\nname: Cup\nvariant: brandubh\ntime_control: 30d+1d\nstart: 2027-03-01\nplayers: [a@p.test, b@p.test, c@p.test]\n",
			club.TournamentTerms{}, []string{":1: id: \"abc123\" has the shape of a game's id"}},
		{"a word", "id: cup\nname: Cup\nvariant: brandubh\ntime_control: 30d+1d\nstart: 2027-03-01\nplayers: [a@p.test, b@p.test, c@p.test]\n",
			club.TournamentTerms{}, []string{":1: id: \"cup\" would read as a word"}},
		{"too few", "id: cup-27\nname: Cup\nvariant: brandubh\ntime_control: 30d+1d\nstart: 2027-03-01\nplayers:\n  - a@p.test\n  - b@p.test\n",
			club.TournamentTerms{}, []string{":7: players: 2 players; a round robin needs at least 3"}},
		{"one player", "id: cup-27\nname: Cup\nvariant: brandubh\ntime_control: 30d+1d\nstart: 2027-03-01\nplayers: [a@p.test]\n",
			club.TournamentTerms{}, []string{":6: players: 1 player; a round robin needs at least 3"}},
		{"engine, referee, too many", "id: cup-27\nname: Cup\nvariant: brandubh\ntime_control: 30d+1d\nstart: 2027-03-01\nplayers:\n  - " +
			club.EngineAddress + "\n  - Tafl@Game.test\n  - a@p.test\n  - b@p.test\n",
			club.TournamentTerms{Address: "tafl@game.test", MaxPlayers: 3},
			[]string{":7: players: engine@taflmail.invalid is the engine's address", ":8: players: tafl@game.test is the referee's own address",
				":10: players: 4 players, more than the 3"}},
		{"untimed, missing", "id: cup-27\ntime_control: none\n", club.TournamentTerms{},
			[]string{": name is missing", ": variant is missing", ": start is missing", ": give players",
				":2: time_control: a tournament game always has a time control"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := club.ReadTournamentFile("t.yaml", []byte(tc.file), fileNow, tc.terms)
			if err == nil {
				t.Fatalf("accepted: %+v", f)
			}
			joined, ok := err.(interface{ Unwrap() []error })
			var errs []error
			if ok {
				errs = joined.Unwrap()
			} else {
				errs = []error{err}
			}
			var got []string
			for _, e := range errs {
				var p *club.FileProblem
				if !errors.As(e, &p) || p.File != "t.yaml" {
					t.Fatalf("problem %v is not a *FileProblem of t.yaml", e)
				}
				got = append(got, strings.TrimPrefix(p.Error(), "t.yaml"))
			}
			if len(got) != len(tc.want) {
				t.Fatalf("problems:\n%s\nwant %d: %q", strings.Join(got, "\n"), len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("problem %d = t.yaml%s, want t.yaml%s…", i, got[i], w)
				}
			}
		})
	}
}
