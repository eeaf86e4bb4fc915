package referee

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/catalog"
)

// Session handles one cause (cause.go): for a mail it reads the
// commands, runs them and collects the archive change and the replies.
type Session struct {
	// Server is the referee the session works for: its options, its ports.
	Server *Server
	// Ctx is the context of the cause's attempt; archive reads take it.
	Ctx   context.Context
	Cause Cause // what the session decides: its seed seeds the replies' Message-IDs
	// Now is the instant the session decides at, the same for every
	// command of the mail (the cause's At, or Options.Now at its start).
	Now time.Time
	// From is the lower-case address the mail came from, "" for a cause
	// that is no mail.
	From string
	Lang string // the sender's reply language

	// Ref is the game the mail names (its subject, its thread or its
	// text) with the tokens it carries (ids.go).
	Ref gameRef
	// Tables are the games loaded in this session, by game id (Game,
	// CreateGame): what the session changes of them is collected.
	Tables map[string]*Table
	// Auth is the game the mail carries the sender's valid key for (the
	// game it names, which the sender plays in), or nil: then the mail is
	// a stranger's as far as the caps go (caps.go).
	Auth *Table
	// Lines are the mail's command lines (CommandLines); unread says how
	// many more distinct command lines were left unread.
	Lines  []CommandLine
	unread int
	// marked reports that the command line being run was read with
	// sentence marks at its ends (CommandLine.marked): a handler asks
	// rather than ends a game on it (offerDraw).
	marked bool
	// text is how many bytes of section text the replies hold so far;
	// cut reports that a section was dropped for MaxReplyText.
	text int
	cut  bool
	// overview reports that a reply holds the help overview already.
	overview bool

	Players map[string]*archive.Player // players whose row changes
	// Stored are the player rows read from the archive (StoredPlayer),
	// each read once per session, by address as asked.
	Stored map[string]storedRow
	// Notes are the replies: by recipient, and for a game a mail starts
	// beside another game of the same recipient, by recipient and game
	// (noteKey, StartNote); order holds their keys in the order made.
	Notes map[string]*Note
	// Order holds the keys of Notes in the order the notes were made:
	// the replies are mailed in it.
	Order   []string
	Failed  bool  // some command was refused
	Did     bool  // some command succeeded
	ReadErr error // the first failed archive read, see NoteReadErr

	// Refusals are the keys of the mail's refusals, in order (run): each
	// refused command's (refusal.keys), and err.nocommand (run,
	// relayOnly), err.twomoves or err.manygames for a mail refused as a
	// whole. A line that does not parse is answered (syntax.go) but no
	// refusal.
	Refusals []string

	// States are the feature modules' own states in this session, one
	// slot per module that made one (StateOf, module.go), nil while the
	// session touched no feature: the session knows none of them.
	States map[Module]any
	// Own: the session is a change no mail caused (the director's
	// command, a withdrawal's games ended by the referee; Server.change),
	// so the caps on the replies to one mail do not apply.
	Own bool

	// drawn are the game ids drawn by the other sessions of one decision
	// that starts many games (StartGames), nil for none. GameID draws
	// past them and past Batch's.
	drawn map[string]bool
	// Batch is the archive transaction a tournament's start writes its
	// games through (tournament_start.go), nil for none.
	Batch *archive.Batch
	// langs caches LangOf's answers read from the archive, so that a
	// session that must not read the archive (one writing through Batch)
	// can be given them beforehand.
	langs map[string]string
}

// CommandLine is one command found in the mail, with its line.
type CommandLine struct {
	N    int    // 1-based line number in the reply text
	Text string // the line as written, for quoting it in the reply
	cmd  grammar.Command
	Err  error // the parse error of a line that does not parse, else nil
	// marked reports that the command was read from a line with
	// sentence marks at its ends ("Draw?", punctuated).
	marked bool
}

// GameID draws a new game's id that no stored game has, none of this
// session's, none drawn by the other sessions of its decision (drawn)
// and none written by its batch (FreshGameID).
func (ss *Session) GameID() (string, error) {
	id, err := FreshGameID(ss.Server.Opts.Rand, func(id string) (bool, error) {
		switch {
		case ss.Tables[id] != nil || ss.drawn[id]:
			return true, nil
		case ss.Batch != nil:
			return ss.Batch.GameIDTaken(id)
		}
		return ss.Server.GamePort().GameIDTaken(ss.Ctx, id)
	})
	if err == nil && ss.drawn != nil {
		ss.drawn[id] = true
	}
	return id, err
}

// NewSession starts the session of cause c, from its sender (a mail's,
// else nobody), at its instant (c.at, else now).
func (s *Server) NewSession(ctx context.Context, c Cause) *Session {
	now := c.At
	if now.IsZero() {
		now = s.Opts.Now()
	}
	return &Session{
		Server: s, Ctx: ctx, Cause: c, Now: now, From: c.From,
		Tables: map[string]*Table{}, Players: map[string]*archive.Player{}, Notes: map[string]*Note{},
	}
}

// noteKey is the key in Session.Notes of the reply to addr about the
// game id that is not addr's main reply (StartNote).
func noteKey(addr, id string) string { return addr + "\x00" + id }

