package referee

import (
	"context"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/clock"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/catalog"
)

// Features as modules (issue 19 §2). The core (a mail's commands, its
// games, its replies, the pipeline) names no feature: where a feature
// has something to add, the core iterates Modules, the registered
// features in order (package server's assembly.go, the one file that
// names them, sets it at init), and asks each for the hook it
// implements. A hook is
// an interface of one method, found by type assertion, so a module
// implements only the hooks it needs (as go-imap's session finds its
// optional extensions).
//
// Each module keeps what one session does in its feature in a state of
// its own; the session holds it without knowing its type, in
// Session.States, a map from the module (its comparable empty struct)
// to a pointer to its state. A map keyed by the module rather than a
// slice indexed by its place in Modules, so that no index has to follow
// the registry's order (which is behaviour, and which the tests swap);
// made lazily by the first call of the feature's accessor (StateOf)
// rather than by a constructor hook for every session, so that a session
// that touches no feature (a "help", a "board") holds a nil map and
// allocates nothing for the modules, and one that touches one feature
// makes that one state. The price is a map look-up per access, which
// each function pays once by keeping the pointer. Sessions share no
// state: each attempt of Transact starts from a fresh session.
//
// A feature reaches its state through one accessor in its own file
// (corrOf, ConsentOf, tourneyOf, clockOf, publicNameOf), which only the
// feature's files name (TestModuleStateOwners, server/module_state_test.go);
// what the core needs of a feature's state it asks through a hook. A hook that
// runs for every session and only reads the state asks ss.Uses first,
// so that reading makes nothing (TestModuleHooksMakeNoState).

// Collector is a hook: Collect adds to the archive change what the
// feature changed in this session (Session.Collect, after the games,
// plies and players).
type Collector interface {
	Collect(ss *Session, change *archive.Change)
}

// PlyWatcher is a hook: AfterPly runs after a ply by the player at
// ss.From (or the engine) in t was applied and both players were told,
// before the position is shown (move, enginePly). An error fails the
// mail.
type PlyWatcher interface {
	AfterPly(ss *Session, t *Table) error
}

// MailAdder is a hook: Mails returns the feature's own mails of this
// session, appended after the notes' mails (compose). An error fails the
// mail.
type MailAdder interface {
	Mails(ss *Session) ([]archive.OutboxMail, error)
}

// QuietKeeper is a hook: QuietChange reports whether t's change in this
// session is one the loop breaker does not count as a change of the game
// (changedGame).
type QuietKeeper interface {
	QuietChange(ss *Session, t *Table) bool
}

// ReplyPreparer is a hook: BeforeReplies runs once per session before its
// replies are written (compose), and may add to the notes.
type ReplyPreparer interface {
	BeforeReplies(ss *Session)
}

// NoteHolder is a hook: Holds reports whether note n is held back, not
// mailed now (compose); the feature mails it later.
type NoteHolder interface {
	Holds(ss *Session, n *Note) bool
}

// ReplyDelayer is a hook: DelayReply returns, for the mail of note n, the
// key of the timer it waits for and the text to carry to the mail that
// may take its place (archive.OutboxMail.HeldFor, Carry); "" when it
// waits for nothing (compose).
type ReplyDelayer interface {
	DelayReply(ss *Session, n *Note) (key, carry string)
}

// Unmailer is a hook: Unmailed returns why requests of this mail were
// neither carried out nor answered: a mail with such reasons and nothing
// applied is recorded as ignored, with the reasons (decide, answer).
type Unmailer interface {
	Unmailed(ss *Session) []string
}

// PositionWatcher is a hook: PositionShown runs when the players of t
// were shown its position (ShowPosition).
type PositionWatcher interface {
	PositionShown(ss *Session, t *Table)
}

// ProseKeeper is a hook: KeepProse may take a mail without command lines
// (run): true when it answered the mail itself, so the plain "no command"
// answer is not given.
type ProseKeeper interface {
	KeepProse(ss *Session) bool
}

// CommandsWatcher is a hook: AfterCommands runs after every command line
// of the mail ran (run), refused or not, unless one failed the mail.
type CommandsWatcher interface {
	AfterCommands(ss *Session)
}

