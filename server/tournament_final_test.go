package server

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/mail"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/tournament"

	"github.com/taflmail/taflmail/server/internal/tournaments"
)

// attachedFile is a file attached to a mail the referee sent.
type attachedFile struct {
	name, mediaType, charset string
	data                     []byte
}

// attachedFiles reads the files attached to raw with the standard
// library alone (net/mail, mime/multipart, base64): none for a
// single-part mail.
func attachedFiles(t *testing.T, raw []byte) []attachedFile {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("net/mail.ReadMessage = %v", err)
	}
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		t.Fatalf("Content-Type %q: %v", msg.Header.Get("Content-Type"), err)
	}
	if mt != "multipart/mixed" {
		return nil
	}
	var files []attachedFile
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return files
		}
		if err != nil {
			t.Fatalf("mime/multipart: NextPart = %v", err)
		}
		disp, _, _ := mime.ParseMediaType(p.Header.Get("Content-Disposition"))
		if disp != "attachment" {
			continue
		}
		if cte := p.Header.Get("Content-Transfer-Encoding"); cte != "base64" {
			t.Fatalf("attachment %q in %q, want base64", p.FileName(), cte)
		}
		data, err := io.ReadAll(base64.NewDecoder(base64.StdEncoding, p))
		if err != nil {
			t.Fatalf("attachment %q: %v", p.FileName(), err)
		}
		ft, fparams, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		files = append(files, attachedFile{name: p.FileName(), mediaType: ft, charset: fparams["charset"], data: data})
	}
}

// finalMails returns the mails in ms whose subject is an event's final
// standings, in English or German, by recipient.
func finalMails(ms []sentMail, name string) map[string][]sentMail {
	out := map[string][]sentMail{}
	for _, m := range ms {
		if m.msg.Subject == referee.Tr(referee.English, "subject.final", name) || m.msg.Subject == referee.Tr(referee.German, "subject.final", name) {
			out[m.to] = append(out[m.to], m)
		}
	}
	return out
}

// checkRecordsFile checks that f is the records file of tournament id:
// named <id>.tafl, UTF-8 text, the export of the event's games (want),
// and every one of its n games replays.
func checkRecordsFile(t *testing.T, who string, f attachedFile, id string, want []byte, n int) {
	t.Helper()
	sameRecordsFile(t, who, f, id, want)
	replays(t, who, f, n)
}

// sameRecordsFile checks that f is named <id>.tafl, is UTF-8 text and
// holds want, the export of the event's games.
func sameRecordsFile(t *testing.T, who string, f attachedFile, id string, want []byte) {
	t.Helper()
	if f.name != id+".tafl" || f.mediaType != "text/plain" || f.charset != "utf-8" {
		t.Errorf("%s: attachment %q, %s; charset=%s; want %s.tafl, text/plain; charset=utf-8", who, f.name, f.mediaType, f.charset, id)
	}
	if !bytes.Equal(f.data, want) {
		t.Errorf("%s: attachment of %d bytes is not the export (%d bytes)", who, len(f.data), len(want))
	}
}

// replays checks that the records file f reads as n games and that each
// replays, legal to its last ply.
func replays(t *testing.T, who string, f attachedFile, n int) {
	t.Helper()
	games, err := notation.ReadGames(f.name, f.data, notation.ReadOptions{})
	if err != nil || len(games) != n {
		t.Fatalf("%s: ReadGames(attachment) = %d games, %v; want %d", who, len(games), err, n)
	}
	for i, g := range games {
		if r := g.Replay(); r.Err() != nil || !r.Legal || len(r.Plies) != len(g.Plies) {
			t.Errorf("%s: game %d of the attachment does not replay: legal %v, %v", who, i+1, r.Legal, r.Err())
		}
	}
}

