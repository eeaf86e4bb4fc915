package notation

import (
	"strings"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
)

// rulesBuild is the state of VariantFromRules while it reads the pairs of a
// rules string, one key parser (rulesKeys) per pair.
type rulesBuild struct {
	rd rulesReader
	v  *engine.Variant // the variant being built
	n  int             // the board's side, from dim
	// board is the start position (start or starti), nil until read.
	board *engine.Board
	// reCorner and reThrone are the pieces that may re-enter a corner or
	// the throne (OpenTafl's corre, cenre; default: every piece).
	reCorner, reThrone engine.PieceSet
	// exact holds the lists of taflmail's tm-corp, tm-cenp, tm-corh,
	// tm-cenh and tm-cenhe, by the OTN key they override.
	exact map[string]engine.PieceSet
}

// keyParser reads the value of one rules key into b, or returns an *Error
// at the pair.
type keyParser func(b *rulesBuild, p *grammar.RulePair) error

// rulesKeys holds a parser for every key VariantFromRules reads (OTN spec
// §3, taflmail's tm- keys; the list at the top of rules.go). A key not in
// it is unsupported.
var rulesKeys = map[string]keyParser{
	"dim": func(*rulesBuild, *grammar.RulePair) error { return nil }, // read before the others
	"name": func(b *rulesBuild, p *grammar.RulePair) error {
		b.v.Name, b.v.Title = p.Value, strings.ReplaceAll(p.Value, "_", " ")
		return nil
	},
	"esc": enumKey("c (corners) or e (edge)", map[string]func(*engine.Variant){
		"c": func(v *engine.Variant) { v.Escape = engine.EscapeCorners },
		"e": func(v *engine.Variant) { v.Escape = engine.EscapeEdge },
	}, nil),
	"surf": yesNoKey(func(v *engine.Variant, yes bool) { v.Encirclement = yes }),
	"atkf": yesNoKey(func(v *engine.Variant, yes bool) {
		v.FirstSide = engine.Attackers
		if !yes {
			v.FirstSide = engine.Defenders
		}
	}),
	"tfr": keyTFR,
	keyRepetition: enumKey("attackers or defenders", map[string]func(*engine.Variant){
		"attackers": func(v *engine.Variant) { v.Repetition = engine.RepetitionAttackersWin },
		"defenders": func(v *engine.Variant) { v.Repetition = engine.RepetitionDefendersWin },
	}, nil),
	keyNoMove: enumKey("draw or loses", map[string]func(*engine.Variant){
		"draw":  func(v *engine.Variant) { v.NoMove = engine.NoMoveDraw },
		"loses": func(v *engine.Variant) { v.NoMove = engine.NoMoveLoses },
	}, nil),
	keyKingEdge: enumKey("capture or safe", map[string]func(*engine.Variant){
		"capture": func(v *engine.Variant) { v.KingEdge = engine.EdgeThreeSides },
		"safe":    func(v *engine.Variant) { v.KingEdge = engine.EdgeNoCapture },
	}, nil),
	"ka": enumKey("y, n, h or a", map[string]func(*engine.Variant){
		"y": func(v *engine.Variant) { v.KingArms = engine.KingArmed },
		"n": func(v *engine.Variant) { v.KingArms = engine.KingUnarmed },
		"h": func(v *engine.Variant) { v.KingArms = engine.KingHammerOnly },
		"a": func(v *engine.Variant) { v.KingArms = engine.KingAnvilOnly },
	}, nil),
	"ks": enumKey("y, s, c, m, n or w", map[string]func(*engine.Variant){
		"y": func(v *engine.Variant) { v.KingCapture = engine.CaptureStrong },
		"s": func(v *engine.Variant) { v.KingCapture = engine.CaptureStrong },
		"c": func(v *engine.Variant) { v.KingCapture = engine.CaptureStrongNearThrone },
		"n": func(v *engine.Variant) { v.KingCapture = engine.CaptureWeak },
		"w": func(v *engine.Variant) { v.KingCapture = engine.CaptureWeak },
	}, map[string]string{"m": "m (a middleweight king) is not supported"}),
	"kj":  onlyKey("king jumps are not supported", "n"),
	"ber": onlyKey("berserk moves are not supported", "n"),
	"spd": onlyKey("speed limits are not supported", "-1", ""),
	// Jumps of knights and commanders; a start position cannot hold them,
	// so any valid value is harmless.
	"nj": enumKey("n, r, j or c", noEffect("n", "r", "j", "c"), nil),
	"cj": enumKey("n, r, j or c", noEffect("n", "r", "j", "c"), nil),
	"linc": enumKey("y or n", noEffect("n"),
		map[string]string{"y": "Linnaean capture (a defender beside the occupied throne captured against it) is not supported"}),
	"swf": enumKey("y or n", noEffect("y"),
		map[string]string{"n": "shieldwall captures without a bracketing ply are not supported"}),
	"sw": enumKey("n, w or s", map[string]func(*engine.Variant){
		"n": func(v *engine.Variant) { v.Shieldwall, v.ShieldwallCorners = false, false },
		"w": func(v *engine.Variant) { v.Shieldwall, v.ShieldwallCorners = true, false },
		"s": func(v *engine.Variant) { v.Shieldwall, v.ShieldwallCorners = true, true },
	}, nil),
	"efe": yesNoKey(func(v *engine.Variant, yes bool) { v.EdgeFort = yes }),
	"cor": squaresKey(func(b *rulesBuild) *engine.SquareRule { return &b.v.Corners }),
	"cen": squaresKey(func(b *rulesBuild) *engine.SquareRule { return &b.v.Throne }),

	// Pass and stop lists; VariantFromRules's finish takes from Stop what
	// Pass leaves out, as OpenTafl does.
	"corp": piecesKey(func(b *rulesBuild) *engine.PieceSet { return &b.v.Corners.Pass }),
	"cenp": piecesKey(func(b *rulesBuild) *engine.PieceSet { return &b.v.Throne.Pass }),
	"cors": piecesKey(func(b *rulesBuild) *engine.PieceSet { return &b.v.Corners.Stop }),
	"cens": piecesKey(func(b *rulesBuild) *engine.PieceSet { return &b.v.Throne.Stop }),
	// Hostility lists, read per side as OpenTafl reads them.
	"corh":  sidesKey(func(b *rulesBuild) *engine.PieceSet { return &b.v.Corners.HostileEmpty }),
	"cenh":  sidesKey(func(b *rulesBuild) *engine.PieceSet { return &b.v.Throne.HostileOccupied }),
	"cenhe": sidesKey(func(b *rulesBuild) *engine.PieceSet { return &b.v.Throne.HostileEmpty }),
	"corre": piecesKey(func(b *rulesBuild) *engine.PieceSet { return &b.reCorner }),
	"cenre": piecesKey(func(b *rulesBuild) *engine.PieceSet { return &b.reThrone }),
	// taflmail's exact lists (the top of rules.go), piece by piece.
	keyExact + "corp":  exactKey("corp"),
	keyExact + "cenp":  exactKey("cenp"),
	keyExact + "corh":  exactKey("corh"),
	keyExact + "cenh":  exactKey("cenh"),
	keyExact + "cenhe": exactKey("cenhe"),
	keyNote:            ignoredKey,

	// Fortresses: VariantFromRules refuses afor and dfor other than empty
	// before reading any pair, so the rules of their squares never act.
	"afor": ignoredKey, "dfor": ignoredKey, "aforh": ignoredKey, "dforh": ignoredKey,
	"aforp": ignoredKey, "dforp": ignoredKey, "afors": ignoredKey, "dfors": ignoredKey,
	"aforre": ignoredKey, "dforre": ignoredKey,

	"start":  startKey(ParseBoard),
	"starti": startKey(ParseBoardInverted),
}

