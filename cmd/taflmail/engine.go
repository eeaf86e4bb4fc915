package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/search"
)

// engineOptions are the flags of `taflmail engine`.
type engineOptions struct {
	otep  bool
	level int
	think float64
	depth int
}

// newEngineCommand returns `taflmail engine`.
func newEngineCommand() *cobra.Command {
	var o engineOptions
	cmd := &cobra.Command{
		Use:   "engine --otep [--level N] [--time S] [--depth N]",
		Short: "Play as an external engine over the OpenTafl Engine Protocol",
		Long: `Run the engine opponent (docs/engine.md) as an external engine of OpenTafl:
the OpenTafl Engine Protocol (OTEP, opentafl-engine-protocol.txt of the
OpenTafl project) on standard input and output, one command a line.

taflmail says 'hello' and then follows OpenTafl's commands: 'rules' (an OTN
rules string, read as taflmail reads them; rules it cannot play are answered
with 'error -1'), 'position' and 'side', 'clock', 'opponent-move', 'play'
(answered with 'move e5-e8', simple notation), 'move' (OpenTafl's
acknowledgement), 'error' (the last move was refused: it is taken back),
'analyze' (answered with 'analysis 1 LINE EVAL', the line's moves joined by
'|', EVAL in attackers' worth from the side to move's view, ±1000 less the
plies for a forced result), 'finish' and 'goodbye'. Before each 'move' it
sends a 'status' line with the depth and score. Position records are read
rank 1 first (OTN spec §1, as taflmail's notation reads them).

Think time: the level's (5: 10 s; see taflmail analyse --help), or --time,
and never more than a twentieth of the clock OpenTafl reports (half of an
overtime period). --depth searches to a fixed depth instead (for tests).`,
		Example: `  taflmail engine --otep --level 4
  # OpenTafl engines/taflmail.ini: command=taflmail, arguments=engine --otep`,
		Args:         noArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !o.otep {
				return usageErrorf(cmd, "only the OpenTafl Engine Protocol is spoken: pass --otep")
			}
			lv := search.Level(o.level)
			if !lv.Valid() {
				return usageErrorf(cmd, "--level %d: want %d..%d", o.level, search.MinLevel, search.MaxLevel)
			}
			if o.think < 0 || o.depth < 0 || o.depth > search.MaxDepth {
				return usageErrorf(cmd, "--time and --depth must not be negative, --depth at most %d", search.MaxDepth)
			}
			sess := newOTEPSession(cmd.OutOrStdout(), lv, time.Duration(o.think*float64(time.Second)), o.depth)
			return sess.run(contextOrBackground(cmd.Context()), cmd.InOrStdin())
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.otep, "otep", false, "speak the OpenTafl Engine Protocol on stdin/stdout")
	f.IntVar(&o.level, "level", int(search.MaxLevel), "playing level, 1–5")
	f.Float64Var(&o.think, "time", 0, "think time per move in seconds (default: the level's)")
	f.IntVar(&o.depth, "depth", 0, "search every move to this depth instead of by time")
	return cmd
}

// otepClock is the last 'clock' command.
type otepClock struct {
	known       bool
	left        [2]time.Duration // by engine.Side
	overtime    [2]bool          // the time left is of an overtime period
	period      time.Duration
	periodsLeft [2]int
}

// otepSession is one OTEP conversation. Commands are read and handled one
// at a time; a search for 'play' or 'analyze' runs on its own goroutine, so
// that 'finish' and 'goodbye' can stop it, and any other command waits for
// it to end.
type otepSession struct {
	out   *bufio.Writer
	outMu sync.Mutex
	level search.Level
	think time.Duration
	depth int

	mu        sync.Mutex // guards what the search goroutine touches
	variant   *engine.Variant
	pos       *engine.Position
	side      engine.Side // the side the engine plays ('side')
	setSide   bool        // a 'position' came: the next 'side' says who moves
	lastUndo  *engine.Undo
	clock     otepClock
	searcher  *search.Searcher
	cancel    context.CancelFunc
	done      chan struct{}
	searchGen int // bumped to drop a cancelled search's move
}

func newOTEPSession(w io.Writer, lv search.Level, think time.Duration, depth int) *otepSession {
	return &otepSession{out: bufio.NewWriter(w), level: lv, think: think, depth: depth}
}

