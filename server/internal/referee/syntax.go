package referee

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/nearmiss"
)

// SyntaxError explains a line that does not parse: the line, a caret under
// the column, what was expected (in the sender's language), and a hint for
// a common slip.
func (ss *Session) SyntaxError(l CommandLine) string {
	var b strings.Builder
	b.WriteString(quoteLine(ss.Lang, l))
	var near *nearMiss
	if errors.As(l.Err, &near) { // a misspelt command (nearmiss.go)
		key := "err.didyoumean"
		if near.ownLine {
			key = "err.ownline"
		}
		b.WriteString(Tr(ss.Lang, key, near.phrase) + "\n" + Tr(ss.Lang, "err.nothing"))
		return b.String()
	}
	var ge *grammar.Error
	col := 1
	if errors.As(l.Err, &ge) {
		col = ge.Col
	}
	// a caret beyond a cut quote goes under its "…"
	b.WriteString("  " + strings.Repeat(" ", min(max(col-1, 0), MaxQuoteRunes)) + "^\n")
	if text := ss.squareText(ge); text != "" {
		b.WriteString(text)
	} else {
		b.WriteString(GrammarText(ss.Lang, l.Err))
	}
	if hint := ss.syntaxHint(l, ge); hint != "" {
		b.WriteString("\n" + hint)
	}
	b.WriteString("\n" + Tr(ss.Lang, "err.nothing"))
	return b.String()
}

// GrammarText says in lang what a grammar error says, as a sentence:
// "Expected …, found …." or the message; an error that is no
// *grammar.Error as it is.
func GrammarText(lang string, err error) string {
	var ge *grammar.Error
	switch {
	case !errors.As(err, &ge):
		return err.Error()
	case ge.Expected != "":
		return Tr(lang, "err.expected", ExpectedText(lang, ge.Expected), SyntaxPhrase(lang, ge.Found))
	}
	return SyntaxMessage(lang, ge.Message) + "."
}

// The grammar's expectations of a square's file and rank: its limits,
// those of the largest board (grammar.MaxBoardSize).
const (
	grammarFile = "file a to s"
	grammarRank = "rank 1 to 19"
)

// grammarTournamentID is the grammar's expectation of a tournament's id
// (grammar.TournamentID), as after "standings" alone.
const grammarTournamentID = "a tournament's id such as winter-2027"

// squareText says in the sender's language what a grammar error about a
// square's file or rank expected, with the range of the board of the game
// the mail is about ("Expected rank 1 to 11, found "12"." on 11×11), or
// returns "" for any other error, or when the mail is about no game of
// the sender's: then the grammar's limits are all there is to say.
func (ss *Session) squareText(ge *grammar.Error) string {
	if ge == nil || ge.Expected != grammarFile && ge.Expected != grammarRank {
		return ""
	}
	t := ss.ContextTable()
	if t == nil {
		return ""
	}
	n := t.Variant.Size
	expected := Tr(ss.Lang, "syntax.file.board", string(rune('a'+n-1)))
	if ge.Expected == grammarRank {
		expected = Tr(ss.Lang, "syntax.rank.board", n)
	}
	return Tr(ss.Lang, "err.expected", expected, SyntaxPhrase(ss.Lang, ge.Found))
}

// syntaxHint returns a hint for a line that does not parse, or "": how to
// write the dash of a move, a module's hint (its SyntaxHinter, module.go:
// the forms of a time control or of a leave's days), the command a
// misspelt one was near to, or, for a square beyond any board, which
// squares the game's board has.
func (ss *Session) syntaxHint(l CommandLine, ge *grammar.Error) string {
	if h := DashHint(ss.Lang, l.Text); h != "" {
		return h
	}
	if h := ss.FeatureHint(l, ge); h != "" {
		return h
	}
	if p := nearmiss.Command(l.Text); p != "" && ge != nil && ge.Col > 1 && !startsWith(l.Text, p) { // "remis anbiten"
		return Tr(ss.Lang, "hint.variant", `"`+p+`"`)
	}
	if ge != nil && ge.Expected == grammarTournamentID { // "standings" alone
		return Tr(ss.Lang, "hint.tournamentid")
	}
	if ge != nil && (ge.Expected == grammarRank || ge.Expected == grammarFile) {
		if t := ss.ContextTable(); t != nil {
			return BoardHint(ss.Lang, t)
		}
	}
	return ""
}