// finishCup plays a 3-player event "cup-28" (6 games) to its end, each
// game resigned after a first ply; a German spectator follows its
// results. It returns the mails sent from the start on.
func finishCup(h *harness) []sentMail {
	h.t.Helper()
	h.createEvent("cup-28", []string{alice, bob, "carol@player.test"}, nil)
	h.confirmed(viewer, "language de\nwatch cup-28 results", nil)
	before := len(h.sender.sent)
	if _, err := StartTournament(h.srv, h.ctx(), "cup-28"); err != nil {
		h.t.Fatal(err)
	}
	h.srv.FlushOutbox(h.ctx())
	for _, g := range h.eventGames("cup-28") {
		h.inGame(g.ID, g.Attackers, "d1-e1")
		h.inGame(g.ID, g.Defenders, "resign")
	}
	return h.sender.sent[before:]
}

// TestTournamentFinalAttachment: the final mail of an event carries the
// standings in its text and the records of all its games as the
// attachment cup-28.tafl, the export byte for byte, every game of which
// replays; each player gets it, and so does the spectator, in German.
func TestTournamentFinalAttachment(t *testing.T) {
	h := newHarness(t)
	sent := finishCup(h)
	full, err := h.store.TournamentGames(h.ctx(), "cup-28", true)
	if err != nil || len(full) != 6 {
		t.Fatalf("TournamentGames = %d, %v", len(full), err)
	}
	export, err := TournamentExport(full)
	if err != nil {
		t.Fatal(err)
	}
	tm, _ := h.store.Tournament(h.ctx(), "cup-28")
	es, _ := h.store.Entries(h.ctx(), "cup-28")
	sts, err := EventStandings(tm, es, full)
	if err != nil || len(sts) != 1 {
		t.Fatalf("EventStandings = %d, %v", len(sts), err)
	}
	finals := finalMails(sent, "Cup cup-28")
	for addr, lang := range map[string]string{alice: referee.English, bob: referee.English, "carol@player.test": referee.English, viewer: referee.German} {
		if len(finals[addr]) != 1 {
			t.Errorf("%d final mails to %s, want 1:\n%s", len(finals[addr]), addr, subjects(sent))
			continue
		}
		m := finals[addr][0]
		mustContain(t, "the final mail to "+addr, m.msg.Text, referee.Tr(lang, "tournament.final", "Cup cup-28", 6),
			untitled(sts[0].TextIn(tournaments.CrosstableLabels(lang))), referee.Tr(lang, "crosstable.finished", 6, 6), referee.Tr(lang, "tournament.records.attached", 6, "cup-28.tafl"))
		if strings.Contains(m.msg.Text, "[Event ") {
			t.Errorf("the final mail to %s has records in its text", addr)
		}
		files := attachedFiles(t, m.raw)
		if len(files) != 1 {
			t.Errorf("the final mail to %s has %d attachments, want 1", addr, len(files))
			continue
		}
		checkRecordsFile(t, "the final mail to "+addr, files[0], "cup-28", export, 6)
	}
}

// TestTournamentFinalOverCeiling: records larger than
// Options.MaxAttachmentBytes are not attached: the final mail says how
// large they are and that the director has them, and the log says why;
// with MaxAttachmentBytes 0 (what New makes of a negative one) nothing
// is ever attached.
func TestTournamentFinalOverCeiling(t *testing.T) {
	for _, tc := range []struct {
		name  string
		limit int64
	}{{"small ceiling", 1000}, {"attach none", 0}} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			var log bytes.Buffer
			h.srv.Log = slog.New(slog.NewTextHandler(&log, nil))
			h.srv.Opts.MaxAttachmentBytes = tc.limit
			sent := finishCup(h)
			full, _ := h.store.TournamentGames(h.ctx(), "cup-28", true)
			export, err := TournamentExport(full)
			if err != nil || len(export) <= 1000 {
				t.Fatalf("export of %d bytes, %v; the test wants more than the ceiling", len(export), err)
			}
			kb := (len(export) + 1023) / 1024
			finals := finalMails(sent, "Cup cup-28")
			for addr, lang := range map[string]string{alice: referee.English, bob: referee.English, "carol@player.test": referee.English, viewer: referee.German} {
				if len(finals[addr]) != 1 {
					t.Errorf("%d final mails to %s, want 1", len(finals[addr]), addr)
					continue
				}
				m := finals[addr][0]
				mustContain(t, "the final mail to "+addr, m.msg.Text, referee.Tr(lang, "crosstable.finished", 6, 6), referee.Tr(lang, "tournament.records.large", kb, "cup-28"))
				if files := attachedFiles(t, m.raw); len(files) != 0 {
					t.Errorf("the final mail to %s has %d attachments over the ceiling", addr, len(files))
				}
			}
			mustContain(t, "the log", log.String(), "tournament records not attached", "tournament=cup-28", fmt.Sprintf("bytes=%d limit=%d", len(export), tc.limit))
		})
	}
}

