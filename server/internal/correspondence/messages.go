package correspondence

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// Messages to the opponent (issue 12): the prose of a player's keyed mail
// about a game — what is left of the text after quotes, signatures,
// command lines and game tags are cut — goes to the opponent under the
// heading "<player> writes:", in the next mail the opponent gets about
// the game: this mail's, when it moves the game, else a later one (until
// then it waits on the game row, archive.Game.MessageToAttackers and
// MessageToDefenders). Never from a mail without the sender's key (a
// forger cannot put words in a player's mouth), never to spectators, never
// to a player who wrote "messages off".

// MaxMessageRunes caps what waits for one player in one game, in
// characters (runes): a longer message is cut and says so (the catalogue's
// "message.cut").
const MaxMessageRunes = 2000

// cutMark ends a message that was cut.
const cutMark = "\n[…]"

// MessageTo returns the message waiting for the player of side in g
// ("attackers" or "defenders"): a pointer into g's row, "" when none
// waits, so that delivering it clears it.
func MessageTo(g *archive.Game, side string) *string {
	if side == "attackers" {
		return &g.MessageToAttackers
	}
	return &g.MessageToDefenders
}

// Prose returns the sender's own words in the mail, for the opponent: the
// text the commands were read from (Reply, or AltReply when only it holds
// commands; both without quoted history and signature, mailer.StripQuoted)
// up to the referee's own mail quoted without marks (ownStart: from its
// greeting when that stands just above its first line), without command
// lines (misspelt ones included, nearLine), quoted lines and game tags, with the keys of game t replaced by
// "…"; runs of blank lines become one, blank lines at the ends go. A
// session of a cause that is no mail has none: "".
func Prose(ss *referee.Session, t *referee.Table) string {
	m := ss.Cause.Mail
	if m == nil {
		return "" // no mail, no words
	}
	text := m.Reply
	if !holdsCommand(text) && holdsCommand(m.AltReply) || strings.TrimSpace(text) == "" {
		text = m.AltReply
	}
	var lines []string
	only := referee.OnlyLine(text)
	all := strings.Split(text, "\n")
	if end := referee.OwnStart(all); end >= 0 {
		all = all[:end] // the referee's mail pasted below, its greeting included
	}
	for i, line := range all {
		line = strings.TrimRight(line, " \t\r")
		if grammar.IsCommandLine(line) || referee.NearLine(line, i == only) != "" || strings.HasPrefix(strings.TrimSpace(line), ">") || referee.SubjectTag.MatchString(line) {
			continue
		}
		if line == "" && (len(lines) == 0 || lines[len(lines)-1] == "") {
			continue
		}
		lines = append(lines, line)
	}
	return withoutKeys(strings.TrimSpace(strings.Join(lines, "\n")), t.Game.AttackerToken, t.Game.DefenderToken)
}

// withoutKeys returns text with every key among keys, in any case,
// replaced by "…"; an empty key is none.
func withoutKeys(text string, keys ...string) string {
	for _, key := range keys {
		if key != "" {
			text = regexp.MustCompile("(?i)"+regexp.QuoteMeta(key)).ReplaceAllString(text, "…")
		}
	}
	return text
}

// greeting returns the challenger's words for the invitation to game t
// (issue 22 §11), which this mail's "new" created, and what the
// challenger is told about them: the mail's prose as the relay takes it
// (Prose), with the keys of every game of the sender replaced by "…",
// cut to MaxMessageRunes as the relay cuts. Nothing ("", "") when there is
// no prose, or when the mail carries a key: a keyed mail's words go to the
// opponent of its game (relayProse). An invited player who wrote
// "messages off" gets no greeting, nor does one that never wrote to the
// referee (proved, consent.go): a challenge's From can be forged, and the
// referee mails such an address only the invitation it would send anyway,
// with no words of the sender's. The challenger is told either way.
func greeting(ss *referee.Session, t *referee.Table) (text, told string, err error) {
	if ss.Auth != nil {
		return "", "", nil
	}
	text = Prose(ss, t)
	if text == "" {
		return "", "", nil
	}
	opp := referee.OpponentOf(t.Game, ss.From)
	if MessagesOff(ss, opp) {
		return "", referee.Tr(ss.Lang, "message.refused", opp), nil
	}
	if !ss.Proved(opp) {
		return "", referee.Tr(ss.Lang, "message.unproved", opp), nil
	}
	gs, err := ss.Server.GamePort().GamesOf(ss.Ctx, ss.From)
	if err != nil {
		return "", "", err
	}
	for _, g := range gs {
		text = withoutKeys(text, g.AttackerToken, g.DefenderToken)
	}
	for _, o := range ss.Tables { // games of this mail, not stored yet
		text = withoutKeys(text, o.Game.AttackerToken, o.Game.DefenderToken)
	}
	told = referee.Tr(ss.Lang, "message.sent", opp)
	if utf8.RuneCountInString(text) > MaxMessageRunes {
		text = string([]rune(text)[:MaxMessageRunes-utf8.RuneCountInString(cutMark)]) + cutMark
		told += " " + referee.Tr(ss.Lang, "message.cut", MaxMessageRunes)
	}
	return text, told, nil
}

