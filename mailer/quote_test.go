package mailer

import "testing"

func TestStripQuoted(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "e7-e5", "e7-e5"},
		{"trailing newlines and spaces", "e7-e5   \n\n\n", "e7-e5"},
		{"crlf and bom", "\uFEFFe7-e5\r\n\r\nthanks\r\n", "e7-e5\n\nthanks"},
		{"blank runs collapse", "a\n\n\n\nb", "a\n\nb"},
		{"top posting with > quote", "e7-e5\n\n> your move\n> board", "e7-e5"},
		{"indented > quote", "e7-e5\n  > quoted", "e7-e5"},
		{"on wrote", "d4\n\nOn Tue, Mar 12, 2024 at 9:00 AM Ref <r@x.test> wrote:\n> old", "d4"},
		{"on wrote without > marks cuts", "d4\n\nOn Tue, 12 Mar 2024, Ref wrote:\nold text\nmore", "d4"},
		{"on wrote wrapped", "d4\nOn Tue, Mar 12, 2024 at 9:00 AM Referee of game 12 <\nr@x.test> wrote:\n> old", "d4"},
		{"on wrote wrapped three", "d4\nOn Tue, Mar 12, 2024 at 9:00 AM\nReferee of game 12\n<r@x.test> wrote:\nold", "d4"},
		{"am schrieb", "d4\n\nAm 12.03.2024 um 09:00 schrieb Ref <r@x.test>:\n> alt", "d4"},
		{"am schrieb name after", "d4\n\nAm Di., 12. März 2024 um 09:00 Uhr schrieb Ref:\nalt ohne Zeichen", "d4"},
		{"am schrieb wrapped", "d4\nAm 12.03.2024 um 09:00 schrieb Referee von Partie 12\n<r@x.test>:\n> alt", "d4"},
		{"french", "d4\n\nLe mar. 12 mars 2024 à 09:00, Ref <r@x.test> a écrit :\n> vieux", "d4"},
		{"loose wrote before quote", "Max wrote:\n> question?\nanswer", "answer"},
		{"loose wrote without quote kept", "I think my opponent wrote:\nnothing", "I think my opponent wrote:\nnothing"},
		{"outlook en", "c1-c4\n\n________________________________\nFrom: Ref <r@x.test>\nSent: Wednesday, March 27, 2024 8:00 AM\nTo: Kim\nSubject: Your move\n\nold", "c1-c4"},
		{"outlook en date", "c1-c4\nFrom: Ref <r@x.test>\nDate: Wed, 27 Mar 2024\nSubject: Your move\nold", "c1-c4"},
		{"outlook de", "b1-b3\n\nVon: Ref <r@x.test>\nGesendet: Donnerstag, 28. März 2024 08:00\nAn: Lena\nBetreff: Dein Zug\n\nalt", "b1-b3"},
		{"outlook bold", "b1-b3\n\n*From:* Ref <r@x.test>\n*Sent:* Thursday\n*To:* Lena\n*Subject:* x\nold", "b1-b3"},
		{"lone from line kept", "From: the left side I attack.\nd4-d8", "From: the left side I attack.\nd4-d8"},
		{"original message", "resign\n\n-----Original Message-----\nFrom: r@x.test\nold", "resign"},
		{"original message spaced", "resign\n----- Original Message -----\nold", "resign"},
		{"ursprüngliche nachricht", "Remis?\n-----Ursprüngliche Nachricht-----\nalt", "Remis?"},
		{"forwarded", "see below\n---------- Forwarded message ---------\nFrom: x", "see below"},
		{"signature", "f6-f2\n\n-- \nPia\nClub", "f6-f2"},
		{"signature no space", "f6-f2\n--\nPia", "f6-f2"},
		{"dashes in text kept", "f6-f2 -- great\n---\nok", "f6-f2 -- great\n---\nok"},
		{"bottom posting", "On 01/04/2024 08:00, Ref wrote:\n> White moved.\n> Your turn.\n\nf6-f2\n\n-- \nPia", "f6-f2"},
		{"inline", "Ref wrote:\n> draw?\n\nNo thanks.\n\n> your move\n\ng7-g8\n\n> reply", "No thanks.\n\ng7-g8"},
		{"sent from my iphone", "i9-i5\n\nSent from my iPhone", "i9-i5"},
		{"sent from galaxy", "i9-i5\nSent from my Samsung Galaxy smartphone.", "i9-i5"},
		{"von meinem iphone", "i9-i5\n\nVon meinem iPhone gesendet", "i9-i5"},
		{"gesendet von meinem", "i9-i5\nGesendet von meinem Huawei", "i9-i5"},
		{"get outlook", "i9-i5\n\nGet Outlook for Android", "i9-i5"},
		{"outlook für ios", "i9-i5\n\nOutlook für iOS herunterladen<https://aka.ms/x>", "i9-i5"},
		{"sent with proton", "i9-i5\nSent with Proton Mail secure email.", "i9-i5"},
		{"sent as text kept", "Sent my move yesterday: i9-i5", "Sent my move yesterday: i9-i5"},
		{"footer then history", "i9-i5\n\nSent from my iPad\n\nOn 1 Apr 2024, at 08:00, Ref <r@x.test> wrote:\n\n> old", "i9-i5"},
		{"only quote", "> everything quoted", ""},
		{"empty", "", ""},
		{"only signature", "-- \nsig", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := StripQuoted(tt.in); got != tt.want {
				t.Errorf("StripQuoted(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
