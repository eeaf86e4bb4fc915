package notation

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
)

// replayText reads one game in format f (brandubh unless the record says
// otherwise) and replays it.
func replayText(t *testing.T, f Format, text string) *Replay {
	t.Helper()
	v, _ := engine.Lookup("brandubh")
	games, err := ReadGames("t", []byte(text), ReadOptions{Format: f, Variant: v})
	if err != nil {
		t.Fatalf("ReadGames(%q): %v", text, err)
	}
	if len(games) != 1 {
		t.Fatalf("ReadGames(%q): %d games", text, len(games))
	}
	return games[0].Replay()
}

// brandubh102 is brandubh.csv line 102: the attackers capture the king
// (and the defender on e3) with the last ply.
const brandubh102 = "1. d2-e2 c4-c5 2. b4-b3 e4-e3 3. f4-f5 Kd4-f4 4. "

// TestReplayCaptureMarks: every way of marking the same captures is read
// as one, and every wrong mark is reported (RULES.md §4).
func TestReplayCaptureMarks(t *testing.T) {
	tests := []struct {
		last string // the attackers' 7th ply
		want string // "" or the error message
	}{
		{"a4-e4xe3/Kf4", ""},
		{"a4-e4xe3", ""}, // the king unmarked (as CSV always)
		{"a4-e4xe3xK", ""},
		{"a4-e4xe3/f4", ""}, // the king marked without K
		{"a4-e4xe3xe3", ""}, // a doubled mark is one capture
		{"A4-E4XE3/KF4++", ""},
		{"a4-e4x", ""}, // a bare x: some capture
		{"a4-e4xKf4", "marks nothing, but the engine captures e3"},
		{"a4-e4xe3/Ke5", "marks the king captured on e5, but the engine captures him on f4"},
		{"a4-e4xe3/d3", "marks e3 and d3, but the engine captures e3"},
	}
	for _, tt := range tests {
		r := replayText(t, FormatNative, brandubh102+tt.last+" attackers")
		e := r.Err()
		switch {
		case tt.want == "" && e != nil:
			t.Errorf("%s: %v", tt.last, e)
		case tt.want != "" && (e == nil || e.Message != tt.want || e.Kind != KindCaptures):
			t.Errorf("%s: error %v, want %q", tt.last, e, tt.want)
		case tt.want != "" && (r.CapturesMatch || !r.Legal):
			t.Errorf("%s: CapturesMatch %v, Legal %v; want false, true", tt.last, r.CapturesMatch, r.Legal)
		}
		if r.End != (engine.Outcome{Result: engine.AttackersWin, Reason: engine.ReasonKingCaptured, Ply: 7}) {
			t.Errorf("%s: End = %v", tt.last, r.End)
		}
	}
	for _, tt := range []struct{ text, want string }{
		{"1. d2-e2x *", `marks a capture ("x"), but the engine captures nothing`},
		{"1. d2-e2 c4-c5xK *", "marks the king captured, but the engine does not capture him"},
		{"1. d2-e2 c4-c5xc6 *", "marks c6, but the engine captures nothing"},
	} {
		r := replayText(t, FormatNative, tt.text)
		if e := r.Err(); e == nil || e.Message != tt.want {
			t.Errorf("%s: error %v, want %q", tt.text, e, tt.want)
		}
	}
}