// NewsWatcher is a hook: NewsAdded learns that a section just added to
// note n is only the news of an opponent's ply (TellNews): a feature may
// treat a note of nothing else apart.
type NewsWatcher interface {
	NewsAdded(ss *Session, n *Note)
}

// ErrorTaker is a hook: TakeError may take the error a command line's
// handler returned as the feature's own (run): true when it took it, and
// the line is then neither carried out nor refused (no reply for it).
type ErrorTaker interface {
	TakeError(ss *Session, err error) bool
}

// GameEnder is a hook: EndBefore may end the running game t before a
// command of the mail acts on it (ActiveGame): true when it ended it, for
// a reason the mail cannot change (the clock: the side to move lost on
// time before the mail arrived), and told the players; the command is
// then not run. An error fails the mail.
type GameEnder interface {
	EndBefore(ss *Session, t *Table) (bool, error)
}

// BudgetTeller is a hook: LineBudget says which reply budget a keyless
// mail is counted in for command line c, when c is one of the feature's
// commands (lineBudget, triage.go); ok false for any other command. It
// only reads the archive: a mail the budgets hold back must have changed
// nothing.
type BudgetTeller interface {
	LineBudget(ss *Session, c grammar.Command) (b archive.MailBudget, ok bool, err error)
}

// StartTeller is a hook: StartedTerms states the terms of its feature for
// game t, started without a challenge, in the mail that tells a player in
// lang that it started (StartGame, start.go): the clock its time control
// and, timed, the leave allowance; "" for nothing.
type StartTeller interface {
	StartedTerms(ss *Session, lang string, t *Table) string
}

// The hooks above are a session's; the scheduler's below are the
// Server's: the work a feature does when it falls due by the clock rather
// than by a mail (scheduler.go).

// DueRunner is a hook: RunDue does the feature's work due at Options.Now
// (RunTimers, after the daemon read the inbox and sent the outbox) and
// returns how many things it did (tournaments started, timers fired,
// digests sent). It stops at its first failure and returns it: what it
// left stays due and is done by a later RunTimers.
type DueRunner interface {
	RunDue(ctx context.Context, s *Server) (int, error)
}

// DueTeller is a hook: NextDue says when the feature's next work falls
// due, for Run's wait (UntilNextTimer); false when none is pending. An
// error is the archive's, and Run then waits WaitCap.
type DueTeller interface {
	NextDue(ctx context.Context, s *Server) (time.Time, bool, error)
}

// OverdueTeller is a hook: OverdueWait says, when work fell due already
// (UntilNextTimer), how its due work at now waits: left when RunTimers
// left some of it (Run then tries again in a second), else how long until
// it can go on (a deadline within its grace), 0 for nothing it waits for.
type OverdueTeller interface {
	OverdueWait(ctx context.Context, s *Server, now time.Time) (wait time.Duration, left bool)
}

// Installer is a hook: Install sets up, once in New, what the feature
// keeps for the Server's life (the engine: the runner of its turns),
// kept with Keep.
type Installer interface {
	Install(s *Server)
}

// WorkWaiter is a hook: WaitWork returns when the feature's work under
// way beside the mail loop has ended (Run, on its way out once its
// context ended; the engine: its turns, which stop with that context).
type WorkWaiter interface {
	WaitWork(s *Server)
}

// QueueTeller is a hook: Queued returns how many of the feature's turns
// wait for a slot beside the mail loop (EngineQueue, for /metrics; the
// engine: its turns waiting for a search slot).
type QueueTeller interface {
	Queued(s *Server) int
}

// CommitWatcher is a hook: AfterCommit runs once a mail's change was
// committed (Transact), for what the feature does only when that change
// is durable (the tournament: the games of a player who withdrew by the
// mail end). It fails nothing: a failure is the feature's to log, and its
// work is done later.
type CommitWatcher interface {
	AfterCommit(ctx context.Context, s *Server, change archive.Change)
}

// The hooks below are the games' timers': a feature whose work falls due
// as a timer of a game (the engine opponent's reply) plans and starts
// timers of its own kind in the plan and the due work of the clock
// module, which stores every game's timers and fires the due ones.

