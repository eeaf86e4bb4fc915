package mailer

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/mail"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/emersion/go-message/textproto"
)

// DefaultMaxBytes is the size limit, in bytes, that [Parse] and
// [Inbox.Fetch] apply when given a maxBytes of zero or less: 25 MiB, what
// common providers accept. Fetch reads only the text parts of a large mail
// (see [MaxTextPartBytes]), so the limit costs no memory there; Parse reads
// up to it.
const DefaultMaxBytes = 25 << 20

// Message is one received mail as the referee sees it: the envelope facts,
// the threading identifiers, and the player's text with MIME, charsets and
// quoting already dealt with.
//
// Parse fills every field except Mailbox, UIDValidity, UID and Arrived,
// which [Inbox.Fetch] sets.
type Message struct {
	// Mailbox is the IMAP mailbox the message was fetched from.
	Mailbox string
	// UIDValidity and UID identify the message in Mailbox (RFC 9051 §2.3.1.1).
	// A UID is only meaningful together with its UIDVALIDITY.
	UIDValidity, UID uint32

	// MessageID is the Message-ID without angle brackets. When the mail has
	// none, it is a synthetic "sha256:<hex>" of the raw bytes Parse read and
	// Synthetic is true; the same bytes always give the same id.
	MessageID string
	// Synthetic reports that MessageID was made up by Parse.
	Synthetic bool
	// InReplyTo is the first message id of the In-Reply-To field, without
	// angle brackets; empty when absent.
	InReplyTo string
	// References lists the ids of the References field in order, without
	// angle brackets.
	References []string

	// From is the sender's address: what stands in the angle brackets of
	// the first mailbox of the From field (a display name, decoded or not,
	// never yields an address), lower-cased, in the form a reply can be
	// sent to: a local part that is not a dot-atom keeps its quotes
	// (`"john doe"@example.org`), needless quotes are dropped; it always
	// parses with net/mail. Empty when the field holds no address a reply
	// could be written to. FromName is the display name, decoded
	// (RFC 2047) to one line, possibly empty; it is for showing, never for
	// deciding.
	From, FromName string
	// To lists the addresses of the To field, in the form of From.
	To []string
	// Cc lists the addresses of the Cc field, in the form of From.
	Cc []string
	// Subject is the decoded Subject field.
	Subject string
	// Date is the Date field; the zero time when it is absent or unreadable.
	// The sender's program writes it: it may be wrong or backdated.
	Date time.Time
	// Arrived is when the mail reached the mailbox: the IMAP INTERNALDATE
	// (RFC 9051 §2.3.3), set by the server at delivery, in whole seconds.
	// [Inbox.Fetch] sets it; Parse leaves it zero.
	Arrived time.Time

	// Text is the chosen text body decoded to UTF-8 with LF line ends:
	// text/plain preferred, else text/html converted to text; byte order mark
	// removed, format=flowed unfolded, attachments ignored, trailing blank
	// lines removed. Empty when TooLarge.
	Text string
	// Reply is Text with quoted history, signatures and mobile footers cut,
	// see [StripQuoted].
	Reply string
	// AltText is the HTML alternative when Text came from text/plain: the
	// first non-blank text/html part that is no attachment, converted to
	// text as Text would be. Some programs write a placeholder into the
	// plain part ("please use an HTML capable mail program") and the
	// player's words only into the HTML one (issue 8 §5), so a reader that
	// finds nothing in Reply may look here. Empty when there is no such
	// part or Text already is the HTML part.
	AltText string
	// AltReply is AltText with quotes and signatures cut, see [StripQuoted].
	AltReply string

	// IsBounce reports a delivery status notification: a null Return-Path
	// (<>), a From of MAILER-DAEMON or postmaster, X-Failed-Recipients, a
	// multipart/report (other than a read receipt) or a message/delivery-status
	// part.
	IsBounce bool
	// IsAutoReply reports mail sent by a program rather than a person
	// (RFC 3834): Auto-Submitted other than "no", X-Autoreply, X-Autorespond,
	// Precedence bulk, junk, list or auto_reply, a List-Id field, or a read
	// receipt (multipart/report; report-type=disposition-notification).
	IsAutoReply bool

	// AuthenticationResults holds the raw values of every
	// Authentication-Results field (RFC 8601), top first.
	AuthenticationResults []string

	// Size is the size of the raw message in bytes. When Parse stopped at its
	// limit (TooLarge) it is the number of bytes read, maxBytes+1, unless
	// [Inbox.Fetch] replaced it by the server's RFC822.SIZE.
	Size int64
	// TooLarge reports that the message is larger than the limit: the header
	// fields are parsed, Text and Reply are empty.
	TooLarge bool
	// TextCut reports that the part Text was taken from is longer than
	// [MaxTextPartBytes] and was read only up to there (a message larger
	// than MaxTextPartBytes is fetched part by part, see [Inbox.Fetch]):
	// Text ends at the last whole line read, and the lines after it were
	// not read. Parse never sets it.
	TextCut bool

	// Header holds every header field by canonical name
	// (textproto.CanonicalMIMEHeaderKey), values raw and unfolded, in order.
	Header map[string][]string

	// ParseError is set only by [Inbox.Fetch], for a message Parse rejected
	// (wrapping ErrMalformed: then only Mailbox, UIDValidity, UID, Size,
	// Arrived and a synthetic MessageID are filled) or one the server failed
	// to serve MaxFetchAttempts times (wrapping ErrUnfetchable: Mailbox,
	// UIDValidity, UID and a synthetic MessageID), so the caller can still
	// log it and call [Inbox.Done].
	ParseError error
}

