package mailer

import (
	"regexp"
	"strings"
)

// StripQuoted returns the new text of a reply: text with quoted history,
// signatures and mobile footers cut. It handles
//
//   - lines quoted with ">" anywhere (inline and bottom posting keep the new
//     text between and after the quotes);
//   - an attribution line introducing a quote: "On … wrote:", "Am … schrieb
//     …:", "Le … a écrit :", also wrapped over up to three lines, and any
//     short "… wrote:" or "… schrieb:" line directly followed by ">" lines;
//     an "On … wrote:"/"Am … schrieb …:" not followed by ">" lines (history
//     pasted without quote marks) cuts everything from there on;
//   - "-----Original Message-----", "-----Ursprüngliche Nachricht-----",
//     "---------- Forwarded message ---------" and their kin: cut to the end;
//   - Outlook's header block "From:/Sent:/To:/Subject:" (also "Date:", "Cc:",
//     German "Von:/Gesendet:/An:/Betreff:/Datum:", French "De:/Envoyé:/À:/
//     Objet:", with or without "*bold*" marks) and the "_____" rule above it:
//     cut to the end;
//   - a signature after a "-- " (or "--") line: cut to the end;
//   - mobile and webmail footers ("Sent from my iPhone", "Von meinem iPhone
//     gesendet", "Get Outlook for Android", …): the line is dropped.
//
// Byte order marks (U+FEFF) are removed wherever they are, line ends become
// LF, trailing white space is removed from each line, runs
// of blank lines are reduced to one, and the result has no leading or
// trailing blank lines and no final newline. StripQuoted never panics and
// returns "" when nothing new is left.
func StripQuoted(text string) string {
	text = normalizeNewlines(strings.ReplaceAll(text, "\uFEFF", ""))
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\u00a0")
	}
	keep := make([]bool, len(lines))
	hdr := classifyHeaderLines(lines)
	end := len(lines)
scan:
	for i := 0; i < end; i++ {
		l := lines[i]
		switch {
		case isQuoteLine(l):
			continue
		case l == "--":
			end = i
			break scan
		case strings.Contains(l, "--") && originalMessageRE.MatchString(l):
			end = i
			break scan
		case isHeaderBlock(hdr, i):
			end = i
			for end > 0 && (lines[end-1] == "" || ruleRE.MatchString(lines[end-1])) {
				end--
			}
			break scan
		}
		if n, strict := attribution(lines, i); n > 0 {
			if quoteFollows(lines, i+n) {
				i += n - 1 // drop the attribution; the quote goes below
				continue
			}
			if strict {
				end = i
				break scan
			}
		}
		if isFooter(l) {
			continue
		}
		keep[i] = true
	}

	var out []string
	blank := false
	for i := 0; i < end; i++ {
		if !keep[i] {
			continue
		}
		if strings.TrimSpace(lines[i]) == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, lines[i])
	}
	return strings.Join(out, "\n")
}

// isQuoteLine reports a line quoted with ">" (up to three spaces of indent).
func isQuoteLine(l string) bool {
	t := strings.TrimLeft(l, " ")
	return strings.HasPrefix(t, ">") && len(l)-len(t) <= 3
}

var (
	// originalMessageRE matches the separators mail programs put above
	// history they quote without ">" marks.
	originalMessageRE = regexp.MustCompile(`(?i)^\s*-{2,}\s*(original message|ursprüngliche nachricht|originalnachricht|message d'origine|mensaje original|forwarded message|weitergeleitete nachricht|message transféré)\s*-{2,}\s*$`)

	// ruleRE matches the rule Outlook draws above its header block.
	ruleRE = regexp.MustCompile(`^\s*(_{5,}|-{5,})\s*$`)

	// The fields of Outlook's quoted header block, English, German, French.
	hdrFromRE    = regexp.MustCompile(`(?i)^\s*\*?(from|von|de)\*?\s?:\*?\s*\S`)
	hdrDateRE    = regexp.MustCompile(`(?i)^\s*\*?(sent|date|gesendet|datum|envoyé)\*?\s?:`)
	hdrSubjectRE = regexp.MustCompile(`(?i)^\s*\*?(to|subject|an|betreff|à|objet|cc)\*?\s?:`)

	// footerRE matches a whole line added by a phone or webmail program.
	footerRE = regexp.MustCompile(`(?i)^(` +
		`sent from my .{1,60}|` +
		`sent (from|with|via) (mail|outlook|yahoo|aol|gmail|proton ?mail|samsung|blackberry|the |my |iphone|ipad|android).{0,60}|` +
		`get outlook for .{1,40}|` +
		`von meinem .{1,60} gesendet\.?|` +
		`gesendet (von|mit) (meinem|mail|outlook|yahoo|gmx|web\.de|der|dem) .{0,60}|` +
		`holen sie sich outlook für .{1,40}|` +
		`outlook für (ios|android) herunterladen.{0,20}|` +
		`envoyé de mon .{1,60}` +
		`)$`)
)

