package grammar

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Command is one mail command, one per line of a mail (docs/commands.md).
// Keywords are case-insensitive and have English and German forms; the
// implementations are the *…Command types below.
type Command interface {
	// Position is where the command starts in the mail text.
	Position() lexer.Position
	// German reports whether the command was written with German keywords.
	German() bool
	command()
}

// kw holds the start of a keyword command; the embedding type captures
// the keyword itself (its grammar differs per command) and reports it
// through keyword().
type kw struct {
	Pos lexer.Position
}

func (k *kw) Position() lexer.Position { return k.Pos }
func (k *kw) setPos(p lexer.Position)  { k.Pos = p }

// NewGameCommand challenges Opponent to a game: "new copenhagen with
// bob@example.org as defenders time 30d+1d", German "neu copenhagen mit …
// als verteidiger zeit 30d+1d", or starts a game against the engine:
// "new brandubh with engine level 2 as defenders" ("neu brandubh mit
// engine stufe 2 als verteidiger"; docs/engine.md). The side, the time
// control and the level are optional and may come in any order (Options,
// as written); each at most once. Side is the challenger's side as
// written ("" when not given; the server decides what the words mean),
// Time the time control (nil when not given: CORRESPONDENCE.md Decision
// C1 makes that "none" for a casual game). ParseCommand fills Side, Time,
// Level and Engine from Options and Opponent.
type NewGameCommand struct {
	kw
	Keyword string `parser:"@('new' | 'neu' | 'challenge')"`
	Variant string `parser:"@Word"`
	// Opponent is the opponent's address as written, or the word
	// "engine" or "computer" (any case) for the referee's engine
	// opponent (then Engine is set).
	Opponent string           `parser:"('with' | 'mit' | 'gegen' | 'against' | 'vs') (@Email | @('engine' | 'computer'))"`
	Options  []*NewGameOption `parser:"@@*"`

	// Side is the side clause's word, "" without one.
	Side string
	// Time is the time control clause parsed by ParseTimeControl, nil
	// without one. Its positions point into the mail line.
	Time *TimeControl
	// Engine reports that the opponent is the engine ("with engine").
	Engine bool
	// Level is the number of the level clause ("level 3", German "stufe
	// 3"), 0 without one. The grammar takes any number that fits an int;
	// which levels exist (1 to 5) and that a level needs the engine is
	// the referee's to say.
	Level int
	// Rated: the challenger asks for a rated game ("rated", "gewertet").
	Rated bool
}

// NewGameOption is one optional clause of a new command: "as <side>"
// ("als"), "time <control>" ("zeit"), "level <n>" ("stufe": the engine's
// strength) or "rated" ("gewertet": the game counts for the ratings once
// the opponent accepts, CORRESPONDENCE.md §7.3). Exactly one of Side,
// Time, Level and Rated is set.
type NewGameOption struct {
	Pos   lexer.Position
	Side  string           `parser:"  ('as' | 'als') @Word"`
	Time  *TimeControlText `parser:"| ('time' | 'zeit') @@"`
	Level string           `parser:"| ('level' | 'stufe') @Int"`
	Rated string           `parser:"| @('rated' | 'gewertet')"`
}

// TimeControlText is the time control of a new command as written: the
// rest of the line after "time"/"zeit" up to the next clause ("as",
// "als", "time", "zeit"), e.g.
// "10d+2d max 20d iccf". ParseCommand parses it with ParseTimeControl into
// NewGameCommand.Time.
type TimeControlText struct {
	Pos  lexer.Position
	Text string
}

// Parse implements participle.Parseable: it takes every token up to the
// next clause keyword or the end of the line, keeping the blanks between them, so that
// the time-control grammar reports its errors at the right column.
func (t *TimeControlText) Parse(lex *lexer.PeekingLexer) error {
	first := lex.Peek()
	if first.EOF() || isClauseKeyword(first.Value) {
		return participle.NextMatch
	}
	var b strings.Builder
	end := first.Pos.Offset
	for tok := lex.Peek(); !tok.EOF() && !isClauseKeyword(tok.Value); tok = lex.Peek() {
		if gap := tok.Pos.Offset - end; gap > 0 {
			b.WriteString(strings.Repeat(" ", gap)) // white space is ASCII: bytes are columns
		}
		b.WriteString(tok.Value)
		end = tok.Pos.Offset + len(tok.Value)
		lex.Next()
	}
	t.Pos, t.Text = first.Pos, b.String()
	return nil
}

// isClauseKeyword reports "as", "als", "time", "zeit", "level", "stufe",
// "rated" or "gewertet" in any case: the start of a clause, which ends a
// time control.
func isClauseKeyword(w string) bool {
	switch strings.ToLower(w) {
	case "as", "als", "time", "zeit", "level", "stufe", "rated", "gewertet":
		return true
	}
	return false
}

// AcceptCommand accepts a challenge: "accept", German "annehmen".
type AcceptCommand struct {
	kw
	Keyword string `parser:"@('accept' | 'annehmen')"`
}

// DeclineCommand declines a challenge: "decline", German "ablehnen".
type DeclineCommand struct {
	kw
	Keyword string `parser:"@('decline' | 'ablehnen')"`
}

// CancelChallengeCommand withdraws the sender's open challenge before it is
// answered: "cancel challenge", German "herausforderung zurückziehen" (or
// "zurueckziehen"). It is not "withdraw", which leaves a tournament.
type CancelChallengeCommand struct {
	kw
	Keyword string `parser:"( @'cancel' 'challenge' | @'herausforderung' ('zurückziehen' | 'zurueckziehen') )"`
}

// OfferDrawCommand offers a draw: "offer draw", German "remis anbieten".
type OfferDrawCommand struct {
	kw
	Keyword string `parser:"( @'offer' 'draw' | @'remis' 'anbieten' )"`
}