// TestReplayErrors: the problems a replay reports, with ply, side, move
// and position.
func TestReplayErrors(t *testing.T) {
	tests := []struct {
		name  string
		f     Format
		text  string
		legal bool
		want  []string // every error, as Error() prints it
	}{
		{"illegal move", FormatNative, "1. d2-e2 c4-c5 2. d1-d5 e4-e3 *", false,
			[]string{"t:1:19: ply 3 (attackers) d1-d5: path blocked at d3"}},
		{"restricted square", FormatNative, "1. d2-e2 c4-c5 2. a4-a7 *", false,
			[]string{"t:1:19: ply 3 (attackers) a4-a7: an attacker may not stop on a7"}},
		{"not your piece", FormatNative, "1. c4-c5 *", false,
			[]string{"t:1:4: ply 1 (attackers) c4-c5: the defender on c4 belongs to the side not to move"}},
		{"king prefix", FormatNative, "1. Kd2-e2 Kd4-b4? *", false, nil},
		{"move number", FormatNative, "1. d2-e2 c4-c5 3. b4-b3 e4-e3 4. f4-f5 *", false,
			[]string{"t:1:19: ply 3 (attackers) b4-b3: move number 3, expected 2"}},
		{"pair half", FormatNative, "1. d2-e2 1... c4-c5 2... b4-b3 *", false,
			[]string{"t:1:26: ply 3 (attackers) b4-b3: the attackers' ply belongs in the first half of its pair (2.)"}},
		{"resignation not last", FormatNative, "1. d2-e2 --- 2. b4-b3 *", false,
			[]string{"t:1:10: ply 2 (defenders) ---: a resignation before the last ply"}},
		{"resignation, wrong winner", FormatNative, "1. d2-e2 --- defenders", true,
			[]string{"t:1:10: ply 2 (defenders) ---: the defenders resign, so the attackers won, but the record says the defenders won"}},
		{"time-out, wrong winner", FormatCSV, "d2-e2 timeout,0,0,White", true,
			[]string{"t:1:7: ply 2 (defenders) timeout: the defenders lose on time, so the attackers won, but the record says the defenders won"}},
		{"termination the engine does not see", FormatNative, "[Termination \"king captured\"]\n1. d2-e2 c4-c5 attackers", true,
			[]string{"t:2:10: ply 2 (defenders) c4-c5: the record says the game ended by king captured; the engine does not end it"}},
		// A Termination that contradicts the record's end is a result
		// mismatch (trial report §3).
		{"resignation, termination a rule", FormatNative, "[Termination \"king captured\"]\n1. d2-e2 --- attackers", true,
			[]string{"t:2:10: ply 2 (defenders) ---: the defenders resign, but the record's Termination says king captured"}},
		{"resignation, termination agreement", FormatNative, "[Termination \"agreement\"]\n1. d2-e2 --- attackers", true,
			[]string{"t:2:10: ply 2 (defenders) ---: the defenders resign, but the record's Termination says agreement"}},
		{"time-out, termination resignation", FormatNative, "[Termination \"resignation\"]\n1. d2-e2 timeout attackers", true,
			[]string{"t:2:10: ply 2 (defenders) timeout: the defenders lose on time, but the record's Termination says resignation"}},
		{"resignation, termination resignation", FormatNative, "[Termination \"resignation\"]\n1. d2-e2 --- attackers", true, nil},
		{"escape, termination resignation", FormatNative, "[Position \"/3t3/3t3/3T3/tt3tt/7/3t3/4K2/\"]\n[ToMove \"defenders\"]\n[Termination \"resignation\"]\n1... Ke7-g7 defenders", true,
			[]string{"t:4:6: ply 1 (defenders) Ke7-g7: the engine ends the game at ply 1 (defenders win: escape) but the record's Termination says resignation"}},
		{"escape, termination king captured", FormatNative, "[Position \"/3t3/3t3/3T3/tt3tt/7/3t3/4K2/\"]\n[ToMove \"defenders\"]\n[Termination \"king captured\"]\n1... Ke7-g7 defenders", true,
			[]string{"t:4:6: ply 1 (defenders) Ke7-g7: the engine ends the game at ply 1 (defenders win: escape) but the record's Termination says king captured"}},
		{"escape, termination king escaped", FormatNative, "[Position \"/3t3/3t3/3T3/tt3tt/7/3t3/4K2/\"]\n[ToMove \"defenders\"]\n[Termination \"king escaped\"]\n1... Ke7-g7 defenders", true, nil},
		{"play after the king escaped", FormatNative, "[Position \"/3t3/3t3/3T3/tt3tt/7/3t3/4K2/\"]\n[ToMove \"defenders\"]\n1... Ke7-g7 2. d6-e6 *", false,
			[]string{"t:3:16: ply 2 (attackers) d6-e6: the game ended at ply 1 (defenders win: escape)"}},
		{"decided before the first ply", FormatNative, "[Position \"/3t3/3t3/3T3/tt3tt/7/3t3/6K/\"]\n[ToMove \"attackers\"]\n1. d6-e6 *", false,
			[]string{"t:3:4: ply 1 (attackers) d6-e6: the game ended at ply 0 (defenders win: escape)"}},
		{"csv counts", FormatCSV, "d2-e2 c4-c5,1,0,Ongoing", true,
			[]string{"t:1:1: the capture counts say 1 by the attackers and 0 by the defenders, the marks 0 and 0"}},
		{"unknown variant", FormatNative, "[Variant \"chess\"]\n1. e2-e4 *", false,
			[]string{`t:1:1: unknown variant "chess" (see taflmail variants)`}},
		// A typo gets the nearest name, as a challenge by mail does
		// (trial report §10).
		{"variant typo", FormatNative, "[Event \"e\"]\n[Variant \"brandub\"]\n1. d2-e2 *", false,
			[]string{`t:2:1: unknown variant "brandub"; did you mean brandubh? (see taflmail variants)`}},
		// A Position the engine refuses is reported at its tag, not at
		// the record's first line (trial report §10).
		{"two kings", FormatNative, "[Event \"e\"]\n[Position \"/3t3/3t3/3T3/tt3tt/7/3t3/4KK1/\"]\n[ToMove \"defenders\"]\n1... Ke7-e6 *", false,
			[]string{`t:2:1: invalid position: 2 kings on the board, want 1`}},
	}
	for _, tt := range tests {
		text := tt.text
		if tt.name == "king prefix" {
			text = "1. Kd2-e2 Kd3-b3 *"
			tt.want = []string{"t:1:4: ply 1 (attackers) Kd2-e2: the piece on d2 is an attacker, not the king",
				"t:1:11: ply 2 (defenders) Kd3-b3: the piece on d3 is a defender, not the king"}
		}
		r := replayText(t, tt.f, text)
		var got []string
		for _, e := range r.Errors {
			got = append(got, e.Error())
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") || r.Legal != tt.legal {
			t.Errorf("%s: Legal %v, errors\n  %s\nwant %v\n  %s", tt.name, r.Legal, strings.Join(got, "\n  "), tt.legal, strings.Join(tt.want, "\n  "))
		}
	}
}

