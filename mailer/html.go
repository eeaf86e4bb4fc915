package mailer

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
)

// htmlToText renders an HTML mail body as plain text: block elements start
// new lines, paragraphs and headings are separated by a blank line, list
// items get "- ", table cells are separated by a space, <blockquote> content
// is prefixed with "> " per level (so StripQuoted can cut it), and the
// content of script, style, title and template is dropped. Entities are
// decoded, white space outside <pre> is collapsed.
func htmlToText(s string) string {
	z := html.NewTokenizer(strings.NewReader(s))
	var t textWriter
	skip, pre := 0, 0
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return t.finish()
		case html.TextToken:
			if skip == 0 {
				t.text(string(z.Text()), pre > 0)
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			tag := string(name)
			switch tag {
			case "script", "style", "title", "template", "head":
				if tt == html.StartTagToken {
					skip++
				}
			case "body":
				skip = 0 // an unclosed <head> must not hide the body
				t.newlines(1)
			case "br":
				t.lineBreak()
			case "p", "h1", "h2", "h3", "h4", "h5", "h6":
				t.newlines(2)
			case "blockquote":
				t.newlines(1)
				t.quote++
			case "pre":
				t.newlines(1)
				if tt == html.StartTagToken {
					pre++
				}
			case "li":
				t.newlines(1)
				t.text("- ", true)
			case "td", "th":
				t.space = true
			case "div", "ul", "ol", "dl", "dt", "dd", "table", "tr", "hr",
				"section", "article", "header", "footer", "address", "form",
				"center", "fieldset", "figure", "html", "main", "nav":
				t.newlines(1)
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "script", "style", "title", "template", "head":
				if skip > 0 {
					skip--
				}
			case "p", "h1", "h2", "h3", "h4", "h5", "h6":
				t.newlines(2)
			case "blockquote":
				t.newlines(1)
				if t.quote > 0 {
					t.quote--
				}
			case "pre":
				t.newlines(1)
				if pre > 0 {
					pre--
				}
			case "div", "ul", "ol", "dl", "li", "table", "tr",
				"section", "article", "header", "footer", "address", "form",
				"center", "fieldset", "figure", "main", "nav":
				t.newlines(1)
			}
		}
	}
}

// textWriter collects rendered lines. Line breaks are requested, not
// written, so that runs of block tags give one break and none lead the text.
type textWriter struct {
	lines   []string
	cur     strings.Builder
	started bool // cur holds the start of a line (prefix written)
	pending int  // line breaks requested before the next text
	space   bool // a collapsed white space is pending
	quote   int  // current <blockquote> depth
}

// newlines asks for at least n line breaks before the next text.
func (t *textWriter) newlines(n int) {
	if len(t.lines) == 0 && !t.started {
		return
	}
	t.pending = max(t.pending, n)
	t.space = false
}

// lineBreak adds one line break (<br>), even on an empty line.
func (t *textWriter) lineBreak() {
	if len(t.lines) == 0 && !t.started {
		t.lines = append(t.lines, "")
		return
	}
	t.pending++
	t.space = false
}

// maxQuotePrefix caps the ">" written per line, so that deeply nested
// <blockquote>s cannot make the text grow quadratically.
const maxQuotePrefix = 8

func (t *textWriter) prefix() string {
	if t.quote == 0 {
		return ""
	}
	return strings.Repeat(">", min(t.quote, maxQuotePrefix)) + " "
}

// endLine finishes the current line.
func (t *textWriter) endLine() {
	t.lines = append(t.lines, strings.TrimRight(t.cur.String(), " "))
	t.cur.Reset()
	t.started = false
}

// text writes s; outside <pre> white space is collapsed.
func (t *textWriter) text(s string, pre bool) {
	for _, r := range s {
		if pre && r == '\n' {
			t.flushBreaks()
			if !t.started {
				t.cur.WriteString(t.prefix())
				t.started = true
			}
			t.pending = 1
			continue
		}
		if !pre && (unicode.IsSpace(r) || r == '\u200b') {
			if t.started {
				t.space = true
			}
			continue
		}
		t.flushBreaks()
		if !t.started {
			t.cur.WriteString(t.prefix())
			t.started = true
			t.space = false
		}
		if t.space {
			t.cur.WriteByte(' ')
			t.space = false
		}
		t.cur.WriteRune(r)
	}
}

// flushBreaks writes the requested line breaks.
func (t *textWriter) flushBreaks() {
	if t.pending == 0 {
		return
	}
	if t.started {
		t.endLine()
		t.pending--
	}
	for ; t.pending > 0; t.pending-- {
		t.lines = append(t.lines, strings.TrimRight(t.prefix(), " "))
	}
	t.space = false
}

// finish returns the text with at most one blank line in a row.
func (t *textWriter) finish() string {
	if t.started {
		t.endLine()
	}
	var out []string
	blank := 0
	for _, l := range t.lines {
		if strings.TrimSpace(l) == "" {
			blank++
			if blank > 1 {
				continue
			}
			l = ""
		} else {
			blank = 0
		}
		out = append(out, l)
	}
	return strings.Trim(strings.Join(out, "\n"), "\n")
}