// AcceptDrawCommand accepts the opponent's draw offer: "accept draw",
// German "remis annehmen".
type AcceptDrawCommand struct {
	kw
	Keyword string `parser:"( @'accept' 'draw' | @'remis' 'annehmen' )"`
}

// DeclineDrawCommand declines the opponent's draw offer: "decline draw",
// German "remis ablehnen".
type DeclineDrawCommand struct {
	kw
	Keyword string `parser:"( @'decline' 'draw' | @'remis' 'ablehnen' )"`
}

// BoardCommand asks for the current board: "board", German "brett".
type BoardCommand struct {
	kw
	Keyword string `parser:"@('board' | 'brett')"`
}

// HistoryCommand asks for the full game record: "history", German
// "verlauf".
type HistoryCommand struct {
	kw
	Keyword string `parser:"@('history' | 'verlauf')"`
}

// GamesCommand lists the sender's games: "games", German "partien".
type GamesCommand struct {
	kw
	Keyword string `parser:"@('games' | 'partien')"`
}

// ResignCommand resigns the game: "resign", German "aufgeben".
type ResignCommand struct {
	kw
	Keyword string `parser:"@('resign' | 'aufgeben')"`
}

// VariantsCommand lists the rule sets: "variants", German "varianten".
type VariantsCommand struct {
	kw
	Keyword string `parser:"@('variants' | 'varianten')"`
}

// HelpCommand asks for help, optionally on a topic: "help moves", German
// "hilfe züge".
type HelpCommand struct {
	kw
	Keyword string `parser:"@('help' | 'hilfe')"`
	Topic   string `parser:"@Word?"`
}

// LanguageCommand sets the sender's reply language: "language de",
// German "sprache en".
type LanguageCommand struct {
	kw
	Keyword  string `parser:"@('language' | 'sprache')"`
	Language string `parser:"@Word"`
}

// ClockCommand asks for both clocks of the game, the deadline of the side
// to move and any leave (CORRESPONDENCE.md §4.3): "clock", German "uhr".
type ClockCommand struct {
	kw
	Keyword string `parser:"@('clock' | 'uhr')"`
}

// LeaveCommand takes leave or asks for the days left (CORRESPONDENCE.md
// §3): "leave 2026-12-24 to 2027-01-02" (German "urlaub 24.12.2026 bis
// 2.1.2027", "urlaub 24.12.–2.1.") takes whole UTC days from First to
// Last inclusive; "leave Dec 24" one day (Last is nil); "leave" alone
// asks for the leave days left this year (First is nil). The days are
// written in any form of LeaveDay (ParseLeaveDates reads the rest of the
// line); which dates they are (a day without a year is the next such day)
// and whether the leave may be taken are package clock's questions
// (clock.LeaveSpan, clock.TakeLeave).
type LeaveCommand struct {
	kw
	Keyword string          `parser:"@('leave' | 'urlaub')"`
	Dates   *LeaveDatesText `parser:"@@?"`
	// First and Last are the days of Dates, filled by ParseCommand, their
	// positions in the mail line; nil for "leave" alone, Last nil for
	// one day.
	First, Last *LeaveDay
}

// LeaveDatesText is the rest of a leave command's line after the
// keyword, as written; ParseCommand parses it with ParseLeaveDates into
// LeaveCommand.First and Last.
type LeaveDatesText struct {
	Pos  lexer.Position
	Text string
}

// Parse implements participle.Parseable: it takes every token up to the
// end of the line; ParseCommand then cuts the text from the line itself,
// so that the leave-date grammar sees it as written and reports its
// errors at the right column.
func (t *LeaveDatesText) Parse(lex *lexer.PeekingLexer) error {
	first := lex.Peek()
	if first.EOF() {
		return participle.NextMatch
	}
	for !lex.Peek().EOF() {
		lex.Next()
	}
	t.Pos = first.Pos
	return nil
}

// CancelLeaveCommand cancels the sender's leave: the days not yet begun
// are given back (CORRESPONDENCE.md §3.1). "cancel leave", German "urlaub
// abbrechen".
type CancelLeaveCommand struct {
	kw
	Keyword string `parser:"( @'cancel' ('leave' | 'urlaub') | @'urlaub' 'abbrechen' )"`
}

// WatchCommand follows a game as a spectator (issue 12): "watch K7QX2M",
// German "zuschauen K7QX2M"; with "results" ("ergebnis") only its result.
// Target may also name a tournament; which it is, is the referee's
// question.
//
// A keyless "watch" is a request the address must confirm (issue 18 §1):
// "watch K7QX2M confirm 3f9k2m7q4d", German "zuschauen K7QX2M bestätigen
// 3f9k2m7q4d", with the key the referee mailed it. Key is nil without
// the confirmation; Confirm holds its keyword.
type WatchCommand struct {
	kw
	Keyword string       `parser:"@('watch' | 'zuschauen')"`
	Target  *WatchTarget `parser:"@@"`
	// Results is the word asking for the result only, "" without it.
	Results string      `parser:"@('results' | 'result' | 'ergebnis' | 'ergebnisse')?"`
	Confirm string      `parser:"( @('confirm' | 'bestätigen' | 'bestaetigen')"`
	Key     *ConfirmKey `parser:"  @@ )?"`
}

// UnwatchCommand stops following a game: "unwatch K7QX2M", German
// "zuschauen beenden K7QX2M". Target is nil when the line names no game
// (a reply to a spectator's mail, whose subject names it).
type UnwatchCommand struct {
	kw
	Keyword string       `parser:"( @'unwatch' | @'zuschauen' 'beenden' )"`
	Target  *WatchTarget `parser:"@@?"`
}

