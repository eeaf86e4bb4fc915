package devstack

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"mime"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-message/textproto"
)

// ErrUndescribable is returned by [Stack.Deliver] (and answered 554 at
// SMTP, NO at APPEND) for a message whose MIME structure go-imap's
// imapmemserver cannot describe in a BODYSTRUCTURE and devstack cannot
// mend: an inner multipart entity without parts.
var ErrUndescribable = errors.New("devstack: a multipart entity inside the message has no parts; its MIME structure cannot be described")

// normalizedField is the header field devstack adds to a message it mended
// at delivery (see servable).
const normalizedField = "X-Devstack-Normalized"

// servable returns raw in a form the IMAP server can serve, or
// ErrUndescribable.
//
// imapmemserver builds a message's BODYSTRUCTURE from its bytes at every
// FETCH and panics, dropping the connection, on a multipart entity in
// which it finds no part: a multipart without a boundary parameter, or
// whose boundary never occurs (trial report §2). Dovecot describes such a
// message as a multipart with one empty text/plain part. servable stores a
// message whose top-level entity is such a multipart the same way: it
// gives the entity a fresh boundary and one empty part after the old body
// (which becomes the preamble, unread as before) and adds an
// X-Devstack-Normalized field saying so. Every other message is returned
// unchanged, byte for byte; an inner multipart without parts, which cannot
// be mended without rewriting the message, is refused.
func servable(raw []byte) ([]byte, error) {
	bs := imapserver.ExtractBodyStructure(bytes.NewReader(raw))
	if describable(bs) {
		return raw, nil
	}
	if top, ok := bs.(*imap.BodyStructureMultiPart); !ok || len(top.Children) > 0 {
		return nil, ErrUndescribable
	}
	rd := bytes.NewReader(raw)
	br := bufio.NewReader(rd)
	h, err := textproto.ReadHeader(br)
	if err != nil {
		return nil, ErrUndescribable
	}
	body := raw[len(raw)-rd.Len()-br.Buffered():]

	boundary := freshBoundary(raw)
	mt, params, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil || !strings.HasPrefix(mt, "multipart/") {
		mt, params = "multipart/mixed", nil
	}
	was := "no boundary"
	if params["boundary"] != "" {
		was = "a boundary that delimits no part"
	}
	if params == nil {
		params = map[string]string{}
	}
	params["boundary"] = boundary
	ct := mime.FormatMediaType(mt, params)
	if ct == "" {
		ct = mime.FormatMediaType(mt, map[string]string{"boundary": boundary})
	}
	h.Del("Content-Type")
	h.Add("Content-Type", ct)
	h.Add(normalizedField, "the message was a "+mt+" with "+was+"; devstack gave it one empty part, as Dovecot describes it")

	var out bytes.Buffer
	if err := textproto.WriteHeader(&out, h); err != nil {
		return nil, ErrUndescribable
	}
	out.Write(body)
	out.WriteString("\r\n--" + boundary + "\r\n\r\n--" + boundary + "--\r\n")
	if !describable(imapserver.ExtractBodyStructure(bytes.NewReader(out.Bytes()))) {
		return nil, ErrUndescribable
	}
	return out.Bytes(), nil
}

// describable reports whether every multipart entity of bs, inside
// message/rfc822 parts too, has at least one part: what imapserver needs
// to write a BODYSTRUCTURE.
func describable(bs imap.BodyStructure) bool {
	switch p := bs.(type) {
	case *imap.BodyStructureMultiPart:
		if len(p.Children) == 0 {
			return false
		}
		for _, c := range p.Children {
			if !describable(c) {
				return false
			}
		}
	case *imap.BodyStructureSinglePart:
		if p.MessageRFC822 != nil {
			return describable(p.MessageRFC822.BodyStructure)
		}
	}
	return true
}

// freshBoundary returns a boundary that does not occur in raw.
func freshBoundary(raw []byte) string {
	for {
		var b [12]byte
		_, _ = rand.Read(b[:])
		s := "devstack-" + hex.EncodeToString(b[:])
		if !bytes.Contains(raw, []byte(s)) {
			return s
		}
	}
}
