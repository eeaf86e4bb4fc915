package notation

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
)

// OTN rules strings (OTN spec §3 "Rules Records"; RULES.md §2, tier 2) and
// engine.Variant, both ways. A rules string means what OpenTafl's code
// (v0.4.8.0b) does with it, where that and the OTN document disagree;
// docs/notation.md, "OTN rules strings", lists every key with its default,
// the engine field it sets and the reasons. In short:
//
//	dim          Size (required)
//	name         Name ("_" for blanks; Title gets the blanks back)
//	esc c|e      Escape                     (default c)
//	surf y|n     Encirclement               (default y)
//	atkf y|n     FirstSide                  (default y: attackers)
//	tfr d|i|w|l  Repetition: Draw, Ignored, SideToMoveWins (w: OpenTafl's
//	             code lets the side to move win, so the player who completes
//	             the third repetition loses), SideToMoveLoses (l)
//	ka y|n|h|a   KingArms                   (default y)
//	ks y|s|c|n|w KingCapture: Strong, StrongNearThrone (c), Weak (n, w);
//	             m (middleweight) is not supported
//	cor, cen     Corners.Present, Throne.Present: "default" or the four
//	             corners / the centre square, or empty for none; other squares
//	             are not supported
//	corp cenp    Pass; OpenTafl lets a piece stop only where it may pass, so
//	cors cens    Stop is the stop list less what the pass list leaves out
//	corh         Corners.HostileEmpty       cenhe Throne.HostileEmpty
//	cenh         Throne.HostileOccupied; the three hostility lists are read
//	             per side, as OpenTafl does: t the attackers, T the
//	             defenders and the king; other letters count for nothing
//	sw n|w|s     Shieldwall, ShieldwallCorners (s)
//	swf y        the bracketing ply is required (n is not supported)
//	efe y|n      EdgeFort                   (default n)
//	linc n       Linnaean capture (y is not supported)
//	start        Start, rank 1 first; starti: the same, top rank first
//
// Rules OTN cannot say (or says so that OpenTafl reads them otherwise)
// are written with keys of taflmail's own, which OpenTafl ignores, and a
// tm-note that says in words what OpenTafl reads instead:
//
//	tm-rep:attackers|defenders   Repetition AttackersWin / DefendersWin
//	                             (OpenTafl: tfr's default, a draw)
//	tm-nomove:draw|loses         NoMove (default loses, as in OpenTafl)
//	tm-kedge:capture|safe        KingEdge EdgeThreeSides (default safe:
//	                             OpenTafl's strong king needs four sides)
//	tm-corp, tm-cenp             Pass exactly, where some piece may stop on
//	                             the square but not cross it (Foteviken's
//	                             throne); corp/cenp then let it cross
//	tm-corh, tm-cenh, tm-cenhe   the hostility list exactly, piece by piece,
//	                             where OpenTafl's per-side reading differs
//	                             (a throne hostile to the king alone)
//	tm-note                      free text for people, ignored
//
// Keys for what the engine cannot play are rejected naming the key: jumps
// (kj, and nj or cj only matter with knights or commanders, which a start
// position cannot hold), berserk (ber), fortresses (afor, dfor), speed
// limits (spd), re-entry limits (corre, cenre), special pieces in start.

// Extension keys of taflmail (see above).
const (
	keyRepetition = "tm-rep"
	keyNoMove     = "tm-nomove"
	keyKingEdge   = "tm-kedge"
	keyNote       = "tm-note"
	// keyExact prefixes an OTN list key (tm-cenp, tm-cenhe, …) whose value
	// is the list as taflmail means it, piece by piece.
	keyExact = "tm-"
)

// OTN defaults for the square-rule lists (OTN spec §3; OpenTafl's
// RulesSerializer.defaults), as engine piece sets; the hostility lists as
// OpenTafl reads them, per side.
var (
	defaultCornerPass    = engine.OnlyKing
	defaultCornerStop    = engine.OnlyKing
	defaultCornerHostile = engine.AllPieces
	defaultThronePass    = engine.AllPieces
	defaultThroneStop    = engine.OnlyKing
	defaultThroneHostile = engine.AttackerOnly // cenh: when the king stands on it
	defaultThroneEmpty   = engine.AllPieces    // cenhe
)

