package digest

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/taflmail/taflmail/server/internal/gameclock"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// digestOrder sorts the games of a digest by urgency: timed games by the
// player's deadline, earliest first, then untimed ones by how long the
// player's move has been awaited, longest first, then by id.
func digestOrder(ss *referee.Session, ts []*referee.Table) {
	type key struct {
		deadline time.Time // zero for untimed
		since    time.Time
	}
	keys := map[*referee.Table]key{}
	for _, t := range ts {
		var k key
		if st, err := gameclock.State(t); err == nil && st.Control.Timed() {
			k.deadline, _ = st.Deadline()
		}
		k.since = t.Game.StartedAt
		if ps := t.Game.Plies; len(ps) > 0 {
			k.since = ps[len(ps)-1].At
		}
		keys[t] = k
	}
	slices.SortStableFunc(ts, func(a, b *referee.Table) int {
		ka, kb := keys[a], keys[b]
		switch {
		case ka.deadline.IsZero() != kb.deadline.IsZero():
			if ka.deadline.IsZero() {
				return 1
			}
			return -1
		case !ka.deadline.Equal(kb.deadline):
			return ka.deadline.Compare(kb.deadline)
		case !ka.since.Equal(kb.since):
			return ka.since.Compare(kb.since)
		}
		return strings.Compare(a.Game.ID, b.Game.ID)
	})
}

// digestEntry is one game of addr's digest: the game's header (with the
// event and round of a tournament game, the modules' GameTellers) and
// players, the opponent's last ply, a draw offer of the opponent's that
// still stands (trial 3), the clocks (or since when the move is
// awaited), the board, whose move, and how to answer: the game's tag line
// with addr's key and an example move.
func digestEntry(ss *referee.Session, addr, lang string, t *referee.Table) string {
	var b strings.Builder
	header, _ := ss.TellGame(lang, t) // a tournament game's event and round, as in every mail about it
	b.WriteString(referee.Tr(lang, "game.header", t.Game.ID, referee.VariantTitle(lang, t.Variant)) + header + "\n")
	b.WriteString(referee.Tr(lang, "game.players", t.Game.Attackers, t.Game.Defenders) + "\n\n")
	if ps := t.Game.Plies; len(ps) > 0 {
		b.WriteString(referee.Tr(lang, "move.played", referee.OpponentOf(t.Game, addr), ps[len(ps)-1].Move) + "\n")
	} else {
		b.WriteString(referee.Tr(lang, "digest.first") + "\n")
	}
	if by := t.Game.DrawOfferBy; by != "" && by != referee.SideOf(t.Game, addr) {
		b.WriteString(referee.Tr(lang, "digest.draw", referee.OpponentOf(t.Game, addr)) + "\n")
	}
	if c := gameclock.ClocksText(ss, lang, t); c != "" {
		b.WriteString(c + "\n")
	}
	b.WriteString("\n" + t.Board(lang) + "\n")
	b.WriteString(referee.Tr(lang, "move.yours", t.MoveNumber(), referee.SideName(lang, t.ToMove())) + "\n")
	b.WriteString(referee.Tr(lang, "digest.answer") + "\n")
	fmt.Fprintf(&b, "    [taflmail %s %s]\n    %s\n\n", t.Game.ID, referee.TokenOf(t.Game, addr), referee.ExampleMove(t))
	return b.String()
}
