package correspondence

import (
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

// Name is "correspondence", as the registry's test and the docs call the
// module.
func (Module) Name() string { return "correspondence" }

// AfterPly runs after a ply of the player at ss.From in t was applied
// and both players were told, before the position is shown: the mover's
// opponent's takeback request lapses, and the opponent's conditional
// moves are played or cancelled (conditions_fire.go).
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
