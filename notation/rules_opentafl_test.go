package notation

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/engine"
)

// What OpenTafl makes of a rules string, modelled from its source: the
// repository jslater89/OpenTafl at tag v0.4.8.0b (commit 6895051d5a3b),
// files under src/com/manywords/softworks/tafl/. The model reads only the
// OTN keys (OpenTafl ignores taflmail's tm- keys: RulesSerializer.
// getRulesMap puts every pair in a map, loadRulesRecord asks only for its
// own keys, notation/RulesSerializer.java:268-370), and it is written from
// that source, not from this package's reader, so that the tests below
// compare two readings.
type openTaflRules struct {
	escape       engine.Escape
	encirclement bool
	firstSide    engine.Side
	repetition   engine.Repetition
	kingArms     engine.KingArms
	kingCapture  engine.KingCapture
	corners      openTaflSquare
	throne       openTaflSquare
	shieldwall   bool
	swCorners    bool
	edgeFort     bool
	noMove       engine.NoMove
	kingEdge     engine.KingEdge
}

// openTaflSquare is a restricted square as OpenTafl plays it.
type openTaflSquare struct {
	present                 bool
	stop, pass              engine.PieceSet
	hostileEmpty, hostileOn engine.PieceSet
}

// openTaflRead reads s as OpenTafl v0.4.8.0b does.
func openTaflRead(t *testing.T, s string) openTaflRules {
	t.Helper()
	// RulesSerializer.getRulesMap (372-386): split at blanks, then at
	// colons; a key without a value is "".
	m := map[string]string{}
	for _, f := range strings.Split(s, " ") {
		k, v, _ := strings.Cut(f, ":")
		v, _, _ = strings.Cut(v, ":")
		m[k] = v
	}
	// RulesSerializer.defaults (31-80).
	def := map[string]string{
		"esc": "c", "surf": "y", "atkf": "y", "tfr": "d", "ka": "y", "ks": "s",
		"corh": "tcnkmTCNKM", "cenh": "tcnkm", "cenhe": "tcnkmTCNKM",
		"corp": "K", "cenp": "tcnkmTCNKM", "cors": "K", "cens": "K", "sw": "n", "efe": "n",
	}
	get := func(k string) string {
		if v, ok := m[k]; ok {
			return v
		}
		return def[k]
	}
	// Piece lists by type (TaflmanCodes.java:32-44): t the attackers'
	// taflman, T the defenders', K the king; canTaflmanMoveThrough and
	// canTaflmanStopOn index them by the moving piece's type
	// (GenericRules.java:414-452 and after).
	perPiece := func(list string) engine.PieceSet {
		var p engine.PieceSet
		for c, piece := range map[byte]engine.Piece{'t': engine.Attacker, 'T': engine.Defender, 'K': engine.King} {
			if strings.IndexByte(list, c) >= 0 {
				p |= engine.Pieces(piece)
			}
		}
		return p
	}
	// Hostility by side (GenericRules.isSpaceHostileToSide, 384-412): the
	// attackers read index t, the defenders, king included, index T.
	perSide := func(list string) engine.PieceSet {
		var p engine.PieceSet
		if strings.IndexByte(list, 't') >= 0 {
			p |= engine.AttackerOnly
		}
		if strings.IndexByte(list, 'T') >= 0 {
			p |= engine.Pieces(engine.Defender, engine.King)
		}
		return p
	}
	square := func(present bool, pass, stop, hostile, hostileOn string) openTaflSquare {
		if !present {
			return openTaflSquare{}
		}
		p := perPiece(get(pass))
		// Taflman.getAllowableMovesFrom (180-195) stops at the first
		// square a piece may not move through, the destination included,
		// and only then getAllowableDestinationsFrom asks
		// canTaflmanStopOn (258-264): a piece stops only where it may
		// pass.
		sq := openTaflSquare{present: true, pass: p, stop: perPiece(get(stop)) & p, hostileEmpty: perSide(get(hostile))}
		if hostileOn != "" {
			sq.hostileOn = perSide(get(hostileOn))
		}
		return sq
	}
	var r openTaflRules
	// RulesSerializer.getEscapeTypeForString (423-426): anything but c is
	// edge escape; getBooleanForString (428-431): only y is yes.
	r.escape = engine.EscapeCorners
	if get("esc") != "c" {
		r.escape = engine.EscapeEdge
	}
	r.encirclement = get("surf") == "y"
	r.firstSide = engine.Attackers
	if get("atkf") != "y" {
		r.firstSide = engine.Defenders
	}
	// getThreefoldResultForString (395-408): w THIRD_REPETITION_WINS, l
	// THIRD_REPETITION_LOSES, anything else (i included) a draw. The
	// position is judged after the ply, with the next side to move
	// (GameState.makeMove 740-752, side switch 128-133); WINS makes that
	// side the winner, LOSES the loser (GameState.checkVictoryInternal
	// 416-425).
	switch get("tfr") {
	case "w":
		r.repetition = engine.RepetitionSideToMoveWins
	case "l":
		r.repetition = engine.RepetitionSideToMoveLoses
	default:
		r.repetition = engine.RepetitionDraw
	}
	// getKingArmedModeForString (462-469), getKingModeForString (443-450).
	r.kingArms = map[string]engine.KingArms{"y": engine.KingArmed, "h": engine.KingHammerOnly, "a": engine.KingAnvilOnly, "n": engine.KingUnarmed}[get("ka")]
	switch get("ks") {
	case "c":
		r.kingCapture = engine.CaptureStrongNearThrone
	case "w", "n":
		r.kingCapture = engine.CaptureWeak
	case "m":
		t.Fatalf("%q: the model has no middleweight king", s)
	default:
		r.kingCapture = engine.CaptureStrong
	}
	// cor:, cen: (326-327): an empty list leaves no such square.
	corners, hasCor := m["cor"]
	throne, hasCen := m["cen"]
	r.corners = square(!hasCor || corners != "", "corp", "cors", "corh", "")
	r.throne = square(!hasCen || throne != "", "cenp", "cens", "cenhe", "cenh")
	// getShieldwallModeForString (671-676).
	r.shieldwall = get("sw") == "s" || get("sw") == "w"
	r.swCorners = get("sw") == "s"
	r.edgeFort = get("efe") == "y"
	// A side without a legal move loses (GameState.checkVictoryInternal,
	// 449 on, and HumanReadableRulesPrinter's rule text); a strong king
	// needs four hostile neighbours, which an edge square has not
	// (Taflman.isCapturedBy 568-593).
	r.noMove, r.kingEdge = engine.NoMoveLoses, engine.EdgeNoCapture
	return r
}

