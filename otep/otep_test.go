package otep

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/search"
)

// otepHost plays OpenTafl's side of an OTEP conversation with a Session
// running in the test: it writes commands to the session's input and
// reads its lines.
type otepHost struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

// startOTEP starts a Session with o, reading from and writing to pipes.
func startOTEP(t *testing.T, o Options) *otepHost {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &otepHost{t: t, in: inW, lines: make(chan string, 100), done: make(chan error, 1)}
	go func() {
		err := NewSession(outW, o).Run(context.Background(), inR)
		outW.Close()
		h.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			h.lines <- sc.Text()
		}
		close(h.lines)
	}()
	return h
}

// depth returns the options of the level the command line defaults to
// (search.MaxLevel), searching to a fixed depth of plies.
func depth(plies int) Options {
	return Options{Level: search.MaxLevel, Depth: plies}
}

// send writes command lines.
func (h *otepHost) send(cmds ...string) {
	h.t.Helper()
	for _, c := range cmds {
		if _, err := io.WriteString(h.in, c+"\n"); err != nil {
			h.t.Fatalf("write %q: %v", c, err)
		}
	}
}

// expect reads the next line and checks that it starts with prefix.
func (h *otepHost) expect(prefix string) string {
	h.t.Helper()
	select {
	case l, ok := <-h.lines:
		if !ok {
			h.t.Fatalf("the engine closed its output, want a line starting %q", prefix)
		}
		if !strings.HasPrefix(l, prefix) {
			h.t.Fatalf("engine wrote %q, want a line starting %q", l, prefix)
		}
		return l
	case <-time.After(30 * time.Second):
		h.t.Fatalf("no line from the engine, want one starting %q", prefix)
	}
	return ""
}

// finish closes the conversation and checks that the engine wrote nothing
// more and ended without an error.
func (h *otepHost) finish() {
	h.t.Helper()
	h.in.Close()
	for l := range h.lines {
		h.t.Errorf("unexpected line %q", l)
	}
	if err := <-h.done; err != nil {
		h.t.Errorf("Run = %v, want nil", err)
	}
}

// rulesOf returns the OTN rules string of a built-in variant and a fresh
// start position.
func rulesOf(t *testing.T, name string) (string, *engine.Position) {
	t.Helper()
	v, _ := engine.Lookup(name)
	s, err := notation.RulesString(v)
	if err != nil {
		t.Fatal(err)
	}
	p, err := engine.NewPosition(v)
	if err != nil {
		t.Fatal(err)
	}
	return s, p
}

// moveOf parses the engine's 'move e5-e8' line and plays it on p.
func moveOf(t *testing.T, p *engine.Position, line string) engine.Move {
	t.Helper()
	m, err := parseSimpleMove(strings.TrimPrefix(line, "move "))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(m); err != nil {
		t.Fatalf("the engine's %q is illegal: %v", line, err)
	}
	return m
}

// escapePuzzle: Copenhagen, the king on a4 escapes to a1 at once (the
// tactics suite's first row), rank 1 first.
const escapePuzzle = "/3ttttt3/5t5/11/K4T4t/4TTT3t/tt1TT1TT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"

// TestOTEPPlaysTheWinningMove: the engine, told the rules, a position and
// its side, answers 'play' with the escape.
func TestOTEPPlaysTheWinningMove(t *testing.T) {
	rules, _ := rulesOf(t, "copenhagen")
	h := startOTEP(t, depth(2))
	h.expect("hello")
	h.send("hello", "rules "+rules, "position "+escapePuzzle, "side defenders", "clock 300000 300000 0 0 0", "play defenders")
	h.expect("status depth ")
	if l := h.expect("move "); l != "move a4-a1" {
		t.Errorf("engine answered %q, want move a4-a1", l)
	}
	h.send("move /3ttttt3/5t5/11/5T4t/4TTT3t/tt1TT1TT1tt/t3TTT3t/t4T4t/11/5t5/K2ttttt3/", "finish 3", "goodbye")
	h.finish()
}

