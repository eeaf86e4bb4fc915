package search

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/taflmail/taflmail/engine"
)

// The self-play harness (docs/engine.md, "Measuring a change"): off by
// default, it plays two configurations against each other from a fixed set
// of openings, each opening twice with the sides swapped, and reports the
// first configuration's score with a 95% interval and the Elo difference
// that goes with it.
//
//	go test -run TestSelfPlay -selfplay -selfplay.a 5 -selfplay.b 4 -v -timeout 0 ./search/
//
// A configuration is a level, optionally without some evaluation terms or
// with some weights set: "5", "5,-freedom,-region" (see termNames),
// "5,Freedom=3,KingRoom=40" (fields of Weights). Budgets are node counts, so a
// match is deterministic and does not depend on the machine's load: each
// level's think time becomes nodes at -selfplay.nps nodes a second, scaled
// by -selfplay.scale; the level's depth limit stays.
var (
	selfPlay     = flag.Bool("selfplay", false, "run TestSelfPlay (long)")
	spA          = flag.String("selfplay.a", "5", "first configuration: LEVEL[,-TERM...]")
	spB          = flag.String("selfplay.b", "4", "second configuration")
	spVariant    = flag.String("selfplay.variant", "copenhagen", "variant played")
	spOpenings   = flag.Int("selfplay.openings", 20, "openings; each is played twice, sides swapped")
	spOpenPlies  = flag.Int("selfplay.openplies", 4, "random plies of each opening")
	spScale      = flag.Float64("selfplay.scale", 0.02, "fraction of each level's think time to spend")
	spNPS        = flag.Float64("selfplay.nps", 1e6, "nodes a second that turn think time into a node budget")
	spMaxPlies   = flag.Int("selfplay.maxplies", 300, "plies after which a game is adjudicated a draw")
	spParallel   = flag.Int("selfplay.parallel", 1, "games played at the same time")
	spSeed       = flag.Uint64("selfplay.seed", 1, "seed of the openings")
	spShowGames  = flag.Bool("selfplay.games", false, "log every game")
	spTableBytes = flag.Int("selfplay.table", 16<<20, "transposition table bytes per player")
)

// termNames are the names a configuration uses to switch terms off.
var termNames = map[string]Terms{
	"material": TermMaterial, "escape": TermEscape, "mobility": TermMobility,
	"corners": TermCorners, "danger": TermDanger, "region": TermRegion, "freedom": TermFreedom,
}

// player is one configuration of a match.
type player struct {
	name  string
	level Level
	terms Terms
	set   map[string]int // Weights fields set by name
	lim   Limits
}

func parsePlayer(s string, scale, nps float64) (player, error) {
	parts := strings.Split(s, ",")
	n, err := strconv.Atoi(parts[0])
	if err != nil || !Level(n).Valid() {
		return player{}, fmt.Errorf("configuration %q: want a level %d..%d first", s, MinLevel, MaxLevel)
	}
	pl := player{name: s, level: Level(n), terms: Level(n).Spec().Terms, set: map[string]int{}}
	for _, t := range parts[1:] {
		if field, value, ok := strings.Cut(t, "="); ok {
			f := reflect.ValueOf(Weights{}).FieldByName(field)
			x, err := strconv.Atoi(value)
			if !f.IsValid() || f.Kind() != reflect.Int || err != nil {
				return player{}, fmt.Errorf("configuration %q: %q is not FIELD=INTEGER for a field of Weights", s, t)
			}
			pl.set[field] = x
			continue
		}
		term, ok := termNames[strings.TrimPrefix(t, "-")]
		if !ok || !strings.HasPrefix(t, "-") {
			return player{}, fmt.Errorf("configuration %q: %q is not -TERM (terms: material escape mobility corners danger region freedom) or FIELD=N", s, t)
		}
		pl.terms &^= term
	}
	sp := pl.level.Spec()
	pl.lim = Limits{Depth: sp.Depth, Nodes: uint64(max(1, sp.Think.Seconds()*nps*scale))}
	return pl, nil
}

func (pl player) searcher() *Searcher {
	terms, set := pl.terms, pl.set
	return New(Options{
		TableBytes: *spTableBytes,
		Weights: func(v *engine.Variant) Weights {
			w := DefaultWeights(v)
			rv := reflect.ValueOf(&w).Elem()
			for field, x := range set {
				rv.FieldByName(field).SetInt(int64(x))
			}
			return w.Only(terms)
		},
	})
}