// ParseRules parses an OTN rules string such as
// "dim:7 ks:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/" and builds the
// variant it describes, as VariantFromRules. Syntax errors are the
// grammar's (*grammar.Error, wrapped in an *Error of KindSyntax).
func ParseRules(s string) (*engine.Variant, error) {
	r, err := grammar.ParseRules("", []byte(s))
	if err != nil {
		return nil, wrapGrammar(err)
	}
	return VariantFromRules(r)
}

// VariantFromRules builds the variant a parsed rules string describes (the
// keys and defaults are listed at the top of rules.go and in
// docs/notation.md). The result has Tier 2 and passes Validate. Errors are
// *Error positioned at the offending pair (its file, line and column come
// from r's positions): KindSyntax for a malformed value, KindUnsupported
// for a rule the engine cannot play, KindSetup when the result fails
// engine's Variant.Validate (which it wraps).
func VariantFromRules(r *grammar.Rules) (*engine.Variant, error) {
	b := &rulesBuild{rd: rulesReader{r: r}, v: otnDefaults(), reCorner: engine.AllPieces, reThrone: engine.AllPieces}
	dim, ok := b.rd.pair("dim")
	if !ok {
		return nil, b.rd.errAt(nil, KindSyntax, "rules string without dim: (the board size)")
	}
	n, err := strconv.Atoi(dim.Value)
	if err != nil || n < engine.MinSize || n > engine.MaxSize {
		return nil, b.rd.errAt(dim, KindSyntax, "dim: board size %q is not a number from %d to %d", dim.Value, engine.MinSize, engine.MaxSize)
	}
	b.n, b.v.Size = n, n
	for _, key := range []string{"afor", "dfor"} {
		if p, ok := b.rd.pair(key); ok && p.Value != "" {
			return nil, b.rd.errAt(p, KindUnsupported, "%s: fortresses are not supported", key)
		}
	}
	for i := range r.Pairs {
		p := &r.Pairs[i]
		parse, ok := rulesKeys[p.Key]
		if !ok {
			return nil, b.rd.errAt(p, KindUnsupported, "unknown rules key %s:", p.Key)
		}
		if err := parse(b, p); err != nil {
			return nil, err
		}
	}
	return b.finish()
}

// otnDefaults returns the variant of a rules string that sets nothing but
// dim and start: OTN's defaults (OTN spec §3), Tier 2.
func otnDefaults() *engine.Variant {
	return &engine.Variant{
		Tier:        2,
		Source:      "OTN rules string",
		FirstSide:   engine.Attackers,
		Escape:      engine.EscapeCorners,
		KingArms:    engine.KingArmed,
		KingCapture: engine.CaptureStrong,
		KingEdge:    engine.EdgeNoCapture,
		Throne: engine.SquareRule{Present: true, Stop: defaultThroneStop, Pass: defaultThronePass,
			HostileEmpty: defaultThroneEmpty, HostileOccupied: defaultThroneHostile},
		Corners:      engine.SquareRule{Present: true, Stop: defaultCornerStop, Pass: defaultCornerPass, HostileEmpty: defaultCornerHostile},
		Encirclement: true,
		Repetition:   engine.RepetitionDraw,
		NoMove:       engine.NoMoveLoses,
	}
}