// differences lists the rules in which OpenTafl's reading o differs from
// v, by taflmail's tm- key that carries v's rule.
func (o openTaflRules) differences(v *engine.Variant) []string {
	var d []string
	diff := func(key string, same bool) {
		if !same {
			d = append(d, key)
		}
	}
	diff("esc", o.escape == v.Escape)
	diff("surf", o.encirclement == v.Encirclement)
	diff("atkf", o.firstSide == v.FirstSide)
	diff("tm-rep", true) // below
	diff("ka", o.kingArms == v.KingArms)
	diff("ks", o.kingCapture == v.KingCapture)
	diff("sw", o.shieldwall == v.Shieldwall && (!v.Shieldwall || o.swCorners == v.ShieldwallCorners))
	diff("efe", o.edgeFort == v.EdgeFort)
	diff("tm-nomove", o.noMove == v.NoMove)
	diff("tm-kedge", o.kingEdge == v.KingEdge || v.KingCapture != engine.CaptureStrong)
	repKey := "tfr"
	if v.Repetition == engine.RepetitionAttackersWin || v.Repetition == engine.RepetitionDefendersWin {
		repKey = "tm-rep"
	}
	d = slices.DeleteFunc(d, func(k string) bool { return k == "tm-rep" })
	diff(repKey, o.repetition == v.Repetition)
	sq := func(prefix string, o openTaflSquare, r engine.SquareRule, crossable bool, emptyKey, onKey string) {
		diff(prefix, o.present == r.Present)
		if !o.present || !r.Present {
			return
		}
		diff(prefix+"s", o.stop == r.Stop)
		diff("tm-"+prefix+"p", o.pass == r.Pass || !crossable)
		diff("tm-"+emptyKey, o.hostileEmpty == r.HostileEmpty)
		if onKey != "" {
			diff("tm-"+onKey, o.hostileOn == r.HostileOccupied)
		}
	}
	sq("cor", o.corners, v.Corners, cornersCrossable(v), "corh", "")
	sq("cen", o.throne, v.Throne, true, "cenhe", "cenh")
	return d
}