// TestOTEPGame: a game from the start of Brandubh, the engine playing the
// attackers: its moves are legal, it follows opponent-move, and after an
// 'error' it takes its move back and plays again from the position before.
func TestOTEPGame(t *testing.T) {
	rules, p := rulesOf(t, "brandubh")
	h := startOTEP(t, depth(3))
	h.expect("hello")
	h.send("rules "+rules, "side attackers", "start", "clock 60000 60000 0 0 0", "play attackers")
	h.expect("status ")
	m := moveOf(t, p, h.expect("move "))
	p.Play(m)
	h.send("move " + notation.FormatBoard(p.Board()))
	for ply := 0; ply < 3; ply++ {
		reply := p.LegalMoves(nil)[0]
		if _, err := p.Play(reply); err != nil {
			t.Fatal(err)
		}
		h.send("opponent-move "+reply.String()+" "+notation.FormatBoard(p.Board()), "play attackers")
		h.expect("status ")
		m = moveOf(t, p, h.expect("move "))
		if ply < 2 {
			p.Play(m)
			h.send("move " + notation.FormatBoard(p.Board()))
		}
	}
	// OpenTafl refuses the last move: error, the position again, play.
	h.send("error 2", "opponent-move a1-a1 "+notation.FormatBoard(p.Board()), "play attackers")
	h.expect("status ")
	moveOf(t, p, h.expect("move "))
	h.send("finish 1", "goodbye")
	h.finish()
}

// TestOTEPAnalyze: 'analyze' after 'position' and 'side' answers with the
// line and a forced-win evaluation.
func TestOTEPAnalyze(t *testing.T) {
	rules, _ := rulesOf(t, "copenhagen")
	h := startOTEP(t, depth(2))
	h.expect("hello")
	h.send("rules "+rules, "position "+escapePuzzle, "side defenders", "analyze 1 5")
	h.expect("status ")
	if l := h.expect("analysis "); l != "analysis 1 a4-a1 999" {
		t.Errorf("engine answered %q, want analysis 1 a4-a1 999", l)
	}
	h.send("goodbye")
	h.finish()
}

// TestOTEPUnsupportedRules: rules the engine cannot play are a critical
// error (OpenTafl then ends the game), and 'play' without rules is refused
// as critical too, since no move follows it.
func TestOTEPUnsupportedRules(t *testing.T) {
	h := startOTEP(t, depth(1))
	h.expect("hello")
	h.send("rules dim:11 kj:r start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/")
	h.expect("error -1 rules not supported: ")
	h.send("play attackers")
	h.expect("error -1 no position")
	h.send("goodbye")
	h.finish()
}

// TestOTEPProtocolErrors: every line the engine cannot act on gets an
// 'error' line (opentafl-engine-protocol.txt §16): 0, non-critical, when
// the game can go on, -1, critical, when 'play' gets no move; nothing is
// passed over in silence (trial 2 report §13).
func TestOTEPProtocolErrors(t *testing.T) {
	rules, p := rulesOf(t, "brandubh")
	start := notation.FormatBoard(p.Board())
	h := startOTEP(t, depth(1))
	h.expect("hello")
	h.send("rules "+rules, "side defenders")

	h.send("garbage line here")
	h.expect(`error 0 unknown command "garbage": not an OpenTafl Engine Protocol command`)
	h.send("clock -5 abc 0 0 0")
	h.expect(`error 0 bad clock "-5 abc 0 0 0": the attackers' time "-5" is no number of milliseconds`)
	h.send("clock 1000 2000 30")
	h.expect(`error 0 bad clock "1000 2000 30": 3 fields`)
	h.send("analyze 1 soon")
	h.expect(`error 0 bad analyze "1 soon"`)

	// 'side defenders', then 'play attackers': refused, no move.
	h.send("play attackers")
	h.expect("error -1 wrong side: told to play the attackers after 'side defenders'")
	h.send("play purple")
	h.expect(`error -1 bad side "purple"`)

	// The side it was given still plays: after the attackers' d2-e2.
	m := engine.Move{From: engine.SquareAt(3, 1), To: engine.SquareAt(4, 1)}
	if _, err := p.Play(m); err != nil {
		t.Fatal(err)
	}
	h.send("opponent-move d2-e2 "+notation.FormatBoard(p.Board()), "play defenders")
	h.expect("status ")
	moveOf(t, p, h.expect("move "))

	// Neither the moves nor the board can be used: no position, and the
	// next 'play' is refused rather than played from a stale board.
	h.send("opponent-move z9-z10 /x/")
	l := h.expect("error 0 cannot play opponent-move z9-z10, and bad position: ")
	if !strings.HasSuffix(l, "; the engine has no position until the next rules, position or opponent-move with a readable board") {
		t.Errorf("engine wrote %q, want it to say the position is lost", l)
	}
	h.send("play defenders")
	h.expect("error -1 no position: send rules, position or opponent-move with a readable board first")
	// A readable board brings it back.
	h.send("opponent-move d2-e2 "+start, "play defenders")
	h.expect("status ")
	h.expect("move ")

	// 'finish' forgets the side: a new game may give the other one.
	h.send("finish 1", "rules "+rules, "side attackers", "play attackers")
	h.expect("status ")
	h.expect("move ")

	// Analysis of a board that cannot be read is refused, not given for
	// the board before it.
	h.send("position /x/")
	h.expect("error 0 bad position: ")
	h.send("analyze 1 1")
	h.expect("error 0 no position: ")
	h.send("goodbye")
	h.finish()
}