// TimerPlanner plans the timers of its own kind for the running game t,
// whose clocks are st, in the plan stored with every change of a game
// (the clock module's collect): timers, and alone true when they are
// all the game waits for now, so that no reminder and no deadline is
// planned (the engine: its reply, when it is to move).
type TimerPlanner interface {
	PlanTimers(t *Table, st *clock.State) (timers []archive.Timer, alone bool)
}

// TimerStarter takes a due timer of its own kind from the games' due
// timers before they are fired (the clock module's dueRunner): true when
// tm is its own, and then it started the timer's work, which commits the
// timer's effect and done mark when it ends (the engine: its turn,
// searched on a goroutine of its own); the timer is not fired.
type TimerStarter interface {
	StartTimer(ctx context.Context, s *Server, tm archive.Timer) bool
}

// TimerWaiter says which due timers wait for the feature's work under
// way rather than for RunTimers (the clock module's overdueTeller): n,
// how many timers may (the engine: the turns its runner claimed), and
// waits, whether due timer tm is one of them.
type TimerWaiter interface {
	TimersWaiting(s *Server) (n int, waits func(tm archive.Timer) bool)
}

// PlanTimers returns the timers every timerPlanner plans for the running
// game t, whose clocks are st, in registry order, and alone true when
// one said they are all t waits for now.
func PlanTimers(t *Table, st *clock.State) (timers []archive.Timer, alone bool) {
	for _, m := range Modules {
		if p, ok := m.(TimerPlanner); ok {
			ts, only := p.PlanTimers(t, st)
			timers = append(timers, ts...)
			alone = alone || only
		}
	}
	return timers, alone
}

// StartTimer offers the due timer tm to the timerStarters, in registry
// order, and reports whether one took it (and started its work).
func (s *Server) StartTimer(ctx context.Context, tm archive.Timer) bool {
	for _, m := range Modules {
		if st, ok := m.(TimerStarter); ok && st.StartTimer(ctx, s, tm) {
			return true
		}
	}
	return false
}

// TimersWaiting returns how many due timers may wait for the modules'
// work under way, summed over the timerWaiters, and whether due timer tm
// is one of them (one waiter says so, asked in registry order).
func (s *Server) TimersWaiting() (n int, waits func(tm archive.Timer) bool) {
	var all []func(archive.Timer) bool
	for _, m := range Modules {
		if w, ok := m.(TimerWaiter); ok {
			k, f := w.TimersWaiting(s)
			n += k
			all = append(all, f)
		}
	}
	return n, func(tm archive.Timer) bool {
		for _, f := range all {
			if f(tm) {
				return true
			}
		}
		return false
	}
}

// StateOf returns module m's state in ss: a *T, the zero T made by the
// first call for m in this session and kept in the session's slot for
// m. m is a comparable module value (the module's empty struct); T must
// be the same type at every call for m, else StateOf panics. Only the
// accessor of m's feature calls it (corrOf, ConsentOf, tourneyOf,
// clockOf, publicNameOf).
func StateOf[T any](ss *Session, m Module) *T {
	if v, ok := ss.States[m]; ok {
		return v.(*T)
	}
	if ss.States == nil {
		ss.States = map[Module]any{}
	}
	p := new(T)
	ss.States[m] = p
	return p
}

// Uses reports whether this session made module m's state (StateOf):
// when not, the feature did nothing in it, and a hook that only reads
// the state has nothing to read.
func (ss *Session) Uses(m Module) bool {
	_, ok := ss.States[m]
	return ok
}

// CollectModules lets every Collector add to change, in registry order.
func (ss *Session) CollectModules(change *archive.Change) {
	for _, m := range Modules {
		if c, ok := m.(Collector); ok {
			c.Collect(ss, change)
		}
	}
}

