package mailer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"
)

// readPart is one part of a multipart mail as go-message reads it back.
type readPart struct {
	attachment        bool
	filename          string
	mediaType         string
	charset, encoding string
	data              []byte
}

// readParts reads raw with go-message's mail.Reader: the parts in order,
// their bodies decoded from their transfer encoding.
func readParts(t *testing.T, raw []byte) []readPart {
	t.Helper()
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("go-message CreateReader(Bytes()) = %v", err)
	}
	var parts []readPart
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("go-message NextPart = %v", err)
		}
		data, err := io.ReadAll(p.Body)
		if err != nil {
			t.Fatalf("reading part %d: %v", len(parts)+1, err)
		}
		var rp readPart
		rp.data = data
		switch h := p.Header.(type) {
		case *gomail.InlineHeader:
			rp.mediaType, _, _ = h.ContentType()
			_, params, _ := h.ContentType()
			rp.charset, rp.encoding = params["charset"], h.Get("Content-Transfer-Encoding")
		case *gomail.AttachmentHeader:
			rp.attachment = true
			rp.filename, err = h.Filename()
			if err != nil {
				t.Errorf("part %d: Filename() = %v", len(parts)+1, err)
			}
			var params map[string]string
			rp.mediaType, params, _ = h.ContentType()
			rp.charset, rp.encoding = params["charset"], h.Get("Content-Transfer-Encoding")
		}
		parts = append(parts, rp)
	}
	return parts
}

func attachmentMail() *Outgoing {
	return &Outgoing{
		MessageID: "final.winter-cup@taflmail.test", From: "taflmail <games@taflmail.test>",
		To: []string{"alice@player.test"}, Date: time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC),
		Subject: "Winter Cup: final standings",
		Headers: map[string]string{"X-Taflmail-Loop": "notice", "Auto-Submitted": "auto-generated"},
		Body:    "The tournament Winter Cup is over.\n\n1 alice@player.test 3\n2 bob@player.test 1\n\nThe records of all 4 games are attached: winter-cup.tafl.\n",
		Attachments: []Attachment{{
			Filename: "winter-cup.tafl", ContentType: "text/plain; charset=utf-8",
			Data: []byte("[Event \"Winter Cup\"]\n[Round \"1.1.1\"]\n\n1. d1-e1 d3-e3\n2. ---\n"),
		}},
	}
}

