package mailer

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Outgoing is one mail the referee sends: always a single text/plain part in
// UTF-8.
type Outgoing struct {
	// MessageID is the Message-ID without angle brackets. Empty means
	// Bytes generates "<32 hex digits>@<domain of From>".
	MessageID string
	// From is the sender, "game@example.org" or "Taflmail <game@example.org>".
	From string
	// To lists the recipients in the same forms as From; at least one.
	To []string
	// Subject is the subject in UTF-8; encoded (RFC 2047) when not ASCII.
	Subject string
	// InReplyTo is the Message-ID answered, without angle brackets; optional.
	InReplyTo string
	// References lists the ids of the thread, oldest first, without angle
	// brackets; optional.
	References []string
	// Body is the text in UTF-8; line ends may be LF or CRLF.
	Body string
	// Date is the Date field; the zero time means time.Now().
	Date time.Time
	// Headers adds extra fields, e.g. "X-Taflmail-Game". It may override
	// Auto-Submitted (default "auto-replied"), but not the fields Bytes
	// writes itself (Date, From, To, Subject, Message-ID, In-Reply-To,
	// References, MIME-Version, Content-*). Non-ASCII values are encoded.
	Headers map[string]string
	// EightBit sends a non-ASCII body as 8bit instead of quoted-printable.
	// Set it only when the relay announces 8BITMIME.
	EightBit bool
}

// reservedHeaders are written by Bytes and may not come from Headers.
var reservedHeaders = map[string]bool{
	"Date": true, "From": true, "To": true, "Cc": true, "Bcc": true,
	"Subject": true, "Message-Id": true, "In-Reply-To": true,
	"References": true, "Mime-Version": true, "Content-Type": true,
	"Content-Transfer-Encoding": true, "Content-Disposition": true,
}

// maxLineBytes is the hard limit of RFC 5322 §2.1.1, without CRLF.
const maxLineBytes = 998

// Bytes renders o as an RFC 5322 message with CRLF line ends: Date, From,
// To, Subject, Message-ID, In-Reply-To, References, Auto-Submitted, extra
// Headers, MIME-Version and a text/plain; charset=utf-8 body in 7bit when it
// is ASCII with lines of at most 998 bytes, else quoted-printable (or 8bit
// with EightBit). Header lines are folded at 78 characters.
//
// It returns an error, and writes nothing, when From or a To address does
// not parse, To is empty, a message id holds white space or angle brackets,
// a header name is invalid or reserved, or a header value holds a line
// break (header injection).
func (o *Outgoing) Bytes() ([]byte, error) {
	from, err := mail.ParseAddress(o.From)
	if err != nil {
		return nil, fmt.Errorf("mailer: outgoing: From %q: %w", o.From, err)
	}
	if len(o.To) == 0 {
		return nil, errors.New("mailer: outgoing: no To address")
	}
	var to []string
	for _, t := range o.To {
		a, err := mail.ParseAddress(t)
		if err != nil {
			return nil, fmt.Errorf("mailer: outgoing: To %q: %w", t, err)
		}
		to = append(to, a.String()+",")
	}
	to[len(to)-1] = strings.TrimSuffix(to[len(to)-1], ",")

	id := o.MessageID
	if id == "" {
		id = NewMessageID(from.Address)
	}
	ids := append([]string{id, o.InReplyTo}, o.References...)
	for _, v := range ids {
		if strings.ContainsAny(v, "<> \t\r\n") || !utf8.ValidString(v) {
			return nil, fmt.Errorf("mailer: outgoing: bad message id %q", v)
		}
	}
	if strings.ContainsAny(o.Subject, "\r\n") {
		return nil, errors.New("mailer: outgoing: Subject contains a line break")
	}

	date := o.Date
	if date.IsZero() {
		date = time.Now()
	}

	var b bytes.Buffer
	writeField(&b, "Date", []string{date.Format(time.RFC1123Z)})
	writeField(&b, "From", []string{from.String()})
	writeField(&b, "To", splitWords(strings.Join(to, " ")))
	writeField(&b, "Subject", encodeText(o.Subject))
	writeField(&b, "Message-ID", []string{"<" + id + ">"})
	if o.InReplyTo != "" {
		writeField(&b, "In-Reply-To", []string{"<" + o.InReplyTo + ">"})
	}
	if len(o.References) > 0 {
		var refs []string
		for _, r := range o.References {
			if r != "" {
				refs = append(refs, "<"+r+">")
			}
		}
		if len(refs) > 0 {
			writeField(&b, "References", refs)
		}
	}

	auto := "auto-replied"
	var names []string
	for k, v := range o.Headers {
		name := textproto.CanonicalMIMEHeaderKey(k)
		if !validFieldName(k) || reservedHeaders[name] {
			return nil, fmt.Errorf("mailer: outgoing: header name %q not allowed", k)
		}
		if strings.ContainsAny(v, "\r\n") {
			return nil, fmt.Errorf("mailer: outgoing: header %s contains a line break", k)
		}
		if name == "Auto-Submitted" {
			auto = v
			continue
		}
		names = append(names, k)
	}
	writeField(&b, "Auto-Submitted", []string{auto})
	slices.Sort(names)
	for _, k := range names {
		writeField(&b, k, encodeText(o.Headers[k]))
	}

	body := strings.ToValidUTF8(normalizeNewlines(o.Body), "\uFFFD")
	cte := "7bit"
	if !isASCII(body) || longestLine(body) > maxLineBytes {
		cte = "quoted-printable"
		if o.EightBit && longestLine(body) <= maxLineBytes {
			cte = "8bit"
		}
	}
	writeField(&b, "MIME-Version", []string{"1.0"})
	writeField(&b, "Content-Type", []string{"text/plain;", "charset=utf-8"})
	writeField(&b, "Content-Transfer-Encoding", []string{cte})
	b.WriteString("\r\n")
	if cte == "quoted-printable" {
		qp := quotedprintable.NewWriter(&b)
		if _, err := qp.Write([]byte(body)); err != nil {
			return nil, fmt.Errorf("mailer: outgoing: encoding body: %w", err)
		}
		if err := qp.Close(); err != nil {
			return nil, fmt.Errorf("mailer: outgoing: encoding body: %w", err)
		}
	} else {
		b.WriteString(strings.ReplaceAll(body, "\n", "\r\n"))
	}
	if !bytes.HasSuffix(b.Bytes(), []byte("\r\n")) {
		b.WriteString("\r\n")
	}
	return b.Bytes(), nil
}

