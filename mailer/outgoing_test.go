package mailer

import (
	"bytes"
	"os"
	"path/filepath"
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

// outgoingCases are the mails of TestOutgoingGolden: one per kind of reply
// the referee sends, each written to testdata/outgoing/<name>.eml.
func outgoingCases() map[string]*Outgoing {
	date := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	board := "     a  b  c  d  e  f  g\n  7  #  .  .  A  .  .  #  7\n  4  A  A  D  K  D  A  A  4\n  1  #  .  .  A  .  .  #  1\n     a  b  c  d  e  f  g\n"
	return map[string]*Outgoing{
		// an English move reply: ASCII subject and body, threaded
		"reply-en": {
			MessageID: "1S1D9J.4.k7qx2m@taflmail.test", From: "taflmail <games@taflmail.test>",
			To: []string{"alice@player.test"}, Date: date,
			Subject:    "[taflmail 1S1D9J k7qx2m] Brandubh 7×7: move 3, defenders to move",
			InReplyTo:  "CAF1x2y3z@mail.player.test",
			References: []string{"1S1D9J.1.k7qx2m@taflmail.test", "1S1D9J.2.k7qx2m@taflmail.test", "CAF1x2y3z@mail.player.test"},
			Headers:    map[string]string{"X-Taflmail-Loop": "reply", "X-Taflmail-Game": "1S1D9J"},
			Body:       "Your move d1-e1 was played.\n\n" + board + "\nReply with your next move.\n",
		},
		// a German reply: UTF-8 subject, body and display names
		"reply-de": {
			MessageID: "QJ44Z3.7.abc123@taflmail.test", From: "Tafl per Post <games@taflmail.test>",
			To: []string{"Jürgen Weiß <juergen@player.test>"}, Date: date,
			Subject:   "[taflmail QJ44Z3 abc123] Brandubh 7×7: Zug 5, die Verteidiger sind am Zug – Remis angeboten",
			InReplyTo: "game-start@taflmail.test", References: []string{"game-start@taflmail.test"},
			Headers: map[string]string{"X-Taflmail-Loop": "reply", "X-Taflmail-Game": "QJ44Z3"},
			Body:    "Dein Zug e2–e3 wurde gespielt. Weiß schlägt… Grüße!\n\n" + board,
		},
		// the same with a relay that takes 8BITMIME
		"reply-de-8bit": {
			MessageID: "QJ44Z3.8.abc123@taflmail.test", From: "games@taflmail.test",
			To: []string{"juergen@player.test"}, Date: date, EightBit: true,
			Subject: "Grüße", Body: "Grüße vom Schiedsrichter\n",
		},
		// an ASCII body with a line over 998 bytes, and a long References
		"long-lines": {
			MessageID: "long@taflmail.test", From: "games@taflmail.test",
			To: []string{"a@player.test", "Bob <b@player.test>"}, Date: date,
			Subject:    strings.Repeat("word ", 30) + strings.Repeat("x", 100),
			References: slices.Repeat([]string{"0123456789abcdef0123456789abcdef@taflmail.test"}, 6),
			Headers:    map[string]string{"Auto-Submitted": "auto-generated"},
			Body:       "start\n" + strings.Repeat("0123456789", 110) + "\nend",
		},
	}
}

// TestOutgoingGolden compares Bytes with testdata/outgoing/<name>.eml
// byte for byte. Run with -update to rewrite them, then review the diff:
// each must stay a correct mail (see TestOutgoingRoundTrip).
func TestOutgoingGolden(t *testing.T) {
	for name, o := range outgoingCases() {
		t.Run(name, func(t *testing.T) {
			got, err := o.Bytes()
			if err != nil {
				t.Fatalf("Bytes() = %v", err)
			}
			golden := filepath.Join("testdata", "outgoing", name+".eml")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestOutgoingGolden -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Bytes() differs from %s:\n--- got ---\n%s\n--- want ---\n%s", golden, got, want)
			}
		})
	}
}
