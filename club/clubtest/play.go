package clubtest

import (
	"fmt"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/tournament"
)

// plyText is a ply in canonical OTN as the referee stores it: "K" before
// a king's move, the captures after "x", "/" between them.
func plyText(r engine.PlyResult, king engine.Square) string {
	var b strings.Builder
	if r.Piece == engine.King {
		b.WriteByte('K')
	}
	b.WriteString(r.Move.String())
	for i, c := range r.Captures {
		if i == 0 {
			b.WriteByte('x')
		} else {
			b.WriteByte('/')
		}
		if c == king && r.Piece != engine.King {
			b.WriteByte('K')
		}
		b.WriteString(c.String())
	}
	return b.String()
}

// play plays up to n random legal plies of g from its start, a ply every
// few hours from the clock on, and returns them with the outcome the
// rules reached (the zero Outcome when they did not end it).
func (b *builder) play(g *archive.Game, n int) ([]archive.Ply, engine.Outcome, error) {
	v, ok := engine.Lookup(g.Variant)
	if !ok {
		return nil, engine.Outcome{}, fmt.Errorf("clubtest: no variant %q", g.Variant)
	}
	pos, err := engine.NewPosition(v)
	if err != nil {
		return nil, engine.Outcome{}, err
	}
	var plies []archive.Ply
	var moves []engine.Move
	for i := 0; i < n && !pos.Outcome().Over(); i++ {
		moves = pos.LegalMoves(moves[:0])
		if len(moves) == 0 {
			break
		}
		// prefer captures and king moves now and then, so games end
		m := moves[b.rng.IntN(len(moves))]
		king, _ := pos.King()
		res, err := pos.Play(m)
		if err != nil {
			return nil, engine.Outcome{}, err
		}
		b.tick(time.Duration(1+b.rng.IntN(10)) * time.Hour)
		plies = append(plies, archive.Ply{N: i + 1, Move: plyText(res, king), At: b.now, MessageID: fmt.Sprintf("<%s.%d@club.example>", g.ID, i+1)})
	}
	return plies, pos.Outcome(), nil
}

// finish ends g after its plies: by the rules' outcome, or by a draw
// agreed or a resignation of the side to move.
func (b *builder) finish(g *archive.Game, plies []archive.Ply, out engine.Outcome) {
	g.Status = archive.Finished
	g.EndedAt = b.now
	switch {
	case out.Over():
		g.Result, g.Reason = resultWord(out.Result), out.Reason.String()
	case b.rng.IntN(5) == 0:
		g.Result, g.Reason = "draw", "draw agreed"
	default:
		// the side to move resigns: attackers move on odd plies
		if len(plies)%2 == 0 {
			g.Result = "defenders"
		} else {
			g.Result = "attackers"
		}
		g.Reason = "resignation"
	}
}

func resultWord(r engine.Result) string {
	switch r {
	case engine.AttackersWin:
		return "attackers"
	case engine.DefendersWin:
		return "defenders"
	}
	return "draw"
}

// newGame returns a new active game between att and def, started now.
func (b *builder) newGame(att, def, variant, control string) *archive.Game {
	return &archive.Game{ID: b.gameID(), Variant: variant, Attackers: att, Defenders: def, Challenger: att,
		Status: archive.Active, AttackerToken: b.secret(), DefenderToken: b.secret(), TimeControl: control, StartedAt: b.now}
}

// playAndStore plays g to the end when finish, else a few plies, and
// commits it (inserted when new, else updated).
func (b *builder) playAndStore(g *archive.Game, finish bool, extra func(*archive.Change)) error {
	n := b.o.MaxPlies
	if !finish {
		n = 3 + b.rng.IntN(8)
	}
	plies, out, err := b.play(g, n)
	if err != nil {
		return err
	}
	if finish || out.Over() {
		b.finish(g, plies, out)
	}
	c := archive.Change{Games: []*archive.Game{g}, NewPlies: map[string][]archive.Ply{g.ID: plies}}
	if extra != nil {
		extra(&c)
	}
	if err := b.commit(c); err != nil {
		return fmt.Errorf("clubtest: game %s: %w", g.ID, err)
	}
	if g.Status == archive.Finished && g.Result != "" && g.Rated {
		b.rated = append(b.rated, ratedGame{id: g.ID, res: g.Result, g: tournament.RatedGame{Variant: g.Variant,
			Attackers: g.Attackers, Defenders: g.Defenders, Result: resultOf(g.Result), End: g.EndedAt}})
	}
	if !g.AttackersPrivate && !g.DefendersPrivate {
		b.f.Games++
	}
	return nil
}

func resultOf(s string) engine.Result {
	switch s {
	case "attackers":
		return engine.AttackersWin
	case "defenders":
		return engine.DefendersWin
	}
	return engine.Draw
}
