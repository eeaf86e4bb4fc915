package referee

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/mailer"
)

func init() {
	Handle("games", (*Session).games)
	HelpLine(60, "help.games")
}

// maxFinishedListed is how many finished or declined games "games" lists,
// most recent first; the rest are counted.
const maxFinishedListed = 10

// maxGamesText bounds the list of games, in bytes: the games past it are
// counted, so that the list always fits into the reply (MaxReplyText;
// trial 2 report §1).
const maxGamesText = MaxReplyText / 2

// games lists the sender's games and whose turn it is. Each running game
// or open challenge is followed by its tag with the sender's key, so that
// a reply to this list that keeps one game's tag line reaches that game
// (findGameInText, issue 8 §5). The list goes to the sender's address
// only, where every mail about those games goes anyway.
func (ss *Session) games(*grammar.GamesCommand) error {
	gs, err := ss.Server.GamePort().GamesOf(ss.Ctx, ss.From)
	if err != nil {
		return err
	}
	if len(gs) == 0 {
		ss.Say(nil, Tr(ss.Lang, "games.none"))
		return nil
	}
	var b strings.Builder
	head, labelOf := ss.ListGames() // the modules' GamesListers: the sender's ratings, the opponents' (module.go)
	b.WriteString(head)
	b.WriteString(Tr(ss.Lang, "games.header") + "\n")
	type entry struct {
		g     *archive.Game
		label string
	}
	var entries []entry
	finished, tags, cut := 0, 0, 0
	oneLine := true // every row with its state on one line, or every state under its row
	for _, g := range gs {
		open := g.Status == archive.Active || g.Status == archive.Invited
		if !open {
			if finished++; finished > maxFinishedListed {
				continue
			}
		}
		opp := OpponentOf(g, ss.From)
		label := PlayerLabel(ss.Lang, g, opp)
		if !IsEngine(opp) && labelOf != nil {
			label = labelOf(g, opp)
		}
		e := entry{g, Clip(label)}
		entries = append(entries, e)
		if strings.Contains(ss.gamesRow(e.g, e.label, true), "\n") {
			oneLine = false
		}
	}
	for _, e := range entries {
		if b.Len() > maxGamesText {
			cut++
			continue
		}
		b.WriteString(mailer.Preformatted(ss.gamesRow(e.g, e.label, oneLine)) + "\n")
		open := e.g.Status == archive.Active || e.g.Status == archive.Invited
		if tok := TokenOf(e.g, ss.From); open && tok != "" {
			b.WriteString(mailer.Preformatted(fmt.Sprintf(GamesIndent+"[taflmail %s %s]", e.g.ID, tok)) + "\n")
			tags++
		}
	}
	if cut > 0 {
		fmt.Fprintf(&b, "  %s\n", Trn(ss.Lang, "games.cut", cut, cut))
	}
	if more := finished - maxFinishedListed; more > 0 {
		fmt.Fprintf(&b, "  %s\n", Trn(ss.Lang, "games.more", more, more))
	}
	if tags > 0 {
		b.WriteString("\n" + Tr(ss.Lang, "games.how"))
	}
	ss.Say(nil, b.String())
	return nil
}

// gamesRow is the row of game g in the games list, its opponent called
// label. With oneLine, and when it fits in mailer.WrapWidth, the state
// stands at the row's end; else it is wrapped under the row (and, for an
// opponent too long for the row, the opponent too), where the game's tag
// stands. The games list asks for one line only when every row of it
// fits, so that its entries are laid out alike.
func (ss *Session) gamesRow(g *archive.Game, label string, oneLine bool) string {
	state := ss.gameState(g)
	row := "  " + Tr(ss.Lang, "games.line", g.ID, g.Variant, label, state)
	if oneLine && utf8.RuneCountInString(row) <= mailer.WrapWidth {
		return row
	}
	row = strings.TrimRight("  "+Tr(ss.Lang, "games.line", g.ID, g.Variant, label, ""), " ")
	if utf8.RuneCountInString(row) > mailer.WrapWidth {
		row = strings.TrimRight("  "+Tr(ss.Lang, "games.line", g.ID, g.Variant, "", ""), " ") + "\n" + GamesIndent + label
	}
	return row + "\n" + GamesIndent + strings.Join(mailer.Wrap(state, mailer.WrapWidth-len(GamesIndent)), "\n"+GamesIndent)
}

// GamesIndent is the indent of the lines under a row of the games list:
// the game's tag, and the state of a row too long for one line.
const GamesIndent = "          "

// gameState says where a game of the sender stands: whose move, invited,
// finished with its result, declined.
func (ss *Session) gameState(g *archive.Game) string {
	switch g.Status {
	case archive.Active:
		mine := SideOf(g, ss.From)
		turn := "attackers"
		v, _ := engine.Lookup(g.Variant)
		if v != nil && (g.PlyCount%2 == 1) == (v.FirstSide == engine.Attackers) {
			turn = "defenders"
		}
		if turn == mine {
			return Tr(ss.Lang, "games.turn.you", g.PlyCount/2+1)
		}
		return Tr(ss.Lang, "games.turn.them", g.PlyCount/2+1)
	case archive.Invited:
		if g.Challenger != ss.From {
			return Tr(ss.Lang, "games.invited.you")
		}
		return Tr(ss.Lang, "games.invited")
	case archive.Finished:
		return ss.finishedWords(g)
	}
	return declinedWords(ss.Lang, g.Reason)
}

// finishedWords says how a finished game ended from the reader's side
// (issue 22 §8): "finished: you won (defenders win)", "… you lost (…)",
// "… you drew". A game without a result, or a reader who is neither
// player, gets the result in the sides' words.
func (ss *Session) finishedWords(g *archive.Game) string {
	mine := SideOf(g, ss.From)
	switch {
	case mine == "" || g.Result == "":
		return Tr(ss.Lang, "games.finished", ResultWords(ss.Lang, g))
	case g.Result == "draw":
		return Tr(ss.Lang, "games.finished.drew")
	case g.Result == mine:
		return Tr(ss.Lang, "games.finished.won", Tr(ss.Lang, "board.result."+g.Result))
	}
	return Tr(ss.Lang, "games.finished.lost", Tr(ss.Lang, "board.result."+g.Result))
}
