package mailer

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite testdata/mail/*.golden from the current output")

// dump renders everything Parse found, one field per line, for golden files.
func dump(m *Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "MessageID: %s\n", m.MessageID)
	fmt.Fprintf(&b, "Synthetic: %v\n", m.Synthetic)
	fmt.Fprintf(&b, "InReplyTo: %s\n", m.InReplyTo)
	fmt.Fprintf(&b, "References: %s\n", strings.Join(m.References, " "))
	fmt.Fprintf(&b, "From: %s\n", m.From)
	fmt.Fprintf(&b, "FromName: %s\n", m.FromName)
	fmt.Fprintf(&b, "To: %s\n", strings.Join(m.To, ", "))
	fmt.Fprintf(&b, "Subject: %s\n", m.Subject)
	date := ""
	if !m.Date.IsZero() {
		date = m.Date.Format(time.RFC3339)
	}
	fmt.Fprintf(&b, "Date: %s\n", date)
	fmt.Fprintf(&b, "IsBounce: %v\n", m.IsBounce)
	fmt.Fprintf(&b, "IsAutoReply: %v\n", m.IsAutoReply)
	fmt.Fprintf(&b, "TooLarge: %v\n", m.TooLarge)
	fmt.Fprintf(&b, "Size: %d\n", m.Size)
	for _, ar := range m.AuthenticationResults {
		fmt.Fprintf(&b, "AuthenticationResults: %s\n", ar)
	}
	fmt.Fprintf(&b, "--- Text ---\n%s\n", m.Text)
	fmt.Fprintf(&b, "--- Reply ---\n%s\n", m.Reply)
	if m.AltText != "" {
		fmt.Fprintf(&b, "--- AltText ---\n%s\n", m.AltText)
		fmt.Fprintf(&b, "--- AltReply ---\n%s\n", m.AltReply)
	}
	return b.String()
}

// TestParseGolden parses every testdata/mail/*.eml and compares the dump with
// the .golden file beside it. Run with -update to rewrite them, then review
// the diff.
func TestParseGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/mail/*.eml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test mail: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".eml")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Parse(bytes.NewReader(raw), DefaultMaxBytes)
			if err != nil {
				t.Fatalf("Parse(%s) = %v", file, err)
			}
			got := dump(m)
			golden := strings.TrimSuffix(file, ".eml") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("Parse(%s) differs from %s:\n--- got ---\n%s\n--- want ---\n%s", file, golden, got, want)
			}
		})
	}
}

// countingReader counts the bytes read from an endless mail.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// bigMail is an 8 MiB mail produced on the fly.
func bigMail(size int) io.Reader {
	head := "From: big@example.org\r\nTo: game@taflmail.test\r\nSubject: huge\r\nMessage-ID: <big@example.org>\r\n\r\n"
	line := strings.Repeat("x", 76) + "\r\n"
	return io.MultiReader(strings.NewReader(head), strings.NewReader(strings.Repeat(line, size/len(line))))
}

func TestParseTooLarge(t *testing.T) {
	const max = 1 << 20
	cr := &countingReader{r: bigMail(8 << 20)}
	m, err := Parse(cr, max)
	if err != nil {
		t.Fatalf("Parse(8 MiB, 1 MiB) = %v", err)
	}
	if !m.TooLarge || m.Text != "" || m.Reply != "" {
		t.Errorf("TooLarge, Text, Reply = %v, %q, %q; want true, empty, empty", m.TooLarge, m.Text, m.Reply)
	}
	if m.Subject != "huge" || m.MessageID != "big@example.org" || m.From != "big@example.org" {
		t.Errorf("header not parsed: %+v", m)
	}
	if cr.n > max+1 {
		t.Errorf("Parse read %d bytes, limit %d+1", cr.n, max)
	}
	if m.Size != max+1 {
		t.Errorf("Size = %d, want %d", m.Size, max+1)
	}

	// Exactly at the limit is not too large.
	raw, _ := io.ReadAll(bigMail(4096))
	m, err = Parse(bytes.NewReader(raw), int64(len(raw)))
	if err != nil || m.TooLarge {
		t.Errorf("Parse(n bytes, n) = TooLarge %v, %v; want false, nil", m != nil && m.TooLarge, err)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, raw string
		max       int64
	}{
		{"empty", "", 100},
		{"only blank line", "\r\n\r\nbody", 100},
		{"no header", "just some text\nwithout a header\n", 100},
		{"leading space", " Subject: x\n\nbody", 100},
		{"bad key", "Sub ject: x\n\nbody", 100},
		{"header over limit", "Subject: " + strings.Repeat("x", 200) + "\n\nbody", 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse(strings.NewReader(tt.raw), tt.max)
			if err == nil {
				t.Fatalf("Parse(%q) = %+v, nil; want error", tt.raw, m)
			}
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("Parse(%q) = %v; want ErrMalformed", tt.raw, err)
			}
		})
	}
	// A failing reader is reported, not ErrMalformed.
	_, err := Parse(io.MultiReader(strings.NewReader("Subject: x\n"), errReader{}), 100)
	if err == nil || errors.Is(err, ErrMalformed) {
		t.Errorf("Parse(failing reader) = %v; want the read error", err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestParseHeaderQuirks(t *testing.T) {
	raw := "From alice@example.org Mon Jan  1 00:00:00 2024\n" + // mbox separator
		"From: Alice <ALICE@Example.Org>,\n" +
		"To: undisclosed-recipients:;\n" +
		"Subject: caf\xe9 raw latin1\n" + // raw 8-bit, not UTF-8
		"Message-ID: no-brackets@example.org\n" +
		"In-Reply-To: <a@x> (the first) <b@x>\n" +
		"References: <r1@x>\n <r2@\n x>\n" +
		"Date: 1 Jan 2024 10:00:00 +0000\n" +
		"Content-Type: text/plain; charset=x-unknown-charset\n" +
		"\n" +
		"na\xefve\n"
	m, err := Parse(strings.NewReader(raw), 0)
	if err != nil {
		t.Fatalf("Parse = %v", err)
	}
	checks := []struct{ name, got, want string }{
		{"From", m.From, "alice@example.org"},
		{"Subject", m.Subject, "café raw latin1"},
		{"MessageID", m.MessageID, "no-brackets@example.org"},
		{"InReplyTo", m.InReplyTo, "a@x"},
		{"References", strings.Join(m.References, " "), "r1@x r2@x"},
		{"Date", m.Date.Format(time.RFC3339), "2024-01-01T10:00:00Z"},
		{"Text", m.Text, "naïve"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.name, c.got, c.want)
		}
	}
}

func TestParseSyntheticIDStable(t *testing.T) {
	raw := "From: a@example.org\nSubject: x\n\nbody\n"
	m1, err1 := Parse(strings.NewReader(raw), 0)
	m2, err2 := Parse(strings.NewReader(raw), 0)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if !m1.Synthetic || !strings.HasPrefix(m1.MessageID, "sha256:") || m1.MessageID != m2.MessageID {
		t.Errorf("synthetic ids %q, %q; want equal sha256:…", m1.MessageID, m2.MessageID)
	}
	m3, _ := Parse(strings.NewReader(raw+"more\n"), 0)
	if m3.MessageID == m1.MessageID {
		t.Errorf("different mails got the same synthetic id %q", m1.MessageID)
	}
}

func TestDetectionHeaders(t *testing.T) {
	tests := []struct {
		header            string
		bounce, autoReply bool
	}{
		{"From: a@example.org\n", false, false},
		{"From: a@example.org\nAuto-Submitted: no\n", false, false},
		{"From: a@example.org\nAuto-Submitted: auto-generated\n", false, true},
		{"From: a@example.org\nAuto-Submitted: Auto-Replied; owner-email=x@y\n", false, true},
		{"From: a@example.org\nX-Autorespond: yes\n", false, true},
		{"From: a@example.org\nPrecedence: junk\n", false, true},
		{"From: a@example.org\nPrecedence: list\n", false, true},
		{"From: a@example.org\nList-Id: <tafl.lists.example.org>\n", false, true},
		{"From: Mail Delivery Subsystem <MAILER-DAEMON@example.org>\n", true, false},
		{"From: postmaster@example.org\n", true, false},
		{"From: a@example.org\nReturn-Path: <>\n", true, false},
		{"From: a@example.org\nX-Failed-Recipients: b@example.org\n", true, false},
		{"From: a@example.org\nContent-Type: message/delivery-status\n", true, false},
		{"From: a@example.org\nContent-Type: multipart/report; report-type=disposition-notification; boundary=x\n", false, true},
	}
	for _, tt := range tests {
		m, err := Parse(strings.NewReader(tt.header+"\nbody\n"), 0)
		if err != nil {
			t.Fatalf("Parse(%q) = %v", tt.header, err)
		}
		if m.IsBounce != tt.bounce || m.IsAutoReply != tt.autoReply {
			t.Errorf("Parse(%q): IsBounce, IsAutoReply = %v, %v; want %v, %v", tt.header, m.IsBounce, m.IsAutoReply, tt.bounce, tt.autoReply)
		}
	}
}

func TestDecoders(t *testing.T) {
	qp := []struct{ in, want string }{
		{"a=3Db", "a=b"},
		{"soft=\nbreak", "softbreak"},
		{"soft= \r\nbreak", "softbreak"},
		{"bad=ZZhex", "bad=ZZhex"},
		{"end=", "end"},
		{"=C3=A4", "ä"},
	}
	for _, tt := range qp {
		if got := string(decodeQP([]byte(tt.in))); got != tt.want {
			t.Errorf("decodeQP(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	b64 := []struct{ in, want string }{
		{"aGVsbG8=", "hello"},
		{"aGVs\r\nbG8", "hello"},
		{"aGV*sbG8=", "hello"},
		{"aGVsbG8=garbage", "hello"},
		{"a", ""},
	}
	for _, tt := range b64 {
		if got := string(decodeBase64([]byte(tt.in))); got != tt.want {
			t.Errorf("decodeBase64(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	charsets := []struct {
		in    []byte
		label string
		want  string
	}{
		{[]byte("caf\xe9"), "iso-8859-1", "café"},
		{[]byte("\x93hi\x94 \x80"), "ISO-8859-1", "“hi” €"}, // Windows bytes under a Latin-1 label
		{[]byte("\x93hi\x94"), "windows-1252", "“hi”"},
		{[]byte("caf\xe9"), "utf-8", "café"}, // mislabelled
		{[]byte("caf\xe9"), "no-such-charset", "café"},
		{[]byte("\xa4"), "iso-8859-15", "€"},
		{[]byte("\xff\xfeh\x00i\x00"), "utf-16", "hi"},
	}
	for _, tt := range charsets {
		if got := strings.TrimPrefix(toUTF8(tt.in, tt.label), "\uFEFF"); got != tt.want {
			t.Errorf("toUTF8(%q, %q) = %q, want %q", tt.in, tt.label, got, tt.want)
		}
	}
}

func TestUnflow(t *testing.T) {
	tests := []struct {
		in    string
		delsp bool
		want  string
	}{
		{"one \ntwo\nthree", false, "one two\nthree"},
		{"wo\nrd", true, "wo\nrd"},
		{"wo \nrd", true, "word"},
		{"> quoted \n> more\nnew", false, "> quoted more\nnew"},
		{">> deep \n>> er\n> flat", false, ">> deep er\n> flat"},
		{" >stuffed", false, ">stuffed"},
		{"text \n-- \nsig", false, "text \n-- \nsig"},
	}
	for _, tt := range tests {
		if got := unflow(tt.in, tt.delsp); got != tt.want {
			t.Errorf("unflow(%q, %v) = %q, want %q", tt.in, tt.delsp, got, tt.want)
		}
	}
}

func TestHTMLToText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<p>a</p><p>b</p>", "a\n\nb"},
		{"a<br>b<br><br>c", "a\nb\n\nc"},
		{"<div>x</div><div><br></div><div>y</div>", "x\n\ny"},
		{"<ul><li>one</li><li>two</li></ul>", "- one\n- two"},
		{"<blockquote>q1<br>q2</blockquote>after", "> q1\n> q2\nafter"},
		{"<blockquote>a<blockquote>b</blockquote></blockquote>", "> a\n>> b"},
		{"<pre>  keep\n  this</pre>", "  keep\n  this"},
		{"<style>x{}</style><script>y()</script>text", "text"},
		{"<html><head><title>t</title><body>unclosed head", "unclosed head"},
		{"a &amp; b&nbsp;&lt;c&gt;", "a & b <c>"},
		{"<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>", "a b\nc"},
		{"   spaced    out   ", "spaced out"},
	}
	for _, tt := range tests {
		if got := htmlToText(tt.in); got != tt.want {
			t.Errorf("htmlToText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestParseHostileSize guards against output that grows faster than the
// input (nested quotes once made 1 MB of HTML into 3.6 GB of text).
func TestParseHostileSize(t *testing.T) {
	inputs := map[string]string{
		"nested blockquote": "Content-Type: text/html\n\n" + strings.Repeat("<blockquote><p>x", 20000),
		"nested flowed":     "Content-Type: text/plain; format=flowed\n\n" + strings.Repeat(">", 20000) + " x\n" + strings.Repeat(">", 20000) + " y\n",
		"nested multipart":  "Content-Type: multipart/mixed; boundary=z\n\n" + strings.Repeat("--z\nContent-Type: multipart/mixed; boundary=z\n\n", 5000),
	}
	for name, in := range inputs {
		m, err := Parse(strings.NewReader("From: a@example.org\n"+in), DefaultMaxBytes)
		if err != nil {
			t.Fatalf("%s: Parse = %v", name, err)
		}
		if len(m.Text) > 10*len(in) || len(m.Reply) > len(m.Text) {
			t.Errorf("%s: %d input bytes gave %d bytes of Text, %d of Reply", name, len(in), len(m.Text), len(m.Reply))
		}
	}
}

// TestParseHTMLAlternative: when Text comes from text/plain, the first
// text/html part is offered too, as AltText and AltReply, for a reader
// that finds nothing in the plain part (issue 8 §5: a placeholder plain
// part, "please use an HTML capable mail program", and the move in HTML).
func TestParseHTMLAlternative(t *testing.T) {
	const head = "From: alice@example.org\r\nSubject: Re: move\r\nMIME-Version: 1.0\r\n"
	alt := func(plain, html string) string {
		return head + "Content-Type: multipart/alternative; boundary=b\r\n\r\n" +
			"--b\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\n" + plain + "\r\n" +
			"--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + html + "\r\n--b--\r\n"
	}
	const quoted = `<div>d1-e1</div><div><br></div><div>Alice</div><blockquote type="cite"><div>On 29 Nov, taflmail wrote:</div><div>Moves so far:<br>1. a4-a2</div></blockquote>`
	tests := []struct {
		name, raw                       string
		wantText, wantAlt, wantAltReply string
	}{
		{"placeholder-plain", alt("Please use an HTML capable mail program to read this message.", quoted),
			"Please use an HTML capable mail program to read this message.",
			"d1-e1\n\nAlice\n> On 29 Nov, taflmail wrote:\n> Moves so far:\n> 1. a4-a2", "d1-e1\n\nAlice"},
		{"both-hold-the-move", alt("d1-e1", "<p>d1-e1</p>"), "d1-e1", "d1-e1", "d1-e1"},
		{"blank-html", alt("d1-e1", "<p> </p>"), "d1-e1", "", ""},
		{"html-only", head + "Content-Type: text/html\r\n\r\n<p>d1-e1</p>\r\n", "d1-e1", "", ""},
		{"plain-only", head + "Content-Type: text/plain\r\n\r\nd1-e1\r\n", "d1-e1", "", ""},
		{"html-attachment", head + "Content-Type: multipart/mixed; boundary=b\r\n\r\n" +
			"--b\r\nContent-Type: text/plain\r\n\r\nd1-e1\r\n" +
			"--b\r\nContent-Type: text/html\r\nContent-Disposition: attachment; filename=page.html\r\n\r\n<p>resign</p>\r\n--b--\r\n",
			"d1-e1", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse(strings.NewReader(tt.raw), 0)
			if err != nil {
				t.Fatalf("Parse = %v", err)
			}
			if m.Text != tt.wantText || m.AltText != tt.wantAlt || m.AltReply != tt.wantAltReply {
				t.Errorf("Text, AltText, AltReply =\n%q\n%q\n%q\nwant\n%q\n%q\n%q", m.Text, m.AltText, m.AltReply, tt.wantText, tt.wantAlt, tt.wantAltReply)
			}
		})
	}
}

// TestParseErrorPrintable: an error quoting a broken header line shows
// its bytes escaped, never raw (trial report §11: inspect printed binary
// to the terminal), and stays short.
func TestParseErrorPrintable(t *testing.T) {
	junk := append([]byte("\x8f\xd2\x01\x1b[5m\xff\xfe:\x07 "), bytes.Repeat([]byte("\xc3\x28"), 400)...)
	_, err := Parse(bytes.NewReader(append(junk, "\r\n\r\nbody"...)), 0)
	if !errors.Is(err, ErrMalformed) {
		t.Fatalf("Parse(junk) = %v, want ErrMalformed", err)
	}
	msg := err.Error()
	if !utf8.ValidString(msg) || len(msg) > 400 || !strings.Contains(msg, `\x8f\xd2\x01\x1b[5m\xff\xfe`) {
		t.Errorf("Parse(junk) error = %q: want it escaped and short", msg)
	}
	for _, r := range msg {
		if unicode.IsControl(r) {
			t.Errorf("Parse(junk) error holds the control character %U: %q", r, msg)
		}
	}
}
