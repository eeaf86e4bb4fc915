package main

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
)

func TestOutbox(t *testing.T) {
	f := newFixture(t)
	r := f.run(t, "outbox", "--status", "failed")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("taflmail outbox --status failed = code %d, stderr %q", r.code, r.stderr)
	}
	checkOperatorGolden(t, "outbox-failed.txt", r.stdout)
	r = f.run(t, "outbox", "--status", "pending")
	checkOperatorGolden(t, "outbox-pending.txt", r.stdout)

	r = f.run(t, "outbox")
	if r.code != exitOK {
		t.Fatalf("taflmail outbox = code %d, stderr %q", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "ID  GAME ") {
		t.Errorf("outbox header = %q", lines[0])
	}
	sent := 0
	for _, l := range lines[1:] {
		if strings.Contains(l, " sent ") {
			sent++
		}
		if strings.Contains(l, "[taflmail") {
			t.Errorf("outbox shows a subject with a key: %q", l)
		}
	}
	if sent < 20 || len(lines) != sent+3 { // the rest: header, one failed, one pending
		t.Errorf("outbox listed %d lines, %d of them sent:\n%s", len(lines), sent, r.stdout)
	}
}

// TestOutboxRetry: --retry makes the failed mail pending and due, refuses
// a sent mail and an unknown id, and checks its flags.
func TestOutboxRetry(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	failedID := func() int64 {
		st, err := archive.Open(ctx, f.path)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		ms, err := st.Outbox(ctx, archive.Failed)
		if err != nil || len(ms) != 1 {
			t.Fatalf("Outbox(failed) = %d mails, %v; want 1", len(ms), err)
		}
		return ms[0].ID
	}
	id := failedID()
	ids := map[string]string{"failed": strconv.FormatInt(id, 10), "sent": "1"}

	r := f.run(t, "outbox", "--retry", ids["failed"])
	if want := "outbox mail " + ids["failed"] + " is due again; a running taflmail serve sends it on its next pass\n"; r.code != exitOK || r.stdout != want {
		t.Fatalf("taflmail outbox --retry = code %d, stdout %q, stderr %q; want %q", r.code, r.stdout, r.stderr, want)
	}
	r = f.run(t, "outbox", "--status", "pending")
	if !strings.Contains(r.stdout, "\n"+ids["failed"]+" ") || !strings.Contains(r.stdout, "judy@player.test") ||
		!strings.Contains(r.stdout, "550 5.1.1") {
		t.Errorf("after --retry the mail is not pending with its last error:\n%s", r.stdout)
	}
	if r := f.run(t, "outbox", "--status", "failed"); r.stdout != "no failed mails\n" {
		t.Errorf("after --retry, outbox --status failed = %q", r.stdout)
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"outbox", "--retry", ids["sent"]}, exitFailure, "taflmail: outbox mail 1 was sent already; it is not sent twice\n"},
		{[]string{"outbox", "--retry", "9999"}, exitFailure, "taflmail: no outbox mail 9999 (taflmail outbox lists them)\n"},
		{[]string{"outbox", "--retry", "0"}, exitUsage, "taflmail outbox: --retry 0: want the id of an outbox mail"},
		{[]string{"outbox", "--retry", "seven"}, exitUsage, `--retry "seven": not a whole number`},
		{[]string{"outbox", "--retry", "3", "--status", "failed"}, exitUsage, "taflmail outbox: --retry and --status do not go together\n"},
		{[]string{"outbox", "--status", "lost"}, exitUsage, "taflmail outbox: --status \"lost\": want pending, sent or failed\n"},
	} {
		r := f.run(t, tc.args...)
		if r.code != tc.code || r.stdout != "" || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("taflmail %q = code %d, stdout %q, stderr %q; want code %d, stderr %q", tc.args, r.code, r.stdout, r.stderr, tc.code, tc.want)
		}
	}
}