// Parse reads one raw RFC 5322 message from r and returns what the referee
// needs from it.
//
// It reads at most maxBytes+1 bytes (maxBytes ≤ 0 means [DefaultMaxBytes]).
// A longer message is not an error: its header is parsed and TooLarge is set,
// with no body. Parse never panics; it returns an error when r fails or when
// the input is not a mail: no header fields, a malformed header line, or a
// header that does not end within maxBytes. Trouble inside the body (a broken
// MIME structure, bad base64, an unknown charset) is repaired or skipped, not
// reported.
func Parse(r io.Reader, maxBytes int64) (*Message, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	limit := maxBytes
	if limit < math.MaxInt64 {
		limit++
	}
	raw, err := io.ReadAll(io.LimitReader(r, limit))
	if err != nil {
		return nil, fmt.Errorf("mailer: parse: reading message: %w", err)
	}
	return parseBytes(raw, int64(len(raw)) > maxBytes)
}

// escapeControls returns s with every byte that is not valid UTF-8 and every
// control character written as a Go escape (\x8f, \x1b, \u2028), cut to
// about max bytes: an error quoting a stranger's header line must not send
// raw bytes to a terminal or a log (trial report §11).
func escapeControls(s string, max int) string {
	var b strings.Builder
	for len(s) > 0 {
		if b.Len() >= max {
			b.WriteString("…")
			break
		}
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "\\x%02x", s[0])
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			q := strconv.QuoteRune(r) // '\x1b'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[:size])
		}
		s = s[size:]
	}
	return b.String()
}

// ErrMalformed is wrapped by every error of [Parse] about the input itself
// (as opposed to an error of its reader).
var ErrMalformed = errors.New("malformed message")