// enumKey returns the parser of a key with a fixed set of values: values
// says what each sets, unsupported why the engine cannot play the others
// that OTN knows ("m (a middleweight king) is not supported"); names lists
// every value for the error about any other.
func enumKey(names string, values map[string]func(*engine.Variant), unsupported map[string]string) keyParser {
	return func(b *rulesBuild, p *grammar.RulePair) error {
		if set, ok := values[p.Value]; ok {
			set(b.v)
			return nil
		}
		if why, ok := unsupported[p.Value]; ok {
			return b.rd.errAt(p, KindUnsupported, "%s: %s", p.Key, why)
		}
		return b.rd.errAt(p, KindSyntax, "%s: value %q is not %s", p.Key, p.Value, names)
	}
}

// yesNoKey returns the parser of a y/n key that sets one rule.
func yesNoKey(set func(v *engine.Variant, yes bool)) keyParser {
	return enumKey("y or n", map[string]func(*engine.Variant){
		"y": func(v *engine.Variant) { set(v, true) },
		"n": func(v *engine.Variant) { set(v, false) },
	}, nil)
}

// noEffect accepts values that change nothing the engine plays.
func noEffect(values ...string) map[string]func(*engine.Variant) {
	m := make(map[string]func(*engine.Variant), len(values))
	for _, s := range values {
		m[s] = func(*engine.Variant) {}
	}
	return m
}