// WatchTarget is what a watch command names: a game's id such as K7QX2M
// (any case), or a tournament's such as winter-2027, written as one word
// of ASCII letters and digits, with "-" and "_" after its first
// character. The command lexer has no token for it (an id may start like a
// move, "K7QX2M", or a number, "1S1D9J"), so Parse joins the tokens that
// touch each other.
type WatchTarget struct {
	Pos lexer.Position
	ID  string
}

// Parse implements participle.Parseable: it takes the tokens made of
// letters and digits (after the first also "-" and "_") that follow each
// other without white space, and matches nothing when the first token
// does not start with a letter or digit (or is the word "beenden" of the
// German unwatch).
func (w *WatchTarget) Parse(lex *lexer.PeekingLexer) error {
	start := lex.MakeCheckpoint()
	if pos, text, ok := sentenceWord(lex); ok && watchID(text) {
		// "watch xmas-cup.", "watch K7QX2M!": the word ends a sentence
		w.Pos, w.ID = pos, text
		return nil
	}
	lex.LoadCheckpoint(start)
	first := lex.Peek()
	if first.EOF() || !alphanumeric(first.Value[:1]) || !idPunct(first.Value) || strings.EqualFold(first.Value, "beenden") {
		return participle.NextMatch
	}
	var b strings.Builder
	end := first.Pos.Offset
	for tok := lex.Peek(); !tok.EOF() && tok.Pos.Offset == end && idPunct(tok.Value); tok = lex.Peek() {
		b.WriteString(tok.Value)
		end += len(tok.Value)
		lex.Next()
	}
	w.Pos, w.ID = first.Pos, b.String()
	return nil
}

// watchID reports whether the word s is a whole WatchTarget: it starts
// with a letter or digit, holds only letters, digits, "-" and "_", and is
// not "beenden".
func watchID(s string) bool {
	return s != "" && alphanumeric(s[:1]) && idPunct(s) && !strings.EqualFold(s, "beenden")
}