// TestRulesAsOpenTaflReadsThem: OpenTafl, reading the rules string taflmail
// writes for a built-in variant, plays that variant's rules, except for the
// rules OTN cannot say, pinned here; for each of those the string carries
// the tm- key with taflmail's rule and a tm-note naming it. The old strings
// failed here: corp: (no piece passes a corner) let OpenTafl's king never
// enter one, tfr:w made it score a repetition against the wrong player,
// cenhe:K made the throne hostile to nobody.
func TestRulesAsOpenTaflReadsThem(t *testing.T) {
	rep, none := []string{"tm-rep"}, []string(nil)
	want := map[string][]string{
		"copenhagen": rep, "copenhagen13": rep, "fetlar": {"tm-nomove"}, "historical": none,
		"vingolf": {"tm-kedge", "tm-rep", "tm-cenhe"}, "tablut": rep, "brandubh": rep,
		"alea": rep, "ardri": none, "foteviken": {"tm-cenp", "tm-cenhe"}, "legacy": none,
		"linnaeus": rep, "seabattle": rep, "seabattle13": rep, "tawlbwrdd": none,
	}
	for _, v := range engine.Variants() {
		w, ok := want[v.Name]
		if !ok {
			t.Errorf("%s: no row for this variant", v.Name)
			continue
		}
		s, err := RulesString(v)
		if err != nil {
			t.Fatal(err)
		}
		got := openTaflRead(t, s).differences(v)
		if !slices.Equal(got, w) {
			t.Errorf("%s: OpenTafl reads %q otherwise in %v, want %v", v.Name, s, got, w)
		}
		note := ""
		for _, f := range strings.Fields(s) {
			if n, ok := strings.CutPrefix(f, keyNote+":"); ok {
				note = n
			}
		}
		for _, k := range got {
			if !strings.Contains(s, " "+k+":") {
				t.Errorf("%s: OpenTafl reads %s otherwise, but %q has no %s key", v.Name, k, s, k)
			}
			if !strings.Contains(note, "("+k+")") {
				t.Errorf("%s: OpenTafl reads %s otherwise, but the tm-note of %q does not say so", v.Name, k, s)
			}
		}
		if len(got) == 0 && note != "" {
			t.Errorf("%s: OpenTafl reads %q as written, but it has a tm-note", v.Name, s)
		}
	}
}

