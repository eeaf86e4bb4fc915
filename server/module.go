package server

import (
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/catalog"
)

// Features as modules (issue 19 §2). The core (a mail's commands, its
// games, its replies, the pipeline) names no feature: where a feature
// has something to add, the core iterates modules, the registered
// features in order, and asks each for the hook it implements. A hook is
// an interface of one method, found by type assertion, so a module
// implements only the hooks it needs (as go-imap's session finds its
// optional extensions).
//
// Each module keeps what one session does in its feature in a state of
// its own; the session holds it without knowing its type, in
// session.states, a map from the module (its comparable empty struct)
// to a pointer to its state. A map keyed by the module rather than a
// slice indexed by its place in modules, so that no index has to follow
// the registry's order (which is behaviour, and which the tests swap);
// made lazily by the first call of the feature's accessor (stateOf)
// rather than by a constructor hook for every session, so that a session
// that touches no feature (a "help", a "board") holds a nil map and
// allocates nothing for the modules, and one that touches one feature
// makes that one state. The price is a map look-up per access, which
// each function pays once by keeping the pointer. Sessions share no
// state: each attempt of transact starts from a fresh session.
//
// A feature reaches its state through one accessor in its own file
// (corrOf, consentOf, tourneyOf, clockOf, publicNameOf), which only the
// feature's files name (TestModuleStateOwners, module_state_test.go);
// what the core needs of a feature's state it asks through a hook. A hook that
// runs for every session and only reads the state asks ss.uses first,
// so that reading makes nothing (TestModuleHooksMakeNoState).

// module is one registered feature. name is how the registry's test and
// the docs call it.
type module interface {
	name() string
}

// collector adds to the archive change what the feature changed in this
// session (collect, after the games, plies and players).
type collector interface {
	collect(ss *session, change *archive.Change)
}

// plyWatcher runs after a ply by the player at ss.from (or the engine)
// in t was applied and both players were told, before the position is
// shown (move, enginePly). An error fails the mail.
type plyWatcher interface {
	afterPly(ss *session, t *table) error
}

// mailAdder returns the feature's own mails of this session, appended
// after the notes' mails (compose). An error fails the mail.
type mailAdder interface {
	mails(ss *session) ([]archive.OutboxMail, error)
}

// quietKeeper reports whether t's change in this session is one the loop
// breaker does not count as a change of the game (changedGame).
type quietKeeper interface {
	quietChange(ss *session, t *table) bool
}

// replyPreparer runs once per session before its replies are written
// (compose), and may add to the notes.
type replyPreparer interface {
	beforeReplies(ss *session)
}

// noteHolder reports whether note n is held back, not mailed now
// (compose); the feature mails it later.
type noteHolder interface {
	holds(ss *session, n *note) bool
}

// replyDelayer returns, for the mail of note n, the key of the timer it
// waits for and the text to carry to the mail that may take its place
// (archive.OutboxMail.HeldFor, Carry); "" when it waits for nothing
// (compose).
type replyDelayer interface {
	delayReply(ss *session, n *note) (key, carry string)
}

// unmailer returns why requests of this mail were neither carried out
// nor answered: a mail with such reasons and nothing applied is recorded
// as ignored, with the reasons (decide, answer).
type unmailer interface {
	unmailed(ss *session) []string
}

// positionWatcher runs when the players of t were shown its position
// (showPosition).
type positionWatcher interface {
	positionShown(ss *session, t *table)
}

// proseKeeper may take a mail without command lines (run): true when it
// answered the mail itself, so the plain "no command" answer is not
// given.
type proseKeeper interface {
	keepProse(ss *session) bool
}

// commandsWatcher runs after every command line of the mail ran (run),
// refused or not, unless one failed the mail.
type commandsWatcher interface {
	afterCommands(ss *session)
}

// newsWatcher learns that a section just added to note n is only the
// news of an opponent's ply (tellNews): a feature may treat a note of
// nothing else apart.
type newsWatcher interface {
	newsAdded(ss *session, n *note)
}

// errorTaker may take the error a command line's handler returned as the
// feature's own (run): true when it took it, and the line is then
// neither carried out nor refused (no reply for it).
type errorTaker interface {
	takeError(ss *session, err error) bool
}

// modules are the registered features, in the order the core asks them:
// the order of their hooks is the order of this list. Today's order is
// part of the behaviour (collect writes the public name first, where the
// core wrote it before it was a module, and the clock's timers last,
// after the games every other module may have changed); docs/architecture.md
// ("Modules and hooks") names it, and TestModuleRegistry holds both to it.
var modules = []module{
	publicNameModule{},     // the public name a player chooses (cmd_name.go)
	correspondenceModule{}, // spectators, messages, conditional moves, takebacks (correspondence.go)
	consentModule{},        // requests to confirm (consent.go)
	tournamentModule{},     // tournaments and ratings (tournament.go)
	clockModule{},          // leave, end times, timers (clock.go)
	digestModule{},         // the daily digest (digest.go)
	engineModule{},         // the engine opponent's held reply (engine_hold.go)
}

