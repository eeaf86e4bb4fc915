package mailer

import (
	"net/mail"
	"strings"
	"testing"
)

// TestParseAddressFields checks what From, FromName, To and Cc hold: the
// address is what stands in the angle brackets, a decoded display name
// never becomes an address, and a quoted local part keeps its quotes so
// that a reply can be sent to it (issue 8 §4).
func TestParseAddressFields(t *testing.T) {
	tests := []struct {
		name     string
		from     string
		wantFrom string
		wantName string
	}{
		// The attack of issue 8 §4: the encoded display name decodes to a
		// line break and a second address; '@' is not allowed in a
		// Q-encoded phrase, so net/mail gives up on the field.
		{"encoded-crlf-bcc", "=?utf-8?q?Evil=0D=0ABcc:_victim@evil.test?= <real@example.org>", "real@example.org", "Evil Bcc: victim@evil.test"},
		{"encoded-address-in-name", "=?utf-8?q?victim@evil.test?= <real@example.org>", "real@example.org", "victim@evil.test"},
		// The same, correctly encoded: net/mail reads it.
		{"encoded-crlf-valid", "=?utf-8?q?Evil=0D=0ABcc:=20victim=40evil.test?= <real@example.org>", "real@example.org", "Evil Bcc: victim@evil.test"},
		{"bare-address-as-name", "victim@evil.test <real@example.org>", "real@example.org", "victim@evil.test"},
		{"quoted-name-with-address", `"victim@evil.test" <real@example.org>`, "real@example.org", "victim@evil.test"},
		{"comment-with-address", "real@example.org (victim@evil.test)", "real@example.org", "victim@evil.test"},
		{"doubled-bracket", "Max <max@example.org>>", "max@example.org", "Max"},
		{"no-brackets-name", "Max Mustermann max@example.org", "max@example.org", ""},
		{"two-bare-addresses", "victim@evil.test real@example.org", "", ""},
		// Quoted local parts stay sendable.
		{"quoted-local", `"john doe"@example.org`, `"john doe"@example.org`, ""},
		{"quoted-local-named", `John <"John Doe"@Example.ORG>`, `"john doe"@example.org`, "John"},
		{"quoted-needless", `"john"@example.org`, "john@example.org", ""},
		{"quoted-dots", `"a..b"@example.org`, `"a..b"@example.org`, ""},
		{"quoted-at", `"a@b"@example.org`, `"a@b"@example.org`, ""},
		{"lenient-quoted-dots", "Max <a..b@example.org>>", `"a..b"@example.org`, "Max"},
		{"lenient-bad-domain", "Max <x@a..b>>", "", ""},
		{"no-local-part", ".@00", "", ""},
		{"utf8-local", "Jörg <Jörg@Example.org>", "jörg@example.org", "Jörg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := "From: " + tt.from + "\r\nTo: " + tt.from + ", other@example.net\r\nSubject: x\r\n\r\nhelp\r\n"
			m, err := Parse(strings.NewReader(raw), 0)
			if err != nil {
				t.Fatalf("Parse = %v", err)
			}
			if m.From != tt.wantFrom || m.FromName != tt.wantName {
				t.Errorf("From, FromName = %q, %q; want %q, %q", m.From, m.FromName, tt.wantFrom, tt.wantName)
			}
			wantTo := []string{"other@example.net"}
			if tt.wantFrom != "" {
				wantTo = []string{tt.wantFrom, "other@example.net"}
			}
			if strings.Join(m.To, "|") != strings.Join(wantTo, "|") {
				t.Errorf("To = %q, want %q", m.To, wantTo)
			}
			if m.From == "" {
				return
			}
			// What Parse gives must be usable as it is in a reply: it
			// parses back to itself, as the To of Outgoing and as an
			// SMTP path.
			a, err := mail.ParseAddress(m.From)
			if err != nil {
				t.Fatalf("mail.ParseAddress(%q) = %v: the address cannot be replied to", m.From, err)
			}
			if got := strings.TrimSuffix(strings.TrimPrefix((&mail.Address{Address: a.Address}).String(), "<"), ">"); got != m.From {
				t.Errorf("From %q parses back as %q", m.From, got)
			}
			o := Outgoing{From: "tafl@example.org", To: []string{m.From}, Subject: "re", Body: "x"}
			if _, err := o.Bytes(); err != nil {
				t.Errorf("a reply to %q cannot be written: %v", m.From, err)
			}
		})
	}
}