// TestRulesIssueExamples are the two examples of issue 22 §12, each
// played under the rules OpenTafl reads from taflmail's string.
func TestRulesIssueExamples(t *testing.T) {
	// Legacy: the king's final escape to a corner.
	legacy, _ := engine.Lookup("legacy")
	s, _ := RulesString(legacy)
	if o := openTaflRead(t, s); !o.corners.stop.Has(engine.King) {
		t.Errorf("legacy %q: OpenTafl lets the king stop on no corner", s)
	}
	v, err := ParseRules(s)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ParseBoard("/2K8/11/11/11/4T6/11/11/11/11/9t1/11/")
	p, err := engine.NewPositionFromBoard(v, b, engine.Attackers)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"j10-j9", "c1-a1"} {
		mv, _ := parseTestMove(m)
		if _, err := p.Play(mv); err != nil {
			t.Fatalf("legacy from %q: %s: %v", s, m, err)
		}
	}
	if o := p.Outcome(); o.Result != engine.DefendersWin || o.Reason != engine.ReasonEscape {
		t.Errorf("legacy: c1-a1 ends %+v, want the king's escape", o)
	}

	// Ard Ri: the start position a third time, the attackers to move; under
	// RULES.md's Decision H1 they began the cycle and lose. OpenTafl must
	// name the same winner.
	ardri, _ := engine.Lookup("ardri")
	s, _ = RulesString(ardri)
	winner := func(rep engine.Repetition) engine.Result {
		v := *ardri
		v.Repetition = rep
		p, err := engine.NewPosition(&v)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range strings.Fields(strings.Repeat("d1-c1 e4-e5 c1-d1 e5-e4 ", 2)) {
			mv, _ := parseTestMove(m)
			if _, err := p.Play(mv); err != nil {
				t.Fatal(err)
			}
		}
		if p.Outcome().Reason != engine.ReasonRepetition {
			t.Fatalf("ardri: %+v, want a third repetition", p.Outcome())
		}
		return p.Outcome().Result
	}
	if ours, theirs := winner(ardri.Repetition), winner(openTaflRead(t, s).repetition); ours != engine.DefendersWin || theirs != ours {
		t.Errorf("ardri %q: taflmail's result %v, OpenTafl's %v; want defenders win in both", s, ours, theirs)
	}
}

// parseTestMove reads "d1-c1".
func parseTestMove(s string) (engine.Move, bool) {
	a, b, _ := strings.Cut(s, "-")
	from, ok1 := squareFromText(a)
	to, ok2 := squareFromText(b)
	return engine.Move{From: from, To: to}, ok1 && ok2
}

