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
			&NewGameCommand{kw: kw{at(1)}, Keyword: "new", Variant: "copenhagen", Opponent: "bob@example.org",
				Options: []*NewGameOption{{Pos: at(37), Side: "defenders"}}, Side: "defenders"}, false},
		{"NEU brandubh mit <x@y.de> als Angreifer",
			&NewGameCommand{kw: kw{at(1)}, Keyword: "NEU", Variant: "brandubh", Opponent: "<x@y.de>",
				Options: []*NewGameOption{{Pos: at(27), Side: "Angreifer"}}, Side: "Angreifer"}, true},
		// the time control: "time 30d+1d" starts at column 37, its text
		// at 42 ("new copenhagen with bob@example.org " is 36 characters)
		{"new copenhagen with bob@example.org time 30d+1d as defenders",
			&NewGameCommand{kw: kw{at(1)}, Keyword: "new", Variant: "copenhagen", Opponent: "bob@example.org",
				Options: []*NewGameOption{{Pos: at(37), Time: &TimeControlText{Pos: at(42), Text: "30d+1d"}}, {Pos: at(49), Side: "defenders"}},
				Side:    "defenders",
				Time: &TimeControl{Pos: at(42), Base: dur(at(42), part(at(42), 30, "d")),
					Increment: dur(at(46), part(at(46), 1, "d"))}}, false},
		{"neu tablut mit x@y.de als verteidiger ZEIT 3d/move  ICCF",
			&NewGameCommand{kw: kw{at(1)}, Keyword: "neu", Variant: "tablut", Opponent: "x@y.de",
				Options: []*NewGameOption{{Pos: at(23), Side: "verteidiger"}, {Pos: at(39), Time: &TimeControlText{Pos: at(44), Text: "3d/move  ICCF"}}},
				Side:    "verteidiger",
				Time:    &TimeControl{Pos: at(44), Base: dur(at(44), part(at(44), 3, "d")), PerMove: true, ICCF: true}}, true},
		{"new brandubh with a@b.c time 10d+2d max 20d",
			&NewGameCommand{kw: kw{at(1)}, Keyword: "new", Variant: "brandubh", Opponent: "a@b.c",
				Options: []*NewGameOption{{Pos: at(25), Time: &TimeControlText{Pos: at(30), Text: "10d+2d max 20d"}}},
				Time: &TimeControl{Pos: at(30), Base: dur(at(30), part(at(30), 10, "d")),
					Increment: dur(at(34), part(at(34), 2, "d")), Cap: dur(at(41), part(at(41), 20, "d"))}}, false},
		{"new tablut against carol@example.org",
			&NewGameCommand{kw: kw{at(1)}, Keyword: "new", Variant: "tablut", Opponent: "carol@example.org"}, false},
		// the engine: "new brandubh with engine " is 25 characters
		{"new brandubh with engine",
			&NewGameCommand{kw: kw{at(1)}, Keyword: "new", Variant: "brandubh", Opponent: "engine", Engine: true}, false},
		{"new brandubh with Engine level 3 as defenders",
			&NewGameCommand{kw: kw{at(1)}, Keyword: "new", Variant: "brandubh", Opponent: "Engine", Engine: true,
				Options: []*NewGameOption{{Pos: at(26), Level: "3"}, {Pos: at(34), Side: "defenders"}}, Side: "defenders", Level: 3}, false},
		{"neu tablut gegen computer zeit 3d/move stufe 5",
			&NewGameCommand{kw: kw{at(1)}, Keyword: "neu", Variant: "tablut", Opponent: "computer", Engine: true,
				Options: []*NewGameOption{{Pos: at(27), Time: &TimeControlText{Pos: at(32), Text: "3d/move"}}, {Pos: at(40), Level: "5"}},
				Time:    &TimeControl{Pos: at(32), Base: dur(at(32), part(at(32), 3, "d")), PerMove: true}, Level: 5}, true},
		// a level with a person's address: the referee refuses it
		{"new tablut with a@b.c level 0",
			&NewGameCommand{kw: kw{at(1)}, Keyword: "new", Variant: "tablut", Opponent: "a@b.c",
				Options: []*NewGameOption{{Pos: at(23), Level: "0"}}}, false},
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
		{"clock", &ClockCommand{kw: kw{at(1)}, Keyword: "clock"}, false},
		{"Uhr", &ClockCommand{kw: kw{at(1)}, Keyword: "Uhr"}, true},
		{"leave", &LeaveCommand{kw: kw{at(1)}, Keyword: "leave"}, false},
		{"leave 2026-12-24 to 2027-01-02", &LeaveCommand{kw: kw{at(1)}, Keyword: "leave",
			Dates: &LeaveDatesText{Pos: at(7), Text: "2026-12-24 to 2027-01-02"},
			First: &LeaveDay{Pos: at(7), Text: "2026-12-24", Year: 2026, Month: 12, Day: 24},
			Last:  &LeaveDay{Pos: at(21), Text: "2027-01-02", Year: 2027, Month: 1, Day: 2}}, false},
		{"Urlaub 2027-02-28 bis 2027-03-01", &LeaveCommand{kw: kw{at(1)}, Keyword: "Urlaub",
			Dates: &LeaveDatesText{Pos: at(8), Text: "2027-02-28 bis 2027-03-01"},
			First: &LeaveDay{Pos: at(8), Text: "2027-02-28", Year: 2027, Month: 2, Day: 28},
			Last:  &LeaveDay{Pos: at(23), Text: "2027-03-01", Year: 2027, Month: 3, Day: 1}}, true},
		{"leave 2028-02-29", &LeaveCommand{kw: kw{at(1)}, Keyword: "leave",
			Dates: &LeaveDatesText{Pos: at(7), Text: "2028-02-29"},
			First: &LeaveDay{Pos: at(7), Text: "2028-02-29", Year: 2028, Month: 2, Day: 29}}, false},
		// issue 22 §1: dates as people write them; "–" is one column
		{"urlaub 24.12.–2.1.", &LeaveCommand{kw: kw{at(1)}, Keyword: "urlaub",
			Dates: &LeaveDatesText{Pos: at(8), Text: "24.12.–2.1."},
			First: &LeaveDay{Pos: at(8), Text: "24.12.", Month: 12, Day: 24},
			Last:  &LeaveDay{Pos: lexer.Position{Filename: "mail", Line: 4, Column: 15, Offset: 16}, Text: "2.1.", Month: 1, Day: 2}}, true},
		{"leave Dec 24 to Jan 2  ", &LeaveCommand{kw: kw{at(1)}, Keyword: "leave",
			Dates: &LeaveDatesText{Pos: at(7), Text: "Dec 24 to Jan 2"},
			First: &LeaveDay{Pos: at(7), Text: "Dec 24", Month: 12, Day: 24},
			Last:  &LeaveDay{Pos: at(17), Text: "Jan 2", Month: 1, Day: 2}}, false},
		{"leave 12/11/2026", &LeaveCommand{kw: kw{at(1)}, Keyword: "leave",
			Dates: &LeaveDatesText{Pos: at(7), Text: "12/11/2026"},
			First: &LeaveDay{Pos: at(7), Text: "12/11/2026", Year: 2026, Month: 11, Day: 12, Either: true}}, false},
		{"cancel leave", &CancelLeaveCommand{kw: kw{at(1)}, Keyword: "cancel"}, false},
		{"urlaub abbrechen", &CancelLeaveCommand{kw: kw{at(1)}, Keyword: "urlaub"}, true},
		{"d1-d3", &MoveCommand{Pos: at(1), Text: "d1-d3", Ply: ply("d1-d3")}, false},
		{"12. d1-d3", &MoveCommand{Pos: at(1), Number: 12, Dots: ".", Text: "d1-d3", Ply: ply("d1-d3")}, false},
		{"12... h6-h9", &MoveCommand{Pos: at(1), Number: 12, Dots: "...", Text: "h6-h9", Ply: ply("h6-h9")}, false},
		{"Kf6-c6xe5", &MoveCommand{Pos: at(1), Text: "Kf6-c6xe5", Ply: ply("Kf6-c6xe5")}, false},
		{"E7-E6xF6++", &MoveCommand{Pos: at(1), Text: "E7-E6xF6++", Ply: ply("E7-E6xF6++")}, false},
		// issue 12
		{"watch K7QX2M", &WatchCommand{kw: kw{at(1)}, Keyword: "watch", Target: &WatchTarget{Pos: at(7), ID: "K7QX2M"}}, false},
		{"zuschauen 1s1d9j Ergebnis", &WatchCommand{kw: kw{at(1)}, Keyword: "zuschauen", Target: &WatchTarget{Pos: at(11), ID: "1s1d9j"}, Results: "Ergebnis"}, true},
		{"watch 12345A results", &WatchCommand{kw: kw{at(1)}, Keyword: "watch", Target: &WatchTarget{Pos: at(7), ID: "12345A"}, Results: "results"}, false},
		{"unwatch K7QX2M", &UnwatchCommand{kw: kw{at(1)}, Keyword: "unwatch", Target: &WatchTarget{Pos: at(9), ID: "K7QX2M"}}, false},
		{"unwatch", &UnwatchCommand{kw: kw{at(1)}, Keyword: "unwatch"}, false},
		{"Zuschauen beenden K7QX2M", &UnwatchCommand{kw: kw{at(1)}, Keyword: "Zuschauen", Target: &WatchTarget{Pos: at(19), ID: "K7QX2M"}}, true},
		// issue 18: confirmations, block
		{"watch K7QX2M confirm 3f9k2m7q4d", &WatchCommand{kw: kw{at(1)}, Keyword: "watch", Target: &WatchTarget{Pos: at(7), ID: "K7QX2M"},
			Confirm: "confirm", Key: &ConfirmKey{Pos: at(22), Text: "3f9k2m7q4d"}}, false},
		{"zuschauen cup-27 Bestätigen x234j270q3", &WatchCommand{kw: kw{at(1)}, Keyword: "zuschauen", Target: &WatchTarget{Pos: at(11), ID: "cup-27"},
			Confirm: "Bestätigen", Key: &ConfirmKey{Pos: lexer.Position{Filename: "mail", Line: 4, Column: 29, Offset: 29}, Text: "x234j270q3"}}, true},
		{"notify confirm 3f9k2m7q4d", &NotifyCommand{kw: kw{at(1)}, Keyword: "notify", Confirm: "confirm",
			Key: &ConfirmKey{Pos: at(16), Text: "3f9k2m7q4d"}}, false},
		{"benachrichtigung bestaetigen k", &NotifyCommand{kw: kw{at(1)}, Keyword: "benachrichtigung", Confirm: "bestaetigen",
			Key: &ConfirmKey{Pos: at(30), Text: "k"}}, true},
		{"block", &BlockCommand{kw: kw{at(1)}, Keyword: "block"}, false},
		{"Sperren", &BlockCommand{kw: kw{at(1)}, Keyword: "Sperren"}, true},
		{"unblock", &UnblockCommand{kw: kw{at(1)}, Keyword: "unblock"}, false},
		{"entsperren bestätigen 3f9k2m7q4d", &UnblockCommand{kw: kw{at(1)}, Keyword: "entsperren", Confirm: "bestätigen",
			Key: &ConfirmKey{Pos: lexer.Position{Filename: "mail", Line: 4, Column: 23, Offset: 23}, Text: "3f9k2m7q4d"}}, true},
		{"private", &PrivateCommand{kw: kw{at(1)}, Keyword: "private"}, false},
		{"privat", &PrivateCommand{kw: kw{at(1)}, Keyword: "privat"}, true},
		{"public", &PublicCommand{kw: kw{at(1)}, Keyword: "public"}, false},
		{"Öffentlich", &PublicCommand{kw: kw{at(1)}, Keyword: "Öffentlich"}, true},
		{"messages off", &MessagesCommand{kw: kw{at(1)}, Keyword: "messages", Setting: "off"}, false},
		{"Nachrichten aus", &MessagesCommand{kw: kw{at(1)}, Keyword: "Nachrichten", Setting: "aus"}, true},
		{"if h6-h9 then h3-h4", &ConditionalCommand{kw: kw{at(1)}, Keyword: "if", Pairs: []*ConditionPair{
			{If: &ConditionMove{Pos: at(4), Text: "h6-h9"}, Then: &ConditionMove{Pos: at(15), Text: "h3-h4"}}}}, false},
		{"WENN h6-h9 DANN h3-h4 wenn c5-c6 dann d4-d5xd6", &ConditionalCommand{kw: kw{at(1)}, Keyword: "WENN", Pairs: []*ConditionPair{
			{If: &ConditionMove{Pos: at(6), Text: "h6-h9"}, Then: &ConditionMove{Pos: at(17), Text: "h3-h4"}},
			{If: &ConditionMove{Pos: at(28), Text: "c5-c6"}, Then: &ConditionMove{Pos: at(39), Text: "d4-d5xd6"}}}}, true},
		{"conditions", &ConditionsCommand{kw: kw{at(1)}, Keyword: "conditions"}, false},
		{"bedingungen", &ConditionsCommand{kw: kw{at(1)}, Keyword: "bedingungen"}, true},
		{"cancel conditions", &CancelConditionsCommand{kw: kw{at(1)}, Keyword: "cancel"}, false},
		{"Bedingungen löschen", &CancelConditionsCommand{kw: kw{at(1)}, Keyword: "Bedingungen"}, true},
		{"cancel challenge", &CancelChallengeCommand{kw: kw{at(1)}, Keyword: "cancel"}, false},
		{"Herausforderung zurückziehen", &CancelChallengeCommand{kw: kw{at(1)}, Keyword: "Herausforderung"}, true},
		{"herausforderung zurueckziehen", &CancelChallengeCommand{kw: kw{at(1)}, Keyword: "herausforderung"}, true},
		{"takeback", &TakebackCommand{kw: kw{at(1)}, Keyword: "takeback"}, false},
		{"zurücknehmen", &TakebackCommand{kw: kw{at(1)}, Keyword: "zurücknehmen"}, true},
		{"accept takeback", &AcceptTakebackCommand{kw: kw{at(1)}, Keyword: "accept"}, false},
		{"Rücknahme annehmen", &AcceptTakebackCommand{kw: kw{at(1)}, Keyword: "Rücknahme"}, true},
		{"decline takeback", &DeclineTakebackCommand{kw: kw{at(1)}, Keyword: "decline"}, false},
		{"ruecknahme ablehnen", &DeclineTakebackCommand{kw: kw{at(1)}, Keyword: "ruecknahme"}, true},
		{"notify", &NotifyCommand{kw: kw{at(1)}, Keyword: "notify"}, false},
		{"notify each", &NotifyCommand{kw: kw{at(1)}, Keyword: "notify", Each: "each"}, false},
		{"Benachrichtigung einzeln", &NotifyCommand{kw: kw{at(1)}, Keyword: "Benachrichtigung", Each: "einzeln"}, true},
		{"notify digest", &NotifyCommand{kw: kw{at(1)}, Keyword: "notify", Digest: "digest"}, false},
		{"notify digest 07:00", &NotifyCommand{kw: kw{at(1)}, Keyword: "notify", Digest: "digest",
			At: &TimeOfDay{Pos: at(15), Text: "07:00", Hour: 7}}, false},
		{"notify daily at 7:30 UTC", &NotifyCommand{kw: kw{at(1)}, Keyword: "notify", Digest: "daily",
			At: &TimeOfDay{Pos: at(17), Text: "7:30", Hour: 7, Minute: 30}, Zone: &TimeZone{Pos: at(22), Text: "UTC"}}, false},
		{"notify digest 07:30 Europe/Berlin", &NotifyCommand{kw: kw{at(1)}, Keyword: "notify", Digest: "digest",
			At: &TimeOfDay{Pos: at(15), Text: "07:30", Hour: 7, Minute: 30}, Zone: &TimeZone{Pos: at(21), Text: "Europe/Berlin"}}, false},
		{"notify daily at 7:30 America/New_York", &NotifyCommand{kw: kw{at(1)}, Keyword: "notify", Digest: "daily",
			At: &TimeOfDay{Pos: at(17), Text: "7:30", Hour: 7, Minute: 30}, Zone: &TimeZone{Pos: at(22), Text: "America/New_York"}}, false},
		{"notify digest 18:00 Etc/GMT+5", &NotifyCommand{kw: kw{at(1)}, Keyword: "notify", Digest: "digest",
			At: &TimeOfDay{Pos: at(15), Text: "18:00", Hour: 18}, Zone: &TimeZone{Pos: at(21), Text: "Etc/GMT+5"}}, false},
		// the grammar does not know the zones: the referee refuses this one
		{"notify digest 07:00 Mars/Olympus", &NotifyCommand{kw: kw{at(1)}, Keyword: "notify", Digest: "digest",
			At: &TimeOfDay{Pos: at(15), Text: "07:00", Hour: 7}, Zone: &TimeZone{Pos: at(21), Text: "Mars/Olympus"}}, false},
		// "ä" takes two bytes: columns count characters, offsets bytes
		{"benachrichtigung täglich um 7:30 uhr Europe/Berlin", &NotifyCommand{kw: kw{at(1)}, Keyword: "benachrichtigung", Digest: "täglich",
			At: &TimeOfDay{Pos: lexer.Position{Filename: "mail", Line: 4, Column: 29, Offset: 29}, Text: "7:30", Hour: 7, Minute: 30}, Uhr: "uhr",
			Zone: &TimeZone{Pos: lexer.Position{Filename: "mail", Line: 4, Column: 38, Offset: 38}, Text: "Europe/Berlin"}}, true},
		{"benachrichtigung taeglich 6:15 Uhr UTC", &NotifyCommand{kw: kw{at(1)}, Keyword: "benachrichtigung", Digest: "taeglich",
			At: &TimeOfDay{Pos: at(27), Text: "6:15", Hour: 6, Minute: 15}, Uhr: "Uhr", Zone: &TimeZone{Pos: at(36), Text: "UTC"}}, true},
		{"benachrichtigung TAEGLICH um 23:59 Uhr", &NotifyCommand{kw: kw{at(1)}, Keyword: "benachrichtigung", Digest: "TAEGLICH",
			At: &TimeOfDay{Pos: at(30), Text: "23:59", Hour: 23, Minute: 59}, Uhr: "Uhr"}, true},
		// outside trial §9: a whole hour before "Uhr", a city in words
		{"benachrichtigung täglich um 8 Uhr", &NotifyCommand{kw: kw{at(1)}, Keyword: "benachrichtigung", Digest: "täglich",
			At: &TimeOfDay{Pos: lexer.Position{Filename: "mail", Line: 4, Column: 29, Offset: 29}, Text: "8", Hour: 8}, Uhr: "Uhr"}, true},
		{"notify digest 07:30 New York", &NotifyCommand{kw: kw{at(1)}, Keyword: "notify", Digest: "digest",
			At: &TimeOfDay{Pos: at(15), Text: "07:30", Hour: 7, Minute: 30}, Zone: &TimeZone{Pos: at(21), Text: "New York"}}, false},
		{"Benachrichtigung Täglich", &NotifyCommand{kw: kw{at(1)}, Keyword: "Benachrichtigung", Digest: "Täglich"}, true},
		{"benachrichtigung taeglich 0:00", &NotifyCommand{kw: kw{at(1)}, Keyword: "benachrichtigung", Digest: "taeglich",
			At: &TimeOfDay{Pos: at(27), Text: "0:00"}}, true},
	}
	for _, tt := range tests {
		got, err := ParseCommand("mail", 4, tt.in)
		if err != nil {
			t.Errorf("ParseCommand(%q) error: %v", tt.in, err)
			continue
		}
		if c, ok := got.(*ConditionalCommand); ok {
			// the moves' syntax trees have their own positions: compare
			// them by their text
			for _, p := range c.Pairs {
				for _, m := range []*ConditionMove{p.If, p.Then} {
					if m.Move == nil || !strings.EqualFold(m.Move.String(), m.Text) {
						t.Errorf("ParseCommand(%q): move %q parsed as %v", tt.in, m.Text, m.Move)
					}
					m.Move = nil
				}
			}
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
		{"d1 d3", `mail:7:3: expected "-", found white space`},
		{"  d1 d3", `mail:7:5: expected "-", found white space`},
		{"d6 - d9", `mail:7:3: expected "-", found white space`},
		{"d1 -e1", `mail:7:3: expected "-", found white space`},
		{"d1", `mail:7:3: expected "-", found end of input`},
		{"accept please", `mail:7:8: expected end of line, found "please"`},
		{"foo", `mail:7:1: expected a command (see help) or a move such as d1-d3, found "foo"`},
		{"12. ", `mail:7:5: expected a move such as d1-d3, found end of input`},
		{"12. d1-d3x", ``},
		{"new copenhagen", `mail:7:15: expected "with" or "mit" or "gegen" or "against" or "vs", found end of input`},
		{"new copenhagen with bob", `mail:7:21: expected a mail address or "engine" or "computer", found "bob"`},
		// the engine's level
		{"new brandubh with engine level", `mail:7:31: expected number, found end of input`},
		{"new brandubh with engine level three", `mail:7:32: expected number, found "three"`},
		{"new brandubh with engine level 2 stufe 3", `mail:7:34: the level is given twice`},
		{"new brandubh with engine level 99999999999999999999", `mail:7:26: number "99999999999999999999" is too large`},
		{"d1-d3 h6-h9", `mail:7:7: expected end of line, found "h6-h9"`},
		{"5. z1-d3", `mail:7:4: expected file a to s, found "z"`},
		{"board\x00", `mail:7:6: control character U+0000 not allowed`},
		// time controls: errors point into the clause
		{"new copenhagen with a@b.c time", `mail:7:31: expected a time control such as 30d+1d, found end of input`},
		{"new copenhagen with a@b.c time 30x", `mail:7:34: expected a unit "d", "h" or "m", found "x"`},
		{"new copenhagen with a@b.c time 30d as defenders", `mail:7:35: expected "/" or "+", found end of input`},
		{"new copenhagen with a@b.c time 3d/move max 5d", `mail:7:40: max goes only with an increment (<base>+<inc> max <cap>), not with <t>/move`},
		{"new copenhagen with a@b.c time 1d+1d time 2d+1d", `mail:7:38: the time control is given twice`},
		{"new copenhagen with a@b.c as attackers als verteidiger", `mail:7:40: the side is given twice`},
		// leave: dates that cannot be read (which are days of the
		// calendar is the referee's question: clock.LeaveSpan)
		{"urlaub 24.12.2026 bitte", `mail:7:19: expected "-" or "to" or "bis" or end of line, found "bitte"`},
		{"leave 2026-12-24 to", `mail:7:20: expected a date such as 24.12.2026, 24.12., 2026-12-24 or Dec 24, found end of line`},
		{"leave Dec", `mail:7:10: expected a date such as 24.12.2026, 24.12., 2026-12-24 or Dec 24, found end of line`},
		{"leave 24 Foo", `mail:7:10: expected "-" or "to" or "bis" or end of line, found "Foo"`},
		{"urlaub vom morgen", `mail:7:12: expected a date such as 24.12.2026, 24.12., 2026-12-24 or Dec 24, found "morgen"`},
		{"leave 2026/12", `mail:7:7: expected a date such as 24.12.2026, 24.12., 2026-12-24 or Dec 24, found "2026/12"`},
		{"leave 24.12.–2.1.–3.1.", `mail:7:18: a leave has one first and one last day (a line for each leave)`},
		{"leave 99999999999999999999.1.", `mail:7:7: number "99999999999999999999" is too large`},
		{"leave 24.12. → 2.1.", `mail:7:14: expected "-" or "to" or "bis" or end of line, found "→"`},
		{"cancel", `mail:7:7: expected "challenge" or "leave" or "urlaub" or "conditions", found end of input`}, // trial 2 report §5
		{"clock please", `mail:7:7: expected end of line, found "please"`},
		// issue 12
		{"watch K7QX2M/", `mail:7:7: expected a game id such as K7QX2M, found "K7QX2M/"`}, // "watch K7QX2M." is a sentence's end (TestParseTournamentCommands)
		{"zuschauen beenden x+1", `mail:7:20: expected end of line, found "+"`},
		// issue 18
		{"watch K7QX2M confirm", `mail:7:21: expected the key I mailed you, found end of input`},
		{"notify confirm k 07:00", `mail:7:18: a time of day goes only with "digest" or "täglich"`},
		{"unblock confirm", `mail:7:16: expected the key I mailed you, found end of input`},
		{"block it", `mail:7:7: expected end of line, found "it"`},
		{"if h6-h9 then", `mail:7:14: expected a move such as d1-d3, found end of input`},
		{"if h6-h9 h3-h4", `mail:7:10: expected "then" or "dann", found "h3-h4"`},
		{"if d1-d33 then a1-a2", `mail:7:8: expected rank 1 to 19, found "33"`},
		{"wenn h6-h9 dann h3–h4", `mail:7:19: unexpected character '–'`},
		{"if h6-h9 then h3-h4 if c5-c6", `mail:7:29: expected "then" or "dann", found end of input`},
		{"messages maybe", `mail:7:10: expected "on" or "off" or "an" or "aus" or "ein", found "maybe"`},
		{"private please", `mail:7:9: expected end of line, found "please"`},
		{"accept takeback now", `mail:7:17: expected end of line, found "now"`},
		// notify: malformed times
		{"notify digest 25:00", `mail:7:15: 25:00 is not a time of day`},
		{"notify digest 07:60", `mail:7:15: 07:60 is not a time of day`},
		{"notify digest 7pm", `mail:7:15: expected a time as HH:MM such as 07:00, found "7pm"`},
		{"benachrichtigung täglich 7.30", `mail:7:26: expected a time as HH:MM such as 07:00, found "7.30"`},
		{"notify digest 0700", `mail:7:15: expected a time as HH:MM such as 07:00, found "0700"`},
		{"notify digest at", `mail:7:17: expected a time as HH:MM such as 07:00, found end of input`},
		{"notify digest 07:00 Europe/Berlin please", `mail:7:35: expected end of line, found "please"`},
		{"notify digest 07:00 UTC Uhr", `mail:7:25: expected end of line, found "Uhr"`},
		{"notify digest 8", `mail:7:15: expected a time as HH:MM such as 07:00, found "8"`}, // a whole hour only before "Uhr"
		{"notify digest 25 uhr", `mail:7:15: 25 is not a time of day`},
		{"notify digest 07:30 Europe/Berlin please", `mail:7:35: expected end of line, found "please"`},
		{"notify digest Europe/Berlin", `mail:7:15: expected a time as HH:MM such as 07:00, found "Europe/Berlin"`},
		{"notify each 07:00 Europe/Berlin", `mail:7:13: a time of day goes only with "digest" or "täglich"`},
		{"notify each 07:00", `mail:7:13: a time of day goes only with "digest" or "täglich"`},
		{"notify 19:00", `mail:7:8: a time of day goes only with "digest" or "täglich"`},
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
		"1 . d1-e1":                 true,
		"1 ... h6-h9":               true,
		"7 . . . t":                 false,
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
		// everyday words that are commands only in a command's shape
		"clock":                true,
		"Uhr":                  true,
		"Clock is ticking":     false,
		"Uhr geht vor":         false,
		"leave":                true,
		"Leave it to me":       false,
		"leave 2026-12-24":     true,
		"leave 24.12. to 2.1.": true,
		// issue 22 §1: a month name or "from"/"vom" before a date
		"leave Dec 24":               true,
		"Urlaub Dez. 24 bis Jan 2":   true,
		"urlaub vom 24.12. bis 2.1.": true,
		"leave from 24 Dec to 2 Jan": true,
		"leave from Dec 24":          true,
		"Leave May be better":        false,
		"Leave from 3 on is fine":    false,
		"leave from here":            false,
		"Urlaub von Anfang an":       false,
		"Leave March to me":          false,
		"Urlaub ab morgen":           false,
		"urlaub abbrechen":           true,
		"cancel leave":               true,
		"Cancel that":                false,
		// issue 12: everyday words are commands only in a command's shape
		"If you like, a rematch":    false,
		"if d4 is free, play there": true, // shaped like a condition: answered, not ignored
		"Watch out for the king!":   false,
		"watch this":                false,
		"watch K7QX2M":              true,
		"watch autumn2026":          true,
		"unwatch":                   true,
		"unwatch it please":         false,
		"zuschauen beenden":         true,
		"Private matter, sorry.":    false,
		"private":                   true,
		"Public holiday tomorrow":   false,
		"Messages are welcome":      false,
		"messages off":              true,
		"Nachrichten aus":           true,
		"Conditions are bad here":   false,
		"conditions":                true,
		"bedingungen löschen":       true,
		"Cancel my subscription":    false,
		"cancel conditions":         true,
		"Takeback? No way.":         false,
		"takeback":                  true,
		"Rücknahme annehmen":        true,
		"Rücknahme ist unfair":      false,
		"wenn h6-h9 dann h3-h4":     true,
		"Wenn du willst":            false,
		"notify":                    true,
		"Notify digest 07:00":       true,
		"notify 7:00":               true, // a time without its mode: answered
		"Benachrichtigung täglich":  true,
		"Notify me when it starts":  false,
		"Benachrichtigung erhalten": false,
		// issue 18
		"watch K7QX2M confirm 3f9k2m7q4d": true,
		"notify confirm 3f9k2m7q4d":       true,
		"block":                           true,
		"Block the corner!":               false,
		"sperren":                         true,
		"Sperren ist verboten":            false,
		"unblock":                         true,
		"unblock confirm 3f9k2m7q4d":      true,
		"Unblock the drain":               false,
		"entsperren bestätigen k":         true,
		// trial report §6
		"cancel challenge":             true,
		"Cancel the challenge?":        false,
		"Herausforderung zurückziehen": true,
		"Herausforderung angenommen!":  false,
	} {
		if got := IsCommandLine(line); got != want {
			t.Errorf("IsCommandLine(%q) = %v, want %v", line, got, want)
		}
	}
}

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"new copenhagen with a@b.c as defenders", "12. d1-d3", "12... Kf6-c6xe5/e7++",
		"remis annehmen", "hilfe", "d1 d3", "accept draw", "language de", "x", "\xff", "1..", "<@>",
		"new copenhagen with a@b.c time 10d+2d max 20d iccf as defenders", "neu tablut mit x@y.de zeit 3d/move als verteidiger",
		"clock", "uhr", "leave", "leave 2026-12-24 to 2027-01-02", "urlaub 2026-12-24 bis 2027-13-02", "cancel leave",
		"urlaub abbrechen", "leave 2026-12-24",
		"urlaub 24.12.–2.1.", "leave Dec 24 to Jan 2", "urlaub vom 24.12. bis zum 2.1.2027", "leave 12/11", "leave 24.–31.12.",
		"leave 24th of December, 2026 until January 2nd", "urlaub 24.12.2026 bitte", "leave from 24.12.",
		"watch K7QX2M results", "zuschauen beenden 1S1D9J", "if h6-h9 then h3-h4 if c5-c6 then d4-d5", "nachrichten aus",
		"tournaments", "join winter-2027", "withdraw cup confirm 3f9k2m7q4d",
		"abmelden 2027-cup bestätigen k", "standings cup", "wertung brandubh", "new brandubh with a@b.c time 3d/move rated"} {
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

// playersSeeds are lines of the commands of issue 12, right and wrong.
var playersSeeds = []string{
	"wAtCh 0_", "unwatch cup-27",
	"watch K7QX2M", "watch 1s1d9j results", "zuschauen K7QX2M ergebnis", "unwatch", "unwatch K7QX2M",
	"zuschauen beenden K7QX2M", "zuschauen beenden", "watch K7QX2M.", "watch 12 34",
	"private", "privat", "public", "öffentlich", "messages off", "nachrichten an", "messages maybe",
	"if h6-h9 then h3-h4", "wenn h6-h9 dann h3-h4xh5 wenn c5-c6 dann Kd4-d5", "if h6-h9 then", "if d1-d33 then a1",
	"conditions", "cancel conditions", "bedingungen löschen", "takeback", "zurücknehmen",
	"accept takeback", "rücknahme ablehnen", "If you like", "Watch out!",
	"notify", "notify each", "notify digest 07:00", "benachrichtigung täglich um 7:30 uhr", "notify digest 25:61",
	"notify daily at", "notify each 07:00", "notify digest 07:30 Europe/Berlin", "notify daily at 7:30 America/New_York utc",
	"benachrichtigung täglich um 7:30 uhr Europe/Berlin",
	"watch K7QX2M confirm 3f9k2m7q4d", "zuschauen cup-27 results bestätigen k", "notify confirm k", "notify confirm",
	"block", "sperren", "unblock", "unblock confirm k", "entsperren bestaetigen",
}

// FuzzPlayersCommand fuzzes the commands of issue 12 (watch, unwatch,
// private, public, messages, conditional moves, takebacks, notify): ParseCommand
// returns a *Error inside the line or a command whose nested positions
// are on the line and inside it; a watch target is letters and digits; a
// conditional command has its moves parsed, each one's text a move that
// reads back the same; IsCommandLine never panics and accepts every line
// that starts with a keyword of a command it parsed, except the everyday
// words outside their shape.
// targetShaped reports whether a watch target is a game id or a
// tournament id: a letter or digit, then letters, digits, "-" and "_".
func targetShaped(id string) bool { return id != "" && alphanumeric(id[:1]) && idPunct(id) }

func FuzzPlayersCommand(f *testing.F) {
	for _, s := range playersSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		isCmd := IsCommandLine(s)
		cmd, err := ParseCommand("mail", 5, s)
		if err != nil {
			e, ok := err.(*Error)
			if !ok {
				t.Fatalf("error %T %v, want *Error", err, err)
			}
			if strings.Contains(e.Message, "internal error") {
				t.Fatalf("ParseCommand(%q) panicked: %v", s, e)
			}
			if e.Line != 5 || e.Col < 1 || e.Col > utf8.RuneCountInString(s)+1 && utf8.ValidString(s) {
				t.Fatalf("ParseCommand(%q) error position %d:%d outside the line: %v", s, e.Line, e.Col, e)
			}
			return
		}
		inside := func(what string, p lexer.Position) {
			if p.Line != 5 || p.Column < 1 || p.Offset < 0 || p.Offset >= len(s) {
				t.Fatalf("ParseCommand(%q): %s at %v, outside the line", s, what, p)
			}
		}
		inside("the command", cmd.Position())
		switch c := cmd.(type) {
		case *WatchCommand:
			inside("the target", c.Target.Pos)
			if !targetShaped(c.Target.ID) || !strings.HasPrefix(s[c.Target.Pos.Offset:], c.Target.ID) {
				t.Fatalf("ParseCommand(%q): watch target %q at %v", s, c.Target.ID, c.Target.Pos)
			}
			if (c.Confirm == "") != (c.Key == nil) {
				t.Fatalf("ParseCommand(%q): confirm %q with key %v", s, c.Confirm, c.Key)
			}
			if c.Key != nil {
				inside("the key", c.Key.Pos)
				if c.Key.Pos.Offset <= c.Target.Pos.Offset || !strings.HasPrefix(s[c.Key.Pos.Offset:], c.Key.Text) {
					t.Fatalf("ParseCommand(%q): key %q at %v", s, c.Key.Text, c.Key.Pos)
				}
			}
		case *UnwatchCommand:
			if c.Target != nil && (!targetShaped(c.Target.ID) || !strings.HasPrefix(s[c.Target.Pos.Offset:], c.Target.ID)) {
				t.Fatalf("ParseCommand(%q): unwatch target %q at %v", s, c.Target.ID, c.Target.Pos)
			}
		case *ConditionalCommand:
			if len(c.Pairs) == 0 {
				t.Fatalf("ParseCommand(%q): a condition without pairs", s)
			}
			for _, p := range c.Pairs {
				for _, m := range []*ConditionMove{p.If, p.Then} {
					inside("a move", m.Pos)
					if m.Move == nil || !strings.HasPrefix(s[m.Pos.Offset:], m.Text) {
						t.Fatalf("ParseCommand(%q): move %q at %v, tree %v", s, m.Text, m.Pos, m.Move)
					}
					again, err := ParseMove("again", []byte(m.Move.String()))
					if err != nil || again.String() != m.Move.String() {
						t.Fatalf("ParseCommand(%q): move %q prints as %q, which reads back as %v, %v", s, m.Text, m.Move.String(), again, err)
					}
				}
			}
		case *NotifyCommand:
			if c.Key != nil && (c.Confirm == "" || c.Each != "" || c.Digest != "" || !strings.HasPrefix(s[c.Key.Pos.Offset:], c.Key.Text)) {
				t.Fatalf("ParseCommand(%q) = %+v, key %+v", s, c, c.Key)
			}
			if c.Each != "" && c.Digest != "" || c.At != nil && (c.Digest == "" || c.At.Hour > 23 || c.At.Minute > 59) {
				t.Fatalf("ParseCommand(%q) = %+v, time %+v", s, c, c.At)
			}
			if c.At != nil {
				inside("the time", c.At.Pos)
				if !strings.HasPrefix(s[c.At.Pos.Offset:], c.At.Text) {
					t.Fatalf("ParseCommand(%q): time %q at %v", s, c.At.Text, c.At.Pos)
				}
			}
			if c.Zone != nil {
				inside("the zone", c.Zone.Pos)
				if c.At == nil || c.Zone.Text == "" || strings.ContainsAny(c.Zone.Text, " \t") ||
					c.Zone.Pos.Offset <= c.At.Pos.Offset || !strings.HasPrefix(s[c.Zone.Pos.Offset:], c.Zone.Text) {
					t.Fatalf("ParseCommand(%q): zone %q at %v after time %+v", s, c.Zone.Text, c.Zone.Pos, c.At)
				}
			}
		case *MessagesCommand:
			if c.On() == strings.EqualFold(c.Setting, "off") {
				t.Fatalf("ParseCommand(%q): setting %q reads as on=%v", s, c.Setting, c.On())
			}
		}
		if _, move := cmd.(*MoveCommand); !move && !isCmd && !everyday(s) {
			t.Fatalf("ParseCommand(%q) = %T, but IsCommandLine says prose", s, cmd)
		}
	})
}

// everyday reports whether a line starts with one of the everyday words
// that make a command only in a command's shape (playersWordCommand).
func everyday(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return false
	}
	switch strings.ToLower(f[0]) {
	case "watch", "zuschauen", "unwatch", "if", "wenn", "notify", "benachrichtigung",
		"block", "sperren", "unblock", "entsperren":
		return true
	}
	return false
}