// TestOTEPLongLine: a line longer than the engine reads is answered with
// the protocol's non-critical error and dropped; the conversation goes on
// (before, the engine stopped reading with "token too long").
func TestOTEPLongLine(t *testing.T) {
	rules, _ := rulesOf(t, "brandubh")
	h := startOTEP(t, depth(1))
	h.expect("hello")
	h.send(strings.Repeat("x", MaxLine+1), "rules "+strings.Repeat(" ", MaxLine)+rules)
	h.expect(fmt.Sprintf("error 0 a line of more than %d bytes, ignored", MaxLine))
	h.expect(fmt.Sprintf("error 0 a line of more than %d bytes, ignored", MaxLine))
	h.send("rules "+rules, "side attackers", "play attackers")
	h.expect("status ")
	h.expect("move ")
	h.send("goodbye")
	h.finish()
}

// TestReadLine: lines up to the limit are read whole, a longer one is
// dropped to its end and reported, the last line may lack its line end.
func TestReadLine(t *testing.T) {
	r := bufio.NewReaderSize(strings.NewReader("abcd\r\nabcde\nxy\n\nabcd"), 16)
	var got []string
	for {
		line, long, err := readLine(r, 4)
		got = append(got, fmt.Sprintf("%q/%v", line, long))
		if err != nil {
			break
		}
	}
	if want := `["abcd"/false "" /true "xy"/false ""/false "abcd"/false]`; fmt.Sprint(got) != strings.ReplaceAll(want, `"" /`, `""/`) {
		t.Errorf("lines = %v", got)
	}
}

func TestParseClockAndMoves(t *testing.T) {
	c, err := parseClock("120000 3000* 30 2 0")
	if err != nil || !c.known || c.left[engine.Attackers] != 2*time.Minute || c.left[engine.Defenders] != 3*time.Second ||
		c.overtime[engine.Attackers] || !c.overtime[engine.Defenders] || c.period != 30*time.Second || c.periodsLeft[engine.Attackers] != 2 {
		t.Errorf("parseClock = %+v, %v", c, err)
	}
	// Without overtime, and -1 for a side without main time.
	if c, err := parseClock("-1 90000"); err != nil || !c.known || c.left[engine.Attackers] != 0 || c.left[engine.Defenders] != 90*time.Second {
		t.Errorf("parseClock(-1 90000) = %+v, %v", c, err)
	}
	for in, want := range map[string]string{
		"x y":                `the attackers' time "x"`,
		"-5 abc 0 0 0":       `the attackers' time "-5"`,
		"1000 abc 0 0 0":     `the defenders' time "abc"`,
		"1000 1000 30":       "3 fields",
		"":                   "0 fields",
		"1000 1000 30 -1 0":  `"-1" is no count`,
		"1000 1000 30 1 0 9": "6 fields",
		"1000** 1000":        `"1000**"`,
	} {
		c, err := parseClock(in)
		if err == nil || c.known || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "want clock ATT-MS[*] DEF-MS[*]") {
			t.Errorf("parseClock(%q) = %+v, %v; want an error with %q", in, c, err, want)
		}
	}
	for in, want := range map[string]string{"e5-e8": "e5-e8", "Ke5-e8xe9/f8": "e5-e8", "Kk11-k1--": "k11-k1", "k5-k1": "k5-k1", "Nn5-n1": "n5-n1", "s19-s2": "s19-s2", "a3-e3+": "a3-e3"} {
		m, err := parseSimpleMove(in)
		if err != nil || m.String() != want {
			t.Errorf("parseSimpleMove(%q) = %v, %v; want %s", in, m, err, want)
		}
	}
	if _, err := parseSimpleMove("e5e8"); err == nil {
		t.Errorf("parseSimpleMove(e5e8) = nil error")
	}
}