// TestRulesKeysAsOpenTafl pins what each key taflmail writes means when
// OpenTafl reads it, and that taflmail's reader (what engine --otep builds
// from a host's string) means the same. Sources: OpenTafl v0.4.8.0b,
// files named from src/com/manywords/softworks/tafl/.
func TestRulesKeysAsOpenTafl(t *testing.T) {
	const start = " start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
	rows := []struct {
		keys string
		// source cites the OpenTafl code that gives the meaning.
		source string
		check  func(v *engine.Variant, o openTaflRules) bool
	}{
		{"tfr:w", "RulesSerializer.java:396-397; GameState.java:423-424: the side to move after the third repetition wins",
			func(v *engine.Variant, o openTaflRules) bool {
				return v.Repetition == engine.RepetitionSideToMoveWins && o.repetition == v.Repetition
			}},
		{"tfr:l", "RulesSerializer.java:399-400; GameState.java:420-421: the side to move loses",
			func(v *engine.Variant, o openTaflRules) bool {
				return v.Repetition == engine.RepetitionSideToMoveLoses && o.repetition == v.Repetition
			}},
		{"tfr:d", "RulesSerializer.java:402-403; GameState.java:417-418",
			func(v *engine.Variant, o openTaflRules) bool {
				return v.Repetition == engine.RepetitionDraw && o.repetition == v.Repetition
			}},
		// The one reading that differs: OpenTafl's writer writes i for a
		// game that ignores repetition (RulesSerializer.java:410-421), its
		// loader reads it as a draw (405-407). A host plays its own rules
		// object, so taflmail reads i as written.
		{"tfr:i", "RulesSerializer.java:405-407 and 420",
			func(v *engine.Variant, o openTaflRules) bool {
				return v.Repetition == engine.RepetitionIgnored && o.repetition == engine.RepetitionDraw
			}},
		{"cenhe:K", "GenericRules.java:406-411: hostility is read at index t or T, never K",
			func(v *engine.Variant, o openTaflRules) bool {
				return v.Throne.HostileEmpty == engine.NoPieces && o.throne.hostileEmpty == v.Throne.HostileEmpty
			}},
		{"cenhe:TK", "GenericRules.java:406-411: T makes the square hostile to the defenders' side, the king's",
			func(v *engine.Variant, o openTaflRules) bool {
				return v.Throne.HostileEmpty == engine.Pieces(engine.Defender, engine.King) && o.throne.hostileEmpty == v.Throne.HostileEmpty
			}},
		{"cenhe:tcnkmTCNKM", "RulesSerializer.java:53 (the default) and GenericRules.java:406-411",
			func(v *engine.Variant, o openTaflRules) bool {
				return v.Throne.HostileEmpty == engine.AllPieces && o.throne.hostileEmpty == v.Throne.HostileEmpty
			}},
		{"cenh:", "RulesSerializer.java:52 (default tcnkm) and GenericRules.java:393",
			func(v *engine.Variant, o openTaflRules) bool {
				return v.Throne.HostileOccupied == engine.NoPieces && o.throne.hostileOn == v.Throne.HostileOccupied
			}},
		{"corp:", "Taflman.java:183-185 and 261: a piece stops only where it may pass, so nobody enters a corner",
			func(v *engine.Variant, o openTaflRules) bool {
				return v.Corners.Stop == engine.NoPieces && o.corners.stop == v.Corners.Stop
			}},
		{"cors:tTK", "RulesSerializer.java:58 (corp default K) and Taflman.java:183-185, 261: only the king stops",
			func(v *engine.Variant, o openTaflRules) bool {
				return v.Corners.Stop == engine.OnlyKing && o.corners.stop == v.Corners.Stop
			}},
		{"cenp:K", "RulesSerializer.java:64 (cens default K): the king crosses and stops, nobody else enters",
			func(v *engine.Variant, o openTaflRules) bool {
				return v.Throne.Pass == engine.OnlyKing && v.Throne.Stop == engine.OnlyKing &&
					o.throne.pass == v.Throne.Pass && o.throne.stop == v.Throne.Stop
			}},
		{"cenp:K tm-cenp:", "taflmail's tm-cenp: OpenTafl reads cenp:K; taflmail lets nobody cross",
			func(v *engine.Variant, o openTaflRules) bool {
				return v.Throne.Pass == engine.NoPieces && v.Throne.Stop == engine.OnlyKing && o.throne.pass == engine.OnlyKing
			}},
		{"ks:c", "RulesSerializer.java:445; Taflman.java:550-555", func(v *engine.Variant, o openTaflRules) bool {
			return v.KingCapture == engine.CaptureStrongNearThrone && o.kingCapture == v.KingCapture
		}},
		{"ka:n", "RulesSerializer.java:466; Taflman.java:540-544", func(v *engine.Variant, o openTaflRules) bool {
			return v.KingArms == engine.KingUnarmed && o.kingArms == v.KingArms
		}},
		{"esc:e", "RulesSerializer.java:423-426", func(v *engine.Variant, o openTaflRules) bool {
			return v.Escape == engine.EscapeEdge && o.escape == v.Escape
		}},
		{"sw:s", "RulesSerializer.java:671-676", func(v *engine.Variant, o openTaflRules) bool {
			return v.Shieldwall && v.ShieldwallCorners && o.shieldwall && o.swCorners
		}},
	}
	for _, row := range rows {
		s := "dim:7 " + row.keys + start
		v, err := ParseRules(s)
		if err != nil {
			t.Errorf("%s: %v", row.keys, err)
			continue
		}
		if !row.check(v, openTaflRead(t, s)) {
			t.Errorf("%s (%s): taflmail reads %+v, OpenTafl %+v", row.keys, row.source, *v, openTaflRead(t, s))
		}
	}
}

