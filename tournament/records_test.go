package tournament

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// recordsFile is a multi-game file: an event in two groups with no game
// between them, a second event, a game still running, records without
// a player or with a player on both sides, and Date tags of every kind.
const recordsFile = `[Event "Cup"]
[Date "2027.01.10"]
[Attackers "a"]
[Defenders "b"]
[Result "attackers"]

1. d1-d3 h6-h9 2. --- attackers

[Event "Cup"]
[Date "2027.01.12"]
[Attackers "c"]
[Defenders "d"]

draw

[Event "League"]
[Date "2027.02.01"]
[Attackers "a"]
[Defenders "c"]

defenders

[Event "Cup"]
[Attackers "b"]
[Defenders "a"]

*

[Event "Cup"]
[Date "2027.??.??"]
[Attackers "d"]
[Defenders "c"]

attackers

[Event "Cup"]
[Date "2027.03.01"]
[Attackers "e"]

attackers

[Date "2027.03.02"]
[Attackers "x"]
[Defenders "x"]

draw
`

func readRecords(t *testing.T) []*notation.Game {
	t.Helper()
	games, err := notation.ReadGames("cup.tafl", []byte(recordsFile), notation.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return games
}

func TestSectionsFromRecords(t *testing.T) {
	secs, errs := SectionsFromRecords(readRecords(t))
	if len(errs) != 2 || !errors.Is(errs[0], ErrRecord) || !errors.Is(errs[1], ErrRecord) {
		t.Fatalf("errors = %v, want 2 wrapping ErrRecord (no Defenders; x on both sides)", errs)
	}
	if want := "cup.tafl:36:1: game 6: no Defenders tag"; !strings.Contains(errs[0].Error(), want) {
		t.Errorf("error = %v, want it to say %q", errs[0], want)
	}
	type sec struct {
		event   string
		number  int
		players []string
		results []engine.Result
	}
	want := []sec{
		{"Cup", 1, []string{"a", "b"}, []engine.Result{engine.AttackersWin, engine.Ongoing}},
		{"Cup", 2, []string{"c", "d"}, []engine.Result{engine.Draw, engine.AttackersWin}},
		{"League", 0, []string{"a", "c"}, []engine.Result{engine.DefendersWin}},
	}
	if len(secs) != len(want) {
		t.Fatalf("%d sections, want %d: %+v", len(secs), len(want), secs)
	}
	for i, w := range want {
		s := secs[i]
		var res []engine.Result
		for _, g := range s.Games {
			res = append(res, g.Result)
		}
		if s.Event != w.event || s.Number != w.number || !slices.Equal(s.Players, w.players) || !slices.Equal(res, w.results) {
			t.Errorf("section %d = %s/%d %v %v, want %s/%d %v %v", i, s.Event, s.Number, s.Players, res, w.event, w.number, w.players, w.results)
		}
	}
}

func TestRatedGamesFromRecords(t *testing.T) {
	rated, errs := RatedGamesFromRecords(readRecords(t))
	// Rated: a–b, c–d, a–c. Left out: b–a (goes on, no complaint), d–c
	// (Date with unknown digits), e (no Defenders), x–x.
	if len(errs) != 3 {
		t.Errorf("errors = %v, want 3", errs)
	}
	want := []RatedGame{
		{"copenhagen", "a", "b", engine.AttackersWin, time.Date(2027, 1, 10, 0, 0, 0, 0, time.UTC)},
		{"copenhagen", "c", "d", engine.Draw, time.Date(2027, 1, 12, 0, 0, 0, 0, time.UTC)},
		{"copenhagen", "a", "c", engine.DefendersWin, time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC)},
	}
	if !slices.Equal(rated, want) {
		t.Errorf("rated = %+v\nwant %+v", rated, want)
	}
}

