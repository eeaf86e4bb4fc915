package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/archive"
)

func TestMails(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	st, err := archive.Open(ctx, f.path)
	if err != nil {
		t.Fatal(err)
	}
	// A bounce the referee ignored, recorded as serve records it.
	err = st.Commit(ctx, archive.Change{Mail: archive.ProcessedMail{MessageID: "bounce@mx.test", From: "mailer-daemon@mx.test",
		GameID: f.games["escape"], Disposition: "ignored", Reason: "bounce",
		Subject: "Undelivered: [taflmail " + f.games["escape"] + " abcdefghjk] move 3"}})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}

	r := f.run(t, "mails")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("taflmail mails = code %d, stderr %q", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "HANDLED ") || len(lines) < 20 {
		t.Fatalf("taflmail mails printed %d lines:\n%s", len(lines), r.stdout)
	}
	if strings.Contains(r.stdout, "abcdefghjk") {
		t.Errorf("mails shows a player's key:\n%s", r.stdout)
	}

	r = f.run(t, "mails", "--ignored")
	lines = strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if r.code != exitOK || len(lines) != 2 || !strings.Contains(lines[1], "mailer-daemon@mx.test") ||
		!strings.HasSuffix(lines[1], "bounce") || !strings.Contains(lines[1], "[taflmail "+f.games["escape"]+" …]") {
		t.Errorf("mails --ignored = code %d:\n%s", r.code, r.stdout)
	}

	r = f.run(t, "mails", "--from", "Bob@Player.TEST", "--json")
	if r.code != exitOK {
		t.Fatalf("mails --from --json = code %d, stderr %q", r.code, r.stderr)
	}
	n := 0
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var m mailJSON
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if m.From != "bob"+fixtureDomain {
			t.Errorf("mails --from bob listed a mail from %s", m.From)
		}
		n++
	}
	if n != 4 { // accept and three moves
		t.Errorf("mails --from bob listed %d mails, want 4:\n%s", n, r.stdout)
	}

	for _, args := range [][]string{{"mails", "--disposition", "lost"}, {"mails", "--ignored", "--disposition", "applied"}, {"mails", "x"}} {
		if r := f.run(t, args...); r.code != exitUsage {
			t.Errorf("taflmail %s = code %d, want %d", strings.Join(args, " "), r.code, exitUsage)
		}
	}
}