// TestReplayIllegalCause: an illegal ply's error wraps the engine's.
func TestReplayIllegalCause(t *testing.T) {
	r := replayText(t, FormatNative, "1. d2-e2 c4-c5 2. d1-d5 e4-e3 *")
	e := r.Err()
	var ie *engine.IllegalMoveError
	if !errors.As(e, &ie) || ie.Reason != engine.IllegalBlocked || !errors.Is(e, ErrIllegal) || errors.Is(e, ErrCaptures) {
		t.Errorf("error %v: want an ErrIllegal wrapping the engine's IllegalBlocked", e)
	}
	if e.Ply != 3 || e.Side != engine.Attackers || e.Move != "d1-d5" || e.Line != 1 || e.Col != 19 {
		t.Errorf("error fields %+v", *e)
	}
	if r.Plies[2].Played || r.Plies[3].Played || r.Plies[3].Side != engine.Defenders || r.Final == nil || r.Final.Ply() != 2 {
		t.Errorf("after the illegal ply: %+v; final %v", r.Plies[2:], r.Final)
	}
}

// TestReplayDefendersFirst: a native record whose rules let the defenders
// move first numbers its first ply "1...".
func TestReplayDefendersFirst(t *testing.T) {
	v, _ := engine.Lookup("brandubh")
	alt := *v
	alt.FirstSide = engine.Defenders
	rules, _ := RulesString(&alt)
	r := replayText(t, FormatNative, "[Rules \""+rules+"\"]\n1... c4-c5 2. d2-e2 e4-e3 *")
	if len(r.Errors) > 0 || r.Plies[0].Side != engine.Defenders {
		t.Errorf("defenders first: %v, first side %v", r.Errors, r.Plies[0].Side)
	}
	r = replayText(t, FormatNative, "[Rules \""+rules+"\"]\n1. c4-c5 d2-e2 *")
	if e := r.Err(); e == nil || !strings.Contains(e.Message, "second half of its pair (1...)") {
		t.Errorf("defenders first, numbered as attackers: %v", e)
	}
}