// openings returns n positions after plies random plies from the start of
// v, none decided and none that a depth-3 search scores beyond one
// defender's worth.
func openings(t *testing.T, v *engine.Variant, n, plies int, seed uint64) [][]engine.Move {
	rng := rand.New(rand.NewPCG(seed, 0x6f70656e))
	var out [][]engine.Move
	seen := map[uint64]bool{}
	for tries := 0; len(out) < n && tries < 100*n; tries++ {
		p, err := engine.NewPosition(v)
		if err != nil {
			t.Fatal(err)
		}
		var line []engine.Move
		for i := 0; i < plies && !p.Outcome().Over(); i++ {
			moves := p.LegalMoves(nil)
			m := moves[rng.IntN(len(moves))]
			p.Make(m)
			line = append(line, m)
		}
		if p.Outcome().Over() || seen[p.Key()] {
			continue
		}
		r := searchDepth(t, p, 3)
		if r.Score.Decided() || r.Score > 160 || r.Score < -160 {
			continue
		}
		seen[p.Key()] = true
		out = append(out, line)
	}
	return out
}

// gameResult is one game from the first configuration's point of view.
type gameResult struct {
	opening int
	aSide   engine.Side
	score   float64 // 1 win, 0.5 draw, 0 loss for the first configuration
	outcome engine.Outcome
	plies   int
	nodes   [2]uint64 // per configuration
	elapsed [2]time.Duration
	moves   []engine.Move
}

// playGame plays one game from the opening; a plays side aSide.
func playGame(v *engine.Variant, opening []engine.Move, a, b player, aSide engine.Side, maxPlies int) (gameResult, error) {
	p, err := engine.NewPosition(v)
	if err != nil {
		return gameResult{}, err
	}
	for _, m := range opening {
		p.Make(m)
	}
	res := gameResult{aSide: aSide}
	sa, sb := a.searcher(), b.searcher()
	for res.plies = 0; !p.Outcome().Over() && res.plies < maxPlies; res.plies++ {
		s, pl, who := sb, b, 1
		if p.ToMove() == aSide {
			s, pl, who = sa, a, 0
		}
		r, err := s.Search(context.Background(), p, pl.lim)
		if err != nil {
			return res, err
		}
		res.nodes[who] += r.Nodes
		res.elapsed[who] += r.Elapsed
		res.moves = append(res.moves, r.Move)
		if _, err := p.Play(r.Move); err != nil {
			return res, fmt.Errorf("ply %d: %v plays an illegal move: %w", res.plies+1, pl.name, err)
		}
	}
	res.outcome = p.Outcome()
	res.score = 0.5
	if w, ok := res.outcome.Result.Winner(); ok {
		res.score = 0
		if w == aSide {
			res.score = 1
		}
	}
	return res, nil
}

// matchStats summarises a match: the first configuration's mean score, the
// 95% interval from the spread of the opening pairs (both games of an
// opening form one sample, which removes the opening's own bias), and the
// Elo differences of the three.
type matchStats struct {
	games, wins, draws, losses int
	score, lo, hi              float64
	elo, eloLo, eloHi          float64
}

func stats(games []gameResult, openings int) matchStats {
	var st matchStats
	pair := make([]float64, openings)
	count := make([]int, openings)
	for _, g := range games {
		st.games++
		switch g.score {
		case 1:
			st.wins++
		case 0:
			st.losses++
		default:
			st.draws++
		}
		st.score += g.score
		pair[g.opening] += g.score
		count[g.opening]++
	}
	st.score /= float64(st.games)
	var xs []float64
	for i := range pair {
		if count[i] > 0 {
			xs = append(xs, pair[i]/float64(count[i]))
		}
	}
	se := 0.0
	if n := len(xs); n > 1 {
		mean := 0.0
		for _, x := range xs {
			mean += x
		}
		mean /= float64(n)
		v := 0.0
		for _, x := range xs {
			v += (x - mean) * (x - mean)
		}
		se = math.Sqrt(v / float64(n-1) / float64(n))
	}
	st.lo, st.hi = math.Max(0, st.score-1.96*se), math.Min(1, st.score+1.96*se)
	st.elo, st.eloLo, st.eloHi = elo(st.score), elo(st.lo), elo(st.hi)
	return st
}

// elo converts a score fraction into an Elo difference (logistic model),
// clamped to ±1200 for scores of 0 and 1.
func elo(s float64) float64 {
	s = math.Min(math.Max(s, 0.001), 0.999)
	return math.Max(-1200, math.Min(1200, -400*math.Log10(1/s-1)))
}