// finish checks what only the whole rules string tells (a start position,
// re-entry rules the engine can play), clears rules that cannot act, and
// validates the variant.
func (b *rulesBuild) finish() (*engine.Variant, error) {
	v, rd := b.v, b.rd
	if b.board == nil {
		return nil, rd.errAt(nil, KindSyntax, "rules string without start: (the start position)")
	}
	// OpenTafl lets a piece stop only on a square it may pass
	// (Taflman.getAllowableDestinationsFrom asks canTaflmanStopOn only of
	// the squares getAllowableMovesFrom reached, each of them, the
	// destination included, one the piece may move through), so its stop
	// list means no more than its pass list allows. Then taflmail's exact
	// lists.
	for _, r := range []struct {
		rule *engine.SquareRule
		key  string
	}{{&v.Corners, "corp"}, {&v.Throne, "cenp"}} {
		r.rule.Stop &= r.rule.Pass
		if x, ok := b.exact[r.key]; ok {
			r.rule.Pass = x
		}
	}
	for key, field := range map[string]*engine.PieceSet{
		"corh": &v.Corners.HostileEmpty, "cenh": &v.Throne.HostileOccupied, "cenhe": &v.Throne.HostileEmpty,
	} {
		if x, ok := b.exact[key]; ok {
			*field = x
		}
	}
	if !cornersCrossable(v) {
		v.Corners.Pass = engine.NoPieces // no move can cross a board corner
	}
	// A piece that may stop on a restricted square but not re-enter it
	// (OpenTafl's cenre/corre) needs a rule the engine does not have.
	for _, c := range []struct {
		key        string
		re, stop   engine.PieceSet
		restricted bool
	}{{"corre", b.reCorner, v.Corners.Stop, v.Corners.Present}, {"cenre", b.reThrone, v.Throne.Stop, v.Throne.Present}} {
		if c.restricted && c.stop&^c.re != 0 {
			p, _ := rd.pair(c.key)
			return nil, rd.errAt(p, KindUnsupported, "%s: squares that some pieces may not re-enter are not supported", c.key)
		}
	}
	if !v.Shieldwall {
		v.ShieldwallCorners = false
	}
	if !v.Corners.Present {
		v.Corners = engine.SquareRule{}
	}
	if !v.Throne.Present {
		v.Throne = engine.SquareRule{}
	}
	v.Start = startRows(*b.board)
	if err := v.Validate(); err != nil {
		pos := rd.r.Pos
		return nil, &Error{Kind: KindSetup, Filename: pos.Filename, Line: pos.Line, Col: pos.Column,
			Message: strings.TrimPrefix(err.Error(), "engine: "), Err: err}
	}
	return v, nil
}

// RulesString writes v as an OTN rules string: dim first, start (rank 1
// first) last, and between them, in OpenTafl's order, every key whose
// value, as OpenTafl's code reads it, differs from the OTN default; each
// value is chosen so that OpenTafl plays v's rule, or comes as near to it
// as OTN can (docs/notation.md, "OTN rules strings"). After them come
// taflmail's tm- keys for what OTN cannot say (see the top of rules.go)
// and a tm-note that names, in words, each rule OpenTafl reads otherwise.
// VariantFromRules reads the string back to a variant with the same rule
// fields (SameRules), the same Name, and the Title derived from the name.
// It fails only when v's start position is malformed
// (engine.Variant.StartBoard's error).
func RulesString(v *engine.Variant) (string, error) {
	b, err := v.StartBoard()
	if err != nil {
		return "", err
	}
	w := &rulesWriter{parts: []string{"dim:" + strconv.Itoa(v.Size)}}
	w.writeGeneral(v)
	w.writeSquares(v)
	w.writeEdgesAndEnds(v)
	w.parts = append(w.parts, w.exact...)
	if len(w.notes) > 0 {
		w.add(keyNote, noteValue(w.notes))
	}
	w.add("start", FormatBoard(b))
	return strings.Join(w.parts, " "), nil
}

// rulesWriter collects the pieces of a rules string for [RulesString].
type rulesWriter struct {
	parts []string // "key:value", in the order written
	exact []string // tm- keys giving the exact list OTN cannot say
	notes []string // the tm-note's phrases
}

// add writes key:val.
func (w *rulesWriter) add(key, val string) { w.parts = append(w.parts, key+":"+val) }