// idPunct reports whether s is a run of letters, digits, "-" and "_",
// as a tournament id holds after its first character.
func idPunct(s string) bool {
	return s != "" && strings.Trim(s, "-_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == ""
}

// alphanumeric reports whether s is a non-empty run of ASCII letters and
// digits.
func alphanumeric(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return s != ""
}

// PrivateCommand refuses spectators for the sender's casual game:
// "private", German "privat".
type PrivateCommand struct {
	kw
	Keyword string `parser:"@('private' | 'privat')"`
}

// PublicCommand allows spectators again: "public", German "öffentlich"
// (or "oeffentlich").
type PublicCommand struct {
	kw
	Keyword string `parser:"@('public' | 'öffentlich' | 'oeffentlich')"`
}

// MessagesCommand stops or starts the relaying of the opponents' messages
// to the sender: "messages off", "messages on", German "nachrichten aus",
// "nachrichten an" (or "ein"). Setting is the word as written.
type MessagesCommand struct {
	kw
	Keyword string `parser:"@('messages' | 'nachrichten')"`
	Setting string `parser:"@('on' | 'off' | 'an' | 'aus' | 'ein')"`
}

// On reports whether the command turns messages on.
func (c *MessagesCommand) On() bool {
	switch strings.ToLower(c.Setting) {
	case "on", "an", "ein":
		return true
	}
	return false
}

// ConditionalCommand sets conditional moves: "if h6-h9 then h3-h4",
// German "wenn h6-h9 dann h3-h4"; a chain "if A then B if C then D" (after
// the opponent's A the sender's B, after the opponent's C then the
// sender's D). Pairs are in the order written; each move's Move is its
// syntax tree (no resignation or time-out).
type ConditionalCommand struct {
	kw
	Keyword string           `parser:"@('if' | 'wenn')"`
	Pairs   []*ConditionPair `parser:"@@ ( ('if' | 'wenn') @@ )*"`
}

// ConditionPair is one "A then B" of a conditional command: the
// opponent's move If, the sender's answer Then.
type ConditionPair struct {
	If   *ConditionMove `parser:"@@"`
	Then *ConditionMove `parser:"('then' | 'dann') @@"`
}

// ConditionMove is one move of a conditional command: its text as
// written, where it starts, and its syntax tree.
type ConditionMove struct {
	Pos  lexer.Position
	Text string `parser:"@MoveText"`
	Move *Move
}

// ConditionsCommand lists the sender's conditional moves: "conditions",
// German "bedingungen".
type ConditionsCommand struct {
	kw
	Keyword string `parser:"@('conditions' | 'bedingungen')"`
}

// CancelConditionsCommand drops the sender's conditional moves: "cancel
// conditions", German "bedingungen löschen" (or "loeschen").
type CancelConditionsCommand struct {
	kw
	Keyword string `parser:"( @'cancel' 'conditions' | @'bedingungen' ('löschen' | 'loeschen') )"`
}

// TakebackCommand asks the opponent to undo the sender's last ply:
// "takeback", German "zurücknehmen" (or "zuruecknehmen").
type TakebackCommand struct {
	kw
	Keyword string `parser:"@('takeback' | 'zurücknehmen' | 'zuruecknehmen')"`
}

// AcceptTakebackCommand agrees to the opponent's takeback: "accept
// takeback", German "rücknahme annehmen" (or "ruecknahme").
type AcceptTakebackCommand struct {
	kw
	Keyword string `parser:"( @'accept' 'takeback' | @('rücknahme' | 'ruecknahme') 'annehmen' )"`
}

// DeclineTakebackCommand refuses the opponent's takeback: "decline
// takeback", German "rücknahme ablehnen" (or "ruecknahme").
type DeclineTakebackCommand struct {
	kw
	Keyword string `parser:"( @'decline' 'takeback' | @('rücknahme' | 'ruecknahme') 'ablehnen' )"`
}

// MoveCommand is a move, optionally with a move-number guard that must
// match the game: "d1-d3", "12. d1-d3" (the attackers' ply of move 12),
// "12... h6-h9" (the defenders' ply). Number is 0 without a guard.
type MoveCommand struct {
	Pos lexer.Position
	// Number is the move number written before the ply, 0 if none.
	Number int `parser:"( @Int"`
	// Dots is "." or "..." after the number.
	Dots string `parser:"  @Dots )?"`
	// Text is the ply as written; Ply is its syntax tree.
	Text string `parser:"@MoveText"`
	Ply  *Ply
}

// Position is where the move (or its number) starts.
func (m *MoveCommand) Position() lexer.Position { return m.Pos }

// German is false: moves have no language.
func (m *MoveCommand) German() bool { return false }

// German reports whether the command's keyword was German.
func (c *NewGameCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *AcceptCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *DeclineCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *CancelChallengeCommand) German() bool {
	return germanKeywords[strings.ToLower(c.Keyword)]
}

func (*CancelChallengeCommand) command() {}

// German reports whether the command's keyword was German.
func (c *OfferDrawCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *AcceptDrawCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *DeclineDrawCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *BoardCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *HistoryCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *GamesCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *ResignCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *VariantsCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *HelpCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *LanguageCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *ClockCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *LeaveCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *CancelLeaveCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *WatchCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *UnwatchCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *PrivateCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *PublicCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *MessagesCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *ConditionalCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *ConditionsCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *CancelConditionsCommand) German() bool {
	return germanKeywords[strings.ToLower(c.Keyword)]
}

// German reports whether the command's keyword was German.
func (c *TakebackCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *AcceptTakebackCommand) German() bool { return germanKeywords[strings.ToLower(c.Keyword)] }

// German reports whether the command's keyword was German.
func (c *DeclineTakebackCommand) German() bool {
	return germanKeywords[strings.ToLower(c.Keyword)]
}

func (*NewGameCommand) command()     {}
func (*AcceptCommand) command()      {}
func (*DeclineCommand) command()     {}
func (*OfferDrawCommand) command()   {}
func (*AcceptDrawCommand) command()  {}
func (*DeclineDrawCommand) command() {}
func (*BoardCommand) command()       {}
func (*HistoryCommand) command()     {}
func (*GamesCommand) command()       {}
func (*ResignCommand) command()      {}
func (*VariantsCommand) command()    {}
func (*HelpCommand) command()        {}
func (*LanguageCommand) command()    {}
func (*ClockCommand) command()       {}
func (*LeaveCommand) command()       {}
func (*CancelLeaveCommand) command() {}
func (*MoveCommand) command()        {}

func (*WatchCommand) command()            {}
func (*UnwatchCommand) command()          {}
func (*PrivateCommand) command()          {}
func (*PublicCommand) command()           {}
func (*MessagesCommand) command()         {}
func (*ConditionalCommand) command()      {}
func (*ConditionsCommand) command()       {}
func (*CancelConditionsCommand) command() {}
func (*TakebackCommand) command()         {}
func (*AcceptTakebackCommand) command()   {}
func (*DeclineTakebackCommand) command()  {}

// germanKeywords are the keywords that mark a command as German.
var germanKeywords = map[string]bool{
	"neu": true, "annehmen": true, "ablehnen": true, "remis": true, "brett": true,
	"verlauf": true, "partien": true, "aufgeben": true, "varianten": true,
	"hilfe": true, "sprache": true, "uhr": true, "urlaub": true,
	// issue 12
	"zuschauen": true, "privat": true, "öffentlich": true, "oeffentlich": true,
	"nachrichten": true, "wenn": true, "bedingungen": true, "zurücknehmen": true,
	"zuruecknehmen": true, "rücknahme": true, "ruecknahme": true,
	"benachrichtigung": true,
	// trial report §6
	"herausforderung": true,
	// issue 11
	"turniere": true, "anmelden": true, "abmelden": true, "tabelle": true, "wertung": true,
	// issue 20
	"anzeigename": true,
	// issue 18
	"sperren": true, "entsperren": true,
}

// GermanKeyword reports whether word (any case) is a German command
// keyword, so that even a line that does not parse can be answered in
// German.
func GermanKeyword(word string) bool { return germanKeywords[strings.ToLower(word)] }

// commandWords are the first words that make a line a command.
var commandWords = map[string]bool{
	"new": true, "challenge": true, "accept": true, "decline": true, "offer": true,
	"board": true, "history": true, "games": true, "resign": true, "variants": true,
	"help": true, "language": true, "clock": true, "leave": true, "cancel": true,
	// issue 12; everyday words, commands only in a command's shape
	// (playersWordCommand)
	"watch": true, "unwatch": true, "private": true, "public": true, "messages": true,
	"if": true, "conditions": true, "takeback": true, "notify": true,
	// issue 11; commands only in a command's shape (tournamentProse)
	"tournaments": true, "join": true, "withdraw": true, "standings": true, "rating": true,
	// issue 20; a command only in a command's shape (nameProse)
	"name": true,
	// issue 18; commands only in a command's shape (consentProse)
	"block": true, "unblock": true,
}

func init() {
	for w := range germanKeywords {
		commandWords[w] = true
	}
}

// commandRules are the token rules of a command line. A move is taken
// whole as one MoveText token and parsed by the move grammar afterwards,
// so its errors point inside it. email is the pattern of the Email rule.
func commandRules(email string) []lexer.SimpleRule {
	return []lexer.SimpleRule{
		{Name: "Email", Pattern: email},
		{Name: "Date", Pattern: patDate},
		{Name: "Int", Pattern: `[0-9]+`},
		{Name: "Dots", Pattern: `\.+`},
		{Name: "MoveText", Pattern: `[A-Za-z]{1,2}[0-9]+[^\s]*`},
		{Name: "Word", Pattern: `[\p{L}][\p{L}\p{N}_\-]*`},
		{Name: "Punct", Pattern: `[^\s]`},
		{Name: "space", Pattern: `\s+`},
	}
}

// commandLexer lexes one line of a mail (commandRules).
//
// The Email rule comes first and reads a whole run of letters, digits,
// dots and signs before it fails for want of an "@"; tried at every
// token of a run like "1.1.1.1…", that costs the square of the run's
// length (about 18 ms for 1000 bytes, docs/performance.md). A line
// without "@" can hold no address, so it is lexed by the same rules with
// an Email pattern that fails at its first character: linear. The symbol
// tables of the two are the same (TestCommandLexersAgree).
var commandLexer = addressLexer{
	with:    lexer.MustSimple(commandRules(`<?[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+>?`)),
	without: lexer.MustSimple(commandRules(`@[^\s\S]`)), // needs an "@": never tried in earnest
}

// addressLexer is a participle lexer.Definition that lexes a line with
// with when it contains an "@" and with without otherwise.
type addressLexer struct{ with, without *lexer.StatefulDefinition }

// Symbols returns the token types, the same for both lexers.
func (a addressLexer) Symbols() map[string]lexer.TokenType { return a.with.Symbols() }

// LexString lexes s, a command line.
func (a addressLexer) LexString(filename, s string) (lexer.Lexer, error) {
	if strings.Contains(s, "@") {
		return a.with.LexString(filename, s)
	}
	return a.without.LexString(filename, s)
}

// Lex lexes what r holds (participle's ParseString and ParseBytes use
// LexString; this is for ParseReader). ParseCommand never reads more than
// MaxCommandLine bytes; the limit here only keeps a reader from growing
// without end.
func (a addressLexer) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxCommandLine+1))
	if err != nil {
		return nil, err
	}
	return a.LexString(filename, string(b))
}

