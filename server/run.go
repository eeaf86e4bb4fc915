package server

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/mailer"
)

// commandLine is one command found in the mail, with its line.
type commandLine struct {
	n    int // 1-based line number in the reply text
	text string
	cmd  grammar.Command
	err  error
	// marked reports that the command was read from a line with
	// sentence marks at its ends ("Draw?", punctuated).
	marked bool
}

// commandLines finds the command lines of the mail: the lines of the reply
// text that IsCommandLine accepts, those that are a command with
// sentence marks at its ends (punctuated: "Accept." is read as accept,
// "Resign?" asked about), and those that are a command with a typo
// (nearLine); when it has none, those of the HTML
// alternative (a plain part that is only a placeholder, issue 8 §5); when
// that has none either, the subject. A line repeated word for word is read
// once, and at most maxCommandLines distinct lines are read: unread counts
// the distinct command lines left (issue 8 §2: one mail must not make the
// referee write without bound).
func (ss *session) commandLines() (lines []commandLine, unread int) {
	m := ss.cause.mail
	if m == nil {
		return nil, 0 // no mail, no commands
	}
	for _, text := range []string{m.Reply, m.AltReply} {
		seen := map[string]bool{}
		only := onlyLine(text)
		for i, line := range strings.Split(text, "\n") {
			line = strings.TrimRight(line, " \t\r")
			if ownLine(line) {
				break // the rest is our own earlier mail, quoted without markers (ownmail.go)
			}
			key := strings.ToLower(strings.Join(strings.Fields(line), " "))
			near := nearLine(line, i == only)
			bare := punctuated(line) // "Accept.": the command, read as written without its marks
			if bare != "" {
				key = bare
			}
			if seen[key] || !grammar.IsCommandLine(line) && near == "" {
				continue
			}
			seen[key] = true
			if len(lines) == maxCommandLines {
				unread++
				continue
			}
			if bare != "" {
				if cmd, err := grammar.ParseCommand("mail", i+1, bare); err == nil && !asksFirst(cmd) {
					lines = append(lines, commandLine{n: i + 1, text: line, cmd: cmd, marked: true})
					continue
				}
			}
			if near != "" { // a misspelt command, "Resign?" or "Accept. Sure!": answered, never relayed (nearmiss.go)
				own := bare == "" && leadingCommand(line) == near
				lines = append(lines, commandLine{n: i + 1, text: line, err: &nearMiss{phrase: near, ownLine: own}})
				continue
			}
			cmd, err := grammar.ParseCommand("mail", i+1, line)
			lines = append(lines, commandLine{n: i + 1, text: line, cmd: cmd, err: err})
		}
		if len(lines) > 0 {
			return lines, unread
		}
	}
	if s := stripSubject(m.Subject); grammar.IsCommandLine(s) {
		cmd, err := grammar.ParseCommand("subject", 1, s)
		lines = append(lines, commandLine{n: 0, text: s, cmd: cmd, err: err})
	}
	return lines, 0
}

// run executes the commands of the mail, each through its handler
// (registry.go). A refused command is explained to the sender and the
// others still run; an error other than a refusal stops the mail and is
// returned.
func (ss *session) run() error {
	if f := ss.srv.opts.refused; f != nil {
		defer func() { f(ss.refusals) }()
	}
	lines := ss.lines
	if ss.cause.mail != nil && ss.cause.mail.TextCut { // said last, with the answer to what was read
		defer func() {
			ss.say(ss.contextTable(), tr(ss.lang, "err.textcut", mailer.MaxTextPartBytes>>10))
		}()
	}
	if ss.unread > 0 {
		defer func() { ss.say(ss.contextTable(), tr(ss.lang, "err.unread", maxCommandLines, ss.unread)) }()
	}
	if len(lines) == 0 {
		if ss.keepProse() { // a module's proseKeeper: a keyed mail of prose, kept for the opponent (module.go)
			return nil
		}
		ss.failed = true
		ss.refusals = append(ss.refusals, "err.nocommand")
		ss.say(ss.contextTable(), tr(ss.lang, "err.nocommand"))
		ss.attachBoard()
		return nil
	}
	ss.chooseLanguage(lines)
	moves := 0
	for _, l := range lines {
		if _, ok := l.cmd.(*grammar.MoveCommand); ok {
			moves++
		}
	}
	if moves > 1 {
		ss.failed = true
		key, args := "err.twomoves", []any{moves}
		if len(ss.ref.several) > 1 { // moves for several games, e.g. in a reply to the daily digest
			key, args = "err.manygames", []any{strings.Join(ss.ref.several, ", ")}
		}
		ss.refusals = append(ss.refusals, key)
		text := tr(ss.lang, key, args...)
		ss.say(ss.contextTable(), text+"\n"+tr(ss.lang, "err.nothing"))
		ss.attachBoard()
		return nil
	}
	for _, l := range lines {
		if l.err != nil {
			ss.failed = true
			ss.say(ss.contextTable(), ss.syntaxError(l))
			ss.attachBoard()
			continue
		}
		ss.marked = l.marked
		if err := ss.dispatch(l); err != nil {
			if errors.Is(err, errGameEnded) {
				ss.did = true // a module ended the game instead (the clock: lost on time)
				continue
			}
			if ss.takeError(err) { // neither done nor answered: a module's (consent's quiet request, module.go)
				continue
			}
			var r *refusal
			if !errors.As(err, &r) {
				return err
			}
			ss.failed = true
			ss.refusals = append(ss.refusals, r.keys()...)
			ss.say(ss.contextTable(), quoteLine(ss.lang, l)+r.text()+"\n"+tr(ss.lang, "err.nothing"))
			ss.attachBoard()
			continue
		}
		ss.did = true
	}
	ss.afterCommands() // the modules' commandsWatchers: the player's prose goes to the opponent (module.go)
	return nil
}

