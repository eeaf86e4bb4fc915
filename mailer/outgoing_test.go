package mailer

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestOutgoingRoundTrip(t *testing.T) {
	date := time.Date(2024, 3, 12, 10, 15, 0, 0, time.FixedZone("CET", 3600))
	bodies := map[string]string{
		"ascii": "Your move.\n\n  a b c\n1 . . .\n2 . K .\n",
		"utf8":  "Weiß zieht d1–d4. Brett:\n┌───┐\n│ ♔ │\n└───┘\nGrüße, der Schiedsrichter\n-- \nSignatur mit Leerzeichen am Ende   \n",
		"long":  "x" + strings.Repeat("y", 1500) + "z\nshort line\n",
		"crlf":  "line one\r\nline two\r\n.\r\n..leading dots\r\n",
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			o := &Outgoing{
				MessageID:  "game-42-ply-8@taflmail.test",
				From:       "Taflmail Referee <game@taflmail.test>",
				To:         []string{"Max Müller <max@example.org>", "anna@example.net"},
				Subject:    "Re: [taflmail #42] Zug – Weiß ist dran " + strings.Repeat("lang ", 20),
				InReplyTo:  "CAF1x2y3z@mail.example.org",
				References: []string{"game-42-start@taflmail.test", "game-42-ply-7@taflmail.test", "CAF1x2y3z@mail.example.org"},
				Body:       body,
				Date:       date,
				Headers:    map[string]string{"X-Taflmail-Game": "42", "X-Taflmail-Note": "grüße"},
			}
			raw, err := o.Bytes()
			if err != nil {
				t.Fatalf("Bytes() = %v", err)
			}
			for i, line := range strings.Split(string(raw), "\r\n") {
				if len(line) > maxLineBytes {
					t.Errorf("line %d has %d bytes", i+1, len(line))
				}
				if strings.Contains(line, "\n") || strings.Contains(line, "\r") {
					t.Errorf("line %d has a bare CR or LF", i+1)
				}
			}
			if end := bytes.Index(raw, []byte("\r\n\r\n")); end < 0 || !isASCII(string(raw[:end])) {
				t.Errorf("header is not ASCII:\n%s", raw)
			}
			m, err := Parse(bytes.NewReader(raw), DefaultMaxBytes)
			if err != nil {
				t.Fatalf("Parse(Bytes()) = %v", err)
			}
			checks := []struct{ field, got, want string }{
				{"MessageID", m.MessageID, o.MessageID},
				{"InReplyTo", m.InReplyTo, o.InReplyTo},
				{"References", strings.Join(m.References, " "), strings.Join(o.References, " ")},
				{"From", m.From, "game@taflmail.test"},
				{"FromName", m.FromName, "Taflmail Referee"},
				{"To", strings.Join(m.To, ","), "max@example.org,anna@example.net"},
				{"Subject", m.Subject, strings.TrimSpace(o.Subject)},
				{"Text", m.Text, strings.TrimRight(normalizeNewlines(body), "\n ")},
				{"X-Taflmail-Game", strings.Join(m.Header["X-Taflmail-Game"], ","), "42"},
				{"X-Taflmail-Note", decodeHeaderText(strings.Join(m.Header["X-Taflmail-Note"], ",")), "grüße"},
				{"Auto-Submitted", strings.Join(m.Header["Auto-Submitted"], ","), "auto-replied"},
			}
			for _, c := range checks {
				if c.got != c.want {
					t.Errorf("%s = %q, want %q", c.field, c.got, c.want)
				}
			}
			if !m.Date.Equal(date) {
				t.Errorf("Date = %v, want %v", m.Date, date)
			}
			if !m.IsAutoReply || m.IsBounce || m.Synthetic {
				t.Errorf("IsAutoReply, IsBounce, Synthetic = %v, %v, %v; want true, false, false", m.IsAutoReply, m.IsBounce, m.Synthetic)
			}
		})
	}
}