func TestGameEnd(t *testing.T) {
	games := readRecords(t)
	if end, err := GameEnd(games[0]); err != nil || !end.Equal(time.Date(2027, 1, 10, 0, 0, 0, 0, time.UTC)) || end.Location() != time.UTC {
		t.Errorf("GameEnd(Date 2027.01.10) = %v, %v; want 2027-01-10T00:00:00Z", end, err)
	}
	for _, i := range []int{3, 4} { // no Date; 2027.??.??
		if _, err := GameEnd(games[i]); !errors.Is(err, ErrRecord) {
			t.Errorf("GameEnd(game %d) = %v, want ErrRecord", i+1, err)
		}
	}
	// a timed record ends at its last ply's %ts, not at its Date; a final
	// resignation without one at the last ply that has one
	timed := "[Date \"2027.01.10\"]\n[TimeControl \"3d/move\"]\n[Start \"2027-01-10T08:00:00Z\"]\n\n" +
		"1. d1-e1 {[%ts 2027-01-11T09:30:00Z]} d3-f3 {[%ts 2027-01-12T18:45:10Z]} 2. --- defenders\n"
	v, _ := engine.Lookup("brandubh")
	gs, err := notation.ReadGames("timed.tafl", []byte(timed), notation.ReadOptions{Variant: v})
	if err != nil {
		t.Fatal(err)
	}
	if end, err := GameEnd(gs[0]); err != nil || !end.Equal(time.Date(2027, 1, 12, 18, 45, 10, 0, time.UTC)) {
		t.Errorf("GameEnd(timed record) = %v, %v; want 2027-01-12T18:45:10Z", end, err)
	}
	// a final resignation with a %ts of its own ends the game then; an
	// End tag (a draw agreed, a resignation while the opponent was to
	// move, an untimed game) says when the game ended, whatever the plies
	// say; an End that is no instant is an error at its line
	for _, c := range []struct {
		text string
		want time.Time
	}{
		{"[Date \"2027.01.10\"]\n[TimeControl \"3d/move\"]\n[Start \"2027-01-10T08:00:00Z\"]\n\n" +
			"1. d1-e1 {[%ts 2027-01-11T09:30:00Z]} --- {[%ts 2027-01-13T07:00:00Z]} attackers\n",
			time.Date(2027, 1, 13, 7, 0, 0, 0, time.UTC)},
		{"[Date \"2027.01.10\"]\n[TimeControl \"3d/move\"]\n[Start \"2027-01-10T08:00:00Z\"]\n[End \"2027-01-14T06:30:00Z\"]\n\n" +
			"1. d1-e1 {[%ts 2027-01-11T09:30:00Z]} draw\n",
			time.Date(2027, 1, 14, 6, 30, 0, 0, time.UTC)},
		{"[Date \"2027.01.10\"]\n[End \"2027-01-15T12:00:00+01:00\"]\n[Termination \"resignation\"]\n\nattackers\n",
			time.Date(2027, 1, 15, 11, 0, 0, 0, time.UTC)},
	} {
		gs, err := notation.ReadGames("end.tafl", []byte(c.text), notation.ReadOptions{Variant: v})
		if err != nil {
			t.Fatal(err)
		}
		if end, err := GameEnd(gs[0]); err != nil || !end.Equal(c.want) || end.Location() != time.UTC {
			t.Errorf("GameEnd(%q) = %v, %v; want %v", c.text, end, err, c.want)
		}
	}
	bad := "[Date \"2027.01.10\"]\n[End \"soon\"]\n\nattackers\n"
	gs, err = notation.ReadGames("bad.tafl", []byte(bad), notation.ReadOptions{Variant: v})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := GameEnd(gs[0]); !errors.Is(err, ErrRecord) || !strings.Contains(err.Error(), "bad.tafl:2:") {
		t.Errorf("GameEnd(End \"soon\") = %v, want ErrRecord at line 2", err)
	}
}