// TestWriteOutbox: what each kind of mail shows, against what the archive
// holds: tries counted with the one that succeeded, the next attempt as
// due, future or held behind an earlier mail to the same player.
func TestWriteOutbox(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	at := func(h int) time.Time { return now.Add(time.Duration(h) * time.Hour) }
	to := []string{"omar@player.test"}
	mails := []archive.OutboxMail{
		// sent at the first try, and after two refusals
		{ID: 1, GameID: "HB7742", To: to, Status: archive.Sent, CreatedAt: at(-9), NextAttempt: at(-9), SentAt: at(-9)},
		{ID: 2, GameID: "HB7742", To: to, Status: archive.Sent, Attempts: 2, LastError: "451 try\n again later",
			CreatedAt: at(-8), NextAttempt: at(-6), SentAt: at(-6)},
		// refused once, retried in two hours
		{ID: 3, GameID: "K7QX2M", To: to, Status: archive.Pending, Attempts: 1, LastError: "451 busy", CreatedAt: at(-1), NextAttempt: at(2)},
		// never tried, but queued after mail 3 of the same game to the same player
		{ID: 4, GameID: "K7QX2M", To: to, Status: archive.Pending, CreatedAt: at(-1), NextAttempt: at(-1)},
		// never tried, another player's: due
		{ID: 5, GameID: "K7QX2M", To: []string{"nina@player.test"}, Status: archive.Pending, CreatedAt: at(-1), NextAttempt: at(-1)},
		{ID: 6, To: to, Status: archive.Failed, Attempts: 20, LastError: "451 busy", CreatedAt: at(-30), NextAttempt: at(-3)},
		// claimed by a running sender, and by one that died long ago
		{ID: 7, To: to, Status: archive.Pending, CreatedAt: at(-1), NextAttempt: at(-1), ClaimedBy: "serve-1", ClaimedAt: now},
		{ID: 8, To: to, Status: archive.Pending, CreatedAt: at(-100), NextAttempt: at(-100), ClaimedBy: "serve-0", ClaimedAt: at(-99)},
	}
	var b strings.Builder
	if err := writeOutbox(&b, mails, "", now); err != nil {
		t.Fatal(err)
	}
	want := `ID  GAME    TO                STATUS   ATTEMPTS  WHEN                                   LAST ERROR
1   HB7742  omar@player.test  sent     1         sent 2026-12-01 03:00 UTC              -
2   HB7742  omar@player.test  sent     3         sent 2026-12-01 06:00 UTC              451 try again later
3   K7QX2M  omar@player.test  pending  1         next try 2026-12-01 14:00 UTC          451 busy
4   K7QX2M  omar@player.test  pending  0         waits for mail 3                       -
5   K7QX2M  nina@player.test  pending  0         due since 2026-12-01 11:00 UTC         -
6   -       omar@player.test  failed   20        given up                               451 busy
7   -       omar@player.test  pending  0         being sent since 2026-12-01 12:00 UTC  -
8   -       omar@player.test  pending  0         due since 2026-11-27 08:00 UTC         -
`
	if b.String() != want {
		t.Errorf("writeOutbox =\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := writeOutbox(&b, nil, archive.Pending, now); err != nil || b.String() != "no pending mails\n" {
		t.Errorf("writeOutbox(none pending) = %q, %v", b.String(), err)
	}
}

// TestOutboxRetryMany: --retry takes several ids, as arguments or as a
// list, and --retry --all queues every failed mail; an id that cannot be
// queued is named while the others are (issue 21 §8).
func TestOutboxRetryMany(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	st, err := archive.Open(ctx, f.path)
	if err != nil {
		t.Fatal(err)
	}
	// fail every pending mail too, so that there are several failed ones
	pending, err := st.Outbox(ctx, archive.Pending)
	if err != nil || len(pending) == 0 {
		t.Fatalf("Outbox(pending) = %d, %v", len(pending), err)
	}
	for _, m := range pending {
		if err := st.MarkFailed(ctx, m.ID, "535 5.7.8 bad credentials"); err != nil {
			t.Fatal(err)
		}
	}
	failed, err := st.Outbox(ctx, archive.Failed)
	st.Close()
	if err != nil || len(failed) < 2 {
		t.Fatalf("Outbox(failed) = %d mails, %v; want at least 2", len(failed), err)
	}
	id := func(i int) string { return strconv.FormatInt(failed[i].ID, 10) }
	countFailed := func() int {
		r := f.run(t, "outbox", "--status", "failed")
		if r.stdout == "no failed mails\n" {
			return 0
		}
		return strings.Count(r.stdout, "\n") - 1
	}

	r := f.run(t, "outbox", "--retry", id(0), "9999", id(1))
	want := "outbox mail " + id(0) + " is due again; a running taflmail serve sends it on its next pass\n" +
		"outbox mail " + id(1) + " is due again; a running taflmail serve sends it on its next pass\n"
	if r.code != exitFailure || r.stdout != want || r.stderr != "taflmail: no outbox mail 9999 (taflmail outbox lists them)\n" {
		t.Errorf("--retry %s 9999 %s = code %d, stdout %q, stderr %q", id(0), id(1), r.code, r.stdout, r.stderr)
	}
	if n := countFailed(); n != len(failed)-2 {
		t.Errorf("%d failed mails after two were queued, want %d", n, len(failed)-2)
	}
	if r := f.run(t, "outbox", "--retry="+id(0)+","+id(1)); r.code != exitOK || strings.Count(r.stdout, "is due again") != 2 {
		t.Errorf("--retry=a,b = code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}

	// the two are tried and refused again
	st, err = archive.Open(ctx, f.path)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range failed[:2] {
		if err := st.MarkFailed(ctx, m.ID, "535 5.7.8 bad credentials"); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	r = f.run(t, "outbox", "--retry", "--all")
	if r.code != exitOK || !strings.HasPrefix(r.stdout, strconv.Itoa(len(failed))+" failed outbox mails are due again (") || !strings.Contains(r.stdout, "due again") {
		t.Errorf("--retry --all = code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if n := countFailed(); n != 0 {
		t.Errorf("%d failed mails after --retry --all, want 0", n)
	}
	if r := f.run(t, "outbox", "--retry", "--all"); r.code != exitOK || r.stdout != "no failed outbox mails\n" {
		t.Errorf("--retry --all with none failed = code %d, stdout %q", r.code, r.stdout)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"outbox", "--all"}, "--all goes with --retry"},
		{[]string{"outbox", "--retry", "--all", "3"}, "--retry --all takes no ids"},
		{[]string{"outbox", "--retry"}, "--retry wants the ids of outbox mails"},
		{[]string{"outbox", "3"}, `unexpected argument "3": ids go after --retry`},
		{[]string{"outbox", "--retry=4,x"}, `--retry "4,x": not a list of whole numbers like 41,42`},
	} {
		if r := f.run(t, tc.args...); r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("taflmail %q = code %d, stderr %q; want 2 and %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
}
