package mailer

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
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
				Subject:    "Re: [taflmail #42] Zug – Weiß ist dran " + strings.Repeat("lang ", 20) + " Grüße  Jürgen",
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
				{"Subject", m.Subject, strings.Join(strings.Fields(o.Subject), " ")},
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
			checkNetMail(t, raw, o)
		})
	}
}

// checkNetMail reads raw, the Bytes of o, with the standard library alone
// (net/mail, mime, mime/quotedprintable) and compares what it finds with o.
func checkNetMail(t *testing.T, raw []byte, o *Outgoing) {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("net/mail.ReadMessage(Bytes()) = %v", err)
	}
	h := msg.Header
	dec := new(mime.WordDecoder)
	subject, err := dec.DecodeHeader(h.Get("Subject"))
	if err != nil {
		t.Errorf("decoding Subject %q: %v", h.Get("Subject"), err)
	}
	if want := strings.Join(strings.Fields(o.Subject), " "); subject != want {
		t.Errorf("net/mail: Subject = %q, want %q", subject, want)
	}
	to, err := h.AddressList("To")
	if err != nil || len(to) != len(o.To) {
		t.Errorf("net/mail: To = %v, %v; want %d addresses", to, err, len(o.To))
	}
	for i := range min(len(to), len(o.To)) {
		want, _ := mail.ParseAddress(o.To[i])
		if *to[i] != *want {
			t.Errorf("net/mail: To[%d] = %v, want %v", i, to[i], want)
		}
	}
	if got, want := h.Get("Message-ID"), "<"+o.MessageID+">"; got != want {
		t.Errorf("net/mail: Message-ID = %q, want %q", got, want)
	}
	if got := h.Get("MIME-Version"); got != "1.0" {
		t.Errorf("net/mail: MIME-Version = %q, want 1.0", got)
	}
	mt, params, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil || mt != "text/plain" || params["charset"] != "utf-8" {
		t.Errorf("net/mail: Content-Type = %q (%v), want text/plain; charset=utf-8", h.Get("Content-Type"), err)
	}
	var body io.Reader = msg.Body
	switch cte := h.Get("Content-Transfer-Encoding"); cte {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "7bit", "8bit":
	default:
		t.Errorf("net/mail: Content-Transfer-Encoding = %q", cte)
	}
	text, err := io.ReadAll(body)
	if err != nil {
		t.Fatalf("net/mail: reading body: %v", err)
	}
	want := normalizeNewlines(o.Body)
	if want != "" && !strings.HasSuffix(want, "\n") {
		want += "\n"
	}
	if got := strings.ReplaceAll(string(text), "\r\n", "\n"); got != want {
		t.Errorf("net/mail: body = %q, want %q", got, want)
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
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range [][2]string{{"MIME-Version", "1.0"}, {"Content-Type", "text/plain; charset=utf-8"}, {"Auto-Submitted", "auto-replied"}, {"Content-Transfer-Encoding", "7bit"}} {
		if got := msg.Header.Get(f[0]); got != f[1] {
			t.Errorf("%s = %q, want %q in\n%s", f[0], got, f[1], raw)
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

// TestOutgoingFolds: long header fields are folded at white space into
// lines of at most 78 characters, and parse back whole.
func TestOutgoingFolds(t *testing.T) {
	refs := make([]string, 10)
	for i := range refs {
		refs[i] = fmt.Sprintf("0123456789abcdef-%d@taflmail.test", i)
	}
	o := &Outgoing{
		From: "game@taflmail.test", To: []string{"a@example.org"}, References: refs,
		Subject: strings.Repeat("Zug für Zug ", 12), Body: "hi\n",
		Headers: map[string]string{"X-Taflmail-Note": strings.Repeat("note ", 40)},
	}
	raw, err := o.Bytes()
	if err != nil {
		t.Fatalf("Bytes() = %v", err)
	}
	header, _, _ := strings.Cut(string(raw), "\r\n\r\n")
	for line := range strings.SplitSeq(header, "\r\n") {
		if len(line) > 78 {
			t.Errorf("header line has %d characters: %q", len(line), line)
		}
	}
	m, err := Parse(bytes.NewReader(raw), 0)
	if err != nil {
		t.Fatalf("Parse(Bytes()) = %v", err)
	}
	if !slices.Equal(m.References, refs) {
		t.Errorf("References = %q, want %q", m.References, refs)
	}
	if want := strings.TrimSpace(o.Subject); m.Subject != want {
		t.Errorf("Subject = %q, want %q", m.Subject, want)
	}
	if got, want := decodeHeaderText(strings.Join(m.Header["X-Taflmail-Note"], " ")), strings.TrimSpace(o.Headers["X-Taflmail-Note"]); got != want {
		t.Errorf("X-Taflmail-Note = %q, want %q", got, want)
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
			checkNetMail(t, got, o)
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

// FuzzOutgoing: whatever the subject, body and extra header value, Bytes
// either refuses or writes a mail with an ASCII header, lines of at most
// 998 bytes, that Parse reads back with the same subject and text.
func FuzzOutgoing(f *testing.F) {
	f.Add("Zug – Weiß ist dran", "Grüße\n", "grüße")
	f.Add(strings.Repeat("ä", 300), strings.Repeat("x", 2000), strings.Repeat("word ", 300))
	f.Add("a\x00b\x7f c", "\r\n.\r\n", "=?utf-8?q?x?=")
	f.Fuzz(func(t *testing.T, subject, body, note string) {
		o := &Outgoing{
			MessageID: "fuzz@taflmail.test", From: "game@taflmail.test", To: []string{"a@example.org"},
			Subject: subject, Body: body, Headers: map[string]string{"X-Taflmail-Note": note},
		}
		raw, err := o.Bytes()
		if err != nil {
			return
		}
		header, _, ok := strings.Cut(string(raw), "\r\n\r\n")
		if !ok || !printable(strings.NewReplacer("\r\n ", "", "\r\n", "").Replace(header)) {
			t.Fatalf("header is not printable ASCII:\n%q", header)
		}
		for line := range strings.SplitSeq(string(raw), "\r\n") {
			if len(line) > maxLineBytes {
				t.Fatalf("line of %d bytes", len(line))
			}
		}
		m, err := Parse(bytes.NewReader(raw), 0)
		if err != nil {
			t.Fatalf("Parse(Bytes()) = %v", err)
		}
		if want := strings.Join(strings.Fields(subject), " "); utf8.ValidString(subject) && !strings.Contains(subject, "=?") && len(want) < 900 && m.Subject != want {
			t.Errorf("Subject = %q, want %q", m.Subject, want)
		}
	})
}
