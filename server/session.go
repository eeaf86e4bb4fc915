package server

import (
	"cmp"
	"context"
	"errors"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
)

// session handles one cause (pipeline.go): for a mail it reads the
// commands, runs them and collects the archive change and the replies.
type session struct {
	srv   *Server
	ctx   context.Context
	cause cause // what the session decides: its seed seeds the replies' Message-IDs
	now   time.Time
	from  string
	lang  string // the sender's reply language

	ref    gameRef
	tables map[string]*table
	// auth is the game the mail carries the sender's valid key for (the
	// game it names, which the sender plays in), or nil: then the mail is
	// a stranger's as far as the caps go (caps.go).
	auth *table
	// lines are the mail's command lines (commandLines); unread says how
	// many more distinct command lines were left unread.
	lines  []commandLine
	unread int
	// marked reports that the command line being run was read with
	// sentence marks at its ends (commandLine.marked): a handler asks
	// rather than ends a game on it (offerDraw).
	marked bool
	// text is how many bytes of section text the replies hold so far;
	// cut reports that a section was dropped for maxReplyText.
	text int
	cut  bool
	// overview reports that a reply holds the help overview already.
	overview bool

	players map[string]*archive.Player // players whose row changes
	// stored are the player rows read from the archive (storedPlayer),
	// each read once per session, by address as asked.
	stored map[string]storedRow
	// notes are the replies: by recipient, and for a game a mail starts
	// beside another game of the same recipient, by recipient and game
	// (noteKey, startNote); order holds their keys in the order made.
	notes   map[string]*note
	order   []string
	failed  bool  // some command was refused
	did     bool  // some command succeeded
	readErr error // the first failed archive read, see noteReadErr

	// refusals are the keys of the mail's refusals, in order (run): each
	// refused command's (refusal.keys), and err.nocommand (run,
	// relayOnly), err.twomoves or err.manygames for a mail refused as a
	// whole. A line that does not parse is answered (syntax.go) but no
	// refusal.
	refusals []string

	// states are the feature modules' own states in this session, one
	// slot per module that made one (stateOf, module.go), nil while the
	// session touched no feature: the session knows none of them.
	states map[module]any
	// own: the session is a change no mail caused (the director's
	// command, a withdrawal's games ended by the referee; Server.change),
	// so the caps on the replies to one mail do not apply.
	own bool

	// drawn are the game ids drawn by the other sessions of one decision
	// that starts many games (StartGames), nil for none; batch is
	// the archive transaction a tournament's start writes its games
	// through (tournament_start.go), nil for none. gameID draws past both.
	drawn map[string]bool
	batch *archive.Batch
	// langs caches langOf's answers read from the archive, so that a
	// session that must not read the archive (one writing through batch)
	// can be given them beforehand.
	langs map[string]string
}

// gameID draws a new game's id that no stored game has, none of this
// session's, none drawn by the other sessions of its decision (drawn)
// and none written by its batch (freshGameID).
func (ss *session) gameID() (string, error) {
	id, err := freshGameID(ss.srv.opts.Rand, func(id string) (bool, error) {
		switch {
		case ss.tables[id] != nil || ss.drawn[id]:
			return true, nil
		case ss.batch != nil:
			return ss.batch.GameIDTaken(id)
		}
		return ss.srv.gamePort().GameIDTaken(ss.ctx, id)
	})
	if err == nil && ss.drawn != nil {
		ss.drawn[id] = true
	}
	return id, err
}

// newSession starts the session of cause c, from its sender (a mail's,
// else nobody), at its instant (c.at, else now).
func (s *Server) newSession(ctx context.Context, c cause) *session {
	now := c.at
	if now.IsZero() {
		now = s.opts.Now()
	}
	return &session{
		srv: s, ctx: ctx, cause: c, now: now, from: c.from,
		tables: map[string]*table{}, players: map[string]*archive.Player{}, notes: map[string]*note{},
	}
}

