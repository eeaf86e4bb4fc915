package mailer

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWrap(t *testing.T) {
	for _, c := range []struct {
		name, line string
		width      int
		want       []string
	}{
		{"fits", "a short line", 20, []string{"a short line"}},
		{"words", "aaa bbb ccc ddd", 7, []string{"aaa bbb", "ccc ddd"}},
		{"spaces at the break dropped", "aaa   bbb", 4, []string{"aaa", "bbb"}},
		{"a URL is not cut", "see https://example.org/a/long/path now", 10,
			[]string{"see", "https://example.org/a/long/path", "now"}},
		{"an address first", "bob.longname@example.org is it", 8, []string{"bob.longname@example.org", "is it"}},
		{"a quoted example stays whole", `reply "accept draw" or not`, 14,
			[]string{"reply", `"accept draw"`, "or not"}},
		{"a quote longer than the line is cut", `say "a b c d e f" ok`, 6,
			[]string{"say", `"a b c`, `d e f"`, "ok"}},
		{"an unpaired quote opens nothing", `it is "open and on`, 9, []string{"it is", `"open and`, "on"}},
		{"a tag line stays whole", "keep the line [taflmail 7D80ER 2ra17zn27b] of it", 30,
			[]string{"keep the line", "[taflmail 7D80ER 2ra17zn27b]", "of it"}},
		{"a bracket in quotes is no span", `say "[a" b c`, 8, []string{`say "[a"`, "b c"}},
		{"umlauts count as one", "äöü äöü äöü", 7, []string{"äöü äöü", "äöü"}},
		{"empty", "", 10, []string{""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Wrap(c.line, c.width); !slices.Equal(got, c.want) {
				t.Errorf("Wrap(%q, %d) = %q, want %q", c.line, c.width, got, c.want)
			}
		})
	}
}

func TestFlowed(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"prose gets soft breaks", "one two three four five", "one two \nthree four \nfive"},
		{"a short line is kept", "one two", "one two"},
		{"trailing spaces go", "one two  ", "one two"},
		{"an item hangs under its text", "  - one two three", "   - one two\n     three"},
		{"an indented line hangs under itself", "    one two three four", "     one two\n     three\n     four"},
		{"preformatted lines are kept", Preformatted("a b c d e f g h i j k l\n 7 . . K . . .  "),
			"a b c d e f g h i j k l\n  7 . . K . . ."},
		{"a quote of the player's mail is stuffed", Preformatted("> d1-d3 please and thank you"), " > d1-d3 please and thank you"},
		{"From at a line's start is stuffed", "From me", " From me"},
		{"From on a continuation line is stuffed", "one two. From three", "one two. \n From three"},
		{"the signature separator keeps its space", "-- \nreferee", "-- \nreferee"},
		{"a stray mark is removed", "a\x1eb", "ab"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := flowed(c.in, 12); got != c.want {
				t.Errorf("flowed(%q, 12) =\n%q\nwant\n%q", c.in, got, c.want)
			}
		})
	}
}

// TestFlowedRoundTrip writes a mail with Flowed and parses it back: the
// wire lines fit in 78 columns, the Content-Type says format=flowed, and a
// flowed-aware reader (Parse) gets the prose paragraphs back whole and the
// preformatted lines as they were.
func TestFlowedRoundTrip(t *testing.T) {
	para := strings.Repeat("Every game gives each player a secret key, kept private. ", 4) + "https://example.org/" + strings.Repeat("x", 90) + " ends it."
	board := Preformatted("  7 . . . A . . .\n  6 . . . A . . .\n    a b c d e f g")
	quote := Preformatted("> From the player:" + strings.Repeat(" long words", 9))
	item := "  - " + strings.Repeat("an item that is long ", 5)
	for _, eight := range []bool{false, true} {
		body := para + "\n\n" + board + "\n\n" + quote + "\n" + item + "\nÄrger über Züge, " + strings.Repeat("sehr lange Zeilen ", 6) + "\n\n-- \nreferee\n"
		o := Outgoing{From: "tafl@game.test", To: []string{"bob@player.test"}, Subject: "x", Body: body, Flowed: true, EightBit: eight}
		raw, err := o.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(raw, []byte("format=flowed")) || !bytes.Contains(raw, []byte("delsp=no")) {
			t.Errorf("no format=flowed; delsp=no in\n%s", raw)
		}
		if bytes.Contains(raw, []byte(preMark)) {
			t.Error("a mark reached the wire")
		}
		m, err := Parse(bytes.NewReader(raw), 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{para + "\n", Unmark(board), Unmark(quote), "\nÄrger über Züge, " + strings.TrimRight(strings.Repeat("sehr lange Zeilen ", 6), " ") + "\n", "-- \nreferee"} {
			if !strings.Contains(m.Text, want) {
				t.Errorf("parsed text lacks %q:\n%s", want, m.Text)
			}
		}
		if !strings.Contains(m.Text, "  - an item that is long an item that is long an item that is long an item\n    that is long") {
			t.Errorf("the item does not hang under its text:\n%s", m.Text)
		}
		if eight {
			for line := range strings.SplitSeq(string(raw[bytes.Index(raw, []byte("\r\n\r\n")):]), "\r\n") {
				if n := utf8.RuneCountInString(line); n > 78 && !strings.Contains(line, "xxxxxxxx") && !strings.Contains(line, "From the player") {
					t.Errorf("a line of %d characters: %q", n, line)
				}
			}
		}
	}
}

// TestNotFlowedUnmarks: a mail without Flowed is sent as it is, but for
// the marks, and says nothing of format=flowed.
func TestNotFlowedUnmarks(t *testing.T) {
	long := strings.Repeat("word ", 30)
	o := Outgoing{From: "tafl@game.test", To: []string{"bob@player.test"}, Subject: "x", Body: long + "\n" + Preformatted("  a b")}
	raw, err := o.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte("flowed")) || bytes.Contains(raw, []byte(preMark)) {
		t.Errorf("flowed or a mark in\n%s", raw)
	}
	if !bytes.Contains(raw, []byte(long+"\r\n  a b\r\n")) {
		t.Errorf("the body was changed:\n%s", raw)
	}
}