// stateOf returns module m's state in ss: a *T, the zero T made by the
// first call for m in this session and kept in the session's slot for
// m. m is a comparable module value (the module's empty struct); T must
// be the same type at every call for m, else stateOf panics. Only the
// accessor of m's feature calls it (corrOf, consentOf, tourneyOf,
// clockOf, publicNameOf).
func stateOf[T any](ss *session, m module) *T {
	if v, ok := ss.states[m]; ok {
		return v.(*T)
	}
	if ss.states == nil {
		ss.states = map[module]any{}
	}
	p := new(T)
	ss.states[m] = p
	return p
}

// uses reports whether this session made module m's state (stateOf):
// when not, the feature did nothing in it, and a hook that only reads
// the state has nothing to read.
func (ss *session) uses(m module) bool {
	_, ok := ss.states[m]
	return ok
}

// collectModules lets every collector add to change, in registry order.
func (ss *session) collectModules(change *archive.Change) {
	for _, m := range modules {
		if c, ok := m.(collector); ok {
			c.collect(ss, change)
		}
	}
}

// afterPly runs every plyWatcher after a ply in t, in registry order,
// and stops at the first error.
func (ss *session) afterPly(t *table) error {
	for _, m := range modules {
		if w, ok := m.(plyWatcher); ok {
			if err := w.afterPly(ss, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// moduleMails returns the mails of every mailAdder, in registry order.
func (ss *session) moduleMails() ([]archive.OutboxMail, error) {
	var out []archive.OutboxMail
	for _, m := range modules {
		if a, ok := m.(mailAdder); ok {
			ms, err := a.mails(ss)
			if err != nil {
				return nil, err
			}
			out = append(out, ms...)
		}
	}
	return out, nil
}

// quietChange reports whether some module keeps t's change in this
// session quiet for the loop breaker.
func (ss *session) quietChange(t *table) bool {
	for _, m := range modules {
		if q, ok := m.(quietKeeper); ok && q.quietChange(ss, t) {
			return true
		}
	}
	return false
}

// beforeReplies runs every replyPreparer, in registry order.
func (ss *session) beforeReplies() {
	for _, m := range modules {
		if p, ok := m.(replyPreparer); ok {
			p.beforeReplies(ss)
		}
	}
}

// noteHeld reports whether some module holds note n back.
func (ss *session) noteHeld(n *note) bool {
	for _, m := range modules {
		if h, ok := m.(noteHolder); ok && h.holds(ss, n) {
			return true
		}
	}
	return false
}

// replyDelay returns the first timer key (and its carried text) a module
// makes the mail of note n wait for, in registry order; "" for none.
func (ss *session) replyDelay(n *note) (key, carry string) {
	for _, m := range modules {
		if d, ok := m.(replyDelayer); ok {
			if key, carry = d.delayReply(ss, n); key != "" {
				return key, carry
			}
		}
	}
	return "", ""
}

// unmailed returns the reasons of every unmailer, in registry order.
func (ss *session) unmailed() []string {
	var why []string
	for _, m := range modules {
		if u, ok := m.(unmailer); ok {
			why = append(why, u.unmailed(ss)...)
		}
	}
	return why
}

// positionShown runs every positionWatcher on t, in registry order.
func (ss *session) positionShown(t *table) {
	for _, m := range modules {
		if w, ok := m.(positionWatcher); ok {
			w.positionShown(ss, t)
		}
	}
}

// keepProse offers a mail without command lines to the proseKeepers, in
// registry order, and reports whether one took it.
func (ss *session) keepProse() bool {
	for _, m := range modules {
		if k, ok := m.(proseKeeper); ok && k.keepProse(ss) {
			return true
		}
	}
	return false
}

// newsAdded tells every newsWatcher, in registry order, that the section
// just added to n is only the news of a ply.
func (ss *session) newsAdded(n *note) {
	for _, m := range modules {
		if w, ok := m.(newsWatcher); ok {
			w.newsAdded(ss, n)
		}
	}
}

// takeError offers err, a command line's error, to the errorTakers in
// registry order, and reports whether one took it.
func (ss *session) takeError(err error) bool {
	for _, m := range modules {
		if t, ok := m.(errorTaker); ok && t.takeError(ss, err) {
			return true
		}
	}
	return false
}

// afterCommands runs every commandsWatcher, in registry order.
func (ss *session) afterCommands() {
	for _, m := range modules {
		if w, ok := m.(commandsWatcher); ok {
			w.afterCommands(ss)
		}
	}
}

// The hooks of a mail's commands and replies: what a feature adds to a
// challenge, a "board", the games list, every mail about a game, the
// hint under a line that does not parse, and an instant written for a
// player. The core asks them where it once called the feature by name.

// challengeTaker may play a new command c for variant v itself
// (newGame, before the core checks anything of a challenge): true when
// it took c, with the command's error (the engine opponent's games).
type challengeTaker interface {
	takeChallenge(ss *session, c *grammar.NewGameCommand, v *engine.Variant) (bool, error)
}

// offerWriter takes part in the challenge that offers the new game t
// (newGame, once t is made): it sets its terms of t from the new command
// c and returns what the challenger's confirmation and the invitation
// say of them. An error fails the command.
type offerWriter interface {
	offer(ss *session, t *table, c *grammar.NewGameCommand) (offer, error)
}

// offer is one module's part in the two mails of a challenge (newGame),
// each part "" or nil for nothing. told ends the first line of the
// challenger's confirmation and words(lang) the first line of the
// invitation, in the invited player's language, their leading line
// break included (the challenger's own words to the opponent, and what
// became of them). The terms under both mails state first how the game
// is played, play(lang) (its time control), then what its players bring
// to it, players(lang, opp) (their ratings), to the reader whose
// opponent is opp; each part in the registry's order.
type offer struct {
	told    string
	words   func(lang string) string
	play    func(lang string) string
	players func(lang, opp string) string
}

// boardShower may answer a "board" for a game the sender does not play
// (board, before the core looks for the sender's own game): true when
// it answered it; err is an archive failure, which fails the mail.
type boardShower interface {
	showBoard(ss *session) (bool, error)
}

// gamesLister adds to the sender's list of games (games): head, a line
// above the list ("" for none), and label, how it writes the opponent
// opp of a listed game g (nil to leave the address; an engine opponent
// is always the core's playerLabel).
type gamesLister interface {
	listGames(ss *session) (head string, label func(g *archive.Game, opp string) string)
}

// gameTeller returns what the feature adds to every mail about game t
// read in lang (body): header ends the mail's first line, after the
// game's id and variant; section stands after the note's sections,
// before the board, in the mail of a game that started ("" for nothing
// of either).
type gameTeller interface {
	tellGame(ss *session, lang string, t *table) (header, section string)
}

// syntaxHinter returns a hint for command line l, which does not parse
// (ge its grammar error, nil when it is none), or "" (syntaxHint, after
// the hint for a move's dash, before those for a misspelt command and a
// square beyond the board).
type syntaxHinter interface {
	syntaxHint(ss *session, l commandLine, ge *grammar.Error) string
}

// instantWriter writes the instant t in lang for the reader at addr as
// the feature has them read it (the daily digest: in the time zone addr
// chose), or "" to leave it to the core, which writes it in UTC
// (catalog.Instant).
type instantWriter interface {
	instant(ss *session, lang string, t time.Time, addr string) string
}

// takeChallenge offers the new command c to the challengeTakers, in
// registry order: true, with the command's error, when one took it.
func (ss *session) takeChallenge(c *grammar.NewGameCommand, v *engine.Variant) (bool, error) {
	for _, m := range modules {
		if k, ok := m.(challengeTaker); ok {
			if took, err := k.takeChallenge(ss, c, v); took {
				return true, err
			}
		}
	}
	return false, nil
}

// offers returns the part of every offerWriter in the challenge of t,
// in registry order, and stops at the first error.
func (ss *session) offers(t *table, c *grammar.NewGameCommand) ([]offer, error) {
	var out []offer
	for _, m := range modules {
		if w, ok := m.(offerWriter); ok {
			o, err := w.offer(ss, t, c)
			if err != nil {
				return nil, err
			}
			out = append(out, o)
		}
	}
	return out, nil
}

// showBoard offers the mail's "board" to the boardShowers, in registry
// order, and reports whether one answered it (or failed).
func (ss *session) showBoard() (bool, error) {
	for _, m := range modules {
		if s, ok := m.(boardShower); ok {
			if done, err := s.showBoard(ss); done || err != nil {
				return true, err
			}
		}
	}
	return false, nil
}

// listGames returns the gamesListers' lines above the games list, each
// followed by a blank line, in registry order, and the label of the
// first that writes opponents (nil for none).
func (ss *session) listGames() (head string, label func(g *archive.Game, opp string) string) {
	for _, m := range modules {
		if l, ok := m.(gamesLister); ok {
			h, f := l.listGames(ss)
			if h != "" {
				head += h + "\n\n"
			}
			if label == nil {
				label = f
			}
		}
	}
	return head, label
}

// tellGame returns what the gameTellers add to a mail about t read in
// lang, in registry order: their headers, and their sections, each
// followed by a blank line.
func (ss *session) tellGame(lang string, t *table) (header, sections string) {
	for _, m := range modules {
		if g, ok := m.(gameTeller); ok {
			h, s := g.tellGame(ss, lang, t)
			header += h
			if s != "" {
				sections += s + "\n\n"
			}
		}
	}
	return header, sections
}

// featureHint returns the first syntaxHinter's hint for l, in registry
// order, or "".
func (ss *session) featureHint(l commandLine, ge *grammar.Error) string {
	for _, m := range modules {
		if h, ok := m.(syntaxHinter); ok {
			if hint := h.syntaxHint(ss, l, ge); hint != "" {
				return hint
			}
		}
	}
	return ""
}

// instant writes t in lang for the reader at addr: as the first
// instantWriter writes it, in registry order, else in UTC
// (catalog.Instant).
func (ss *session) instant(lang string, t time.Time, addr string) string {
	for _, m := range modules {
		if w, ok := m.(instantWriter); ok {
			if s := w.instant(ss, lang, t, addr); s != "" {
				return s
			}
		}
	}
	return catalog.Instant(lang, t)
}