// send writes one command line and flushes it.
func (s *otepSession) send(format string, args ...any) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	line := fmt.Sprintf(format, args...)
	line = strings.NewReplacer("\n", " ", "\r", " ").Replace(line)
	s.out.WriteString(line)
	s.out.WriteByte('\n')
	s.out.Flush()
}

// run says hello and handles commands until 'goodbye' or the end of the
// input, then waits for a running search to finish.
func (s *otepSession) run(ctx context.Context, in io.Reader) error {
	s.send("hello")
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		if ctx.Err() != nil {
			break
		}
		if !s.handle(ctx, strings.TrimSpace(sc.Text())) {
			s.stop(false)
			return nil
		}
	}
	s.wait()
	if err := sc.Err(); err != nil {
		return fmt.Errorf("engine: reading commands: %w", err)
	}
	return nil
}

// handle carries out one command; it returns false after 'goodbye'.
func (s *otepSession) handle(ctx context.Context, line string) bool {
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch word {
	case "goodbye":
		return false
	case "finish":
		s.stop(false)
		s.mu.Lock()
		s.pos, s.lastUndo = nil, nil
		s.mu.Unlock()
		return true
	case "clock":
		s.mu.Lock()
		s.clock = parseClock(rest)
		s.mu.Unlock()
		return true
	case "", "hello", "start", "simple-moves":
		return true
	}
	s.wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	switch word {
	case "rules":
		v, err := notation.ParseRules(rest)
		if err != nil {
			s.send("error -1 rules not supported: %v", err)
			s.variant, s.pos = nil, nil
			return true
		}
		p, err := engine.NewPosition(v)
		if err != nil {
			s.send("error -1 rules not supported: %v", err)
			s.variant, s.pos = nil, nil
			return true
		}
		s.variant, s.pos, s.lastUndo = v, p, nil
		s.searcher = search.New(s.level.Options())
	case "position":
		if s.variant == nil {
			s.send("error 0 position before rules")
			return true
		}
		toMove := s.variant.FirstSide
		if s.pos != nil {
			toMove = s.pos.ToMove()
		}
		if err := s.setBoard(rest, toMove); err != nil {
			s.send("error 0 bad position: %v", err)
			return true
		}
		s.setSide = true
	case "side":
		side, ok := parseSide(rest)
		if !ok {
			s.send("error 0 bad side %q", rest)
			return true
		}
		s.side = side
		if s.setSide && s.pos != nil && s.pos.ToMove() != side {
			// After 'position' (analysis), 'side' names the side to move.
			if err := s.setBoard(notation.FormatBoard(s.pos.Board()), side); err != nil {
				s.send("error 0 %v", err)
			}
		}
		s.setSide = false
	case "opponent-move":
		s.opponentMove(rest)
	case "move":
		// OpenTafl accepted our move; rec is the board after it.
		if s.pos != nil && rest != "" && notation.FormatBoard(s.pos.Board()) != normalBoard(rest) {
			if err := s.setBoard(rest, s.side.Opponent()); err != nil {
				s.send("error 0 bad position: %v", err)
			}
		}
		s.lastUndo = nil
	case "error":
		// OpenTafl refused our last move: take it back; it resends the
		// position with 'opponent-move' and asks again with 'play'.
		if s.pos != nil && s.lastUndo != nil {
			s.pos.Unmake(*s.lastUndo)
		}
		s.lastUndo = nil
	case "play":
		side, ok := parseSide(rest)
		if !ok {
			s.send("error 0 bad side %q", rest)
			return true
		}
		s.side = side
		s.startSearch(ctx, side, 0, false)
	case "analyze":
		f := strings.Fields(rest)
		secs := 0.0
		if len(f) >= 2 {
			secs, _ = strconv.ParseFloat(f[1], 64)
		}
		if s.pos == nil {
			s.send("error 0 analyze before rules")
			return true
		}
		s.startSearch(ctx, s.pos.ToMove(), time.Duration(secs*float64(time.Second)), true)
	}
	return true
}

// setBoard replaces the position by the board of an OTN position record
// with toMove to move (the game's history is lost). Called with mu held.
func (s *otepSession) setBoard(rec string, toMove engine.Side) error {
	b, err := notation.ParseBoard(rec)
	if err != nil {
		return err
	}
	p, err := engine.NewPositionFromBoard(s.variant, b, toMove)
	if err != nil {
		return err
	}
	s.pos, s.lastUndo = p, nil
	return nil
}

