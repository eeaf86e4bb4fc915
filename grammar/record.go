package grammar

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Record is one game in taflmail's native record format (docs/notation.md):
// PGN-style tag pairs, then numbered move text with {comments}, then a result
// token. A file may hold several records; each starts with its tag section.
//
//	[Variant "copenhagen"]
//	[Result "defenders"]
//
//	1. d1-d3 h6-h9 2. k4-i4 {threat} f8-c8 defenders
type Record struct {
	Pos lexer.Position
	// Tags in the order written. Names are case-sensitive; the tags
	// described in docs/notation.md are checked, others are kept as they
	// are. No name occurs twice.
	Tags []*Tag `parser:"@@*"`
	// Comments before the first move.
	Comments []*Comment `parser:"@@*"`
	Turns    []*Turn    `parser:"@@*"`
	// Result is the result token that ends the move text.
	Result *Result `parser:"@@"`

	// Rules is the OTN rules string of the Rules tag, parsed; nil when the
	// record has no Rules tag. It is derived by ParseRecords (positions
	// point into the tag's value); WriteRecord prints the tag, not this.
	Rules *Rules
}

// Tag is one tag pair, [Name "value"]. Value is unescaped: in the source a
// double quote is written \" and a backslash \\; no other escapes exist, and
// a value cannot span lines.
type Tag struct {
	Pos   lexer.Position
	Name  string `parser:"'[':Open @Ident"`
	Value string `parser:"@String ']':Close"`
}

// Comment is a {comment} in the move text. Text is everything between the
// braces, line breaks included; it cannot contain "}".
type Comment struct {
	Pos  lexer.Position
	Text string `parser:"@Comment"`
}

// Turn is one numbered move pair: "12. d1-d3 h6-h9". A move number counts
// pairs of plies, attackers' ply first (RULES.md §0). "12..." introduces a
// lone second ply, e.g. when a record starts with the defenders or after a
// comment; then First is nil. A turn with only First is the last of a game
// that ended after the first ply. Whether numbers follow each other is not
// checked here.
type Turn struct {
	Pos    lexer.Position
	Number int           `parser:"@Int"`
	First  *AnnotatedPly `parser:"( '.':Dots @@"`
	Second *AnnotatedPly `parser:"  @@? | '...':Dots @@ )"`
}

// AnnotatedPly is a ply in the move text with the comments that follow it.
type AnnotatedPly struct {
	Pos      lexer.Position
	Ply      *Ply       `parser:"@@"`
	Comments []*Comment `parser:"@@*"`
}

// Result is the result token at the end of a record's move text.
type Result struct {
	Pos     lexer.Position
	Outcome Outcome `parser:"@('attackers':Word | 'defenders':Word | 'draw':Word | '*':Star)"`
}

// Outcome is who won a game: the value of a native record's result token and
// Result tag, of a CSV game's outcome and of an OpenTafl result tag. How the
// game ended (king captured, resignation, …) is the Termination tag's job.
type Outcome int

// The outcomes, with their spelling in the native record format.
const (
	Unfinished   Outcome = iota // "*": the game goes on (or was abandoned)
	AttackersWin                // "attackers"
	DefendersWin                // "defenders"
	Draw                        // "draw"
)

var outcomeNames = [...]string{Unfinished: "*", AttackersWin: "attackers", DefendersWin: "defenders", Draw: "draw"}

// String returns the outcome as written in the native format: "*",
// "attackers", "defenders" or "draw".
func (o Outcome) String() string {
	if o < 0 || int(o) >= len(outcomeNames) {
		return fmt.Sprintf("Outcome(%d)", int(o))
	}
	return outcomeNames[o]
}

// Capture implements participle.Capture for the result token.
func (o *Outcome) Capture(values []string) error {
	v := strings.Join(values, "")
	out, ok := parseOutcome(v)
	if !ok {
		return fmt.Errorf("unknown outcome %q", v)
	}
	*o = out
	return nil
}

// parseOutcome reads a native-format outcome word.
func parseOutcome(s string) (Outcome, bool) {
	for i, name := range outcomeNames {
		if s == name {
			return Outcome(i), true
		}
	}
	return 0, false
}

// Tag returns the value of the tag with the given (case-sensitive) name.
func (r *Record) Tag(name string) (string, bool) {
	if t := r.tag(name); t != nil {
		return t.Value, true
	}
	return "", false
}