func TestSelfPlay(t *testing.T) {
	if !*selfPlay {
		t.Skip("self-play runs only with -selfplay (see docs/engine.md)")
	}
	v, ok := engine.Lookup(*spVariant)
	if !ok {
		t.Fatalf("no variant %q", *spVariant)
	}
	a, err := parsePlayer(*spA, *spScale, *spNPS)
	if err != nil {
		t.Fatal(err)
	}
	b, err := parsePlayer(*spB, *spScale, *spNPS)
	if err != nil {
		t.Fatal(err)
	}
	ops := openings(t, v, *spOpenings, *spOpenPlies, *spSeed)
	t.Logf("%s: %q (depth %d, %d nodes) against %q (depth %d, %d nodes), %d openings of %d plies, sides swapped",
		v.Name, a.name, a.lim.Depth, a.lim.Nodes, b.name, b.lim.Depth, b.lim.Nodes, len(ops), *spOpenPlies)

	type job struct {
		opening int
		side    engine.Side
	}
	jobs := make(chan job)
	results := make(chan gameResult)
	errs := make(chan error, 2*len(ops))
	var wg sync.WaitGroup
	for w := 0; w < max(1, *spParallel); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				g, err := playGame(v, ops[j.opening], a, b, j.side, *spMaxPlies)
				if err != nil {
					errs <- err
					continue
				}
				g.opening = j.opening
				results <- g
			}
		}()
	}
	go func() {
		for i := range ops {
			for _, side := range []engine.Side{engine.Attackers, engine.Defenders} {
				jobs <- job{i, side}
			}
		}
		close(jobs)
		wg.Wait()
		close(results)
	}()
	var games []gameResult
	var nodes [2]uint64
	var elapsed [2]time.Duration
	var asAtt, asDef [3]int // wins, draws, losses of a by side
	plies := 0
	for g := range results {
		games = append(games, g)
		plies += g.plies
		for i := range nodes {
			nodes[i] += g.nodes[i]
			elapsed[i] += g.elapsed[i]
		}
		tally := &asAtt
		if g.aSide == engine.Defenders {
			tally = &asDef
		}
		tally[int(2-2*g.score)]++
		if *spShowGames {
			t.Logf("opening %d, %q plays %v: %v by %v after %d plies (a scores %.1f)",
				g.opening, a.name, g.aSide, g.outcome.Result, g.outcome.Reason, g.plies, g.score)
		}
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if len(games) == 0 {
		t.Fatal("no game finished")
	}
	st := stats(games, len(ops))
	t.Logf("%q vs %q: %d games, +%d =%d -%d, score %.3f (95%%: %.3f–%.3f), Elo %+.0f (%+.0f to %+.0f)",
		a.name, b.name, st.games, st.wins, st.draws, st.losses, st.score, st.lo, st.hi, st.elo, st.eloLo, st.eloHi)
	t.Logf("%q as attackers +%d =%d -%d, as defenders +%d =%d -%d; %.0f plies a game",
		a.name, asAtt[0], asAtt[1], asAtt[2], asDef[0], asDef[1], asDef[2], float64(plies)/float64(len(games)))
	for i, pl := range []player{a, b} {
		if elapsed[i] > 0 {
			t.Logf("%q: %.0f nodes/s over %v", pl.name, float64(nodes[i])/elapsed[i].Seconds(), elapsed[i].Round(time.Second))
		}
	}
}

// TestSelfPlayStats checks the match arithmetic on made-up results.
func TestSelfPlayStats(t *testing.T) {
	var games []gameResult
	for i := 0; i < 10; i++ {
		games = append(games, gameResult{opening: i, score: 1}, gameResult{opening: i, score: float64(i % 2)})
	}
	st := stats(games, 10)
	if st.games != 20 || st.wins != 15 || st.losses != 5 || st.score != 0.75 {
		t.Fatalf("stats = %+v, want 20 games, 15 wins, 5 losses, score 0.75", st)
	}
	// Pair means alternate 1 and 0.5: sd 0.2635, se 0.0833, ±0.163.
	if math.Abs(st.lo-0.587) > 0.001 || math.Abs(st.hi-0.913) > 0.001 {
		t.Errorf("interval %.3f–%.3f, want 0.587–0.913", st.lo, st.hi)
	}
	if math.Abs(st.elo-190.8) > 0.1 {
		t.Errorf("Elo %.1f, want 190.8 for a score of 0.75", st.elo)
	}
	if elo(0.5) != 0 || elo(1) < 1199 || elo(0) > -1199 {
		t.Errorf("elo(0.5) = %v, elo(1) = %v, elo(0) = %v", elo(0.5), elo(1), elo(0))
	}
	if _, err := parsePlayer("5,-freedom", 0.02, 1e6); err != nil {
		t.Error(err)
	}
	if pl, err := parsePlayer("4,Freedom=3", 0.02, 1e6); err != nil || pl.set["Freedom"] != 3 {
		t.Errorf("parsePlayer(4,Freedom=3) = %+v, %v", pl, err)
	} else if v, _ := engine.Lookup("copenhagen"); pl.searcher().opts.Weights(v).Freedom != 3 {
		t.Errorf("the weight set by 4,Freedom=3 does not reach the searcher")
	}
	for _, bad := range []string{"6", "x", "5,freedom", "5,-nosuch", "5,Nosuch=3", "5,Freedom=x"} {
		if _, err := parsePlayer(bad, 0.02, 1e6); err == nil {
			t.Errorf("parsePlayer(%q) = nil error", bad)
		}
	}
	pl, _ := parsePlayer("5,-freedom,-region", 0.02, 1e6)
	if pl.terms != AllTerms&^TermFreedom&^TermRegion || pl.lim.Nodes != 200000 || pl.lim.Depth != 0 {
		t.Errorf("parsePlayer(5,-freedom,-region) = %+v", pl)
	}
}
