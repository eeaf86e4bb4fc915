package notation

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
)

// Format is a game-record format that ReadGames reads and the writers write.
type Format uint8

const (
	// FormatAuto lets ReadGames decide (DetectFormat).
	FormatAuto Format = iota
	// FormatNative is taflmail's record format (docs/notation.md).
	FormatNative
	// FormatOTG is an OpenTafl game record (.otg; OTN spec §4).
	FormatOTG
	// FormatCSV is the one-game-a-line format of shared/records/README.md.
	FormatCSV
)

var formatNames = [...]string{FormatAuto: "auto", FormatNative: "native", FormatOTG: "otg", FormatCSV: "csv"}

// String returns "auto", "native", "otg" or "csv".
func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ParseFormat returns the format named s ("auto", "native", "otg", "csv").
func ParseFormat(s string) (Format, error) {
	for i, n := range formatNames {
		if s == n {
			return Format(i), nil
		}
	}
	return 0, fmt.Errorf("notation: unknown format %q (want auto, native, otg or csv)", s)
}

// DetectFormat guesses a file's format: by its extension (.otg, .csv; .tafl
// and .txt are native), else by its first non-blank character: "[" starts
// an OpenTafl tag ("[date:…") or a native tag ("[Event \"…"), a line with
// a comma is CSV, anything else is native move text.
func DetectFormat(filename string, src []byte) Format {
	switch strings.ToLower(filepath.Ext(filename)) {
	case ".otg":
		return FormatOTG
	case ".csv":
		return FormatCSV
	case ".tafl", ".txt":
		return FormatNative
	}
	s := bytes.TrimLeft(src, " \t\r\n")
	if len(s) > 0 && s[0] == '[' {
		i := 1
		for i < len(s) && (isAlnum(s[i]) || s[i] == '-' || s[i] == '_') {
			i++
		}
		if i < len(s) && s[i] == ':' {
			return FormatOTG
		}
		return FormatNative
	}
	line, _, _ := bytes.Cut(s, []byte{'\n'})
	if bytes.IndexByte(line, ',') >= 0 {
		return FormatCSV
	}
	return FormatNative
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Game is one game record of any format, reduced to what replaying and
// writing it needs. Positions (Line, Col, and those inside Plies) point
// into the file it was read from.
type Game struct {
	Filename string // as passed to ReadGames
	Format   Format // the format it was read from
	// Number is the game's 1-based number in its file; for CSV it is the
	// game's line number.
	Number    int
	Line, Col int // where the record starts
	// Tags are the header tags other than those with fields below (Variant,
	// Rules, Position, ToMove, Result, Termination), in the native format's
	// names (OpenTafl's event is Event, time-control TimeControl, other
	// keys are camel-cased: puzzle-mode is PuzzleMode), in the order
	// written.
	Tags []Tag
	// VariantName names the rules for people: the Variant tag (OpenTafl:
	// the variant tag), the rules string's name or the built-in variant
	// with the same rules, the built-in variant the file or caller chose,
	// or UnnamedRules ("custom") for rules that have no name.
	VariantName string
	// Variant is the rules the game is replayed under; nil when SetupErr
	// says why there are none.
	Variant *engine.Variant
	// Setup is the set-up position the game starts from, or nil for the
	// variant's start position.
	Setup *Setup
	// Comments are the comments before the first ply.
	Comments []string
	// Plies are the plies of the record (an OpenTafl record's main line),
	// resignations and time-outs included.
	Plies []Ply
	// Result is the result the record gives (result token, OpenTafl result
	// tag, CSV outcome); grammar.Unfinished when it gives none.
	Result grammar.Outcome
	// Termination says how the game ended in the native format's words
	// ("king captured", "resignation", "timeout", …; grammar's list), or
	// "" when the record does not say or says it otherwise.
	Termination string
	// TerminationText is the termination as written, e.g. OpenTafl's
	// "Black resigns"; "" when the record has none.
	TerminationText string
	// CaptureCounts are a CSV game's "attacker captures" and "defender
	// captures" fields; nil for other formats.
	CaptureCounts *[2]int
	// SetupErr says why the record's rules or start position cannot be
	// used (unknown variant, unsupported rules, a malformed position);
	// replaying such a game reports it and plays nothing.
	SetupErr *Error
	// ClockErr is the first problem with the clock data of a native or
	// OpenTafl record (CORRESPONDENCE.md §5): a clock tag or [%ts] that does not
	// parse, a timed record with times but no Start tag, a ply without
	// its %ts. Replay reports it (KindClock) and plays on; Game.Clock and
	// the plies' Time are then not to be trusted. nil for records without
	// clock data.
	ClockErr *Error

	// start is the start position shared by the games of one file (see
	// startCache); nil for games made otherwise.
	start *startCache
	// scratch is memory for the game's first Replay (ScanGames); nil for
	// games that may be kept.
	scratch *replayScratch
	// tagPos is where each tag was written (native and OpenTafl records),
	// by its native name.
	tagPos map[string]grammar.Position
}

// TagPos returns the line and column where the record wrote the tag name
// (its native name: "Date", "Position"; for OpenTafl the key's native
// name), and whether it did; CSV lines have no tags. Errors about a tag's
// value are placed there.
func (g *Game) TagPos(name string) (line, col int, ok bool) {
	p, ok := g.tagPos[name]
	if !ok || p.Line == 0 {
		return 0, 0, false
	}
	return p.Line, p.Column, true
}

// setTagPos remembers where the tag name was written.
func (g *Game) setTagPos(name string, pos grammar.Position) {
	if g.tagPos == nil {
		g.tagPos = map[string]grammar.Position{}
	}
	if _, seen := g.tagPos[name]; !seen {
		g.tagPos[name] = pos
	}
}

// UnnamedRules is the VariantName of a game whose rules string has no
// name and matches no built-in variant. Tools that group games by variant
// (ratings) must not pool such games: two of them may have different rules.
const UnnamedRules = "custom"

// Tag is a header tag of a game record: its native name and its value.
type Tag struct{ Name, Value string }

// Setup is a set-up position: a board and the side that moves first from
// it (puzzles, studies, adjourned games).
type Setup struct {
	Board  engine.Board // the pieces
	ToMove engine.Side  // the side that plays the first ply
}

// Ply is one ply of a record as written.
type Ply struct {
	// Ply is the parsed ply: a move, a resignation or a time-out.
	Ply *grammar.Ply
	// Number is the move number written before the ply's pair, 0 when the
	// format has none (CSV). Second says the ply was written as the second
	// of its pair (a native "12..." ply, an OpenTafl turn's second move).
	Number int
	Second bool
	// Comments are the comments written after the ply, without the clock
	// commands [%ts], [%avail] and [%clk] (native records), which are in
	// Time.
	Comments []string
	// Time is the ply's clock data in a timed native record (arrival,
	// commit; CORRESPONDENCE.md §5); zero otherwise. The native writer
	// writes it as the first comment after the ply.
	Time PlyTime
}

// Text returns the ply as written, normalised to lower case ("Kd4-d8").
func (p Ply) Text() string { return p.Ply.String() }

// ReadOptions are the settings of ReadGames; the zero value detects the
// format and guesses the variant.
type ReadOptions struct {
	// Format of the file; FormatAuto detects it (DetectFormat).
	Format Format
	// Variant is the rules for records that name none (CSV games, native
	// records without a Variant or Rules tag). nil: the built-in variant
	// named like the file ("brandubh.csv" → brandubh), else copenhagen.
	Variant *engine.Variant
}

// ReadGames parses a file of game records and returns its games, in file
// order. Syntax errors are returned as the grammar's *grammar.Error (file,
// line, column, what was expected); a record whose rules or start position
// cannot be used is returned with SetupErr set, so that the other games of
// the file can still be replayed. An OpenTafl file holds one game (its main
// line; variations are left out). A file without any record (empty, or
// only white space) returns no games and no error, in every format.
func ReadGames(filename string, src []byte, opts ReadOptions) ([]*Game, error) {
	f := opts.Format
	if f == FormatAuto {
		f = DetectFormat(filename, src)
	}
	def := opts.Variant
	if def == nil {
		def = guessVariant(filename)
	}
	switch f {
	case FormatNative:
		recs, err := grammar.ParseRecords(filename, src)
		if err != nil {
			return nil, err
		}
		// The games and their plies come in one allocation each for the
		// file, as for CSV below.
		games := make([]*Game, len(recs))
		blocks := make([]Game, len(recs))
		n := 0
		for _, r := range recs {
			n += recordPlies(r)
		}
		plies := make([]Ply, 0, n)
		for i, r := range recs {
			k := recordPlies(r)
			fromRecord(&blocks[i], r, def, plies[:0:k])
			plies = plies[k:k:cap(plies)]
			blocks[i].Number = i + 1
			games[i] = &blocks[i]
		}
		return games, nil
	case FormatOTG:
		r, err := grammar.ParseOTG(filename, src)
		if err != nil {
			return nil, err
		}
		if len(r.Tags) == 0 && len(r.Turns) == 0 {
			// An empty file (or blank lines) is no game, as in the
			// other formats, not a game without its rules tag.
			return nil, nil
		}
		g := FromOTG(r)
		g.Number = 1
		return []*Game{g}, nil
	case FormatCSV:
		cs, err := grammar.ParseCSV(filename, src)
		if err != nil {
			return nil, err
		}
		// The games, their plies and the start position come in one
		// allocation each for the file (docs/performance.md).
		games := make([]*Game, len(cs))
		blocks := make([]Game, len(cs))
		n := 0
		for _, c := range cs {
			n += len(c.Plies)
		}
		plies := make([]Ply, n)
		start := newStartCache(def)
		for i, c := range cs {
			g := &blocks[i]
			fromCSV(g, c, def, plies[:len(c.Plies):len(c.Plies)])
			plies = plies[len(c.Plies):]
			g.start = start
			games[i] = g
		}
		return games, nil
	}
	return nil, fmt.Errorf("notation: unknown format %v", f)
}

// guessVariant returns the built-in variant named like the file
// ("copenhagen.csv" → copenhagen), else copenhagen.
func guessVariant(filename string) *engine.Variant {
	base := strings.ToLower(strings.TrimSuffix(filepath.Base(filename), filepath.Ext(filename)))
	if v, ok := engine.Lookup(base); ok {
		return v
	}
	v, _ := engine.Lookup("copenhagen")
	return v
}

// The native tags that Game keeps in fields rather than in Tags.
var fieldTags = map[string]bool{"Variant": true, "Rules": true, "Position": true, "ToMove": true, "Result": true, "Termination": true}

// FromRecord turns a parsed native record into a Game. def is the variant
// for a record without Variant and Rules tags. The Variant tag names a
// built-in variant; a Rules tag gives the rules as an OTN rules string
// (then Variant, if present, only names them); Position and ToMove give a
// set-up position.
func FromRecord(r *grammar.Record, def *engine.Variant) *Game {
	g := &Game{}
	fromRecord(g, r, def, make([]Ply, 0, recordPlies(r)))
	return g
}

// recordPlies returns the number of plies of a native record.
func recordPlies(r *grammar.Record) int {
	n := 0
	for _, t := range r.Turns {
		if t.First != nil {
			n++
		}
		if t.Second != nil {
			n++
		}
	}
	return n
}

// fromRecord fills g, a zero Game, as FromRecord describes; plies is an
// empty slice with room for the record's plies.
func fromRecord(g *Game, r *grammar.Record, def *engine.Variant, plies []Ply) {
	g.Filename, g.Format, g.Line, g.Col = r.Pos.Filename, FormatNative, r.Pos.Line, r.Pos.Column
	g.Plies = plies
	if r.Result != nil {
		g.Result = r.Result.Outcome
	}
	var variantTag, rulesTag, posTag, toMoveTag *grammar.Tag
	for _, t := range r.Tags {
		g.setTagPos(t.Name, t.Pos)
		switch t.Name {
		case "Variant":
			variantTag = t
		case "Rules":
			rulesTag = t
		case "Position":
			posTag = t
		case "ToMove":
			toMoveTag = t
		case "Termination":
			g.Termination, g.TerminationText = t.Value, t.Value
		}
		if !fieldTags[t.Name] {
			g.Tags = append(g.Tags, Tag{t.Name, t.Value})
		}
	}
	g.setVariant(variantTag, rulesTag, r.Rules, def)
	if posTag != nil && g.SetupErr == nil {
		g.setPosition(posTag, toMoveTag)
	}
	for _, c := range r.Comments {
		g.Comments = append(g.Comments, c.Text)
	}
	if cap(plies) == 0 {
		g.Plies = nil // as a record without plies always had it
	}
	for _, t := range r.Turns {
		for i, a := range []*grammar.AnnotatedPly{t.First, t.Second} {
			if a == nil {
				continue
			}
			// Field by field into room made beforehand: appending a
			// struct that holds pointers costs a bulk write barrier
			// while the garbage collector marks (docs/performance.md).
			g.Plies = append(g.Plies, Ply{})
			p := &g.Plies[len(g.Plies)-1]
			p.Ply, p.Number, p.Second = a.Ply, t.Number, i == 1
			if len(a.Comments) == 0 {
				continue
			}
			var bad *Error
			p.Time, p.Comments, bad = plyClock(a.Comments)
			if bad != nil && g.ClockErr == nil {
				bad.Ply, bad.Move, bad.Side = len(g.Plies), p.Text(), engine.Attackers
				if p.Second {
					bad.Side = engine.Defenders // native pairs: attackers first
				}
				g.ClockErr = bad
			}
		}
	}
	if g.ClockErr == nil {
		g.ClockErr = checkClock(g, r.Tags)
	}
}

// setVariant sets a native record's rules from its Variant and Rules tags
// (either may be nil; rules is the parsed Rules tag), else def, or
// SetupErr when they cannot be used.
func (g *Game) setVariant(variantTag, rulesTag *grammar.Tag, rules *grammar.Rules, def *engine.Variant) {
	switch {
	case rulesTag != nil && rules != nil:
		v, err := VariantFromRules(rules)
		if err != nil {
			g.SetupErr = err.(*Error)
		}
		g.Variant = v
		g.VariantName = UnnamedRules
		if v != nil && v.Name != "" {
			g.VariantName = v.Name
		}
		if variantTag != nil {
			g.VariantName = variantTag.Value
			if v != nil {
				v.Name = variantTag.Value
			}
		}
	case variantTag != nil:
		g.VariantName = variantTag.Value
		if v, ok := engine.Lookup(variantTag.Value); ok {
			g.Variant = v
		} else {
			msg := fmt.Sprintf("unknown variant %q", variantTag.Value)
			if near := NearestVariant(variantTag.Value); near != "" {
				msg += "; did you mean " + near + "?"
			}
			g.SetupErr = &Error{Kind: KindSetup, Message: msg + " (see taflmail variants)"}
			setPos(g.SetupErr, variantTag.Pos)
		}
	default:
		g.Variant, g.VariantName = def, def.Name
	}
}

// setPosition sets a native record's set-up position from its Position
// tag and ToMove tag (nil: the attackers move first), or SetupErr placed
// in the Position tag's value.
func (g *Game) setPosition(posTag, toMoveTag *grammar.Tag) {
	b, err := ParseBoard(posTag.Value)
	if err != nil {
		e := err.(*Error)
		col := e.Col
		setPos(e, posTag.Pos)
		e.Col += len(`Position "`) + col // the value starts after [Position "
		e.Message = "Position: " + e.Message
		g.SetupErr = e
		return
	}
	s := &Setup{Board: b, ToMove: engine.Attackers}
	if toMoveTag != nil && toMoveTag.Value == "defenders" {
		s.ToMove = engine.Defenders
	}
	g.Setup = s
}

// otgTags maps OpenTafl tag keys to native tag names; other keys are
// camel-cased (puzzle-mode → PuzzleMode) by camelTag.
var otgTags = map[string]string{
	"event": "Event", "site": "Site", "date": "Date", "round": "Round",
	"attackers": "Attackers", "defenders": "Defenders", "time-control": "TimeControl",
	"variant": "VariantName",
}

// camelTag turns an OpenTafl key into a native tag name: "start-comment"
// → "StartComment".
func camelTag(key string) string {
	if n, ok := otgTags[key]; ok {
		return n
	}
	var b strings.Builder
	up := true
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c == '-' || c == '_':
			up = true
			continue
		case up && c >= 'a' && c <= 'z':
			c -= 'a' - 'A'
		}
		up = false
		b.WriteByte(c)
	}
	return b.String()
}