// chooseLanguage guesses the language of a sender who has none stored:
// German commands are answered in German, now and from now on (the guess
// is stored). A stored language, chosen with language/sprache or guessed
// from an earlier mail, wins over the command words, so that a player who
// wrote "language en" and then "brett" is answered in English and the
// game's thread keeps its subject (docs/commands.md, Languages). Only a
// line that parsed is stored as a guess: a German line that did not
// (a misspelt "rücknahme annehmn", nearmiss.go, or "remis anbiten") is
// answered in German, the language of the command it resembles, in this
// reply only, so that one slip does not turn an English player's mail
// German for good (outside trial).
func (ss *session) chooseLanguage(lines []commandLine) {
	slip := false
	for _, l := range lines {
		var near *nearMiss
		switch {
		case l.err == nil && l.cmd != nil && l.cmd.German():
			if p := ss.playerRow(ss.from); p.Language == "" {
				ss.lang = german
				p.Language = german
			}
			return
		case errors.As(l.err, &near):
			slip = slip || firstWordGerman(near.phrase)
		case l.err != nil:
			slip = slip || firstWordGerman(l.text)
		}
	}
	if slip && ss.storedLanguage(ss.from) == "" {
		ss.lang = german
	}
}

// storedLanguage returns the language stored for addr, as this mail
// leaves it so far, or "" for none; it makes no player row.
func (ss *session) storedLanguage(addr string) string {
	if p, ok := ss.players[addr]; ok {
		return p.Language
	}
	p, err := ss.storedPlayer(addr)
	ss.noteReadErr(err)
	if err != nil {
		return ""
	}
	return p.Language
}

// firstWordGerman reports whether a line starts with a German keyword.
func firstWordGerman(line string) bool {
	f := strings.Fields(line)
	return len(f) > 0 && grammar.GermanKeyword(f[0])
}

// quoteLine quotes the line a refusal is about, cut to maxQuoteRunes
// characters (quoteText), marked mailer.Preformatted: a quote is never
// wrapped, so a line of up to 200 characters stays one line.
func quoteLine(lang string, l commandLine) string {
	q := mailer.Preformatted("> "+quoteText(lang, l.text)) + "\n"
	if l.n == 0 {
		return q
	}
	return tr(lang, "err.quote", l.n) + "\n" + q
}

// maxQuoteRunes is how many characters of a line, or of a word taken
// from one (an address, a game id, a variant name), a reply quotes; a
// longer one is cut with "…" (trial 2 report §1, §2: a 100,000-character
// line must not make a reply that the size caps drop).
const maxQuoteRunes = 200

// clip returns s cut to maxQuoteRunes characters, with "…" where it was
// cut. Every word of a mail a reply quotes goes through it (refuse's
// arguments included).
func clip(s string) string {
	if utf8.RuneCountInString(s) <= maxQuoteRunes {
		return s
	}
	return string([]rune(s)[:maxQuoteRunes]) + "…"
}

// quoteText returns a line for a quote in lang: as it is, or cut by clip
// and followed by its length, "watch A1A1… (100006 characters)".
func quoteText(lang, s string) string {
	if c := clip(s); c != s {
		return c + " " + trn(lang, "quote.length", utf8.RuneCountInString(s), utf8.RuneCountInString(s))
	}
	return s
}
