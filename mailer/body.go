package mailer

import (
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"strings"
	"unicode/utf8"

	"github.com/emersion/go-message/charset"
	"github.com/emersion/go-message/textproto"
)

// Limits on the MIME tree, so hostile mail cannot make Parse work for long.
const (
	maxMIMEDepth = 16  // nesting of multipart entities
	maxMIMEParts = 256 // entities visited in one message
)

// bodyWalker walks a MIME tree (RFC 2046) and keeps the first non-blank
// text/plain and text/html leaves that are not attachments.
type bodyWalker struct {
	plain, html         string
	hasPlain, hasHTML   bool
	bounce              bool
	parts               int
	plainSeen, htmlSeen bool // a (possibly blank) part of that type was seen
	// truncated says that the part being walked was read only up to
	// MaxTextPartBytes (fetchTextParts): its last, partial line is
	// dropped, and plainCut or htmlCut records that the kept part was cut.
	truncated         bool
	plainCut, htmlCut bool
}

// textCut reports whether the part text() chose was cut (Message.TextCut).
func (w *bodyWalker) textCut() bool {
	if w.hasPlain {
		return w.plainCut
	}
	return w.hasHTML && w.htmlCut
}

// text returns the chosen body: text/plain when it has any content, else
// text/html converted to text, else the (blank) text/plain.
func (w *bodyWalker) text() string {
	switch {
	case w.hasPlain:
		return w.plain
	case w.hasHTML:
		return htmlToText(w.html)
	}
	return ""
}

// altText returns the HTML part converted to text when text() chose the
// plain part and a non-blank HTML part exists, else "".
func (w *bodyWalker) altText() string {
	if !w.hasPlain || !w.hasHTML {
		return ""
	}
	return htmlToText(w.html)
}

// walk visits the entity with header h and encoded body r.
func (w *bodyWalker) walk(h textproto.Header, r io.Reader, depth int) {
	w.parts++
	if w.parts > maxMIMEParts {
		return
	}
	mt, params := mediaType(h.Get("Content-Type"))
	if strings.HasPrefix(mt, "multipart/") {
		if mt == "multipart/report" && !strings.EqualFold(params["report-type"], "disposition-notification") {
			w.bounce = true
		}
		boundary := params["boundary"]
		if boundary == "" || depth >= maxMIMEDepth {
			return
		}
		mr := textproto.NewMultipartReader(r, boundary)
		for {
			p, err := mr.NextPart()
			if err != nil {
				return // io.EOF, or a broken structure: keep what we have
			}
			w.walk(p.Header, p, depth+1)
			if w.parts > maxMIMEParts {
				return
			}
		}
	}
	switch mt {
	case "message/delivery-status", "message/global-delivery-status":
		w.bounce = true
		return
	case "text/plain", "text/html":
	default:
		return // message/rfc822, images, application/*: not the player's text
	}
	if isAttachment(h) {
		return
	}
	if (mt == "text/plain" && w.hasPlain) || (mt == "text/html" && w.hasHTML) {
		return
	}
	s := decodeText(h, r, params)
	if w.truncated {
		s = s[:strings.LastIndexByte(s, '\n')+1] // the cut line is not the player's
	}
	blank := strings.TrimSpace(s) == ""
	if mt == "text/plain" {
		if !blank || !w.plainSeen {
			w.plain, w.hasPlain, w.plainCut = s, !blank, w.truncated
		}
		w.plainSeen = true
		return
	}
	if !blank || !w.htmlSeen {
		w.html, w.hasHTML, w.htmlCut = s, !blank, w.truncated
	}
	w.htmlSeen = true
}

// mediaType parses a Content-Type value leniently. A missing or unreadable
// value means text/plain (RFC 2045 §5.2); parameters that fail to parse are
// dropped, but the type itself is kept.
func mediaType(v string) (string, map[string]string) {
	if strings.TrimSpace(v) == "" {
		return "text/plain", map[string]string{}
	}
	mt, params, err := mime.ParseMediaType(v)
	if mt == "" {
		t, _, _ := strings.Cut(v, ";")
		mt = strings.ToLower(strings.TrimSpace(t))
		if !strings.Contains(mt, "/") {
			mt = "text/plain"
		}
	}
	if err != nil || params == nil {
		params = map[string]string{}
	}
	return mt, params
}

// isAttachment reports a part the sender attached rather than wrote:
// Content-Disposition attachment, or a file name without an inline
// disposition.
func isAttachment(h textproto.Header) bool {
	disp, dparams, _ := mime.ParseMediaType(h.Get("Content-Disposition"))
	if disp == "attachment" {
		return true
	}
	if disp == "" {
		if dparams["filename"] != "" {
			return true
		}
		if _, ctParams := mediaType(h.Get("Content-Type")); ctParams["name"] != "" {
			return true
		}
	}
	return false
}

// decodeText undoes the transfer encoding and charset of a text part and
// returns UTF-8 with LF line ends, without byte order mark, format=flowed
// unfolded.
func decodeText(h textproto.Header, r io.Reader, params map[string]string) string {
	raw, _ := io.ReadAll(r) // a broken part gives what could be read
	switch strings.ToLower(strings.TrimSpace(h.Get("Content-Transfer-Encoding"))) {
	case "quoted-printable":
		raw = decodeQP(raw)
	case "base64":
		raw = decodeBase64(raw)
	}
	s := toUTF8(raw, params["charset"])
	s = strings.TrimPrefix(s, "\uFEFF")
	s = normalizeNewlines(s)
	if strings.EqualFold(params["format"], "flowed") {
		s = unflow(s, strings.EqualFold(params["delsp"], "yes"))
	}
	return s
}

