package grammar

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// NotifyCommand chooses how the referee tells the sender that it is their
// move (issue 12, "one mail a day"): "notify each" (German
// "benachrichtigung einzeln"), a mail for every move, or "notify digest
// 07:00" ("benachrichtigung täglich 07:00"), one mail a day listing the
// games where it is the sender's move. "daily" works for "digest",
// "taeglich" for "täglich"; the time may follow "at" ("um") and be
// followed by "uhr" (o'clock) and by the name of a time zone ("notify
// digest 07:30 Europe/Berlin", "benachrichtigung täglich um 7:30 uhr
// Europe/Berlin", "notify daily at 7:30 utc"). "notify" alone asks for
// the setting. Each is the word "each" as written, Digest the word
// "digest", both "" for "notify" alone; At is the time, nil when not
// given (the referee's default); Zone is the zone's name, nil when not
// given (UTC); Uhr is the word "uhr" as written, "" without it, and with
// it a whole hour may stand alone ("um 8 Uhr" is 08:00, outside trial
// §9). The time is checked to be a time of day and to follow
// "digest" (ParseCommand); whether the zone exists is the referee's
// question.
//
// An address that plays no game confirms its change with the key the
// referee mails it (issue 18 §1): "notify confirm 3f9k2m7q4d", German
// "benachrichtigung bestätigen 3f9k2m7q4d"; Confirm holds the keyword,
// Key the key (nil without), and such a line has no time.
type NotifyCommand struct {
	kw
	Keyword string      `parser:"@('notify' | 'benachrichtigung')"`
	Each    string      `parser:"( @('each' | 'einzeln')"`
	Digest  string      `parser:"| @('digest' | 'daily' | 'täglich' | 'taeglich')"`
	Confirm string      `parser:"| @('confirm' | 'bestätigen' | 'bestaetigen')"`
	Key     *ConfirmKey `parser:"  @@ )?"`
	At      *TimeOfDay  `parser:"( ('at' | 'um')? @@"`
	Uhr     string      `parser:"@'uhr'?"`
	Zone    *TimeZone   `parser:"@@? )?"`
}

// German reports whether the command's keyword was German.
func (c *NotifyCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

func (*NotifyCommand) command() {}

// TimeOfDay is a time of day written HH:MM or H:MM, from 00:00 to 23:59
// ("07:00", "7:30"), as in "notify digest 07:00". Hour (0–23) and Minute
// (0–59) are filled after parsing, once Text is known to be such a time.
type TimeOfDay struct {
	Pos          lexer.Position
	Text         string
	Hour, Minute int
}

// String returns the time as HH:MM.
func (d *TimeOfDay) String() string { return fmt.Sprintf("%02d:%02d", d.Hour, d.Minute) }

// Parse implements participle.Parseable: it takes the tokens that follow
// each other without white space ("07:00" lexes as a number, ":" and a
// number; "7pm" as a number and a word), so that a malformed time is
// reported whole by check. It matches nothing at the end of the line or
// before "utc" or "uhr".
func (d *TimeOfDay) Parse(lex *lexer.PeekingLexer) error {
	first := lex.Peek()
	if first.EOF() || isZoneWord(first.Value) {
		return participle.NextMatch
	}
	d.Pos, d.Text = first.Pos, takeAdjacent(lex)
	return nil
}

// takeAdjacent consumes the next token and every token that follows it
// without white space, and returns their text joined.
func takeAdjacent(lex *lexer.PeekingLexer) string {
	var b strings.Builder
	end := lex.Peek().Pos.Offset
	for tok := lex.Peek(); !tok.EOF() && tok.Pos.Offset == end; tok = lex.Peek() {
		b.WriteString(tok.Value)
		end += len(tok.Value)
		lex.Next()
	}
	return b.String()
}

// TimeZone is the name of a time zone written after a time of day, as in
// "notify digest 07:30 Europe/Berlin": Text is the name as written, every
// character up to the next white space ("Europe/Berlin",
// "America/New_York", "Etc/GMT-5", "UTC", also "Mars/Olympus"); Pos is
// where it starts. The grammar does not know the zones: the referee looks
// the name up in the IANA time zone database (server/internal/digest/cmd_notify.go).
type TimeZone struct {
	Pos  lexer.Position
	Text string
}

// Parse implements participle.Parseable: it takes the tokens that follow
// each other without white space, as TimeOfDay.Parse does, so that a
// name is one piece of text however it lexes ("Europe", "/", "Berlin").
// A city written as words ("New York", "Los Angeles") is taken whole, up
// to maxCityWords words of letters, so that the referee can name the zone
// meant (America/New_York) instead of stumbling over the second word
// (outside trial §9). It matches nothing at the end of the line.
func (z *TimeZone) Parse(lex *lexer.PeekingLexer) error {
	first := lex.Peek()
	if first.EOF() {
		return participle.NextMatch
	}
	z.Pos, z.Text = first.Pos, takeAdjacent(lex)
	for n := 1; n < maxCityWords && letters(z.Text) && !isZoneWord(z.Text); n++ {
		next := lex.Peek()
		if next.EOF() || !letters(next.Value) || isZoneWord(next.Value) {
			break
		}
		lex.Next()
		z.Text += " " + next.Value
	}
	return nil
}

// maxCityWords is the most words of a city's name that TimeZone takes
// ("Salt Lake City").
const maxCityWords = 3

// letters reports whether s is a non-empty run of letters and spaces.
func letters(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) && r != ' ' {
			return false
		}
	}
	return s != ""
}