// TestReplayAfterRepetition: after the engine ends a game by repetition
// the replay reads on from the board, so that every capture mark is still
// checked and the game can be converted.
func TestReplayAfterRepetition(t *testing.T) {
	// brandubh.csv line 84: the third occurrence at ply 15.
	const line84 = "d2-e2 c4-c2 d6-c6 d3-a3 c6-c5 d4-d3 d7-d6xd5 d3-b3 d1-b1 b3-d3 b1-d1 d3-b3 d1-b1 b3-d3 b1-d1 d3-e3 f4-f3 e3-d3 f3-e3 d3-b3,1,0,Black\n"
	r := replayText(t, FormatCSV, line84)
	if r.End != (engine.Outcome{Result: engine.AttackersWin, Reason: engine.ReasonRepetition, Ply: 15}) {
		t.Errorf("End = %v", r.End)
	}
	if len(r.Errors) != 1 || !errors.Is(r.Err(), ErrAfterEnd) || r.Err().Ply != 16 || r.Legal || !r.CapturesMatch {
		t.Errorf("errors %v, legal %v, captures %v", r.Errors, r.Legal, r.CapturesMatch)
	}
	for i, p := range r.Plies {
		if !p.Played || p.AfterEnd != (i >= 15) {
			t.Errorf("ply %d: played %v, after end %v", i+1, p.Played, p.AfterEnd)
		}
	}
	pos, last, err := r.PositionAt(20)
	if err != nil || last.Move.String() != "d3-b3" || pos.At(engine.SquareAt(1, 2)) != engine.King {
		t.Errorf("PositionAt(20) = %v, %v, %v", pos, last.Move, err)
	}
	if _, _, err := r.PositionAt(21); err == nil {
		t.Error("PositionAt(21) of a 20-ply game: no error")
	}
}

// TestRecordCanonical: the canonical native record of a game written
// with odd marks.
func TestRecordCanonical(t *testing.T) {
	r := replayText(t, FormatNative, "[Site \"x\"]\n[Event \"e\"]\n[Foo \"bar\"]\n{start} 1. D2-E2 {a} c4-c5 2. b4-b3 E4-e3 3. f4-f5 d4-f4 4. a4-e4xe3xe3 attackers")
	var buf bytes.Buffer
	if err := WriteNative(&buf, r); err != nil {
		t.Fatal(err)
	}
	want := `[Event "e"]
[Site "x"]
[Variant "brandubh"]
[Foo "bar"]
[Result "attackers"]
[Termination "king captured"]

{start} 1. d2-e2 {a} c4-c5 2. b4-b3 e4-e3 3. f4-f5 Kd4-f4 4. a4-e4xe3/Kf4
attackers
`
	if buf.String() != want {
		t.Errorf("WriteNative:\n%s\nwant\n%s", buf.String(), want)
	}
	buf.Reset()
	if err := WriteCSV(&buf, r); err != nil || buf.String() != "d2-e2 c4-c5 b4-b3 e4-e3 f4-f5 d4-f4 a4-e4xe3,1,0,Black\n" {
		t.Errorf("WriteCSV = %q, %v", buf.String(), err)
	}
	buf.Reset()
	if err := WriteOTG(&buf, r); err != nil {
		t.Fatal(err)
	}
	wantOTG := `[site:x]
[event:e]
[foo:bar]
[result:1]
[termination:king captured]
[rules:dim:7 name:brandubh ks:c tm-rep:attackers tm-note:OpenTafl_draws_a_third_repetition_(tm-rep) start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]
[start-comment:start]

1. d2-e2 c4-c5
[a|]

2. b4-b3 e4-e3

3. f4-f5 Kd4-f4

4. a4-e4xe3/Kf4
`
	if buf.String() != wantOTG {
		t.Errorf("WriteOTG:\n%s\nwant\n%s", buf.String(), wantOTG)
	}
}

