package mailer

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/textproto"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message/mail"
)

// Outgoing is one mail the referee sends: a text/plain part in UTF-8, and
// with Attachments a multipart/mixed mail of that text and the files.
type Outgoing struct {
	// MessageID is the Message-ID without angle brackets. Empty means
	// Bytes generates "<32 hex digits>@<domain of From>".
	MessageID string
	// From is the sender, "game@example.org" or "Taflmail <game@example.org>".
	From string
	// To lists the recipients in the same forms as From; at least one.
	To []string
	// Subject is the subject in UTF-8; encoded (RFC 2047) when not ASCII,
	// runs of white space collapsed.
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
	// Attachments are files sent after the text, in this order; none
	// sends the text alone, as a single-part mail.
	Attachments []Attachment
	// Flowed sends the text as format=flowed (RFC 3676, DelSp=no) with its
	// prose wrapped at [WrapWidth] characters: a client that knows
	// format=flowed joins the soft-broken lines again and wraps them to
	// its window, any other shows lines that fit in 78 columns. Lines
	// marked [Preformatted] are kept as they are (see there).
	Flowed bool
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

// Bytes renders o as an RFC 5322 message with CRLF line ends, composed with
// go-message's mail package: Date, From, To, Subject, Message-Id,
// In-Reply-To, References, Auto-Submitted (RFC 3834), the extra Headers in
// name order, MIME-Version and a text/plain; charset=utf-8 body (RFC 2045)
// in 7bit when it is ASCII with lines of at most 998 bytes, else
// quoted-printable (or 8bit with EightBit, RFC 6152). Non-ASCII values are
// RFC 2047 encoded words; runs of white space in the Subject and the extra
// Headers become one space; header lines are folded at white space near 76
// characters (RFC 5322 §2.2.3). A body that does not end with a line break
// gets one. With Flowed the body is wrapped and the Content-Type carries
// format=flowed; delsp=no (see [Outgoing.Flowed]); the marks of
// [Preformatted] are removed in either case.
//
// With Attachments the mail is multipart/mixed (RFC 2046 §5.1.3): the
// same header, but for Content-Type and Content-Transfer-Encoding; then the
// text part, with the Content-Type and Content-Transfer-Encoding above and
// Content-Disposition inline; then each attachment (see [Attachment]). The
// boundary is taken from a SHA-256 of the mail's content, so the same
// Outgoing gives the same bytes.
//
// It returns an error, and writes nothing, when From or a To address does
// not parse, To is empty, a message id holds white space or angle brackets,
// a header name is invalid or reserved, a header value holds a line
// break (header injection), or an attachment's name or type is not
// allowed ([Attachment]).
func (o *Outgoing) Bytes() ([]byte, error) {
	from, to, err := o.addresses()
	if err != nil {
		return nil, err
	}
	id := o.MessageID
	if id == "" {
		id = NewMessageID(from.Address)
	}
	if err := o.checkFields(id); err != nil {
		return nil, err
	}
	auto, names, err := o.extraHeaders()
	if err != nil {
		return nil, err
	}
	body, cte := o.encodedBody()
	h := o.header(from, to, id, auto, names, body, cte)
	if len(o.Attachments) > 0 {
		return o.multipart(h, body, cte)
	}

	// The writer encodes the body as Content-Transfer-Encoding says and
	// ends its lines with CRLF.
	var b bytes.Buffer
	w, err := mail.CreateSingleInlineWriter(&b, h)
	if err != nil {
		return nil, fmt.Errorf("mailer: outgoing: writing header: %w", err)
	}
	if _, err := io.WriteString(w, body); err != nil {
		return nil, fmt.Errorf("mailer: outgoing: encoding body: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("mailer: outgoing: encoding body: %w", err)
	}
	return b.Bytes(), nil
}

// addresses parses From and the To addresses, of which there must be one
// at least. The error names the address that does not parse.
func (o *Outgoing) addresses() (from *mail.Address, to []*mail.Address, err error) {
	from, err = mail.ParseAddress(o.From)
	if err != nil {
		return nil, nil, fmt.Errorf("mailer: outgoing: From %q: %w", o.From, err)
	}
	if len(o.To) == 0 {
		return nil, nil, errors.New("mailer: outgoing: no To address")
	}
	for _, t := range o.To {
		a, err := mail.ParseAddress(t)
		if err != nil {
			return nil, nil, fmt.Errorf("mailer: outgoing: To %q: %w", t, err)
		}
		to = append(to, a)
	}
	return from, to, nil
}

// checkFields checks, in this order, the message ids (id, the mail's own, then
// InReplyTo and References: valid UTF-8 without white space or angle
// brackets), that Subject is one line, and the attachments.
func (o *Outgoing) checkFields(id string) error {
	ids := append([]string{id, o.InReplyTo}, o.References...)
	for _, v := range ids {
		if strings.ContainsAny(v, "<> \t\r\n") || !utf8.ValidString(v) {
			return fmt.Errorf("mailer: outgoing: bad message id %q", v)
		}
	}
	if strings.ContainsAny(o.Subject, "\r\n") {
		return errors.New("mailer: outgoing: Subject contains a line break")
	}
	for i := range o.Attachments {
		if err := o.Attachments[i].check(); err != nil {
			return fmt.Errorf("mailer: outgoing: attachment %d: %w", i+1, err)
		}
	}
	return nil
}

// extraHeaders checks the names and values of o.Headers and returns the
// Auto-Submitted value (one given there, else "auto-replied") and the
// other names, sorted. Errors: a name invalid or reserved, a value with a
// line break.
func (o *Outgoing) extraHeaders() (auto string, names []string, err error) {
	auto = "auto-replied"
	for k, v := range o.Headers {
		name := textproto.CanonicalMIMEHeaderKey(k)
		if !validFieldName(k) || reservedHeaders[name] {
			return "", nil, fmt.Errorf("mailer: outgoing: header name %q not allowed", k)
		}
		if strings.ContainsAny(v, "\r\n") {
			return "", nil, fmt.Errorf("mailer: outgoing: header %s contains a line break", k)
		}
		if name == "Auto-Submitted" {
			auto = v
			continue
		}
		names = append(names, k)
	}
	slices.Sort(names)
	return auto, names, nil
}

// encodedBody returns the body as sent, valid UTF-8 with LF line ends and
// a final one, wrapped with Flowed, without the marks of [Preformatted],
// and its Content-Transfer-Encoding: 7bit for short ASCII lines, else
// quoted-printable, or 8bit when EightBit is set and no line is too long.
func (o *Outgoing) encodedBody() (body, cte string) {
	body = strings.ToValidUTF8(normalizeNewlines(o.Body), "\uFFFD")
	if o.Flowed {
		body = flowed(body, WrapWidth)
	} else {
		body = Unmark(body)
	}
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	cte = "7bit"
	if !isASCII(body) || longestLine(body) > maxLineBytes {
		cte = "quoted-printable"
		if o.EightBit && longestLine(body) <= maxLineBytes {
			cte = "8bit"
		}
	}
	return body, cte
}

// header returns the mail's header: the addresses, message id id, the
// extra headers names (with auto as Auto-Submitted), the date (now when
// Date is zero), and the Content-Type with the body's encoding cte, or
// multipart/mixed with a boundary from id and body when there are
// attachments.
func (o *Outgoing) header(from *mail.Address, to []*mail.Address, id, auto string, names []string, body, cte string) mail.Header {
	date := o.Date
	if date.IsZero() {
		date = time.Now()
	}
	var refs []string
	for _, r := range o.References {
		if r != "" {
			refs = append(refs, r)
		}
	}
	// go-message puts each new field on top of the header, as a relay adds
	// trace fields, so the fields are set from the last to the first.
	var h mail.Header
	if len(o.Attachments) == 0 {
		h.Set("Content-Transfer-Encoding", cte)
		h.SetContentType("text/plain", o.textParams())
	} else {
		h.SetContentType("multipart/mixed", map[string]string{"boundary": o.boundary(id, body)})
	}
	h.Set("MIME-Version", "1.0")
	for _, k := range slices.Backward(names) {
		h.Set(k, encodeWords(o.Headers[k]))
	}
	h.Set("Auto-Submitted", auto)
	h.SetMsgIDList("References", refs)
	if o.InReplyTo != "" {
		h.SetMsgIDList("In-Reply-To", []string{o.InReplyTo})
	}
	h.SetMessageID(id)
	h.Set("Subject", encodeWords(o.Subject))
	h.SetAddressList("To", to)
	h.SetAddressList("From", []*mail.Address{from})
	h.SetDate(date)
	return h
}

// textParams are the parameters of the text part's Content-Type.
func (o *Outgoing) textParams() map[string]string {
	if o.Flowed {
		return map[string]string{"charset": "utf-8", "format": "flowed", "delsp": "no"}
	}
	return map[string]string{"charset": "utf-8"}
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

// encodeWords returns the unstructured value s (RFC 5322 §3.2.5) with runs
// of white space collapsed and each word that is not printable ASCII
// written as RFC 2047 encoded words by mime.QEncoding.
//
// It encodes word by word, not the whole value as go-message's SetText does:
// go-message folds only at white space, and the first encoded word of a
// whole value does not fit beside the field name, so the whole field would
// go on one long line (RFC 2047 §2 limits such lines to 76 characters).
// A space between two encoded words is not part of the text (RFC 2047
// §6.2), so a word followed by another encoded word carries that space
// inside its encoding.
func encodeWords(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		if printable(w) {
			continue
		}
		if i+1 < len(words) && !printable(words[i+1]) {
			w += " "
		}
		words[i] = mime.QEncoding.Encode("utf-8", w)
	}
	return strings.Join(words, " ")
}

// printable reports whether s is printable ASCII (RFC 5322 VCHAR or
// space), which a header may carry as it is.
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

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