// normalBoard rewrites a position record the way FormatBoard writes it, so
// that two records of the same board compare equal; on error it returns
// rec.
func normalBoard(rec string) string {
	b, err := notation.ParseBoard(rec)
	if err != nil {
		return rec
	}
	return notation.FormatBoard(b)
}

// opponentMove plays the opponent's moves ('a1-a3|…') and checks the
// board against the record that follows; when a move cannot be played or
// the boards differ, the record wins. Called with mu held.
func (s *otepSession) opponentMove(rest string) {
	if s.variant == nil {
		s.send("error 0 opponent-move before rules")
		return
	}
	movesText, rec, _ := strings.Cut(rest, " ")
	rec = strings.TrimSpace(rec)
	s.lastUndo = nil
	if s.pos != nil && rec != "" && notation.FormatBoard(s.pos.Board()) == normalBoard(rec) {
		return // already there (the move was ours and was refused, or a repeat)
	}
	ok := s.pos != nil
	var mover engine.Side
	if ok {
		mover = s.pos.ToMove()
		for _, t := range strings.Split(movesText, "|") {
			m, err := parseSimpleMove(t)
			if err == nil {
				_, err = s.pos.Play(m)
			}
			if err != nil {
				ok = false
				break
			}
		}
	}
	if ok && (rec == "" || notation.FormatBoard(s.pos.Board()) == normalBoard(rec)) {
		return
	}
	if rec == "" {
		s.send("error 0 cannot play opponent-move %s", movesText)
		return
	}
	// Out of step: take the board as given, with the engine to move.
	toMove := s.side
	if s.pos != nil && !ok {
		toMove = mover.Opponent()
	}
	if err := s.setBoard(rec, toMove); err != nil {
		s.send("error 0 bad position: %v", err)
	}
}

// startSearch starts a search for side in the current position: for
// 'play' (the move is played and sent) or for 'analyze' (think is the time
// asked for). Called with mu held.
func (s *otepSession) startSearch(ctx context.Context, side engine.Side, think time.Duration, analyse bool) {
	if s.pos == nil {
		s.send("error 0 no position: send rules first")
		return
	}
	if s.pos.ToMove() != side {
		if err := s.setBoard(notation.FormatBoard(s.pos.Board()), side); err != nil {
			s.send("error 0 %v", err)
			return
		}
	}
	if s.pos.Outcome().Over() {
		s.send("error 0 the game is over: %v by %v", s.pos.Outcome().Result, s.pos.Outcome().Reason)
		return
	}
	lim := s.limits(side, think, analyse)
	pos := s.pos.Clone()
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	s.cancel, s.done = cancel, done
	s.searchGen++
	gen := s.searchGen
	searcher := s.searcher
	go func() {
		defer close(done)
		defer cancel()
		r, err := searcher.Search(sctx, pos, lim)
		s.mu.Lock()
		defer s.mu.Unlock()
		if gen != s.searchGen || sctx.Err() != nil && err != nil {
			return // stopped by finish or goodbye
		}
		if err != nil {
			s.send("error 0 %v", err)
			return
		}
		s.send("status depth %d score %s nodes %d", r.Depth, r.Score, r.Nodes)
		if analyse {
			pv := make([]string, len(r.PV))
			for i, m := range r.PV {
				pv[i] = m.String()
			}
			s.send("analysis 1 %s %s", strings.Join(pv, "|"), otepEval(r.Score))
			return
		}
		if s.pos == nil || s.pos.Key() != pos.Key() {
			return // the position changed meanwhile
		}
		if err := s.pos.Check(r.Move); err != nil {
			s.send("error -1 %v", err)
			return
		}
		u := s.pos.Make(r.Move)
		s.lastUndo = &u
		s.send("move %s", r.Move)
	}()
}

// limits returns the search limits for side: --depth when given, else the
// think time (the level's, --time, or the seconds 'analyze' asked for)
// capped by the clock.
func (s *otepSession) limits(side engine.Side, think time.Duration, analyse bool) search.Limits {
	if s.depth > 0 {
		return search.Limits{Depth: s.depth}
	}
	if think <= 0 {
		think = s.think
	}
	if think <= 0 {
		think = s.level.Spec().Think
	}
	if !analyse && s.clock.known && s.clock.left[side] > 0 {
		share := s.clock.left[side] / 20
		if s.clock.overtime[side] {
			share = s.clock.left[side] / 2
		}
		think = max(min(think, share), 50*time.Millisecond)
	}
	lim := s.level.Limits(think)
	if analyse {
		lim.Depth = 0
	}
	return lim
}

