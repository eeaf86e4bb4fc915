package tournament

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/taflmail/taflmail/engine"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// checkGolden compares got with testdata/name, or rewrites it under
// -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./tournament -update creates it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test ./tournament -update rewrites it; review the diff):\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// longNames are ten players whose addresses start with A…J (the script of
// TestTenPlayerRoundRobin keys on the first letter) and are far longer
// than a crosstable's name column.
var longNames = []string{
	"Aleksandra.Wisniewska-Kowalczyk@example.org",
	"Bjørn Ødegård <bjorn.odegard@example.no>",
	"Carl@example.org",
	"Dagný Sigurðardóttir <dagny@example.is>",
	"Eero Väisänen-Korhonen@example.fi",
	"Fenna@example.nl",
	"Gudrun.Hrafnhildur.Magnusdottir@example.is",
	"Hnefi the Unbreakable King of the Fortress@example.org",
	"Ingrid@example.se",
	"Jón@example.is",
}

func tenPlayerStandings(t *testing.T, names []string) *Standings {
	t.Helper()
	games, err := RoundRobin(names, Options{})
	if err != nil {
		t.Fatal(err)
	}
	scriptResults(t, games, tenScript)
	sec := Section{Event: "Nordic correspondence championship 2027 (Copenhagen, 30d+1d)", Players: names, Games: games}
	st, err := sec.Standings()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func checkWidth(t *testing.T, text string) {
	t.Helper()
	for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if n := utf8.RuneCountInString(l); n > TextWidth {
			t.Errorf("line %d has %d columns, want ≤ %d: %q", i+1, n, TextWidth, l)
		}
	}
}

// TestCrosstableText: ten players with long names, the event still
// running (J's and I's games unfinished, nobody withdrawn): blank cells
// for matches not begun, names truncated, every line within 72 columns.
// Then the same event finished with I and J withdrawn.
func TestCrosstableText(t *testing.T) {
	st := tenPlayerStandings(t, longNames)
	text := st.Text()
	checkWidth(t, text)
	checkGolden(t, "crosstable-10.golden", text)
}

