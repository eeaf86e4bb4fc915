package referee

import (
	"errors"
	"strings"

	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/mailer"
)

// CommandLines finds the command lines of the mail: the lines of the reply
// text that IsCommandLine accepts, those that are a command with
// sentence marks at its ends (punctuated: "Accept." is read as accept,
// "Resign?" asked about), and those that are a command with a typo
// (NearLine); when it has none, those of the HTML
// alternative (a plain part that is only a placeholder, issue 8 §5); when
// that has none either, the subject. A line repeated word for word is read
// once, and at most maxCommandLines distinct lines are read: unread counts
// the distinct command lines left (issue 8 §2: one mail must not make the
// referee write without bound).
func (ss *Session) CommandLines() (lines []CommandLine, unread int) {
	m := ss.Cause.Mail
	if m == nil {
		return nil, 0 // no mail, no commands
	}
	for _, text := range []string{m.Reply, m.AltReply} {
		seen := map[string]bool{}
		only := OnlyLine(text)
		for i, line := range strings.Split(text, "\n") {
			line = strings.TrimRight(line, " \t\r")
			if OwnLine(line) {
				break // the rest is our own earlier mail, quoted without markers (ownmail.go)
			}
			key := strings.ToLower(strings.Join(strings.Fields(line), " "))
			near := NearLine(line, i == only)
			bare := Punctuated(line) // "Accept.": the command, read as written without its marks
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
					lines = append(lines, CommandLine{N: i + 1, Text: line, cmd: cmd, marked: true})
					continue
				}
			}
			if near != "" { // a misspelt command, "Resign?" or "Accept. Sure!": answered, never relayed (nearmiss.go)
				own := bare == "" && LeadingCommand(line) == near
				lines = append(lines, CommandLine{N: i + 1, Text: line, Err: &nearMiss{phrase: near, ownLine: own}})
				continue
			}
			cmd, err := grammar.ParseCommand("mail", i+1, line)
			lines = append(lines, CommandLine{N: i + 1, Text: line, cmd: cmd, Err: err})
		}
		if len(lines) > 0 {
			return lines, unread
		}
	}
	if s := StripSubject(m.Subject); grammar.IsCommandLine(s) {
		cmd, err := grammar.ParseCommand("subject", 1, s)
		lines = append(lines, CommandLine{N: 0, Text: s, cmd: cmd, Err: err})
	}
	return lines, 0
}

// run executes the commands of the mail, each through its handler
// (registry.go). A refused command is explained to the sender and the
// others still run; an error other than a refusal stops the mail and is
// returned.
func (ss *Session) run() error {
	if f := ss.Server.Opts.Refused; f != nil {
		defer func() { f(ss.Refusals) }()
	}
	lines := ss.Lines
	if ss.Cause.Mail != nil && ss.Cause.Mail.TextCut { // said last, with the answer to what was read
		defer func() {
			ss.Say(ss.ContextTable(), Tr(ss.Lang, "err.textcut", mailer.MaxTextPartBytes>>10))
		}()
	}
	if ss.unread > 0 {
		defer func() { ss.Say(ss.ContextTable(), Tr(ss.Lang, "err.unread", maxCommandLines, ss.unread)) }()
	}
	if len(lines) == 0 {
		if ss.KeepProse() { // a module's ProseKeeper: a keyed mail of prose, kept for the opponent (module.go)
			return nil
		}
		ss.Failed = true
		ss.Refusals = append(ss.Refusals, "err.nocommand")
		ss.Say(ss.ContextTable(), Tr(ss.Lang, "err.nocommand"))
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
		ss.Failed = true
		key, args := "err.twomoves", []any{moves}
		if len(ss.Ref.Several) > 1 { // moves for several games, e.g. in a reply to the daily digest
			key, args = "err.manygames", []any{strings.Join(ss.Ref.Several, ", ")}
		}
		ss.Refusals = append(ss.Refusals, key)
		text := Tr(ss.Lang, key, args...)
		ss.Say(ss.ContextTable(), text+"\n"+Tr(ss.Lang, "err.nothing"))
		ss.attachBoard()
		return nil
	}
	for _, l := range lines {
		if l.Err != nil {
			ss.Failed = true
			ss.Say(ss.ContextTable(), ss.SyntaxError(l))
			ss.attachBoard()
			continue
		}
		ss.marked = l.marked
		if err := ss.dispatch(l); err != nil {
			if errors.Is(err, errGameEnded) {
				ss.Did = true // a module ended the game instead (the clock: lost on time)
				continue
			}
			if ss.TakeError(err) { // neither done nor answered: a module's (consent's quiet request, module.go)
				continue
			}
			var r *Refusal
			if !errors.As(err, &r) {
				return err
			}
			ss.Failed = true
			ss.Refusals = append(ss.Refusals, r.Keys()...)
			ss.Say(ss.ContextTable(), quoteLine(ss.Lang, l)+r.text()+"\n"+Tr(ss.Lang, "err.nothing"))
			ss.attachBoard()
			continue
		}
		ss.Did = true
	}
	ss.AfterCommands() // the modules' CommandsWatchers: the player's prose goes to the opponent (module.go)
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
func (ss *Session) chooseLanguage(lines []CommandLine) {
	slip := false
	for _, l := range lines {
		var near *nearMiss
		switch {
		case l.Err == nil && l.cmd != nil && l.cmd.German():
			if p := ss.PlayerRow(ss.From); p.Language == "" {
				ss.Lang = German
				p.Language = German
			}
			return
		case errors.As(l.Err, &near):
			slip = slip || firstWordGerman(near.phrase)
		case l.Err != nil:
			slip = slip || firstWordGerman(l.Text)
		}
	}
	if slip && ss.storedLanguage(ss.From) == "" {
		ss.Lang = German
	}
}

// storedLanguage returns the language stored for addr, as this mail
// leaves it so far, or "" for none; it makes no player row.
func (ss *Session) storedLanguage(addr string) string {
	if p, ok := ss.Players[addr]; ok {
		return p.Language
	}
	p, err := ss.StoredPlayer(addr)
	ss.NoteReadErr(err)
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
