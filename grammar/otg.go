package grammar

import (
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Rules is an OTN rules string (OTN spec, "Rules Records"), e.g.
// "dim:11 atkf:n sw:s efe:y start:/3ttttt3/.../", as key/value pairs in the
// order written. The grammar does not know the keys: whether "dim" is a
// number or "nj" is supported is for whoever builds a variant from the pairs
// (RULES.md §2, tier 2).
type Rules struct {
	Pos   lexer.Position
	Pairs []RulePair `parser:"@@*"`
}

// RulePair is one "key:value" entry of a rules string. Value may be empty
// ("cenh:" = no piece). A value runs to the next blank, so "cor:g7, cen:b2,"
// is the two pairs cor = "g7," and cen = "b2,".
type RulePair struct {
	Pos   lexer.Position
	Key   string `parser:"@Key ':':Colon"`
	Value string `parser:"@Value?"`
}

// Value returns the value of the first pair with the given key.
func (r *Rules) Value(key string) (string, bool) {
	for _, p := range r.Pairs {
		if p.Key == key {
			return p.Value, true
		}
	}
	return "", false
}

// String returns the rules string with the pairs separated by single blanks.
func (r *Rules) String() string {
	parts := make([]string, len(r.Pairs))
	for i, p := range r.Pairs {
		parts[i] = p.Key + ":" + p.Value
	}
	return strings.Join(parts, " ")
}

var rulesParser = participle.MustBuild[Rules](participle.Lexer(rulesLexerGen), participle.UseLookahead(0))

// ParseRules parses an OTN rules string such as "dim:7 ks:n start:/3t3/.../".
// A key may occur only once. filename is used in error positions only.
// Errors are *Error.
func ParseRules(filename string, src []byte) (r *Rules, err error) {
	defer guard(filename, &err)
	if e := checkText(filename, src); e != nil {
		return nil, e
	}
	r, err = parseRulesAt(lexer.Position{Filename: filename, Line: 1, Column: 1}, string(src), src)
	if err != nil {
		return nil, convertError(err, filename, src, "")
	}
	return r, nil
}

// parseRulesAt parses a rules string s that starts at base in an enclosing
// file whose whole text is file. Its errors are *Error with positions in
// that file.
func parseRulesAt(base lexer.Position, s string, file []byte) (*Rules, error) {
	inner, err := rulesLexerGen.LexString("", s)
	if err != nil {
		return nil, convertError(err, base.Filename, file, "")
	}
	peek, err := lexer.Upgrade(&offsetLexer{Lexer: inner, base: base})
	if err != nil {
		return nil, convertError(err, base.Filename, file, "")
	}
	r, err := rulesParser.ParseFromLexer(peek)
	if err != nil {
		return nil, convertError(err, base.Filename, file, "key")
	}
	if r.Pos.Line == 0 {
		r.Pos = base
	}
	seen := map[string]bool{}
	for _, p := range r.Pairs {
		if seen[p.Key] {
			return nil, newError(p.Pos, "duplicate rule key %q", p.Key)
		}
		seen[p.Key] = true
	}
	return r, nil
}

// OTGRecord is an OpenTafl game record (.otg; OTN spec, "Game Records"):
// [key:value] tags, then numbered turns, each optionally followed by a
// comment line [first|second]. Turns labelled like "2a.1.1a." are variations;
// MainLine leaves them out.
type OTGRecord struct {
	Pos   lexer.Position
	Tags  []*OTGTag  `parser:"@@*"`
	Turns []*OTGTurn `parser:"@@*"`

	// Rules is the parsed value of the rules tag, or nil without one. It is
	// derived by ParseOTG; positions point into the tag.
	Rules *Rules
}

// OTGTag is a header tag [key:value], e.g. [date:2015.01.07] or
// [rules:dim:11 atkf:y start:/…/]. Value is everything after the first
// colon, as written.
type OTGTag struct {
	Pos   lexer.Position
	Key   string `parser:"@TagKey"`
	Value string `parser:"@Text? ']':Close"`
}

// OTGTurn is one line of moves: a label, one or two plies, and the comment
// line after it. "....." in place of the first ply (a variation that
// branches at the second ply) leaves First nil.
type OTGTurn struct {
	Pos     lexer.Position
	Label   *Label      `parser:"@@"`
	First   *Ply        `parser:"( @@"`
	Second  *Ply        `parser:"  @@? | '.....':Dots @@ )"`
	Comment *OTGComment `parser:"@@?"`
}

// Label is a turn's label: "12." on the main line, or a variation label such
// as "2a.1.1a." or "3a.2.1a.1.1a.": the main-line turn number and ply (a =
// first, b = second) where the variation branches off, then for each level
// of nesting a branch (variation number, turn within it, ply).
type Label struct {
	Pos       lexer.Position
	Number    int       `parser:"@Int"`
	SecondPly bool      `parser:"( ( 'a':Letter | @'b':Letter ) '.':Dots"`
	Branches  []*Branch `parser:"  @@+ | '.':Dots )"`
}

// Branch is one level of a variation label: "1.1a." is variation 1, its
// turn 1, first ply.
type Branch struct {
	Pos       lexer.Position
	Variation int  `parser:"@Int '.':Dots"`
	Number    int  `parser:"@Int"`
	SecondPly bool `parser:"( 'a':Letter | @'b':Letter ) '.':Dots"`
}

// OTGComment is the comment line after a turn: [first|second] comments on
// the two plies, or [single] on a turn with one ply. Bar is true when the
// "|" was written. The texts are as written (blanks included).
type OTGComment struct {
	Pos    lexer.Position
	First  string `parser:"( '[':Open | @TagKey ) @Text?"`
	Bar    bool   `parser:"( @'|':Bar"`
	Second string `parser:"  @Text? )? ']':Close"`
}

// IsVariation reports whether the turn belongs to a variation rather than
// to the main line.
func (t *OTGTurn) IsVariation() bool { return len(t.Label.Branches) > 0 }

// MainLine returns the turns of the main line, in order.
func (r *OTGRecord) MainLine() []*OTGTurn {
	var out []*OTGTurn
	for _, t := range r.Turns {
		if !t.IsVariation() {
			out = append(out, t)
		}
	}
	return out
}

// Tag returns the value of the tag with the given key (case-sensitive).
func (r *OTGRecord) Tag(key string) (string, bool) {
	for _, t := range r.Tags {
		if t.Key == key {
			return t.Value, true
		}
	}
	return "", false
}

// Outcome returns the outcome of the result tag: "1" attackers won, "-1"
// defenders won, "0" draw; "?" or no tag is Unfinished.
func (r *OTGRecord) Outcome() Outcome {
	v, _ := r.Tag("result")
	return otgOutcomes[v]
}

// turnBefore reports whether a line before line (1-based) starts a turn,
// i.e. whether an error on line is in the header or among the turns.
func turnBefore(src []byte, line int) bool {
	for i, l := range strings.Split(string(src), "\n") {
		if i+1 >= line {
			break
		}
		if l = strings.TrimSpace(l); l != "" && l[0] >= '0' && l[0] <= '9' {
			return true
		}
	}
	return false
}

var otgOutcomes = map[string]Outcome{"1": AttackersWin, "-1": DefendersWin, "0": Draw, "?": Unfinished, "": Unfinished}

var otgParser = participle.MustBuild[OTGRecord](
	participle.Lexer(otgLexerGen),
	participle.CaseInsensitive("Letter"),
	participle.UseLookahead(0),
	participle.Map(stripBracket, "TagKey"),
)

// stripBracket turns a TagKey token "[key:" into "key:". ParseOTG removes the
// colon from tag keys; a comment that starts like a tag ("[note: …") keeps
// it as part of its text.
func stripBracket(t lexer.Token) (lexer.Token, error) {
	t.Value = t.Value[1:]
	return t, nil
}

// ParseOTG parses one OpenTafl game record. filename is used in error
// positions only. Besides the grammar it checks that no tag key occurs twice,
// that the result tag is 1, -1, 0 or ?, and parses the rules tag into
// OTGRecord.Rules. Errors are *Error.
func ParseOTG(filename string, src []byte) (rec *OTGRecord, err error) {
	defer guard(filename, &err)
	if e := checkText(filename, src); e != nil {
		return nil, e
	}
	if len(src) > MaxRecordBytes {
		return nil, tooLongError(lexer.Position{Filename: filename, Line: 1, Column: 1}, "OpenTafl record")
	}
	rec, err = otgParser.ParseBytes(filename, src)
	if err != nil {
		e := convertError(err, filename, src, "move number")
		if e.Found == `"["` && !turnBefore(src, e.Line) {
			e = expectedError(lexer.Position{Filename: filename, Line: e.Line, Column: e.Col}, "tag [key:value]", e.Found)
		}
		return nil, e
	}
	if rec.Pos.Line == 0 {
		rec.Pos = lexer.Position{Filename: filename, Line: 1, Column: 1}
	}
	seen := map[string]bool{}
	for _, t := range rec.Tags {
		t.Key = strings.TrimSuffix(t.Key, ":")
		if seen[t.Key] {
			return nil, convertError(newError(t.Pos, "duplicate tag %s", t.Key), filename, src, "")
		}
		seen[t.Key] = true
		switch t.Key {
		case "result":
			if _, ok := otgOutcomes[t.Value]; !ok {
				return nil, convertError(expectedError(t.Pos, `result "1", "-1", "0" or "?"`, quoteFound(t.Value)), filename, src, "")
			}
		case "rules":
			base := t.Pos
			base.Advance("[rules:")
			rules, err := parseRulesAt(base, t.Value, src)
			if err != nil {
				return nil, convertError(err, filename, src, "")
			}
			rec.Rules = rules
		}
	}
	for _, t := range rec.Turns {
		if err := checkPlies(src, t.First, t.Second); err != nil {
			return nil, convertError(err, filename, src, "")
		}
	}
	return rec, nil
}