// TestRatedGamesUnnamedRules: a game under rules that have no name is
// not rated (ratings are kept per variant, and every unnamed rules string
// would share one "custom" pool; trial report §10); the error says how to
// name them and points at the Rules tag. Named rules are rated under
// their name.
func TestRatedGamesUnnamedRules(t *testing.T) {
	v, _ := engine.Lookup("brandubh")
	alt := *v
	alt.Name, alt.FirstSide = "", engine.Defenders
	rules, err := notation.RulesString(&alt)
	if err != nil {
		t.Fatal(err)
	}
	text := "[Event \"e\"]\n[Date \"2027.01.10\"]\n[Attackers \"a\"]\n[Defenders \"b\"]\n[Rules \"" + rules + "\"]\n\ndefenders\n\n" +
		"[Event \"e\"]\n[Date \"2027.01.11\"]\n[Attackers \"a\"]\n[Defenders \"b\"]\n[Variant \"brandubh-df\"]\n[Rules \"" + rules + "\"]\n\nattackers\n"
	games, err := notation.ReadGames("r.tafl", []byte(text), notation.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rated, errs := RatedGamesFromRecords(games)
	if len(errs) != 1 || !errors.Is(errs[0], ErrRecord) ||
		!strings.Contains(errs[0].Error(), "r.tafl:5:1: game 1: the rules have no name") || !strings.Contains(errs[0].Error(), "Variant tag") {
		t.Errorf("errors = %v, want one for the unnamed rules, at the Rules tag", errs)
	}
	if len(rated) != 1 || rated[0].Variant != "brandubh-df" {
		t.Errorf("rated = %+v, want the named game only", rated)
	}
}

// TestRatedGamesSkipUnrated: a record that says it is not rated
// (`[Rated "no"]`, as the referee writes for a casual game not agreed as
// rated or a game of an unrated event) is left out without complaint;
// one without the tag, or with another value, is rated.
func TestRatedGamesSkipUnrated(t *testing.T) {
	text := "[Date \"2027.01.10\"]\n[Attackers \"a\"]\n[Defenders \"b\"]\n[Rated \"no\"]\n\nattackers\n\n" +
		"[Date \"2027.01.11\"]\n[Attackers \"a\"]\n[Defenders \"c\"]\n[Rated \"No\"]\n\ndefenders\n\n" +
		"[Date \"2027.01.12\"]\n[Attackers \"b\"]\n[Defenders \"c\"]\n\ndraw\n\n" +
		"[Date \"2027.01.13\"]\n[Attackers \"c\"]\n[Defenders \"a\"]\n[Rated \"yes\"]\n\nattackers\n"
	v, _ := engine.Lookup("brandubh")
	gs, err := notation.ReadGames("unrated.tafl", []byte(text), notation.ReadOptions{Variant: v})
	if err != nil {
		t.Fatal(err)
	}
	rated, errs := RatedGamesFromRecords(gs)
	if len(errs) > 0 || len(rated) != 2 || rated[0].Attackers != "b" || rated[1].Attackers != "c" {
		t.Errorf("rated games = %+v, %v; want b–c and c–a only", rated, errs)
	}
}

// TestBergerOrderFromRounds: the games of a round robin, in any order,
// give back their players in Berger number order from their rounds and
// boards (single games and matches, even and odd counts); games that are
// not such a table (a round missing, a pairing twice) give nil, and the
// sections keep the order of first appearance.
func TestBergerOrderFromRounds(t *testing.T) {
	for _, c := range []struct {
		players []string
		per     int
	}{
		{[]string{"d", "a", "c", "b"}, 1},
		{[]string{"e", "b", "d", "a", "c"}, 2},
	} {
		games, err := RoundRobin(c.players, Options{GamesPerPairing: c.per})
		if err != nil {
			t.Fatal(err)
		}
		slices.Reverse(games) // the order of the records is not the table's
		if got := bergerOrder(games); !slices.Equal(got, c.players) {
			t.Errorf("%d players, %d per pairing: order %v, want %v", len(c.players), c.per, got, c.players)
		}
		lost := slices.Clone(games)
		lost[0].Round = 0
		if got := bergerOrder(lost); got != nil {
			t.Errorf("a game without its round: order %v, want nil", got)
		}
		twice := append(slices.Clone(games), games[len(games)-1])
		if got := bergerOrder(twice); got != nil {
			t.Errorf("a pairing twice: order %v, want nil", got)
		}
	}
}
