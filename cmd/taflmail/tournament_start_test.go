package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server"
)

// TestTournamentStartCountsSpectators: `tournament start` counts every
// mail it queues: with a spectator who follows every move of the event
// (new-user trial: it said "(one per player)" and left that mail out)
// the line names 4 players' mails and 1 spectator's, and the outbox
// holds exactly those 5 mails, one to each.
func TestTournamentStartCountsSpectators(t *testing.T) {
	ctx := context.Background()
	db := newArchiveFile(t)
	if r := run(t, "tournament", "create", filepath.Join(tdir, "good.yaml"), "--archive-path", db, "--now", tournamentNow); r.code != exitOK {
		t.Fatalf("create = %d %q", r.code, r.stderr)
	}
	const erika = "erika@watch.test"
	now, _ := time.Parse(time.RFC3339, tournamentNow)
	store, err := archive.OpenWith(ctx, db, archive.Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Options{Address: "tafl@game.test", Store: store, Sender: &fixtureSender{}, Now: func() time.Time { return now },
		Rand: rand.NewChaCha8([32]byte{5}), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	// erika asks to follow the event, then confirms with the key the
	// answer gives (server/consent.go)
	line := "watch spring-2027"
	var before []archive.OutboxMail
	for i, id := range []string{"w1@watch.test", "w2@watch.test"} {
		raw := "From: " + erika + "\r\nTo: tafl@game.test\r\nSubject: x\r\nDate: " + now.Format(time.RFC1123Z) +
			"\r\nMessage-ID: <" + id + ">\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + line + "\r\n"
		m, err := mailer.Parse(strings.NewReader(raw), 0)
		if err != nil {
			t.Fatal(err)
		}
		m.Arrived = now
		if err := srv.HandleMail(ctx, m); err != nil {
			t.Fatal(err)
		}
		if before, err = store.Outbox(ctx, ""); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			ask, err := mailer.Parse(bytes.NewReader(before[len(before)-1].Raw), 0)
			if err != nil {
				t.Fatal(err)
			}
			sub := regexp.MustCompile(`(?m)^ +(watch spring-2027 confirm \S+)$`).FindStringSubmatch(ask.Text)
			if sub == nil {
				t.Fatalf("the answer to watch asks for no confirmation:\n%s", ask.Text)
			}
			line = sub[1]
		}
	}
	store.Close()

	r := run(t, "tournament", "start", "spring-2027", "--archive-path", db, "--server-address", "tafl@game.test", "--now", tournamentNow)
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("start = code %d, stderr %q", r.code, r.stderr)
	}
	want := "started tournament spring-2027: 4 players, 12 games; 5 mails queued (4 players, 1 spectator)\n" +
		"a running 'taflmail serve' on this archive sends them within 5 seconds; a stopped one when it starts\n"
	if r.stdout != want {
		t.Errorf("start said %q, want %q", r.stdout, want)
	}
	// started on 2027-02-20, before the file's start date 2027-03-01: the
	// list gives the day it started (issue 22 §9)
	r = run(t, "tournament", "list", "--archive-path", db)
	if f := strings.Fields(strings.Split(r.stdout, "\n")[1]); r.code != exitOK || len(f) < 7 || f[0] != "spring-2027" || f[6] != "2027-02-20" {
		t.Errorf("tournament list after an early start = code %d\n%s\nwant the start 2027-02-20", r.code, r.stdout)
	}

	store, err = archive.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	after, err := store.Outbox(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	to := map[string]int{}
	for _, o := range after[len(before):] {
		for _, a := range o.To {
			to[a]++
		}
	}
	if len(after)-len(before) != 5 || len(to) != 5 || to[erika] != 1 || to["alice@player.test"] != 1 {
		t.Errorf("the start queued %d mails, to %v; want 5, one to each player and to %s", len(after)-len(before), to, erika)
	}
}

// TestQueuedText: the count of mails a start queued, with the singulars.
func TestQueuedText(t *testing.T) {
	for _, tc := range []struct {
		r    server.TournamentStarted
		want string
	}{
		{server.TournamentStarted{PlayerMails: 3}, "3 mails queued (one per player)"},
		{server.TournamentStarted{PlayerMails: 3, SpectatorMails: 1}, "4 mails queued (3 players, 1 spectator)"},
		{server.TournamentStarted{PlayerMails: 10, SpectatorMails: 2}, "12 mails queued (10 players, 2 spectators)"},
	} {
		if got := queuedText(tc.r); got != tc.want {
			t.Errorf("queuedText(%+v) = %q, want %q", tc.r, got, tc.want)
		}
	}
}