// NewMessageID returns a fresh, globally unique message id (without angle
// brackets) in the domain of addr, or "taflmail.invalid" when addr has none:
// 128 random bits in hex, "@", the domain.
func NewMessageID(addr string) string {
	var r [16]byte
	_, _ = rand.Read(r[:]) // crypto/rand.Read never fails (Go 1.24+)
	_, domain, ok := strings.Cut(addr, "@")
	domain = strings.Trim(domain, "<> ")
	if !ok || domain == "" {
		domain = "taflmail.invalid"
	}
	return hex.EncodeToString(r[:]) + "@" + domain
}

// writeField writes one header field, folding between words so that lines
// stay within 78 characters where the words allow.
func writeField(b *bytes.Buffer, name string, words []string) {
	b.WriteString(name)
	b.WriteString(":")
	n := len(name) + 1
	for _, w := range words {
		if n+1+len(w) > 78 && n > len(name)+1 {
			b.WriteString("\r\n")
			n = 0
		}
		b.WriteString(" ")
		b.WriteString(w)
		n += 1 + len(w)
	}
	b.WriteString("\r\n")
}

// encodeText returns the words of an unstructured value, RFC 2047 encoded
// when it is not ASCII or has a word too long to fold.
func encodeText(s string) []string {
	words := splitWords(s)
	needs := !isASCII(s)
	for _, w := range words {
		if len(w) > 900 {
			needs = true
		}
	}
	if !needs {
		return words
	}
	return strings.Fields(mime.QEncoding.Encode("utf-8", strings.Join(words, " ")))
}

// splitWords splits at white space, collapsing runs.
func splitWords(s string) []string { return strings.Fields(s) }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// longestLine returns the length in bytes of the longest LF-separated line.
func longestLine(s string) int {
	longest := 0
	for line := range strings.SplitSeq(s, "\n") {
		longest = max(longest, len(line))
	}
	return longest
}

// validFieldName reports an RFC 5322 field name: printable ASCII but colon.
func validFieldName(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] <= ' ' || k[i] > '~' || k[i] == ':' {
			return false
		}
	}
	return true
}
