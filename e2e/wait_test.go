package e2e

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/taflmail/taflmail/mailer"
)

// TestWaitShortDeadlineKeepsSession: a Wait whose deadline passes while it
// sends its NOOP or starts IDLE returns the context's error and leaves the
// session usable (mailer.Inbox.Wait's contract; the demo's players wait
// 300 ms at a time). Before the fix the deadline closed the connection.
func TestWaitShortDeadlineKeepsSession(t *testing.T) {
	sys := devSystem(t)
	u := sys.newUser(t, "w")
	in, err := mailer.DialInbox(context.Background(), sys.imapConfig(u, "Read"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	for i := 0; i < 500; i++ {
		d := time.Duration(i%50) * 20 * time.Microsecond
		ctx, cancel := context.WithTimeout(context.Background(), d)
		err := in.Wait(ctx)
		cancel()
		if errors.Is(err, mailer.ErrConnection) {
			t.Logf("attempt %d (deadline %v): Wait = %v", i, d, err)
			_, _, ferr := in.Fetch(context.Background(), 0, 0, 0)
			t.Fatalf("after Wait's deadline the session is broken; Fetch = %v", ferr)
		}
	}
}