// onlyKey returns the parser of a key for a feature the engine lacks:
// the values that switch it off are accepted, any other is unsupported.
func onlyKey(why string, off ...string) keyParser {
	return func(b *rulesBuild, p *grammar.RulePair) error {
		for _, s := range off {
			if p.Value == s {
				return nil
			}
		}
		return b.rd.errAt(p, KindUnsupported, "%s: %s", p.Key, why)
	}
}

// ignoredKey accepts any value.
func ignoredKey(*rulesBuild, *grammar.RulePair) error { return nil }

// keyTFR reads OTN's threefold-repetition rule as OpenTafl's code plays
// it, unless taflmail's tm-rep key is present and says more. OpenTafl
// judges the position after the ply (GameState.checkVictoryInternal): under
// w the side to move there wins, so the player who completed the third
// repetition loses; under l the side to move loses. (OpenTafl's own
// comments and notation document say the opposite; a host referees by the
// code.) i is what OpenTafl writes for a game that ignores repetition.
func keyTFR(b *rulesBuild, p *grammar.RulePair) error {
	if _, ok := b.rd.pair(keyRepetition); ok {
		return nil
	}
	return enumKey("d, i, w or l", map[string]func(*engine.Variant){
		"d": func(v *engine.Variant) { v.Repetition = engine.RepetitionDraw },
		"i": func(v *engine.Variant) { v.Repetition = engine.RepetitionIgnored },
		"w": func(v *engine.Variant) { v.Repetition = engine.RepetitionSideToMoveWins },
		"l": func(v *engine.Variant) { v.Repetition = engine.RepetitionSideToMoveLoses },
	}, nil)(b, p)
}

// squaresKey returns the parser of cor or cen, which place the corners or
// the throne (rulesReader.squareList).
func squaresKey(rule func(*rulesBuild) *engine.SquareRule) keyParser {
	return func(b *rulesBuild, p *grammar.RulePair) error {
		present, squares, err := b.rd.squareList(p, b.n)
		if err != nil {
			return err
		}
		r := rule(b)
		r.Present, r.Squares = present, squares
		return nil
	}
}

// piecesKey returns the parser of a piece-list key (corp, cens, …) that
// sets the piece set field returns.
func piecesKey(field func(*rulesBuild) *engine.PieceSet) keyParser {
	return func(b *rulesBuild, p *grammar.RulePair) error {
		set, err := b.rd.pieces(p)
		if err != nil {
			return err
		}
		*field(b) = set
		return nil
	}
}

// sidesKey returns the parser of a hostility list (corh, cenh, cenhe),
// read as OpenTafl reads it: per side, the attackers for a "t", the
// defenders and the king for a "T" (GenericRules.isSpaceHostileToSide);
// the other letters are checked and count for nothing, so "cenhe:K" is
// hostile to nobody.
func sidesKey(field func(*rulesBuild) *engine.PieceSet) keyParser {
	return func(b *rulesBuild, p *grammar.RulePair) error {
		if _, err := b.rd.pieces(p); err != nil {
			return err
		}
		*field(b) = sideSet(p.Value)
		return nil
	}
}

// exactKey returns the parser of a tm- list key of taflmail (tm-cenp,
// tm-cenhe, …): the list piece by piece, in place of the reading of the
// OTN key named otn.
func exactKey(otn string) keyParser {
	return func(b *rulesBuild, p *grammar.RulePair) error {
		set, err := b.rd.pieces(p)
		if err != nil {
			return err
		}
		if b.exact == nil {
			b.exact = map[string]engine.PieceSet{}
		}
		b.exact[otn] = set
		return nil
	}
}

// startKey returns the parser of start (parse: ParseBoard, rank 1 first)
// or starti (ParseBoardInverted); a rules string holds one of them.
func startKey(parse func(string) (engine.Board, error)) keyParser {
	return func(b *rulesBuild, p *grammar.RulePair) error {
		if b.board != nil {
			return b.rd.errAt(p, KindSyntax, "rules string has both start: and starti:")
		}
		board, err := parse(p.Value)
		if err != nil {
			return b.rd.shift(p, err.(*Error))
		}
		if board.Size != b.n {
			return b.rd.errAt(p, KindSyntax, "%s: position is %d×%d but dim is %d", p.Key, board.Size, board.Size, b.n)
		}
		b.board = &board
		return nil
	}
}
