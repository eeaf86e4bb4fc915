package server

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/referee"
)

func TestMoveRefusals(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	tests := []struct {
		name, from, body string
		keys             []string // nil: a line that does not parse, or prose passed on
		wants            []string
	}{
		{"out of turn", bob, "d3-e3", []string{"err.notyourturn"}, []string{"> d3-e3", "Nothing was changed"}},
		{"blocked path", alice, "d1-d4", []string{"err.illegal"}, []string{"d1-d4", "path blocked at d2"}},
		{"illegal square", alice, "d1-d33", nil, []string{"> d1-d33", "^", "Expected rank 1 to 7"}}, // Brandubh's board
		{"two moves", alice, "d1-e1\nd2-c2", []string{"err.twomoves"}, nil},
		{"wrong number", alice, "3. d1-e1", []string{"err.movenumber"}, nil},
		{"wrong capture mark", alice, "d1-e1xe2", []string{"err.captures"}, nil},
		// prose alone is passed on to bob: "no command", but no refusal (TestChattyPlayer)
		{"no command", alice, "Hello there, how are you?", nil, []string{"I found no command in your mail.", "Your message will reach bob@player.test"}},
	}
	for _, tt := range tests {
		sent := h.reply(tt.from, tt.body)
		if len(sent) != 1 || sent[0].to != tt.from {
			t.Fatalf("%s: %d mails sent, want 1 reply to the sender", tt.name, len(sent))
		}
		h.mustRefuse(tt.keys...)
		mustContain(t, tt.name, sent[0].msg.Text, tt.wants...)
		g, err := h.store.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Plies) != 0 {
			t.Fatalf("%s: the game has %d plies, want 0", tt.name, len(g.Plies))
		}
	}
	// the board comes with a refusal about a game
	mustContain(t, "refusal", h.last(alice).msg.Text, "a  b  c  d  e  f  g", "attackers to move")
}

// TestMoveHints: the common slips get a hint in the refusal, in the
// player's language: a typographic dash, spaces around the dash or no
// dash at all, a
// square off the board (Copenhagen runs a1 to k11), a rank no board has.
// Nothing is played.
func TestMoveHints(t *testing.T) {
	for _, lang := range []string{referee.English, referee.German} {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			id := startGame(t, h, "copenhagen", lang)
			before := h.state(id)
			cases := []struct{ line, hint string }{
				{"h3–h4", referee.Tr(lang, "hint.dash", "h3-h4")},
				{"d6 — d9", referee.Tr(lang, "hint.dash", "d6-d9")},
				{"d6 - d9", referee.Tr(lang, "hint.dash", "d6-d9")},
				{"1. a4 -a2", referee.Tr(lang, "hint.dash", "1. a4-a2")},
				{"h3h4", referee.Tr(lang, "hint.dash", "h3-h4")},
				{"1. a4 a2", referee.Tr(lang, "hint.dash", "1. a4-a2")},
				{"k12-k1", referee.Tr(lang, "hint.board", "k11")},
				{"d1-d33", referee.Tr(lang, "hint.board", "k11")},
			}
			for _, c := range cases {
				sent := h.reply(alice, c.line)
				r := refusedOnly(t, h, id, before, sent, alice, "> "+c.line, c.hint, referee.Tr(lang, "err.nothing"))
				if c.line == "k12-k1" {
					mustContain(t, c.line, r.msg.Text, referee.Tr(lang, "err.illegal", "k12-k1", referee.Tr(lang, "illegal.offboard", "k12")))
				}
			}
		})
	}
}

// TestDashHint: which lines get the dash hint, and what it proposes; a
// move without its dash ("e5e3", the outside trial) gets it as one with a
// typographic dash does.
func TestDashHint(t *testing.T) {
	for line, want := range map[string]string{
		"h3–h4":                             "h3-h4",
		"h3‑h4":                             "h3-h4", // non-breaking hyphen
		"Kf6 − c6":                          "Kf6-c6",
		"12. d6 - d9":                       "12. d6-d9",
		"12... d6- d9":                      "12... d6-d9",
		"e5e3":                              "e5-e3", // no dash at all
		"1... e5e3":                         "1... e5-e3",
		"Kf6c6":                             "Kf6-c6",
		"d6 d9":                             "d6-d9",
		"d1-d3.":                            "",
		"d1-d3":                             "", // nothing to mend
		"d1 – d3 please":                    "", // mended, still no move
		"new brandubh with bob@player.test": "",
	} {
		got := referee.DashHint(referee.English, line)
		if want == "" && got != "" || want != "" && got != referee.Tr(referee.English, "hint.dash", want) {
			t.Errorf("dashHint(%q) = %q, want the hint for %q", line, got, want)
		}
	}
}

