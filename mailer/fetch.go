package mailer

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"slices"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-message/textproto"
)

// MaxTextPartBytes bounds what [Inbox.Fetch] reads of a message larger than
// itself: the header and each text part are read up to 256 KiB, so a move
// with a photo attached costs the text, not the photo. A message of at most
// this size is fetched whole.
const MaxTextPartBytes = 256 << 10

// maxTextParts bounds the text parts fetched of one message: the body
// walker keeps the first non-blank text/plain and text/html part, so a few
// blank candidates are allowed for, not hundreds.
const maxTextParts = 8

// fetchOne fetches and parses one message described by meta (UID,
// RFC822.SIZE, INTERNALDATE, BODYSTRUCTURE); nil, nil when it vanished.
func (in *Inbox) fetchOne(c *imapclient.Client, meta *imapclient.FetchMessageBuffer, maxBytes int64) (*Message, error) {
	var (
		m   *Message
		raw []byte
		err error
	)
	switch {
	case meta.RFC822Size > maxBytes:
		// Refused unread: the header says who to tell.
		raw, err = fetchSections(c, meta.UID, headerSection(maxBytes))
		if raw != nil {
			if m, err = Parse(bytes.NewReader(raw), maxBytes); m != nil {
				m.TooLarge, m.Text, m.Reply = true, "", ""
			}
		}
	case meta.RFC822Size <= MaxTextPartBytes || meta.BodyStructure == nil:
		whole := &imap.FetchItemBodySection{Peek: true, Partial: &imap.SectionPartial{Offset: 0, Size: maxBytes + 1}}
		raw, err = fetchSections(c, meta.UID, whole)
		if raw != nil {
			m, err = Parse(bytes.NewReader(raw), maxBytes)
		}
	default:
		m, raw, err = fetchTextParts(c, meta)
	}
	if raw == nil && err == nil {
		return nil, nil // expunged meanwhile
	}
	if err != nil {
		if !isParseError(err) {
			return nil, err
		}
		sum := sha256.Sum256(raw)
		m = &Message{MessageID: "sha256:" + hex.EncodeToString(sum[:]), Synthetic: true, ParseError: err}
	}
	m.Mailbox, m.UID, m.Size, m.Arrived = in.cfg.Mailbox, uint32(meta.UID), meta.RFC822Size, meta.InternalDate
	return m, nil
}

// isParseError tells an error of Parse about the mail from a session error.
func isParseError(err error) bool { return errors.Is(err, ErrMalformed) }

// headerSection is BODY.PEEK[HEADER], read up to limit bytes.
func headerSection(limit int64) *imap.FetchItemBodySection {
	return &imap.FetchItemBodySection{
		Specifier: imap.PartSpecifierHeader, Peek: true,
		Partial: &imap.SectionPartial{Offset: 0, Size: min(limit, MaxTextPartBytes)},
	}
}

// fetchSections fetches the sections of one message and returns their
// contents in the order asked, concatenated for a single section; nil, nil
// when the message is gone.
func fetchSections(c *imapclient.Client, uid imap.UID, sections ...*imap.FetchItemBodySection) ([]byte, error) {
	got, err := fetchEach(c, uid, sections)
	if err != nil || got == nil {
		return nil, err
	}
	return bytes.Join(got, nil), nil
}

// fetchEach fetches the sections of one message and returns each one's
// contents, in the order asked (nil for a section the server left out);
// nil, nil when the message is gone. No section is read beyond its
// Partial size, whatever the server sends.
func fetchEach(c *imapclient.Client, uid imap.UID, sections []*imap.FetchItemBodySection) ([][]byte, error) {
	cmd := c.Fetch(imap.UIDSetNum(uid), &imap.FetchOptions{UID: true, BodySection: sections})
	out := make([][]byte, len(sections))
	found := false
	for msg := cmd.Next(); msg != nil; msg = cmd.Next() {
		for item := msg.Next(); item != nil; item = msg.Next() {
			b, ok := item.(imapclient.FetchItemDataBodySection)
			if !ok || b.Literal == nil {
				continue
			}
			i := slices.IndexFunc(sections, func(s *imap.FetchItemBodySection) bool { return sameSection(s, b.Section) })
			if i < 0 || out[i] != nil {
				continue // not asked for; the client discards the rest
			}
			limit := b.Literal.Size()
			if p := sections[i].Partial; p != nil {
				limit = min(limit, p.Size)
			}
			data, err := io.ReadAll(io.LimitReader(b.Literal, limit))
			if err != nil {
				cmd.Close()
				return nil, err
			}
			out[i], found = data, true
			if out[i] == nil {
				out[i] = []byte{}
			}
		}
	}
	if err := cmd.Close(); err != nil {
		return nil, err
	}
	if !found {
		return nil, nil
	}
	return out, nil
}

