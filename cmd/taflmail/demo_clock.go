package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/taflmail/taflmail/mailer"
)

// demoRate is how much faster than real time the clock of `demo --clock`
// runs: four hours a second, so a day's time control runs out in six
// seconds.
const demoRate = 4 * 60 * 60

// fastClock is a clock that starts at the real time and runs at real
// speed until speedUp makes it run rate times faster.
type fastClock struct {
	mu   sync.Mutex
	base time.Time // the clock's time at real instant at
	at   time.Time
	rate int64
}

// newFastClock returns a clock at the real time, running at real speed.
func newFastClock() *fastClock {
	now := time.Now()
	return &fastClock{base: now, at: now, rate: 1}
}

// Now returns the clock's time.
func (c *fastClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.base.Add(time.Since(c.at) * time.Duration(c.rate))
}

// speedUp makes the clock run rate times faster than real time from now
// on.
func (c *fastClock) speedUp(rate int64) {
	now := c.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.base, c.at, c.rate = now, time.Now(), rate
}

// readTimedInbox is the demo referee's inbox under a fast clock: it drops
// the IMAP server's real INTERNALDATE, so that the referee times each mail
// when it reads it, on its own clock (server: a mail without an arrival
// time arrived now).
type readTimedInbox struct{ *mailer.Inbox }

func (in readTimedInbox) Fetch(ctx context.Context, validity, after uint32, maxBytes int64) ([]*mailer.Message, uint32, error) {
	ms, v, err := in.Inbox.Fetch(ctx, validity, after, maxBytes)
	for _, m := range ms {
		m.Arrived = time.Time{}
	}
	return ms, v, err
}

// demoClock plays a timed game between alice and bob: a challenge with
// "time 1d+0d", one move each in real time, then alice stops answering
// and the referee's clock runs fast: it reminds her when less than 12
// hours are left and ends the game on time when her day is up
// (CORRESPONDENCE.md §4).
func demoClock(ctx context.Context, out io.Writer, verbose bool) error {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	clk := newFastClock()
	w, err := startDemoWorldClock(ctx, []string{"alice", "bob"}, logger, demoSetup{},
		demoClockOptions{now: clk.Now, waitCap: 50 * time.Millisecond, arrivalOnRead: true})
	if err != nil {
		return err
	}
	defer w.close()
	fmt.Fprintf(out, "taflmail demo --clock: IMAP %s, SMTP %s, referee %s\n", w.stack.IMAPAddr(), w.stack.SMTPAddr(), w.stack.Address("tafl"))
	fmt.Fprintf(out, "Once the players have moved, the referee's clock runs %d times faster than real time (four hours a second).\n\n", demoRate)
	stamp := &stampWriter{w: out, clk: clk, from: clk.Now()}
	alice, err := newDemoPlayer(ctx, w, "alice", stamp, verbose)
	if err != nil {
		return err
	}
	defer alice.inbox.Close()
	bob, err := newDemoPlayer(ctx, w, "bob", stamp, verbose)
	if err != nil {
		return err
	}
	defer bob.inbox.Close()
	referee := w.stack.Address("tafl")

	if err := alice.send(ctx, referee, "new copenhagen with "+bob.addr+" as attackers time 1d+0d", nil); err != nil {
		return err
	}
	if _, err := alice.next(ctx); err != nil {
		return err
	}
	invitation, err := bob.next(ctx)
	if err != nil {
		return err
	}
	if err := bob.send(ctx, referee, "accept", invitation); err != nil {
		return err
	}
	last := map[*demoPlayer]*mailer.Message{}
	for _, p := range []*demoPlayer{alice, bob} {
		if last[p], err = p.next(ctx); err != nil {
			return err
		}
	}
	for i, move := range []string{"1. h1-h3", "1... d6-d9"} {
		p := []*demoPlayer{alice, bob}[i]
		if err := p.send(ctx, referee, move, last[p]); err != nil {
			return err
		}
		for _, q := range []*demoPlayer{alice, bob} {
			if last[q], err = q.next(ctx); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(stamp, "  (alice does not answer; the clock now runs four hours a second)\n")
	clk.speedUp(demoRate)
	reminder, err := alice.next(ctx)
	if err != nil {
		return err
	}
	if !strings.Contains(reminder.Subject, "reminder") {
		return errors.New("demo: alice's next mail is no reminder:\n" + reminder.Text)
	}
	fmt.Fprintf(out, "%s\n", indent(excerpt(reminder.Text, "Reminder:", "Clocks (")))
	var final *mailer.Message
	for _, p := range []*demoPlayer{alice, bob} {
		if final, err = p.next(ctx); err != nil {
			return err
		}
	}
	if !strings.Contains(final.Text, "ran out of time") {
		return errors.New("demo: the game did not end on time; the last mail was:\n" + final.Text)
	}
	fmt.Fprintf(out, "%s\n", indent(excerpt(final.Text, "The attackers ran out of time", "The game is over")))
	fmt.Fprintf(out, "\nThe record as the referee archived it:\n\n%s", recordFrom(final.Text))
	return nil
}

// excerpt returns the lines of text that start with one of the prefixes.
func excerpt(text string, prefixes ...string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				out = append(out, l)
			}
		}
	}
	return strings.Join(out, "\n")
}

// stampWriter writes each line with the fast clock's time since the
// start, "[+0d12h]".
type stampWriter struct {
	w    io.Writer
	clk  *fastClock
	from time.Time
}

func (s *stampWriter) Write(p []byte) (int, error) {
	d := s.clk.Now().Sub(s.from)
	prefix := fmt.Sprintf("[+%dd%02dh] ", int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour))
	if _, err := io.WriteString(s.w, prefix+string(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}