// englishOnlyWords returns the words of the English catalogue (and of
// notation's English legend) that no German text uses; a German reply
// holding one of them holds English. A German text that merely repeats its
// English one is no translation and vouches for none of its words.
func englishOnlyWords() map[string]bool {
	words := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'à' && r <= 'ÿ')
		})
	}
	en := map[string]bool{}
	for _, key := range catalog.Keys(referee.English) {
		s, _ := catalog.Lookup(referee.English, key)
		for _, w := range words(s) {
			en[w] = len(w) > 1
		}
	}
	for _, w := range words("attacker defender king throne corner last ply from to captured move game over win escape") {
		en[w] = true
	}
	for _, key := range catalog.Keys(referee.German) {
		s, _ := catalog.Lookup(referee.German, key)
		if en, _ := catalog.Lookup(referee.English, key); s == en {
			continue
		}
		for _, w := range words(s) {
			delete(en, w)
		}
	}
	return en
}

// englishIn returns the English words of a German mail, each with its
// section (the text between blank lines). The game record is a file
// format, not prose, and is left out; so are names (addresses, the
// variant's title).
func englishIn(text string, names ...string) []string {
	english := englishOnlyWords()
	for _, n := range names {
		text = strings.ReplaceAll(text, n, " ")
	}
	if i := strings.Index(text, "[Event"); i >= 0 {
		if j := strings.Index(text[i:], "\n\n     a"); j >= 0 {
			text = text[:i] + text[i+j:]
		}
	}
	var found []string
	for _, section := range strings.Split(text, "\n\n") {
		for _, w := range strings.FieldsFunc(strings.ToLower(section), func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'à' && r <= 'ÿ')
		}) {
			if english[w] {
				found = append(found, fmt.Sprintf("%q in the section\n%s", w, section))
				break
			}
		}
	}
	return found
}

// checkGerman fails when a German mail holds English (englishIn).
func checkGerman(t *testing.T, what, text string, names ...string) {
	t.Helper()
	for _, f := range englishIn(text, names...) {
		t.Errorf("%s: English word %s", what, f)
	}
}

// TestGermanMoveReply: German players' replies to a move, a capture and
// the end of the game hold no English sentence, board legends included.
func TestGermanMoveReply(t *testing.T) {
	h := newHarness(t)
	id := startGame(t, h, "brandubh", referee.German)
	names := []string{alice, bob, "Brandubh 7×7 (Federation Brandubh)", "taflmail"}
	h.play(id, "d1-e1", "d3-f3")
	sent := h.reply(alice, "2. d2-f2xf3") // a capture
	if len(sent) != 2 {
		t.Fatalf("%d mails, want 2:\n%s", len(sent), texts(sent))
	}
	for _, m := range sent {
		checkGerman(t, "capture to "+m.to, m.msg.Text, names...)
		mustContain(t, "board", m.msg.Text,
			"  A Angreifer  D Verteidiger  K König  # Ecke\n  letzter Halbzug d2-f2: () Start, [] Ziel  x geschlagen\n  Verteidiger am Zug\n") // the king hides the throne
	}
	// bob's king escapes: the game-over line of the board too
	sent = h.reply(bob, "d4-d1")
	sent = append(sent, h.reply(alice, "a4-a3")...)
	sent = append(sent, h.reply(bob, "3... d1-a1")...)
	if len(sent) != 6 {
		t.Fatalf("%d mails, want 6:\n%s", len(sent), texts(sent))
	}
	for _, m := range sent {
		checkGerman(t, "mail to "+m.to, m.msg.Text, names...)
	}
	mustContain(t, "final board", h.last(alice).msg.Text, "  A Angreifer  D Verteidiger  K König  + Thron  # Ecke\n", "  Partie beendet: Verteidiger gewinnen (König entkommen)")
	// the same check finds the English of an English reply
	en := newHarness(t)
	startBrandubh(t, en)
	if len(englishIn(en.last(alice).msg.Text, names...)) < 3 {
		t.Errorf("englishIn finds little English in an English reply: %q", englishIn(en.last(alice).msg.Text, names...))
	}
}

