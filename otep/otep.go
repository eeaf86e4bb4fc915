// Package otep speaks the OpenTafl Engine Protocol (OTEP,
// opentafl-engine-protocol.txt of the OpenTafl project) as an external
// engine: a Session reads OpenTafl's commands one a line ('rules',
// 'position', 'side', 'clock', 'opponent-move', 'play', 'analyze',
// 'finish', 'goodbye', …), keeps the position with package engine, reads
// OTN rules and position records with package notation (rank 1 first, OTN
// spec §1) and answers 'play' and 'analyze' with a search of package
// search ('move e5-e8' in simple notation, 'analysis 1 LINE EVAL').
//
// Units: clock times from the host are milliseconds and overtime periods
// seconds (§10), as the protocol writes them; think times are
// time.Duration; depths are plies. docs/engine.md §8 describes the
// conversation as a user sees it.
package otep

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/search"
)

// hostClock is the last 'clock' command.
type hostClock struct {
	known       bool
	left        [2]time.Duration // by engine.Side
	overtime    [2]bool          // the time left is of an overtime period
	period      time.Duration
	periodsLeft [2]int
}

// Options say how a Session searches.
type Options struct {
	// Level is the playing level, search.MinLevel to search.MaxLevel; its
	// think time is used when Think is 0.
	Level search.Level
	// Think is the think time per move; 0 takes the level's. A 'clock'
	// from the host caps it (see Session).
	Think time.Duration
	// Depth, when above 0, searches every move to this many plies instead
	// of by time (for tests); at most search.MaxDepth.
	Depth int
}

// Session is one OTEP conversation. Commands are read and handled one
// at a time; a search for 'play' or 'analyze' runs on its own goroutine, so
// that 'finish' and 'goodbye' can stop it, and any other command waits for
// it to end.
//
// Think time: Options.Think or the level's, never more than a twentieth
// of the time the host's last 'clock' leaves the side (half of an overtime
// period), at least 50 ms but never more than half the time left. The
// move is sent a margin before the think time is up (a twentieth of it,
// 10 ms to 100 ms), counted from when the host's 'play' was read.
type Session struct {
	out   *bufio.Writer
	outMu sync.Mutex
	level search.Level
	think time.Duration
	depth int

	mu        sync.Mutex // guards what the search goroutine touches
	variant   *engine.Variant
	pos       *engine.Position
	side      engine.Side // the side the engine plays ('side')
	sideGiven bool        // 'side' named it since the last 'rules' or 'finish'
	setSide   bool        // a 'position' came: the next 'side' says who moves
	lastUndo  *engine.Undo
	clock     hostClock
	searcher  *search.Searcher
	cancel    context.CancelFunc
	done      chan struct{}
	searchGen int // bumped to drop a cancelled search's move
}

// NewSession returns a session that writes its command lines to w and
// searches as o says. It does not check o: the caller validates the level
// and the depth (an invalid level plays as search.Level does with it).
func NewSession(w io.Writer, o Options) *Session {
	return &Session{out: bufio.NewWriter(w), level: o.Level, think: o.Think, depth: o.Depth}
}

// send writes one command line and flushes it.
func (s *Session) send(format string, args ...any) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	line := fmt.Sprintf(format, args...)
	line = strings.NewReplacer("\n", " ", "\r", " ").Replace(line)
	s.out.WriteString(line)
	s.out.WriteByte('\n')
	s.out.Flush()
}

// Run says 'hello' and handles the host's commands read from in, one a
// line, until 'goodbye', the end of the input or the end of ctx, then waits
// for a running search to finish. Every line it cannot act on is answered
// with the protocol's 'error' and the conversation goes on; a line longer
// than MaxLine bytes is answered so and dropped. The error returned is
// only a failure to read in (wrapped); 'goodbye' and the end of the input
// return nil.
func (s *Session) Run(ctx context.Context, in io.Reader) error {
	s.send("hello")
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, long, err := readLine(r, MaxLine)
		if ctx.Err() != nil {
			break
		}
		switch {
		case long:
			// one line too long loses nothing but itself (issue 18 §5)
			s.send("error 0 a line of more than %d bytes, ignored: no OpenTafl Engine Protocol command is that long", MaxLine)
		case line != "" || err == nil:
			if !s.handle(ctx, strings.TrimSpace(line)) {
				s.stop(false)
				return nil
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			s.wait()
			return fmt.Errorf("engine: reading commands: %w", err)
		}
	}
	s.wait()
	return nil
}