func malformed(format string, args ...any) error {
	return fmt.Errorf("mailer: parse: %w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

// parseBytes parses raw, which is the whole message unless tooLarge.
func parseBytes(raw []byte, tooLarge bool) (*Message, error) {
	m, h, body, err := parseHeader(raw, raw, tooLarge)
	if err != nil {
		return nil, err
	}
	if !tooLarge {
		bw := &bodyWalker{}
		bw.walk(h, body, 0)
		m.setBody(bw)
	}
	m.Reply = StripQuoted(m.Text)
	return m, nil
}

// parseHeader reads the header block of data and fills the header fields
// of a new Message; sum is hashed for a synthetic Message-ID. It returns
// the header and a reader of what follows it. With headerOnly, data need
// not hold more than the header.
func parseHeader(data, sum []byte, headerOnly bool) (*Message, textproto.Header, *bufio.Reader, error) {
	m := &Message{Size: int64(len(data)), TooLarge: headerOnly}
	// An mbox "From " separator line is not a header field; skip it.
	if bytes.HasPrefix(data, []byte("From ")) {
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		}
	}
	if headerOnly {
		end := headerEnd(data)
		if end < 0 {
			return nil, textproto.Header{}, nil, malformed("header does not end within the size limit")
		}
		data = data[:end]
	}
	br := bufio.NewReader(bytes.NewReader(data))
	h, err := textproto.ReadHeader(br)
	if err != nil && !(errors.Is(err, io.EOF) && h.Len() > 0) {
		if errors.Is(err, io.EOF) {
			return nil, h, nil, malformed("no header fields")
		}
		return nil, h, nil, malformed("in header: %s", escapeControls(err.Error(), 200))
	}
	if h.Len() == 0 {
		return nil, h, nil, malformed("no header fields")
	}
	m.Header = h.Map()
	m.fillHeader(&h, sum)
	return m, h, br, nil
}

// setBody sets Text and AltText from a finished walk.
func (m *Message) setBody(bw *bodyWalker) {
	if bw.bounce {
		m.IsBounce = true
	}
	m.Text = strings.TrimRight(bw.text(), " \t\n")
	m.TextCut = bw.textCut()
	m.AltText = strings.TrimRight(bw.altText(), " \t\n")
	m.AltReply = StripQuoted(m.AltText)
}

// headerEnd returns the offset just past the blank line that ends the header
// block of data, or -1 when there is none.
func headerEnd(data []byte) int {
	off := 0
	for off < len(data) {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return -1
		}
		line := data[off : off+i]
		off += i + 1
		if len(line) == 0 || (len(line) == 1 && line[0] == '\r') {
			return off
		}
	}
	return -1
}

// fillHeader sets the fields of m that come from the header h; raw is the
// message as read, for the synthetic id.
func (m *Message) fillHeader(h *textproto.Header, raw []byte) {
	if ids := parseMsgIDs(h.Get("Message-Id")); len(ids) > 0 {
		m.MessageID = ids[0]
	} else {
		sum := sha256.Sum256(raw)
		m.MessageID = "sha256:" + hex.EncodeToString(sum[:])
		m.Synthetic = true
	}
	if ids := parseMsgIDs(h.Get("In-Reply-To")); len(ids) > 0 {
		m.InReplyTo = ids[0]
	}
	m.References = parseMsgIDs(strings.Join(h.Values("References"), " "))

	if from := parseAddresses(h.Get("From")); len(from) > 0 {
		m.From, m.FromName = from[0].Address, from[0].Name
	}
	for _, a := range parseAddresses(strings.Join(h.Values("To"), ", ")) {
		m.To = append(m.To, a.Address)
	}
	for _, a := range parseAddresses(strings.Join(h.Values("Cc"), ", ")) {
		m.Cc = append(m.Cc, a.Address)
	}
	m.Subject = decodeHeaderText(h.Get("Subject"))
	m.Date = parseDate(h.Get("Date"))
	m.AuthenticationResults = h.Values("Authentication-Results")

	m.IsBounce = isBounceHeader(h, m.From)
	m.IsAutoReply = isAutoReplyHeader(h)
}