// TestKingMarkOnAnotherPiece: a "K" on the move of a piece that is not the
// king is refused, as validate refuses it in a record (trial report §4):
// the line quoted, the square and the piece named, the board shown, nothing
// played; in a conditional line the same. The move without the mark is
// played.
func TestKingMarkOnAnotherPiece(t *testing.T) {
	for _, lang := range []string{referee.English, referee.German} {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			id := startGame(t, h, "brandubh", lang)
			before := h.state(id)
			why := referee.Tr(lang, "illegal.notking", "d1", referee.Tr(lang, "piece.a.attacker"))
			sent := h.reply(alice, "1. Kd1-e1")
			r := refusedOnly(t, h, id, before, sent, alice, "> 1. Kd1-e1", referee.Tr(lang, "err.illegal", "Kd1-e1", why),
				referee.Tr(lang, "err.nothing"), "a  b  c  d  e  f  g")
			if lang == referee.English {
				mustContain(t, "refusal", r.msg.Text, "Kd1-e1 is not a legal move: the piece on d1 is an attacker, not the king.")
			}
			sent = h.reply(bob, "if Kd1-e1 then d3-f3")
			refusedWith(t, h, id, before, sent, bob, lang, "err.cond.at", "err.cond.illegal.theirs")
			sent = h.reply(alice, "1. d1-e1")
			mustContain(t, "the move without K", to(t, sent, bob).Text, referee.Tr(lang, "move.played", alice, "d1-e1"))
		})
	}
}

// TestExampleMoveIsQuiet: the move a reply gives as an example is a man's
// move that captures nothing and does not end the game, never the first
// legal move when that one captures or wins (trial report §8.8: Bob was
// shown his winning escape as the example).
func TestExampleMoveIsQuiet(t *testing.T) {
	v := mustVariant(t, "brandubh")
	for _, c := range []struct {
		name, board string
		toMove      engine.Side
		want        string
	}{
		// a2-a3 would capture b3
		{"capture first", "/7/t6/1Tt4/3K3/7/7/7/", engine.Attackers, "1. a2-a4"},
		// a2-a1 would be the king's escape
		{"escape first", "/7/K6/7/7/2T4/7/5t1/", engine.Defenders, "1. c5-a5"},
	} {
		b, err := notation.ParseBoard(c.board)
		if err != nil {
			t.Fatal(err)
		}
		p, err := engine.NewPositionFromBoard(v, b, c.toMove)
		if err != nil {
			t.Fatal(err)
		}
		if got := referee.ExampleMove(&referee.Table{Variant: v, Pos: p}); got != c.want {
			t.Errorf("%s: exampleMove = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestTrialMoveMessages: the refusals of trial report §8 say what is
// wrong: "d6 - d9" found white space (not the end of the input), "1.."
// is no move number (not a mismatch), "1 . d1-e1" is a move, and a game
// tag with a key of the wrong form names the game (the mail lacks the
// key; it does name a game).
func TestTrialMoveMessages(t *testing.T) {
	for _, lang := range []string{referee.English, referee.German} {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			id := startGame(t, h, "brandubh", lang)
			before := h.state(id)
			for _, line := range []string{"d6 - d9", "d1 -e1", "d1 e1"} {
				r := refusedOnly(t, h, id, before, h.reply(alice, line), alice,
					referee.Tr(lang, "err.expected", "\"-\"", referee.Tr(lang, "syntax.whitespace")))
				if strings.Contains(r.msg.Text, referee.Tr(lang, "syntax.eoi")) {
					t.Errorf("%s: the refusal speaks of the end of the input:\n%s", line, r.msg.Text)
				}
			}
			refusedWith(t, h, id, before, h.reply(alice, "1.. d1-e1"), alice, lang, "err.movedots")
			sent := h.deliver(alice, "[taflmail "+id+" xx] board", "", nil)
			refusedWith(t, h, id, before, sent, alice, lang, "err.badkey")
			sent = h.reply(alice, "1 . d1-e1")
			mustContain(t, "1 . d1-e1", to(t, sent, bob).Text, referee.Tr(lang, "move.played", alice, "d1-e1"))
		})
	}
}
