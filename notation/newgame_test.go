package notation

import (
	"errors"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
)

// TestNewGame: a game kept as data becomes the record a player would
// write: plies numbered in pairs, the result and termination, and a
// final resignation or time-out only where its side is to move.
func TestNewGame(t *testing.T) {
	brandubh, _ := engine.Lookup("brandubh")
	tags := []Tag{{"Event", "test"}, {"Attackers", "a@x"}}
	for _, tc := range []struct {
		name   string
		spec   GameSpec
		record string // WriteNative without its tags
		end    engine.Outcome
	}{
		{"running",
			GameSpec{Plies: []string{"d1-e1", "d3-f3"}},
			"[Result \"*\"]\n\n1. d1-e1 d3-f3 *\n", engine.Outcome{}},
		{"resigned, the loser to move: a final ply",
			GameSpec{Plies: []string{"d1-e1", "d3-f3", "d2-f2xf3"}, Result: engine.AttackersWin, Reason: engine.ReasonResignation},
			"[Result \"attackers\"]\n[Termination \"resignation\"]\n\n1. d1-e1 d3-f3 2. d2-f2xf3 --- attackers\n",
			engine.Outcome{Result: engine.AttackersWin, Reason: engine.ReasonResignation, Ply: 4}},
		{"resigned, the winner to move: the termination only",
			GameSpec{Plies: []string{"d1-e1", "d3-f3", "d2-f2xf3"}, Result: engine.DefendersWin, Reason: engine.ReasonResignation},
			"[Result \"defenders\"]\n[Termination \"resignation\"]\n\n1. d1-e1 d3-f3 2. d2-f2xf3 defenders\n",
			engine.Outcome{Result: engine.DefendersWin, Reason: engine.ReasonResignation, Ply: 3}},
		{"time-out",
			GameSpec{Plies: []string{"d1-e1"}, Result: engine.AttackersWin, Reason: engine.ReasonTimeout},
			"[Result \"attackers\"]\n[Termination \"timeout\"]\n\n1. d1-e1 timeout attackers\n",
			engine.Outcome{Result: engine.AttackersWin, Reason: engine.ReasonTimeout, Ply: 2}},
		{"agreed draw",
			GameSpec{Plies: []string{"d1-e1"}, Result: engine.Draw, Reason: engine.ReasonDrawAgreed},
			"[Result \"draw\"]\n[Termination \"agreement\"]\n\n1. d1-e1 draw\n",
			engine.Outcome{Result: engine.Draw, Reason: engine.ReasonDrawAgreed, Ply: 1}},
		{"set-up position, defenders first",
			GameSpec{Setup: &Setup{Board: mustBoard(t, "/7/3t3/3T3/ttTKTtt/3T3/3t3/7/"), ToMove: engine.Defenders}, Plies: []string{"c4-c1", "d6-c6"}},
			"[Position \"/7/3t3/3T3/ttTKTtt/3T3/3t3/7/\"]\n[ToMove \"defenders\"]\n[Result \"*\"]\n\n1... c4-c1 2. d6-c6 *\n", engine.Outcome{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := tc.spec
			spec.Filename, spec.Variant, spec.Tags = "K7QX2M", brandubh, tags
			g, err := NewGame(spec)
			if err != nil {
				t.Fatalf("NewGame = %v", err)
			}
			r := g.Replay()
			if !r.Legal || len(r.Errors) > 0 {
				t.Fatalf("Replay: legal %v, errors %v", r.Legal, r.Errors)
			}
			var b strings.Builder
			if err := WriteNative(&b, r); err != nil {
				t.Fatal(err)
			}
			head := "[Event \"test\"]\n[Attackers \"a@x\"]\n[Variant \"brandubh\"]\n"
			if got := b.String(); got != head+tc.record {
				t.Errorf("WriteNative =\n%s\nwant\n%s%s", got, head, tc.record)
			}
			if got := r.Outcome(); got != tc.end {
				t.Errorf("Replay.Outcome = %+v, want %+v", got, tc.end)
			}
		})
	}
}

func mustBoard(t *testing.T, s string) engine.Board {
	t.Helper()
	b, err := ParseBoard(s)
	if err != nil {
		t.Fatalf("ParseBoard(%q) = %v", s, err)
	}
	return b
}

func TestNewGameErrors(t *testing.T) {
	brandubh, _ := engine.Lookup("brandubh")
	_, err := NewGame(GameSpec{Filename: "G1", Variant: brandubh, Plies: []string{"d1-e1", "d3–f3"}})
	var gerr *grammar.Error
	if !errors.As(err, &gerr) {
		t.Fatalf("NewGame(en dash) = %v, want a *grammar.Error", err)
	}
	if want := `notation: game G1: ply 2 "d3–f3": G1:1:3: unexpected character '–'`; err.Error() != want {
		t.Errorf("NewGame(en dash) = %q, want %q", err.Error(), want)
	}
	if _, err := NewGame(GameSpec{Filename: "G2"}); err == nil || err.Error() != "notation: game G2: no variant" {
		t.Errorf("NewGame(no variant) = %v", err)
	}
}

// TestReplayOutcome: records read from text, ended by the rules, by the
// record's word, or not at all.
func TestReplayOutcome(t *testing.T) {
	for _, tc := range []struct {
		record string
		want   engine.Outcome
	}{
		{"[Variant \"brandubh\"]\n1. d1-e1 d3-f3 *\n", engine.Outcome{}},
		{"[Variant \"brandubh\"]\n1. d1-e1 defenders\n", engine.Outcome{Result: engine.DefendersWin, Ply: 1}},
		{"[Variant \"brandubh\"]\n[Termination \"agreement\"]\n1. d1-e1 draw\n",
			engine.Outcome{Result: engine.Draw, Reason: engine.ReasonDrawAgreed, Ply: 1}},
		{"[Variant \"brandubh\"]\n1. d1-e1 timeout attackers\n",
			engine.Outcome{Result: engine.AttackersWin, Reason: engine.ReasonTimeout, Ply: 2}},
		// The king escapes on ply 6 (the fixture game of cmd/taflmail).
		{"[Variant \"brandubh\"]\n1. d1-e1 d3-e3 2. d2-e2 d4-d1 3. e1-f1 d1-a1 defenders\n",
			engine.Outcome{Result: engine.DefendersWin, Reason: engine.ReasonEscape, Ply: 6}},
		// An illegal record has no end to show.
		{"[Variant \"brandubh\"]\n1. d1-d3 defenders\n", engine.Outcome{}},
	} {
		games, err := ReadGames("t.tafl", []byte(tc.record), ReadOptions{})
		if err != nil {
			t.Fatalf("ReadGames(%q) = %v", tc.record, err)
		}
		if got := games[0].Replay().Outcome(); got != tc.want {
			t.Errorf("Outcome of %q = %+v, want %+v", tc.record, got, tc.want)
		}
	}
}
