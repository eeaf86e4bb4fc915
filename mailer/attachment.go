package mailer

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"
)

// Attachment is a file sent with an [Outgoing] mail, after its text: a
// part of its own with Content-Disposition attachment and the file name
// (RFC 2183), the media type, and the bytes in base64 (RFC 2045 §6.8),
// which carries them as they are, line ends included.
type Attachment struct {
	// Filename is the name the recipient's mail program saves the file
	// under, e.g. "winter-cup.tafl": UTF-8, 1 to 255 bytes, no control
	// characters, no "/" or "\", not "." or "..", no "=?" (which
	// readers take for an RFC 2047 encoded word). A name that is not
	// ASCII is written as an RFC 2231 parameter (filename*=utf-8''…),
	// not as an RFC 2047 encoded word, which RFC 2047 §5 forbids there.
	Filename string
	// ContentType is the media type with its parameters, e.g.
	// "text/plain; charset=utf-8" (RFC 2045 §5.1); empty means
	// application/octet-stream. Multipart and message types are not
	// allowed (the file is sent as it is, not as MIME entities), nor a
	// charset other than utf-8 or us-ascii.
	ContentType string
	// Data is the file's content, sent byte for byte.
	Data []byte
}

// maxFilenameBytes bounds Attachment.Filename, so that its header line
// stays under RFC 5322's 998 bytes even when every byte is
// percent-encoded (RFC 2231 §4).
const maxFilenameBytes = 255

// check says what is wrong with a's name or media type, or nil.
func (a *Attachment) check() error {
	name := a.Filename
	switch {
	case name == "":
		return errors.New("no file name")
	case len(name) > maxFilenameBytes:
		return fmt.Errorf("file name of %d bytes, more than %d", len(name), maxFilenameBytes)
	case !utf8.ValidString(name):
		return fmt.Errorf("file name %q is not UTF-8", name)
	case strings.ContainsAny(name, `/\`) || name == "." || name == "..":
		return fmt.Errorf("file name %q is a path", name)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return fmt.Errorf("file name %q holds a control character", name)
	case strings.Contains(name, "=?"):
		// go-message and many mail programs decode an encoded word even
		// inside a parameter, so the name would not arrive as sent
		return fmt.Errorf("file name %q looks like an encoded word", name)
	}
	if a.ContentType == "" {
		return nil
	}
	mt, params, err := mime.ParseMediaType(a.ContentType)
	if err != nil {
		return fmt.Errorf("content type %q: %w", a.ContentType, err)
	}
	if strings.HasPrefix(mt, "multipart/") || strings.HasPrefix(mt, "message/") {
		return fmt.Errorf("content type %q not allowed for a file", mt)
	}
	if cs := strings.ToLower(params["charset"]); cs != "" && cs != "utf-8" && cs != "us-ascii" {
		return fmt.Errorf("charset %q: only utf-8 or us-ascii", params["charset"])
	}
	return nil
}

// contentType is a's Content-Type value as written: the media type and
// its parameters formatted again (mime.FormatMediaType: quoted where
// needed, RFC 2231 where not ASCII). a has passed check.
func (a *Attachment) contentType() string {
	if a.ContentType == "" {
		return "application/octet-stream"
	}
	mt, params, _ := mime.ParseMediaType(a.ContentType)
	return mime.FormatMediaType(mt, params)
}

// boundary returns the multipart boundary of o with Message-ID id and the
// text body: "taflmail-" and 32 hex digits of a SHA-256 over the id, the
// subject, the text and the attachments. A delimiter line can appear in
// no part: base64 has no "-", and a text would have to hold the hash of
// itself.
func (o *Outgoing) boundary(id, body string) string {
	h := sha256.New()
	field := func(b []byte) {
		fmt.Fprintf(h, "%d:", len(b))
		h.Write(b)
	}
	field([]byte(id))
	field([]byte(o.Subject))
	field([]byte(body))
	for _, a := range o.Attachments {
		field([]byte(a.Filename))
		field([]byte(a.ContentType))
		field(a.Data)
	}
	return "taflmail-" + hex.EncodeToString(h.Sum(nil)[:16])
}

// multipart writes o with the mail header h (Content-Type multipart/mixed
// with its boundary already set) as a multipart/mixed mail: the text part
// body in Content-Transfer-Encoding cte, then each attachment in base64.
//
// It writes with go-message's message.Writer rather than mail.Writer,
// whose CreateWriter sets Content-Type again and so moves it on top of
// the header, before Date and From; this way the header is the
// single-part one but for its Content-Type.
func (o *Outgoing) multipart(h mail.Header, body, cte string) ([]byte, error) {
	var b bytes.Buffer
	mw, err := message.CreateWriter(&b, h.Header)
	if err != nil {
		return nil, fmt.Errorf("mailer: outgoing: writing header: %w", err)
	}
	// part headers too are set from the last field to the first
	var th message.Header
	th.Set("Content-Transfer-Encoding", cte)
	th.Set("Content-Disposition", "inline")
	th.SetContentType("text/plain", o.textParams())
	w, err := mw.CreatePart(th)
	if err != nil {
		return nil, fmt.Errorf("mailer: outgoing: writing text part: %w", err)
	}
	if _, err := io.WriteString(w, body); err != nil {
		return nil, fmt.Errorf("mailer: outgoing: encoding body: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("mailer: outgoing: encoding body: %w", err)
	}
	for i := range o.Attachments {
		a := &o.Attachments[i]
		var ah message.Header
		ah.Set("Content-Transfer-Encoding", "base64")
		// mime.FormatMediaType, not go-message's SetFilename, which
		// writes a name that is not ASCII as an encoded word
		ah.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": a.Filename}))
		ah.Set("Content-Type", a.contentType())
		w, err := mw.CreatePart(ah)
		if err != nil {
			return nil, fmt.Errorf("mailer: outgoing: attachment %q: %w", a.Filename, err)
		}
		if _, err := w.Write(a.Data); err != nil {
			return nil, fmt.Errorf("mailer: outgoing: encoding attachment %q: %w", a.Filename, err)
		}
		if err := w.Close(); err != nil {
			return nil, fmt.Errorf("mailer: outgoing: encoding attachment %q: %w", a.Filename, err)
		}
	}
	if err := mw.Close(); err != nil {
		return nil, fmt.Errorf("mailer: outgoing: closing the multipart: %w", err)
	}
	return b.Bytes(), nil
}