// greetingOffer is the challenger's part of a challenge of t (newGame)
// for messages: what the challenger is told of their words (greeting)
// and, for the invitation, those words under a heading naming them.
func greetingOffer(ss *referee.Session, t *referee.Table) (referee.Offer, error) {
	text, told, err := greeting(ss, t)
	if err != nil {
		return referee.Offer{}, err
	}
	var o referee.Offer
	if told != "" {
		o.Told = "\n" + told
	}
	if text != "" {
		from := ss.From
		o.Words = func(lang string) string {
			return "\n\n" + referee.Tr(lang, "message.heading", from) + "\n\n" + referee.Indent(text) + "\n"
		}
	}
	return o, nil
}

// holdsCommand reports whether text has a command line, or a misspelt
// one (nearLine), above the referee's mail pasted without quote marks
// (ownStart), whose lines commandLines does not read either.
func holdsCommand(text string) bool {
	only := referee.OnlyLine(text)
	lines := strings.Split(text, "\n")
	if end := referee.OwnStart(lines); end >= 0 {
		lines = lines[:end]
	}
	for i, line := range lines {
		if grammar.IsCommandLine(line) || referee.NearLine(line, i == only) != "" {
			return true
		}
	}
	return false
}

// relayOnly handles a mail without command lines that carries the
// sender's key for its game: it is answered "no command" as any such
// mail (a player who wrote "I play d3-f3" must learn that nothing was
// played), and its prose waits for the opponent (keepMessage). A message
// passed on is what the mail asked for, so the mail is applied, not
// refused, and a chatty player stays clear of the loop breaker's refusal
// cap (caps.go; its cap on answers still counts the mail). A message
// not passed on (the text already waits, the opponent is the engine or
// takes no messages, the game is over) is refused: an auto-responder
// that quotes our subject, and so our key, says the same again and again,
// and the refusal cap stops it. It reports false, leaving the mail to the
// plain "no command" answer, when there is no such key or no prose.
func relayOnly(ss *referee.Session) bool {
	t := ss.Auth
	if t == nil {
		return false
	}
	text := Prose(ss, t)
	if text == "" {
		return false
	}
	told, kept := keepMessage(ss, t, text)
	if kept {
		ss.Did = true
	} else {
		ss.Failed = true
		ss.Refusals = append(ss.Refusals, "err.nocommand")
	}
	ss.Say(t, referee.Tr(ss.Lang, "err.nocommand")+"\n"+told)
	return true
}

// relayProse runs after the mail's commands: the prose of a keyed mail
// that did something waits for the opponent (keepMessage), and every
// reply of this mail about a game that is written gets the message
// waiting for its recipient (deliverMessages). A keyed mail all of whose
// commands were refused passes nothing on, and says so.
func relayProse(ss *referee.Session) {
	if t := ss.Auth; t != nil {
		if text := Prose(ss, t); text != "" {
			if ss.Did {
				told, _ := keepMessage(ss, t, text)
				ss.Say(t, told)
			} else {
				ss.Say(t, referee.Tr(ss.Lang, "message.notdone"))
			}
		}
	}
	deliverMessages(ss)
}