// parseMsgIDs extracts message ids from a Message-ID, In-Reply-To or
// References value, leniently: every <…> group, with folding whitespace
// removed; failing that, every word containing "@".
func parseMsgIDs(v string) []string {
	var ids []string
	rest := v
	for {
		i := strings.IndexByte(rest, '<')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i+1:], '>')
		if j < 0 {
			break
		}
		id := strings.Join(strings.Fields(rest[i+1:i+1+j]), "")
		if id != "" && utf8.ValidString(id) {
			ids = append(ids, id)
		}
		rest = rest[i+1+j+1:]
	}
	if len(ids) > 0 {
		return ids
	}
	for _, f := range strings.Fields(v) {
		f = strings.Trim(f, "<>,;\"'()")
		if strings.Contains(f, "@") && utf8.ValidString(f) {
			ids = append(ids, f)
		}
	}
	return ids
}

// decodeHeaderText decodes an unstructured field value (RFC 2047 encoded
// words in any charset go-message knows; raw 8-bit bytes as UTF-8 when valid,
// else as Windows-1252) and returns valid UTF-8 on one line.
func decodeHeaderText(v string) string {
	if !utf8.ValidString(v) {
		v = decodeWindows1252([]byte(v))
	}
	dec := mime.WordDecoder{CharsetReader: charsetReader}
	if s, err := dec.DecodeHeader(v); err == nil {
		v = s
	}
	v = strings.ToValidUTF8(v, "\uFFFD")
	v = strings.NewReplacer("\r", "", "\n", " ", "\t", " ").Replace(v)
	return strings.TrimSpace(v)
}

// dateLayouts are tried after net/mail.ParseDate gives up.
var dateLayouts = []string{
	"Mon, 2 Jan 2006 15:04:05 -0700 (MST)",
	"Mon, 2 Jan 2006 15:04:05 MST",
	"Mon, 2 Jan 2006 15:04 -0700",
	"2 Jan 2006 15:04:05 -0700",
	"Mon Jan 2 15:04:05 2006",
	"Mon, 2 Jan 06 15:04:05 -0700",
	time.RFC3339,
}

// parseDate parses a Date field leniently; the zero time means unreadable.
func parseDate(v string) time.Time {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}
	}
	if t, err := mail.ParseDate(v); err == nil {
		return t
	}
	v = strings.Join(strings.Fields(v), " ")
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, v); err == nil {
			return t
		}
	}
	return time.Time{}
}

// isBounceHeader reports the header signs of a delivery status notification.
func isBounceHeader(h *textproto.Header, from string) bool {
	if h.Has("Return-Path") && strings.Trim(strings.TrimSpace(h.Get("Return-Path")), " <>") == "" {
		return true
	}
	local, _, _ := strings.Cut(from, "@")
	if local == "mailer-daemon" || local == "postmaster" {
		return true
	}
	if h.Has("X-Failed-Recipients") {
		return true
	}
	mt, params, _ := mime.ParseMediaType(h.Get("Content-Type"))
	switch mt {
	case "multipart/report":
		return !strings.EqualFold(params["report-type"], "disposition-notification")
	case "message/delivery-status", "message/global-delivery-status":
		return true
	}
	return false
}

// isAutoReplyHeader reports the header signs of mail sent by a program
// (RFC 3834 §5 and the usual vendor fields).
func isAutoReplyHeader(h *textproto.Header) bool {
	if h.Has("Auto-Submitted") {
		v, _, _ := strings.Cut(h.Get("Auto-Submitted"), ";")
		if v = strings.ToLower(strings.TrimSpace(v)); v != "" && v != "no" {
			return true
		}
	}
	if h.Has("X-Autoreply") || h.Has("X-Autorespond") || h.Has("List-Id") {
		return true
	}
	switch strings.ToLower(strings.TrimSpace(h.Get("Precedence"))) {
	case "bulk", "junk", "list", "auto_reply":
		return true
	}
	mt, params, _ := mime.ParseMediaType(h.Get("Content-Type"))
	return mt == "multipart/report" && strings.EqualFold(params["report-type"], "disposition-notification")
}
