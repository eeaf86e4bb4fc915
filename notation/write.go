package notation

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
)

// Writers: a replayed game as a canonical native record, an OpenTafl
// record, or a CSV line. Every ply the engine played is written from what
// the engine did, not from the marks of the source: lower-case OTN, "K"
// before a king's move, every capture after one "x", squares separated by
// "/" and the king as "K<square>" (native, OpenTafl), or one "x<square>"
// per capture and no king (CSV). Plies the engine did not play (after an
// illegal move) are written as they were read. The result and termination
// are the engine's where the rules end the game on the last ply, else the
// record's (a final resignation or time-out decides who won).

// canWrite reports why r cannot be written: a game whose rules or start
// position cannot be used (Game.SetupErr).
func canWrite(r *Replay) error {
	switch {
	case r.Game.SetupErr != nil:
		return r.Game.SetupErr
	case r.Game.Variant == nil:
		return &Error{Kind: KindSetup, Game: r.Game.Number, Message: "game has no rules"}
	}
	return nil
}

// Record returns the game as a canonical native record (docs/notation.md,
// "Canonical form"): the tags in the recommended order (Event, Site, Date,
// Round, Attackers, Defenders, Variant or Rules, Position and ToMove for a
// set-up position, TimeControl, Start, AttackersLeave, DefendersLeave (in
// canonical form when they parse), any others as read, Result,
// Termination), the source's comments, the plies numbered in pairs with
// the attackers' ply first, each ply's clock data (Ply.Time: [%ts],
// [%avail], [%clk]) as the first comment after it. A built-in variant is named by the Variant tag (with Position
// and ToMove when only the start differs, as in a defenders-first game);
// other rules are given in full by a Rules tag. It fails for a game
// without usable rules (Game.SetupErr).
func (r *Replay) Record() (*grammar.Record, error) {
	if err := canWrite(r); err != nil {
		return nil, err
	}
	g := r.Game
	rec := &grammar.Record{}
	tag := func(name, value string) {
		rec.Tags = append(rec.Tags, &grammar.Tag{Name: name, Value: value})
	}
	used := map[string]bool{}
	fromGame := func(names ...string) {
		for _, n := range names {
			for _, t := range g.Tags {
				if t.Name == n && !used[n] {
					tag(n, canonicalTag(n, t.Value))
					used[n] = true
				}
			}
		}
	}
	fromGame("Event", "Site", "Date", "Round", "Attackers", "Defenders")
	name, rules, setup := r.rulesForNative()
	if name != "" {
		tag("Variant", name)
	}
	if rules != "" {
		tag("Rules", rules)
	}
	if setup != nil {
		tag("Position", FormatBoard(setup.Board))
		tag("ToMove", setup.ToMove.String())
	}
	fromGame(TagTimeControl, TagStart, TagAttackersLeave, TagDefendersLeave)
	for _, t := range g.Tags {
		if !used[t.Name] && !fieldTags[t.Name] && tagNameRE.MatchString(t.Name) {
			tag(t.Name, oneLine(t.Value))
		}
	}
	result, term := r.result()
	tag("Result", result.String())
	if term != "" {
		tag("Termination", term)
	}
	for _, c := range g.Comments {
		rec.Comments = append(rec.Comments, &grammar.Comment{Text: nativeComment(c)})
	}
	number := 1
	if g.Setup != nil && len(g.Plies) > 0 && g.Plies[0].Number > 0 {
		number = g.Plies[0].Number
	}
	var turn *grammar.Turn
	for i := range g.Plies {
		side := r.Plies[i].Side
		if i > 0 && side == engine.Attackers {
			number++
		}
		a := &grammar.AnnotatedPly{Ply: r.canonicalPly(i)}
		if c := g.Plies[i].Time.comment(); c != "" {
			a.Comments = append(a.Comments, &grammar.Comment{Text: c})
		}
		for _, c := range g.Plies[i].Comments {
			a.Comments = append(a.Comments, &grammar.Comment{Text: nativeComment(c)})
		}
		if side == engine.Defenders && turn != nil && turn.Number == number && turn.Second == nil {
			turn.Second = a
			continue
		}
		turn = &grammar.Turn{Number: number}
		if side == engine.Attackers {
			turn.First = a
		} else {
			turn.Second = a
		}
		rec.Turns = append(rec.Turns, turn)
	}
	rec.Result = &grammar.Result{Outcome: result}
	return rec, nil
}

