package correspondence

import (
	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// MaxSpectators is how many addresses may watch one game; MaxWatched how
// many running games one address may watch. Spectators' mails are not
// bounded by referee.MaxReplyBytes, which bounds the replies a sender can cause:
// they are caused by the players' own moves, one mail per spectator.
const (
	MaxSpectators = 20
	MaxWatched    = 10
)

// tournamentGame reports whether g belongs to a tournament: such a game is
// always public, never allows takebacks, and its tournament's spectators
// follow it.
func tournamentGame(g *archive.Game) bool { return g.TournamentID != "" }

// privateGame reports whether g refuses spectators: a casual game one of whose
// players wrote "private". A tournament game is always public.
func privateGame(g *archive.Game) bool {
	return (g.AttackersPrivate || g.DefendersPrivate) && !tournamentGame(g)
}

// GameIDShaped reports whether id (upper case) can be a game id: six
// characters of idAlphabet (club.LooksLikeGameID). Mail commands that
// take a game or a tournament ("watch ID") read such an id as a game's
// first; a tournament cannot have one (club.ReadTournamentFile).
func GameIDShaped(id string) bool { return club.LooksLikeGameID(id) }

// StartWatching adds sp, a spectator row of the sender's (a game's, or
// a tournament's), to those this mail writes (archive.WatchWrite's
// Watch).
func StartWatching(ss *referee.Session, sp archive.Spectator) {
	cor := corrOf(ss)
	cor.spectatorsAdded = append(cor.spectatorsAdded, sp)
}

// StopWatching adds sp to the spectator rows this mail removes
// (archive.WatchWrite's Unwatch).
func StopWatching(ss *referee.Session, sp archive.Spectator) {
	cor := corrOf(ss)
	cor.spectatorsRemoved = append(cor.spectatorsRemoved, sp)
}

// EventWatchAdded returns the sender's row following tournament id that
// this mail adds (StartWatching), or nil: a pointer into the mail's
// rows, so that a change to it is written.
func EventWatchAdded(ss *referee.Session, id string) *archive.Spectator {
	cor := corrOf(ss)
	for i := range cor.spectatorsAdded {
		if w := &cor.spectatorsAdded[i]; w.TournamentID == id && w.Address == ss.From {
			return w
		}
	}
	return nil
}

// UnwatchingEvent reports whether this mail stops addr following
// tournament id (StopWatching).
func UnwatchingEvent(ss *referee.Session, id, addr string) bool {
	if !ss.Uses(Module{}) {
		return false
	}
	for _, u := range corrOf(ss).spectatorsRemoved {
		if u.TournamentID == id && u.Address == addr {
			return true
		}
	}
	return false
}

// unwatching reports whether this mail removes addr from game id's
// spectators.
func unwatching(ss *referee.Session, id, addr string) bool {
	if !ss.Uses(Module{}) {
		return false
	}
	for _, u := range corrOf(ss).spectatorsRemoved {
		if u.GameID == id && u.Address == addr {
			return true
		}
	}
	return false
}

// spectatorSubject is a spectator's subject after the tag: the move and
// who is to move, or the result (referee.ResultWords: "no result" for an
// annulled game).
func spectatorSubject(ss *referee.Session, t *referee.Table, lang string) string {
	if t.Game.Status == archive.Finished {
		return referee.Tr(lang, "subject.over", referee.VariantTitle(lang, t.Variant), referee.ResultWords(lang, t.Game))
	}
	return referee.Tr(lang, "subject.move", referee.VariantTitle(lang, t.Variant), t.MoveNumber(), referee.SideName(lang, t.ToMove()))
}
