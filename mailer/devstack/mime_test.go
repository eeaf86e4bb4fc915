package devstack

import (
	"bytes"
	"errors"
	"net/smtp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// reportMail is the mail of the trial report §2: a multipart/mixed without
// a boundary, which imapmemserver could not describe.
const reportMail = "From: carol@taflmail.test\r\nTo: tafl@taflmail.test\r\nSubject: mp\r\n" +
	"Message-ID: <mp2@x>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed\r\n\r\n" +
	"--x\r\nContent-Type: text/plain\r\n\r\nvariants\r\n--x--\r\n"

// nestedEmpty has a multipart inside a multipart with a boundary that
// delimits nothing: devstack cannot mend it without rewriting the mail.
const nestedEmpty = "From: carol@taflmail.test\r\nSubject: nested\r\nMIME-Version: 1.0\r\n" +
	"Content-Type: multipart/mixed; boundary=outer\r\n\r\n" +
	"--outer\r\nContent-Type: multipart/alternative; boundary=inner\r\n\r\nno parts here\r\n" +
	"--outer--\r\n"

// structure fetches the BODYSTRUCTURE and BODY[] of every message in the
// INBOX of local (password pw), in UID order.
func structure(t *testing.T, s *Stack, local, pw string) ([]imap.BodyStructure, [][]byte) {
	t.Helper()
	c, err := imapclient.DialInsecure(s.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(local, pw).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	section := &imap.FetchItemBodySection{Peek: true}
	bufs, err := c.Fetch(imap.UIDSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{
		UID: true, BodyStructure: &imap.FetchItemBodyStructure{Extended: true}, BodySection: []*imap.FetchItemBodySection{section},
	}).Collect()
	if err != nil {
		t.Fatalf("UID FETCH 1:* (BODYSTRUCTURE BODY.PEEK[]) = %v", err)
	}
	var bss []imap.BodyStructure
	var raws [][]byte
	for _, b := range bufs {
		bss = append(bss, b.BodyStructure)
		raws = append(raws, b.FindBodySection(section))
	}
	return bss, raws
}

// TestUndescribableMail delivers the mail of the trial report §2 by SMTP,
// by Deliver and by IMAP APPEND: each copy is stored so that FETCH
// BODYSTRUCTURE works and describes it as Dovecot does (multipart/mixed
// with one empty text/plain part), its body and fields kept. A mail with an
// inner multipart without parts is refused on all three ways; an ordinary
// mail is stored byte for byte.
func TestUndescribableMail(t *testing.T) {
	s, err := Start("", map[string]string{"tafl": "pw"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	if err := smtp.SendMail(s.SMTPAddr(), nil, "carol@taflmail.test", []string{"tafl@taflmail.test"}, []byte(reportMail)); err != nil {
		t.Fatalf("SMTP of the report's mail = %v", err)
	}
	if err := s.Deliver("tafl", []byte(reportMail)); err != nil {
		t.Fatalf("Deliver of the report's mail = %v", err)
	}
	c, err := imapclient.DialInsecure(s.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("tafl", "pw").Wait(); err != nil {
		t.Fatal(err)
	}
	appendMail := func(raw string) error {
		cmd := c.Append("INBOX", int64(len(raw)), &imap.AppendOptions{Time: time.Now()})
		if _, err := cmd.Write([]byte(raw)); err != nil {
			return err
		}
		if err := cmd.Close(); err != nil {
			return err
		}
		_, err := cmd.Wait()
		return err
	}
	if err := appendMail(reportMail); err != nil {
		t.Fatalf("APPEND of the report's mail = %v", err)
	}
	plain := "From: a@b.test\r\nSubject: plain\r\n\r\nd1-d3\r\n"
	if err := s.Deliver("tafl", []byte(plain)); err != nil {
		t.Fatal(err)
	}

	bss, raws := structure(t, s, "tafl", "pw")
	if len(bss) != 4 {
		t.Fatalf("INBOX holds %d messages, want 4", len(bss))
	}
	for i, bs := range bss[:3] {
		mp, ok := bs.(*imap.BodyStructureMultiPart)
		if !ok || mp.Subtype != "mixed" || len(mp.Children) != 1 {
			t.Errorf("message %d: BODYSTRUCTURE %#v, want multipart/mixed with one part", i+1, bs)
			continue
		}
		part, ok := mp.Children[0].(*imap.BodyStructureSinglePart)
		if !ok || part.MediaType() != "text/plain" || part.Size != 0 {
			t.Errorf("message %d: part %#v, want an empty text/plain", i+1, mp.Children[0])
		}
		for _, keep := range []string{"Message-ID: <mp2@x>\r\n", "Subject: mp\r\n", "\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\nvariants\r\n--x--\r\n", normalizedField + ": "} {
			if !bytes.Contains(raws[i], []byte(keep)) {
				t.Errorf("message %d lacks %q:\n%s", i+1, keep, raws[i])
			}
		}
	}
	if !bytes.HasSuffix(raws[3], []byte(plain)) || bytes.Contains(raws[3], []byte(normalizedField)) {
		t.Errorf("an ordinary mail was changed:\n%s", raws[3])
	}

	err = smtp.SendMail(s.SMTPAddr(), nil, "carol@taflmail.test", []string{"tafl@taflmail.test"}, []byte(nestedEmpty))
	if err == nil || !strings.Contains(err.Error(), "554") {
		t.Errorf("SMTP of a mail with an empty inner multipart = %v, want 554", err)
	}
	if err := s.Deliver("tafl", []byte(nestedEmpty)); !errors.Is(err, ErrUndescribable) {
		t.Errorf("Deliver of a mail with an empty inner multipart = %v, want ErrUndescribable", err)
	}
	if err := appendMail(nestedEmpty); err == nil {
		t.Error("APPEND of a mail with an empty inner multipart = nil, want NO")
	}
	if bss, _ := structure(t, s, "tafl", "pw"); len(bss) != 4 {
		t.Errorf("INBOX holds %d messages after the refusals, want 4", len(bss))
	}
}

func TestServable(t *testing.T) {
	tests := []struct {
		name, raw string
		changed   bool
		err       error
	}{
		{"plain", "Subject: x\r\n\r\nhi\r\n", false, nil},
		{"multipart", "Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\r\nhi\r\n--b--\r\n", false, nil},
		{"no boundary", reportMail, true, nil},
		{"unused boundary", "Content-Type: multipart/alternative; boundary=zz\r\n\r\nhi\r\n", true, nil},
		{"broken parameter", "Content-Type: multipart/mixed; boundary\r\n\r\nhi\r\n", true, nil},
		{"nested", nestedEmpty, false, ErrUndescribable},
		{"forwarded", "Content-Type: message/rfc822\r\n\r\nContent-Type: multipart/mixed\r\n\r\nhi\r\n", false, ErrUndescribable},
	}
	for _, tt := range tests {
		got, err := servable([]byte(tt.raw))
		if !errors.Is(err, tt.err) {
			t.Errorf("%s: servable = %v, want %v", tt.name, err, tt.err)
			continue
		}
		if err != nil {
			continue
		}
		if changed := string(got) != tt.raw; changed != tt.changed {
			t.Errorf("%s: changed = %v, want %v:\n%s", tt.name, changed, tt.changed, got)
		}
	}
}
