package server

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/correspondence"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/server/internal/tournaments"
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
		c    referee.Cause
		kind referee.CauseKind
		seed string
	}{
		{"mail", referee.MailCause(m), referee.CauseMail, "m1@player.test"},
		{"timer", referee.TimerCause(tm, at), referee.CauseTimer, "timer\x00K7QX2M\x00deadline:12"},
		{"engine", referee.EngineCause(tm), referee.CauseEngine, "timer\x00K7QX2M\x00deadline:12"},
		{"digest", referee.DigestCause("bob@player.test", time.Date(2026, 11, 30, 9, 0, 0, 0, berlin), at), referee.CauseDigest, "digest\x00bob@player.test\x002026-11-30T08:00:00Z"},
		{"undeliverable", referee.UndeliverableCause(archive.OutboxMail{ID: 42, GameID: "K7QX2M"}), referee.CauseUndeliverable, "undeliverable\x00K7QX2M\x0042"},
		{"start", referee.StartCause("start\x00K7QX2M", at), referee.CauseStart, "start\x00K7QX2M"},
		{"own", referee.OwnCause("cancel\x00spring"), referee.CauseOwn, "cancel\x00spring"},
	}
	for _, tc := range cases {
		if tc.c.Kind != tc.kind || tc.c.Seed != tc.seed {
			t.Errorf("%s: kind %d, seed %q; want %d, %q", tc.name, tc.c.Kind, tc.c.Seed, tc.kind, tc.seed)
		}
		if mail := tc.kind == referee.CauseMail; (tc.c.Mail != nil) != mail || (tc.c.From != "") != mail {
			t.Errorf("%s: mail %v, from %q", tc.name, tc.c.Mail, tc.c.From)
		}
	}
	if c := referee.MailCause(m); c.From != "alice@player.test" || c.Mail != m {
		t.Errorf("mail cause: from %q, mail %p; want the lower-case sender and the mail %p", c.From, c.Mail, m)
	}
	if c := referee.TimerCause(tm, at); !c.At.Equal(at) {
		t.Errorf("timer cause at %v; want %v", c.At, at)
	}
}

// TestSessionWithoutMail: a session of a cause that is no mail reads no
// commands, no words and no thread, and counts as arriving when it
// starts, instead of reading a mail that is not there.
func TestSessionWithoutMail(t *testing.T) {
	h := newHarness(t)
	ss := h.srv.NewSession(h.ctx(), referee.TimerCause(archive.Timer{GameID: "K7QX2M", Key: "deadline:1"}, h.now))
	if !ss.Now.Equal(h.now) || ss.From != "" {
		t.Errorf("session at %v from %q; want %v from nobody", ss.Now, ss.From, h.now)
	}
	if lines, unread := ss.CommandLines(); len(lines) != 0 || unread != 0 {
		t.Errorf("commandLines = %v, %d; want none", lines, unread)
	}
	g := &archive.Game{ID: "K7QX2M", Variant: "brandubh", Attackers: alice, Defenders: bob, Status: archive.Active}
	tb, err := referee.Load(g)
	if err != nil {
		t.Fatal(err)
	}
	if p := correspondence.Prose(ss, tb); p != "" {
		t.Errorf("prose = %q; want none", p)
	}
	if a := ss.Arrival(); !a.Equal(h.now) {
		t.Errorf("arrival = %v; want the session's instant %v", a, h.now)
	}
	if id := (tournaments.Module{}).ThreadTarget(ss); id != "" {
		t.Errorf("the tournament's ThreadTarget (eventOfThread) = %q; want none", id)
	}
	later := h.now.Add(time.Hour)
	h.now = later
	if ss := h.srv.NewSession(h.ctx(), referee.OwnCause("x")); !ss.Now.Equal(later) {
		t.Errorf("a cause without an instant starts at %v; want Options.Now, %v", ss.Now, later)
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
		v             referee.Verdict
		committed     bool
		conflict      bool
		commits, runs int
	}{
		{"plain", nil, referee.CommitAsIs, true, false, 1, 1},
		{"conflict-once", []fault{{err: errConflict}}, referee.CommitAsIs, true, false, 2, 2},
		{"conflict-thrice", []fault{{err: errConflict}, {err: errConflict}, {err: errConflict}}, referee.CommitAsIs, false, true, 3, 3}, // three attempts, as ever
		{"duplicate", []fault{{err: dup}}, referee.CommitAsIs, false, false, 1, 1},
		{"nothing", nil, referee.CommitNothing, false, false, 0, 1},
		{"replies", nil, referee.CommitReplies, true, false, 1, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			fs := h.withFaults()
			fs.inject("Commit", tc.faults...)
			seen := map[*referee.Session]bool{}
			hooks := 0
			ok, err := h.srv.Transact(h.ctx(), referee.OwnCause("test\x00"+tc.name), referee.Steps{
				Decide: func(ss *referee.Session, _ *archive.Change) (referee.Verdict, error) {
					if seen[ss] {
						t.Error("decided twice in the same session")
					}
					seen[ss] = true
					return tc.v, nil
				},
				Committed: func(archive.Change) { hooks++ },
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
	ok, err := h.srv.Transact(h.ctx(), referee.StartCause("start\x00test", h.now), referee.Steps{
		Decide: func(*referee.Session, *archive.Change) (referee.Verdict, error) { return referee.CommitBatch, nil },
		Batch:  func(*archive.Batch) error { writes++; return nil },
	})
	if !ok || err != nil {
		t.Fatalf("transact = %v, %v; want committed", ok, err)
	}
	if fs.calls["WriteBatch"] != 2 || fs.calls["Commit"] != 0 || writes != 1 {
		t.Errorf("%d batches (%d written), %d commits; want 2 (1 written, after the conflict), 0",
			fs.calls["WriteBatch"], writes, fs.calls["Commit"])
	}
}
