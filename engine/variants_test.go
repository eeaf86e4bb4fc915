package engine

import (
	"errors"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// tierOneNames is the tier-1 order of RULES.md §2.
var tierOneNames = []string{"copenhagen", "fetlar", "historical", "vingolf", "tablut", "brandubh"}

// tierTwoNames are the tier-2 built-ins of RULES.md §2 ("Tier 2"), sorted.
var tierTwoNames = []string{"alea", "ardri", "copenhagen13", "foteviken", "legacy", "linnaeus", "seabattle", "seabattle13", "tawlbwrdd"}

// mustVariant returns the built-in variant name or stops the test.
func mustVariant(t testing.TB, name string) *Variant {
	t.Helper()
	v, ok := Lookup(name)
	if !ok {
		t.Fatalf("Lookup(%q) = false, want a built-in variant", name)
	}
	return v
}

// startOTN writes the start position of v as an OTN position string, rank 1
// first (RULES.md §0).
func startOTN(t testing.TB, v *Variant) string {
	t.Helper()
	b, err := v.StartBoard()
	if err != nil {
		t.Fatalf("%s: StartBoard: %v", v.Name, err)
	}
	var sb strings.Builder
	sb.WriteByte('/')
	for r := 0; r < v.Size; r++ {
		run := 0
		for f := 0; f < v.Size; f++ {
			pc := b.At(SquareAt(f, r))
			if pc == Empty {
				run++
				continue
			}
			if run > 0 {
				sb.WriteString(strconv.Itoa(run))
				run = 0
			}
			sb.WriteByte(".tTK"[pc])
		}
		if run > 0 {
			sb.WriteString(strconv.Itoa(run))
		}
		sb.WriteByte('/')
	}
	return sb.String()
}

func TestBuiltinVariantsValidate(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range Variants() {
		if err := v.Validate(); err != nil {
			t.Errorf("%s: Validate() = %v, want nil", v.Name, err)
		}
		if seen[v.Name] {
			t.Errorf("variant name %q listed twice", v.Name)
		}
		seen[v.Name] = true
		if v.Name == "" || v.Name != strings.ToLower(v.Name) || strings.ContainsAny(v.Name, " \t") {
			t.Errorf("variant name %q: want a non-empty lower-case word", v.Name)
		}
		if v.Title == "" || v.Summary == "" || v.Source == "" {
			t.Errorf("%s: Title, Summary and Source must all be set", v.Name)
		}
		if v.Tier != 1 && v.Tier != 2 {
			t.Errorf("%s: Tier = %d, want 1 or 2", v.Name, v.Tier)
		}
		if v.FirstSide != Attackers {
			t.Errorf("%s: FirstSide = %v, want attackers (every built-in, RULES.md §2)", v.Name, v.FirstSide)
		}
		// Every documented start is symmetric about both axes and both
		// diagonals; this also makes top-down and bottom-up reading agree.
		n := v.Size
		for r := 0; r < n; r++ {
			for f := 0; f < n; f++ {
				c := v.Start[r][f]
				if v.Start[n-1-r][f] != c || v.Start[r][n-1-f] != c || v.Start[f][r] != c {
					t.Errorf("%s: start is not symmetric at %v", v.Name, SquareAt(f, n-1-r))
				}
			}
		}
		p, err := NewPosition(v)
		if err != nil {
			t.Errorf("%s: NewPosition: %v", v.Name, err)
			continue
		}
		if o := p.Outcome(); o.Over() {
			t.Errorf("%s: start position is already decided: %+v", v.Name, o)
		}
		if k, ok := p.King(); !ok || k != SquareAt(n/2, n/2) {
			t.Errorf("%s: king on %v (%v), want the centre %v", v.Name, k, ok, SquareAt(n/2, n/2))
		}
	}
}

func TestBuiltinLookupUnknown(t *testing.T) {
	for _, name := range []string{"", "nosuch", "Copenhagen", "copenhagen ", "hnefatafl", "sea battle", "berserk"} {
		if v, ok := Lookup(name); ok || v != nil {
			t.Errorf("Lookup(%q) = %v, %v; want nil, false", name, v, ok)
		}
	}
}

func TestBuiltinLookupReturnsCopy(t *testing.T) {
	v := mustVariant(t, "legacy")
	v.Size = 5
	v.Corners = SquareRule{}
	v.Repetition = RepetitionIgnored
	w := mustVariant(t, "legacy")
	if w.Size != 11 || !w.Corners.Present || w.Repetition != RepetitionSideToMoveLoses {
		t.Fatalf("changing a looked-up variant changed the registry: %+v", w)
	}
}

func TestBuiltinVariantsOrder(t *testing.T) {
	var got []string
	for _, v := range Variants() {
		got = append(got, v.Name)
	}
	want := append(append([]string{}, tierOneNames...), tierTwoNames...)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Variants() names =\n%v\nwant\n%v", got, want)
	}
	for i, v := range Variants() {
		if wantTier := 1 + btoi(i >= len(tierOneNames)); v.Tier != wantTier {
			t.Errorf("%s: Tier = %d, want %d", v.Name, v.Tier, wantTier)
		}
	}
	if !sort.StringsAreSorted(tierTwoNames) {
		t.Fatal("tierTwoNames must be sorted")
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestBuiltinPieceCounts(t *testing.T) {
	tests := []struct {
		name                      string
		attackers, defenders, kgs int
	}{
		{"copenhagen", 24, 12, 1},
		{"fetlar", 24, 12, 1},
		{"historical", 24, 12, 1},
		{"vingolf", 24, 12, 1},
		{"tablut", 16, 8, 1},
		{"brandubh", 8, 4, 1},
		{"linnaeus", 16, 8, 1},
		{"legacy", 24, 12, 1},
		{"tawlbwrdd", 24, 12, 1},
		{"ardri", 8, 4, 1},
		{"seabattle", 16, 8, 1},
		{"seabattle13", 32, 16, 1},
		{"copenhagen13", 32, 16, 1},
		{"foteviken", 16, 8, 1},
		{"alea", 48, 24, 1},
	}
	if len(tests) != len(tierOneNames)+len(tierTwoNames) {
		t.Fatalf("table has %d rows, want one per built-in", len(tests))
	}
	for _, tc := range tests {
		p, err := NewPosition(mustVariant(t, tc.name))
		if err != nil {
			t.Fatalf("%s: NewPosition: %v", tc.name, err)
		}
		a, d, k := p.Count(Attacker), p.Count(Defender), p.Count(King)
		if a != tc.attackers || d != tc.defenders || k != tc.kgs {
			t.Errorf("%s: start holds %d attackers, %d defenders, %d kings; want %d, %d, %d",
				tc.name, a, d, k, tc.attackers, tc.defenders, tc.kgs)
		}
	}
}

// TestStartSquaresAB checks starts A and B square by square against the
// lists of RULES.md §2.
func TestStartSquaresAB(t *testing.T) {
	defenders := "f4 e5 f5 g5 d6 e6 g6 h6 e7 f7 g7 f8"
	layouts := map[string]string{
		"A": "d1 e1 f1 g1 h1 f2 a4 k4 a5 k5 a6 b6 j6 k6 a7 k7 a8 k8 f10 d11 e11 f11 g11 h11",
		"B": "e1 f1 g1 e2 g2 f3 a5 b5 j5 k5 a6 c6 i6 k6 a7 b7 j7 k7 f9 e10 g10 e11 f11 g11",
	}
	uses := map[string][]string{
		"A": {"copenhagen", "fetlar", "vingolf"},
		"B": {"historical", "legacy", "tawlbwrdd"},
	}
	for layout, attackers := range layouts {
		want := map[Square]Piece{sq(t, "f6"): King}
		for _, s := range strings.Fields(attackers) {
			want[sq(t, s)] = Attacker
		}
		for _, s := range strings.Fields(defenders) {
			want[sq(t, s)] = Defender
		}
		for _, name := range uses[layout] {
			v := mustVariant(t, name)
			b, err := v.StartBoard()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for r := 0; r < 11; r++ {
				for f := 0; f < 11; f++ {
					s := SquareAt(f, r)
					if got := b.At(s); got != want[s] {
						t.Errorf("%s (start %s): %v holds %v, want %v", name, layout, s, got, want[s])
					}
				}
			}
		}
	}
}

// TestBuiltinStartOTN pins every start to the OTN position string that
// docs/variants.md gives for it (rank 1 first, RULES.md §0).
func TestBuiltinStartOTN(t *testing.T) {
	const (
		a       = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"
		b       = "/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/"
		c       = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
		d       = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
		serif13 = "/3ttttttt3/6t6/6T6/t5T5t/t5T5t/t5T5t/ttTTTTKTTTTtt/t5T5t/t5T5t/t5T5t/6T6/6t6/3ttttttt3/"
		parlett = "/4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/t3T3T3t/6T6/6t6/5t1t5/4ttttt4/"
		alea    = "/2t2t7t2t2/19/t4t7t4t/7t1t1t7/6t1T1T1t6/t1t2t7t2t1t/4t4T4t4/3t4T1T4t3/4T2T1T1T2T4/3t2T1TKT1T2t3/4T2T1T1T2T4/3t4T1T4t3/4t4T4t4/t1t2t7t2t1t/6t1T1T1t6/7t1t1t7/t4t7t4t/19/2t2t7t2t2/"
	)
	want := map[string]string{
		"copenhagen": a, "fetlar": a, "vingolf": a, "historical": b, "tablut": c, "brandubh": d,
		"linnaeus": c, "legacy": b, "tawlbwrdd": b, "ardri": d, "seabattle": c, "seabattle13": serif13,
		"copenhagen13": parlett, "foteviken": c, "alea": alea,
	}
	for _, v := range Variants() {
		w, ok := want[v.Name]
		if !ok {
			t.Errorf("%s: no OTN start on record; add it here and to docs/variants.md", v.Name)
			continue
		}
		if got := startOTN(t, v); got != w {
			t.Errorf("%s: start OTN = %s, want %s", v.Name, got, w)
		}
	}
}

// TestTierOnePerft checks RULES.md §3: perft 1 and 2 of every tier-1 start,
// counted by engines written by others.
func TestTierOnePerft(t *testing.T) {
	tests := []struct {
		name   string
		p1, p2 uint64
	}{
		{"copenhagen", 116, 6788},
		{"fetlar", 116, 6788},
		{"vingolf", 116, 6788},
		{"historical", 136, 7620},
		{"tablut", 80, 4400},
		{"brandubh", 40, 960},
	}
	for _, tc := range tests {
		p, err := NewPosition(mustVariant(t, tc.name))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for depth, want := range map[int]uint64{1: tc.p1, 2: tc.p2} {
			if got := Perft(p, depth); got.Nodes != want || got.Ends != 0 {
				t.Errorf("%s: Perft(%d) = %d nodes, %d ends; want %d, 0", tc.name, depth, got.Nodes, got.Ends, want)
			}
		}
	}
}

// TestTierTwoPerft checks that every tier-2 start is playable and pins the
// perft figures docs/variants.md publishes. They were counted by taflmail
// itself, not by an independent engine: a change here means the engine's
// move generation or captures changed, and the docs must change with it.
func TestTierTwoPerft(t *testing.T) {
	tests := []struct {
		name       string
		p1, p2, p3 uint64
		deep       bool // perft 3 only with TAFLMAIL_DEEP_PERFT=1 (tens of millions of nodes)
	}{
		{"alea", 596, 110436, 65727524, true},
		{"ardri", 48, 1152, 56344, false},
		{"copenhagen13", 176, 22404, 3999896, false},
		{"foteviken", 80, 4400, 353200, false},
		{"legacy", 128, 7172, 922440, false},
		{"linnaeus", 80, 4400, 353200, false},
		{"seabattle", 80, 4400, 353200, false},
		{"seabattle13", 192, 31512, 6073120, false},
		{"tawlbwrdd", 136, 7620, 1042016, false},
	}
	if len(tests) != len(tierTwoNames) {
		t.Fatalf("table has %d rows, want one per tier-2 variant", len(tests))
	}
	deep := os.Getenv("TAFLMAIL_DEEP_PERFT") == "1"
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := mustVariant(t, tc.name)
			if v.Tier != 2 {
				t.Fatalf("Tier = %d, want 2", v.Tier)
			}
			p, err := NewPosition(v)
			if err != nil {
				t.Fatalf("NewPosition: %v", err)
			}
			want := []uint64{tc.p1, tc.p2, tc.p3}
			maxDepth := 2
			if !testing.Short() && (!tc.deep || deep) {
				maxDepth = 3
			}
			for depth := 1; depth <= maxDepth; depth++ {
				got := Perft(p, depth)
				if got.Nodes == 0 {
					t.Fatalf("Perft(%d) = 0 nodes, want a playable start", depth)
				}
				if got.Nodes != want[depth-1] || got.Ends != 0 {
					t.Errorf("Perft(%d) = %d nodes, %d ends; docs/variants.md says %d, 0",
						depth, got.Nodes, got.Ends, want[depth-1])
				}
			}
		})
	}
}