// StartNote returns the reply to addr that starts game t (a challenge, an
// invitation, a game against the engine): addr's main reply, unless that
// is about another game already; then a reply of its own, so that every
// game a mail starts has its own mail with its tag, board and key (trial
// 2 report §10). NoteFor finds it again by t.
func (ss *Session) StartNote(addr, lang string, t *Table) *Note {
	if n, ok := ss.Notes[addr]; ok && n.Game != nil && n.Game != t {
		key := noteKey(addr, t.Game.ID)
		if n, ok := ss.Notes[key]; ok {
			return n
		}
		n := &Note{To: addr, Lang: lang, Game: t}
		ss.Notes[key] = n
		ss.Order = append(ss.Order, key)
		return n
	}
	return ss.NoteFor(addr, lang, t)
}

// dropNotes drops every reply to addr.
func (ss *Session) dropNotes(addr string) {
	for key, n := range ss.Notes {
		if n.To == addr {
			delete(ss.Notes, key)
		}
	}
}

// NoteFor returns the reply being composed for addr, creating it: the one
// about game t when StartNote made one, else addr's main reply.
func (ss *Session) NoteFor(addr, lang string, t *Table) *Note {
	if t != nil {
		if n, ok := ss.Notes[noteKey(addr, t.Game.ID)]; ok {
			return n
		}
	}
	if n, ok := ss.Notes[addr]; ok {
		if n.Game == nil {
			n.Game = t
		}
		return n
	}
	n := &Note{To: addr, Lang: lang, Game: t}
	ss.Notes[addr] = n
	ss.Order = append(ss.Order, addr)
	return n
}

// Say adds a section to the sender's reply.
func (ss *Session) Say(t *Table, text string) {
	ss.AddSection(ss.NoteFor(ss.From, ss.Lang, t), text)
}

// Tell adds a section to another player's reply, in their language.
func (ss *Session) Tell(addr string, t *Table, text func(lang string) string) {
	lang := ss.LangOf(addr)
	ss.AddSection(ss.NoteFor(addr, lang, t), text(lang))
}

// AddSection adds a section to note n unless the replies to this mail
// already hold MaxReplyText bytes of text: then it is dropped and the
// sender is told that the answer was cut (compose), so that no mail can
// make the referee write more than MaxReplyBytes (issue 8 §2).
func (ss *Session) AddSection(n *Note, text string) {
	if !ss.Own && ss.text+len(text) > MaxReplyText {
		ss.cut = true
		ss.NoteFor(ss.From, ss.Lang, nil) // compose tells the sender (err.cut)
		return
	}
	ss.text += len(text)
	n.Sections = append(n.Sections, text)
}

// LangOf returns the reply language of a player.
func (ss *Session) LangOf(addr string) string {
	if addr == ss.From && ss.Lang != "" {
		return ss.Lang
	}
	if p, ok := ss.Players[addr]; ok && p.Language != "" {
		return p.Language
	}
	if lang, ok := ss.langs[addr]; ok {
		return lang
	}
	lang := ss.Server.Opts.DefaultLanguage
	p, err := ss.StoredPlayer(addr)
	if err == nil && p.Language != "" {
		lang = p.Language
	}
	ss.NoteReadErr(err)
	if err == nil || errors.Is(err, archive.ErrNotFound) {
		if ss.langs == nil {
			ss.langs = map[string]string{}
		}
		ss.langs[addr] = lang
	}
	return lang
}

// NoteReadErr keeps the first archive read failure other than "not found":
// a mail decided on missing data must not be committed (decide returns the
// error, the mail stays unread and is tried again).
func (ss *Session) NoteReadErr(err error) {
	if err != nil && !errors.Is(err, archive.ErrNotFound) && ss.ReadErr == nil {
		ss.ReadErr = err
	}
}

// storedRow is a player row as read (StoredPlayer): the row, or the
// error archive.ErrNotFound for a player never stored.
type storedRow struct {
	p   *archive.Player
	err error
}

// StoredPlayer returns addr's player row as the archive holds it, read
// once per session: the mail's decision asks for the same rows many times
// (its language, digest, proof, block, messages) and nothing the session
// decides is written before its commit, so every read would give the same
// row. It is archive.Player's answer: archive.ErrNotFound for a player
// never stored, kept like a row; any other error is not kept, so the next
// call reads again. The row is shared: callers must not change it
// (PlayerRow copies it).
func (ss *Session) StoredPlayer(addr string) (*archive.Player, error) {
	if r, ok := ss.Stored[addr]; ok {
		return r.p, r.err
	}
	p, err := ss.Server.GamePort().Player(ss.Ctx, addr)
	if err == nil || errors.Is(err, archive.ErrNotFound) {
		if ss.Stored == nil {
			ss.Stored = map[string]storedRow{}
		}
		ss.Stored[addr] = storedRow{p, err}
	}
	return p, err
}

// PlayerRow returns the player row of addr that this mail writes.
func (ss *Session) PlayerRow(addr string) *archive.Player {
	if p, ok := ss.Players[addr]; ok {
		return p
	}
	p := &archive.Player{Address: addr}
	if stored, err := ss.StoredPlayer(addr); err == nil {
		*p = *stored
	} else {
		ss.NoteReadErr(err)
	}
	ss.Players[addr] = p
	return p
}

