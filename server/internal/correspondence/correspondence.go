package correspondence

import (
	"maps"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// The package's files reach the core through Module's hooks
// (internal/referee's module.go) only:
//
//   - the core's showPosition (PositionWatcher) takes spectate: the game's
//     spectators get the position too;
//   - after a ply (PlyWatcher: a move, the engine's ply) a takeback request
//     lapses, the opponent's conditional moves fire or are cancelled;
//   - run takes relayOnly for a keyed mail without command lines
//     (ProseKeeper) and relayProse after the commands (CommandsWatcher):
//     the player's prose goes to the opponent;
//   - compose (MailAdder) appends spectatorMails;
//   - collect (Collector) takes collectCorrespondence: spectators and
//     takebacks go into the archive change;
//   - changedGame (QuietKeeper) leaves out games whose only change is a
//     stored message (corrState.quiet), so the loop breaker still holds.

// corrState is what one mail does to the features of issue 12 beyond
// the game row (which the table's G carries): the games whose spectators get a
// mail, spectators added and removed, plies taken back.
type corrState struct {
	// public are the games whose position the players were shown
	// (showPosition), in that order: their spectators get a mail.
	public []*referee.Table
	// news are extra lines for a game's spectators (a takeback), by game.
	news map[string][]func(lang string) string
	// farewells are spectators told that they no longer watch a game
	// because it became private.
	farewells []farewell
	// watch and unwatch are the spectators added and removed
	// (an archive.WatchWrite).
	watch, unwatch []archive.Spectator
	// takeBacks are the plies taken back, by game (an archive.TakeBacks write).
	takeBacks map[string]archive.TakenBack
	// quiet are the games whose only change is a message stored for the
	// opponent: they do not count as changed for the loop breaker.
	quiet map[string]bool
}

// corrOf returns the correspondence module's state in ss, made on first
// use (referee.StateOf): the one way to it, for the package's files alone.
func corrOf(ss *referee.Session) *corrState {
	return referee.StateOf[corrState](ss, Module{})
}

// farewell is a spectator removed from a game that became private.
type farewell struct {
	t  *referee.Table
	sp archive.Spectator
}

// spectate notes that the players of t were shown a new position, so
// that its spectators get one too (spectatorMails).
func spectate(ss *referee.Session, t *referee.Table) {
	cor := corrOf(ss)
	for _, p := range cor.public {
		if p == t {
			return
		}
	}
	cor.public = append(cor.public, t)
}

// tellSpectators adds a line of news for the spectators of t.
func tellSpectators(ss *referee.Session, t *referee.Table, text func(lang string) string) {
	cor := corrOf(ss)
	if cor.news == nil {
		cor.news = map[string][]func(string) string{}
	}
	cor.news[t.G.ID] = append(cor.news[t.G.ID], text)
}

// Module is the correspondence features (issue 12) as a module of the
// core: spectators, messages to the opponent, conditional moves and
// takebacks, through the hooks of internal/referee's module.go. server's
// assembly lists it second, after the public name.
type Module struct{}

// Name is "correspondence", as the registry's test and the docs call the
// module.
func (Module) Name() string { return "correspondence" }

// AfterPly runs after a ply of the player at ss.From in t was applied
// and both players were told, before the position is shown: the mover's
// opponent's takeback request lapses, and the opponent's conditional
// moves are played or cancelled (conditions.go).
func (Module) AfterPly(ss *referee.Session, t *referee.Table) error {
	lapseTakeback(ss, t)
	return fireConditions(ss, t)
}

// PositionShown notes that the players of t were shown its position, so
// that its spectators get it too (spectate).
func (Module) PositionShown(ss *referee.Session, t *referee.Table) { spectate(ss, t) }

// Offer relays the challenger's words to the invited player (greeting,
// messages.go).
func (Module) Offer(ss *referee.Session, t *referee.Table, _ *grammar.NewGameCommand) (referee.Offer, error) {
	return greetingOffer(ss, t)
}

// ShowBoard answers a spectator's "board" (watchedBoard, cmd_watch.go).
func (Module) ShowBoard(ss *referee.Session) (bool, error) { return watchedBoard(ss) }

// KeepProse keeps the prose of a keyed mail without command lines for the
// opponent and answers it (relayOnly, messages.go); false leaves the mail
// to the core's "no command".
func (Module) KeepProse(ss *referee.Session) bool { return relayOnly(ss) }

// AfterCommands passes the prose of a keyed mail to the opponent after
// its commands ran (relayProse, messages.go).
func (Module) AfterCommands(ss *referee.Session) { relayProse(ss) }

// LineBudget says which reply budget a keyless "watch" line is counted in
// (watchBudget, cmd_watch.go); ok is false for every other command.
func (Module) LineBudget(ss *referee.Session, c grammar.Command) (archive.MailBudget, bool, error) {
	if w, ok := c.(*grammar.WatchCommand); ok {
		b, err := watchBudget(ss, w)
		return b, true, err
	}
	return "", false, nil
}

// Collect adds the mail's spectators added and removed and its plies
// taken back to change (collectCorrespondence).
func (Module) Collect(ss *referee.Session, change *archive.Change) {
	collectCorrespondence(ss, change)
}

// Mails are the spectators' mails about the games whose position the
// players were shown (spectatorMails, spectators.go).
func (Module) Mails(ss *referee.Session) ([]archive.OutboxMail, error) {
	return spectatorMails(ss) // spectators.go: never a player's key
}

// QuietChange reports whether t's only change in this mail is a message
// stored for the opponent (changedOnlyByMessage): the loop breaker does
// not count it as changed.
func (Module) QuietChange(ss *referee.Session, t *referee.Table) bool {
	return changedOnlyByMessage(ss, t)
}

// collectCorrespondence adds to change the spectators and takebacks of
// this mail.
func collectCorrespondence(ss *referee.Session, change *archive.Change) {
	if !ss.Uses(Module{}) {
		return // the mail did nothing of correspondence
	}
	cor := corrOf(ss)
	if len(cor.watch) > 0 || len(cor.unwatch) > 0 {
		change.Writes = append(change.Writes, archive.WatchWrite{Watch: cor.watch, Unwatch: cor.unwatch})
	}
	if len(cor.takeBacks) > 0 {
		tbs := make(archive.TakeBacks, len(cor.takeBacks))
		maps.Copy(tbs, cor.takeBacks)
		change.Writes = append(change.Writes, tbs)
	}
}

// changedOnlyByMessage reports whether t's only change in this mail is a
// message stored for the opponent (relayProse).
func changedOnlyByMessage(ss *referee.Session, t *referee.Table) bool {
	return ss.Uses(Module{}) && corrOf(ss).quiet[t.G.ID]
}