func TestOutgoingEncoding(t *testing.T) {
	cte := func(o *Outgoing) string {
		raw, err := o.Bytes()
		if err != nil {
			t.Fatalf("Bytes() = %v", err)
		}
		for line := range strings.SplitSeq(string(raw), "\r\n") {
			if v, ok := strings.CutPrefix(line, "Content-Transfer-Encoding: "); ok {
				return v
			}
		}
		return ""
	}
	base := Outgoing{From: "game@taflmail.test", To: []string{"a@example.org"}}
	tests := []struct {
		body     string
		eightBit bool
		want     string
	}{
		{"ascii\n", false, "7bit"},
		{"grüße\n", false, "quoted-printable"},
		{"grüße\n", true, "8bit"},
		{strings.Repeat("a", 999), false, "quoted-printable"},
		{strings.Repeat("ä", 600), true, "quoted-printable"}, // 1200 bytes: too long even for 8bit
	}
	for _, tt := range tests {
		o := base
		o.Body, o.EightBit = tt.body, tt.eightBit
		if got := cte(&o); got != tt.want {
			t.Errorf("Content-Transfer-Encoding for %.20q (EightBit %v) = %s, want %s", tt.body, tt.eightBit, got, tt.want)
		}
	}
}

func TestOutgoingDefaults(t *testing.T) {
	o := &Outgoing{From: "game@taflmail.test", To: []string{"a@example.org"}, Body: "hi"}
	raw, err := o.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse(bytes.NewReader(raw), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(m.MessageID, "@taflmail.test") || len(m.MessageID) != 32+len("@taflmail.test") {
		t.Errorf("generated MessageID = %q", m.MessageID)
	}
	if time.Since(m.Date) > time.Minute {
		t.Errorf("default Date = %v, want about now", m.Date)
	}
	for _, want := range []string{"MIME-Version: 1.0\r\n", "Content-Type: text/plain; charset=utf-8\r\n", "Auto-Submitted: auto-replied\r\n"} {
		if !bytes.Contains(raw, []byte(want)) {
			t.Errorf("Bytes() lacks %q:\n%s", want, raw)
		}
	}
	o.Headers = map[string]string{"Auto-Submitted": "auto-generated"}
	raw, _ = o.Bytes()
	if !bytes.Contains(raw, []byte("Auto-Submitted: auto-generated\r\n")) || bytes.Count(raw, []byte("Auto-Submitted")) != 1 {
		t.Errorf("Auto-Submitted override not applied:\n%s", raw)
	}
}

func TestOutgoingErrors(t *testing.T) {
	ok := Outgoing{From: "game@taflmail.test", To: []string{"a@example.org"}}
	tests := map[string]func(o *Outgoing){
		"bad from":           func(o *Outgoing) { o.From = "not an address" },
		"no to":              func(o *Outgoing) { o.To = nil },
		"bad to":             func(o *Outgoing) { o.To = []string{"a@example.org", "@@"} },
		"subject injection":  func(o *Outgoing) { o.Subject = "hi\r\nBcc: victim@example.org" },
		"header injection":   func(o *Outgoing) { o.Headers = map[string]string{"X-A": "v\nBcc: x@y"} },
		"reserved header":    func(o *Outgoing) { o.Headers = map[string]string{"bcc": "x@y"} },
		"bad header name":    func(o *Outgoing) { o.Headers = map[string]string{"X A": "v"} },
		"id with brackets":   func(o *Outgoing) { o.MessageID = "<a@b>" },
		"reference w/ space": func(o *Outgoing) { o.References = []string{"a@b c@d"} },
	}
	for name, mutate := range tests {
		o := ok
		mutate(&o)
		if raw, err := o.Bytes(); err == nil {
			t.Errorf("%s: Bytes() = %q, nil; want error", name, raw)
		}
	}
	if _, err := ok.Bytes(); err != nil {
		t.Errorf("baseline Bytes() = %v", err)
	}
}

func TestWriteFieldFolds(t *testing.T) {
	var b bytes.Buffer
	refs := slices.Repeat([]string{"<0123456789abcdef@taflmail.test>"}, 10)
	writeField(&b, "References", refs)
	for line := range strings.SplitSeq(strings.TrimSuffix(b.String(), "\r\n"), "\r\n") {
		if len(line) > 78 {
			t.Errorf("folded line has %d characters: %q", len(line), line)
		}
	}
	if got := parseMsgIDs(strings.ReplaceAll(strings.TrimPrefix(b.String(), "References:"), "\r\n", "")); len(got) != 10 {
		t.Errorf("folded References give %d ids, want 10", len(got))
	}
}