// kebabTag is camelTag's inverse: "StartComment" → "start-comment".
func kebabTag(name string) string {
	for k, n := range otgTags {
		if n == name {
			return k
		}
	}
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'A' && c <= 'Z' {
			if i > 0 {
				b.WriteByte('-')
			}
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// terminationWords reads a free-text termination (OpenTafl's
// "Black resigns") as a native Termination value, or "".
func terminationWords(text string) string {
	t := strings.ToLower(text)
	for _, w := range []struct{ sub, term string }{
		{"resign", "resignation"}, {"time", "timeout"}, {"agree", "agreement"},
		{"escape", "king escaped"}, {"fort", "edge fort"}, {"encircle", "encirclement"},
		{"surround", "encirclement"}, {"repetition", "repetition"}, {"no legal move", "no legal move"},
		{"no move", "no legal move"}, {"captured", "king captured"},
	} {
		if strings.Contains(t, w.sub) {
			return w.term
		}
	}
	return ""
}

// FromOTG turns a parsed OpenTafl record into a Game: its main line, its
// tags, the rules of its rules tag (a record without one is a setup
// error) and a position tag as the set-up position, with the side the
// rules say moves first. taflmail's clock data comes back as WriteOTG
// writes it: the TimeControl tag from tm-time-control (OpenTafl's own
// time-control is then kept as OpenTaflTimeControl), each ply's Time from
// the {%ts …} {%avail …} at the start of its comment, and a final time-out
// ply from the tm-timeout tag; a clock problem is the game's ClockErr, as
// for a native record.
func FromOTG(r *grammar.OTGRecord) *Game {
	g := &Game{Filename: r.Pos.Filename, Format: FormatOTG, Line: r.Pos.Line, Col: r.Pos.Column, Result: r.Outcome()}
	posTag, timeoutTag, clockTags := g.otgTags(r)
	g.otgVariant(r, posTag)
	g.otgMainLine(r)
	if timeoutTag != nil {
		g.otgTimeout(timeoutTag)
	}
	if g.ClockErr == nil {
		g.ClockErr = checkClock(g, clockTags)
	}
	return g
}

// otgTags takes r's tags into g under their native names (the position
// of each, the termination, OpenTafl's start-comment as a comment, the
// rest as Tags), and returns what FromOTG reads later: the position and
// tm-timeout tags (nil when absent) and the clock tags, in native names,
// for checkClock.
func (g *Game) otgTags(r *grammar.OTGRecord) (posTag, timeoutTag *grammar.OTGTag, clockTags []*grammar.Tag) {
	_, ownControl := r.Tag(otgTimeControl)
	for _, t := range r.Tags {
		name := camelTag(t.Key)
		switch {
		case t.Key == otgTimeControl:
			name = TagTimeControl
		case t.Key == "time-control" && ownControl:
			name = tagOpenTaflTimeControl
		}
		g.setTagPos(name, t.Pos)
		switch name {
		case TagTimeControl, TagStart, TagAttackersLeave, TagDefendersLeave:
			clockTags = append(clockTags, &grammar.Tag{Pos: t.Pos, Name: name, Value: t.Value})
		}
		switch t.Key {
		case otgTimeout:
			timeoutTag = t
			continue
		case "rules", "result":
		case "termination":
			g.TerminationText = t.Value
			g.Termination = terminationWords(t.Value)
		case "position":
			posTag = t
		case "start-comment":
			// OpenTafl's comment before the first move.
			g.Comments = append(g.Comments, t.Value)
		default:
			g.Tags = append(g.Tags, Tag{name, t.Value})
		}
	}
	return posTag, timeoutTag, clockTags
}

// otgVariant sets g's variant from r's rules tag, its name from the
// variant tag if any, and, given a variant, the set-up position from
// posTag (if not nil) with the side the rules say moves first. A missing
// or bad rules tag, or a bad position, is g's SetupErr, placed in the
// record.
func (g *Game) otgVariant(r *grammar.OTGRecord, posTag *grammar.OTGTag) {
	if r.Rules == nil {
		g.SetupErr = &Error{Kind: KindSetup, Message: "OpenTafl record without a rules tag"}
		setPos(g.SetupErr, r.Pos)
	} else {
		v, err := VariantFromRules(r.Rules)
		if err != nil {
			g.SetupErr = err.(*Error)
			g.VariantName, _ = r.Rules.Value("name")
		} else {
			g.Variant = v
			g.VariantName = otgVariantName(v)
		}
	}
	if name, ok := r.Tag("variant"); ok && name != "" {
		g.VariantName = name
	}
	if posTag != nil && g.Variant != nil {
		b, err := ParseBoard(strings.TrimSpace(posTag.Value))
		if err != nil {
			e := err.(*Error)
			col := e.Col
			setPos(e, posTag.Pos)
			e.Col += len("[position:") + col - 1
			e.Message = "position: " + e.Message
			g.SetupErr = e
		} else {
			g.Setup = &Setup{Board: b, ToMove: g.Variant.FirstSide}
		}
	}
}

// otgMainLine appends the plies of r's main line to g, each with its half
// of the turn's comment (clock data read from it).
func (g *Game) otgMainLine(r *grammar.OTGRecord) {
	for _, t := range r.MainLine() {
		var texts [2]string
		var at [2]grammar.Position // before each comment's text, as for a native {
		if c := t.Comment; c != nil {
			texts[0], texts[1] = c.First, c.Second
			at[0], at[1] = c.Pos, c.Pos
			at[1].Column += 1 + len(c.First)
			at[1].Offset += 1 + len(c.First)
		}
		for i, p := range []*grammar.Ply{t.First, t.Second} {
			if p == nil {
				continue
			}
			ply := Ply{Ply: p, Number: t.Label.Number, Second: i == 1}
			g.otgPlyComment(&ply, texts[i], at[i])
			g.Plies = append(g.Plies, ply)
		}
	}
}

// otgTimeout appends the time-out of the tm-timeout tag t, which OTN has
// no symbol for, as the ply after the last, its clock data read from the
// tag's value.
func (g *Game) otgTimeout(t *grammar.OTGTag) {
	ply := Ply{Ply: &grammar.Ply{Pos: t.Pos, Timeout: true}, Number: 1}
	if n := len(g.Plies); n > 0 {
		last := g.Plies[n-1]
		ply.Number, ply.Second = last.Number, !last.Second
		if last.Second {
			ply.Number++
		}
	}
	at := t.Pos
	at.Column += len("["+otgTimeout+":") - 1
	at.Offset += len("["+otgTimeout+":") - 1
	g.otgPlyComment(&ply, t.Value, at)
	g.Plies = append(g.Plies, ply)
}

// The keys of taflmail's clock data in an OpenTafl record (WriteOTG).
const (
	// otgTimeControl holds a TimeControl tag taflmail reads (30d+1d);
	// OpenTafl's own time-control tag has another syntax ("3600 30/3 3i",
	// seconds) and reads ours as a number of seconds.
	otgTimeControl = "tm-time-control"
	// otgTimeout stands for a final time-out ply, which OTN cannot write:
	// its value is the ply's comment (clock commands first).
	otgTimeout = "tm-timeout"
	// tagOpenTaflTimeControl is the native name of OpenTafl's
	// time-control in a record that also has taflmail's.
	tagOpenTaflTimeControl = "OpenTaflTimeControl"
)

// otgClockRE matches a clock command of an OpenTafl comment, written in
// braces since OpenTafl's comments end at "]": {%ts 2026-11-28T21:52:10Z}.
var otgClockRE = regexp.MustCompile(`\{%(ts|avail|clk)( [^{}\[\]|]*)?\}`)

// otgPlyComment sets the comment of ply p from the text of its OpenTafl
// comment at pos (the bracket or bar before the text): the clock commands
// go to p.Time, as a native record's [%ts …] do (plyClock), the rest to
// p.Comments; a malformed one is the game's ClockErr.
func (g *Game) otgPlyComment(p *Ply, text string, pos grammar.Position) {
	if !strings.Contains(text, "{%") {
		if text = strings.TrimSpace(text); text != "" {
			p.Comments = []string{text}
		}
		return
	}
	native := otgClockRE.ReplaceAllString(text, "[%$1$2]") // the same length: positions hold
	var bad *Error
	p.Time, p.Comments, bad = plyClock([]*grammar.Comment{{Pos: pos, Text: native}})
	for i, c := range p.Comments {
		p.Comments[i] = strings.TrimSpace(c)
	}
	if bad != nil && g.ClockErr == nil {
		// Said as written: {%ts …}.
		bad.Message = strings.NewReplacer("[%", "{%", "]", "}").Replace(bad.Message)
		bad.Ply, bad.Move = len(g.Plies)+1, p.Text()
		bad.Side = g.firstSide()
		if p.Second {
			bad.Side = bad.Side.Opponent()
		}
		g.ClockErr = bad
	}
}

// firstSide returns the side that plays the game's first ply: the set-up
// position's, else the rules'.
func (g *Game) firstSide() engine.Side {
	switch {
	case g.Setup != nil:
		return g.Setup.ToMove
	case g.Variant != nil:
		return g.Variant.FirstSide
	}
	return engine.Attackers
}

// otgVariantName names rules read from an OpenTafl record: the built-in
// variant with the same rules, else the rules string's name, else
// "custom".
func otgVariantName(v *engine.Variant) string {
	if b := builtinFor(v); b != nil {
		return b.Name
	}
	if v.Name != "" {
		return v.Name
	}
	return UnnamedRules
}

// builtinFor returns the built-in variant with v's rules, or nil.
func builtinFor(v *engine.Variant) *engine.Variant {
	for _, b := range engine.Variants() {
		if SameRules(v, b) {
			return b
		}
	}
	return nil
}

// FromCSV turns a parsed CSV game into a Game under variant v (CSV files
// do not name their rules). A final "timeout" sets Termination.
func FromCSV(c *grammar.CSVGame, v *engine.Variant) *Game {
	g := &Game{}
	fromCSV(g, c, v, make([]Ply, len(c.Plies)))
	return g
}

// fromCSV fills g, a zero Game, as FromCSV describes; plies is a zero slice
// for its plies.
func fromCSV(g *Game, c *grammar.CSVGame, v *engine.Variant, plies []Ply) {
	g.Filename, g.Format, g.Number, g.Line, g.Col = c.Pos.Filename, FormatCSV, c.Line, c.Pos.Line, c.Pos.Column
	g.Variant, g.VariantName, g.Result = v, v.Name, c.Result()
	g.CaptureCounts = &[2]int{c.AttackerCaptures, c.DefenderCaptures}
	g.Plies = plies
	if g.Line == 0 {
		g.Line, g.Col = c.Line, 1
	}
	for i, p := range c.Plies {
		// A field, and only when it differs (ScanGames uses the plies
		// again): see grammar's plyPlacer.ply.
		if g.Plies[i].Ply != p {
			g.Plies[i].Ply = p
		}
	}
	if n := len(c.Plies); n > 0 {
		switch last := c.Plies[n-1]; {
		case last.Timeout:
			g.Termination = "timeout"
		case last.Resign:
			g.Termination = "resignation"
		}
	}
}

// startPosition returns the position the game starts from; in sc's
// memory when sc is not nil and the start is the file's shared one.
func (g *Game) startPosition(sc *replayScratch) (*engine.Position, error) {
	if g.Setup != nil {
		return engine.NewPositionFromBoard(g.Variant, g.Setup.Board, g.Setup.ToMove)
	}
	if sc != nil && g.start.copyInto(g.Variant, &sc.pos) {
		return &sc.pos, nil
	}
	if p := g.start.position(g.Variant); p != nil {
		return p, nil
	}
	return engine.NewPosition(g.Variant)
}

// replayScratch is memory that Game.Replay uses instead of allocating:
// the results of the plies and the start position. ScanGames lends it to
// each game it hands out (Game.scratch), for the first Replay of the game.
type replayScratch struct {
	plies []PlyResult
	pos   engine.Position
}

// results returns n zero results from sc's memory, or new ones when sc is
// nil.
func (sc *replayScratch) results(n int) []PlyResult {
	if sc == nil {
		return make([]PlyResult, n)
	}
	sc.plies = slices.Grow(sc.plies[:0], n)[:n]
	clear(sc.plies)
	return sc.plies
}

// startCache is the start position of a variant, built once for the games
// of a file: a replay clones it, which costs a fraction of
// engine.NewPosition (that works out the board's geometry, the start board
// and its outcome again for every game; half of a CSV game's replay time).
type startCache struct {
	variant *engine.Variant // the variant the position was built from
	rules   engine.Variant  // a deep copy of it, to notice a change in place
	pos     *engine.Position
}

// newStartCache returns the start position of v, or nil when v is not
// usable (replay then reports why).
func newStartCache(v *engine.Variant) *startCache {
	if v == nil {
		return nil
	}
	pos, err := engine.NewPosition(v)
	if err != nil {
		return nil
	}
	rules := *v
	rules.Start = slices.Clone(v.Start)
	rules.Throne.Squares = slices.Clone(v.Throne.Squares)
	rules.Corners.Squares = slices.Clone(v.Corners.Squares)
	return &startCache{variant: v, rules: rules, pos: pos}
}

// position returns a copy of the start position when v is the variant it
// was built from, unchanged; else nil. It is safe for concurrent use.
func (c *startCache) position(v *engine.Variant) *engine.Position {
	if c == nil || v != c.variant || !sameVariant(v, &c.rules) {
		return nil
	}
	return c.pos.Clone()
}

// copyInto is position writing into q: it reports false, leaving q alone,
// where position returns nil.
func (c *startCache) copyInto(v *engine.Variant, q *engine.Position) bool {
	if c == nil || v != c.variant || !sameVariant(v, &c.rules) {
		return false
	}
	c.pos.CopyInto(q)
	return true
}

// sameVariant reports whether a and b are equal in every field
// (TestSameVariant checks that it compares them all).
func sameVariant(a, b *engine.Variant) bool {
	return a.Name == b.Name && a.Title == b.Title && a.Summary == b.Summary && a.Source == b.Source &&
		a.Tier == b.Tier && a.Size == b.Size && slices.Equal(a.Start, b.Start) && a.FirstSide == b.FirstSide &&
		a.Escape == b.Escape && a.KingArms == b.KingArms && a.KingCapture == b.KingCapture && a.KingEdge == b.KingEdge &&
		sameSquareRuleExactly(a.Throne, b.Throne) && sameSquareRuleExactly(a.Corners, b.Corners) &&
		a.Shieldwall == b.Shieldwall && a.ShieldwallCorners == b.ShieldwallCorners && a.EdgeFort == b.EdgeFort &&
		a.Encirclement == b.Encirclement && a.Repetition == b.Repetition && a.NoMove == b.NoMove
}

func sameSquareRuleExactly(a, b engine.SquareRule) bool {
	return a.Present == b.Present && a.Stop == b.Stop && a.Pass == b.Pass && a.HostileEmpty == b.HostileEmpty &&
		a.HostileOccupied == b.HostileOccupied && slices.Equal(a.Squares, b.Squares)
}

// pos returns the lexer position of ply i, or the game's.
func (g *Game) plyPos(i int) grammar.Position {
	if i >= 0 && i < len(g.Plies) {
		return g.Plies[i].Ply.Pos
	}
	return grammar.Position{Filename: g.Filename, Line: g.Line, Column: g.Col}
}