// TestMaxAttachmentBytesDefault: New takes 0 for the default and a
// negative value for none.
func TestMaxAttachmentBytesDefault(t *testing.T) {
	for in, want := range map[int64]int64{0: referee.DefaultMaxAttachmentBytes, -1: 0, 123: 123} {
		s, err := referee.New(referee.Options{Address: "tafl@game.test", Store: &archive.Store{}, MaxAttachmentBytes: in})
		if err != nil || s.Opts.MaxAttachmentBytes != want {
			t.Errorf("New(MaxAttachmentBytes %d) = %d, %v; want %d", in, s.Opts.MaxAttachmentBytes, err, want)
		}
	}
}

// TestTournamentFinalSpectatorBackstop: the backstop on a spectator's
// final mail, MaxEventSpectatorMailBytes, bounds the mail but for its
// attachment: lowered under the size of the whole mail but above its
// text, the spectator still gets the records; lowered under the text,
// the mail is not sent, and the log says so.
func TestTournamentFinalSpectatorBackstop(t *testing.T) {
	defer func(n int) { tournaments.MaxEventSpectatorMailBytes = n }(tournaments.MaxEventSpectatorMailBytes)
	for _, tc := range []struct {
		name  string
		limit int
		sent  bool
	}{{"above the text", 3000, true}, {"under the text", 500, false}} {
		t.Run(tc.name, func(t *testing.T) {
			tournaments.MaxEventSpectatorMailBytes = tc.limit
			h := newHarness(t)
			var log bytes.Buffer
			h.srv.Log = slog.New(slog.NewTextHandler(&log, nil))
			finals := finalMails(finishCup(h), "Cup cup-28")
			if len(finals[alice]) != 1 || len(attachedFiles(t, finals[alice][0].raw)) != 1 {
				t.Fatalf("the player's final mail is not there with its records")
			}
			if !tc.sent {
				if len(finals[viewer]) != 0 {
					t.Errorf("the spectator's final mail was sent over a backstop of %d bytes", tc.limit)
				}
				mustContain(t, "the log", log.String(), "tournament spectator mail not sent: too large")
				return
			}
			if len(finals[viewer]) != 1 {
				t.Fatalf("%d final mails to the spectator, want 1; log:\n%s", len(finals[viewer]), log.String())
			}
			m := finals[viewer][0]
			files := attachedFiles(t, m.raw)
			if len(m.raw) <= tc.limit || len(files) != 1 {
				t.Errorf("the spectator's final mail of %d bytes, %d attachments; want over %d bytes, with the records", len(m.raw), len(files), tc.limit)
			}
		})
	}
}