// keepMessage keeps text, the sender's prose, for the opponent in t — on
// the game row, after what already waits there unless the last message
// waiting is text already (an auto-responder saying the same again;
// sameAsLast), cut to
// MaxMessageRunes — and delivers what waits (deliverMessages). It returns
// what the sender is told: passed on, waiting for the next mail, cut, or
// why not (the text waits already; the opponent is the engine; the game
// was over before this mail; the opponent wrote "messages off"); and
// kept, whether text was kept (passed on, or waiting).
func keepMessage(ss *referee.Session, t *referee.Table, text string) (told string, kept bool) {
	opp := referee.OpponentOf(t.Game, ss.From)
	switch {
	case referee.IsEngine(opp):
		return referee.Tr(ss.Lang, "message.engine"), false // it reads no mail (engine.go)
	case t.Game.Status != archive.Invited && t.Game.Status != archive.Active && !t.Changed:
		return referee.Tr(ss.Lang, "message.over", t.Game.ID), false
	case MessagesOff(ss, opp):
		return referee.Tr(ss.Lang, "message.refused", opp), false
	}
	msg := MessageTo(t.Game, referee.SideOf(t.Game, opp))
	if sameAsLast(*msg, text) {
		return referee.Tr(ss.Lang, "message.same", opp), false
	}
	combined := text
	if *msg != "" {
		combined = *msg + "\n\n" + text
	}
	cut := utf8.RuneCountInString(combined) > MaxMessageRunes
	if cut {
		combined = string([]rune(combined)[:MaxMessageRunes-utf8.RuneCountInString(cutMark)]) + cutMark
	}
	if !t.Changed {
		cor := corrOf(ss)
		if cor.quiet == nil {
			cor.quiet = map[string]bool{}
		}
		cor.quiet[t.Game.ID] = true
	}
	*msg, t.Changed = combined, true
	if n := ss.NoteFor(ss.From, ss.Lang, t); n.Game == nil {
		n.Game = t
	}
	deliverMessages(ss)
	told = referee.Tr(ss.Lang, "message.later", opp)
	if *msg == "" {
		told = referee.Tr(ss.Lang, "message.sent", opp)
	}
	if cut {
		told += " " + referee.Tr(ss.Lang, "message.cut", MaxMessageRunes)
	}
	return told, true
}

// deliverMessages adds to each reply about a game that this mail writes
// (the game changed, or the sender's keyed mail did something) the
// message waiting for its recipient, under the heading "<opponent>
// writes:", and clears it; a message for a player who wrote "messages
// off" is dropped. A message that does not fit into the replies
// (maxReplyText) keeps waiting.
func deliverMessages(ss *referee.Session) {
	for _, key := range ss.Order {
		n := ss.Notes[key]
		if n == nil || n.Game == nil || ss.NoteHeld(n) {
			continue // held back (a noteHolder: the daily digest, which delivers it)
		}
		addr := n.To
		t := n.Game
		side := referee.SideOf(t.Game, addr)
		if side == "" || !(t.Changed || ss.Did && t == ss.Auth) {
			continue
		}
		msg := MessageTo(t.Game, side)
		if *msg == "" {
			continue
		}
		if MessagesOff(ss, addr) {
			*msg, t.Changed = "", true
			continue
		}
		before := len(n.Sections)
		ss.AddSection(n, referee.Tr(n.Lang, "message.heading", referee.OpponentOf(t.Game, addr))+"\n\n"+referee.Indent(*msg))
		if len(n.Sections) > before {
			*msg, t.Changed = "", true
			delete(corrOf(ss).quiet, t.Game.ID) // delivering is a change the loop breaker must not hide
		}
	}
}

// MessagesOff reports whether addr wrote "messages off": the session's
// player row when the mail loaded it, else the stored one. A store that
// cannot be read is noted (ss.NoteReadErr) and counts as false.
func MessagesOff(ss *referee.Session, addr string) bool {
	if p, ok := ss.Players[addr]; ok {
		return p.MessagesOff
	}
	p, err := ss.StoredPlayer(addr)
	if err != nil {
		ss.NoteReadErr(err)
		return false
	}
	return p.MessagesOff
}

// sameAsLast reports whether text is the last of the messages in waiting,
// which keepMessage joins with a blank line: the whole of waiting, or
// what follows its last "\n\n". A text that only ends the same way
// ("Later!" after "Fine. Later!") is a message of its own.
func sameAsLast(waiting, text string) bool {
	return waiting == text || strings.HasSuffix(waiting, "\n\n"+text)
}