func (r *Record) tag(name string) *Tag {
	for _, t := range r.Tags {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// Plies returns the record's plies in the order played, without comments.
func (r *Record) Plies() []*Ply {
	var out []*Ply
	for _, t := range r.Turns {
		for _, a := range []*AnnotatedPly{t.First, t.Second} {
			if a != nil {
				out = append(out, a.Ply)
			}
		}
	}
	return out
}

type recordFile struct {
	Records []*Record `parser:"@@*"`
}

var recordParser = participle.MustBuild[recordFile](
	participle.Lexer(recordLexerGen),
	participle.CaseInsensitive("Letter"),
	participle.UseLookahead(0),
)

// unquoteTagValue removes the quotes and the escapes of a tag value as
// lexed. The lexer admits only \" and \\, so this cannot fail.
func unquoteTagValue(s string) string {
	if len(s) < 2 {
		return s
	}
	s = s[1 : len(s)-1]
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// stripBraces removes the braces of a comment as lexed.
func stripBraces(s string) string {
	if len(s) < 2 {
		return s
	}
	return s[1 : len(s)-1]
}

// finish turns the lexed text of tag values and comments into their
// values. (A participle.Map would do it earlier, but then error messages
// would quote the changed text.)
func (r *Record) finish() {
	for _, t := range r.Tags {
		t.Value = unquoteTagValue(t.Value)
	}
	strip := func(cs []*Comment) {
		for _, c := range cs {
			c.Text = stripBraces(c.Text)
		}
	}
	strip(r.Comments)
	for _, t := range r.Turns {
		for _, a := range []*AnnotatedPly{t.First, t.Second} {
			if a != nil {
				strip(a.Comments)
			}
		}
	}
}

// ParseRecords parses a file of records in the native format (see
// docs/notation.md). An empty file holds no records. filename is used in
// error positions only. Besides the grammar, it checks the tags described
// in docs/notation.md (Date, Variant, Rules, Position with ToMove, Result,
// Termination) and that the Result tag, if present, agrees with the result
// token. Errors are *Error.
//
// The grammar (recordParser) is the definition, but it costs tens of
// microseconds a ply, so ParseRecords first reads the file with a
// splitter that understands the plain form WriteRecord writes (see
// recordSplitter) and reads the ply texts through a plyMemo (participle
// once per token shape), as ParseCSV does. A file it does not understand
// entirely, and every file with an error, goes to the grammar, so the
// errors (file:line:col) are the grammar's. TestParseRecordsSame and
// FuzzParseRecordsSame check that both give the same trees, positions
// included (docs/performance.md).
func ParseRecords(filename string, src []byte) (recs []*Record, err error) {
	defer guard(filename, &err)
	recs, _, err = splitRecords(filename, src)
	return recs, err
}

// parseRecordsGrammar parses a file of native records with the grammar
// alone.
func parseRecordsGrammar(filename string, src []byte) (recs []*Record, err error) {
	defer guard(filename, &err)
	if e := checkText(filename, src); e != nil {
		return nil, e
	}
	recs, serr := parseRecordsSyntax(filename, src)
	if serr != nil {
		return nil, serr
	}
	if err := checkRecords(filename, src, recs); err != nil {
		return nil, err
	}
	return recs, nil
}

// parseRecordsSyntax reads src with the grammar, without the checks
// after it (checkRecords): the records, or the grammar's error (a lexer's
// or a parser's), converted.
func parseRecordsSyntax(filename string, src []byte) ([]*Record, *Error) {
	f, err := recordParser.ParseBytes(filename, src)
	if err != nil {
		return nil, convertError(err, filename, src, "")
	}
	if f.Records == nil {
		return []*Record{}, nil
	}
	return f.Records, nil
}

// checkRecords finishes the records the grammar read from src and checks
// them in order (checkPlies, checkRecord): the first problem, converted.
func checkRecords(filename string, src []byte, recs []*Record) *Error {
	for _, r := range recs {
		r.finish()
		if err := checkPlies(src, r.Plies()...); err != nil {
			return convertError(err, filename, src, "")
		}
		if err := checkRecord(r, src); err != nil {
			return convertError(err, filename, src, "")
		}
	}
	return nil
}

// The tags whose values are checked; see docs/notation.md.
var (
	dateRE    = regexp.MustCompile(`^[0-9?]{4}\.[0-9?]{2}\.[0-9?]{2}$`)
	variantRE = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	// An OTN position: rows of empty-square counts and piece letters, each
	// row followed by "/", starting with "/".
	positionRE = regexp.MustCompile(`^/(?:(?:[1-9][0-9]*|[tTkKnNcCmMgG])+/)+$`)
	tagNameRE  = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)
)

// calendarProblem says why a Date of the form YYYY.MM.DD (dateRE; "?" for
// an unknown digit) names no day of the Gregorian calendar, or "" when
// some day fits it: "no month 13", "April 2026 has 30 days".
func calendarProblem(date string) string {
	y, m, d := date[0:4], date[5:7], date[8:10]
	if !fits(m, 1, 12) {
		return "no month " + m
	}
	if !fits(d, 1, 31) {
		return "no day " + d
	}
	if strings.Contains(m+d, "?") {
		return ""
	}
	month, _ := strconv.Atoi(m)
	day, _ := strconv.Atoi(d)
	if strings.Contains(y, "?") {
		if days := monthDays(month, 2000); day > days { // 2000 is a leap year: the most days
			return fmt.Sprintf("%s has %d days", time.Month(month), days)
		}
		return ""
	}
	year, _ := strconv.Atoi(y)
	if days := monthDays(month, year); day > days {
		return fmt.Sprintf("%s %d has %d days", time.Month(month), year, days)
	}
	return ""
}

// fits reports whether some number from lo to hi, written with two
// digits, matches field, whose "?" stand for any digit.
func fits(field string, lo, hi int) bool {
	for n := lo; n <= hi; n++ {
		s := fmt.Sprintf("%02d", n)
		if (field[0] == '?' || field[0] == s[0]) && (field[1] == '?' || field[1] == s[1]) {
			return true
		}
	}
	return false
}

// monthDays is the number of days of month (1 to 12) in year.
func monthDays(month, year int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// terminations lists the values of the Termination tag, in the order of
// RULES.md §1.6 and §1.7: how a game ended. Leave the tag out while the game
// goes on. docs/notation.md lists them for users.
var terminations = []string{
	"king captured", "king escaped", "edge fort", "encirclement",
	"repetition", "no legal move", "resignation", "agreement", "timeout",
}

var sideValues = []string{"attackers", "defenders"}

func oneOf(v string, set []string) bool {
	for _, s := range set {
		if v == s {
			return true
		}
	}
	return false
}

func quoteList(set []string) string {
	q := make([]string, len(set))
	for i, s := range set {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, " or ")
}

// checkRecord checks tag values and derives r.Rules. src is the whole file.
func checkRecord(r *Record, src []byte) error {
	seen := map[string]bool{}
	for _, t := range r.Tags {
		if seen[t.Name] {
			return newError(t.Pos, "duplicate tag %s", t.Name)
		}
		seen[t.Name] = true
		switch t.Name {
		case "Date":
			if !dateRE.MatchString(t.Value) {
				return expectedError(t.Pos, "Date as YYYY.MM.DD (? for unknown digits)", quoteFound(t.Value))
			}
			if why := calendarProblem(t.Value); why != "" {
				return newError(t.Pos, "Date %q is not a calendar date: %s", t.Value, why)
			}
		case "Variant":
			if !variantRE.MatchString(t.Value) {
				return expectedError(t.Pos, "Variant as a lower-case name such as \"copenhagen\"", quoteFound(t.Value))
			}
		case "Result":
			if _, ok := parseOutcome(t.Value); !ok {
				return expectedError(t.Pos, "Result "+quoteList(outcomeNames[:]), quoteFound(t.Value))
			}
		case "ToMove":
			if !oneOf(t.Value, sideValues) {
				return expectedError(t.Pos, "ToMove "+quoteList(sideValues), quoteFound(t.Value))
			}
		case "Termination":
			if !oneOf(t.Value, terminations) {
				return expectedError(t.Pos, "Termination "+quoteList(terminations), quoteFound(t.Value))
			}
		case "Position":
			if !positionRE.MatchString(t.Value) {
				return expectedError(t.Pos, "Position as an OTN position such as \"/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/\"", quoteFound(t.Value))
			}
		case "Rules":
			rules, err := parseTagRules(t, src)
			if err != nil {
				return err
			}
			r.Rules = rules
		}
	}
	if p := r.tag("Position"); p != nil && r.tag("ToMove") == nil {
		return newError(p.Pos, "missing ToMove tag: a Position tag must say which side moves first (\"attackers\" or \"defenders\")")
	}
	if m := r.tag("ToMove"); m != nil && r.tag("Position") == nil {
		return newError(m.Pos, "missing Position tag: ToMove applies only to a Position")
	}
	if t := r.tag("Result"); t != nil && r.Result != nil {
		if o, _ := parseOutcome(t.Value); o != r.Result.Outcome {
			return expectedError(r.Result.Pos, strconv.Quote(t.Value)+" as in the Result tag", strconv.Quote(r.Result.Outcome.String()))
		}
	}
	return nil
}

// parseTagRules parses the value of a Rules tag in place, so that positions
// point into the file. The value's opening quote is the first '"' after the
// tag's '['.
func parseTagRules(t *Tag, src []byte) (*Rules, error) {
	if strings.ContainsAny(t.Value, `"\`) {
		return nil, newError(t.Pos, "rules string must not contain '\"' or '\\'")
	}
	off := t.Pos.Offset
	if off < 0 || off >= len(src) {
		return nil, newError(t.Pos, "cannot locate the Rules value")
	}
	q := strings.IndexByte(string(src[off:]), '"')
	if q < 0 {
		return nil, newError(t.Pos, "cannot locate the Rules value")
	}
	base := t.Pos
	base.Advance(string(src[off : off+q+1]))
	return parseRulesAt(base, t.Value, src)
}

// WriteRecord writes rec in canonical form: one tag pair per line, a blank
// line, the move text wrapped at 80 columns, the result token, a final line
// break. Plies are printed in lower-case OTN (Ply.String). The output parses
// back with ParseRecords to a record equal to rec (positions aside). To write
// several records to one file, separate them with a blank line.
//
// It returns a *Error, positioned at the node if it has a position, when
// rec cannot be written so that it parses back: a missing result, a tag name
// that is not a word, a tag value with a line break or control character, a
// comment containing "}", a turn without plies or a ply that is not exactly
// one of move, resignation and time-out. Write errors of w are returned as
// they are.
func WriteRecord(w io.Writer, rec *Record) error {
	if err := checkWritable(rec); err != nil {
		return err
	}
	_, err := io.WriteString(w, rec.String())
	return err
}

// String returns r in the canonical form of WriteRecord, without checking
// that it can be parsed back.
func (r *Record) String() string {
	var b strings.Builder
	for _, t := range r.Tags {
		fmt.Fprintf(&b, "[%s %s]\n", t.Name, quoteTagValue(t.Value))
	}
	if len(r.Tags) > 0 {
		b.WriteByte('\n')
	}
	var items []string
	for _, c := range r.Comments {
		items = append(items, c.String())
	}
	for _, t := range r.Turns {
		items = t.appendItems(items)
	}
	if r.Result != nil {
		items = append(items, r.Result.Outcome.String())
	}
	wrap(&b, items, 80)
	b.WriteByte('\n')
	return b.String()
}

// String returns the comment with its braces.
func (c *Comment) String() string { return "{" + c.Text + "}" }

// String returns the turn as in the move text, e.g. "12. d1-d3 h6-h9".
func (t *Turn) String() string { return strings.Join(t.appendItems(nil), " ") }

// appendItems appends the turn's items for wrap: the move number and the
// ply after it are one item, so that a line never ends with a number
// away from its ply ("6." / "k7-j7").
func (t *Turn) appendItems(items []string) []string {
	num := strconv.Itoa(t.Number) + "."
	plies := []*AnnotatedPly{t.First, t.Second}
	if t.First == nil {
		num += ".."
		plies = plies[1:]
	}
	n := len(items)
	for _, a := range plies {
		if a != nil {
			items = a.appendItems(items)
		}
	}
	if len(items) == n { // no ply: only the number (not writable)
		return append(items, num)
	}
	items[n] = num + " " + items[n]
	return items
}

func (a *AnnotatedPly) appendItems(items []string) []string {
	items = append(items, a.Ply.String())
	for _, c := range a.Comments {
		items = append(items, c.String())
	}
	return items
}

// quoteTagValue quotes a tag value, escaping '"' and '\'.
func quoteTagValue(v string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(v); i++ {
		if v[i] == '"' || v[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(v[i])
	}
	b.WriteByte('"')
	return b.String()
}

// wrap writes items separated by blanks, starting a new line before an item
// that would end beyond width columns.
func wrap(b *strings.Builder, items []string, width int) {
	col := 0
	for i, it := range items {
		first, _, multi := strings.Cut(it, "\n")
		if i > 0 {
			if col+1+utf8.RuneCountInString(first) > width {
				b.WriteByte('\n')
				col = 0
			} else {
				b.WriteByte(' ')
				col++
			}
		}
		b.WriteString(it)
		if multi {
			col = utf8.RuneCountInString(it[strings.LastIndexByte(it, '\n')+1:])
		} else {
			col += utf8.RuneCountInString(it)
		}
	}
}

// checkWritable reports why rec would not print as a record that parses
// back to it.
func checkWritable(rec *Record) error {
	if rec == nil {
		return &Error{Message: "nil record"}
	}
	for _, t := range rec.Tags {
		if !tagNameRE.MatchString(t.Name) {
			return newError(t.Pos, "tag name %s is not a word", quoteFound(t.Name))
		}
		if !utf8.ValidString(t.Value) || strings.ContainsFunc(t.Value, func(r rune) bool { return r != '\t' && isControl(r) }) {
			return newError(t.Pos, "tag %s: value contains a line break, control character or invalid UTF-8", t.Name)
		}
	}
	comments := func(cs []*Comment) error {
		for _, c := range cs {
			if strings.Contains(c.Text, "}") || !utf8.ValidString(c.Text) ||
				strings.ContainsFunc(c.Text, func(r rune) bool { return r != '\t' && r != '\n' && r != '\r' && isControl(r) }) {
				return newError(c.Pos, "comment contains \"}\", a control character or invalid UTF-8")
			}
		}
		return nil
	}
	if err := comments(rec.Comments); err != nil {
		return err
	}
	for _, t := range rec.Turns {
		if t.Number < 0 {
			return newError(t.Pos, "negative move number %d", t.Number)
		}
		if t.First == nil && t.Second == nil {
			return newError(t.Pos, "turn %d has no ply", t.Number)
		}
		for _, a := range []*AnnotatedPly{t.First, t.Second} {
			if a == nil {
				continue
			}
			if err := checkPly(a.Ply, a.Pos); err != nil {
				return err
			}
			if err := comments(a.Comments); err != nil {
				return err
			}
		}
	}
	if rec.Result == nil {
		return &Error{Message: "record has no result"}
	}
	if rec.Result.Outcome < Unfinished || rec.Result.Outcome > Draw {
		return newError(rec.Result.Pos, "invalid outcome %d", int(rec.Result.Outcome))
	}
	return nil
}

// checkPly reports a ply that would not print as valid notation.
func checkPly(p *Ply, pos lexer.Position) error {
	if p == nil {
		return newError(pos, "missing ply")
	}
	n := 0
	for _, b := range []bool{p.Resign, p.Timeout, p.Move != nil} {
		if b {
			n++
		}
	}
	if n != 1 {
		return newError(p.Pos, "ply must be exactly one of move, resignation and time-out")
	}
	if p.Move == nil {
		return nil
	}
	m := p.Move
	if err := checkSquare(m.From, m.Pos); err != nil {
		return err
	}
	if err := checkSquare(m.To, m.Pos); err != nil {
		return err
	}
	for _, c := range m.Captures {
		for _, pc := range c.Pieces {
			if pc.Square == nil && !pc.King {
				return newError(pc.Pos, "captured piece without square")
			}
			if pc.Square != nil {
				if err := checkSquare(pc.Square, pc.Pos); err != nil {
					return err
				}
			}
		}
	}
	switch m.Info {
	case "", "+", "++", "-", "--":
	default:
		return newError(m.Pos, "invalid info mark %q", m.Info)
	}
	return nil
}

func checkSquare(s *Square, pos lexer.Position) error {
	if s == nil {
		return newError(pos, "missing square")
	}
	if s.File < 0 || s.File >= MaxBoardSize || s.Rank < 1 || s.Rank > MaxBoardSize {
		return newError(s.Pos, "square file %d rank %d is off the notation's 19×19 board", s.File, s.Rank)
	}
	return nil
}
