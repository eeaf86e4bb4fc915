package grammar

import (
	"reflect"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

func TestParseTournamentCommands(t *testing.T) {
	at := func(col int) lexer.Position {
		return lexer.Position{Filename: "mail", Line: 3, Column: col, Offset: col - 1}
	}
	id := func(p lexer.Position, text string) *TournamentID { return &TournamentID{Pos: p, Text: text} }
	tests := []struct {
		in     string
		want   Command
		german bool
	}{
		{"tournaments", &TournamentsCommand{kw: kw{at(1)}, Keyword: "tournaments"}, false},
		{"Turniere", &TournamentsCommand{kw: kw{at(1)}, Keyword: "Turniere"}, true},
		{"join winter-2027", &JoinCommand{kw: kw{at(1)}, Keyword: "join", Tournament: id(at(6), "winter-2027")}, false},
		{"anmelden WC2027", &JoinCommand{kw: kw{at(1)}, Keyword: "anmelden", Tournament: id(at(10), "WC2027")}, true},
		{"join 2027-cup", &JoinCommand{kw: kw{at(1)}, Keyword: "join", Tournament: id(at(6), "2027-cup")}, false},
		{"join winter-2027 confirm 3f9k2m7q4d", &JoinCommand{kw: kw{at(1)}, Keyword: "join", Tournament: id(at(6), "winter-2027"),
			Confirm: "confirm", Key: &EntryKey{Pos: at(26), Text: "3f9k2m7q4d"}}, false},
		{"anmelden cup bestaetigen k7qx2m3f9k", &JoinCommand{kw: kw{at(1)}, Keyword: "anmelden", Tournament: id(at(10), "cup"),
			Confirm: "bestaetigen", Key: &EntryKey{Pos: at(26), Text: "k7qx2m3f9k"}}, true},
		{"watch winter-2027 results", &WatchCommand{kw: kw{at(1)}, Keyword: "watch", Target: &WatchTarget{Pos: at(7), ID: "winter-2027"},
			Results: "results"}, false},
		{"zuschauen beenden spring_cup", &UnwatchCommand{kw: kw{at(1)}, Keyword: "zuschauen", Target: &WatchTarget{Pos: at(19), ID: "spring_cup"}}, true},
		{"withdraw winter-2027", &WithdrawCommand{kw: kw{at(1)}, Keyword: "withdraw", Tournament: id(at(10), "winter-2027")}, false},
		{"withdraw winter-2027 confirm 3f9k2m7q4d", &WithdrawCommand{kw: kw{at(1)}, Keyword: "withdraw", Tournament: id(at(10), "winter-2027"),
			Confirm: "confirm", Key: &EntryKey{Pos: at(30), Text: "3f9k2m7q4d"}}, false},
		{"abmelden cup bestätigen k7qx2m3f9k", &WithdrawCommand{kw: kw{at(1)}, Keyword: "abmelden", Tournament: id(at(10), "cup"),
			Confirm: "bestätigen", Key: &EntryKey{Pos: lexer.Position{Filename: "mail", Line: 3, Column: 25, Offset: 25}, Text: "k7qx2m3f9k"}}, true},
		{"standings winter-2027", &StandingsCommand{kw: kw{at(1)}, Keyword: "standings", Tournament: id(at(11), "winter-2027")}, false},
		{"tabelle winter-2027", &StandingsCommand{kw: kw{at(1)}, Keyword: "tabelle", Tournament: id(at(9), "winter-2027")}, true},
		// a sentence's closing marks are not part of the id or the key
		{"Join xmas-cup.", &JoinCommand{kw: kw{at(1)}, Keyword: "Join", Tournament: id(at(6), "xmas-cup")}, false},
		{"Standings xmas-cup?", &StandingsCommand{kw: kw{at(1)}, Keyword: "Standings", Tournament: id(at(11), "xmas-cup")}, false},
		{"tabelle xmas-cup!", &StandingsCommand{kw: kw{at(1)}, Keyword: "tabelle", Tournament: id(at(9), "xmas-cup")}, true},
		{"withdraw cup confirm 3f9k2m7q4d.", &WithdrawCommand{kw: kw{at(1)}, Keyword: "withdraw", Tournament: id(at(10), "cup"),
			Confirm: "confirm", Key: &EntryKey{Pos: at(22), Text: "3f9k2m7q4d"}}, false},
		{"watch new-year-27.", &WatchCommand{kw: kw{at(1)}, Keyword: "watch", Target: &WatchTarget{Pos: at(7), ID: "new-year-27"}}, false},
		{"watch K7QX2M!", &WatchCommand{kw: kw{at(1)}, Keyword: "watch", Target: &WatchTarget{Pos: at(7), ID: "K7QX2M"}}, false},
		{"unwatch xmas-cup.", &UnwatchCommand{kw: kw{at(1)}, Keyword: "unwatch", Target: &WatchTarget{Pos: at(9), ID: "xmas-cup"}}, false},
		{"rating", &RatingCommand{kw: kw{at(1)}, Keyword: "rating"}, false},
		{"Wertung brandubh", &RatingCommand{kw: kw{at(1)}, Keyword: "Wertung", Variant: "brandubh"}, true},
		// "rated" ends a time control and may come in any order
		{"new brandubh with a@b.c time 3d/move rated", &NewGameCommand{kw: kw{at(1)}, Keyword: "new", Variant: "brandubh", Opponent: "a@b.c",
			Options: []*NewGameOption{{Pos: at(25), Time: &TimeControlText{Pos: at(30), Text: "3d/move"}}, {Pos: at(38), Rated: "rated"}},
			Time:    &TimeControl{Pos: at(30), Base: dur(at(30), part(at(30), 3, "d")), PerMove: true}, Rated: true}, false},
		{"neu brandubh mit a@b.c gewertet als verteidiger", &NewGameCommand{kw: kw{at(1)}, Keyword: "neu", Variant: "brandubh", Opponent: "a@b.c",
			Options: []*NewGameOption{{Pos: at(24), Rated: "gewertet"}, {Pos: at(33), Side: "verteidiger"}}, Side: "verteidiger", Rated: true}, true},
	}
	for _, tt := range tests {
		got, err := ParseCommand("mail", 3, tt.in)
		if err != nil {
			t.Errorf("ParseCommand(%q) error: %v", tt.in, err)
			continue
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

func TestParseTournamentCommandErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"join", `mail:5:5: expected a tournament's id such as winter-2027, found end of input`},
		{"withdraw cup confirm", `mail:5:21: expected the key of your entry, found end of input`},
		{"join cup confirm", `mail:5:17: expected the key of your entry, found end of input`},
		{"new brandubh with a@b.c rated rated", `mail:5:31: rated is given twice`},
		{"standings", `mail:5:10: expected a tournament's id such as winter-2027, found end of input`},
	}
	for _, tt := range tests {
		_, err := ParseCommand("mail", 5, tt.in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("ParseCommand(%q) error = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestTournamentProse: the tournament keywords are everyday words, so a
// line that starts with one is a command only in a command's shape.
func TestTournamentProse(t *testing.T) {
	for line, want := range map[string]bool{
		"tournaments":                        true,
		"Tournaments are fun":                false,
		"join cup":                           true,
		"join cup confirm 3f9k2m7q4d":        true,
		"join the club today":                false,
		"Join us for dinner":                 false,
		"withdraw cup":                       true,
		"withdraw cup confirm k":             true,
		"Withdraw your offer, please":        false,
		"standings cup":                      true,
		"Standings look good":                false,
		"standings":                          true, // answered: it needs an id
		"Tabelle":                            true,
		"rating":                             true,
		"rating brandubh":                    true,
		"Rating systems are a science":       false,
		"Tabelle cup":                        true,
		"Wertung ist mir egal, ehrlich":      false,
		"anmelden":                           false,
		"abmelden winter bestätigen abc1234": true,
	} {
		if got := IsCommandLine(line); got != want {
			t.Errorf("IsCommandLine(%q) = %v, want %v", line, got, want)
		}
	}
}