// normalizeNewlines turns CRLF and lone CR into LF.
func normalizeNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// decodeQP decodes quoted-printable (RFC 2045 §6.7) leniently: soft line
// breaks are removed, "=XX" becomes a byte, and anything malformed is kept
// as it is.
func decodeQP(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '=' {
			out = append(out, c)
			continue
		}
		if i+2 < len(b) && isHex(b[i+1]) && isHex(b[i+2]) {
			out = append(out, unhex(b[i+1])<<4|unhex(b[i+2]))
			i += 2
			continue
		}
		// Soft line break: "=" then optional trailing white space and a line end.
		j := i + 1
		for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
			j++
		}
		if j < len(b) && b[j] == '\n' {
			i = j
			continue
		}
		if j+1 < len(b) && b[j] == '\r' && b[j+1] == '\n' {
			i = j + 1
			continue
		}
		if j == len(b) {
			break
		}
		out = append(out, c)
	}
	return out
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// decodeBase64 decodes base64 leniently: characters outside the alphabet are
// skipped, padding is optional, a dangling last character is dropped.
func decodeBase64(b []byte) []byte {
	clean := make([]byte, 0, len(b))
	for _, c := range b {
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '+', c == '/':
			clean = append(clean, c)
		case c == '=':
			// Padding ends the data; mail in the wild sometimes continues,
			// but what follows padding is not part of this part's text.
			goto done
		}
	}
done:
	if len(clean)%4 == 1 {
		clean = clean[:len(clean)-1]
	}
	out := make([]byte, base64.RawStdEncoding.DecodedLen(len(clean)))
	n, _ := base64.RawStdEncoding.Decode(out, clean)
	return out[:n]
}

// latin1Labels are treated as Windows-1252, as browsers do (WHATWG
// Encoding): mail labelled ISO-8859-1 very often carries 0x80–0x9F
// characters such as „“ – € from Windows.
var latin1Labels = map[string]bool{
	"iso-8859-1": true, "iso8859-1": true, "iso_8859-1": true, "latin1": true,
	"latin-1": true, "l1": true, "cp819": true, "ibm819": true,
	"iso_8859-1:1987": true, "iso-ir-100": true, "csisolatin1": true,
}

// toUTF8 converts b from the charset label to valid UTF-8. Unlabelled,
// ASCII or UTF-8 text that is not valid UTF-8, and text in a charset
// go-message does not know, is read as Windows-1252.
func toUTF8(b []byte, label string) string {
	label = strings.ToLower(strings.Trim(strings.TrimSpace(label), `"'`))
	switch {
	case label == "" || label == "utf-8" || label == "utf8" || label == "us-ascii" || label == "ascii":
		if utf8.Valid(b) {
			return string(b)
		}
		return decodeWindows1252(b)
	case latin1Labels[label]:
		label = "windows-1252"
	}
	rd, err := charset.Reader(label, bytes.NewReader(b))
	if err != nil {
		if utf8.Valid(b) {
			return string(b)
		}
		return decodeWindows1252(b)
	}
	s, _ := io.ReadAll(rd)
	return strings.ToValidUTF8(string(s), "\uFFFD")
}

// decodeWindows1252 reads b as Windows-1252.
func decodeWindows1252(b []byte) string {
	rd, err := charset.Reader("windows-1252", bytes.NewReader(b))
	if err != nil {
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}
	s, _ := io.ReadAll(rd)
	return strings.ToValidUTF8(string(s), "\uFFFD")
}

// charsetReader adapts toUTF8's rules to mime.WordDecoder.
func charsetReader(label string, input io.Reader) (io.Reader, error) {
	b, err := io.ReadAll(input)
	if err != nil {
		return nil, err
	}
	return strings.NewReader(toUTF8(b, label)), nil
}

// unflow undoes format=flowed (RFC 3676 §4): a line ending in a space is
// joined with the next line of the same quote depth; space-stuffing is
// removed; with delsp=yes the trailing space of a flowed line is deleted.
// The signature separator "-- " is never flowed. Quoted lines come out as
// "> text" with one ">" per level.
func unflow(s string, delsp bool) string {
	var out strings.Builder
	var para strings.Builder
	paraDepth, inPara := 0, false
	flush := func() {
		if !inPara {
			return
		}
		if paraDepth > 0 {
			out.WriteString(strings.Repeat(">", min(paraDepth, maxQuotePrefix)))
			if para.Len() > 0 {
				out.WriteByte(' ')
			}
		}
		out.WriteString(para.String())
		out.WriteByte('\n')
		para.Reset()
		inPara = false
	}
	for _, line := range strings.Split(s, "\n") {
		depth := 0
		for depth < len(line) && line[depth] == '>' {
			depth++
		}
		// Drop space-stuffing, or the space after ">".
		content := strings.TrimPrefix(line[depth:], " ")
		if inPara && depth != paraDepth {
			flush()
		}
		flowed := strings.HasSuffix(content, " ") && content != "-- "
		if content == "-- " {
			flush()
		}
		if flowed && delsp {
			content = content[:len(content)-1]
		}
		para.WriteString(content)
		paraDepth, inPara = depth, true
		if !flowed {
			flush()
		}
	}
	flush()
	return strings.TrimSuffix(out.String(), "\n")
}