// note is one reply being composed for one recipient.
type note struct {
	to       string
	lang     string
	game     *table
	subject  string
	sections []string
	// headers are extra header fields of the mail, e.g. List-Unsubscribe
	// on the confirmation of "watch" (cmd_watch.go).
	headers map[string]string
	// routine counts the sections that only bring the news of an
	// opponent's ply (tellNews), as the digest counts them (its
	// newsWatcher): a note of nothing else is held back for a player who
	// chose the daily digest (digest.go).
	routine int
	// replaces is the held reply whose place this one takes, nil for
	// none: it is threaded as that reply was (engine_hold.go).
	replaces *archive.OutboxMail
	// boards is true when a section holds the board of another game than
	// game (addBoardOf: a game watched, answered in the thread of the
	// sender's own game): then each board of the mail is labelled with
	// its game ("board.of").
	boards bool
	// other is the subject after the tag of a reply whose one section is
	// about another game than game (such as a game watched, answered in
	// the thread of the sender's own game): then the mail says nothing of
	// game, and its subject names what it does say. "" for none.
	other string
}

// noteKey is the key in session.notes of the reply to addr about the
// game id that is not addr's main reply (startNote).
func noteKey(addr, id string) string { return addr + "\x00" + id }

// startNote returns the reply to addr that starts game t (a challenge, an
// invitation, a game against the engine): addr's main reply, unless that
// is about another game already; then a reply of its own, so that every
// game a mail starts has its own mail with its tag, board and key (trial
// 2 report §10). noteFor finds it again by t.
func (ss *session) startNote(addr, lang string, t *table) *note {
	if n, ok := ss.notes[addr]; ok && n.game != nil && n.game != t {
		key := noteKey(addr, t.g.ID)
		if n, ok := ss.notes[key]; ok {
			return n
		}
		n := &note{to: addr, lang: lang, game: t}
		ss.notes[key] = n
		ss.order = append(ss.order, key)
		return n
	}
	return ss.noteFor(addr, lang, t)
}

// dropNotes drops every reply to addr.
func (ss *session) dropNotes(addr string) {
	for key, n := range ss.notes {
		if n.to == addr {
			delete(ss.notes, key)
		}
	}
}

// noteFor returns the reply being composed for addr, creating it: the one
// about game t when startNote made one, else addr's main reply.
func (ss *session) noteFor(addr, lang string, t *table) *note {
	if t != nil {
		if n, ok := ss.notes[noteKey(addr, t.g.ID)]; ok {
			return n
		}
	}
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
	ss.addSection(ss.noteFor(ss.from, ss.lang, t), text)
}

// tell adds a section to another player's reply, in their language.
func (ss *session) tell(addr string, t *table, text func(lang string) string) {
	lang := ss.langOf(addr)
	ss.addSection(ss.noteFor(addr, lang, t), text(lang))
}

// tellNews adds to addr's reply, like tell, a section that is only the
// news of an opponent's ply; the modules' newsWatchers learn of it
// (module.go; the digest holds back a reply made only of such news).
func (ss *session) tellNews(addr string, t *table, text func(lang string) string) {
	lang := ss.langOf(addr)
	n := ss.noteFor(addr, lang, t)
	before := len(n.sections)
	ss.addSection(n, text(lang))
	if len(n.sections) > before {
		ss.newsAdded(n)
	}
}

// addSection adds a section to note n unless the replies to this mail
// already hold maxReplyText bytes of text: then it is dropped and the
// sender is told that the answer was cut (compose), so that no mail can
// make the referee write more than maxReplyBytes (issue 8 §2).
func (ss *session) addSection(n *note, text string) {
	if !ss.own && ss.text+len(text) > maxReplyText {
		ss.cut = true
		ss.noteFor(ss.from, ss.lang, nil) // compose tells the sender (err.cut)
		return
	}
	ss.text += len(text)
	n.sections = append(n.sections, text)
}

// langOf returns the reply language of a player.
func (ss *session) langOf(addr string) string {
	if addr == ss.from && ss.lang != "" {
		return ss.lang
	}
	if p, ok := ss.players[addr]; ok && p.Language != "" {
		return p.Language
	}
	if lang, ok := ss.langs[addr]; ok {
		return lang
	}
	lang := ss.srv.opts.DefaultLanguage
	p, err := ss.storedPlayer(addr)
	if err == nil && p.Language != "" {
		lang = p.Language
	}
	ss.noteReadErr(err)
	if err == nil || errors.Is(err, archive.ErrNotFound) {
		if ss.langs == nil {
			ss.langs = map[string]string{}
		}
		ss.langs[addr] = lang
	}
	return lang
}