// tagNameRE is the form of a native tag name.
var tagNameRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// rulesForNative decides how a native record names the game's rules: a
// built-in's name, or an OTN rules string; and the set-up position to
// write, if any.
func (r *Replay) rulesForNative() (name, rules string, setup *Setup) {
	g := r.Game
	v := g.Variant
	setup = g.Setup
	if b := builtinFor(v); b != nil {
		return b.Name, "", setup
	}
	for _, b := range engine.Variants() {
		alt := *v
		alt.Start, alt.FirstSide = b.Start, b.FirstSide
		if !SameRules(&alt, b) {
			continue
		}
		if setup == nil {
			board, _ := v.StartBoard()
			setup = &Setup{Board: board, ToMove: v.FirstSide}
		}
		return b.Name, "", setup
	}
	s, _ := RulesString(v)
	return "", s, setup
}

// result returns the result and termination to write: the engine's when
// the rules end the game on the last ply, "the other side won" after a
// final resignation or time-out, else the record's.
func (r *Replay) result() (grammar.Outcome, string) {
	g := r.Game
	n := len(g.Plies)
	if r.Legal && r.End.Over() && (n == 0 || g.Plies[n-1].Ply.Move != nil) {
		return outcomeOf(r.End.Result), terminationOf(r.End.Reason)
	}
	if n > 0 && g.Plies[n-1].Ply.Move == nil && r.Legal {
		side := r.Plies[n-1].Side
		term := "resignation"
		if g.Plies[n-1].Ply.Timeout {
			term = "timeout"
		}
		return outcomeOf(winResult(side.Opponent())), term
	}
	return g.Result, g.Termination
}

// TerminationRewritten says how the writers (Record, WriteNative,
// WriteOTG) change the termination the record states: "" when they keep
// it, else a sentence such as `termination "Black resigns" is written as
// "king escaped": the engine ends the game at ply 39 (defenders win:
// escape)`. It concerns records whose free-text termination is read
// loosely (OpenTafl's); a native record whose Termination contradicts its
// end has a result error in Errors instead, and this is "" for it. convert
// prints it as a warning, so that no termination is replaced silently.
func (r *Replay) TerminationRewritten() string {
	g := r.Game
	if g.Format == FormatNative || g.TerminationText == "" || hasKind(r.Errors, KindResult) {
		return ""
	}
	_, term := r.result()
	if term == g.Termination {
		return ""
	}
	why := "the record ends that way"
	if r.End.Over() {
		why = fmt.Sprintf("the engine ends the game at ply %d (%s)", r.End.Ply, outcomeWords(r.End))
	}
	return fmt.Sprintf("termination %q is written as %q: %s", g.TerminationText, term, why)
}

// hasKind reports whether errs holds an error of kind k.
func hasKind(errs []*Error, k Kind) bool {
	for _, e := range errs {
		if e.Kind == k {
			return true
		}
	}
	return false
}

// terminationOf returns the native Termination value of an engine reason.
func terminationOf(reason engine.Reason) string {
	switch reason {
	case engine.ReasonEscape:
		return "king escaped"
	case engine.ReasonDrawAgreed:
		return "agreement"
	case engine.NoReason:
		return ""
	}
	return reason.String()
}

// canonicalPly returns ply i as taflmail writes it (see the top of
// write.go).
func (r *Replay) canonicalPly(i int) *grammar.Ply {
	src := r.Game.Plies[i].Ply
	pr := r.Plies[i]
	if !pr.Played {
		// A fresh copy, lower case: the record must not share the
		// source's nodes.
		if src.Move == nil {
			return &grammar.Ply{Resign: src.Resign, Timeout: src.Timeout}
		}
		if p, err := grammar.ParsePly("", []byte(src.String())); err == nil {
			return p
		}
		return src
	}
	sq := func(s engine.Square) *grammar.Square { return &grammar.Square{File: s.File(), Rank: s.Rank() + 1} }
	m := &grammar.Move{King: pr.Piece == engine.King, From: sq(pr.Move.From), To: sq(pr.Move.To)}
	if len(pr.Captures) > 0 {
		c := &grammar.Capture{}
		king := pr.KingCaptured()
		for _, s := range pr.Captures {
			c.Pieces = append(c.Pieces, &grammar.Captured{King: king && s == pr.King, Square: sq(s)})
		}
		m.Captures = []*grammar.Capture{c}
	}
	return &grammar.Ply{Move: m}
}