// TestOutgoingAttachments: a mail with attachments is multipart/mixed
// with the text first, as the single-part mail would carry it, then each
// file with its name, type and exact bytes; go-message, the standard
// library and Parse all read it so.
func TestOutgoingAttachments(t *testing.T) {
	binary := make([]byte, 3000)
	for i := range binary {
		binary[i] = byte(i * 7)
	}
	records := []byte("[Event \"Würfelturnier\"]\r\n\r\n1. d1-e1\n2. ---\n")
	for _, tc := range []struct {
		name     string
		body     string
		eightBit bool
		atts     []Attachment
		wantCTE  string
		// rfc2231 lists names that must be written filename*=utf-8''…
		rfc2231 []string
	}{
		{"ascii", "Your records are attached.\n", false,
			[]Attachment{{Filename: "cup.tafl", ContentType: "text/plain; charset=utf-8", Data: records}}, "7bit", nil},
		{"utf8 text, utf8 name", "Die Aufzeichnungen hängen an. Grüße\n", false,
			[]Attachment{{Filename: "Würfel Pokal 2027.tafl", ContentType: "text/plain; charset=utf-8", Data: records}}, "quoted-printable",
			[]string{"Würfel Pokal 2027.tafl"}},
		{"8bit", "Grüße\n", true,
			[]Attachment{{Filename: "cup.tafl", ContentType: "text/plain; charset=utf-8", Data: records}}, "8bit", nil},
		{"two files, default type", "two\n", false,
			[]Attachment{{Filename: "a b.tafl", ContentType: "text/plain; charset=UTF-8", Data: records}, {Filename: "board.bin", Data: binary}}, "7bit", nil},
		{"empty file and body", "", false,
			[]Attachment{{Filename: "empty.tafl", ContentType: "text/plain", Data: nil}}, "7bit", nil},
		{"long name", "x\n", false,
			[]Attachment{{Filename: strings.Repeat("ä", 127) + ".", ContentType: "application/x-tafl", Data: binary}}, "7bit",
			[]string{strings.Repeat("ä", 127) + "."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := attachmentMail()
			o.Body, o.EightBit, o.Attachments = tc.body, tc.eightBit, tc.atts
			raw, err := o.Bytes()
			if err != nil {
				t.Fatalf("Bytes() = %v", err)
			}
			for i, line := range strings.Split(string(raw), "\r\n") {
				if len(line) > maxLineBytes || strings.ContainsAny(line, "\r\n") {
					t.Errorf("line %d: %d bytes, or a bare CR or LF: %.60q", i+1, len(line), line)
				}
			}
			// nothing of these mails is an encoded word (RFC 2047), file
			// names least of all: they are RFC 2231 parameters
			if bytes.Contains(raw, []byte("=?")) {
				t.Errorf("an encoded word in\n%s", raw)
			}
			for _, name := range tc.rfc2231 {
				if want := "filename*=utf-8''" + strings.ReplaceAll(url(name), " ", "%20"); !strings.Contains(string(raw), want) {
					t.Errorf("no %s in\n%s", want, raw)
				}
			}

			parts := readParts(t, raw)
			if len(parts) != 1+len(tc.atts) {
				t.Fatalf("%d parts, want %d", len(parts), 1+len(tc.atts))
			}
			text := parts[0]
			if text.attachment || text.mediaType != "text/plain" || text.charset != "utf-8" || text.encoding != tc.wantCTE {
				t.Errorf("text part: attachment %v, %s; charset=%s, %s; want inline text/plain; charset=utf-8, %s",
					text.attachment, text.mediaType, text.charset, text.encoding, tc.wantCTE)
			}
			want := normalizeNewlines(tc.body)
			if want != "" && !strings.HasSuffix(want, "\n") {
				want += "\n"
			}
			if got := strings.ReplaceAll(string(text.data), "\r\n", "\n"); got != want {
				t.Errorf("text part = %q, want %q", got, want)
			}
			for i, a := range tc.atts {
				p := parts[1+i]
				wantType := "application/octet-stream"
				if a.ContentType != "" {
					wantType, _, _ = mime.ParseMediaType(a.ContentType)
				}
				if !p.attachment || p.filename != a.Filename || p.mediaType != wantType || p.encoding != "base64" {
					t.Errorf("attachment %d: attachment %v, %q, %s, %s; want %q, %s, base64", i+1, p.attachment, p.filename, p.mediaType, p.encoding, a.Filename, wantType)
				}
				if !bytes.Equal(p.data, a.Data) {
					t.Errorf("attachment %d: %d bytes back, want the %d sent", i+1, len(p.data), len(a.Data))
				}
			}

			// the standard library's reading: header, parts, file names
			checkStdMultipart(t, raw, o)

			// the referee's own reading: the text is the body, the files
			// are no part of it
			m, err := Parse(bytes.NewReader(raw), 0)
			if err != nil {
				t.Fatalf("Parse(Bytes()) = %v", err)
			}
			if wantText := strings.TrimRight(normalizeNewlines(tc.body), "\n "); m.Text != wantText || m.MessageID != o.MessageID || m.Subject != o.Subject {
				t.Errorf("Parse: Text %q, Message-ID %q, Subject %q; want %q, %q, %q", m.Text, m.MessageID, m.Subject, wantText, o.MessageID, o.Subject)
			}
		})
	}
}

// url percent-encodes the bytes of s that are not ASCII, as RFC 2231 does.
func url(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// checkStdMultipart reads raw, the Bytes of o with attachments, with
// net/mail and mime/multipart alone: the header fields as in a single-part
// mail, a multipart/mixed body, and each attachment's file name.
func checkStdMultipart(t *testing.T, raw []byte, o *Outgoing) {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("net/mail.ReadMessage = %v", err)
	}
	if got := msg.Header.Get("Message-ID"); got != "<"+o.MessageID+">" {
		t.Errorf("net/mail: Message-ID = %q", got)
	}
	if got := msg.Header.Get("Content-Transfer-Encoding"); got != "" {
		t.Errorf("net/mail: a multipart mail with Content-Transfer-Encoding %q", got)
	}
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/mixed" || params["boundary"] == "" {
		t.Fatalf("net/mail: Content-Type = %q, %v", msg.Header.Get("Content-Type"), err)
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	var names []string
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("mime/multipart: NextPart = %v", err)
		}
		if p.FileName() != "" {
			names = append(names, p.FileName())
		}
	}
	var want []string
	for _, a := range o.Attachments {
		want = append(want, a.Filename)
	}
	if strings.Join(names, "|") != strings.Join(want, "|") {
		t.Errorf("mime/multipart: file names %q, want %q", names, want)
	}
}