// TestTournamentFinalLargeRecords: an event of 30 players with long
// addresses, two games per pairing, has 870 games, whose records (about
// 340 KB) are more than the 256 KiB the final mail once carried in its
// text. All games but one are ended in the archive directly (resigned by
// the defenders, as a fixture: ending them by mail, by withdrawal or by
// time-out took 15 to 25 seconds, each game's end counting the standings
// of all), the last one by mail; every player and the spectator get the
// records attached, all 870 games, with the standings in the text.
func TestTournamentFinalLargeRecords(t *testing.T) {
	h := newHarness(t)
	var players []string
	for i := range 30 {
		players = append(players, fmt.Sprintf("player-%02d.with.a.long.address@club.example.org", i+1))
	}
	const n = 30 * 29
	h.createEvent("big-28", players, func(t *archive.Tournament) { t.Name, t.Rated = "The big cup", false })
	h.confirmed(watcher, "watch big-28 results", nil)
	if ids, err := StartTournament(h.srv, h.ctx(), "big-28"); err != nil || len(ids) != n {
		t.Fatalf("StartTournament = %d games, %v; want %d", len(ids), err, n)
	}
	h.srv.FlushOutbox(h.ctx())
	games := h.eventGames("big-28")
	last := games[len(games)-1]
	for _, g := range games[:len(games)-1] {
		g.Status, g.Result, g.Reason, g.EndedAt = archive.Finished, "attackers", "resignation", h.now
	}
	if err := h.store.Commit(h.ctx(), archive.Change{Games: games[:len(games)-1]}); err != nil {
		t.Fatal(err)
	}
	before := len(h.sender.sent)
	h.inGame(last.ID, last.Defenders, "resign")
	sent := h.sender.sent[before:]

	full, err := h.store.TournamentGames(h.ctx(), "big-28", true)
	if err != nil {
		t.Fatal(err)
	}
	export, err := TournamentExport(full)
	if err != nil || len(export) <= 256<<10 {
		t.Fatalf("export of %d bytes, %v; the test wants more than 256 KiB", len(export), err)
	}
	tm, err := h.store.Tournament(h.ctx(), "big-28")
	if err != nil || tm.Status != archive.TournamentFinished {
		t.Fatalf("the event after its last game: %v, %v", tm, err)
	}
	es, _ := h.store.Entries(h.ctx(), "big-28")
	sts, err := EventStandings(tm, es, full)
	if err != nil || len(sts) != 1 {
		t.Fatalf("EventStandings = %d, %v", len(sts), err)
	}
	finals := finalMails(sent, "The big cup")
	for i, addr := range append([]string{watcher}, players...) {
		if len(finals[addr]) != 1 {
			t.Errorf("%d final mails to %s, want 1", len(finals[addr]), addr)
			continue
		}
		m := finals[addr][0]
		mustContain(t, "the final mail to "+addr, m.msg.Text, referee.Tr(referee.English, "tournament.final", "The big cup", n),
			untitled(sts[0].Text()), referee.Tr(referee.English, "tournament.records.unrated", n, "big-28.tafl")) // an unrated event
		files := attachedFiles(t, m.raw)
		if len(files) != 1 {
			t.Errorf("the final mail to %s has %d attachments, want 1", addr, len(files))
			continue
		}
		// the same bytes everywhere: replaying one copy is enough
		sameRecordsFile(t, "the final mail to "+addr, files[0], "big-28", export)
		if i == 0 {
			replays(t, "the final mail to "+addr, files[0], n)
		}
	}
}

