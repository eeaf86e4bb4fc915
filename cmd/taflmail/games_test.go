package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server"
)

// The -update flag rewrites the golden files of the operator commands
// under testdata/operator. Other test files of the package may declare it
// too; whoever comes first defines it, and operatorUpdate reads it.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files from the current output")
	}
}

// operatorUpdate reports whether the test runs with -update.
func operatorUpdate() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// checkOperatorGolden compares got with testdata/operator/<name>, or rewrites the
// file under -update.
func checkOperatorGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "operator", name)
	if operatorUpdate() {
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
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// sentBy is one mail the fixture's fake SMTP server took, parsed back.
type sentBy struct {
	to  string
	msg *mailer.Message
}

// fixtureSender is the fixture's SMTP stand-in: it fails permanently for
// the addresses in refuse and temporarily for those in defer, and
// otherwise keeps the mail.
type fixtureSender struct {
	sent          []sentBy
	refuse, later map[string]bool
}

func (f *fixtureSender) Send(_ context.Context, _ string, to []string, raw []byte) error {
	switch {
	case f.refuse[to[0]]:
		return &mailer.SendError{Code: 550, EnhancedCode: "5.1.1", Err: fmt.Errorf("550 5.1.1 <%s>: mailbox unavailable", to[0])}
	case f.later[to[0]]:
		return &mailer.SendError{Temporary: true, Code: 451, EnhancedCode: "4.3.0", Err: fmt.Errorf("451 4.3.0 try again later")}
	}
	m, err := mailer.Parse(bytes.NewReader(raw), 0)
	if err != nil {
		return err
	}
	f.sent = append(f.sent, sentBy{to[0], m})
	return nil
}

// fixture is an archive filled by playing games through the referee, as
// players' mails would: its path and the ids of its games by name.
type fixture struct {
	path  string
	games map[string]string
}

// Fixture games, by the name tests use:
//
//	escape    brandubh, alice (attackers) vs bob: the king escapes to a1 on ply 6
//	resigned  brandubh, carol vs dave: a capture marked "xf3", then carol
//	          resigns while the defenders are to move
//	drawn     brandubh, gina vs hank: a draw offered and accepted after one ply
//	offered   brandubh, erin vs frank: one ply, frank's draw offer stands
//	invited   brandubh, ivan challenges judy, whose mail server refuses the invitation (failed
//	          mail), so the challenge ends declined as undeliverable and ivan is told
//	declined  brandubh, kate challenges leo, who declines
//	waiting   tablut, nina challenges omar, whose mail server defers (pending mail)
const fixtureDomain = "@player.test"

// newFixture plays the fixture games through a server.Server over a
// fresh archive in a temporary directory, with a fixed clock (one hour per
// mail from 2026-11-29 10:00 UTC) and a seeded random source, so ids,
// keys and times are the same on every run.
func newFixture(t *testing.T) fixture {
	t.Helper()
	ctx := context.Background()
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	path := filepath.Join(t.TempDir(), "taflmail.db")
	store, err := archive.OpenWith(ctx, path, archive.Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	sender := &fixtureSender{
		refuse: map[string]bool{"judy" + fixtureDomain: true},
		later:  map[string]bool{"omar" + fixtureDomain: true},
	}
	srv, err := server.New(server.Options{
		Address: "tafl@game.test", Store: store, Sender: sender, Now: clock,
		Rand:   rand.NewChaCha8([32]byte{7}),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	seq := 0
	deliver := func(from, subject, body string, hdr map[string]string) {
		t.Helper()
		seq++
		now = now.Add(time.Hour)
		var raw strings.Builder
		fmt.Fprintf(&raw, "From: %s\r\nTo: tafl@game.test\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: <m%d@player.test>\r\n",
			from, subject, now.Format(time.RFC1123Z), seq)
		for k, v := range hdr {
			fmt.Fprintf(&raw, "%s: %s\r\n", k, v)
		}
		raw.WriteString("Content-Type: text/plain; charset=utf-8\r\n\r\n" + strings.ReplaceAll(body, "\n", "\r\n"))
		m, err := mailer.Parse(strings.NewReader(raw.String()), 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.HandleMail(ctx, m); err != nil {
			t.Fatalf("HandleMail(%s: %q) = %v", from, body, err)
		}
		srv.FlushOutbox(ctx)
	}
	// reply answers the last mail sent to who, as a mail client does.
	reply := func(who, body string) {
		t.Helper()
		addr := who + fixtureDomain
		for i := len(sender.sent) - 1; i >= 0; i-- {
			if s := sender.sent[i]; s.to == addr {
				refs := append(append([]string{}, s.msg.References...), s.msg.MessageID)
				deliver(addr, "Re: "+s.msg.Subject, body, map[string]string{
					"In-Reply-To": "<" + s.msg.MessageID + ">",
					"References":  "<" + strings.Join(refs, "> <") + ">",
				})
				return
			}
		}
		t.Fatalf("no mail was sent to %s", addr)
	}
	challenge := func(who, variant, opponent string) {
		t.Helper()
		deliver(who+fixtureDomain, "a game?", "new "+variant+" with "+opponent+fixtureDomain, nil)
	}

	challenge("alice", "brandubh", "bob")
	reply("bob", "accept")
	for i, mv := range []string{"d1-e1", "d3-e3", "d2-e2", "d4-d1", "e1-f1", "d1-a1"} {
		reply([]string{"alice", "bob"}[i%2], mv)
	}
	challenge("carol", "brandubh", "dave")
	reply("dave", "accept")
	reply("carol", "1. d1-e1")
	reply("dave", "1... d3-f3")
	reply("carol", "2. d2-f2xf3")
	reply("carol", "resign")
	challenge("gina", "brandubh", "hank")
	reply("hank", "accept")
	reply("gina", "d1-e1")
	reply("gina", "offer draw")
	reply("hank", "accept draw")
	challenge("erin", "brandubh", "frank")
	reply("frank", "accept")
	reply("erin", "d1-e1")
	reply("frank", "offer draw")
	challenge("ivan", "brandubh", "judy")
	challenge("kate", "brandubh", "leo")
	reply("leo", "decline")
	challenge("nina", "tablut", "omar")

	f := fixture{path: path, games: map[string]string{}}
	gs, err := store.Games(ctx, archive.GameFilter{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{
		"alice": "escape", "carol": "resigned", "gina": "drawn", "erin": "offered",
		"ivan": "invited", "kate": "declined", "nina": "waiting",
	}
	for _, g := range gs {
		f.games[names[strings.TrimSuffix(g.Challenger, fixtureDomain)]] = g.ID
	}
	if len(f.games) != len(names) {
		t.Fatalf("fixture has games %v, want %d", f.games, len(names))
	}
	return f
}

// runArchive runs taflmail with args and --archive-path set to the
// fixture's archive, with no configuration file and no IMAP or SMTP
// settings at all.
func (f fixture) run(t *testing.T, args ...string) result {
	t.Helper()
	return run(t, append(args, "--archive-path", f.path)...)
}

func TestGames(t *testing.T) {
	f := newFixture(t)
	r := f.run(t, "games")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("taflmail games = code %d, stderr %q", r.code, r.stderr)
	}
	checkOperatorGolden(t, "games.txt", r.stdout)

	r = f.run(t, "games", "--status", "finished")
	if r.code != exitOK {
		t.Fatalf("taflmail games --status finished = code %d, stderr %q", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != 4 { // header, escape, resigned, drawn
		t.Errorf("games --status finished printed %d lines, want 4:\n%s", len(lines), r.stdout)
	}
	for _, l := range lines[1:] {
		if !strings.Contains(l, " finished ") {
			t.Errorf("games --status finished printed %q", l)
		}
	}
}

func TestGamesJSON(t *testing.T) {
	f := newFixture(t)
	r := f.run(t, "games", "--json", "--status", "active")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("taflmail games --json = code %d, stderr %q", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != 1 {
		t.Fatalf("games --json --status active printed %d lines, want 1:\n%s", len(lines), r.stdout)
	}
	dec := json.NewDecoder(strings.NewReader(lines[0]))
	dec.DisallowUnknownFields()
	var got gameJSONLine
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("line %q: %v", lines[0], err)
	}
	want := gameJSONLine{
		ID: f.games["offered"], Variant: "brandubh", Attackers: "erin@player.test", Defenders: "frank@player.test",
		Challenger: "erin@player.test", Status: "active", Plies: 1, DrawOfferBy: "defenders",
		Created: got.Created, Updated: got.Updated,
	}
	if got != want {
		t.Errorf("games --json = %+v, want %+v", got, want)
	}
	if _, err := time.Parse(time.RFC3339, got.Updated); err != nil {
		t.Errorf("updated %q: %v", got.Updated, err)
	}
	r = f.run(t, "games", "--json")
	checkOperatorGolden(t, "games.jsonl", r.stdout)
	if strings.Contains(r.stdout, "token") || strings.Contains(r.stdout, "key") {
		t.Errorf("games --json shows keys:\n%s", r.stdout)
	}
}

// TestOperatorNeedsOnlyTheArchive: the operator commands run with a
// configuration whose mail sections are missing or wrong, and fail
// clearly when the archive itself is not there or the file is broken.
func TestOperatorNeedsOnlyTheArchive(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	bad := write("bad-mail.yaml", "imap:\n  addr: no-port\n  password_file: /nonexistent/pw\nsmtp:\n  security: carrier-pigeon\narchive:\n  path: "+f.path+"\n")
	for _, args := range [][]string{
		{"games", "--config", bad},
		{"show", f.games["escape"], "--config", bad},
		{"export", f.games["escape"], "--config", bad},
		{"outbox", "--config", bad},
	} {
		if r := run(t, args...); r.code != exitOK || r.stderr != "" {
			t.Errorf("taflmail %q = code %d, stderr %q; want 0 despite the broken mail sections", args, r.code, r.stderr)
		}
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"games", "--archive-path", filepath.Join(dir, "none.db")}, exitFailure, "taflmail: no archive at " + filepath.Join(dir, "none.db") + " (archive.path;"},
		{[]string{"games", "--config", write("typo.yaml", "archiv:\n  path: x\n")}, exitFailure, "archiv.path: unknown key in "},
		{[]string{"games", "--config", filepath.Join(dir, "missing.yaml")}, exitFailure, filepath.Join(dir, "missing.yaml") + ": cannot be read: no such file or directory"},
		{[]string{"games", "--archive-path", ""}, exitFailure, "archive.path: required"},
		{[]string{"games", "--status", "lost", "--archive-path", f.path}, exitUsage, `taflmail games: --status "lost": want invited, active, finished or declined`},
		{[]string{"games", "extra", "--archive-path", f.path}, exitUsage, `unexpected argument "extra"`},
	} {
		r := run(t, tc.args...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.want) || r.stdout != "" {
			t.Errorf("taflmail %q = code %d, stdout %q, stderr %q; want code %d and %q", tc.args, r.code, r.stdout, r.stderr, tc.code, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "none.db")); err == nil {
		t.Error("games created an archive where none was")
	}
}

func TestGamesEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.db")
	st, err := archive.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	for args, want := range map[string]string{
		"games":                    "no games\n",
		"games --status invited":   "no invited games\n",
		"games --json":             "",
		"outbox":                   "no mails\n",
		"outbox --status failed":   "no failed mails\n",
		"games --status declined ": "no declined games\n",
	} {
		r := run(t, append(strings.Fields(args), "--archive-path", path)...)
		if r.code != exitOK || r.stdout != want {
			t.Errorf("taflmail %s = code %d, stdout %q, stderr %q; want %q", args, r.code, r.stdout, r.stderr, want)
		}
	}
}