// startsWith reports whether the words of line begin with those of
// phrase, in any case: then the phrase is written right and the error is
// in what follows ("notify digest 25:00" is no "notify digest" to
// suggest: that line would set another time, outside trial §9).
func startsWith(line, phrase string) bool {
	l, p := strings.Fields(strings.ToLower(line)), strings.Fields(phrase)
	return len(l) >= len(p) && slices.Equal(l[:len(p)], p)
}

// SyntaxPhrases maps the grammar's words for what it expected or found
// (grammar.Error's Expected and Found) to catalogue keys; the English
// texts are the grammar's own. Quoted text from the line stays as it is.
var SyntaxPhrases = map[string]string{
	"end of line":  "syntax.eol",
	"end of input": "syntax.eoi",
	"a command (see help) or a move such as d1-d3": "syntax.command",
	"a move such as d1-d3":                         "syntax.move",
	"a mail address":                               "syntax.address",
	"a word":                                       "syntax.word",
	"a number":                                     "syntax.number",
	"number":                                       "syntax.number",
	grammarFile:                                    "syntax.file",
	grammarRank:                                    "syntax.rank",
	"square":                                       "syntax.square",
	"white space":                                  "syntax.whitespace",
	"a time control such as 30d+1d":                "syntax.timecontrol",
	"a time control such as none, 30d+1d or 3d/move": "syntax.timecontrol2",
	"a date as YYYY-MM-DD such as 2026-12-24":        "syntax.date",
	// issue 22 §1: the days of a leave command (grammar/leavedate.go)
	grammar.LeaveDateExpected: "syntax.leavedate",
	// trial 2 report §8
	"a time as HH:MM such as 07:00":   "syntax.timeofday",
	"a game id such as K7QX2M":        "syntax.gameid",
	"a duration such as 30d or 2d12h": "syntax.duration",
	`a unit "d", "h" or "m"`:          "syntax.unit",
	grammarTournamentID:               "syntax.tournamentid",
	"the key of your entry":           "syntax.entrykey",
	"the key I mailed you":            "syntax.confirmkey",
}

