package mailer

import (
	"strings"
	"unicode/utf8"
)

// WrapWidth is the longest prose line, in characters, that [Outgoing.Bytes]
// writes when Flowed is set: RFC 5322 §2.1.1 recommends 78, and two are
// left for the "> " a player's client puts in front when quoting. A line
// with one word longer than that (a URL, say) is not broken.
const WrapWidth = 76

// preMark begins each line that [Preformatted] marked. It is an ASCII
// control character (RS) that no reply text carries; Bytes removes every
// one from the body, so none reaches a player.
const preMark = "\x1e"

// Preformatted marks every line of s as preformatted: a board, a move list,
// a table, the columns of an overview, a quoted line of a player's mail.
// [Outgoing.Bytes] sends such lines as they are, never wrapped or joined
// (with Flowed, trailing spaces are removed and a line starting with a
// space, ">" or "From " gets one more space in front, RFC 3676 §4.4, which
// a flowed-aware client takes off again). Call it where the block is built,
// on the block only; the marks are removed from every mail, Flowed or not.
func Preformatted(s string) string {
	if s == "" {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l = strings.ReplaceAll(l, preMark, ""); l != "" {
			lines[i] = preMark + l
		}
	}
	return strings.Join(lines, "\n")
}

// Wrap breaks one line of prose into lines of at most width characters
// (runes), at spaces only: a word longer than width (a URL, an address, a
// Message-ID, a key) stands alone on a line, never cut. A span in double
// quotes ("new brandubh with bob@example.org", a command example) or in
// brackets ("[taflmail 7D80ER 2ra17zn27b]", a game's tag line) is kept on
// one line when it fits in width. The spaces at a break are dropped;
// the lines carry no indent of their own. An empty line gives one empty
// line.
func Wrap(line string, width int) []string {
	var out []string
	for _, seg := range segments(line, width, width) {
		out = append(out, strings.TrimRight(seg, " "))
	}
	return out
}

// segments cuts s at spaces into pieces whose text, without the spaces
// each piece ends with, is at most first characters for the first piece
// and next for the others; a piece keeps the spaces after it, so the pieces
// joined give s again. Quoted spans are not cut where that can be helped
// (see [Wrap]).
func segments(s string, first, next int) []string {
	quoted := quotedSpans(s)
	var out []string
	width := first
	for start := 0; ; width = next {
		if utf8.RuneCountInString(s[start:]) <= width {
			return append(out, s[start:])
		}
		cut, fits := breakAt(s, start, width, quoted)
		if !fits {
			// a quoted span longer than the line is cut like the rest
			if c, ok := breakAt(s, start, width, nil); ok {
				cut = c
			}
		}
		if cut < 0 {
			return append(out, s[start:]) // one word, however long
		}
		end := cut
		for end < len(s) && s[end] == ' ' {
			end++
		}
		if end == len(s) {
			return append(out, s[start:])
		}
		out = append(out, s[start:end])
		start = end
	}
}

// breakAt returns the index of the space run in s after start where a line
// of at most width characters from start ends: the last one that fits
// (fits true), else the first one (after an overlong word); -1 when there
// is none. A space inside a span of quoted (pairs of byte offsets) is no
// break.
func breakAt(s string, start, width int, quoted [][2]int) (cut int, fits bool) {
	best, firstBreak := -1, -1
	n := 0
	for i, r := range s[start:] {
		i += start
		if r == ' ' && i > start && s[i-1] != ' ' && !inside(i, quoted) {
			if n <= width {
				best = i
			} else if firstBreak < 0 {
				firstBreak = i
			}
			if n > width && (best >= 0 || firstBreak >= 0) {
				break
			}
		}
		n++
	}
	if best >= 0 {
		return best, true
	}
	return firstBreak, false
}

// quotedSpans returns the byte offsets of each pair of double quotes in s
// and of each bracket pair ("[taflmail 7D80ER 2ra17zn27b]", a game's tag
// line); a last quote without its pair, or a bracket never closed, opens
// no span.
func quotedSpans(s string) [][2]int {
	var spans [][2]int
	quote, bracket := -1, -1
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '"' && quote < 0:
			quote = i
		case s[i] == '"':
			spans, quote = append(spans, [2]int{quote, i}), -1
		case s[i] == '[' && bracket < 0 && quote < 0:
			bracket = i
		case s[i] == ']' && bracket >= 0:
			spans, bracket = append(spans, [2]int{bracket, i}), -1
		}
	}
	return spans
}

func inside(i int, spans [][2]int) bool {
	for _, sp := range spans {
		if i > sp[0] && i < sp[1] {
			return true
		}
	}
	return false
}

// bullets are the item marks after which a wrapped line's continuation
// lines are indented.
var bullets = []string{"- ", "* ", "• ", "– "}

// flowed returns body as format=flowed text (RFC 3676, DelSp=no) whose
// lines, but for an overlong word, are at most width characters before
// space-stuffing. A prose line that is too long is wrapped at spaces
// (see [Wrap]): a line that starts at the margin with soft breaks (the
// line before each break ends in its space, so a flowed-aware client joins
// them again), an indented one or an item ("  - …") with hard breaks and
// its continuation lines indented under its text. Lines marked
// [Preformatted] and the signature separator "-- " are kept; every other
// line loses its trailing spaces, so no line is flowed by accident. Lines
// starting with a space, ">" or "From " are space-stuffed (RFC 3676 §4.4).
// Marks are removed. Line ends are LF.
func flowed(body string, width int) string {
	var b strings.Builder
	lines := strings.Split(body, "\n")
	for i, line := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		if pre, ok := strings.CutPrefix(line, preMark); ok {
			b.WriteString(stuff(strings.TrimRight(strings.ReplaceAll(pre, preMark, ""), " ")))
			continue
		}
		line = strings.ReplaceAll(line, preMark, "")
		if line == "-- " {
			b.WriteString(line)
			continue
		}
		for j, l := range wrapProse(strings.TrimRight(line, " "), width) {
			if j > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(stuff(l))
		}
	}
	return b.String()
}

// wrapProse wraps one prose line for flowed: see there.
func wrapProse(line string, width int) []string {
	if utf8.RuneCountInString(line) <= width {
		return []string{line}
	}
	text := strings.TrimLeft(line, " ")
	indent := line[:len(line)-len(text)]
	if indent == "" && !hasBullet(text) {
		return segments(text, width, width) // soft breaks: each piece keeps its space
	}
	hang := utf8.RuneCountInString(indent)
	if hasBullet(text) {
		hang += 2
	}
	pieces := segments(text, width-len(indent), max(width-hang, 1))
	for i, p := range pieces {
		p = strings.TrimRight(p, " ")
		if i == 0 {
			pieces[i] = indent + p
		} else {
			pieces[i] = strings.Repeat(" ", hang) + p
		}
	}
	return pieces
}

func hasBullet(s string) bool {
	for _, m := range bullets {
		if strings.HasPrefix(s, m) {
			return true
		}
	}
	return false
}

// stuff space-stuffs a line of flowed text (RFC 3676 §4.4).
func stuff(l string) string {
	if strings.HasPrefix(l, " ") || strings.HasPrefix(l, ">") || strings.HasPrefix(l, "From ") {
		return " " + l
	}
	return l
}

// Unmark removes the marks of [Preformatted] from s, as [Outgoing.Bytes]
// does: s as a mail shows it but for wrapping.
func Unmark(s string) string {
	return strings.ReplaceAll(s, preMark, "")
}