// MaxLine is the longest command line a Session reads, in bytes: 1 MiB,
// thousands of times the longest OpenTafl sends (a 19×19 rules string
// with its start position is under 1 KB).
const MaxLine = 1 << 20

// readLine reads one line from r without its line end, of at most max
// bytes: a longer one is read to its end and dropped, long reported, so
// memory stays within max whatever the input. err is io.EOF after the
// last line (which may lack a line end), or the reader's error.
func readLine(r *bufio.Reader, max int) (line string, long bool, err error) {
	var buf []byte
	for {
		frag, err := r.ReadSlice('\n')
		if !long {
			if len(buf)+len(frag) > max+2 { // +2: the line end, CR LF
				long, buf = true, nil
			} else {
				buf = append(buf, frag...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		line := strings.TrimSuffix(strings.TrimSuffix(string(buf), "\n"), "\r")
		if long || len(line) > max {
			return "", true, err
		}
		return line, false, err
	}
}

// commands are the commands OpenTafl sends to an engine
// (opentafl-engine-protocol.txt §4–§19), and 'simple-moves', which an
// engine sends (§5) and is ignored when it comes back.
var commands = map[string]bool{
	"hello": true, "simple-moves": true, "rules": true, "start": true, "position": true,
	"side": true, "clock": true, "analyze": true, "play": true, "move": true, "error": true,
	"opponent-move": true, "finish": true, "goodbye": true,
}

// handle carries out one command; it returns false after 'goodbye'. A
// line it cannot act on is answered with 'error 0 …', the protocol's
// non-critical error (§16: shown to the user, the game goes on); one that
// leaves the engine unable to answer 'play' with a move gets 'error -1 …',
// the critical error that ends the game.
func (s *Session) handle(ctx context.Context, line string) bool {
	received := time.Now() // OpenTafl's clock runs from its 'play' (§12)
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	if word != "" && !commands[word] {
		s.send("error 0 unknown command %q: not an OpenTafl Engine Protocol command", word)
		return true
	}
	// These need not wait for a running search.
	switch word {
	case "goodbye":
		return false
	case "finish":
		s.finishGame()
		return true
	case "clock":
		s.setClock(rest)
		return true
	case "", "hello", "start", "simple-moves":
		return true
	}
	s.wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	switch word {
	case "rules":
		s.setRules(rest)
	case "position":
		s.setPosition(rest)
	case "side":
		s.setSideToPlay(rest)
	case "opponent-move":
		s.opponentMove(rest)
	case "move":
		s.moveAccepted(rest)
	case "error":
		s.moveRefused()
	case "play":
		s.play(ctx, rest, received)
	case "analyze":
		s.analyze(ctx, rest, received)
	}
	return true
}

// finishGame carries out 'finish': it stops a running search without a
// move and forgets the position, the move to take back and the side
// given, ready for the next game's 'rules'.
func (s *Session) finishGame() {
	s.stop(false)
	s.mu.Lock()
	s.pos, s.lastUndo, s.sideGiven = nil, nil, false
	s.mu.Unlock()
}

// setClock carries out 'clock' with its arguments rest; a clock it
// cannot read is answered with 'error 0 …' and the last good one stays.
func (s *Session) setClock(rest string) {
	c, err := parseClock(rest)
	if err != nil {
		// The last good clock stays: a stale clock caps the think
		// time by less than it should, never more.
		s.send("error 0 %v", err)
		return
	}
	s.mu.Lock()
	s.clock = c
	s.mu.Unlock()
}

// setRules carries out 'rules' with the rules string rest: the variant,
// its start position and a new searcher. Rules it cannot play are
// answered with 'error -1 …' and leave no variant and no position.
// Called with mu held.
func (s *Session) setRules(rest string) {
	v, err := notation.ParseRules(rest)
	if err != nil {
		s.send("error -1 rules not supported: %v", err)
		s.variant, s.pos = nil, nil
		return
	}
	p, err := engine.NewPosition(v)
	if err != nil {
		s.send("error -1 rules not supported: %v", err)
		s.variant, s.pos = nil, nil
		return
	}
	s.variant, s.pos, s.lastUndo, s.sideGiven = v, p, nil, false
	s.searcher = search.New(s.level.Options())
}

// setPosition carries out 'position' with the position record rest,
// the side to move kept until a 'side' names it. Before 'rules', or with
// a board it cannot read (which leaves no position), it answers with
// 'error 0 …'. Called with mu held.
func (s *Session) setPosition(rest string) {
	if s.variant == nil {
		s.send("error 0 position before rules")
		return
	}
	toMove := s.variant.FirstSide
	if s.pos != nil {
		toMove = s.pos.ToMove()
	}
	if err := s.setBoard(rest, toMove); err != nil {
		s.pos, s.lastUndo = nil, nil
		s.send("error 0 bad position: %v; %s", err, noPosition)
		return
	}
	s.setSide = true
}

// setSideToPlay carries out 'side' with the side rest: the side the
// engine plays, and right after 'position' also the side to move. A
// side it cannot read is answered with 'error 0 …'. Called with mu held.
func (s *Session) setSideToPlay(rest string) {
	side, ok := parseSide(rest)
	if !ok {
		s.send("error 0 bad side %q", rest)
		return
	}
	s.side, s.sideGiven = side, true
	if s.setSide && s.pos != nil && s.pos.ToMove() != side {
		// After 'position' (analysis), 'side' names the side to move.
		if err := s.setBoard(notation.FormatBoard(s.pos.Board()), side); err != nil {
			s.send("error 0 %v", err)
		}
	}
	s.setSide = false
}

// moveAccepted carries out 'move': OpenTafl accepted our move, and rest,
// the board after it, replaces the position when it differs from ours
// ('error 0 …' when it cannot be read). Called with mu held.
func (s *Session) moveAccepted(rest string) {
	if s.pos != nil && rest != "" && notation.FormatBoard(s.pos.Board()) != normalBoard(rest) {
		if err := s.setBoard(rest, s.side.Opponent()); err != nil {
			s.send("error 0 bad position: %v", err)
		}
	}
	s.lastUndo = nil
}

// moveRefused carries out 'error': OpenTafl refused our last move, so it
// is taken back; OpenTafl resends the position with 'opponent-move' and
// asks again with 'play'. Called with mu held.
func (s *Session) moveRefused() {
	if s.pos != nil && s.lastUndo != nil {
		s.pos.Unmake(*s.lastUndo)
	}
	s.lastUndo = nil
}

// play carries out 'play' with the side rest: a search for that side's
// move, its time counted from received. A side it cannot read, or not
// the one 'side' named, is answered with 'error -1 …', since no move
// follows a refused 'play'. Called with mu held.
func (s *Session) play(ctx context.Context, rest string, received time.Time) {
	side, ok := parseSide(rest)
	if !ok {
		s.send("error -1 bad side %q: want play attackers or play defenders", rest)
		return
	}
	if s.sideGiven && side != s.side {
		// 'side' says which side the engine plays (§9); OpenTafl
		// itself refuses a move of the wrong side (§16, code 1).
		s.send("error -1 wrong side: told to play the %v after 'side %v'", side, s.side)
		return
	}
	s.side = side
	s.startSearch(ctx, side, 0, false, received)
}

// analyze carries out 'analyze' with its arguments rest: an analysis of
// the side to move for the seconds given, its time counted from
// received. Bad arguments, or no position, are answered with
// 'error 0 …'. Called with mu held.
func (s *Session) analyze(ctx context.Context, rest string, received time.Time) {
	secs, err := parseAnalyze(rest)
	if err != nil {
		s.send("error 0 %v", err)
		return
	}
	if s.pos == nil {
		s.send("error 0 no position: send rules, position or opponent-move with a readable board first")
		return
	}
	s.startSearch(ctx, s.pos.ToMove(), time.Duration(secs*float64(time.Second)), true, received)
}

// setBoard replaces the position by the board of an OTN position record
// with toMove to move (the game's history is lost). Called with mu held.
func (s *Session) setBoard(rec string, toMove engine.Side) error {
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

// noPosition ends the error of a command that left the engine
// without a position.
const noPosition = "the engine has no position until the next rules, position or opponent-move with a readable board"

// opponentMove plays the opponent's moves ('a1-a3|…') and checks the
// board against the record that follows; when a move cannot be played or
// the boards differ, the record wins (§17: it is "always the state of the
// board at the end of the move list"). When neither the moves nor the
// record can be used, the engine has no position until it is given one:
// it does not play on from a board that is not the game's. Called with mu
// held.
func (s *Session) opponentMove(rest string) {
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
	// The moves are played on a copy, so that a move that fails half-way
	// leaves nothing behind.
	var played *engine.Position // after the moves; nil when they cannot be played
	var mover engine.Side
	if s.pos != nil {
		played = s.pos.Clone()
		mover = played.ToMove()
		for _, t := range strings.Split(movesText, "|") {
			m, err := parseSimpleMove(t)
			if err == nil {
				_, err = played.Play(m)
			}
			if err != nil {
				played = nil
				break
			}
		}
	}
	if played != nil && (rec == "" || notation.FormatBoard(played.Board()) == normalBoard(rec)) {
		s.pos = played
		return
	}
	if rec == "" {
		s.pos = nil
		s.send("error 0 cannot play opponent-move %s and no board follows: %s", movesText, noPosition)
		return
	}
	// Out of step: take the board as given, with the engine to move.
	toMove := s.side
	if s.pos != nil && played == nil {
		toMove = mover.Opponent()
	}
	if err := s.setBoard(rec, toMove); err != nil {
		if played != nil {
			s.pos = played
			s.send("error 0 bad position in opponent-move: %v; playing on from the board after %s", err, movesText)
			return
		}
		s.pos = nil
		s.send("error 0 cannot play opponent-move %s, and bad position: %v; %s", movesText, err, noPosition)
	}
}

// startSearch starts a search for side in the current position: for
// 'play' (the move is played and sent) or for 'analyze' (think is the time
// asked for); received is when the command was read. Called with mu held.
func (s *Session) startSearch(ctx context.Context, side engine.Side, think time.Duration, analyse bool, received time.Time) {
	// A 'play' that gets no move cannot go on: its errors are critical
	// (-1); a failed 'analyze' is not (0).
	code := -1
	if analyse {
		code = 0
	}
	if s.pos == nil {
		s.send("error %d no position: send rules, position or opponent-move with a readable board first", code)
		return
	}
	if s.pos.ToMove() != side {
		if err := s.setBoard(notation.FormatBoard(s.pos.Board()), side); err != nil {
			s.send("error %d %v", code, err)
			return
		}
	}
	if s.pos.Outcome().Over() {
		s.send("error %d the game is over: %v by %v", code, s.pos.Outcome().Result, s.pos.Outcome().Reason)
		return
	}
	lim := s.limits(side, think, analyse, time.Since(received))
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
			s.send("error %d %v", code, err)
			return
		}
		s.send("status depth %d score %s nodes %d", r.Depth, r.Score, r.Nodes)
		if analyse {
			pv := make([]string, len(r.PV))
			for i, m := range r.PV {
				pv[i] = m.String()
			}
			s.send("analysis 1 %s %s", strings.Join(pv, "|"), eval(r.Score))
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

// limits returns the search limits for side: Options.Depth when given, else the
// think time (Options.Think, the level's, or the seconds 'analyze' asked for)
// capped by the clock: a twentieth of the time left, half of an overtime
// period, at least 50 ms but never more than half the time left. The
// search stops margin before the think time is up, counted from when
// the command was read (spent ago), so that the move reaches a host that
// times from its 'play' within the think time.
func (s *Session) limits(side engine.Side, think time.Duration, analyse bool, spent time.Duration) search.Limits {
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
		left := s.clock.left[side]
		share := left / 20
		if s.clock.overtime[side] {
			share = left / 2
		}
		think = max(min(think, share), min(50*time.Millisecond, left/2))
	}
	stop := max(think-margin(think)-spent, time.Millisecond)
	lim := s.level.Limits(stop)
	if analyse {
		lim.Depth = 0
	}
	return lim
}

// margin is the part of a think time the search leaves unused: what
// noticing the deadline (the search looks at the clock every 1,024
// positions), ending the search and sending the move take. Without it the
// engine answered a few milliseconds after its think time. A twentieth of
// the think time, at least 10 ms and at most 100 ms, never more than half.
func margin(think time.Duration) time.Duration {
	return min(max(think/20, 10*time.Millisecond), 100*time.Millisecond, think/2)
}

// stop ends a running search; its move is dropped unless send is set.
func (s *Session) stop(send bool) {
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
func (s *Session) wait() {
	s.mu.Lock()
	done := s.done
	s.mu.Unlock()
	if done != nil {
		<-done
	}
}

// eval formats a score for 'analysis': attackers' worth (points / 100)
// from the side to move's view, or ±(1000 - plies) for a forced result.
func eval(sc search.Score) string {
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

// parseClock reads 'clock ATT DEF [OVERTIME ATT-OVERTIMES DEF-OVERTIMES]'
// (§10): milliseconds left per side, each with a '*' when they are of an
// overtime period, then the overtime period in seconds and the periods
// left per side. A side's -1 (the older protocol text's "no main time")
// leaves its time unknown. Errors name the field and the form wanted.
func parseClock(rest string) (hostClock, error) {
	const form = "want clock ATT-MS[*] DEF-MS[*] [OVERTIME-S ATT-PERIODS DEF-PERIODS]"
	f := strings.Fields(rest)
	if len(f) != 2 && len(f) != 5 {
		return hostClock{}, fmt.Errorf("bad clock %q: %d fields, %s", rest, len(f), form)
	}
	var c hostClock
	for i, side := range []engine.Side{engine.Attackers, engine.Defenders} {
		v, over := strings.CutSuffix(f[i], "*")
		ms, err := strconv.ParseInt(v, 10, 64)
		if err != nil || ms < -1 || ms > math.MaxInt64/int64(time.Millisecond) {
			return hostClock{}, fmt.Errorf("bad clock %q: the %v' time %q is no number of milliseconds; %s", rest, side, f[i], form)
		}
		c.overtime[side] = over
		if ms > 0 {
			c.left[side] = time.Duration(ms) * time.Millisecond
		}
	}
	if len(f) == 5 {
		n := make([]int, 3)
		for i, v := range f[2:] {
			k, err := strconv.Atoi(v)
			if err != nil || k < 0 || k > math.MaxInt32 {
				return hostClock{}, fmt.Errorf("bad clock %q: %q is no count of seconds or periods; %s", rest, v, form)
			}
			n[i] = k
		}
		c.period = time.Duration(n[0]) * time.Second
		c.periodsLeft[engine.Attackers], c.periodsLeft[engine.Defenders] = n[1], n[2]
	}
	c.known = true
	return c, nil
}

// parseAnalyze reads 'analyze NUMBER SECONDS' (§11) and returns the
// seconds; 0 asks for the engine's own think time.
func parseAnalyze(rest string) (float64, error) {
	const form = "want analyze NUMBER SECONDS"
	f := strings.Fields(rest)
	if len(f) != 2 {
		return 0, fmt.Errorf("bad analyze %q: %s", rest, form)
	}
	if n, err := strconv.Atoi(f[0]); err != nil || n < 1 {
		return 0, fmt.Errorf("bad analyze %q: the number of moves %q is not 1 or more; %s", rest, f[0], form)
	}
	secs, err := strconv.ParseFloat(f[1], 64)
	if err != nil || !(secs >= 0 && secs <= 24*3600) {
		return 0, fmt.Errorf("bad analyze %q: %q is no number of seconds up to a day; %s", rest, f[1], form)
	}
	return secs, nil
}