// commandLine is the grammar of one command line.
type commandLine struct {
	Command Command `parser:"@@"`
}

var commandParser = participle.MustBuild[commandLine](
	participle.Lexer(commandLexer),
	participle.CaseInsensitive("Word"),
	participle.Union[Command](
		&NewGameCommand{}, &OfferDrawCommand{}, &AcceptDrawCommand{}, &DeclineDrawCommand{},
		&AcceptTakebackCommand{}, &DeclineTakebackCommand{}, &AcceptCommand{}, &DeclineCommand{}, &CancelChallengeCommand{}, &BoardCommand{}, &HistoryCommand{},
		&GamesCommand{}, &ResignCommand{}, &VariantsCommand{}, &HelpCommand{},
		&LanguageCommand{}, &ClockCommand{}, &CancelLeaveCommand{}, &LeaveCommand{},
		&UnwatchCommand{}, &WatchCommand{}, &PrivateCommand{}, &PublicCommand{}, &MessagesCommand{},
		&ConditionalCommand{}, &CancelConditionsCommand{}, &ConditionsCommand{},
		&TakebackCommand{}, &NotifyCommand{},
		&TournamentsCommand{}, &JoinCommand{}, &WithdrawCommand{}, &StandingsCommand{}, &RatingCommand{},
		&NameCommand{},
		&UnblockCommand{}, &BlockCommand{},
		&MoveCommand{},
	),
	participle.UseLookahead(3),
)

// CommandGrammar returns the command grammar as EBNF (docs/commands.md).
func CommandGrammar() string { return commandParser.String() }

// IsCommandLine reports whether a line of a mail is meant as a command: its
// first word is a command keyword (English or German, any case; for the
// everyday words clock, uhr, leave, urlaub, cancel and the tournament
// keywords only in a command's shape, see proseWordCommand and
// tournamentProse), or it starts with a move number (also "1 . d1-e1",
// dots apart) or something shaped like a move ("d1-d3", "Kf6-c6", also a
// broken "d1-d33" or "d1 d3"). Other lines are prose and ignored.
func IsCommandLine(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return false
	}
	w := f[0]
	if lw := strings.ToLower(w); commandWords[lw] {
		return proseWordCommand(lw, f)
	}
	if w[0] >= '0' && w[0] <= '9' {
		// a move number: "12." or "12..." or "12 d1-d3"; not "3 . . ."
		// (a rank of a quoted board diagram)
		rest := strings.TrimLeft(w, "0123456789")
		if rest != "" {
			return strings.HasPrefix(rest, ".") && (len(f) == 1 || !strings.HasPrefix(f[1], "."))
		}
		if len(f) > 2 && strings.Trim(f[1], ".") == "" {
			return looksLikeMove(f[2]) // "1 . d1-e1", "1 ... h6-h9"
		}
		return len(f) > 1 && looksLikeMove(f[1])
	}
	return looksLikeMove(w)
}