// WriteNative writes the replayed games as canonical native records
// (Replay.Record, grammar.WriteRecord), separated by blank lines. It
// returns the first error of Record, WriteRecord or w.
func WriteNative(w io.Writer, rs ...*Replay) error {
	for i, r := range rs {
		rec, err := r.Record()
		if err != nil {
			return err
		}
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if err := grammar.WriteRecord(w, rec); err != nil {
			return err
		}
	}
	return nil
}

// WriteOTG writes one replayed game as an OpenTafl record (OTN spec §4):
// the game's tags with OpenTafl's keys (Event → event, TimeControl →
// time-control, others kebab-cased: PuzzleMode → puzzle-mode), result
// (1, -1, 0 or ?), termination, the rules tag: the game's rules as an OTN
// rules string whose start (and atkf) are the position the game starts
// from, and the comments before the first move as start-comment (as in
// the OpenTafl records of shared/records, after the rules tag). Then a blank line and the turns "1. d1-d3 h6-h9", numbered
// in pairs with the first mover's ply first, each followed by its comment
// line "[first|second]" when a ply has a comment; a resignation is OTN's
// "---". The clock data of a timed record is kept where OpenTafl lets
// it be (docs/notation.md, "Converting"): a TimeControl taflmail reads as
// tm-time-control, Start and the leave tags as start, attackers-leave and
// defenders-leave, each ply's %ts, %avail and %clk at the start of its
// comment in braces ({%ts 2026-11-28T21:52:10Z}), and a final time-out,
// which OTN has no symbol for, as the tag tm-timeout (its value the
// ply's comment) beside the termination tag. FromOTG reads all of it
// back. Tag values and comments
// lose what OpenTafl cannot hold: line breaks become blanks, "]" becomes
// ")" and, in comments, "|" becomes "/". It fails for a game without
// usable rules.
func WriteOTG(w io.Writer, r *Replay) error {
	if err := canWrite(r); err != nil {
		return err
	}
	g := r.Game
	bw := bufio.NewWriter(w)
	for _, t := range g.Tags {
		fmt.Fprintf(bw, "[%s:%s]\n", otgTagKey(t), otgText(t.Value, false))
	}
	result, term := r.result()
	fmt.Fprintf(bw, "[result:%s]\n", map[grammar.Outcome]string{grammar.AttackersWin: "1", grammar.DefendersWin: "-1", grammar.Draw: "0", grammar.Unfinished: "?"}[result])
	if g.TerminationText != "" && terminationWords(g.TerminationText) == term {
		term = g.TerminationText
	}
	if term != "" {
		fmt.Fprintf(bw, "[termination:%s]\n", otgText(term, false))
	}
	if n := len(g.Plies); n > 0 && g.Plies[n-1].Ply.Timeout {
		// OTN has no time-out ply; this tag stands for it.
		fmt.Fprintf(bw, "[%s:%s]\n", otgTimeout, otgPlyText(g.Plies[n-1]))
	}
	v := *g.Variant
	if g.Setup != nil {
		v.Start, v.FirstSide = startRows(g.Setup.Board), g.Setup.ToMove
	}
	rules, err := RulesString(&v)
	if err != nil {
		return err
	}
	fmt.Fprintf(bw, "[rules:%s]\n", rules)
	if c := otgComments(g.Comments); c != "" {
		fmt.Fprintf(bw, "[start-comment:%s]\n", c)
	}
	// Plies in turns: the first mover's ply and the other side's after it.
	// A time-out has no OTN symbol; the termination tag says it.
	var idx []int
	for i, p := range g.Plies {
		if !p.Ply.Timeout {
			idx = append(idx, i)
		}
	}
	lead := v.FirstSide
	number := 0
	for k := 0; k < len(idx); k++ {
		number++
		var first, second *grammar.Ply
		var c1, c2 string
		i := idx[k]
		if r.Plies[i].Side == lead {
			first, c1 = r.canonicalPly(i), otgPlyText(g.Plies[i])
			if k+1 < len(idx) {
				k++
				i = idx[k]
				second, c2 = r.canonicalPly(i), otgPlyText(g.Plies[i])
			}
		} else {
			second, c2 = r.canonicalPly(i), otgPlyText(g.Plies[i])
		}
		fmt.Fprintf(bw, "\n%d.", number)
		if first == nil {
			bw.WriteString(" .....")
		} else {
			bw.WriteString(" " + first.String())
		}
		if second != nil {
			bw.WriteString(" " + second.String())
		}
		bw.WriteString("\n")
		if c1 != "" || c2 != "" {
			if second != nil && first != nil {
				fmt.Fprintf(bw, "[%s|%s]\n", c1, c2)
			} else {
				fmt.Fprintf(bw, "[%s]\n", c1+c2)
			}
		}
	}
	return bw.Flush()
}