// TestCrosstableWithdrawn: the finished event of TestTenPlayerRoundRobin
// with long names: nine ranked rows, I in the note on forfeits, J in the
// note on annulled games.
func TestCrosstableWithdrawn(t *testing.T) {
	games, err := RoundRobin(longNames, Options{})
	if err != nil {
		t.Fatal(err)
	}
	scriptResults(t, games, tenScript)
	sec := Section{Event: "Nordic correspondence championship 2027 (Copenhagen, 30d+1d)", Players: longNames, Games: games,
		Withdrawn: []string{longNames[8], longNames[9]}}
	st, err := sec.Standings()
	if err != nil {
		t.Fatal(err)
	}
	text := st.Text()
	checkWidth(t, text)
	checkGolden(t, "crosstable-withdrawn.golden", text)
	for _, want := range []string{"Withdrawn, games annulled: Jón@example.is", "Withdrawn, unfinished games lost: Ingrid@example.se"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}

// TestRankedList: beyond ten players the standings are a ranked list.
// Twelve players, one game per pairing, the lower Berger number always
// winning: player k has 12−k points.
func TestRankedList(t *testing.T) {
	names := make([]string, 12)
	for i := range names {
		names[i] = fmt.Sprintf("player-%02d-with-a-rather-long-address@example.org", i+1)
	}
	games, err := RoundRobin(names, Options{GamesPerPairing: 1})
	if err != nil {
		t.Fatal(err)
	}
	for k, g := range games {
		if g.Attackers < g.Defenders {
			games[k].Result = engine.AttackersWin
		} else {
			games[k].Result = engine.DefendersWin
		}
	}
	st, err := (&Section{Event: "Open", Number: 2, Players: names, Games: games}).Standings()
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range st.Rows {
		if r.Player != names[i] || r.Points != float64(11-i) {
			t.Errorf("row %d = %s with %v, want %s with %d", i+1, r.Player, r.Points, names[i], 11-i)
		}
	}
	text := st.Text()
	checkWidth(t, text)
	checkGolden(t, "ranked-12.golden", text)
	if !strings.HasPrefix(text, "Open, group 2\n") {
		t.Errorf("title line = %q, want %q", strings.SplitN(text, "\n", 2)[0], "Open, group 2")
	}
}

// TestStandingsJSON: the field names of the JSON form are stable; shared
// places carry the best place of the group.
func TestStandingsJSON(t *testing.T) {
	games := []Game{
		{Attackers: "A", Defenders: "B", Result: engine.AttackersWin},
		{Attackers: "B", Defenders: "C", Result: engine.AttackersWin},
		{Attackers: "C", Defenders: "A", Result: engine.AttackersWin},
	}
	st, err := (&Section{Event: "E", Games: games}).Standings()
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"event":"E","section":0,"games":3,"finished":3,"standings":[` +
		`{"place":1,"last_place":3,"shared":true,"player":"A","points":1,"sonneborn_berger":1,"wins":1,"draws":0,"losses":1,"tied_points":1,"played":2,"games":2,"withdrawn":false,` +
		`"matches":[{"opponent":"B","score":1,"played":1,"games":1},{"opponent":"C","score":0,"played":1,"games":1}]},` +
		`{"place":1,"last_place":3,"shared":true,"player":"B","points":1,"sonneborn_berger":1,"wins":1,"draws":0,"losses":1,"tied_points":1,"played":2,"games":2,"withdrawn":false,` +
		`"matches":[{"opponent":"A","score":0,"played":1,"games":1},{"opponent":"C","score":1,"played":1,"games":1}]},` +
		`{"place":1,"last_place":3,"shared":true,"player":"C","points":1,"sonneborn_berger":1,"wins":1,"draws":0,"losses":1,"tied_points":1,"played":2,"games":2,"withdrawn":false,` +
		`"matches":[{"opponent":"A","score":1,"played":1,"games":1},{"opponent":"B","score":0,"played":1,"games":1}]}],` +
		`"annulled":[]}`
	if string(data) != want {
		t.Errorf("JSON =\n%s\nwant\n%s", data, want)
	}
}

func TestFraction(t *testing.T) {
	for x, want := range map[float64]string{0: "0", 0.25: "¼", 0.5: "½", 0.75: "¾", 1: "1", 1.5: "1½", 17.5: "17½", 88.25: "88¼", 305.75: "305¾"} {
		if got := FormatScore(x); got != want {
			t.Errorf("FormatScore(%v) = %q, want %q", x, got, want)
		}
	}
}

// TestTextInLabels: TextIn writes the given words where Text writes
// English ones, cuts a header longer than its column with "…", keeps
// every column where Text has it and every line within 72 columns, both
// in a crosstable and in a ranked list; with EnglishLabels it is Text.
func TestTextInLabels(t *testing.T) {
	long := Labels{Place: "Platzierung", Player: "Spielerin", Points: "Punkte", SB: "Sonneborn", Wins: "Siege",
		Games: "Partienzahl", NoEvent: "(ohne Namen)", Group: "%s, Gruppe %d", WithdrawnLost: "Ausgeschieden, verloren: ",
		WithdrawnAnnulled: "Ausgeschieden, annulliert: ", Finished: "%d von %d Partien beendet."}
	games, err := RoundRobin(longNames, Options{})
	if err != nil {
		t.Fatal(err)
	}
	scriptResults(t, games, tenScript)
	sec := Section{Players: longNames[:4], Games: games[:0], Withdrawn: []string{longNames[3]}}
	small, err := sec.Standings()
	if err != nil {
		t.Fatal(err)
	}
	ranked := make([]string, 12)
	for i := range ranked {
		ranked[i] = fmt.Sprintf("p%02d@example.org", i+1)
	}
	rgames, err := RoundRobin(ranked, Options{GamesPerPairing: 1})
	if err != nil {
		t.Fatal(err)
	}
	big, err := (&Section{Event: "Open", Number: 2, Players: ranked, Games: rgames}).Standings()
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []*Standings{tenPlayerStandings(t, longNames), small, big} {
		if got, want := st.TextIn(EnglishLabels), st.Text(); got != want {
			t.Errorf("TextIn(EnglishLabels) differs from Text:\n%s\n%s", got, want)
		}
		en := strings.Split(st.Text(), "\n")
		de := strings.Split(st.TextIn(long), "\n")
		checkWidth(t, st.TextIn(long))
		if utf8.RuneCountInString(en[1]) != utf8.RuneCountInString(de[1]) {
			t.Errorf("header of %d columns, want %d as in English:\n%s\n%s", utf8.RuneCountInString(de[1]), utf8.RuneCountInString(en[1]), de[1], en[1])
		}
		for _, w := range []string{"Plat… ", "Spielerin ", " Pun", " Sonne", " S"} {
			if !strings.Contains(de[1], w) {
				t.Errorf("header %q lacks %q", de[1], w)
			}
		}
		if n := strings.Count(de[1], "…"); n < 4 {
			t.Errorf("header %q has %d labels cut, want 4 or more", de[1], n)
		}
		if !strings.Contains(de[len(de)-2], " Partien beendet.") {
			t.Errorf("last line %q", de[len(de)-2])
		}
	}
	if got := small.TitleIn(long); got != "(ohne Namen)" {
		t.Errorf("TitleIn of an unnamed event = %q", got)
	}
	if got := big.TitleIn(long); got != "Open, Gruppe 2" {
		t.Errorf("TitleIn of group 2 = %q", got)
	}
	if text := small.TextIn(long); !strings.Contains(text, "Ausgeschieden, verloren: ") && !strings.Contains(text, "Ausgeschieden, annulliert: ") {
		t.Errorf("no withdrawal note in German:\n%s", text)
	}
	if text := big.TextIn(long); !strings.Contains(text, "Partie…") {
		t.Errorf("ranked list without its games column:\n%s", text)
	}
}

// Issue 22 §4: the last line of a section of one game is in the singular.
func TestTextOneGame(t *testing.T) {
	for games, want := range map[int]string{1: "0 of 1 game finished.", 2: "0 of 2 games finished."} {
		s := &Standings{Event: "Cup", Games: games}
		if got := s.Text(); !strings.Contains(got, want) {
			t.Errorf("%d games:\n%s\nwant %q in it", games, got, want)
		}
	}
}
