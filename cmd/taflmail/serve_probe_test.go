package main

import (
	"context"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/config"
)

// TestRequeueDeferred: when the relay is back, a reply waiting for its
// retry is made due now; a mail given up for good stays failed, and a
// mail due already is left to the referee.
func TestRequeueDeferred(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	st, err := archive.Open(ctx, f.path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	pending, err := st.Outbox(ctx, archive.Pending)
	if err != nil || len(pending) != 1 {
		t.Fatalf("Outbox(pending) = %d mails, %v; want the fixture's 1", len(pending), err)
	}
	now := time.Now().UTC().Truncate(time.Second)
	if err := st.MarkRetry(ctx, pending[0].ID, now.Add(6*time.Hour), "451 try later"); err != nil {
		t.Fatal(err)
	}
	n, err := requeueDeferred(ctx, st, now)
	if err != nil || n != 1 {
		t.Fatalf("requeueDeferred = %d, %v; want the deferred reply made due", n, err)
	}
	after, err := st.Outbox(ctx, archive.Pending)
	if err != nil || len(after) != 1 || !after[0].NextAttempt.Equal(now) {
		t.Errorf("pending after requeueDeferred = %+v, %v; want it due at %v", after, err, now)
	}
	if failed, err := st.Outbox(ctx, archive.Failed); err != nil || len(failed) != 1 {
		t.Errorf("failed mails after requeueDeferred = %d, %v; want the fixture's 1 still failed", len(failed), err)
	}
	if n, err := requeueDeferred(ctx, st, now); err != nil || n != 0 {
		t.Errorf("requeueDeferred of a mail due already = %d, %v; want 0", n, err)
	}
}

// TestProbeInterval: a minute, a third of health.smtp_max_failing when
// that is shorter, never under a second.
func TestProbeInterval(t *testing.T) {
	for _, c := range []struct{ window, want time.Duration }{
		{15 * time.Minute, time.Minute}, {90 * time.Second, 30 * time.Second}, {time.Second, time.Second},
	} {
		cfg := config.Default()
		cfg.Health.SMTPMaxFailing = c.window
		if got := probeInterval(cfg); got != c.want {
			t.Errorf("probeInterval(smtp_max_failing %v) = %v, want %v", c.window, got, c.want)
		}
	}
}
