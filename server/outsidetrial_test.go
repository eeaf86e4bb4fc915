package server

import (
	"strings"
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// Tests of what an outside player trial of the mail interface tripped
// over.

// TestTrialShortTypoAlone (§1): a mail whose only line is a short command
// word with two letters swapped ("hlep"), or a longer one misspelt, is
// answered "Did you mean …?" in a reply quoting the line, from a stranger
// and in a game's thread alike, and is not passed on to the opponent;
// one-word prose ("hi", "thanks", "ok") is still no near miss: a
// stranger gets the usual "no command" reply and a player's opponent the
// words.
func TestTrialShortTypoAlone(t *testing.T) {
	h := newHarness(t)
	didYouMean := strings.SplitN(referee.Tr(referee.English, "err.didyoumean", "\x00"), "\x00", 2)[0]
	for _, c := range []struct{ line, near string }{{"hlep", "help"}, {"baord", "board"}, {"resgin", "resign"}, {"Naem", "name"}} {
		text := to(t, h.deliver("carol@player.test", "x", c.line+"\n", nil), "carol@player.test").Text
		mustContain(t, "stranger's "+c.line, text, referee.Tr(referee.English, "err.quote", 1), "> "+c.line, referee.Tr(referee.English, "err.didyoumean", c.near), referee.Tr(referee.English, "err.nothing"))
	}
	for _, line := range []string{"hi", "thanks", "ok"} {
		text := to(t, h.deliver("carol@player.test", "x", line, nil), "carol@player.test").Text
		h.mustRefuse("err.nocommand")
		mustNotContain(t, "stranger's "+line, text, didYouMean)
	}
	id := startBrandubh(t, h)
	for _, line := range []string{"hlep", "baord", "resgin"} {
		text := to(t, h.reply(bob, line), bob).Text
		mustContain(t, "bob's "+line, text, "> "+line, referee.Tr(referee.English, "err.nothing"))
		if g := h.gameOf(id); g.Status != archive.Active || g.MessageToAttackers != "" {
			t.Errorf("%q: the game is %s, alice's waiting message %q; want it active and nothing passed on", line, g.Status, g.MessageToAttackers)
		}
	}
	for _, line := range []string{"hi", "thanks", "ok"} {
		text := to(t, h.reply(bob, line), bob).Text
		mustNotContain(t, "bob's "+line, text, didYouMean)
		if g := h.gameOf(id); !strings.Contains(g.MessageToAttackers, line) {
			t.Errorf("%q: alice's waiting message is %q, want the prose", line, g.MessageToAttackers)
		}
	}
	// with other words around it, a swapped short word is prose
	h.reply(bob, "Nice move!\nhlep")
	if g := h.gameOf(id); !strings.Contains(g.MessageToAttackers, "Nice move!\nhlep") {
		t.Errorf("alice's waiting message is %q, want the prose with its hlep", g.MessageToAttackers)
	}
}

// TestTrialSquareBeyondBoard (§2): a square beyond every board ("d20",
// "t1") in a mail about a game is refused with the range of the game's
// board, in the sender's language, not the grammar's limit (19, s); a
// mail about no game still names the grammar's limit.
func TestTrialSquareBeyondBoard(t *testing.T) {
	for _, c := range []struct {
		variant, lang, line, want, unwanted string
	}{
		{"copenhagen", referee.English, "d1-d20", referee.Tr(referee.English, "err.expected", referee.Tr(referee.English, "syntax.rank.board", 11), `"20"`), referee.Tr(referee.English, "syntax.rank")},
		{"copenhagen", referee.English, "t1-t2", referee.Tr(referee.English, "err.expected", referee.Tr(referee.English, "syntax.file.board", "k"), `"t"`), referee.Tr(referee.English, "syntax.file")},
		{"copenhagen", referee.German, "d1-d20", referee.Tr(referee.German, "err.expected", referee.Tr(referee.German, "syntax.rank.board", 11), `"20"`), referee.Tr(referee.German, "syntax.rank")},
		{"copenhagen", referee.German, "t1-t2", referee.Tr(referee.German, "err.expected", referee.Tr(referee.German, "syntax.file.board", "k"), `"t"`), referee.Tr(referee.German, "syntax.file")},
		{"brandubh", referee.English, "a2-a30", referee.Tr(referee.English, "err.expected", referee.Tr(referee.English, "syntax.rank.board", 7), `"30"`), referee.Tr(referee.English, "syntax.rank")},
	} {
		h := newHarness(t)
		startGame(t, h, c.variant, c.lang)
		text := to(t, h.reply(alice, c.line), alice).Text
		mustContain(t, c.variant+" "+c.line, text, "> "+c.line, c.want, referee.Tr(c.lang, "err.nothing"))
		mustNotContain(t, c.variant+" "+c.line, text, c.unwanted)
	}
	h := newHarness(t)
	text := to(t, h.deliver("carol@player.test", "x", "d1-d20", nil), "carol@player.test").Text
	mustContain(t, "a move about no game", text, referee.Tr(referee.English, "err.expected", referee.Tr(referee.English, "syntax.rank"), `"20"`))
}

// TestTrialRuleErrorQuotesLine (§3): a move refused by the rules (a path
// blocked, a piece of the side not to move, a square the piece may not
// stop on) is answered as a line that does not parse is: "In your line
// N:", the line quoted, the reason, and the board, in both languages,
// with the number the line has in the mail.
func TestTrialRuleErrorQuotesLine(t *testing.T) {
	for _, lang := range []string{referee.English, referee.German} {
		h := newHarness(t)
		startGame(t, h, "brandubh", lang)
		for _, line := range []string{"d1-d4", "d3-d2", "d1-a1"} {
			text := to(t, h.reply(alice, "Hello Bob,\n\n"+line+"\n\nAlice"), alice).Text
			h.mustRefuse("err.illegal")
			mustContain(t, lang+" "+line, text, referee.Tr(lang, "err.quote", 3)+"\n> "+line+"\n"+line, referee.Tr(lang, "err.nothing"), "a  b  c  d  e  f  g")
		}
		// a parse error is quoted alike
		text := to(t, h.reply(alice, "Hello Bob,\n\nd1-d44\n\nAlice"), alice).Text
		mustContain(t, lang+" d1-d44", text, referee.Tr(lang, "err.quote", 3)+"\n> d1-d44\n", "a  b  c  d  e  f  g")
	}
}

// TestTrialPastedRepliesNotRead (§5): a player who writes above a reply of
// the referee's pasted without quote marks — the help overview, the games
// list, a leave reply, in English and German — has only their own lines
// read: the move above the help overview is played (the overview's
// "d1-d3  a move" is no second move), nothing is refused, and none of the
// pasted text but its greeting waits for the opponent as a message.
func TestTrialPastedRepliesNotRead(t *testing.T) {
	for _, lang := range []string{referee.English, referee.German} {
		cmds := map[string]string{"help": "help", "games": "games", "leave": "leave 2026-12-24", "board": "board"}
		if lang == referee.German {
			cmds = map[string]string{"help": "hilfe", "games": "partien", "leave": "urlaub 24.12.2026", "board": "brett"}
		}
		h := newHarness(t)
		id := startGame(t, h, "brandubh", lang)
		game := h.last(alice)
		paste := func(cmd string) string {
			return to(t, h.deliver(alice, "x", cmd, nil), alice).Text
		}
		help, games := paste(cmds["help"]), paste(cmds["games"])
		leave := to(t, h.replyTo(alice, game, cmds["leave"]), alice).Text // leave wants the key
		mustContain(t, lang+" leave", leave, strings.SplitN(referee.Tr(lang, "leave.taken.now", "\x00", ""), "\x00", 2)[0])
		mustContain(t, lang+" help", help, referee.Tr(lang, "help.intro"))
		mustContain(t, lang+" games", games, referee.Tr(lang, "games.header"))

		sent := h.replyTo(alice, game, "1. d1-e1\n\n"+help)
		h.mustRefuse()
		if n := plyCount(t, h, id); n != 1 {
			t.Fatalf("%s: a move above the pasted help overview: %d plies, want 1:\n%s", lang, n, texts(sent))
		}
		mustNotContain(t, lang+" bob's mail", to(t, sent, bob).Text, referee.Tr(lang, "help.intro"))

		game = h.last(alice)
		for name, pasted := range map[string]string{"games": games, "leave": leave} {
			sent := h.replyTo(alice, game, cmds["board"]+"\n\n"+pasted)
			h.mustRefuse()
			mustNotContain(t, lang+" "+name, to(t, sent, alice).Text, referee.Tr(lang, "err.quote", 3))
			// the greeting is no line of the referee's alone: players write it too
			if g := h.gameOf(id); strings.TrimSpace(strings.ReplaceAll(g.MessageToDefenders, referee.Tr(lang, "greeting"), "")) != "" {
				t.Errorf("%s: the pasted %s reply waits for bob as a message: %q", lang, name, g.MessageToDefenders)
			}
		}
	}
}

// TestTrialPunctuatedCommand (outside trial): a line that is one command
// phrase with sentence marks at its ends ("Accept.", "Board.",
// "Verlauf!", "Help?") is read as that command and not passed on to the
// opponent; one that would end the game at once ("Resign?", "Accept
// draw.") is asked about, "Did you mean …?", and not run; prose with
// marks ("Thanks!", "OK.", "Good game!") is still prose, and a move with
// a mark after it is still refused by the move grammar.
func TestTrialPunctuatedCommand(t *testing.T) {
	h := newHarness(t)
	didYouMean := strings.SplitN(referee.Tr(referee.English, "err.didyoumean", "\x00"), "\x00", 2)[0]
	sent := h.deliver("carol@player.test", "x", "Help?\n", nil)
	mustContain(t, "Help?", to(t, sent, "carol@player.test").Text, referee.Tr(referee.English, "help.intro"))
	h.mustRefuse()

	sent = h.deliver(alice, "a game?", "new brandubh with bob@player.test", nil)
	id := referee.FindGame(to(t, sent, bob).Subject, "", nil).ID
	sent = h.reply(bob, "Accept.")
	h.mustRefuse()
	if g := h.gameOf(id); g.Status != archive.Active || g.MessageToAttackers != "" {
		t.Fatalf("after Accept. the game is %s, alice's waiting message %q; want it active and nothing passed on", g.Status, g.MessageToAttackers)
	}
	mustNotContain(t, "alice's start mail", to(t, sent, alice).Text, "Accept.")

	text := to(t, h.reply(alice, "Board."), alice).Text
	h.mustRefuse()
	mustContain(t, "Board.", text, "attackers to move")
	text = to(t, h.reply(bob, "Verlauf!"), bob).Text
	h.mustRefuse()
	mustContain(t, "Verlauf!", text, `[Variant "brandubh"]`)
	if g := h.gameOf(id); g.MessageToAttackers != "" || g.MessageToDefenders != "" {
		t.Errorf("commands with marks were passed on: %q, %q", g.MessageToAttackers, g.MessageToDefenders)
	}

	for _, c := range []struct{ line, near string }{{"Resign?", "resign"}, {"Accept draw.", "accept draw"}, {"Private?", "private"}} {
		text := to(t, h.reply(alice, c.line), alice).Text
		mustContain(t, c.line, text, "> "+c.line, referee.Tr(referee.English, "err.didyoumean", c.near))
		if g := h.gameOf(id); g.Status != archive.Active || g.MessageToDefenders != "" || g.AttackersPrivate {
			t.Errorf("%q: the game is %s (private %v), bob's waiting message %q; want it active, public and nothing passed on", c.line, g.Status, g.AttackersPrivate, g.MessageToDefenders)
		}
	}

	for _, line := range []string{"Thanks!", "OK.", "Good game!"} {
		text := to(t, h.reply(bob, line), bob).Text
		h.mustRefuse()                                                          // passed on to alice: carried out, not refused
		mustContain(t, line, text, referee.Tr(referee.German, "err.nocommand")) // bob wrote "Verlauf!"
		mustNotContain(t, line, text, didYouMean)
		if g := h.gameOf(id); !strings.Contains(g.MessageToAttackers, line) {
			t.Errorf("%q: alice's waiting message is %q, want the prose", line, g.MessageToAttackers)
		}
	}

	before := h.state(id)
	refusedOnly(t, h, id, before, h.reply(alice, "d1-d3."), alice, "> d1-d3.", referee.Tr(referee.English, "syntax.char", "'.'"))
}

// TestTrialDrawQuestion (outside trial): "Draw?" offers a draw, as
// "Takeback?" asks for a takeback: an offer only asks, so it runs and is
// not passed on as a message. Where the opponent's offer stands, "Draw."
// would end the game, so it is asked about, "Did you mean "accept
// draw"?", as "Accept draw." is, and the offer still stands.
func TestTrialDrawQuestion(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	sent := h.reply(alice, "Draw?")
	h.mustRefuse()
	mustContain(t, "alice's answer", to(t, sent, alice).Text, referee.Tr(referee.English, "draw.offer.sent", bob))
	mustContain(t, "bob's news", to(t, sent, bob).Text, referee.Tr(referee.English, "draw.offered", alice))
	if g := h.gameOf(id); g.DrawOfferBy != "attackers" || g.MessageToDefenders != "" {
		t.Fatalf("after Draw? the offer is by %q, bob's waiting message %q; want alice's offer and nothing passed on", g.DrawOfferBy, g.MessageToDefenders)
	}
	text := to(t, h.reply(bob, "Draw."), bob).Text
	h.mustRefuse("err.didyoumean")
	mustContain(t, "bob's answer", text, "> Draw.", referee.Tr(referee.English, "err.didyoumean", "accept draw"))
	if g := h.gameOf(id); g.Status != archive.Active || g.DrawOfferBy != "attackers" || g.MessageToAttackers != "" {
		t.Fatalf("after bob's Draw. the game is %s, the offer by %q, alice's waiting message %q; want it active, alice's offer standing, nothing passed on",
			g.Status, g.DrawOfferBy, g.MessageToAttackers)
	}
}

// TestTrialCommandOwnLine (outside trial): "Accept. Sure!" on one line
// is neither run nor passed on: it is answered "Did you mean "accept" on
// a line of its own?", as other near misses are, and the invitation
// still waits.
func TestTrialCommandOwnLine(t *testing.T) {
	h := newHarness(t)
	sent := h.deliver(alice, "a game?", "new brandubh with bob@player.test", nil)
	id := referee.FindGame(to(t, sent, bob).Subject, "", nil).ID
	sent = h.reply(bob, "Accept. Sure!")
	h.mustRefuse()
	mustContain(t, "bob's answer", to(t, sent, bob).Text, "> Accept. Sure!", referee.Tr(referee.English, "err.ownline", "accept"))
	if g := h.gameOf(id); g.Status != archive.Invited || g.MessageToAttackers != "" {
		t.Fatalf("after Accept. Sure! the game is %s, alice's waiting message %q; want it invited and nothing passed on", g.Status, g.MessageToAttackers)
	}
}

// TestLeadingCommand: which lines begin with a command phrase and its
// mark followed by a few words, and which phrase.
func TestLeadingCommand(t *testing.T) {
	for line, want := range map[string]string{
		"Accept. Sure!":          "accept",
		"Accept, thank you!":     "accept",
		"Help! I am lost":        "help",
		"Draw? Gladly.":          "offer draw",
		"Remis anbieten! Gerne.": "remis anbieten",
		"Accept.":                "", // the command alone: punctuated
		"Sure. Accept.":          "",
		"OK. Thanks!":            "",
		"¿Help me":               "", // the mark must end the command
		"Help! I have looked everywhere for the rules": "", // more than maxTrailingWords: prose
	} {
		if got := referee.LeadingCommand(line); got != want {
			t.Errorf("leadingCommand(%q) = %q, want %q", line, got, want)
		}
	}
}

// TestPunctuated: which lines are a command phrase with sentence marks at
// their ends, and which phrase.
func TestPunctuated(t *testing.T) {
	for line, want := range map[string]string{
		"Accept.":            "accept",
		"  Board. ":          "board",
		"Verlauf!":           "verlauf",
		"¿Help?":             "help",
		"Remis  Anbieten!!":  "remis anbieten",
		"help ?":             "help",
		"accept":             "", // no marks: a command line as it is
		"OK.":                "",
		"Thanks!":            "",
		"Good game!":         "",
		"New game?":          "", // "new" wants more
		"Watch!":             "",
		"d1-d3.":             "", // a move: the grammar's rule
		"Accept, thank you!": "",
		"...":                "",
		"Draw?":              "offer draw", // an askWords word: the phrase it stands for
		"Remis.":             "remis anbieten",
		"draw":               "", // no marks: prose, the grammar's rule
		"Draw, please!":      "",
	} {
		if got := referee.Punctuated(line); got != want {
			t.Errorf("punctuated(%q) = %q, want %q", line, got, want)
		}
	}
}

// TestTrialTournamentIDSentenceMark (outside trial §5): a full stop or a
// question mark after a tournament's id ends the sentence and is not part
// of the id: "Join xmas-cup." asks to enter xmas-cup, "Standings
// xmas-cup?" shows its table, "watch xmas-cup." asks to confirm watching
// it. Before the fix the first two answered "There is no tournament
// xmas-cup." and the third "I found no command in your mail".
func TestTrialTournamentIDSentenceMark(t *testing.T) {
	h := newHarness(t)
	h.createEvent("xmas-cup", nil, func(t *archive.Tournament) {
		t.OpenEntry, t.EntryCloses, t.StartDate = true, t.StartDate.AddDate(0, 0, 5), t.StartDate.AddDate(0, 0, 7)
	})
	text := to(t, h.deliver("carol@player.test", "x", "Join xmas-cup.", nil), "carol@player.test").Text
	h.mustRefuse()
	if m := joinConfirmLine.FindStringSubmatch(text); m == nil || m[2] != "xmas-cup" {
		t.Errorf("Join xmas-cup. got no request to enter xmas-cup:\n%s", text)
	}
	text = to(t, h.deliver("dave@player.test", "x", "Tabelle xmas-cup?", nil), "dave@player.test").Text
	h.mustRefuse()
	mustContain(t, "Tabelle xmas-cup?", text, "Cup xmas-cup")
	text = to(t, h.deliver("erin@player.test", "x", "watch xmas-cup.", nil), "erin@player.test").Text
	h.mustRefuse()
	mustContain(t, "watch xmas-cup.", text, "    watch xmas-cup confirm ")
}

// TestTrialTournamentLineHints (outside trial §13): "standings" without an
// id is answered that it needs one and how to find it, in the sender's
// language, and a misspelt "standngs xmas-cup" gets "Did you mean
// "standings xmas-cup"?"; before, both got "I found no command".
func TestTrialTournamentLineHints(t *testing.T) {
	h := newHarness(t)
	text := to(t, h.deliver("carol@player.test", "x", "standings", nil), "carol@player.test").Text
	mustContain(t, "standings", text, "> standings", referee.Tr(referee.English, "hint.tournamentid"))
	mustNotContain(t, "standings", text, referee.Tr(referee.English, "err.nocommand"))
	text = to(t, h.deliver("dave@player.test", "x", "Tabelle", nil), "dave@player.test").Text
	mustContain(t, "Tabelle", text, referee.Tr(referee.German, "hint.tournamentid"))
	text = to(t, h.deliver("carol@player.test", "x", "standngs xmas-cup", nil), "carol@player.test").Text
	mustContain(t, "standngs", text, referee.Tr(referee.English, "err.didyoumean", "standings xmas-cup"))
}

// TestTrialDigestTimes (outside trial §9): "notify digest 25:00" is told
// the time is none, without "Did you mean "notify digest"?", which would
// set 07:00; a city written as words ("New York") is answered with its
// zone's name; "um 8 Uhr" sets 08:00; a fixed offset's refusal and a
// zone's confirmation say nothing untrue of summer time (Kathmandu has
// none).
func TestTrialDigestTimes(t *testing.T) {
	h := newHarness(t)
	startBrandubh(t, h) // alice plays: her notify needs no confirmation
	text := to(t, h.deliver(alice, "x", "notify digest 25:00", nil), alice).Text
	mustContain(t, "25:00", text, "25:00 is not a time of day")
	mustNotContain(t, "25:00", text, referee.Tr(referee.English, "hint.variant", `"notify digest"`))
	text = to(t, h.deliver(alice, "x", "notify digest 07:30 New York", nil), alice).Text
	mustContain(t, "New York", text, referee.Tr(referee.English, "notify.zone.suggest", "New York", "07:30", "America/New_York"))
	text = to(t, h.deliver(alice, "x", "notify digest 07:30 Etc/GMT-1", nil), alice).Text
	mustContain(t, "Etc/GMT-1", text, referee.Tr(referee.English, "notify.zone.fixed", "Etc/GMT-1", "07:30"))
	mustNotContain(t, "Etc/GMT-1", text, "America/New_York")
	text = to(t, h.deliver(alice, "x", "notify digest 07:30 Asia/Kathmandu", nil), alice).Text
	mustContain(t, "Kathmandu", text, referee.Tr(referee.English, "notify.zone.local", "Asia/Kathmandu"))
	mustNotContain(t, "Kathmandu", text, "follows its changes")
	h.deliver(alice, "x", "benachrichtigung täglich um 8 Uhr", nil)
	h.mustRefuse()
	if p := h.player(alice); !p.Digest || p.DigestAt != 8*60 || p.DigestZone != "" {
		t.Errorf("after \"um 8 Uhr\": digest %v at %d in %q, want 08:00 UTC", p.Digest, p.DigestAt, p.DigestZone)
	}
}
