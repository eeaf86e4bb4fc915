package server

import (
	"maps"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// What correspondence players expect (issue 12): spectators
// (spectators.go, cmd_watch.go, cmd_private.go), messages to the opponent
// (messages.go, cmd_messages.go), conditional moves (conditions.go,
// cmd_conditions.go) and takebacks (cmd_takeback.go). The shared files
// reach them through correspondenceModule's hooks (module.go) only:
//
//   - showPosition (positionWatcher) takes spectate: the game's
//     spectators get the position too;
//   - after a ply (plyWatcher: move, enginePly) a takeback request
//     lapses, the opponent's conditional moves fire or are cancelled;
//   - run takes relayOnly for a keyed mail without command lines
//     (proseKeeper) and relayProse after the commands (commandsWatcher):
//     the player's prose goes to the opponent;
//   - compose (mailAdder) appends spectatorMails;
//   - collect (collector) takes collectCorrespondence: spectators and
//     takebacks go into the archive change;
//   - changedGame (quietKeeper) leaves out games whose only change is a
//     stored message (correspondence.quiet), so the loop breaker still holds.

// correspondence is what one mail does to the features of issue 12 beyond
// the game row (which table.g carries): the games whose spectators get a
// mail, spectators added and removed, plies taken back.
type correspondence struct {
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
// use (stateOf): the one way to it, for the files of issue 12 alone.
func corrOf(ss *referee.Session) *correspondence {
	return referee.StateOf[correspondence](ss, correspondenceModule{})
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

// correspondenceModule registers the features of issue 12 (module.go).
type correspondenceModule struct{}

func (correspondenceModule) Name() string { return "correspondence" }

// AfterPly runs after a ply of the player at ss.from in t was applied
// and both players were told, before the position is shown: the mover's
// opponent's takeback request lapses, and the opponent's conditional
// moves are played or cancelled (conditions.go).
func (correspondenceModule) AfterPly(ss *referee.Session, t *referee.Table) error {
	lapseTakeback(ss, t)
	return fireConditions(ss, t)
}

func (correspondenceModule) PositionShown(ss *referee.Session, t *referee.Table) { spectate(ss, t) }

// Offer relays the challenger's words to the invited player (greeting,
// messages.go).
func (correspondenceModule) Offer(ss *referee.Session, t *referee.Table, _ *grammar.NewGameCommand) (referee.Offer, error) {
	return greetingOffer(ss, t)
}

// ShowBoard answers a spectator's "board" (watchedBoard, cmd_watch.go).
func (correspondenceModule) ShowBoard(ss *referee.Session) (bool, error) { return watchedBoard(ss) }

func (correspondenceModule) KeepProse(ss *referee.Session) bool { return relayOnly(ss) }

func (correspondenceModule) AfterCommands(ss *referee.Session) { relayProse(ss) }

func (correspondenceModule) LineBudget(ss *referee.Session, c grammar.Command) (archive.MailBudget, bool, error) {
	if w, ok := c.(*grammar.WatchCommand); ok {
		b, err := watchBudget(ss, w)
		return b, true, err
	}
	return "", false, nil
}

func (correspondenceModule) Collect(ss *referee.Session, change *archive.Change) {
	collectCorrespondence(ss, change)
}

func (correspondenceModule) Mails(ss *referee.Session) ([]archive.OutboxMail, error) {
	return spectatorMails(ss) // spectators.go: never a player's key
}

func (correspondenceModule) QuietChange(ss *referee.Session, t *referee.Table) bool {
	return changedOnlyByMessage(ss, t)
}

// collectCorrespondence adds to change the spectators and takebacks of
// this mail.
func collectCorrespondence(ss *referee.Session, change *archive.Change) {
	if !ss.Uses(correspondenceModule{}) {
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
	return ss.Uses(correspondenceModule{}) && corrOf(ss).quiet[t.G.ID]
}
