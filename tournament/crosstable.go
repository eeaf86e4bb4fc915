package tournament

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"
)

// CrosstableMax is the largest section Text draws as a crosstable; a
// larger one is written as a ranked list (issue 11: a crosstable fits 72
// columns for up to 10 players).
const CrosstableMax = 10

// TextWidth is the most columns a line of Text takes, names truncated
// with "…" to fit.
const TextWidth = 72

// Labels are the words of a standings text (Standings.TextIn), so that a
// caller can write it in a reader's language; the tournament package
// itself knows only English (EnglishLabels). Column headers longer than
// their column are cut with "…": Place 5 runes, Points 4, SB 6, Wins 2,
// Games 7; Player sets the least width of the name column.
type Labels struct {
	Place, Player, Points, SB, Wins, Games string
	// NoEvent is the title of a section whose event has no name.
	NoEvent string
	// Group is a fmt format of the title of a group: the event's name
	// (%[1]s) and the group's number from 1 (%[2]d).
	Group string
	// WithdrawnLost and WithdrawnAnnulled start the lists of withdrawn
	// players whose unfinished games were lost or all games annulled
	// (CORRESPONDENCE.md §6.4, Decision T3).
	WithdrawnLost, WithdrawnAnnulled string
	// Finished is a fmt format of the last line: games finished (%[1]d)
	// of games scheduled (%[2]d); FinishedOne the same when one game is
	// scheduled ("0 of 1 game finished", issue 22 §4), Finished if empty.
	Finished, FinishedOne string
}

// EnglishLabels are the words Text and Title use.
var EnglishLabels = Labels{
	Place: "Place", Player: "Player", Points: "Pts", SB: "S–B", Wins: "W", Games: "Games",
	NoEvent:           "(no event)",
	Group:             "%s, group %d",
	WithdrawnLost:     "Withdrawn, unfinished games lost: ",
	WithdrawnAnnulled: "Withdrawn, games annulled: ",
	Finished:          "%d of %d games finished.",
	FinishedOne:       "%d of %d game finished.",
}

// Title returns the section's heading: the event's name, with ", group
// N" for a section of a round robin in groups; "(no event)" when the
// event has no name.
func (s *Standings) Title() string { return s.TitleIn(EnglishLabels) }

// TitleIn is Title in the words of l (Labels.NoEvent, Labels.Group).
func (s *Standings) TitleIn(l Labels) string {
	t := s.Event
	if t == "" {
		t = l.NoEvent
	}
	if s.Section > 0 {
		t = fmt.Sprintf(l.Group, t, s.Section)
	}
	return t
}

// Text returns the standings as plain text of at most 72 columns per line
// (runes; every character used is one column wide): the title, then for
// up to 10 players a crosstable, beyond that a ranked list, then notes on
// withdrawals and the count of finished games.
//
// Crosstable columns: place ("3–4" when shared), player, one cell per
// opponent in the order of the rows (the match score: "1½", "½", "2",
// "0"; "–" for the player's own cell, blank while none of the match's
// games has ended), points, Sonneborn–Berger, wins. Ranked list columns:
// place, player, points, S–B, wins, games played of games scheduled.
func (s *Standings) Text() string { return s.TextIn(EnglishLabels) }