// writeGeneral writes the keys up to the squares': name, escape,
// encirclement, the side that moves first, repetition as OTN says it, and
// the king's arms and strength.
func (w *rulesWriter) writeGeneral(v *engine.Variant) {
	if v.Name != "" {
		w.add("name", strings.ReplaceAll(v.Name, " ", "_"))
	}
	if v.Escape == engine.EscapeEdge {
		w.add("esc", "e")
	}
	if !v.Encirclement {
		w.add("surf", "n")
	}
	if v.FirstSide == engine.Defenders {
		w.add("atkf", "n")
	}
	// OpenTafl's code (GameState.checkVictoryInternal) lets the side to
	// move in the thrice-seen position win under tfr:w and lose under
	// tfr:l; its loader reads tfr:i as a draw, though its writer writes
	// it for a game that ignores repetition (RulesSerializer).
	switch v.Repetition {
	case engine.RepetitionIgnored:
		w.add("tfr", "i")
		w.notes = append(w.notes, "OpenTafl's loader reads tfr i as a draw (tfr)")
	case engine.RepetitionSideToMoveLoses:
		w.add("tfr", "l")
	case engine.RepetitionSideToMoveWins:
		w.add("tfr", "w")
	case engine.RepetitionAttackersWin, engine.RepetitionDefendersWin:
		w.notes = append(w.notes, "OpenTafl draws a third repetition (tm-rep)")
	}
	switch v.KingArms {
	case engine.KingUnarmed:
		w.add("ka", "n")
	case engine.KingHammerOnly:
		w.add("ka", "h")
	case engine.KingAnvilOnly:
		w.add("ka", "a")
	}
	switch v.KingCapture {
	case engine.CaptureWeak:
		w.add("ks", "w")
	case engine.CaptureStrongNearThrone:
		w.add("ks", "c")
	}
}

// writeSquares writes the corners' and the throne's keys: where they are,
// who may pass and stop, and whom they are hostile to.
func (w *rulesWriter) writeSquares(v *engine.Variant) {
	w.squares("cor", v.Corners)
	w.squares("cen", v.Throne)
	w.pass("corp", "corners", v.Corners, defaultCornerPass, cornersCrossable(v))
	w.pass("cenp", "throne", v.Throne, defaultThronePass, true)
	w.list("cors", v.Corners.Stop, defaultCornerStop, v.Corners.Present)
	w.list("cens", v.Throne.Stop, defaultThroneStop, v.Throne.Present)
	w.hostile("corh", "corners", v.Corners.HostileEmpty, defaultCornerHostile, v.Corners.Present)
	w.hostile("cenh", "occupied throne", v.Throne.HostileOccupied, defaultThroneHostile, v.Throne.Present)
	w.hostile("cenhe", "empty throne", v.Throne.HostileEmpty, defaultThroneEmpty, v.Throne.Present)
}

// writeEdgesAndEnds writes the keys after the squares': shieldwall, edge
// forts, then taflmail's tm- keys for repetition, no move and the king on
// the edge, noting where OpenTafl plays otherwise.
func (w *rulesWriter) writeEdgesAndEnds(v *engine.Variant) {
	switch {
	case v.Shieldwall && v.ShieldwallCorners:
		w.add("sw", "s")
	case v.Shieldwall:
		w.add("sw", "w")
	}
	if v.EdgeFort {
		w.add("efe", "y")
	}
	switch v.Repetition {
	case engine.RepetitionAttackersWin:
		w.add(keyRepetition, "attackers")
	case engine.RepetitionDefendersWin:
		w.add(keyRepetition, "defenders")
	}
	if v.NoMove == engine.NoMoveDraw {
		w.add(keyNoMove, "draw")
		w.notes = append(w.notes, "OpenTafl's side without a move loses (tm-nomove)")
	}
	if v.KingEdge == engine.EdgeThreeSides {
		w.add(keyKingEdge, "capture")
		if v.KingCapture == engine.CaptureStrong {
			w.notes = append(w.notes, "OpenTafl's strong king is safe on the edge (tm-kedge)")
		}
	}
}

// squares writes key for the special squares of rule r: empty when the
// variant has none, the list when it names them (else the default
// squares stand).
func (w *rulesWriter) squares(key string, r engine.SquareRule) {
	switch {
	case !r.Present:
		w.add(key, "")
	case len(r.Squares) > 0:
		var names []string
		for _, s := range r.Squares {
			names = append(names, s.String())
		}
		w.add(key, strings.Join(names, ","))
	}
}

