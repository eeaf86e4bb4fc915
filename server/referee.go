package server

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/mailer"
)

// Dispositions of a processed mail (archive.ProcessedMail).
const (
	applied = "applied" // at least one command changed or answered something
	refused = "refused" // answered with an error, nothing changed
	ignored = "ignored" // not answered: a bounce, an auto-reply, our own mail
)

// session handles one incoming mail: it reads the commands, runs them and
// collects the archive change and the replies.
type session struct {
	srv  *Server
	ctx  context.Context
	msg  *mailer.Message
	now  time.Time
	from string
	lang string // the sender's reply language

	ref    gameRef
	tables map[string]*table
	player *archive.Player

	players map[string]*archive.Player // players whose row changes
	notes   map[string]*note           // replies by recipient
	order   []string
	failed  bool  // some command was refused
	did     bool  // some command succeeded
	readErr error // the first failed archive read, see noteReadErr
}

// note is one reply being composed for one recipient.
type note struct {
	to       string
	lang     string
	game     *table
	subject  string
	sections []string
}

// refusal is a command's failure: the text for the sender. Nothing the
// command did is kept.
type refusal struct{ text string }

func (r *refusal) Error() string { return r.text }

// refuse returns a refusal in the sender's language.
func (ss *session) refuse(key string, args ...any) error {
	return &refusal{text: tr(ss.lang, key, args...)}
}

// noteFor returns the reply being composed for addr, creating it.
func (ss *session) noteFor(addr, lang string, t *table) *note {
	if n, ok := ss.notes[addr]; ok {
		if n.game == nil {
			n.game = t
		}
		return n
	}
	n := &note{to: addr, lang: lang, game: t}
	ss.notes[addr] = n
	ss.order = append(ss.order, addr)
	return n
}

// say adds a section to the sender's reply.
func (ss *session) say(t *table, text string) {
	n := ss.noteFor(ss.from, ss.lang, t)
	n.sections = append(n.sections, text)
}

// tell adds a section to another player's reply, in their language.
func (ss *session) tell(addr string, t *table, text func(lang string) string) {
	lang := ss.langOf(addr)
	n := ss.noteFor(addr, lang, t)
	n.sections = append(n.sections, text(lang))
}

// langOf returns the reply language of a player.
func (ss *session) langOf(addr string) string {
	if addr == ss.from && ss.lang != "" {
		return ss.lang
	}
	if p, ok := ss.players[addr]; ok && p.Language != "" {
		return p.Language
	}
	p, err := ss.srv.store.Player(ss.ctx, addr)
	if err == nil && p.Language != "" {
		return p.Language
	}
	ss.noteReadErr(err)
	return ss.srv.opts.DefaultLanguage
}

// noteReadErr keeps the first archive read failure other than "not found":
// a mail decided on missing data must not be committed (decide returns the
// error, the mail stays unread and is tried again).
func (ss *session) noteReadErr(err error) {
	if err != nil && !errors.Is(err, archive.ErrNotFound) && ss.readErr == nil {
		ss.readErr = err
	}
}

// ownMail matches lines only the referee's own mails have (game header,
// move list, signature; not the greeting, which players write too), so that a reply quoting an earlier mail in full
// without quote marks is read only up to there: the quoted board and
// move list are never taken for commands.
var ownMail = regexp.MustCompile(`^[>\s]*((Game|Partie) [0-9A-Z]{6}: |Moves so far:|Bisherige Züge:|taflmail, the Tafl|taflmail, der Tafl)`)

// commandLine is one command found in the mail, with its line.
type commandLine struct {
	n    int // 1-based line number in the reply text
	text string
	cmd  grammar.Command
	err  error
}

// commands finds the command lines of the mail: the lines of the reply
// text that IsCommandLine accepts; when it has none, those of the HTML
// alternative (a plain part that is only a placeholder, issue 8 §5); when
// that has none either, the subject.
func (ss *session) commands() []commandLine {
	var out []commandLine
	for _, text := range []string{ss.msg.Reply, ss.msg.AltReply} {
		for i, line := range strings.Split(text, "\n") {
			line = strings.TrimRight(line, " \t\r")
			if ownMail.MatchString(line) {
				break // the rest is our own earlier mail, quoted without markers
			}
			if !grammar.IsCommandLine(line) {
				continue
			}
			cmd, err := grammar.ParseCommand("mail", i+1, line)
			out = append(out, commandLine{n: i + 1, text: line, cmd: cmd, err: err})
		}
		if len(out) > 0 {
			break
		}
	}
	if len(out) == 0 {
		if s := stripSubject(ss.msg.Subject); grammar.IsCommandLine(s) {
			cmd, err := grammar.ParseCommand("subject", 1, s)
			out = append(out, commandLine{n: 0, text: s, cmd: cmd, err: err})
		}
	}
	return out
}