// sameSection reports whether a section in a FETCH response answers the
// one asked for (the response names the partial's offset only).
func sameSection(asked, got *imap.FetchItemBodySection) bool {
	return got != nil && asked.Specifier == got.Specifier && slices.Equal(asked.Part, got.Part)
}

// textPart is a text part of a message as BODYSTRUCTURE describes it.
type textPart struct {
	path   []int
	header textproto.Header // Content-Type, Content-Transfer-Encoding, Content-Disposition
	size   uint32           // its size in octets, transfer-encoded, as BODYSTRUCTURE says
}

// planTextParts walks a BODYSTRUCTURE (RFC 9051 §7.5.2) the way the body
// walker walks a MIME tree and returns the text/plain and text/html parts
// that are not attachments, at most maxTextParts, and whether the
// structure shows a delivery status report. message/rfc822 parts are not
// entered: a forwarded mail is not the player's text.
func planTextParts(bs imap.BodyStructure) (parts []textPart, bounce bool) {
	visited := 0
	bs.Walk(func(path []int, part imap.BodyStructure) bool {
		visited++
		if visited > maxMIMEParts || len(path) > maxMIMEDepth {
			return false
		}
		switch p := part.(type) {
		case *imap.BodyStructureMultiPart:
			if p.MediaType() == "multipart/report" && p.Extended != nil &&
				!strings.EqualFold(p.Extended.Params["report-type"], "disposition-notification") {
				bounce = true
			}
			return true
		case *imap.BodyStructureSinglePart:
			mt := p.MediaType()
			switch mt {
			case "message/delivery-status", "message/global-delivery-status":
				bounce = true
			case "text/plain", "text/html":
				h := partHeader(p)
				if !isAttachment(h) && len(parts) < maxTextParts {
					parts = append(parts, textPart{path: slices.Clone(path), header: h, size: p.Size})
				}
			}
		}
		return false
	})
	return parts, bounce
}

// partHeader writes the MIME header fields of a part from its
// BODYSTRUCTURE, for the body walker.
func partHeader(p *imap.BodyStructureSinglePart) textproto.Header {
	var h textproto.Header
	ct := mime.FormatMediaType(p.MediaType(), p.Params)
	if ct == "" { // parameters FormatMediaType cannot write
		ct = p.MediaType()
	}
	h.Set("Content-Type", ct)
	if p.Encoding != "" {
		h.Set("Content-Transfer-Encoding", p.Encoding)
	}
	if d := p.Disposition(); d != nil && d.Value != "" {
		cd := mime.FormatMediaType(strings.ToLower(d.Value), d.Params)
		if cd == "" {
			cd = strings.ToLower(d.Value)
		}
		h.Set("Content-Disposition", cd)
	}
	return h
}

// fetchTextParts fetches the header and the text parts of a message in one
// FETCH, each bounded by MaxTextPartBytes, and parses them as Parse would
// parse the whole message. raw is what was read (header and parts), nil
// when the message is gone; a synthetic Message-ID is the hash of it.
func fetchTextParts(c *imapclient.Client, meta *imapclient.FetchMessageBuffer) (m *Message, raw []byte, err error) {
	parts, bounce := planTextParts(meta.BodyStructure)
	sections := []*imap.FetchItemBodySection{headerSection(MaxTextPartBytes)}
	for _, p := range parts {
		sections = append(sections, &imap.FetchItemBodySection{
			Part: p.path, Peek: true,
			Partial: &imap.SectionPartial{Offset: 0, Size: MaxTextPartBytes},
		})
	}
	got, err := fetchEach(c, meta.UID, sections)
	if err != nil || got == nil {
		return nil, nil, err
	}
	raw = bytes.Join(got, nil)
	m, _, _, err = parseHeader(got[0], raw, true)
	if err != nil {
		return nil, raw, err
	}
	m.TooLarge = false
	bw := &bodyWalker{bounce: bounce}
	for i, p := range parts {
		if body := got[i+1]; body != nil {
			// a part read up to the limit and larger than it was cut there
			bw.truncated = int64(p.size) > MaxTextPartBytes && len(body) >= MaxTextPartBytes
			bw.walk(p.header, bytes.NewReader(body), 1)
		}
	}
	m.setBody(bw)
	m.Reply = StripQuoted(m.Text)
	return m, raw, nil
}