// TestTournamentFinalNamesEventOnce: the final mail names the event in
// its first line and not again above the table, as the standings reply
// does (trial 22); in groups each table is headed "Group N" alone. The
// table keeps its column heading and its "games finished" line.
func TestTournamentFinalNamesEventOnce(t *testing.T) {
	h := newHarness(t)
	sent := finishCup(h)
	finals := finalMails(sent, "Cup cup-28")
	for addr, lang := range map[string]string{alice: referee.English, viewer: referee.German} {
		if len(finals[addr]) != 1 {
			t.Fatalf("%d final mails to %s, want 1:\n%s", len(finals[addr]), addr, subjects(sent))
		}
		text := finals[addr][0].msg.Text
		mustContain(t, "the final mail to "+addr, text, referee.Tr(lang, "tournament.final", "Cup cup-28", 6),
			referee.Tr(lang, "crosstable.place")+" "+referee.Tr(lang, "crosstable.player"), referee.Tr(lang, "crosstable.finished", 6, 6))
		if n := strings.Count(text, "Cup cup-28"); n != 1 {
			t.Errorf("the final mail to %s names the event %d times, want 1:\n%s", addr, n, text)
		}
	}

	var players []string
	for _, p := range []string{"p1", "p2", "p3", "p4", "p5", "p6"} {
		players = append(players, p+"@player.test")
	}
	h.createEvent("groups", players, func(t *archive.Tournament) { t.Groups = 2 })
	before := len(h.sender.sent)
	if _, err := StartTournament(h.srv, h.ctx(), "groups"); err != nil {
		t.Fatal(err)
	}
	h.srv.FlushOutbox(h.ctx())
	for _, g := range h.eventGames("groups") {
		h.inGame(g.ID, g.Attackers, "d1-e1")
		h.inGame(g.ID, g.Defenders, "resign")
	}
	finals = finalMails(h.sender.sent[before:], "Cup groups")
	if len(finals["p1@player.test"]) != 1 {
		t.Fatalf("%d final mails to p1, want 1:\n%s", len(finals["p1@player.test"]), subjects(h.sender.sent[before:]))
	}
	text := finals["p1@player.test"][0].msg.Text
	mustContain(t, "the final mail in groups", text, "\nGroup 1\n", "\nGroup 2\n")
	if n := strings.Count(text, "Cup groups"); n != 1 {
		t.Errorf("the final mail in groups names the event %d times, want 1:\n%s", n, text)
	}
}

// untitled is a table without its title line (the event's name), as the
// final mail shows it under a first line that names the event.
func untitled(table string) string {
	return table[strings.IndexByte(table, '\n')+1:]
}

// TestTournamentFinalUnrated: the final mail of an unrated event does not
// send its players to `taflmail ratings`, and the records it attaches say
// `[Rated "no"]`, so that `taflmail ratings` over them rates nothing, as
// the referee rated nothing.
func TestTournamentFinalUnrated(t *testing.T) {
	h := newHarness(t)
	h.createEvent("blitz", []string{alice, bob, "carol@player.test"}, func(tm *archive.Tournament) { tm.Rated = false })
	before := len(h.sender.sent)
	if _, err := StartTournament(h.srv, h.ctx(), "blitz"); err != nil {
		t.Fatal(err)
	}
	for _, g := range h.eventGames("blitz") {
		h.inGame(g.ID, g.Attackers, "d1-e1")
		h.inGame(g.ID, g.Defenders, "resign")
	}
	finals := finalMails(h.sender.sent[before:], "Cup blitz")
	m := finals[alice]
	if len(m) != 1 {
		t.Fatalf("%d final mails to alice, want 1", len(m))
	}
	mustContain(t, "the final mail", m[0].msg.Text, referee.Tr(referee.English, "tournament.records.unrated", 6, "blitz.tafl"))
	if strings.Contains(m[0].msg.Text, referee.Tr(referee.English, "tournament.records.attached", 6, "blitz.tafl")) {
		t.Errorf("the final mail of an unrated event offers taflmail ratings:\n%s", m[0].msg.Text)
	}
	files := attachedFiles(t, m[0].raw)
	if len(files) != 1 {
		t.Fatalf("%d attachments, want 1", len(files))
	}
	recs, err := notation.ReadGames("blitz.tafl", files[0].data, notation.ReadOptions{})
	if err != nil || len(recs) != 6 {
		t.Fatalf("the attachment reads as %d records, %v", len(recs), err)
	}
	if rated, errs := tournament.RatedGamesFromRecords(recs); len(rated) != 0 || len(errs) != 0 {
		t.Errorf("taflmail ratings would rate %d games of an unrated event (%v)", len(rated), errs)
	}
	if rs, _ := h.store.RatingsOf(h.ctx(), alice); len(rs) != 0 {
		t.Errorf("the referee rated alice in an unrated event: %+v", rs)
	}
}