// stop ends a running search; its move is dropped unless send is set.
func (s *otepSession) stop(send bool) {
	s.mu.Lock()
	cancel, done := s.cancel, s.done
	if !send {
		s.searchGen++
	}
	s.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// wait waits for a running search to end.
func (s *otepSession) wait() {
	s.mu.Lock()
	done := s.done
	s.mu.Unlock()
	if done != nil {
		<-done
	}
}

// otepEval formats a score for 'analysis': attackers' worth (points / 100)
// from the side to move's view, or ±(1000 - plies) for a forced result.
func otepEval(sc search.Score) string {
	switch {
	case sc.IsWin():
		return strconv.Itoa(1000 - sc.Plies())
	case sc.IsLoss():
		return strconv.Itoa(-(1000 - sc.Plies()))
	}
	return strconv.FormatFloat(float64(sc)/100, 'f', 2, 64)
}

// parseSide reads "attackers" or "defenders".
func parseSide(s string) (engine.Side, bool) {
	switch strings.TrimSpace(s) {
	case "attackers":
		return engine.Attackers, true
	case "defenders":
		return engine.Defenders, true
	}
	return 0, false
}

// parseSimpleMove reads a move in simple notation, "e5-e8", leaving out
// what full OTN adds around it (a piece letter, capture records, "+"/"-"
// marks).
func parseSimpleMove(t string) (engine.Move, error) {
	t = strings.TrimSpace(t)
	if i := strings.IndexByte(t, 'x'); i > 0 {
		t = t[:i]
	}
	t = strings.TrimRight(t, "+-")
	if len(t) > 1 && strings.IndexByte("KTtkNnCc", t[0]) >= 0 && t[1] >= 'a' && t[1] <= 'z' {
		t = t[1:] // a piece letter before the square
	}
	a, b, ok := strings.Cut(t, "-")
	if !ok {
		return engine.Move{}, fmt.Errorf("engine: bad move %q", t)
	}
	from, err := parseSquare(a)
	if err != nil {
		return engine.Move{}, err
	}
	to, err := parseSquare(b)
	if err != nil {
		return engine.Move{}, err
	}
	return engine.Move{From: from, To: to}, nil
}

// parseSquare reads "e5" (lower or upper case file).
func parseSquare(s string) (engine.Square, error) {
	s = strings.ToLower(s)
	if len(s) < 2 || s[0] < 'a' || s[0] >= 'a'+engine.MaxSize {
		return 0, fmt.Errorf("engine: bad square %q", s)
	}
	r, err := strconv.Atoi(s[1:])
	if err != nil || r < 1 || r > engine.MaxSize {
		return 0, fmt.Errorf("engine: bad square %q", s)
	}
	return engine.SquareAt(int(s[0]-'a'), r-1), nil
}

// parseClock reads 'clock ATT DEF OVERTIME ATT-OVERTIMES DEF-OVERTIMES':
// milliseconds left per side, a '*' when they are of an overtime period,
// the period in seconds and the periods left. Unreadable fields leave the
// clock unknown.
func parseClock(rest string) otepClock {
	f := strings.Fields(rest)
	var c otepClock
	if len(f) < 2 {
		return c
	}
	for i, side := range []engine.Side{engine.Attackers, engine.Defenders} {
		v := f[i]
		if strings.HasSuffix(v, "*") {
			c.overtime[side] = true
			v = strings.TrimSuffix(v, "*")
		}
		ms, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return otepClock{}
		}
		if ms > 0 {
			c.left[side] = time.Duration(ms) * time.Millisecond
		}
	}
	if len(f) >= 5 {
		if secs, err := strconv.Atoi(f[2]); err == nil {
			c.period = time.Duration(secs) * time.Second
		}
		c.periodsLeft[engine.Attackers], _ = strconv.Atoi(f[3])
		c.periodsLeft[engine.Defenders], _ = strconv.Atoi(f[4])
	}
	c.known = true
	return c
}