// TextIn is Text in the words of l: the title (TitleIn), the column
// headers, the withdrawal notes and the count of finished games; the
// layout, 72 columns at most, is Text's.
func (s *Standings) TextIn(l Labels) string {
	var b strings.Builder
	line := func(format string, args ...any) {
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	line("%s", truncate(s.TitleIn(l), TextWidth))
	head := func(label string, w int) string { return pad(truncate(label, w-1), w, true) }
	minName := max(1, utf8.RuneCountInString(l.Player))
	n := len(s.Rows)
	if n <= CrosstableMax {
		// place 5, name, cells 3 each, points 5, S–B 7, wins 3
		nameW := min(TextWidth-(5+1+3*n+5+7+3), 32, max(minName, s.longestName()))
		hdr := pad(truncate(l.Place, 5), 5, true) + " " + pad(truncate(l.Player, nameW), nameW, false)
		for i := range n {
			hdr += pad(fmt.Sprint(i+1), 3, true)
		}
		hdr += head(l.Points, 5) + head(l.SB, 7) + head(l.Wins, 3)
		line("%s", hdr)
		for i, r := range s.Rows {
			row := pad(r.PlaceText(), 5, true) + " " + pad(truncate(r.Player, nameW), nameW, false)
			for j := range n {
				cell := "–"
				if j != i {
					m := r.Matches[j-boolInt(j > i)]
					cell = ""
					if m.Played > 0 {
						cell = FormatScore(m.Score)
					}
				}
				row += pad(cell, 3, true)
			}
			row += pad(FormatScore(r.Points), 5, true) + pad(FormatScore(r.SonnebornBerger), 7, true) + pad(fmt.Sprint(r.Wins), 3, true)
			line("%s", strings.TrimRight(row, " "))
		}
	} else {
		// place 5, 2, name, points 6, S–B 8, wins 4, games 8
		nameW := min(TextWidth-(5+2+6+8+4+8), max(minName, s.longestName()))
		line("%s", pad(truncate(l.Place, 5), 5, true)+"  "+pad(truncate(l.Player, nameW), nameW, false)+
			head(l.Points, 6)+head(l.SB, 8)+head(l.Wins, 4)+head(l.Games, 8))
		for _, r := range s.Rows {
			line("%s", pad(r.PlaceText(), 5, true)+"  "+pad(truncate(r.Player, nameW), nameW, false)+
				pad(FormatScore(r.Points), 6, true)+pad(FormatScore(r.SonnebornBerger), 8, true)+
				pad(fmt.Sprint(r.Wins), 4, true)+pad(fmt.Sprintf("%d/%d", r.Played, r.Games), 8, true))
		}
	}
	var lost []string
	for _, r := range s.Rows {
		if r.Withdrawn {
			lost = append(lost, r.Player)
		}
	}
	wrapList(&b, l.WithdrawnLost, lost)
	wrapList(&b, l.WithdrawnAnnulled, s.Annulled)
	finished := l.Finished
	if s.Games == 1 && l.FinishedOne != "" {
		finished = l.FinishedOne
	}
	line("%s", fmt.Sprintf(finished, s.Finished, s.Games))
	return b.String()
}

// longestName is the length in runes of the longest player name.
func (s *Standings) longestName() int {
	n := 0
	for _, r := range s.Rows {
		n = max(n, utf8.RuneCountInString(r.Player))
	}
	return n
}

// wrapList writes "prefix a, b, c" as lines of at most TextWidth runes,
// each name truncated to fit a line; nothing for an empty list.
func wrapList(b *strings.Builder, prefix string, names []string) {
	if len(names) == 0 {
		return
	}
	const indent = "  "
	cur := prefix
	first := true
	for i, n := range names {
		item := n
		if i < len(names)-1 {
			item += ","
		}
		sep := " "
		if first {
			sep = ""
		}
		if !first && utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(item) > TextWidth {
			b.WriteString(cur + "\n")
			cur, sep = indent, ""
		}
		cur += sep + truncate(item, TextWidth-utf8.RuneCountInString(cur))
		first = false
	}
	b.WriteString(cur + "\n")
}

// FormatScore writes a score, a multiple of ¼ (points, Sonneborn–Berger
// points), with a vulgar fraction, as the crosstable does: 12½, ¾, 0. It
// is the same in every language; a value that is no multiple of ¼ is
// written at the nearest one.
func FormatScore(x float64) string {
	whole := math.Floor(x)
	q := int(math.Round((x - whole) * 4))
	frac := [...]string{"", "¼", "½", "¾"}[q%4]
	if q == 4 {
		whole++
	}
	if whole == 0 && frac != "" {
		return frac
	}
	return fmt.Sprintf("%.0f%s", whole, frac)
}

// truncate cuts s to at most w runes, ending in "…" when cut.
func truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= w {
		return s
	}
	r := []rune(s)
	return string(r[:w-1]) + "…"
}

// pad pads s with spaces to w runes, on the left when right is true.
func pad(s string, w int, right bool) string {
	n := w - utf8.RuneCountInString(s)
	if n <= 0 {
		return s
	}
	if right {
		return strings.Repeat(" ", n) + s
	}
	return s + strings.Repeat(" ", n)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