// pass writes key, the pass list of the squares of r (named what in the
// note), when it differs from def. OpenTafl's list must also hold the
// pieces that may stop (they stop only where they may pass). Where such
// a piece may not cross, OTN cannot say it: the exact list goes to a tm-
// key (tm-corp, tm-cenp). Nothing crosses squares that are not
// crossable (board corners): there the pass list says only who may stop.
func (w *rulesWriter) pass(key, what string, r engine.SquareRule, def engine.PieceSet, crossable bool) {
	if !r.Present {
		return
	}
	otn := r.Pass | r.Stop
	if !crossable {
		otn = r.Stop
	}
	if otn != def {
		w.add(key, pieceList(otn))
	}
	if crossable && r.Stop&^r.Pass != 0 {
		w.exact = append(w.exact, keyExact+key+":"+pieceList(r.Pass))
		w.notes = append(w.notes, fmt.Sprintf("OpenTafl lets %s cross the %s (tm-%s)", pieceNames(r.Stop&^r.Pass), what, key))
	}
}

// list writes key, a list of pieces, when the squares are present and set
// differs from def.
func (w *rulesWriter) list(key string, set, def engine.PieceSet, present bool) {
	if present && set != def {
		w.add(key, pieceList(set))
	}
}

// hostile writes key, the hostility list set of present squares (named
// what in the note), when it differs from def. OpenTafl reads the list
// per side (GenericRules.isSpaceHostileToSide looks at t for the
// attackers and T for the defenders, the king among them); the king's
// rule decides the defenders' letter, and the exact list goes to a tm-
// key.
func (w *rulesWriter) hostile(key, what string, set, def engine.PieceSet, present bool) {
	if !present {
		return
	}
	otn := sideList(set)
	if sideSet(otn) != def {
		w.add(key, otn)
	}
	if sideSet(otn) != set {
		w.exact = append(w.exact, keyExact+key+":"+pieceList(set))
		w.notes = append(w.notes, fmt.Sprintf("OpenTafl makes the %s hostile to %s (tm-%s)", what, pieceNames(sideSet(otn)), key))
	}
}

// noteValue joins the phrases of a tm-note into one rules-string value:
// "; " between them, "_" for blanks, no colon (OpenTafl splits a pair at
// every colon).
func noteValue(phrases []string) string {
	s := strings.Join(phrases, "; ")
	return strings.NewReplacer(" ", "_", ":", "").Replace(s)
}

// cornersCrossable reports whether a move can cross one of v's corner
// squares: one placed off the board's corners (cor: with other squares).
// No move crosses a board corner, so there a corner's Pass cannot act.
func cornersCrossable(v *engine.Variant) bool {
	if !v.Corners.Present {
		return false
	}
	last := v.Size - 1
	for _, s := range v.Corners.Squares {
		if f, r := s.File(), s.Rank(); (f != 0 && f != last) || (r != 0 && r != last) {
			return true
		}
	}
	return false
}

// sideList writes a hostility set as OpenTafl reads such lists, per side:
// "t" when it holds the attackers, "TK" when it holds the king (OpenTafl
// reads the T of the defenders' side, the king's); the defenders without
// the king cannot be said.
func sideList(s engine.PieceSet) string {
	var b strings.Builder
	if s.Has(engine.Attacker) {
		b.WriteByte('t')
	}
	if s.Has(engine.King) {
		b.WriteString("TK")
	}
	return b.String()
}

// sideSet is what OpenTafl makes of a hostility list (GenericRules.
// isSpaceHostileToSide): the attackers for a "t", the defenders and the
// king for a "T"; no other letter counts.
func sideSet(list string) engine.PieceSet {
	var s engine.PieceSet
	if strings.IndexByte(list, 't') >= 0 {
		s |= engine.AttackerOnly
	}
	if strings.IndexByte(list, 'T') >= 0 {
		s |= engine.Pieces(engine.Defender, engine.King)
	}
	return s
}

