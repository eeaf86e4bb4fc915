package referee

import (
	"slices"
	"strings"

	"github.com/taflmail/taflmail/archive"
)

// Dispositions of a processed mail (archive.ProcessedMail).
const (
	Applied = "applied" // at least one command changed or answered something
	Refused = "refused" // answered with an error, nothing changed
	Ignored = "ignored" // not answered: a bounce, an auto-reply, our own mail
	errored = "error"   // the referee failed on it: an apology sent, nothing applied, never retried
)

// processedAbout are the attributes of the "mail processed" log line that
// say what the mail was about (issue 22 §11): "game", the game it named,
// or else the games it started (a challenge, a game against the engine),
// comma-separated; "tournament", the tournaments whose entries it made or
// changed (a join, its confirmation, a withdrawal). An attribute with
// nothing to name is left out rather than logged empty. Call it before
// Commit, which sets the versions by which a new game is told.
func processedAbout(c *archive.Change) []any {
	var about []any
	game := c.Mail.GameID
	if game == "" {
		var started []string
		for _, g := range c.Games {
			if g.Version == 0 {
				started = append(started, g.ID)
			}
		}
		game = strings.Join(started, ",")
	}
	if game != "" {
		about = append(about, "game", game)
	}
	var events []string
	if tc, _ := archive.WriteOf[*archive.TournamentChange](c); tc != nil {
		for _, e := range tc.Entries {
			events = append(events, e.TournamentID)
		}
		for _, p := range tc.Pending {
			events = append(events, p.TournamentID)
		}
	}
	slices.Sort(events)
	if events = slices.Compact(events); len(events) > 0 {
		about = append(about, "tournament", strings.Join(events, ","))
	}
	return about
}
