package server

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/replies/*.golden from the replies the referee sends now")

// step is one mail of a reply transcript: who writes it, and either a
// reply to the last mail the server sent them (subject "") or a new mail
// with that subject.
type step struct {
	from, subject, body string
}

// replyScripts are whole conversations with the referee, in English and
// in German: every command, every refusal a player can provoke by mail,
// the end of a game by escape, resignation and agreement.
var replyScripts = map[string][]step{
	"en-play": {
		{alice, "a game?", "Hi!\nnew brandubh with bob@player.test\nCheers, Alice"},
		{bob, "", "accept"},
		{bob, "", "d3-e3"},          // not his move
		{alice, "", "d1-d4"},        // path blocked
		{alice, "", "3. d1-e1"},     // wrong move number
		{alice, "", "d1-e1\nd2-c2"}, // two moves
		{alice, "", "timeout"},
		{alice, "", "d1-d33"}, // no board has rank 33
		{alice, "", "h1-a1"},  // not on this board
		{alice, "", "d1–e1"},  // an en dash
		{alice, "", "1. d1-e1"},
		{bob, "", "1... d3-f3 please"}, // does not parse
		{bob, "", "1... d3-f3"},
		{alice, "", "2. d2-f2xf4"}, // wrong capture mark
		{alice, "", "2. d2-f2xf3"},
		{bob, "", "board"},
		{bob, "", "history"},
		{alice, "x", "games"},
		{bob, "", "offer draw"},
		{bob, "", "offer draw"}, // already stands
		{alice, "", "decline draw"},
		{alice, "", "accept draw"}, // no offer
		{bob, "", "offer draw"},
		{alice, "", "2... d4-d3"}, // not her move
		{alice, "", "accept draw"},
		{bob, "", "d5-d6"}, // the game is over
		{bob, "", "Thanks for the game!"},
	},
	"en-escape": {
		{alice, "a game?", "new brandubh with bob@player.test"},
		{bob, "", "accept"},
		{alice, "", "d1-e1"},
		{bob, "", "d3-e3"},
		{bob, "", "offer draw"},
		{alice, "", "d2-e2"}, // the offer lapses
		{bob, "", "d4-d1"},
		{alice, "", "e1-f1"},
		{bob, "", "d1-a1"},
		{alice, "", "resign"},
	},
	"en-misc": {
		{alice, "help", ""},
		{alice, "x", "help moves"},
		{alice, "x", "help keys"},
		{alice, "x", "help brandubh"},
		{alice, "x", "help nosuch"},
		{alice, "x", "variants"},
		{alice, "x", "games"},
		{alice, "x", "language xx"},
		{alice, "x", "new nosuch with bob@player.test"},
		{alice, "x", "new copenhagn with bob@player.test"},
		{alice, "x", "new brandubh with alice@player.test"},
		{alice, "x", "new brandubh with tafl@game.test"},
		{alice, "x", "new brandubh with bob@player.test as kings"},
		{alice, "x", "accept"},
		{alice, "[taflmail ZZZZZZ]", "board"},
		{alice, "x", "new tablut with carol@player.test as defenders"},
		{"carol@player.test", "", "decline"},
		{"carol@player.test", "", "accept"},
		{alice, "x", "new brandubh with bob@player.test"},
		{alice, "", "accept"}, // the challenger cannot accept
		{"mallory@evil.test", "x", "board"},
		{alice, "x", "Hello, how are you?"},
		{alice, "x", "d1–e1"},
		{alice, "x", "d6 - d9"},
		{alice, "x", "k12-k1"},
	},
	"de-play": {
		{bob, "x", "sprache de"},
		{alice, "Partie", "neu brandubh mit bob@player.test als verteidiger"},
		{bob, "", "annehmen"},
		{alice, "", "d3-e3"},      // nicht am Zug
		{bob, "", "d1-d4"},        // Weg versperrt
		{bob, "", "3. d1-e1"},     // falsche Zugnummer
		{bob, "", "d1-e1\nd2-c2"}, // zwei Züge
		{bob, "", "d1-d33"},       // Reihe 33 gibt es nicht
		{bob, "", "h1-a1"},        // nicht auf diesem Brett
		{bob, "", "1. d1 - e1"},   // Leerzeichen um den Strich
		{bob, "", "1. d1-e1"},
		{alice, "", "1... d3-f3 bitte"},
		{alice, "", "1... d3-f3"},
		{bob, "", "2. d2-f2xf4"},
		{bob, "", "2. d2-f2xf3"},
		{alice, "", "brett"},
		{alice, "", "verlauf"},
		{bob, "x", "partien"},
		{alice, "", "remis anbieten"},
		{alice, "", "remis anbieten"},
		{bob, "", "remis ablehnen"},
		{bob, "", "remis annehmen"},
		{alice, "", "aufgeben"},
		{bob, "", "d5-d6"},
	},
	"de-escape": {
		{alice, "x", "sprache de"},
		{bob, "x", "sprache de"},
		{alice, "Partie", "neu brandubh mit bob@player.test"},
		{bob, "", "annehmen"},
		{alice, "", "d1-e1"},
		{bob, "", "d3-e3"},
		{bob, "", "remis anbieten"},
		{alice, "", "d2-e2"},
		{bob, "", "d4-d1"},
		{alice, "", "e1-f1"},
		{bob, "", "d1-a1"},
		{alice, "", "aufgeben"},
	},
	"de-misc": {
		{alice, "hilfe", ""},
		{alice, "x", "hilfe züge"},
		{alice, "x", "hilfe schlüssel"},
		{alice, "x", "hilfe brandubh"},
		{alice, "x", "varianten"},
		{alice, "x", "partien"},
		{alice, "x", "sprache xx"},
		{alice, "x", "neu nosuch mit bob@player.test"},
		{alice, "x", "neu copenhagn mit bob@player.test"},
		{alice, "x", "neu brandubh mit alice@player.test"},
		{alice, "x", "neu brandubh mit bob@player.test als könige"},
		{alice, "x", "annehmen"},
		{alice, "[taflmail ZZZZZZ]", "brett"},
		{alice, "x", "neu tablut mit carol@player.test"},
		{"carol@player.test", "", "sprache de"},
		{"carol@player.test", "", "ablehnen"},
		{alice, "x", "neu brandubh mit dave@player.test"},
		{"mallory@evil.test", "x", "sprache de"},
		{"mallory@evil.test", "", "brett"},
		{alice, "x", "Hallo, wie geht es?"},
		{alice, "x", "d1–e1"},
		{alice, "x", "d6 - d9"},
		{alice, "x", "k12-k1"},
		{alice, "x", "sprache en"},
		{alice, "x", "games"},
	},
}

// TestReplyTranscripts plays every script of replyScripts against a fresh
// referee and compares every mail it sends (recipient, subject, text with
// its lines as sent, unstuffed) with
// testdata/replies/<script>.golden; -update rewrites the files, whose diffs
// are then reviewed.
func TestReplyTranscripts(t *testing.T) {
	for name, script := range replyScripts {
		t.Run(name, func(t *testing.T) {
			got := transcript(t, script)
			path := filepath.Join("testdata", "replies", name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test ./server -run TestReplyTranscripts -update writes it)", err)
			}
			if got != string(want) {
				t.Errorf("the replies differ from %s (-update rewrites it; review the diff):\n%s", path, firstDiff(string(want), got))
			}
		})
	}
}

// transcript plays a script and writes down every mail sent.
func transcript(t *testing.T, script []step) string {
	h := newHarness(t)
	var b strings.Builder
	for _, s := range script {
		var sent []sentMail
		if s.subject == "" {
			fmt.Fprintf(&b, ">>> %s replies: %s\n", s.from, strings.ReplaceAll(s.body, "\n", " / "))
			sent = h.reply(s.from, s.body)
		} else {
			fmt.Fprintf(&b, ">>> %s writes, subject %q: %s\n", s.from, s.subject, strings.ReplaceAll(s.body, "\n", " / "))
			sent = h.deliver(s.from, s.subject, s.body, nil)
		}
		for _, m := range sent {
			fmt.Fprintf(&b, "--- to %s\nSubject: %s\n\n%s\n", m.to, m.msg.Subject, unstuffed(m.raw))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// firstDiff shows the first line where want and got differ, with a little
// context.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			from := max(i-3, 0)
			ctx := strings.Join(wl[from:i], "\n")
			return fmt.Sprintf("line %d:\n%s\n- %s\n+ %s", i+1, ctx, w, g)
		}
	}
	return "(no difference by line)"
}