// pieceNames names a piece set in words for a tm-note: "the attackers,
// the defenders and the king", "nobody".
func pieceNames(s engine.PieceSet) string {
	var names []string
	for _, p := range []struct {
		piece engine.Piece
		name  string
	}{{engine.Attacker, "the attackers"}, {engine.Defender, "the defenders"}, {engine.King, "the king"}} {
		if s.Has(p.piece) {
			names = append(names, p.name)
		}
	}
	switch len(names) {
	case 0:
		return "nobody"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// SameRules reports whether a and b play the same game: equal in every
// rule field (Size, Start, FirstSide, Escape, KingArms, KingCapture,
// KingEdge, Throne, Corners, Shieldwall, ShieldwallCorners, EdgeFort,
// Encirclement, Repetition, NoMove), whatever their Name, Title, Summary,
// Source and Tier. Rules that cannot act are not compared: the other
// fields of an absent throne or corner rule, ShieldwallCorners without
// Shieldwall, and the corners' HostileOccupied (a king on a corner has
// always escaped), and their Pass where no move can cross them (board
// corners).
func SameRules(a, b *engine.Variant) bool {
	na, nb := normalRules(a), normalRules(b)
	return na.Size == nb.Size && slices.Equal(na.Start, nb.Start) &&
		na.FirstSide == nb.FirstSide && na.Escape == nb.Escape && na.KingArms == nb.KingArms &&
		na.KingCapture == nb.KingCapture && na.KingEdge == nb.KingEdge &&
		sameSquareRule(na.Throne, nb.Throne, "cen", na.Size) && sameSquareRule(na.Corners, nb.Corners, "cor", na.Size) &&
		na.Shieldwall == nb.Shieldwall && na.ShieldwallCorners == nb.ShieldwallCorners &&
		na.EdgeFort == nb.EdgeFort && na.Encirclement == nb.Encirclement &&
		na.Repetition == nb.Repetition && na.NoMove == nb.NoMove
}

// sameSquareRule compares two square rules, the places of the squares
// included (an explicit list equal to the usual place is the usual place).
func sameSquareRule(a, b engine.SquareRule, key string, n int) bool {
	place := func(r engine.SquareRule) []engine.Square {
		if len(r.Squares) == 0 {
			return defaultSquares(key, n)
		}
		s := slices.Clone(r.Squares)
		slices.Sort(s)
		return s
	}
	if !slices.Equal(place(a), place(b)) {
		return false
	}
	return a.Present == b.Present && a.Stop == b.Stop && a.Pass == b.Pass &&
		a.HostileEmpty == b.HostileEmpty && a.HostileOccupied == b.HostileOccupied
}

// normalRules returns a copy of v with the fields that cannot act zeroed.
func normalRules(v *engine.Variant) engine.Variant {
	n := *v
	if !n.Throne.Present {
		n.Throne = engine.SquareRule{}
	}
	if !n.Corners.Present {
		n.Corners = engine.SquareRule{}
	}
	n.Corners.HostileOccupied = engine.NoPieces
	if !cornersCrossable(&n) {
		n.Corners.Pass = engine.NoPieces
	}
	if !n.Shieldwall {
		n.ShieldwallCorners = false
	}
	return n
}

// startRows turns a board into Variant.Start rows, top rank first.
func startRows(b engine.Board) []string {
	rows := make([]string, b.Size)
	for r := 0; r < b.Size; r++ {
		row := make([]byte, b.Size)
		for f := range row {
			switch b.At(engine.SquareAt(f, r)) {
			case engine.Attacker:
				row[f] = 't'
			case engine.Defender:
				row[f] = 'T'
			case engine.King:
				row[f] = 'K'
			default:
				row[f] = '.'
			}
		}
		rows[b.Size-1-r] = string(row)
	}
	return rows
}

// pieceList writes a piece set as OTN letters: t, T, K in that order.
func pieceList(s engine.PieceSet) string {
	var b strings.Builder
	for _, p := range []struct {
		piece engine.Piece
		c     byte
	}{{engine.Attacker, 't'}, {engine.Defender, 'T'}, {engine.King, 'K'}} {
		if s.Has(p.piece) {
			b.WriteByte(p.c)
		}
	}
	return b.String()
}

// rulesReader looks up pairs and makes positioned errors.
type rulesReader struct{ r *grammar.Rules }

func (rd rulesReader) pair(key string) (*grammar.RulePair, bool) {
	for i := range rd.r.Pairs {
		if rd.r.Pairs[i].Key == key {
			return &rd.r.Pairs[i], true
		}
	}
	return nil, false
}

// errAt returns an *Error at pair p (at the rules string without one).
func (rd rulesReader) errAt(p *grammar.RulePair, k Kind, format string, args ...any) *Error {
	pos := rd.r.Pos
	if p != nil {
		pos = p.Pos
	}
	e := &Error{Kind: k, Message: fmt.Sprintf(format, args...)}
	setPos(e, pos)
	return e
}

// shift places an error about a pair's value (Line 1, Col counted in the
// value) at its place in the file.
func (rd rulesReader) shift(p *grammar.RulePair, e *Error) *Error {
	col := e.Col
	setPos(e, p.Pos)
	e.Col += len(p.Key) + col // "key:" then the value's column
	e.Message = p.Key + ": " + e.Message
	return e
}

func setPos(e *Error, pos grammar.Position) {
	e.Filename, e.Line, e.Col = pos.Filename, pos.Line, pos.Column
	if e.Line == 0 {
		e.Line, e.Col = 1, 1
	}
}

// pieces reads an OTN piece-type list: t, T and K set Attacker, Defender
// and King; the letters of special pieces (c n k m g, capitals too) are
// allowed and have no effect.
func (rd rulesReader) pieces(p *grammar.RulePair) (engine.PieceSet, error) {
	var s engine.PieceSet
	for i := 0; i < len(p.Value); i++ {
		switch c := p.Value[i]; c {
		case 't', 'T', 'K':
			s |= engine.Pieces(pieceOf(c))
		case 'c', 'n', 'k', 'm', 'g', 'C', 'N', 'M', 'G':
		default:
			return 0, rd.errAt(p, KindSyntax, "%s: %q is not a piece letter", p.Key, string(c))
		}
	}
	return s, nil
}

// squareList reads the value of cor or cen: "default" or the default
// squares (the four corners, the centre) mean present in the usual place
// (squares nil), "" absent, another list present on those squares
// (engine.SquareRule.Squares; a throne has at most one square).
func (rd rulesReader) squareList(p *grammar.RulePair, n int) (bool, []engine.Square, error) {
	if p.Value == "default" {
		return true, nil, nil
	}
	var got []engine.Square
	for _, f := range strings.Split(p.Value, ",") {
		if f == "" {
			continue
		}
		sq, ok := squareFromText(f)
		if !ok || !sq.OnBoard(n) {
			return false, nil, rd.errAt(p, KindSyntax, "%s: %q is not a square of a %d×%d board", p.Key, f, n, n)
		}
		if !slices.Contains(got, sq) {
			got = append(got, sq)
		}
	}
	if len(got) == 0 {
		return false, nil, nil
	}
	want := defaultSquares(p.Key, n)
	slices.Sort(got)
	if slices.Equal(got, want) {
		return true, nil, nil
	}
	if p.Key == "cen" && len(got) > 1 {
		return false, nil, rd.errAt(p, KindUnsupported, "%s:%s: more than one throne square is not supported", p.Key, p.Value)
	}
	return true, got, nil
}

// defaultSquares returns, sorted, the usual corner squares (key "cor") or
// throne square ("cen") of an n×n board.
func defaultSquares(key string, n int) []engine.Square {
	want := []engine.Square{engine.SquareAt(n/2, n/2)}
	if key == "cor" {
		want = []engine.Square{engine.SquareAt(0, 0), engine.SquareAt(n-1, 0), engine.SquareAt(0, n-1), engine.SquareAt(n-1, n-1)}
	}
	slices.Sort(want)
	return want
}

// squareFromText reads a square such as "g7" (or "G7").
func squareFromText(s string) (engine.Square, bool) {
	if len(s) < 2 {
		return 0, false
	}
	f := s[0] | 0x20
	r, err := strconv.Atoi(s[1:])
	if f < 'a' || f > 'z' || err != nil || r < 1 || r > engine.MaxSize || s[1] == '0' {
		return 0, false
	}
	return engine.SquareAt(int(f-'a'), r-1), true
}

// wrapGrammar wraps a grammar error in an *Error of KindSyntax with its
// position.
func wrapGrammar(err error) error {
	ge, ok := err.(*grammar.Error)
	if !ok {
		return &Error{Kind: KindSyntax, Message: err.Error(), Err: err}
	}
	return &Error{Kind: KindSyntax, Filename: ge.Filename, Line: ge.Line, Col: ge.Col, Message: ge.Message, Err: err}
}