// Classes of lines for isHeaderBlock.
const (
	hdrFrom = 1 << iota
	hdrDate
	hdrSubject
)

// classifyHeaderLines marks the lines that look like fields of a quoted
// header block, running each regexp once per line (and only on lines with
// a colon), so that StripQuoted stays linear on hostile input.
func classifyHeaderLines(lines []string) []uint8 {
	c := make([]uint8, len(lines))
	for i, l := range lines {
		if len(l) > 1000 || !strings.Contains(l, ":") {
			continue
		}
		switch {
		case hdrFromRE.MatchString(l):
			c[i] = hdrFrom
		case hdrDateRE.MatchString(l):
			c[i] = hdrDate
		case hdrSubjectRE.MatchString(l):
			c[i] = hdrSubject
		}
	}
	return c
}

// isHeaderBlock reports whether line i starts a quoted header block: a From
// line with a Sent/Date line and a To/Subject line among the next 8 lines.
func isHeaderBlock(c []uint8, i int) bool {
	if c[i] != hdrFrom {
		return false
	}
	var seen uint8
	for j := i + 1; j < len(c) && j <= i+8; j++ {
		seen |= c[j]
	}
	return seen&hdrDate != 0 && seen&hdrSubject != 0
}

// isFooter reports a whole line added by a phone or webmail program.
func isFooter(l string) bool {
	l = strings.TrimSpace(l)
	if len(l) < 10 || len(l) > 120 {
		return false
	}
	switch l[0] {
	case 's', 'S', 'g', 'G', 'v', 'V', 'h', 'H', 'o', 'O', 'e', 'E':
		return footerRE.MatchString(l)
	}
	return false
}

// mayStartAttribution is a cheap test before the attribution regexps: the
// strict forms start with On, Am or Le; the loose form ends with a colon.
func mayStartAttribution(l string) bool {
	l = strings.TrimSpace(l)
	if strings.HasSuffix(l, ":") {
		return true
	}
	if len(l) < 3 {
		return false
	}
	p := strings.ToLower(l[:3])
	return p == "on " || p == "am " || p == "le "
}

// attribution reports how many lines (1–3) starting at lines[i] make up an
// attribution line, and whether it is one of the strict forms.
func attribution(lines []string, i int) (n int, strict bool) {
	if !mayStartAttribution(lines[i]) {
		return 0, false
	}
	joined := ""
	for k := 0; k < 3 && i+k < len(lines); k++ {
		l := strings.TrimSpace(lines[i+k])
		if l == "" || isQuoteLine(lines[i+k]) {
			return 0, false
		}
		if k == 0 {
			joined = l
		} else {
			joined += " " + l
		}
		if len(joined) > 320 {
			return 0, false
		}
		if isStrictAttribution(joined) {
			return k + 1, true
		}
		if k == 0 && isLooseAttribution(joined) {
			return 1, false
		}
	}
	return 0, false
}

// isStrictAttribution reports the attribution lines that always introduce
// history: "On … wrote:", "Am … schrieb …:", "Le … a écrit :".
func isStrictAttribution(s string) bool {
	l := strings.ToLower(s)
	switch {
	case strings.HasPrefix(l, "on "):
		return len(l) > 10 && (strings.HasSuffix(l, " wrote:") || strings.HasSuffix(l, " wrote :"))
	case strings.HasPrefix(l, "am "):
		i := strings.Index(l, " schrieb")
		return i > 2 && strings.HasSuffix(l, ":") &&
			(len(l) == i+len(" schrieb:") || l[i+len(" schrieb")] == ' ' || l[i+len(" schrieb")] == ':')
	case strings.HasPrefix(l, "le "):
		return len(l) > 12 && (strings.HasSuffix(l, " a écrit :") || strings.HasSuffix(l, " a écrit:"))
	}
	return false
}

// isLooseAttribution reports a short "… wrote:" line; it only counts when
// quoted lines follow.
func isLooseAttribution(s string) bool {
	l := strings.TrimSuffix(strings.ToLower(s), ":")
	if len(l) == len(s) || len(l) > 130 {
		return false
	}
	l = strings.TrimSuffix(l, " ")
	for _, w := range []string{" wrote", " writes", " schrieb", " schreibt", " a écrit"} {
		if strings.HasSuffix(l, w) && len(l) > len(w) {
			return true
		}
	}
	return false
}

// quoteFollows reports whether the first non-blank line from lines[i] on is
// quoted.
func quoteFollows(lines []string, i int) bool {
	for ; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			return isQuoteLine(lines[i])
		}
	}
	return false
}
