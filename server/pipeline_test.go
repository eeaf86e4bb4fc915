package server

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
)

// TestCauseSeeds: the seed of each kind of cause is the string the
// replies' Message-IDs have been made from since the kind first shipped
// (a changed seed would send a crash's repeat twice), and only a mail
// cause has a sender and a mail.
func TestCauseSeeds(t *testing.T) {
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	tm := archive.Timer{GameID: "K7QX2M", Key: "deadline:12"}
	berlin := time.FixedZone("CET", 3600)
	m := &mailer.Message{MessageID: "m1@player.test", From: "Alice@Player.test"}
	cases := []struct {
		name string
		c    cause
		kind causeKind
		seed string
	}{
		{"mail", mailCause(m), causeMail, "m1@player.test"},
		{"timer", timerCause(tm, at), causeTimer, "timer\x00K7QX2M\x00deadline:12"},
		{"engine", engineCause(tm), causeEngine, "timer\x00K7QX2M\x00deadline:12"},
		{"digest", digestCause("bob@player.test", time.Date(2026, 11, 30, 9, 0, 0, 0, berlin), at), causeDigest, "digest\x00bob@player.test\x002026-11-30T08:00:00Z"},
		{"undeliverable", undeliverableCause(archive.OutboxMail{ID: 42, GameID: "K7QX2M"}), causeUndeliverable, "undeliverable\x00K7QX2M\x0042"},
		{"start", startCause("start\x00K7QX2M", at), causeStart, "start\x00K7QX2M"},
		{"own", ownCause("cancel\x00spring"), causeOwn, "cancel\x00spring"},
	}
	for _, tc := range cases {
		if tc.c.kind != tc.kind || tc.c.seed != tc.seed {
			t.Errorf("%s: kind %d, seed %q; want %d, %q", tc.name, tc.c.kind, tc.c.seed, tc.kind, tc.seed)
		}
		if mail := tc.kind == causeMail; (tc.c.mail != nil) != mail || (tc.c.from != "") != mail {
			t.Errorf("%s: mail %v, from %q", tc.name, tc.c.mail, tc.c.from)
		}
	}
	if c := mailCause(m); c.from != "alice@player.test" || c.mail != m {
		t.Errorf("mail cause: from %q, mail %p; want the lower-case sender and the mail %p", c.from, c.mail, m)
	}
	if c := timerCause(tm, at); !c.at.Equal(at) {
		t.Errorf("timer cause at %v; want %v", c.at, at)
	}
}

// TestSessionWithoutMail: a session of a cause that is no mail reads no
// commands, no words and no thread, and counts as arriving when it
// starts, instead of reading a mail that is not there.
func TestSessionWithoutMail(t *testing.T) {
	h := newHarness(t)
	ss := h.srv.newSession(h.ctx(), timerCause(archive.Timer{GameID: "K7QX2M", Key: "deadline:1"}, h.now))
	if !ss.now.Equal(h.now) || ss.from != "" {
		t.Errorf("session at %v from %q; want %v from nobody", ss.now, ss.from, h.now)
	}
	if lines, unread := ss.commandLines(); len(lines) != 0 || unread != 0 {
		t.Errorf("commandLines = %v, %d; want none", lines, unread)
	}
	g := &archive.Game{ID: "K7QX2M", Variant: "brandubh", Attackers: alice, Defenders: bob, Status: archive.Active}
	tb, err := load(g)
	if err != nil {
		t.Fatal(err)
	}
	if p := ss.prose(tb); p != "" {
		t.Errorf("prose = %q; want none", p)
	}
	if a := ss.arrival(); !a.Equal(h.now) {
		t.Errorf("arrival = %v; want the session's instant %v", a, h.now)
	}
	if id := eventOfThread(ss.cause.mail); id != "" {
		t.Errorf("eventOfThread = %q; want none", id)
	}
	later := h.now.Add(time.Hour)
	h.now = later
	if ss := h.srv.newSession(h.ctx(), ownCause("x")); !ss.now.Equal(later) {
		t.Errorf("a cause without an instant starts at %v; want Options.Now, %v", ss.now, later)
	}
}

// TestTransact: the one pipeline decides a cause again in a fresh
// session at each conflict, three times in all, and then returns
// the conflict; a duplicate counts as committed before, not as an error;
// a verdict of nothing commits nothing; and the committed hook runs once,
// after the commit that took.
func TestTransact(t *testing.T) {
	dup := &archive.Error{Op: "commit", Err: fmt.Errorf("timer fired before: %w", archive.ErrDuplicate)}
	cases := []struct {
		name          string
		faults        []fault
		v             verdict
		committed     bool
		conflict      bool
		commits, runs int
	}{
		{"plain", nil, commitAsIs, true, false, 1, 1},
		{"conflict-once", []fault{{err: errConflict}}, commitAsIs, true, false, 2, 2},
		{"conflict-thrice", []fault{{err: errConflict}, {err: errConflict}, {err: errConflict}}, commitAsIs, false, true, 3, 3}, // three attempts, as ever
		{"duplicate", []fault{{err: dup}}, commitAsIs, false, false, 1, 1},
		{"nothing", nil, commitNothing, false, false, 0, 1},
		{"replies", nil, commitReplies, true, false, 1, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			fs := h.withFaults()
			fs.inject("Commit", tc.faults...)
			seen := map[*session]bool{}
			hooks := 0
			ok, err := h.srv.transact(h.ctx(), ownCause("test\x00"+tc.name), steps{
				decide: func(ss *session, _ *archive.Change) (verdict, error) {
					if seen[ss] {
						t.Error("decided twice in the same session")
					}
					seen[ss] = true
					return tc.v, nil
				},
				committed: func(archive.Change) { hooks++ },
			})
			if ok != tc.committed || errors.Is(err, archive.ErrConflict) != tc.conflict || err != nil && !tc.conflict {
				t.Errorf("transact = %v, %v; want committed %v, conflict %v", ok, err, tc.committed, tc.conflict)
			}
			if n := fs.calls["Commit"]; n != tc.commits || len(seen) != tc.runs {
				t.Errorf("%d commits, %d decisions; want %d, %d", n, len(seen), tc.commits, tc.runs)
			}
			if want := map[bool]int{true: 1}[tc.committed]; hooks != want {
				t.Errorf("committed hook ran %d times; want %d", hooks, want)
			}
		})
	}
}

// TestTransactBatch: a decision too large for one change (a tournament's
// start) is written through one archive batch instead of Commit, with
// the same conflict retries.
func TestTransactBatch(t *testing.T) {
	h := newHarness(t)
	fs := h.withFaults()
	fs.inject("WriteBatch", fault{err: errConflict})
	writes := 0
	ok, err := h.srv.transact(h.ctx(), startCause("start\x00test", h.now), steps{
		decide: func(*session, *archive.Change) (verdict, error) { return commitBatch, nil },
		batch:  func(*archive.Batch) error { writes++; return nil },
	})
	if !ok || err != nil {
		t.Fatalf("transact = %v, %v; want committed", ok, err)
	}
	if fs.calls["WriteBatch"] != 2 || fs.calls["Commit"] != 0 || writes != 1 {
		t.Errorf("%d batches (%d written), %d commits; want 2 (1 written, after the conflict), 0",
			fs.calls["WriteBatch"], writes, fs.calls["Commit"])
	}
}