// Table loads a game once per session.
func (ss *Session) Table(id string) (*Table, error) {
	if t, ok := ss.Tables[id]; ok {
		return t, nil
	}
	g, err := ss.Server.GamePort().Game(ss.Ctx, id)
	if errors.Is(err, archive.ErrNotFound) {
		return nil, ss.Refuse("err.unknowngame", Clip(id))
	}
	if err != nil {
		return nil, err
	}
	t, err := Load(g)
	if err != nil {
		return nil, err
	}
	ss.Tables[id] = t
	return t, nil
}

// ContextTable returns the game the mail is about, if it names one that
// exists and the sender plays in.
func (ss *Session) ContextTable() *Table {
	if ss.Ref.ID == "" {
		return nil
	}
	t, err := ss.Table(ss.Ref.ID)
	if err != nil || SideOf(t.Game, ss.From) == "" {
		return nil
	}
	return t
}

// attachBoard makes sure an error reply about a game shows its board.
func (ss *Session) attachBoard() {
	if t := ss.ContextTable(); t != nil {
		n := ss.NoteFor(ss.From, ss.Lang, t)
		n.Game = t
	}
}

// GameForCommand returns the game a game command acts on: the one the
// mail's subject or thread names. The sender must play in it and the mail
// must carry the sender's key for it (docs/security.md).
func (ss *Session) GameForCommand() (*Table, error) {
	if ss.Ref.ID == "" && len(ss.Ref.Several) > 1 {
		return nil, ss.Refuse("err.manygames", strings.Join(ss.Ref.Several, ", "))
	}
	if ss.Ref.ID == "" {
		return nil, ss.Refuse("err.nogame")
	}
	t, err := ss.Table(ss.Ref.ID)
	if err != nil {
		return nil, err
	}
	if SideOf(t.Game, ss.From) == "" {
		return nil, ss.Refuse("err.notplayer", t.Game.ID)
	}
	if !ss.hasKey(t) {
		return nil, ss.Refuse("err.badkey", t.Game.ID, t.Game.ID)
	}
	return t, nil
}

// authenticate sets ss.Auth: the game the mail names, when the sender
// plays in it and the mail carries the sender's key for it. Only an
// archive failure is returned.
func (ss *Session) authenticate() error {
	if ss.Ref.ID == "" {
		return nil
	}
	t, err := ss.Table(ss.Ref.ID)
	var r *Refusal
	if errors.As(err, &r) {
		return nil // no such game
	}
	if err != nil {
		return err
	}
	if SideOf(t.Game, ss.From) != "" && ss.hasKey(t) {
		ss.Auth = t
	}
	return nil
}

// hasKey reports whether the mail carries the sender's key for the game.
func (ss *Session) hasKey(t *Table) bool {
	want := TokenOf(t.Game, ss.From)
	if want == "" {
		return false
	}
	for _, k := range ss.Ref.Tokens {
		if k == want {
			return true
		}
	}
	return false
}

// CreateGame makes the invited game of the sender against opp, the sender
// playing side, with a fresh id and a key for each player.
func (ss *Session) CreateGame(v *engine.Variant, opp, side string) (*Table, error) {
	id, err := ss.GameID()
	if err != nil {
		return nil, err
	}
	g := &archive.Game{ID: id, Variant: v.Name, Challenger: ss.From, Status: archive.Invited, CreatedAt: ss.Now}
	if side == "attackers" {
		g.Attackers, g.Defenders = ss.From, opp
	} else {
		g.Attackers, g.Defenders = opp, ss.From
	}
	if g.AttackerToken, err = NewToken(ss.Server.Opts.Rand); err != nil {
		return nil, err
	}
	if g.DefenderToken, err = NewToken(ss.Server.Opts.Rand); err != nil {
		return nil, err
	}
	t, err := Load(g)
	if err != nil {
		return nil, err
	}
	t.Changed = true
	ss.Tables[id] = t
	return t, nil
}

// RefusalOf returns the refusal of key with args in the sender's
// language, for code that adds words of its own (Refusal.Before, After);
// Refuse is the usual way. A word of the mail among args (an address, a
// game id) must be cut with Clip.
func (ss *Session) RefusalOf(key string, args ...any) *Refusal {
	return &Refusal{lang: ss.Lang, Key: key, args: args}
}

// Refuse returns the refusal of key with args in the sender's language
// (RefusalOf). A word of the mail among args (an address, a game id) must
// be cut with Clip.
func (ss *Session) Refuse(key string, args ...any) error {
	return ss.RefusalOf(key, args...)
}

// Refusen is Refuse for a text about n things: written in the key's
// singular form, key + ".one", when n is 1 and the catalogue has one
// (catalog.KeyForCount, as Trn); its key is key either way.
func (ss *Session) Refusen(key string, n int, args ...any) error {
	r := ss.RefusalOf(key, args...)
	if one := catalog.KeyForCount(key, n); one != key {
		r.written = one
	}
	return r
}