// run executes the commands of the mail. It returns the archive change
// and whether the mail is to be answered at all.
func (ss *session) run() error {
	lines := ss.commands()
	if len(lines) == 0 {
		ss.failed = true
		ss.say(ss.contextTable(), tr(ss.lang, "err.nocommand"))
		ss.attachBoard()
		return nil
	}
	for _, l := range lines {
		if l.cmd != nil && l.cmd.German() || l.cmd == nil && firstWordGerman(l.text) {
			// German commands get German replies, now and (unless the
			// player chose a language) from now on.
			ss.lang = german
			if p := ss.playerRow(ss.from); p.Language == "" {
				p.Language = german
			}
		}
	}
	moves := 0
	for _, l := range lines {
		if _, ok := l.cmd.(*grammar.MoveCommand); ok {
			moves++
		}
	}
	if moves > 1 {
		ss.failed = true
		ss.say(ss.contextTable(), tr(ss.lang, "err.twomoves", moves)+"\n"+tr(ss.lang, "err.nothing"))
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
		if err := ss.dispatch(l); err != nil {
			var r *refusal
			if !errors.As(err, &r) {
				return err
			}
			ss.failed = true
			ss.say(ss.contextTable(), quoteLine(ss.lang, l)+r.text+"\n"+tr(ss.lang, "err.nothing"))
			ss.attachBoard()
			continue
		}
		ss.did = true
	}
	return nil
}

// firstWordGerman reports whether a line starts with a German keyword.
func firstWordGerman(line string) bool {
	f := strings.Fields(line)
	return len(f) > 0 && grammar.GermanKeyword(f[0])
}

// quoteLine quotes the line a refusal is about.
func quoteLine(lang string, l commandLine) string {
	if l.n == 0 {
		return "> " + l.text + "\n"
	}
	return tr(lang, "err.quote", l.n) + "\n> " + l.text + "\n"
}

// syntaxError explains a line that does not parse: the line, a caret under
// the column, what was expected.
func (ss *session) syntaxError(l commandLine) string {
	var b strings.Builder
	b.WriteString(quoteLine(ss.lang, l))
	var ge *grammar.Error
	col := 1
	if errors.As(l.err, &ge) {
		col = ge.Col
	}
	b.WriteString("  " + strings.Repeat(" ", max(col-1, 0)) + "^\n")
	if ge != nil && ge.Expected != "" {
		b.WriteString(tr(ss.lang, "err.expected", ge.Expected, ge.Found))
	} else if ge != nil {
		b.WriteString(ge.Message + ".")
	} else {
		b.WriteString(l.err.Error())
	}
	b.WriteString("\n" + tr(ss.lang, "err.nothing"))
	return b.String()
}

// attachBoard makes sure an error reply about a game shows its board.
func (ss *session) attachBoard() {
	if t := ss.contextTable(); t != nil {
		n := ss.noteFor(ss.from, ss.lang, t)
		n.game = t
	}
}

// contextTable returns the game the mail is about, if it names one that
// exists and the sender plays in.
func (ss *session) contextTable() *table {
	if ss.ref.id == "" {
		return nil
	}
	t, err := ss.table(ss.ref.id)
	if err != nil || sideOf(t.g, ss.from) == "" {
		return nil
	}
	return t
}

// table loads a game once per session.
func (ss *session) table(id string) (*table, error) {
	if t, ok := ss.tables[id]; ok {
		return t, nil
	}
	g, err := ss.srv.store.Game(ss.ctx, id)
	if errors.Is(err, archive.ErrNotFound) {
		return nil, ss.refuse("err.unknowngame", id)
	}
	if err != nil {
		return nil, err
	}
	t, err := load(g)
	if err != nil {
		return nil, err
	}
	ss.tables[id] = t
	return t, nil
}

// gameForCommand returns the game a game command acts on: the one the
// mail's subject or thread names. The sender must play in it and the mail
// must carry the sender's key for it (docs/security.md).
func (ss *session) gameForCommand() (*table, error) {
	if ss.ref.id == "" {
		return nil, ss.refuse("err.nogame")
	}
	t, err := ss.table(ss.ref.id)
	if err != nil {
		return nil, err
	}
	if sideOf(t.g, ss.from) == "" {
		return nil, ss.refuse("err.notplayer", t.g.ID)
	}
	if !ss.hasKey(t) {
		return nil, ss.refuse("err.badkey", t.g.ID, t.g.ID)
	}
	return t, nil
}

// hasKey reports whether the mail carries the sender's key for the game.
func (ss *session) hasKey(t *table) bool {
	want := tokenOf(t.g, ss.from)
	if want == "" {
		return false
	}
	for _, k := range ss.ref.tokens {
		if k == want {
			return true
		}
	}
	return false
}

// dispatch runs one parsed command.
func (ss *session) dispatch(l commandLine) error {
	switch c := l.cmd.(type) {
	case *grammar.NewGameCommand:
		return ss.newGame(c)
	case *grammar.AcceptCommand:
		return ss.accept()
	case *grammar.DeclineCommand:
		return ss.decline()
	case *grammar.MoveCommand:
		return ss.move(c)
	case *grammar.BoardCommand:
		return ss.board()
	case *grammar.HistoryCommand:
		return ss.history()
	case *grammar.GamesCommand:
		return ss.games()
	case *grammar.ResignCommand:
		return ss.resign()
	case *grammar.OfferDrawCommand:
		return ss.offerDraw()
	case *grammar.AcceptDrawCommand:
		return ss.acceptDraw()
	case *grammar.DeclineDrawCommand:
		return ss.declineDraw()
	case *grammar.VariantsCommand:
		return ss.variants()
	case *grammar.HelpCommand:
		return ss.help(c.Topic)
	case *grammar.LanguageCommand:
		return ss.language(c.Language)
	}
	return fmt.Errorf("server: unhandled command %T", l.cmd)
}