// proseWordCommand decides a line whose first word is a command keyword
// that is also an everyday word ("Leave it to me", "Uhr stellen"): such a
// line is a command only in a command's shape. "clock" and "uhr" stand
// alone; "leave" and "urlaub" stand alone, before their days
// (leaveDateStart) or before "abbrechen"; "cancel" comes before "leave", "urlaub",
// "conditions" or "challenge"; "herausforderung" before "zurückziehen".
// The tournament words are tournamentProse's, the everyday words of issue
// 12 playersWordCommand's; other keywords make any line a command.
func proseWordCommand(first string, f []string) bool {
	if command, ok := tournamentProse(first, f); ok {
		return command
	}
	if command, ok := consentProse(first, f); ok {
		return command
	}
	second := ""
	if len(f) > 1 {
		second = strings.ToLower(f[1])
	}
	switch first {
	case "clock", "uhr":
		return len(f) == 1
	case "leave", "urlaub":
		return len(f) == 1 || leaveDateStart(f[1:]) || first == "urlaub" && second == "abbrechen"
	case "cancel":
		return second == "leave" || second == "urlaub" || second == "conditions" || second == "challenge"
	case "herausforderung":
		return second == "zurückziehen" || second == "zurueckziehen"
	}
	return playersWordCommand(first, f)
}

// leaveDateStart reports whether the words after "leave"/"urlaub" start
// like its days: a word that starts with a digit (a date, even a
// malformed one, which then gets an error reply: "24.12.", "2026-12-24",
// "24 Dez"); a month name before such a word ("Dec 24", "Dez. 24"); or
// "from", "vom" or "von" before a word shaped like a date ("vom 24.12.",
// "from 24 Dec", "from Dec 24"), so that "Leave from 3 on" stays prose.
func leaveDateStart(w []string) bool {
	switch {
	case len(w) == 0:
		return false
	case digitStart(w[0]):
		return true
	case MonthNumber(strings.TrimSuffix(w[0], ".")) > 0:
		return len(w) > 1 && digitStart(w[1])
	}
	switch strings.ToLower(w[0]) {
	case "from", "vom", "von":
		if len(w) < 2 {
			return false
		}
		if digitStart(w[1]) {
			return strings.ContainsAny(w[1], ".-/–") || len(w) > 2 && MonthNumber(strings.TrimSuffix(w[2], ".")) > 0
		}
		return MonthNumber(strings.TrimSuffix(w[1], ".")) > 0 && len(w) > 2 && digitStart(w[2])
	}
	return false
}

// digitStart reports whether w starts with a digit.
func digitStart(w string) bool { return w != "" && w[0] >= '0' && w[0] <= '9' }

// playersWordCommand decides a line whose first word is a command keyword
// of issue 12 that is also an everyday word ("If you like…", "Watch
// out", "Private matter"): such a line is a command only in a command's
// shape. "if"/"wenn" come before a move-shaped word; "watch" and
// "zuschauen" before a game id (letters and digits, six of them or with a
// digit), "zuschauen" also before "beenden"; "unwatch" stands alone or
// before a game id; "private",
// "privat", "public", "öffentlich", "conditions", "takeback" and
// "zurücknehmen" stand alone; "messages"/"nachrichten" come before on,
// off, an, aus or ein; "bedingungen" stands alone or before "löschen";
// "rücknahme" before "annehmen" or "ablehnen" ("cancel" before
// "conditions" is proseWordCommand's). Every other keyword makes any line
// a command.
func playersWordCommand(first string, f []string) bool {
	second := ""
	if len(f) > 1 {
		second = strings.ToLower(f[1])
	}
	switch first {
	case "if", "wenn":
		return len(f) > 1 && looksLikeMove(f[1])
	case "watch":
		return idShaped(strings.TrimRight(second, sentenceMarks))
	case "unwatch":
		return len(f) == 1 || idShaped(strings.TrimRight(second, sentenceMarks))
	case "zuschauen":
		return idShaped(strings.TrimRight(second, sentenceMarks)) || second == "beenden"
	case "private", "privat", "public", "öffentlich", "oeffentlich", "conditions",
		"takeback", "zurücknehmen", "zuruecknehmen":
		return len(f) == 1
	case "messages", "nachrichten":
		return len(f) == 2 && (second == "on" || second == "off" || second == "an" || second == "aus" || second == "ein")
	case "bedingungen":
		return len(f) == 1 || second == "löschen" || second == "loeschen"
	case "rücknahme", "ruecknahme":
		return second == "annehmen" || second == "ablehnen"
	case "notify", "benachrichtigung":
		return notifyShape(second) // notify.go
	case "name", "anzeigename":
		return nameProse(f) // command_name.go
	}
	return true
}

// idShaped reports whether a word looks like a game's or a tournament's
// id: letters and digits (after the first also "-" and "_"), and six of
// them or at least one digit, "-" or "_" ("K7QX2M", "autumn2026",
// "spring-cup"), so that "watch this" stays prose.
func idShaped(w string) bool {
	return w != "" && alphanumeric(w[:1]) && idPunct(w) && (len(w) == 6 || strings.ContainsAny(w, "0123456789-_"))
}

// MaxCommandLine is the longest line, in bytes, that ParseCommand reads.
// The longest command people write (a challenge with its time control and
// opponent, a leave with two dates, a name) is under 150 bytes; a longer
// line is refused unread, so no mail can make the lexer work long.
const MaxCommandLine = 1000