// SyntaxMessages map the grammar's messages without an expectation
// (grammar.Error.Message) to catalogue keys, their submatches to the
// arguments. The first match wins.
var SyntaxMessages = []struct {
	re  *regexp.Regexp
	Key string
}{
	{regexp.MustCompile(`^unexpected character (.+)$`), "syntax.char"},
	{regexp.MustCompile(`^number (.+) is too large$`), "syntax.toolarge"},
	{regexp.MustCompile(`^number (.+) has a leading zero$`), "syntax.leadingzero"},
	{regexp.MustCompile(`^control character (.+) not allowed$`), "syntax.control"},
	{regexp.MustCompile(`^invalid UTF-8 byte (.+)$`), "syntax.utf8"},
	{regexp.MustCompile(`^a command must fit on one line$`), "syntax.oneline"},
	{regexp.MustCompile(`^a command line may be at most ([0-9]+) bytes long; this one has ([0-9]+)$`), "syntax.toolong"},
	{regexp.MustCompile(`^unexpected white space inside move$`), "syntax.space"},
	{regexp.MustCompile(`^expected white space before move$`), "syntax.nospace"},
	{regexp.MustCompile(`^(.+) is not a day of the calendar$`), "syntax.nodate"},
	{regexp.MustCompile(`^a leave has one first and one last day \(a line for each leave\)$`), "syntax.leave.onespan"},
	{regexp.MustCompile(`^the dates of a leave must fit on one line$`), "syntax.leave.oneline"},
	{regexp.MustCompile(`^the time must be more than 0 \(write none for an untimed game\)$`), "syntax.zerotime"},
	// trial 2 report §8 (TestSyntaxTextsTranslated finds those missing)
	{regexp.MustCompile(`^(.+) is not a time of day$`), "syntax.notime"},
	{regexp.MustCompile(`^a time of day goes only with "digest" or "täglich"$`), "syntax.timedigest"},
	{regexp.MustCompile(`^the level is given twice$`), "syntax.twice.level"},
	{regexp.MustCompile(`^the side is given twice$`), "syntax.twice.side"},
	{regexp.MustCompile(`^the time control is given twice$`), "syntax.twice.time"},
	{regexp.MustCompile(`^rated is given twice$`), "syntax.twice.rated"},
	{regexp.MustCompile(`^the cap (.+) is less than the base time (.+)$`), "syntax.cap"},
	{regexp.MustCompile(`^units must come in the order d, h, m, each at most once \(as in 2d12h\)$`), "syntax.units"},
	{regexp.MustCompile(`^a duration of a time control may be at most ([0-9]+)d$`), "syntax.maxdays"},
	{regexp.MustCompile(`^a time control must fit on one line$`), "syntax.tconeline"},
	{regexp.MustCompile(`^max goes only with an increment \(<base>\+<inc> max <cap>\), not with <t>/move$`), "syntax.maxmove"},
	{regexp.MustCompile(`^the mail address (.+) has ([0-9]+) characters before the @, more than ([0-9]+)$`), "syntax.address.local"},
	{regexp.MustCompile(`^the mail address (.+) has ([0-9]+) characters, more than ([0-9]+)$`), "syntax.address.long"},
	{regexp.MustCompile(`^unexpected (.+)$`), "syntax.unexpected"},
}

// SyntaxPhrase translates one phrase of the grammar, or returns it as it is.
func SyntaxPhrase(lang, s string) string {
	if key, ok := SyntaxPhrases[s]; ok {
		return Tr(lang, key)
	}
	return s
}

// ExpectedText translates what the grammar expected: one phrase, or
// alternatives joined by " or ".
func ExpectedText(lang, s string) string {
	if _, ok := SyntaxPhrases[s]; ok {
		return SyntaxPhrase(lang, s)
	}
	alts := strings.Split(s, " or ")
	for i, a := range alts {
		alts[i] = SyntaxPhrase(lang, a)
	}
	return strings.Join(alts, Tr(lang, "syntax.or"))
}

// SyntaxMessage translates a message of the grammar, or returns it as it is.
func SyntaxMessage(lang, msg string) string {
	for _, m := range SyntaxMessages {
		sub := m.re.FindStringSubmatch(msg)
		if sub == nil {
			continue
		}
		args := make([]any, len(sub)-1)
		for i, s := range sub[1:] {
			args[i] = SyntaxPhrase(lang, s)
		}
		return Tr(lang, m.Key, args...)
	}
	return msg
}

// quoteLine quotes the line a refusal is about, cut to MaxQuoteRunes
// characters (quoteText), marked mailer.Preformatted: a quote is never
// wrapped, so a line of up to 200 characters stays one line.
func quoteLine(lang string, l CommandLine) string {
	q := mailer.Preformatted("> "+quoteText(lang, l.Text)) + "\n"
	if l.N == 0 {
		return q
	}
	return Tr(lang, "err.quote", l.N) + "\n" + q
}

// quoteText returns a line for a quote in lang: as it is, or cut by Clip
// and followed by its length, "watch A1A1… (100006 characters)".
func quoteText(lang, s string) string {
	if c := Clip(s); c != s {
		return c + " " + Trn(lang, "quote.length", utf8.RuneCountInString(s), utf8.RuneCountInString(s))
	}
	return s
}
