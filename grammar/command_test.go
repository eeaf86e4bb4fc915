package grammar

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

func TestParseCommand(t *testing.T) {
	at := func(col int) lexer.Position {
		return lexer.Position{Filename: "mail", Line: 4, Column: col, Offset: col - 1}
	}
	ply := func(s string) *Ply {
		p, err := ParsePly("", []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		in     string
		want   Command
		german bool
	}{
		{"new copenhagen with bob@example.org as defenders",
			&NewGameCommand{kw: kw{at(1)}, Keyword: "new", Variant: "copenhagen", Opponent: "bob@example.org", Side: "defenders"}, false},
		{"NEU brandubh mit <x@y.de> als Angreifer",
			&NewGameCommand{kw: kw{at(1)}, Keyword: "NEU", Variant: "brandubh", Opponent: "<x@y.de>", Side: "Angreifer"}, true},
		{"new tablut against carol@example.org",
			&NewGameCommand{kw: kw{at(1)}, Keyword: "new", Variant: "tablut", Opponent: "carol@example.org"}, false},
		{"accept", &AcceptCommand{kw: kw{at(1)}, Keyword: "accept"}, false},
		{"Annehmen", &AcceptCommand{kw: kw{at(1)}, Keyword: "Annehmen"}, true},
		{"decline", &DeclineCommand{kw: kw{at(1)}, Keyword: "decline"}, false},
		{"ablehnen", &DeclineCommand{kw: kw{at(1)}, Keyword: "ablehnen"}, true},
		{"accept draw", &AcceptDrawCommand{kw: kw{at(1)}, Keyword: "accept"}, false},
		{"Remis annehmen", &AcceptDrawCommand{kw: kw{at(1)}, Keyword: "Remis"}, true},
		{"offer draw", &OfferDrawCommand{kw: kw{at(1)}, Keyword: "offer"}, false},
		{"remis anbieten", &OfferDrawCommand{kw: kw{at(1)}, Keyword: "remis"}, true},
		{"DECLINE DRAW", &DeclineDrawCommand{kw: kw{at(1)}, Keyword: "DECLINE"}, false},
		{"remis ablehnen", &DeclineDrawCommand{kw: kw{at(1)}, Keyword: "remis"}, true},
		{"board", &BoardCommand{kw: kw{at(1)}, Keyword: "board"}, false},
		{"  Brett", &BoardCommand{kw: kw{at(3)}, Keyword: "Brett"}, true},
		{"history", &HistoryCommand{kw: kw{at(1)}, Keyword: "history"}, false},
		{"verlauf", &HistoryCommand{kw: kw{at(1)}, Keyword: "verlauf"}, true},
		{"games", &GamesCommand{kw: kw{at(1)}, Keyword: "games"}, false},
		{"partien", &GamesCommand{kw: kw{at(1)}, Keyword: "partien"}, true},
		{"resign", &ResignCommand{kw: kw{at(1)}, Keyword: "resign"}, false},
		{"aufgeben", &ResignCommand{kw: kw{at(1)}, Keyword: "aufgeben"}, true},
		{"variants", &VariantsCommand{kw: kw{at(1)}, Keyword: "variants"}, false},
		{"varianten", &VariantsCommand{kw: kw{at(1)}, Keyword: "varianten"}, true},
		{"help", &HelpCommand{kw: kw{at(1)}, Keyword: "help"}, false},
		{"hilfe züge", &HelpCommand{kw: kw{at(1)}, Keyword: "hilfe", Topic: "züge"}, true},
		{"language de", &LanguageCommand{kw: kw{at(1)}, Keyword: "language", Language: "de"}, false},
		{"sprache en", &LanguageCommand{kw: kw{at(1)}, Keyword: "sprache", Language: "en"}, true},
		{"d1-d3", &MoveCommand{Pos: at(1), Text: "d1-d3", Ply: ply("d1-d3")}, false},
		{"12. d1-d3", &MoveCommand{Pos: at(1), Number: 12, Dots: ".", Text: "d1-d3", Ply: ply("d1-d3")}, false},
		{"12... h6-h9", &MoveCommand{Pos: at(1), Number: 12, Dots: "...", Text: "h6-h9", Ply: ply("h6-h9")}, false},
		{"Kf6-c6xe5", &MoveCommand{Pos: at(1), Text: "Kf6-c6xe5", Ply: ply("Kf6-c6xe5")}, false},
		{"E7-E6xF6++", &MoveCommand{Pos: at(1), Text: "E7-E6xF6++", Ply: ply("E7-E6xF6++")}, false},
	}
	for _, tt := range tests {
		got, err := ParseCommand("mail", 4, tt.in)
		if err != nil {
			t.Errorf("ParseCommand(%q) error: %v", tt.in, err)
			continue
		}
		if m, ok := got.(*MoveCommand); ok {
			// compare the ply by its text; its positions are its own
			if w := tt.want.(*MoveCommand); m.Ply.String() != w.Ply.String() {
				t.Errorf("ParseCommand(%q).Ply = %v, want %v", tt.in, m.Ply, w.Ply)
			}
			m.Ply = tt.want.(*MoveCommand).Ply
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseCommand(%q) =\n %#v\nwant\n %#v", tt.in, got, tt.want)
		}
		if got.German() != tt.german {
			t.Errorf("ParseCommand(%q).German() = %v, want %v", tt.in, got.German(), tt.german)
		}
		if !IsCommandLine(tt.in) {
			t.Errorf("IsCommandLine(%q) = false, want true", tt.in)
		}
	}
}

func TestParseCommandErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"d1-d33", `mail:7:5: expected rank 1 to 19, found "33"`},
		{"d1 d3", `mail:7:3: expected "-", found end of input`},
		{"  d1 d3", `mail:7:5: expected "-", found end of input`},
		{"accept please", `mail:7:8: expected end of line, found "please"`},
		{"foo", `mail:7:1: expected a command (see help) or a move such as d1-d3, found "foo"`},
		{"12. ", `mail:7:5: expected a move such as d1-d3, found end of input`},
		{"12. d1-d3x", ``},
		{"new copenhagen", `mail:7:15: expected "with" or "mit" or "gegen" or "against" or "vs", found end of input`},
		{"new copenhagen with bob", `mail:7:21: expected a mail address, found "bob"`},
		{"d1-d3 h6-h9", `mail:7:7: expected end of line, found "h6-h9"`},
		{"5. z1-d3", `mail:7:4: expected file a to s, found "z"`},
		{"board\x00", `mail:7:6: control character U+0000 not allowed`},
	}
	for _, tt := range tests {
		_, err := ParseCommand("mail", 7, tt.in)
		got := ""
		if err != nil {
			got = err.Error()
			if _, ok := err.(*Error); !ok {
				t.Errorf("ParseCommand(%q) error is %T, want *Error", tt.in, err)
			}
		}
		if got != tt.want {
			t.Errorf("ParseCommand(%q) error = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestIsCommandLine(t *testing.T) {
	for line, want := range map[string]bool{
		"Hi Bob,":                   false,
		"here is my move:":          false,
		"Cheers, Alice":             false,
		"":                          false,
		"   ":                       false,
		"d4-d8":                     true,
		"d4":                        true,
		"12.":                       true,
		"12... h6-h9":               true,
		"Board":                     true,
		"Offer draw please":         true,
		"2026 was a good year":      false,
		"ok":                        false,
		"a1 is a corner":            true, // shaped like a move: answered with an error, not ignored
		"Thanks for the game!":      false,
		"The 3rd move was clever":   false,
		"  3  .  .  . [.] .  .  3":  false, // a quoted board row
		" 11  #  .  .  A  A  A  11": false,
		"  A attacker  D defender":  false,
		"     a  b  c  d  e  f  g":  false,
		"12 d1-d3":                  true,
	} {
		if got := IsCommandLine(line); got != want {
			t.Errorf("IsCommandLine(%q) = %v, want %v", line, got, want)
		}
	}
}

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"new copenhagen with a@b.c as defenders", "12. d1-d3", "12... Kf6-c6xe5/e7++",
		"remis annehmen", "hilfe", "d1 d3", "accept draw", "language de", "x", "\xff", "1..", "<@>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cmd, err := ParseCommand("mail", 2, s)
		if err != nil {
			e, ok := err.(*Error)
			if !ok {
				t.Fatalf("error %T %v, want *Error", err, err)
			}
			if strings.Contains(e.Message, "internal error") {
				t.Fatalf("ParseCommand(%q) panicked: %v", s, e)
			}
			if e.Line != 2 || e.Col < 1 || e.Col > utf8.RuneCountInString(s)+1 && utf8.ValidString(s) {
				t.Fatalf("ParseCommand(%q) error position %d:%d outside the line: %v", s, e.Line, e.Col, e)
			}
			return
		}
		if cmd == nil {
			t.Fatalf("ParseCommand(%q) = nil, nil", s)
		}
		if p := cmd.Position(); p.Line != 2 {
			t.Fatalf("ParseCommand(%q) position %v, want line 2", s, p)
		}
	})
}