// cut returns the largest index i <= n at a rune boundary of s.
func cut(s string, n int) int {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// ParseCommand parses one line of a mail as a command. filename and line
// (1-based) place the positions in errors and nodes. The line must hold
// exactly one command; trailing words are an error, and so is a line of
// more than MaxCommandLine bytes, which is not lexed. Errors are *Error
// ("mail:3:9: expected end of line, found \"please\""); it never panics.
func ParseCommand(filename string, line int, src string) (cmd Command, err error) {
	defer guard(filename, &err)
	if e := checkCommandLine(filename, line, src); e != nil {
		return nil, e
	}
	c, err := commandParser.ParseString(filename, src)
	if err != nil {
		return nil, commandSyntaxError(err, filename, line, src)
	}
	cmd = c.Command
	base := lexer.Position{Filename: filename, Line: line, Column: 1}
	if err := placeCommand(cmd, filename, base, src); err != nil {
		return nil, err
	}
	return cmd, nil
}

// checkCommandLine refuses, before lexing, a line src (line line of
// filename) that checkText refuses, that is longer than MaxCommandLine
// bytes (at the first rune past the limit) or that holds a line break
// (at the break). It returns nil for a line the parser may read.
func checkCommandLine(filename string, line int, src string) *Error {
	if e := checkText(filename, []byte(src)); e != nil {
		e.Line = line
		return e
	}
	base := lexer.Position{Filename: filename, Line: line, Column: 1}
	if len(src) > MaxCommandLine {
		p := base
		p.Column += utf8.RuneCountInString(src[:cut(src, MaxCommandLine)])
		return newError(p, "a command line may be at most %d bytes long; this one has %d", MaxCommandLine, len(src))
	}
	if i := strings.IndexAny(src, "\r\n"); i >= 0 {
		p := base
		p.Column += utf8.RuneCountInString(src[:i])
		return newError(p, "a command must fit on one line")
	}
	return nil
}

// commandSyntaxError turns the parser's error err for the line src
// (line line of filename) into the *Error a player reads: a line that
// starts like a move reports what the move lacks (ParsePly), the
// position moves to the mail's line, and the expected words are a
// player's (a command or a move for the first word, unless
// secondWordError finds the second word wrong; tokenWords).
func commandSyntaxError(err error, filename string, line int, src string) *Error {
	e := convertError(err, filename, []byte(src), "end of line")
	if f := strings.Fields(src); len(f) > 0 && looksLikeMove(f[0]) && !strings.Contains(f[0], "-") {
		// "d1 d3", "d1": report what the move lacks, not the second word
		if _, perr := ParsePly(filename, []byte(f[0])); perr != nil {
			e = perr.(*Error)
			at := strings.Index(src, f[0])
			if e.Found == "end of input" && len(f) > 1 {
				// "d6 - d9", "d1 e1": the move's word ends, the line does not
				e.Found = "white space"
				e.Message = "expected " + e.Expected + ", found " + e.Found
			}
			e.Col += at
		}
	}
	e.Line += line - 1
	if e.Expected == "" && strings.HasPrefix(e.Message, "unexpected") {
		e.Found = strings.TrimPrefix(e.Message, "unexpected ")
	}
	if e.Col == 1 && secondWordError(e, src) {
		// "remis anbiten": the second word is wrong, not the first
	} else if e.Col == 1 && e.Expected != "" {
		e.Expected = "a command (see help) or a move such as d1-d3"
	}
	e.Expected = tokenWords.Replace(e.Expected)
	return e
}

// placeCommand moves the positions of cmd, parsed from src as line 1,
// to base (the mail's line) and finishes what the parser leaves to
// code: the moves of a conditional, the checks of notify, new and
// leave, and a move's ply (parseMovePly). Its error is the first of
// these checks' *Error.
func placeCommand(cmd Command, filename string, base lexer.Position, src string) error {
	shiftCommand(cmd, base)
	if p, ok := cmd.(partShifter); ok {
		p.shiftParts(base)
	}
	switch c := cmd.(type) {
	case *WatchCommand:
		c.Target.Pos = shift(base, c.Target.Pos)
		if c.Key != nil {
			c.Key.Pos = shift(base, c.Key.Pos)
		}
	case *UnwatchCommand:
		if c.Target != nil {
			c.Target.Pos = shift(base, c.Target.Pos)
		}
	case *ConditionalCommand:
		return c.parseMoves(filename, base)
	case *NotifyCommand:
		return c.finish(base)
	case *NewGameCommand:
		return c.finish(filename, base, src)
	case *LeaveCommand:
		return c.finish(filename, base, src)
	case *MoveCommand:
		return parseMovePly(c, filename, base, src)
	}
	return nil
}

// parseMovePly reads the text of the move m (of the line src, placed
// at base) as a ply into m.Ply. A ply that does not parse is an *Error
// at its place in the line: after a move number, where the text stands.
func parseMovePly(m *MoveCommand, filename string, base lexer.Position, src string) error {
	ply, err := ParsePly(filename, []byte(m.Text))
	if err != nil {
		e := err.(*Error)
		textPos := m.Pos
		if m.Number > 0 {
			textPos = findText(src, m.Text, base)
		}
		if e.Line > 0 {
			e.Line = textPos.Line
			e.Col += textPos.Column - 1
		}
		return e
	}
	m.Ply = ply
	return nil
}

// shiftCommand moves the positions of a parsed command from line 1 to the
// line of the mail.
func shiftCommand(cmd Command, base lexer.Position) {
	switch c := cmd.(type) {
	case *MoveCommand:
		c.Pos = shift(base, c.Pos)
	case interface{ setPos(lexer.Position) }:
		c.setPos(shift(base, cmd.Position()))
	}
}

// finish fills Side, Time, Level and Engine from a new command whose
// positions are relative to line 1, moving them to base's line: each
// clause at most once, the time control parsed by ParseTimeControl, the
// address no longer than RFC 5321 allows (checkAddressLength). src is the
// line.
func (c *NewGameCommand) finish(filename string, base lexer.Position, src string) error {
	c.Engine = !strings.Contains(c.Opponent, "@")
	if !c.Engine {
		if err := checkAddressLength(c.Opponent, findText(src, c.Opponent, base)); err != nil {
			return err
		}
	}
	seenSide, seenLevel := false, false
	for _, o := range c.Options {
		o.Pos = shift(base, o.Pos)
		switch {
		case o.Level != "":
			if seenLevel {
				return newError(o.Pos, "the level is given twice")
			}
			seenLevel = true
			n, err := strconv.Atoi(o.Level)
			if err != nil {
				return newError(o.Pos, "number %s is too large", quoteFound(o.Level))
			}
			c.Level = n
		case o.Rated != "":
			if c.Rated {
				return newError(o.Pos, "rated is given twice")
			}
			c.Rated = true
		case o.Time != nil:
			o.Time.Pos = shift(base, o.Time.Pos)
			if c.Time != nil {
				return newError(o.Pos, "the time control is given twice")
			}
			tc, err := ParseTimeControl(filename, o.Time.Text)
			if err != nil {
				e := err.(*Error)
				e.Line = o.Time.Pos.Line
				e.Col += o.Time.Pos.Column - 1
				return e
			}
			shiftTimeControl(tc, o.Time.Pos)
			c.Time = tc
		default:
			if seenSide {
				return newError(o.Pos, "the side is given twice")
			}
			seenSide = true
			c.Side = o.Side
		}
	}
	return nil
}

// Address lengths of RFC 5321 §4.5.3.1: a local part (before the "@")
// of at most 64 octets, a path of at most 256 octets with its angle
// brackets, which leaves 254 for the address.
const (
	MaxLocalPartLength = 64
	MaxAddressLength   = 254
)

// checkAddressLength reports an address (as written, maybe in angle
// brackets) longer than RFC 5321 allows, as a *Error at pos quoting the
// address cut short (quoteFound): a mail cannot be sent to it, and a reply
// must not quote 100,000 characters of it (trial 2 report §1).
func checkAddressLength(written string, pos lexer.Position) *Error {
	addr := strings.Trim(written, "<>")
	local, _, _ := strings.Cut(addr, "@")
	switch {
	case len(local) > MaxLocalPartLength:
		return newError(pos, "the mail address %s has %d characters before the @, more than %d", quoteFound(addr), len(local), MaxLocalPartLength)
	case len(addr) > MaxAddressLength:
		return newError(pos, "the mail address %s has %d characters, more than %d", quoteFound(addr), len(addr), MaxAddressLength)
	}
	return nil
}

// finish parses the days of a leave command (ParseLeaveDates) from the
// line src, whose positions are relative to line 1, and moves them to
// base's line.
func (c *LeaveCommand) finish(filename string, base lexer.Position, src string) error {
	if c.Dates == nil {
		return nil
	}
	c.Dates.Text = strings.TrimRight(src[c.Dates.Pos.Offset:], " \t")
	at := shift(base, c.Dates.Pos)
	c.Dates.Pos = at
	ld, err := ParseLeaveDates(filename, c.Dates.Text)
	if err != nil {
		e := err.(*Error)
		e.Line = at.Line
		e.Col += at.Column - 1
		if e.Expected != "" { // the dates end where the line does
			e.Expected = strings.ReplaceAll(e.Expected, "end of input", "end of line")
			e.Found = strings.ReplaceAll(e.Found, "end of input", "end of line")
			e.Message = "expected " + e.Expected + ", found " + e.Found
		}
		return e
	}
	for _, d := range []*LeaveDay{ld.First, ld.Last} {
		if d != nil {
			d.Pos = shift(at, d.Pos)
		}
	}
	c.First, c.Last = ld.First, ld.Last
	return nil
}

// shiftTimeControl moves the positions of a time control parsed on its
// own to where its text starts (base).
func shiftTimeControl(tc *TimeControl, base lexer.Position) {
	tc.Pos = shift(base, tc.Pos)
	for _, d := range []*Duration{tc.Base, tc.Increment, tc.Cap} {
		if d == nil {
			continue
		}
		d.Pos = shift(base, d.Pos)
		for _, p := range d.Parts {
			p.Pos = shift(base, p.Pos)
		}
	}
}

// parseMoves parses each move of a conditional command with the move
// grammar, moving the positions (relative to line 1) to base's line; an
// error points into the move.
func (c *ConditionalCommand) parseMoves(filename string, base lexer.Position) error {
	for _, p := range c.Pairs {
		for _, m := range []*ConditionMove{p.If, p.Then} {
			m.Pos = shift(base, m.Pos)
			mv, err := ParseMove(filename, []byte(m.Text))
			if err != nil {
				e := err.(*Error)
				e.Line = m.Pos.Line
				e.Col += m.Pos.Column - 1
				return e
			}
			m.Move = mv
		}
	}
	return nil
}

// tokenWords names the command tokens in error messages.
var tokenWords = strings.NewReplacer(
	"<movetext>", "a move such as d1-d3",
	"<email>", "a mail address",
	"<word>", "a word",
	"<int>", "a number",
	"<date>", "a date as YYYY-MM-DD such as 2026-12-24",
	"Date", "a date as YYYY-MM-DD such as 2026-12-24",
	"TimeControlText", "a time control such as 30d+1d",
	"WatchTarget", "a game id such as K7QX2M",
	"ConditionMove", "a move such as d1-d3",
	"TimeOfDay", "a time as HH:MM such as 07:00",
	"TournamentID", "a tournament's id such as winter-2027",
	"EntryKey", "the key of your entry",
	"ConfirmKey", "the key I mailed you",
)

// looksLikeMove reports whether a word starts like a ply: one or two
// letters, then a digit.
func looksLikeMove(w string) bool {
	i := 0
	for i < len(w) && i < 2 && (w[i] >= 'a' && w[i] <= 'z' || w[i] >= 'A' && w[i] <= 'Z') {
		i++
	}
	return i > 0 && i < len(w) && w[i] >= '0' && w[i] <= '9'
}

// findText returns the position of the first occurrence of text in src.
func findText(src, text string, base lexer.Position) lexer.Position {
	i := strings.Index(src, text)
	if i < 0 {
		return base
	}
	p := base
	p.Advance(src[:i])
	return p
}