// noteReadErr keeps the first archive read failure other than "not found":
// a mail decided on missing data must not be committed (decide returns the
// error, the mail stays unread and is tried again).
func (ss *session) noteReadErr(err error) {
	if err != nil && !errors.Is(err, archive.ErrNotFound) && ss.readErr == nil {
		ss.readErr = err
	}
}

// storedRow is a player row as read (storedPlayer): the row, or the
// error archive.ErrNotFound for a player never stored.
type storedRow struct {
	p   *archive.Player
	err error
}

// storedPlayer returns addr's player row as the archive holds it, read
// once per session: the mail's decision asks for the same rows many times
// (its language, digest, proof, block, messages) and nothing the session
// decides is written before its commit, so every read would give the same
// row. It is archive.Player's answer: archive.ErrNotFound for a player
// never stored, kept like a row; any other error is not kept, so the next
// call reads again. The row is shared: callers must not change it
// (playerRow copies it).
func (ss *session) storedPlayer(addr string) (*archive.Player, error) {
	if r, ok := ss.stored[addr]; ok {
		return r.p, r.err
	}
	p, err := ss.srv.gamePort().Player(ss.ctx, addr)
	if err == nil || errors.Is(err, archive.ErrNotFound) {
		if ss.stored == nil {
			ss.stored = map[string]storedRow{}
		}
		ss.stored[addr] = storedRow{p, err}
	}
	return p, err
}

// playerRow returns the player row of addr that this mail writes.
func (ss *session) playerRow(addr string) *archive.Player {
	if p, ok := ss.players[addr]; ok {
		return p
	}
	p := &archive.Player{Address: addr}
	if stored, err := ss.storedPlayer(addr); err == nil {
		*p = *stored
	} else {
		ss.noteReadErr(err)
	}
	ss.players[addr] = p
	return p
}

// table loads a game once per session.
func (ss *session) table(id string) (*table, error) {
	if t, ok := ss.tables[id]; ok {
		return t, nil
	}
	g, err := ss.srv.gamePort().Game(ss.ctx, id)
	if errors.Is(err, archive.ErrNotFound) {
		return nil, ss.refuse("err.unknowngame", clip(id))
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

// attachBoard makes sure an error reply about a game shows its board.
func (ss *session) attachBoard() {
	if t := ss.contextTable(); t != nil {
		n := ss.noteFor(ss.from, ss.lang, t)
		n.game = t
	}
}

// gameForCommand returns the game a game command acts on: the one the
// mail's subject or thread names. The sender must play in it and the mail
// must carry the sender's key for it (docs/security.md).
func (ss *session) gameForCommand() (*table, error) {
	if ss.ref.id == "" && len(ss.ref.several) > 1 {
		return nil, ss.refuse("err.manygames", strings.Join(ss.ref.several, ", "))
	}
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

// authenticate sets ss.auth: the game the mail names, when the sender
// plays in it and the mail carries the sender's key for it. Only an
// archive failure is returned.
func (ss *session) authenticate() error {
	if ss.ref.id == "" {
		return nil
	}
	t, err := ss.table(ss.ref.id)
	var r *refusal
	if errors.As(err, &r) {
		return nil // no such game
	}
	if err != nil {
		return err
	}
	if sideOf(t.g, ss.from) != "" && ss.hasKey(t) {
		ss.auth = t
	}
	return nil
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

// errGameEnded is returned by activeGame when a module ended the running
// game before the command could act on it (gameEnder, module.go: the
// clock, when the side to move lost on time before the mail arrived);
// the module told the players, and the command is not run (run counts
// the mail as applied: it changed the game).
var errGameEnded = errors.New("server: the game ended before the mail's command could act on it")

// activeGame returns the game of a game command that needs the game to be
// running: a module may end it first (endedBefore), and then it returns
// errGameEnded.
func (ss *session) activeGame() (*table, error) {
	t, err := ss.gameForCommand()
	if err != nil {
		return nil, err
	}
	switch t.g.Status {
	case archive.Active:
		if ended, err := ss.endedBefore(t); err != nil || ended {
			return nil, cmp.Or(err, errGameEnded) // a module ended it: the clock, when the mail came after the deadline
		}
		return t, nil
	case archive.Finished:
		return nil, ss.refuse("err.over", t.g.ID, resultText(ss.lang, t))
	}
	return nil, ss.refuse("err.notactive", t.g.ID, tr(ss.lang, "status."+string(t.g.Status)))
}