// TestFormats: names and detection.
func TestFormats(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      Format
	}{
		{"a.otg", "", FormatOTG},
		{"a.CSV", "", FormatCSV},
		{"a.tafl", "d1-d3,0,0,Black", FormatNative},
		{"mail", "[date:2015.01.07]\n", FormatOTG},
		{"mail", "  [Event \"x\"]\n", FormatNative},
		{"mail", "d1-d3 h6-h9,0,0,Black\n", FormatCSV},
		{"mail", "1. d1-d3 *", FormatNative},
	} {
		if got := DetectFormat(tt.name, []byte(tt.src)); got != tt.want {
			t.Errorf("DetectFormat(%q, %q) = %v, want %v", tt.name, tt.src, got, tt.want)
		}
	}
	for _, f := range []Format{FormatAuto, FormatNative, FormatOTG, FormatCSV} {
		if g, err := ParseFormat(f.String()); err != nil || g != f {
			t.Errorf("ParseFormat(%q) = %v, %v", f, g, err)
		}
	}
	if _, err := ParseFormat("pgn"); err == nil {
		t.Error("ParseFormat(pgn): no error")
	}
}

// TestReadGamesEmpty: a file without any record holds no games, in every
// format; an OpenTafl file is not read as one game that lacks its rules
// tag (trial 2 report §14).
func TestReadGamesEmpty(t *testing.T) {
	for _, f := range []Format{FormatNative, FormatOTG, FormatCSV} {
		for _, src := range []string{"", "\n\n", "  \r\n\t\n"} {
			games, err := ReadGames("empty."+f.String(), []byte(src), ReadOptions{Format: f})
			if err != nil || len(games) != 0 {
				t.Errorf("ReadGames(%v, %q) = %d games, %v; want none and no error", f, src, len(games), err)
			}
		}
	}
	// A file with only tags is still a game, to be told of its problems.
	games, err := ReadGames("tags.otg", []byte("[date:2015.01.07]\n"), ReadOptions{Format: FormatOTG})
	if err != nil || len(games) != 1 {
		t.Errorf("ReadGames(tags only) = %d games, %v; want 1", len(games), err)
	}
}

// TestOTGTags: OpenTafl keys and native tag names, both ways.
func TestOTGTags(t *testing.T) {
	for key, name := range map[string]string{"event": "Event", "time-control": "TimeControl", "puzzle-mode": "PuzzleMode", "compiler": "Compiler"} {
		if got := camelTag(key); got != name {
			t.Errorf("camelTag(%q) = %q, want %q", key, got, name)
		}
		if got := kebabTag(name); got != key {
			t.Errorf("kebabTag(%q) = %q, want %q", name, got, key)
		}
	}
}