// TestOTEPThinkMargin: the search stops before the think time is up, by
// margin and by the time the command waited, and never runs into the
// clock OpenTafl reported, so that a host timing from 'play' to 'move'
// (opentafl-engine-protocol.txt §12) never sees more than the think time
// (issue 22 §12: moves came a few milliseconds late). Computed limits
// only: nothing here is timed.
func TestOTEPThinkMargin(t *testing.T) {
	lv := search.Level(5)
	ms := time.Millisecond
	for _, tt := range []struct {
		name  string
		think time.Duration // Options.Think, 0 for the level's
		clock string        // the last 'clock' command, "" for none
		spent time.Duration // since the 'play' was read
		side  engine.Side
		want  time.Duration // the think time the host allows
	}{
		{"the level's 10 s", 0, "", 0, engine.Attackers, lv.Spec().Think},
		{"Think 1 s", time.Second, "", 0, engine.Attackers, time.Second},
		{"Think 1 s after waiting 300 ms", time.Second, "", 300 * ms, engine.Attackers, time.Second},
		{"a twentieth of 60 s", time.Second, "60000 60000", 0, engine.Defenders, time.Second},
		{"a twentieth of 4 s", time.Second, "4000 4000", 0, engine.Defenders, 200 * ms},
		{"half a 1 s overtime period", 0, "0 1000* 1 3 3", 0, engine.Defenders, 500 * ms},
		{"30 ms left", time.Second, "30 30", 0, engine.Attackers, 15 * ms},
		{"the 50 ms floor", time.Second, "500 500", 0, engine.Attackers, 50 * ms},
	} {
		s := NewSession(io.Discard, Options{Level: lv, Think: tt.think})
		if tt.clock != "" {
			c, err := parseClock(tt.clock)
			if err != nil {
				t.Fatal(err)
			}
			s.clock = c
		}
		lim := s.limits(tt.side, 0, false, tt.spent)
		if lim.Hard <= 0 || tt.spent+lim.Hard+margin(tt.want) > tt.want {
			t.Errorf("%s: the search stops %v after its start, %v after the 'play'; want it done %v before the %v the host allows",
				tt.name, lim.Hard, tt.spent+lim.Hard, margin(tt.want), tt.want)
		}
		if lim.Soft > lim.Hard || lim.Hard < tt.want-tt.spent-margin(tt.want)-ms {
			t.Errorf("%s: limits %+v, want Soft at most Hard, and Hard no earlier than needed", tt.name, lim)
		}
		if s.clock.known && lim.Hard >= s.clock.left[tt.side] {
			t.Errorf("%s: the search may run %v of the %v left", tt.name, lim.Hard, s.clock.left[tt.side])
		}
	}
	// 'analyze 1 2': two seconds asked for, less the margin.
	s := NewSession(io.Discard, Options{Level: lv})
	if lim := s.limits(engine.Attackers, 2*time.Second, true, 0); lim.Hard != 2*time.Second-margin(2*time.Second) || lim.Depth != 0 {
		t.Errorf("analyze 1 2: limits %+v, want Hard %v and no depth limit", lim, 2*time.Second-margin(2*time.Second))
	}
}