// otgText makes a tag value or comment fit in OpenTafl brackets.
func otgText(s string, comment bool) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.ReplaceAll(s, "]", ")")
	if comment {
		s = strings.ReplaceAll(s, "|", "/")
	}
	return s
}

// otgPlyText returns the comment of ply p for an OpenTafl comment line:
// its clock data first, in braces ({%ts …} {%avail …} {%clk …}: OpenTafl's
// comments end at "]"; and they do not start with a digit, which OpenTafl
// would take for its own clock display), then its comments.
func otgPlyText(p Ply) string {
	clock := strings.NewReplacer("[%", "{%", "]", "}").Replace(p.Time.comment())
	text := otgComments(p.Comments)
	if clock != "" && text != "" {
		return clock + " " + text
	}
	return clock + text
}

// otgTagKey returns the OpenTafl key of tag t (kebabTag), except that a
// TimeControl taflmail reads goes to tm-time-control: OpenTafl's
// time-control has its own syntax (seconds) and would read "30d+1d" as 30
// seconds; one it does not read stays OpenTafl's time-control, as does
// OpenTafl's own beside taflmail's (OpenTaflTimeControl).
func otgTagKey(t Tag) string {
	switch t.Name {
	case TagTimeControl:
		if _, err := ParseTimeControl("", t.Value); err == nil {
			return otgTimeControl
		}
	case tagOpenTaflTimeControl:
		return "time-control"
	}
	return kebabTag(t.Name)
}

// otgComments joins a ply's comments for an OpenTafl comment line.
func otgComments(cs []string) string {
	parts := make([]string, 0, len(cs))
	for _, c := range cs {
		if c = otgText(c, true); c != "" {
			parts = append(parts, c)
		}
	}
	return strings.Join(parts, " ")
}

// nativeComment makes a comment fit in native braces.
func nativeComment(s string) string { return strings.ReplaceAll(s, "}", ")") }

// oneLine makes a tag value fit on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// WriteCSV writes the replayed games in the CSV exchange format
// (shared/records/README.md), one line each: the plies, attackers first,
// each "from-to" followed by "x<square>" for each captured piece but the
// king; a final time-out as "timeout" (a resignation has no token there
// and is left out: the outcome says who won); the numbers of capture marks
// of the attackers and of the defenders, as the corpus counts them; and
// the outcome Black, White, Draw or Ongoing. The format has no tags,
// comments or rules: it fails for a game that starts from a set-up
// position or with the defenders, or without usable rules. Whoever reads
// the line back must know the variant.
func WriteCSV(w io.Writer, rs ...*Replay) error {
	bw := bufio.NewWriter(w)
	for _, r := range rs {
		if err := canWrite(r); err != nil {
			return err
		}
		g := r.Game
		if g.Setup != nil || g.Variant.FirstSide != engine.Attackers {
			return &Error{Kind: KindSetup, Filename: g.Filename, Line: g.Line, Col: g.Col, Game: g.Number,
				Message: "the CSV format cannot hold a game that starts from a set-up position or with the defenders; write native or otg"}
		}
		var counts [2]int
		sep := ""
		for i := range g.Plies {
			p := r.Plies[i]
			src := g.Plies[i].Ply
			var text string
			switch {
			case src.Resign:
				continue
			case src.Timeout:
				text = "timeout"
			case p.Played:
				var b strings.Builder
				b.WriteString(p.Move.String())
				for _, s := range p.Captures {
					if p.KingCaptured() && s == p.King {
						continue
					}
					b.WriteString("x" + s.String())
					counts[p.Side]++
				}
				text = b.String()
			default:
				text = src.String()
				for _, c := range src.Move.Captures {
					counts[p.Side] += len(c.Pieces)
				}
			}
			bw.WriteString(sep + text)
			sep = " "
		}
		result, _ := r.result()
		outcome := map[grammar.Outcome]string{grammar.AttackersWin: "Black", grammar.DefendersWin: "White", grammar.Draw: "Draw", grammar.Unfinished: "Ongoing"}[result]
		bw.WriteString("," + strconv.Itoa(counts[0]) + "," + strconv.Itoa(counts[1]) + "," + outcome + "\n")
	}
	return bw.Flush()
}