// FuzzReplay: any input reads, replays and converts without a panic, and
// a game's canonical native record reads back and replays the same moves.
func FuzzReplay(f *testing.F) {
	f.Add([]byte(brandubh102 + "a4-e4xe3/Kf4 attackers"))
	f.Add([]byte("[Position \"/3t3/3t3/3T3/tt3tt/7/3t3/4K2/\"]\n[ToMove \"defenders\"]\n1... Ke7-g7 2. d6-e6 *"))
	f.Add([]byte("d2-e2 c4-c2 d6-c6 d3-a3,0,0,Ongoing\n"))
	f.Add([]byte("[rules:dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n1. d2-e2 c4-c5\n[a|b]\n"))
	f.Add([]byte(timedNative))
	f.Add([]byte("[tm-time-control:3d/move]\n[start:2026-11-01T00:00:00Z]\n[tm-timeout:{%ts 2026-11-09T00:00:00Z}]\n[rules:dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n1. d2-e2 c4-c5\n[{%ts 2026-11-02T00:00:00Z} a|{%avail 2026-11-03T00:00:00Z}]\n"))
	v, _ := engine.Lookup("brandubh")
	f.Fuzz(func(t *testing.T, src []byte) {
		games, err := ReadGames("f", src, ReadOptions{Variant: v})
		if err != nil {
			var ge *grammar.Error
			if !errors.As(err, &ge) {
				t.Fatalf("ReadGames error %T %v, want a *grammar.Error", err, err)
			}
			return
		}
		for _, g := range games {
			r := g.Replay()
			var buf bytes.Buffer
			if err := WriteNative(&buf, r); err != nil {
				continue
			}
			var otg bytes.Buffer
			if WriteOTG(&otg, r) == nil && g.ClockErr == nil {
				// The clock data of every move comes back from OpenTafl's
				// format (issue 22 §2).
				back, err := ReadGames("o", otg.Bytes(), ReadOptions{Format: FormatOTG, Variant: v})
				if err != nil || len(back) != 1 {
					t.Fatalf("OpenTafl record does not read back: %v\n%s", err, otg.String())
				}
				var want, got []PlyTime
				for _, p := range g.Plies {
					if p.Ply.Move != nil {
						want = append(want, p.Time)
					}
				}
				for _, p := range back[0].Plies {
					if p.Ply.Move != nil {
						got = append(got, p.Time)
					}
				}
				if !slices.Equal(got, want) {
					t.Fatalf("OpenTafl record: times %v, want %v\n%s", got, want, otg.String())
				}
			}
			WriteCSV(&bytes.Buffer{}, r)
			back, err := ReadGames("b", buf.Bytes(), ReadOptions{Format: FormatNative, Variant: v})
			if err != nil || len(back) != 1 {
				t.Fatalf("canonical record does not read back: %v\n%s", err, buf.String())
			}
			// The canonical record may mend what the source had wrong
			// (move numbers, marks, a result the engine contradicts), so
			// it replays the same moves to the same end, and without
			// errors when the source had none.
			b := back[0].Replay()
			if b.End != r.End || len(b.Plies) != len(r.Plies) || len(r.Errors) == 0 && len(b.Errors) > 0 {
				t.Fatalf("canonical record replays differently: end %v/%v, errors %v/%v\n%s", r.End, b.End, r.Errors, b.Errors, buf.String())
			}
			for i := range r.Plies {
				if r.Plies[i].Played != b.Plies[i].Played || r.Plies[i].Move != b.Plies[i].Move {
					t.Fatalf("canonical record: ply %d differs\n%s", i+1, buf.String())
				}
			}
		}
	})
}

// TestNearestVariant: a name with a typo gives the built-in variant at
// most two edits away, and nothing when none is near.
func TestNearestVariant(t *testing.T) {
	for name, want := range map[string]string{
		"brandub": "brandubh", "copenhagn": "copenhagen", "tabult": "tablut", "Fetlar": "fetlar",
		"chess": "", "": "", "x": "", "brandubh": "brandubh",
	} {
		if got := NearestVariant(name); got != want {
			t.Errorf("NearestVariant(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestTerminationRewritten: the OpenTafl game whose record says "Black
// resigns" on a last move that lets the king escape is written with the
// engine's termination, and the replay says so; a native record with a
// contradicting Termination has a result error instead.
func TestTerminationRewritten(t *testing.T) {
	requireCorpus(t)
	path := corpusDir + "/otg/fetlar-defenders-first-2015.otg"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	games, err := ReadGames(path, src, ReadOptions{})
	if err != nil || len(games) != 1 {
		t.Fatalf("ReadGames(%s) = %d games, %v", path, len(games), err)
	}
	r := games[0].Replay()
	want := `termination "Black resigns" is written as "king escaped": the engine ends the game at ply 39 (defenders win: escape)`
	if got := r.TerminationRewritten(); got != want || len(r.Errors) != 0 {
		t.Errorf("TerminationRewritten() = %q (errors %v), want %q", got, r.Errors, want)
	}
	native := replayText(t, FormatNative, "[Termination \"king captured\"]\n1. d2-e2 --- attackers")
	if got := native.TerminationRewritten(); got != "" || !errors.Is(native.Err(), ErrResult) {
		t.Errorf("native: TerminationRewritten() = %q, error %v; want \"\" and a result error", got, native.Err())
	}
}