// TestRulesRoundTripEdits: rules no built-in variant has, written and read
// back: every repetition rule, a throne some piece may stop on but not
// cross, corners placed where moves cross them, hostility lists OpenTafl
// cannot say.
func TestRulesRoundTripEdits(t *testing.T) {
	b2, _ := squareFromText("b2")
	f6, _ := squareFromText("f6")
	edits := map[string]func(v *engine.Variant){
		"repetition side to move wins": func(v *engine.Variant) { v.Repetition = engine.RepetitionSideToMoveWins },
		"repetition ignored":           func(v *engine.Variant) { v.Repetition = engine.RepetitionIgnored },
		"repetition defenders win":     func(v *engine.Variant) { v.Repetition = engine.RepetitionDefendersWin },
		"throne the king stops on, nobody crosses": func(v *engine.Variant) {
			v.Throne.Pass = engine.NoPieces
		},
		"throne the defenders cross and only the king stops on": func(v *engine.Variant) {
			v.Throne.Pass = engine.Pieces(engine.Defender)
		},
		"corners off the board's corners, crossed by attackers": func(v *engine.Variant) {
			v.Corners.Squares = []engine.Square{b2, f6}
			v.Corners.Pass = engine.AttackerOnly
		},
		"empty throne hostile to the defenders, not the king": func(v *engine.Variant) {
			v.Throne.HostileEmpty = engine.Pieces(engine.Attacker, engine.Defender)
		},
		"corners hostile to the king alone": func(v *engine.Variant) {
			v.Corners.HostileEmpty = engine.OnlyKing
		},
		"occupied throne hostile to the defenders": func(v *engine.Variant) {
			v.Throne.HostileOccupied = engine.Pieces(engine.Attacker, engine.Defender)
		},
	}
	for name, edit := range edits {
		v, _ := engine.Lookup("brandubh")
		edit(v)
		if err := v.Validate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s, err := RulesString(v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseRules(s)
		if err != nil {
			t.Errorf("%s: ParseRules(%q): %v", name, s, err)
			continue
		}
		want := *v
		want.Title, want.Summary, want.Source, want.Tier = got.Title, got.Summary, got.Source, got.Tier
		if !SameRules(got, v) || !reflect.DeepEqual(*got, want) {
			t.Errorf("%s: %q reads back to\n got %+v\nwant %+v", name, s, *got, want)
		}
		if again, _ := RulesString(got); again != s {
			t.Errorf("%s: RulesString not stable:\n%q\n%q", name, s, again)
		}
		// What OpenTafl reads otherwise, the string says in its tm-note.
		for _, k := range openTaflRead(t, s).differences(v) {
			if !strings.Contains(s, "("+k+")") {
				t.Errorf("%s: OpenTafl reads %s otherwise, and %q does not say so", name, k, s)
			}
		}
	}
}

// FuzzRulesRoundTrip: every rules string taflmail can read, written again
// by RulesString, reads back to the same rules and writes the same string.
func FuzzRulesRoundTrip(f *testing.F) {
	for _, v := range engine.Variants() {
		s, _ := RulesString(v)
		f.Add(s)
	}
	f.Add("dim:7 corp:tTK cors:T cenp:t cens:tK cenh:T cenhe:K corh: tfr:i start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/")
	f.Add("dim:7 cor:b2,f6 corp:t tm-corp:T cens:TK cenp: tm-cenp:K start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/")
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseRules(s)
		if err != nil {
			return
		}
		w, err := RulesString(v)
		if err != nil {
			t.Fatalf("RulesString of %q: %v", s, err)
		}
		got, err := ParseRules(w)
		if err != nil {
			t.Fatalf("%q, written %q, does not read back: %v", s, w, err)
		}
		if !SameRules(got, v) {
			t.Fatalf("%q, written %q, reads back to other rules:\n got %+v\nwant %+v", s, w, *got, *v)
		}
		if again, _ := RulesString(got); again != w {
			t.Fatalf("RulesString not stable for %q:\n%q\n%q", s, w, again)
		}
	})
}