// isZoneWord reports "utc" or "uhr" in any case, which may follow a time.
func isZoneWord(w string) bool {
	switch strings.ToLower(w) {
	case "utc", "uhr":
		return true
	}
	return false
}

// timeOfDayRE is the form of a time of day: one or two digits, a colon,
// two digits.
var timeOfDayRE = regexp.MustCompile(`^([0-9]{1,2}):([0-9]{2})$`)

// hourRE is a whole hour as German writes it before "Uhr": one or two
// digits ("8 Uhr").
var hourRE = regexp.MustCompile(`^[0-9]{1,2}$`)

// check fills Hour and Minute from Text, or reports a *Error at the time:
// not H:MM or HH:MM ("7pm", "0700", "7.30"; a whole hour "8" only when
// uhr, the line has "Uhr" after it), or no time of a day ("25:00",
// "07:60", "25 Uhr").
func (d *TimeOfDay) check(uhr bool) error {
	m := timeOfDayRE.FindStringSubmatch(d.Text)
	if m == nil && uhr && hourRE.MatchString(d.Text) {
		m = []string{d.Text, d.Text, "00"} // "um 8 Uhr"
	}
	if m == nil {
		return expectedError(d.Pos, "a time as HH:MM such as 07:00", quoteFound(d.Text))
	}
	h, _ := strconv.Atoi(m[1])
	mi, _ := strconv.Atoi(m[2])
	if h > 23 || mi > 59 {
		return newError(d.Pos, "%s is not a time of day", d.Text)
	}
	d.Hour, d.Minute = h, mi
	return nil
}

// finish moves the positions of the time and the zone (relative to line
// 1) to base's line and checks the time: a time of day, and only after
// "digest".
func (c *NotifyCommand) finish(base lexer.Position) error {
	if c.Key != nil {
		c.Key.Pos = shift(base, c.Key.Pos)
	}
	if c.At == nil {
		return nil
	}
	c.At.Pos = shift(base, c.At.Pos)
	if c.Zone != nil {
		c.Zone.Pos = shift(base, c.Zone.Pos)
	}
	if err := c.At.check(c.Uhr != ""); err != nil {
		return err
	}
	if c.Digest == "" {
		return newError(c.At.Pos, `a time of day goes only with "digest" or "täglich"`)
	}
	return nil
}

// notifyShape decides a line that starts with "notify" or
// "benachrichtigung", everyday words ("Notify me when…"): a command when
// the word stands alone, before a mode ("each", "digest", "daily",
// "einzeln", "täglich", "taeglich"), before "confirm" ("bestätigen",
// "bestaetigen") or before a word that starts with a
// digit (a time without its mode, which is then answered); second is the
// second word in lower case, "" for none.
func notifyShape(second string) bool {
	switch second {
	case "", "each", "digest", "daily", "einzeln", "täglich", "taeglich", "confirm", "bestätigen", "bestaetigen":
		return true
	}
	return second[0] >= '0' && second[0] <= '9'
}