// rulesOnly blanks the descriptive fields and the board of a variant, so
// that two variants can be compared row by row.
func rulesOnly(v Variant) Variant {
	v.Name, v.Title, v.Summary, v.Source, v.Tier = "", "", "", "", 0
	v.Size, v.Start = 0, nil
	return v
}

// TestTierTwoDataRows checks that the tier-2 variants derived from a tier-1
// rule set differ from it only in the rows docs/variants.md names.
func TestTierTwoDataRows(t *testing.T) {
	get := func(name string) Variant { return *mustVariant(t, name) }

	lin, tab := rulesOnly(get("linnaeus")), rulesOnly(get("tablut"))
	if lin.KingCapture != CaptureStrong {
		t.Errorf("linnaeus: KingCapture = %v, want strong", lin.KingCapture)
	}
	lin.KingCapture = tab.KingCapture
	if !reflect.DeepEqual(lin, tab) {
		t.Errorf("linnaeus differs from tablut in more than the king capture:\n%+v\n%+v", lin, tab)
	}
	if !reflect.DeepEqual(get("linnaeus").Start, get("tablut").Start) {
		t.Error("linnaeus must use Tablut's start C")
	}

	leg, hist := rulesOnly(get("legacy")), rulesOnly(get("historical"))
	if leg.KingArms != KingUnarmed || leg.Escape != EscapeCorners {
		t.Errorf("legacy: KingArms %v, Escape %v; want unarmed, corners", leg.KingArms, leg.Escape)
	}
	if want := get("copenhagen").Corners; !reflect.DeepEqual(leg.Corners, want) {
		t.Errorf("legacy corners = %+v, want Copenhagen's %+v (Decision L1)", leg.Corners, want)
	}
	leg.KingArms, leg.Escape, leg.Corners = hist.KingArms, hist.Escape, hist.Corners
	if !reflect.DeepEqual(leg, hist) {
		t.Errorf("legacy differs from historical in more than arms, escape and corners:\n%+v\n%+v", leg, hist)
	}

	c13, cph := get("copenhagen13"), get("copenhagen")
	if c13.Size != 13 || !reflect.DeepEqual(rulesOnly(c13), rulesOnly(cph)) {
		t.Errorf("copenhagen13 must be Copenhagen's rules on 13×13:\n%+v\n%+v", rulesOnly(c13), rulesOnly(cph))
	}

	sb9, sb13 := get("seabattle"), get("seabattle13")
	if sb13.Size != 13 || !reflect.DeepEqual(rulesOnly(sb9), rulesOnly(sb13)) {
		t.Errorf("seabattle13 must be Sea Battle's rules on 13×13:\n%+v\n%+v", rulesOnly(sb13), rulesOnly(sb9))
	}

	alea := rulesOnly(get("alea"))
	if !reflect.DeepEqual(alea, tab) {
		t.Errorf("alea must play Tablut's rules (Decision E2):\n%+v\n%+v", alea, tab)
	}

	for _, name := range []string{"tawlbwrdd", "ardri", "seabattle", "seabattle13"} {
		v := get(name)
		if v.Throne.Present || v.Corners.Present {
			t.Errorf("%s: has restricted squares, want none", name)
		}
	}
	for _, name := range []string{"foteviken", "alea", "seabattle13"} {
		if !strings.Contains(get(name).Source, "OpenTafl") {
			t.Errorf("%s: Source must name OpenTafl, where its layout comes from", name)
		}
	}
	if s := get("foteviken").Summary; !strings.Contains(s, "APPROXIMATION") {
		t.Errorf("foteviken: Summary %q must say it is an approximation", s)
	}
}

