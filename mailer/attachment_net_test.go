package mailer_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"
	gomail "github.com/emersion/go-message/mail"

	"github.com/taflmail/taflmail/mailer"
)

// testAttachment sends a mail with a file attached, larger than the text
// parts the Inbox reads (mailer.MaxTextPartBytes), over SMTP and reads it
// back over IMAP: Fetch gives the text alone, and the stored BODY[]
// parses with go-message into that text and the file, with its name (not
// ASCII: RFC 2231) and its bytes.
func testAttachment(t *testing.T, e *mailEnv) {
	user := e.newUser(t)
	var records strings.Builder
	for i := 1; records.Len() <= mailer.MaxTextPartBytes; i++ {
		fmt.Fprintf(&records, "[Event \"Würfel-Pokal\"]\n[Round \"%d.1.1\"]\n\n1. d1-e1 d3-e3\n2. ---\n\n", i)
	}
	o := &mailer.Outgoing{
		From: "Referee <referee@" + e.domain + ">", To: []string{e.addr(user)},
		Subject: "Würfel-Pokal: Abschlusstabelle", Body: "Die Aufzeichnungen aller Partien hängen an.\n",
		Attachments: []mailer.Attachment{{Filename: "würfel-pokal.tafl", ContentType: "text/plain; charset=utf-8", Data: []byte(records.String())}},
	}
	raw, err := o.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	e.sendRaw(t, user, raw)

	in := e.dial(t, e.imapConfig(user))
	msgs, _ := e.fetchUntil(t, in, 0, 0, 1)
	if len(msgs) != 1 {
		t.Fatalf("Fetch = %d messages, want 1", len(msgs))
	}
	if m := msgs[0]; m.Text != strings.TrimSpace(o.Body) || m.TextCut || m.TooLarge {
		t.Errorf("Fetch: Text %q, TextCut %v, TooLarge %v; want the body alone", m.Text, m.TextCut, m.TooLarge)
	}

	c := e.rawClient(t, user)
	defer c.Close()
	if _, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatal(err)
	}
	section := &imap.FetchItemBodySection{Peek: true}
	bufs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 1}}, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil || len(bufs) != 1 {
		t.Fatalf("FETCH 1 BODY.PEEK[] = %d, %v", len(bufs), err)
	}
	r, err := gomail.CreateReader(bytes.NewReader(bufs[0].FindBodySection(section)))
	if err != nil {
		t.Fatalf("go-message CreateReader = %v", err)
	}
	var text string
	var files []string
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("NextPart = %v", err)
		}
		data, err := io.ReadAll(p.Body)
		if err != nil {
			t.Fatal(err)
		}
		switch h := p.Header.(type) {
		case *gomail.InlineHeader:
			text = string(data)
		case *gomail.AttachmentHeader:
			name, _ := h.Filename()
			mt, params, _ := h.ContentType()
			files = append(files, name)
			if name != o.Attachments[0].Filename || mt != "text/plain" || params["charset"] != "utf-8" || string(data) != records.String() {
				t.Errorf("attachment %q, %s; charset=%s, %d bytes; want %q, text/plain; charset=utf-8, the %d bytes sent",
					name, mt, params["charset"], len(data), o.Attachments[0].Filename, records.Len())
			}
		}
	}
	if strings.ReplaceAll(text, "\r\n", "\n") != o.Body || len(files) != 1 {
		t.Errorf("read back the text %q and %d files; want %q and one", text, len(files), o.Body)
	}
}