// AfterPly runs every PlyWatcher after a ply in t, in registry order,
// and stops at the first error.
func (ss *Session) AfterPly(t *Table) error {
	for _, m := range Modules {
		if w, ok := m.(PlyWatcher); ok {
			if err := w.AfterPly(ss, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// ModuleMails returns the mails of every MailAdder, in registry order.
func (ss *Session) ModuleMails() ([]archive.OutboxMail, error) {
	var out []archive.OutboxMail
	for _, m := range Modules {
		if a, ok := m.(MailAdder); ok {
			ms, err := a.Mails(ss)
			if err != nil {
				return nil, err
			}
			out = append(out, ms...)
		}
	}
	return out, nil
}

// QuietChange reports whether some module keeps t's change in this
// session quiet for the loop breaker.
func (ss *Session) QuietChange(t *Table) bool {
	for _, m := range Modules {
		if q, ok := m.(QuietKeeper); ok && q.QuietChange(ss, t) {
			return true
		}
	}
	return false
}

// BeforeReplies runs every ReplyPreparer, in registry order.
func (ss *Session) BeforeReplies() {
	for _, m := range Modules {
		if p, ok := m.(ReplyPreparer); ok {
			p.BeforeReplies(ss)
		}
	}
}

// NoteHeld reports whether some module holds note n back.
func (ss *Session) NoteHeld(n *Note) bool {
	for _, m := range Modules {
		if h, ok := m.(NoteHolder); ok && h.Holds(ss, n) {
			return true
		}
	}
	return false
}

// ReplyDelay returns the first timer key (and its carried text) a module
// makes the mail of note n wait for, in registry order; "" for none.
func (ss *Session) ReplyDelay(n *Note) (key, carry string) {
	for _, m := range Modules {
		if d, ok := m.(ReplyDelayer); ok {
			if key, carry = d.DelayReply(ss, n); key != "" {
				return key, carry
			}
		}
	}
	return "", ""
}

// Unmailed returns the reasons of every Unmailer, in registry order.
func (ss *Session) Unmailed() []string {
	var why []string
	for _, m := range Modules {
		if u, ok := m.(Unmailer); ok {
			why = append(why, u.Unmailed(ss)...)
		}
	}
	return why
}

// PositionShown runs every PositionWatcher on t, in registry order.
func (ss *Session) PositionShown(t *Table) {
	for _, m := range Modules {
		if w, ok := m.(PositionWatcher); ok {
			w.PositionShown(ss, t)
		}
	}
}

// KeepProse offers a mail without command lines to the ProseKeepers, in
// registry order, and reports whether one took it.
func (ss *Session) KeepProse() bool {
	for _, m := range Modules {
		if k, ok := m.(ProseKeeper); ok && k.KeepProse(ss) {
			return true
		}
	}
	return false
}

// NewsAdded tells every NewsWatcher, in registry order, that the section
// just added to n is only the news of a ply.
func (ss *Session) NewsAdded(n *Note) {
	for _, m := range Modules {
		if w, ok := m.(NewsWatcher); ok {
			w.NewsAdded(ss, n)
		}
	}
}

// TakeError offers err, a command line's error, to the ErrorTakers in
// registry order, and reports whether one took it.
func (ss *Session) TakeError(err error) bool {
	for _, m := range Modules {
		if t, ok := m.(ErrorTaker); ok && t.TakeError(ss, err) {
			return true
		}
	}
	return false
}

// AfterCommands runs every CommandsWatcher, in registry order.
func (ss *Session) AfterCommands() {
	for _, m := range Modules {
		if w, ok := m.(CommandsWatcher); ok {
			w.AfterCommands(ss)
		}
	}
}

// EndedBefore offers the running game t to the GameEnders, in registry
// order, before a command acts on it, and reports whether one ended it;
// it stops at the first that ended it or failed.
func (ss *Session) EndedBefore(t *Table) (bool, error) {
	for _, m := range Modules {
		if e, ok := m.(GameEnder); ok {
			if ended, err := e.EndBefore(ss, t); err != nil || ended {
				return ended, err
			}
		}
	}
	return false, nil
}

// RunDue runs every DueRunner, in registry order, and returns how many
// things they did; it stops at the first failure and returns it.
func (s *Server) RunDue(ctx context.Context) (int, error) {
	n := 0
	for _, m := range Modules {
		if r, ok := m.(DueRunner); ok {
			did, err := r.RunDue(ctx, s)
			n += did
			if err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// NextDue returns the earliest instant a DueTeller names, false when
// none names one; it stops at the first error and returns it.
func (s *Server) NextDue(ctx context.Context) (time.Time, bool, error) {
	var next time.Time
	found := false
	for _, m := range Modules {
		if t, ok := m.(DueTeller); ok {
			at, ok, err := t.NextDue(ctx, s)
			if err != nil {
				return time.Time{}, false, err
			}
			if ok && (!found || at.Before(next)) {
				next, found = at, true
			}
		}
	}
	return next, found, nil
}

// Overdue asks every OverdueTeller how its work due at now waits, in
// registry order: left as soon as one left some (the others are not
// asked), else the shortest wait named, 0 when none names one.
func (s *Server) Overdue(ctx context.Context, now time.Time) (wait time.Duration, left bool) {
	for _, m := range Modules {
		if o, ok := m.(OverdueTeller); ok {
			w, left := o.OverdueWait(ctx, s, now)
			if left {
				return 0, true
			}
			if w > 0 && (wait == 0 || w < wait) {
				wait = w
			}
		}
	}
	return wait, false
}

// Install runs every Installer, in registry order (New).
func (s *Server) Install() {
	for _, m := range Modules {
		if i, ok := m.(Installer); ok {
			i.Install(s)
		}
	}
}

// Keep keeps v as what module m keeps for the Server's life (Kept). Only
// an Installer calls it, in New: the Server is not yet shared, and what
// is kept is only read after.
func (s *Server) Keep(m Module, v any) {
	if s.kept == nil {
		s.kept = map[Module]any{}
	}
	s.kept[m] = v
}

// Kept returns what module m keeps for the Server's life (Keep), nil
// when it keeps nothing. Safe from any goroutine.
func (s *Server) Kept(m Module) any { return s.kept[m] }

// WaitWork runs every WorkWaiter, in registry order, and returns when
// each has returned (Run, on its way out).
func (s *Server) WaitWork() {
	for _, m := range Modules {
		if w, ok := m.(WorkWaiter); ok {
			w.WaitWork(s)
		}
	}
}

// AfterCommit runs every CommitWatcher on a mail's committed change, in
// registry order.
func (s *Server) AfterCommit(ctx context.Context, change archive.Change) {
	for _, m := range Modules {
		if w, ok := m.(CommitWatcher); ok {
			w.AfterCommit(ctx, s, change)
		}
	}
}

// ModuleBudget asks the BudgetTellers, in registry order, for the budget
// of command line c: the first that knows c answers (ok); ok false when
// none does. It stops at an error.
func (ss *Session) ModuleBudget(c grammar.Command) (archive.MailBudget, bool, error) {
	for _, m := range Modules {
		if t, ok := m.(BudgetTeller); ok {
			if b, ok, err := t.LineBudget(ss, c); ok || err != nil {
				return b, ok, err
			}
		}
	}
	return "", false, nil
}

// StartedTerms returns what every StartTeller states of game t's terms
// for a mail in lang, in registry order, each on a line of its own after
// a newline; "" when none states anything.
func (ss *Session) StartedTerms(lang string, t *Table) string {
	var text string
	for _, m := range Modules {
		if s, ok := m.(StartTeller); ok {
			if terms := s.StartedTerms(ss, lang, t); terms != "" {
				text += "\n" + terms
			}
		}
	}
	return text
}

// The hooks of a mail's commands and replies: what a feature adds to a
// challenge, a "board", the games list, every mail about a game, the
// hint under a line that does not parse, and an instant written for a
// player. The core asks them where it once called the feature by name.

// ChallengeTaker is a hook: TakeChallenge may play a new command c for
// variant v itself (newGame, before the core checks anything of a
// challenge): true when it took c, with the command's error (the engine
// opponent's games).
type ChallengeTaker interface {
	TakeChallenge(ss *Session, c *grammar.NewGameCommand, v *engine.Variant) (bool, error)
}

// OfferWriter is a hook: Offer takes part in the challenge that offers
// the new game t (newGame, once t is made): it sets its terms of t from
// the new command c and returns what the challenger's confirmation and
// the invitation say of them. An error fails the command.
type OfferWriter interface {
	Offer(ss *Session, t *Table, c *grammar.NewGameCommand) (Offer, error)
}

// Offer is one module's part in the two mails of a challenge (newGame),
// each part "" or nil for nothing. Told ends the first line of the
// challenger's confirmation and Words(lang) the first line of the
// invitation, in the invited player's language, their leading line
// break included (the challenger's own words to the opponent, and what
// became of them). The terms under both mails state first how the game
// is played, Play(lang) (its time control), then what its players bring
// to it, Players(lang, opp) (their ratings), to the reader whose
// opponent is opp; each part in the registry's order.
type Offer struct {
	Told    string                        // ends the confirmation's first line
	Words   func(lang string) string      // ends the invitation's first line
	Play    func(lang string) string      // how the game is played (its time control)
	Players func(lang, opp string) string // what its players bring (their ratings)
}

// BoardShower is a hook: ShowBoard may answer a "board" for a game the
// sender does not play (board, before the core looks for the sender's own
// game): true when it answered it; err is an archive failure, which fails
// the mail.
type BoardShower interface {
	ShowBoard(ss *Session) (bool, error)
}

// GamesLister is a hook: ListGames adds to the sender's list of games
// (games): head, a line above the list ("" for none), and label, how it
// writes the opponent opp of a listed game g (nil to leave the address;
// an engine opponent is always the core's PlayerLabel).
type GamesLister interface {
	ListGames(ss *Session) (head string, label func(g *archive.Game, opp string) string)
}

// GameTeller is a hook: TellGame returns what the feature adds to every
// mail about game t read in lang (body): header ends the mail's first
// line, after the game's id and variant; section stands after the note's
// sections, before the board, in the mail of a game that started ("" for
// nothing of either).
type GameTeller interface {
	TellGame(ss *Session, lang string, t *Table) (header, section string)
}

// SyntaxHinter is a hook: SyntaxHint returns a hint for command line l,
// which does not parse (ge its grammar error, nil when it is none), or ""
// (syntaxHint, after the hint for a move's dash, before those for a
// misspelt command and a square beyond the board).
type SyntaxHinter interface {
	SyntaxHint(ss *Session, l CommandLine, ge *grammar.Error) string
}

// InstantWriter is a hook: Instant writes the instant t in lang for the
// reader at addr as the feature has them read it (the daily digest: in
// the time zone addr chose), or "" to leave it to the core, which writes
// it in UTC (catalog.Instant).
type InstantWriter interface {
	Instant(ss *Session, lang string, t time.Time, addr string) string
}

// TakeChallenge offers the new command c to the ChallengeTakers, in
// registry order: true, with the command's error, when one took it.
func (ss *Session) TakeChallenge(c *grammar.NewGameCommand, v *engine.Variant) (bool, error) {
	for _, m := range Modules {
		if k, ok := m.(ChallengeTaker); ok {
			if took, err := k.TakeChallenge(ss, c, v); took {
				return true, err
			}
		}
	}
	return false, nil
}

// Offers returns the part of every OfferWriter in the challenge of t,
// in registry order, and stops at the first error.
func (ss *Session) Offers(t *Table, c *grammar.NewGameCommand) ([]Offer, error) {
	var out []Offer
	for _, m := range Modules {
		if w, ok := m.(OfferWriter); ok {
			o, err := w.Offer(ss, t, c)
			if err != nil {
				return nil, err
			}
			out = append(out, o)
		}
	}
	return out, nil
}

// ShowBoard offers the mail's "board" to the BoardShowers, in registry
// order, and reports whether one answered it (or failed).
func (ss *Session) ShowBoard() (bool, error) {
	for _, m := range Modules {
		if s, ok := m.(BoardShower); ok {
			if done, err := s.ShowBoard(ss); done || err != nil {
				return true, err
			}
		}
	}
	return false, nil
}

// ListGames returns the GamesListers' lines above the games list, each
// followed by a blank line, in registry order, and the label of the
// first that writes opponents (nil for none).
func (ss *Session) ListGames() (head string, label func(g *archive.Game, opp string) string) {
	for _, m := range Modules {
		if l, ok := m.(GamesLister); ok {
			h, f := l.ListGames(ss)
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

// TellGame returns what the GameTellers add to a mail about t read in
// lang, in registry order: their headers, and their sections, each
// followed by a blank line.
func (ss *Session) TellGame(lang string, t *Table) (header, sections string) {
	for _, m := range Modules {
		if g, ok := m.(GameTeller); ok {
			h, s := g.TellGame(ss, lang, t)
			header += h
			if s != "" {
				sections += s + "\n\n"
			}
		}
	}
	return header, sections
}

// FeatureHint returns the first SyntaxHinter's hint for l, in registry
// order, or "".
func (ss *Session) FeatureHint(l CommandLine, ge *grammar.Error) string {
	for _, m := range Modules {
		if h, ok := m.(SyntaxHinter); ok {
			if hint := h.SyntaxHint(ss, l, ge); hint != "" {
				return hint
			}
		}
	}
	return ""
}

// Instant writes t in lang for the reader at addr: as the first
// InstantWriter writes it, in registry order, else in UTC
// (catalog.Instant).
func (ss *Session) Instant(lang string, t time.Time, addr string) string {
	for _, m := range Modules {
		if w, ok := m.(InstantWriter); ok {
			if s := w.Instant(ss, lang, t, addr); s != "" {
				return s
			}
		}
	}
	return catalog.Instant(lang, t)
}

// The hooks of a spectator's commands: "watch" and "unwatch" are the
// correspondence's (spectators of a game), and a target that is no game
// is handed to the modules through these, so that the feature that owns
// such a target (the tournament: its spectators follow the event) keeps
// it, and correspondence names no feature above it.

// WatchTaker may take a "watch" command c whose id names no game of the
// archive (watch, once the correspondence found none by it): true when c
// names a target of its own (the tournament: the event's id), with the
// command's error (a refusal, or an archive failure, which fails the
// mail). None taking it, "watch" refuses the id as unknown.
type WatchTaker interface {
	TakeWatch(ss *Session, c *grammar.WatchCommand) (bool, error)
}

// ThreadTeller names the target of a bare "unwatch" in a mail about no
// game (unwatch): the id of what the feature's own mail that the mail
// answers (its In-Reply-To, then its References) was about (the
// tournament: the event whose start mail a spectator answers), "" when
// it answers none of them.
type ThreadTeller interface {
	ThreadTarget(ss *Session) string
}

// UnwatchTaker may take an "unwatch" of id (upper case), named by the
// line or a ThreadTeller (named), else the game the mail is about
// (unwatch, before the correspondence looks for a game the sender
// watches): true when it stopped the sender following a target of its
// own and told them (the tournament: the event named, or the event of
// the named game the sender follows only as its spectator). An error is
// the archive's, and fails the mail.
type UnwatchTaker interface {
	TakeUnwatch(ss *Session, id string, named bool) (bool, error)
}

// TakeWatch offers the "watch" command c, whose id names no game, to the
// watchTakers, in registry order: true, with the command's error, when
// one took it.
func (ss *Session) TakeWatch(c *grammar.WatchCommand) (bool, error) {
	for _, m := range Modules {
		if w, ok := m.(WatchTaker); ok {
			if took, err := w.TakeWatch(ss, c); took {
				return true, err
			}
		}
	}
	return false, nil
}

// ThreadTarget returns the first target a threadTeller names for a bare
// "unwatch", in registry order, or "".
func (ss *Session) ThreadTarget() string {
	for _, m := range Modules {
		if t, ok := m.(ThreadTeller); ok {
			if id := t.ThreadTarget(ss); id != "" {
				return id
			}
		}
	}
	return ""
}

// TakeUnwatch offers the "unwatch" of id to the unwatchTakers, in
// registry order, and reports whether one took it; it stops at the first
// that took it or failed.
func (ss *Session) TakeUnwatch(id string, named bool) (bool, error) {
	for _, m := range Modules {
		if u, ok := m.(UnwatchTaker); ok {
			if took, err := u.TakeUnwatch(ss, id, named); took || err != nil {
				return took, err
			}
		}
	}
	return false, nil
}

// EngineQueue returns how many engine turns wait for a search slot: the
// queue of the engine opponent (server/internal/engineturn), summed over
// the QueueTellers (module.go), read for /metrics; 0 without one.
func (s *Server) EngineQueue() int {
	n := 0
	for _, m := range Modules {
		if q, ok := m.(QueueTeller); ok {
			n += q.Queued(s)
		}
	}
	return n
}
