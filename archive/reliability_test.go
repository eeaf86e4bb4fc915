package archive_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
)

// A second Exclusive open of the same archive fails with ErrLocked and
// names the holder; after Close the archive can be opened again.
func TestExclusiveLock(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "taflmail.db")
	first, err := archive.OpenWith(ctx, path, archive.Options{Exclusive: true})
	if err != nil {
		t.Fatalf("first OpenWith = %v", err)
	}
	_, err = archive.OpenWith(ctx, path, archive.Options{Exclusive: true})
	if !errors.Is(err, archive.ErrLocked) {
		t.Fatalf("second Exclusive OpenWith = %v, want ErrLocked", err)
	}
	if want := "pid " + strconv.Itoa(os.Getpid()); !strings.Contains(err.Error(), want) {
		t.Errorf("second OpenWith error %q does not name the holder (%q)", err, want)
	}
	// Readers (the operator's commands) do not take the lock.
	reader, err := archive.OpenWith(ctx, path, archive.Options{})
	if err != nil {
		t.Fatalf("non-exclusive OpenWith while locked = %v", err)
	}
	reader.Close()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := archive.OpenWith(ctx, path, archive.Options{Exclusive: true})
	if err != nil {
		t.Fatalf("Exclusive OpenWith after Close = %v", err)
	}
	again.Close()
}

// lockHolderEnv makes the test binary, started by TestExclusiveLockKilled,
// open the archive exclusively, say so on stdout and wait to be killed.
const lockHolderEnv = "TAFLMAIL_TEST_HOLD_LOCK"

func TestMain(m *testing.M) {
	if path := os.Getenv(lockHolderEnv); path != "" {
		s, err := archive.OpenWith(context.Background(), path, archive.Options{Exclusive: true})
		if err != nil {
			os.Stdout.WriteString("error: " + err.Error() + "\n")
			os.Exit(1)
		}
		defer s.Close()
		os.Stdout.WriteString("locked\n")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A daemon killed with SIGKILL leaves no stale lock: the kernel drops it.
func TestExclusiveLockKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "taflmail.db")
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	cmd.Env = append(os.Environ(), lockHolderEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, _ := out.Read(buf)
	if got := string(buf[:n]); got != "locked\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child said %q, want locked", got)
	}
	_, err = archive.OpenWith(ctx, path, archive.Options{Exclusive: true})
	if !errors.Is(err, archive.ErrLocked) {
		t.Errorf("OpenWith while the child holds the lock = %v, want ErrLocked", err)
	} else if !strings.Contains(err.Error(), "pid "+strconv.Itoa(cmd.Process.Pid)) {
		t.Errorf("error %q does not name the child's pid %d", err, cmd.Process.Pid)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	s, err := archive.OpenWith(ctx, path, archive.Options{Exclusive: true})
	if err != nil {
		t.Fatalf("OpenWith after the holder was killed = %v", err)
	}
	s.Close()
}

// The archive holds every player's key: it and its WAL and shared-memory
// files are readable by the owner only, also when an older version left a
// world-readable file.
func TestArchiveFileModes(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)

	path := filepath.Join(dir, "new.db")
	s, err := archive.OpenWith(ctx, path, archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	commit(t, s, archive.Change{Games: []*archive.Game{newGame("G1")}})
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatalf("stat %s: %v", p, err)
		}
		if got := fi.Mode().Perm(); got != 0o600 {
			t.Errorf("%s has mode %o, want 600", filepath.Base(p), got)
		}
	}
	s.Close()

	loose := filepath.Join(dir, "old.db")
	for _, p := range []string{loose, loose + "-wal"} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err = archive.OpenWith(ctx, loose, archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, p := range []string{loose, loose + "-wal"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != 0o600 {
			t.Errorf("existing %s has mode %o after Open, want 600", filepath.Base(p), got)
		}
	}
}