// TestTierTwoRules plays one ply per tier-2 decision on a small diagram
// (the board takes the diagram's size; the throne is its centre).
func TestTierTwoRules(t *testing.T) {
	tests := []struct {
		name, rules string
		toMove      Side
		rows        []string
		move        string
		captures    string // captured men (not the king), space-separated
		result      Result
		reason      Reason
	}{
		{
			name: "L1 corner hostile to the king: one attacker captures him beside a corner", rules: "legacy",
			rows: []string{
				".......",
				".......",
				".......",
				"......T",
				"..t....",
				"K......",
				".......",
			},
			move: "c3-a3", result: AttackersWin, reason: ReasonKingCaptured,
		},
		{
			name: "L1 corner hostile to defenders", rules: "legacy",
			rows: []string{
				".......",
				".......",
				"...K...",
				".......",
				".......",
				".......",
				".T..t..",
			},
			move: "e1-c1", captures: "b1",
		},
		{
			name: "legacy king is unarmed", rules: "legacy", toMove: Defenders,
			rows: []string{
				".....t.",
				"..K....",
				".......",
				".......",
				"..t....",
				"..T....",
				".......",
			},
			move: "c6-c4",
		},
		{
			name: "historical king is armed (contrast)", rules: "historical", toMove: Defenders,
			rows: []string{
				".....t.",
				"..K....",
				".......",
				".......",
				"..t....",
				"..T....",
				".......",
			},
			move: "c6-c4", captures: "c3",
		},
		{
			name: "A1 no throne: an attacker stops on the centre, the king falls to two", rules: "ardri",
			rows: []string{
				".......",
				"...t...",
				".......",
				".tK....",
				".......",
				".......",
				"......T",
			},
			move: "d6-d4", result: AttackersWin, reason: ReasonKingCaptured,
		},
		{
			name: "T1 no throne: an attacker stops on the centre, the king falls to two", rules: "tawlbwrdd",
			rows: []string{
				".......",
				"...t...",
				".......",
				".tK....",
				".......",
				".......",
				"......T",
			},
			move: "d6-d4", result: AttackersWin, reason: ReasonKingCaptured,
		},
		{
			name: "S2 the cargo ship is unarmed", rules: "seabattle", toMove: Defenders,
			rows: []string{
				".......",
				"...K...",
				".......",
				".Tt....",
				".......",
				".......",
				".......",
			},
			move: "d6-d4",
		},
		{
			name: "S2 the cargo ship falls to four", rules: "seabattle",
			rows: []string{
				".......",
				"..t....",
				".......",
				".......",
				".tKt...",
				"..t....",
				"......T",
			},
			move: "c6-c4", result: AttackersWin, reason: ReasonKingCaptured,
		},
		{
			name: "S2 three attackers do not take the cargo ship", rules: "seabattle",
			rows: []string{
				".......",
				"..t....",
				".......",
				".......",
				".tK....",
				"..t....",
				"......T",
			},
			move: "c6-c4",
		},
		{
			name: "linnaeus king away from the throne survives two attackers", rules: "linnaeus",
			rows: []string{
				".......",
				".......",
				"..t....",
				".......",
				"tK.....",
				".......",
				"......T",
			},
			move: "c5-c3",
		},
		{
			name: "the same two attackers capture the tablut king (contrast)", rules: "tablut",
			rows: []string{
				".......",
				".......",
				"..t....",
				".......",
				"tK.....",
				".......",
				"......T",
			},
			move: "c5-c3", result: AttackersWin, reason: ReasonKingCaptured,
		},
		{
			name: "F2 the empty throne is not hostile to a defender", rules: "foteviken",
			rows: []string{
				".......",
				".t.....",
				".......",
				"..T....",
				".......",
				".....K.",
				".......",
			},
			move: "b6-b4",
		},
		{
			name: "F2 beside the empty throne the king falls to three", rules: "foteviken",
			rows: []string{
				".......",
				"..t....",
				".......",
				".tK....",
				"..t....",
				".......",
				"......T",
			},
			move: "c6-c5", result: AttackersWin, reason: ReasonKingCaptured,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := diagram(t, tc.rules, tc.toMove, tc.rows...)
			if p.Outcome().Over() {
				t.Fatalf("diagram already decided: %+v\n%s", p.Outcome(), draw(p))
			}
			before := p.Board()
			r, err := p.Play(mv(t, tc.move))
			if err != nil {
				t.Fatalf("Play(%s): %v\n%s", tc.move, err, draw(p))
			}
			var got []string
			for _, s := range r.Captures {
				if before.At(s) != King {
					got = append(got, s.String())
				}
			}
			want := strings.Fields(tc.captures)
			sort.Strings(got)
			sort.Strings(want)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%s captured [%s], want [%s]\n%s", tc.move, strings.Join(got, " "), strings.Join(want, " "), draw(p))
			}
			if r.Outcome.Result != tc.result || r.Outcome.Reason != tc.reason {
				t.Errorf("%s: outcome %v (%v), want %v (%v)\n%s", tc.move, r.Outcome.Result, r.Outcome.Reason, tc.result, tc.reason, draw(p))
			}
		})
	}
}

// TestFotevikenThroneBlocks checks Decision F2: no piece may cross the
// empty throne.
func TestFotevikenThroneBlocks(t *testing.T) {
	p := diagram(t, "foteviken", Attackers,
		".......",
		".......",
		".......",
		".t.....",
		".......",
		".....K.",
		"......T",
	)
	_, err := p.Play(mv(t, "b4-f4"))
	var ime *IllegalMoveError
	if !errors.As(err, &ime) || ime.Reason != IllegalRestrictedPass {
		t.Fatalf("Play(b4-f4) across the empty throne = %v, want IllegalRestrictedPass", err)
	}
	if _, err := p.Play(mv(t, "b4-c4")); err != nil {
		t.Fatalf("Play(b4-c4) up to the throne: %v", err)
	}
}
