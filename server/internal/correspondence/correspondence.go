package correspondence

import (
	"maps"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// corrState is what one mail does to the features of issue 12 beyond
// the game row (which the table's Game carries): the games whose spectators get a
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
	// spectatorsAdded and spectatorsRemoved are the spectator rows this
	// session adds and removes (an archive.WatchWrite).
	spectatorsAdded, spectatorsRemoved []archive.Spectator
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
	cor.news[t.Game.ID] = append(cor.news[t.Game.ID], text)
}

// Module is the correspondence features (issue 12) as a module of the
// core: spectators, messages to the opponent, conditional moves and
// takebacks, through the hooks of internal/referee's module.go. server's
// assembly lists it second, after the public name.
type Module struct{}

// collectCorrespondence adds to change the spectators and takebacks of
// this mail.
func collectCorrespondence(ss *referee.Session, change *archive.Change) {
	if !ss.Uses(Module{}) {
		return // the mail did nothing of correspondence
	}
	cor := corrOf(ss)
	if len(cor.spectatorsAdded) > 0 || len(cor.spectatorsRemoved) > 0 {
		change.Writes = append(change.Writes, archive.WatchWrite{Watch: cor.spectatorsAdded, Unwatch: cor.spectatorsRemoved})
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
	return ss.Uses(Module{}) && corrOf(ss).quiet[t.Game.ID]
}