// Mails and CountMails select by sender, game, disposition, what
// authenticated and whether the mail was answered.
func TestMailsAndCounts(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	type m struct {
		id, from, game, disp string
		auth                 bool
		replies              int
		reason               string
		at                   time.Duration
	}
	for _, x := range []m{
		{"m1", "alice@example.org", "G1", "applied", true, 2, "", 0},
		{"m2", "Alice@Example.org", "G1", "refused", false, 1, "", time.Minute},
		{"m3", "mallory@evil.test", "", "ignored", false, 0, "reply budget for unknown senders spent", 2 * time.Minute},
		{"m4", "alice@example.org", "", "applied", false, 1, "", 3 * time.Minute},
		{"m5", "bob@example.net", "G1", "ignored", false, 0, "bounce", 90 * time.Minute},
	} {
		c := archive.Change{Mail: archive.ProcessedMail{MessageID: x.id, From: x.from, GameID: x.game, Disposition: x.disp,
			At: t0.Add(x.at), Authenticated: x.auth, Reason: x.reason, Subject: "Re: [taflmail G1] " + x.id,
			Replies: 99}} // Replies is the archive's to count
		for i := 0; i < x.replies; i++ {
			c.Outbox = append(c.Outbox, reply(x.game, x.id+"-r"+strconv.Itoa(i), "to@example.org"))
		}
		commit(t, s, c)
	}
	count := func(f archive.MailFilter) int {
		t.Helper()
		n, err := s.CountMails(ctx, f)
		if err != nil {
			t.Fatalf("CountMails(%+v) = %v", f, err)
		}
		return n
	}
	for _, c := range []struct {
		name string
		f    archive.MailFilter
		want int
	}{
		{"all", archive.MailFilter{}, 5},
		{"alice any case", archive.MailFilter{From: "ALICE@example.org"}, 3},
		{"unauthenticated answered", archive.MailFilter{Auth: archive.OnlyUnauthenticated, AnsweredOnly: true}, 2},
		{"alice unauthenticated answered", archive.MailFilter{From: "alice@example.org", Auth: archive.OnlyUnauthenticated, AnsweredOnly: true}, 2},
		{"authenticated", archive.MailFilter{Auth: archive.OnlyAuthenticated}, 1},
		{"ignored", archive.MailFilter{Disposition: "ignored"}, 2},
		{"game G1 last hour", archive.MailFilter{GameID: "G1", Since: t0.Add(30 * time.Minute)}, 1},
	} {
		if got := count(c.f); got != c.want {
			t.Errorf("%s: CountMails = %d, want %d", c.name, got, c.want)
		}
	}
	ignored, err := s.Mails(ctx, archive.MailFilter{Disposition: "ignored"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range ignored {
		got = append(got, x.MessageID+":"+x.Reason)
	}
	if want := []string{"m5:bounce", "m3:reply budget for unknown senders spent"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Mails(ignored) = %q, want %q (newest first, with reasons)", got, want)
	}
	one, err := s.Mail(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	if !one.Authenticated || one.Replies != 2 || one.Subject != "Re: [taflmail G1] m1" || one.From != "alice@example.org" {
		t.Errorf("Mail(m1) = %+v, want authenticated, 2 replies, the subject, lower-case sender", one)
	}
	if _, err := s.Mail(ctx, "nope"); !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("Mail(nope) = %v, want ErrNotFound", err)
	}
	if _, err := s.Mails(ctx, archive.MailFilter{Disposition: "lost"}); !errors.Is(err, archive.ErrInvalid) {
		t.Errorf("Mails(disposition lost) = %v, want ErrInvalid", err)
	}
}

// A long subject is cut at a character boundary.
func TestMailSubjectCut(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	subject := strings.Repeat("ä", 150) // 300 bytes
	commit(t, s, archive.Change{Mail: archive.ProcessedMail{MessageID: "long", From: "a@b.c", Disposition: "refused", Subject: subject}})
	m, err := s.Mail(ctx, "long")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Subject) != 200 || m.Subject != strings.Repeat("ä", 100) {
		t.Errorf("stored subject has %d bytes (%q…), want 100 whole ä (200 bytes)", len(m.Subject), m.Subject[:10])
	}
}

// A claimed mail is sent by its claimant only: a second claim fails while
// the claimant may renew its own, a stale claim can be taken over, and the
// Mark* calls and ReleaseClaims end claims.
func TestOutboxClaims(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	first, second := reply("G1", "first", "alice@example.org"), reply("G1", "second", "alice@example.org")
	first.CreatedAt, second.CreatedAt = t0, t0.Add(time.Second)
	other := reply("G1", "to-bob", "bob@example.net")
	other.CreatedAt = t0
	commit(t, s, archive.Change{Games: []*archive.Game{newGame("G1")}, Outbox: []archive.OutboxMail{first, second, other}})
	byID := map[string]int64{}
	for _, m := range outbox(t, s) {
		byID[m.MessageID] = m.ID
	}
	now := t0.Add(time.Minute)
	claim := func(id, owner string, at time.Time) bool {
		t.Helper()
		ok, err := s.ClaimOutbox(ctx, byID[id], owner, at)
		if err != nil {
			t.Fatalf("ClaimOutbox(%s, %s) = %v", id, owner, err)
		}
		return ok
	}
	pending := func(at time.Time) []string {
		t.Helper()
		got, err := s.PendingOutbox(ctx, at, 0)
		if err != nil {
			t.Fatal(err)
		}
		return ids(got)
	}
	if !claim("first", "proc-A", now) {
		t.Fatal("first claim of a pending mail failed")
	}
	if claim("first", "proc-B", now.Add(time.Minute)) {
		t.Error("a second process claimed a mail under a live claim")
	}
	if !claim("first", "proc-A", now.Add(time.Minute)) {
		t.Error("the claimant could not renew its own claim")
	}
	// proc-A died: after the lease the claim is stale.
	late := now.Add(time.Minute + archive.ClaimLease + time.Second)
	if !claim("first", "proc-B", late) {
		t.Error("a stale claim could not be taken over")
	}
	if err := s.MarkSent(ctx, byID["first"], late); err != nil {
		t.Fatal(err)
	}
	if claim("first", "proc-C", late) {
		t.Error("a sent mail was claimed")
	}
	sent := outbox(t, s)[0]
	if sent.ClaimedBy != "" || !sent.ClaimedAt.IsZero() || sent.Status != archive.Sent {
		t.Errorf("after MarkSent: status %s, claim %q at %v; want sent and no claim", sent.Status, sent.ClaimedBy, sent.ClaimedAt)
	}
	if !claim("second", "proc-B", late) || !claim("to-bob", "proc-B", late) {
		t.Fatal("claims of the other mails failed")
	}
	n, err := s.ReleaseClaims(ctx)
	if err != nil || n != 2 {
		t.Errorf("ReleaseClaims = %d, %v; want 2 dropped", n, err)
	}
	if !claim("second", "proc-C", late) {
		t.Error("a released mail could not be claimed")
	}
	if got, want := pending(late), []string{"to-bob", "second"}; !reflect.DeepEqual(got, want) {
		t.Errorf("PendingOutbox = %q, want %q (claimed mails are listed; their claim decides)", got, want)
	}
	if _, err := s.ClaimOutbox(ctx, 9999, "proc-A", late); !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("ClaimOutbox(no such mail) = %v, want ErrNotFound", err)
	}
	if _, err := s.ClaimOutbox(ctx, byID["second"], "", late); !errors.Is(err, archive.ErrInvalid) {
		t.Errorf("ClaimOutbox(empty owner) = %v, want ErrInvalid", err)
	}
}