// TestOutgoingAttachmentsSame: no attachments, nil or empty, is the
// single-part mail; the same mail twice is the same bytes (its boundary
// comes from its content), and other content gives another boundary.
func TestOutgoingAttachmentsSame(t *testing.T) {
	o := attachmentMail()
	o.Attachments = nil
	single, err := o.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	o.Attachments = []Attachment{}
	if empty, err := o.Bytes(); err != nil || !bytes.Equal(empty, single) {
		t.Errorf("empty Attachments = %v, differs from nil:\n%s\n---\n%s", err, empty, single)
	}
	one, err := attachmentMail().Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := attachmentMail().Bytes(); !bytes.Equal(one, again) {
		t.Errorf("the same mail twice differs:\n%s\n---\n%s", one, again)
	}
	other := attachmentMail()
	other.Attachments[0].Data = append(other.Attachments[0].Data, '\n')
	two, err := other.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	boundary := func(raw []byte) string {
		msg, err := mail.ReadMessage(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		_, params, _ := mime.ParseMediaType(msg.Header.Get("Content-Type"))
		return params["boundary"]
	}
	if boundary(one) == boundary(two) {
		t.Errorf("two files, one boundary %s", boundary(one))
	}
}

func TestOutgoingAttachmentErrors(t *testing.T) {
	for name, a := range map[string]Attachment{
		"no name":            {ContentType: "text/plain"},
		"path":               {Filename: "../etc/passwd"},
		"windows path":       {Filename: `C:\records.tafl`},
		"dot dot":            {Filename: ".."},
		"control":            {Filename: "a\nContent-Type: text/html.tafl"},
		"not utf-8":          {Filename: "w\xfcrfel.tafl"},
		"too long":           {Filename: strings.Repeat("a", 256)},
		"encoded word":       {Filename: "=?utf-8?q?evil.exe?="},
		"bad type":           {Filename: "a.tafl", ContentType: "text/"},
		"multipart":          {Filename: "a.tafl", ContentType: "multipart/mixed; boundary=x"},
		"message":            {Filename: "a.eml", ContentType: "message/rfc822"},
		"latin-1":            {Filename: "a.tafl", ContentType: "text/plain; charset=iso-8859-1"},
		"type with newline":  {Filename: "a.tafl", ContentType: "text/plain\r\nBcc: x@y"},
		"unterminated quote": {Filename: "a.tafl", ContentType: `text/plain; charset="utf-8`},
	} {
		o := attachmentMail()
		o.Attachments = append(o.Attachments, a)
		if raw, err := o.Bytes(); err == nil {
			t.Errorf("%s: Bytes() = %.200q, nil; want an error", name, raw)
		} else if !strings.HasPrefix(err.Error(), "mailer: outgoing: attachment 2: ") {
			t.Errorf("%s: Bytes() = %v, want it to name attachment 2", name, err)
		}
	}
}

// TestOutgoingAttachmentGolden compares a tournament's final mail with its
// records attached with testdata/outgoing/attachment.eml byte for byte
// (-update rewrites it; review the diff).
func TestOutgoingAttachmentGolden(t *testing.T) {
	o := attachmentMail()
	o.Attachments = append(o.Attachments, Attachment{Filename: "Würfel.tafl", ContentType: "text/plain; charset=utf-8", Data: []byte("[Event \"Würfel\"]\n")})
	got, err := o.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if len(readParts(t, got)) != 3 {
		t.Fatalf("not three parts:\n%s", got)
	}
	golden := filepath.Join("testdata", "outgoing", "attachment.eml")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestOutgoingAttachmentGolden -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Bytes() differs from %s:\n--- got ---\n%s\n--- want ---\n%s", golden, got, want)
	}
}

// FuzzAttachment: whatever the file's name, type and bytes, Bytes either
// refuses or writes a mail whose lines fit RFC 5322 and from which
// go-message reads the same name and the same bytes.
func FuzzAttachment(f *testing.F) {
	f.Add("winter-cup.tafl", "text/plain; charset=utf-8", []byte("[Event \"x\"]\n"))
	f.Add("Würfel \"Pokal\".tafl", "application/octet-stream", []byte{0, 0xff, '\r', '\n'})
	f.Add("=?utf-8?q?x?=", `text/plain; name="=?x?="`, []byte("--taflmail-\r\n"))
	f.Fuzz(func(t *testing.T, name, contentType string, data []byte) {
		o := &Outgoing{MessageID: "fuzz@taflmail.test", From: "game@taflmail.test", To: []string{"a@example.org"},
			Body: "records\n", Attachments: []Attachment{{Filename: name, ContentType: contentType, Data: data}}}
		raw, err := o.Bytes()
		if err != nil {
			return
		}
		for line := range strings.SplitSeq(string(raw), "\r\n") {
			if len(line) > maxLineBytes {
				t.Fatalf("line of %d bytes", len(line))
			}
		}
		parts := readParts(t, raw)
		if len(parts) != 2 || parts[1].filename != name || !bytes.Equal(parts[1].data, data) {
			t.Fatalf("read back %d parts; want the file %q with its %d bytes", len(parts), name, len(data))
		}
	})
}
