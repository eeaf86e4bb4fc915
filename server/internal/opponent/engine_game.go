package opponent

import (
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/search"
	"github.com/taflmail/taflmail/server/internal/gameclock"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// defaultEngineLevel is the engine's level when a challenge names none:
// the middle of search.MinLevel..search.MaxLevel.
const defaultEngineLevel search.Level = 3

func init() {
	referee.HelpLine(11, "help.engine")
}

// newEngineGame handles "new <variant> with engine [level N] [as <side>]
// [time <control>]": a running game of the sender against the engine at
// once, without an invitation. The engine plays at level N
// (search.MinLevel to MaxLevel, default defaultEngineLevel). It is refused
// when games against the engine are switched off (Options.EngineGames),
// the level does not exist, this mail started a game against the engine
// already (issue 18 §3: one mail, one engine game, however its lines are
// worded), the sender sent maxChallengesPerHour challenges in the last
// hour or already plays Options.EngineGames running games against the
// engine, or the engine is fully booked (engineBooked). A level with a
// person's address is refused too.
func newEngineGame(ss *referee.Session, c *grammar.NewGameCommand, v *engine.Variant) error {
	level, given := defaultEngineLevel, hasLevel(c)
	if given {
		level = search.Level(c.Level)
	}
	if !c.Engine {
		return ss.Refuse("err.engine.nolevel")
	}
	limit := ss.Server.Opts.EngineGames
	if limit <= 0 {
		return ss.Refuse("err.engine.off")
	}
	if given && !level.Valid() {
		return ss.Refuse("err.engine.level", c.Level, int(search.MinLevel), int(search.MaxLevel))
	}
	if c.Rated {
		// Ratings are between people (CORRESPONDENCE.md §7): the engine
		// has no rating of its own, and its strength is set by its level,
		// so such a game would say nothing of a player's.
		return ss.Refuse("err.engine.rated")
	}
	side := "attackers"
	if c.Side != "" {
		var ok bool
		if side, ok = referee.NormalizeSide(c.Side); !ok {
			return ss.Refuse("err.badside", referee.Clip(c.Side))
		}
	}
	if startedEngineGame(ss) {
		return ss.Refuse("err.engine.onemail")
	}
	if err := ss.ChallengeLimit(); err != nil {
		return err
	}
	running, err := engineGamesOf(ss, ss.From)
	if err != nil {
		return err
	}
	if len(running) >= limit {
		return ss.Refusen("err.engine.games", len(running), len(running), strings.Join(running, ", "), limit)
	}
	if err := engineBooked(ss, level); err != nil {
		return err
	}
	t, err := ss.CreateGame(v, referee.EngineAddress, side)
	if err != nil {
		return err
	}
	t.Game.EngineLevel = int(level)
	t.Game.Status = archive.Active
	t.Game.StartedAt = ss.Now // the first mover's clock starts (CORRESPONDENCE.md §2.1)
	if side == "attackers" {
		t.Game.DefenderToken = "" // the engine's side has no key: nobody can act for it
	} else {
		t.Game.AttackerToken = ""
	}
	tc := gameclock.NewGameControl(c)
	if tc.Timed() {
		t.Game.TimeControl = tc.String()
	}
	// its own mail, with its board and key, whatever else the mail
	// starts (ss.StartNote); ss.ShowPosition finds that note
	ss.AddSection(ss.StartNote(ss.From, ss.Lang, t), referee.Tr(ss.Lang, "engine.started", referee.VariantTitle(ss.Lang, v), int(level), referee.SideName(ss.Lang, side))+"\n"+gameclock.Terms(ss.Server, ss.Lang, tc))
	ss.ShowPosition(t)
	return nil
}

// hasLevel reports whether a new command has a level clause ("level 0"
// included, which the grammar reads as Level 0 like no clause).
func hasLevel(c *grammar.NewGameCommand) bool {
	for _, o := range c.Options {
		if o.Level != "" {
			return true
		}
	}
	return false
}

// engineGamesOf returns the ids of the running games addr plays against
// the engine, those this mail starts included.
func engineGamesOf(ss *referee.Session, addr string) ([]string, error) {
	gs, err := ss.Server.GamePort().GamesOf(ss.Ctx, addr)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, g := range gs {
		if g.Status == archive.Active && referee.EngineSide(g) != "" {
			ids = append(ids, g.ID)
		}
	}
	for _, t := range ss.Tables {
		if t.Changed && t.Game.Version == 0 && t.Game.Status == archive.Active && referee.EngineSide(t.Game) != "" && referee.SideOf(t.Game, addr) != "" {
			ids = append(ids, t.Game.ID)
		}
	}
	return ids, nil
}

// startedEngineGame reports whether this mail has started a game against
// the engine already.
func startedEngineGame(ss *referee.Session) bool {
	for _, t := range ss.Tables {
		if t.Changed && t.Game.Version == 0 && referee.EngineSide(t.Game) != "" {
			return true
		}
	}
	return false
}

// ServeWindow is the time, per search slot (Options.EngineSearches),
// in which the engine must be able to think one ply of every running game
// at a level and below: the automatic global cap of its games
// (engineBooked, Options.EngineMaxGames 0).
const ServeWindow = 5 * time.Minute

// engineBooked returns a refusal when the engine can take no further game
// at level (issue 18 §3): with Options.EngineMaxGames set, when that many
// games against it are running; without, when one ply of every running
// game at level or below, and of the new one, would need more think time
// (LevelThink, at each game's level) than EngineSearches ×
// ServeWindow. Games at higher levels do not count against a lower
// one, so expensive games never crowd out cheap ones, and the fair order
// of the engine's turns (engineturn) serves the cheap ones first.
func engineBooked(ss *referee.Session, level search.Level) error {
	levels, err := ss.Server.EnginePort().EngineGames(ss.Ctx)
	if err != nil {
		return err
	}
	if max := ss.Server.Opts.EngineMaxGames; max > 0 {
		total := 0
		for _, n := range levels {
			total += n
		}
		if total >= max {
			return ss.Refusen("err.engine.cap", total, total)
		}
		return nil
	}
	need, games := LevelThink(ss.Server, level), 0
	for l, n := range levels {
		if search.Level(l) <= level {
			need += time.Duration(n) * LevelThink(ss.Server, search.Level(l))
			games += n
		}
	}
	if need > time.Duration(ss.Server.Opts.EngineSearches)*ServeWindow {
		return ss.Refusen("err.engine.busy", games, int(level), games, int(level))
	}
	return nil
}
