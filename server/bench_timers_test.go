package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/gameclock"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// seedTimedGames writes n running Copenhagen games with the control into
// the archive, started at start, each between its own two players, with
// the timers the referee computes for them (srv.timerPlan), in batches of
// one transaction.
func seedTimedGames(tb testing.TB, srv *referee.Server, store *archive.Store, n int, control string, start time.Time) {
	tb.Helper()
	ctx := context.Background()
	const batch = 5000
	for from := 0; from < n; from += batch {
		plans := archive.TimerPlans{}
		c := archive.Change{Writes: []archive.Write{plans}}
		for i := from; i < min(from+batch, n); i++ {
			g := &archive.Game{
				ID: fmt.Sprintf("G%05d", i), Variant: "copenhagen", Status: archive.Active,
				Attackers: fmt.Sprintf("a%d@player.test", i), Defenders: fmt.Sprintf("d%d@player.test", i),
				AttackerToken: fmt.Sprintf("a%09d", i), DefenderToken: fmt.Sprintf("d%09d", i),
				TimeControl: control, StartedAt: start, CreatedAt: start,
			}
			g.Challenger = g.Attackers
			t, err := referee.Load(g)
			if err != nil {
				tb.Fatal(err)
			}
			plan, err := gameclock.TimerPlan(srv, t)
			if err != nil {
				tb.Fatal(err)
			}
			c.Games = append(c.Games, g)
			plans[g.ID] = plan
		}
		if err := store.Commit(ctx, c); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkRemindersDue1000: 1,000 reminders fall due at once (1,000
// 10d+0d games whose 7-day threshold passed); RunTimers commits each with
// its reply and FlushOutbox sends them, every write fsync'd. Reported as
// reminders/s, the daemon's pace (docs/performance.md; the goal is ≥ 50/s).
func BenchmarkRemindersDue1000(b *testing.B) {
	const n = 1000
	ctx := context.Background()
	start := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	var total time.Duration
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		now := start
		store, err := archive.OpenWith(ctx, filepath.Join(b.TempDir(), fmt.Sprintf("r%d.db", i)), archive.Options{Now: func() time.Time { return now }})
		if err != nil {
			b.Fatal(err)
		}
		sender := &fakeSender{}
		srv, err := referee.New(referee.Options{Address: "tafl@game.test", Store: store, Sender: sender, Now: func() time.Time { return now },
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			b.Fatal(err)
		}
		seedTimedGames(b, srv, store, n, "10d+0d", start)
		now = start.Add(3*day + time.Second)
		b.StartTimer()
		began := time.Now()
		fired, err := srv.RunTimers(ctx)
		srv.FlushOutbox(ctx)
		total += time.Since(began)
		b.StopTimer()
		if err != nil || fired != n || len(sender.sent) != n {
			b.Fatalf("RunTimers = %d, %v; %d sent; want %d reminders", fired, err, len(sender.sent), n)
		}
		store.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(n*b.N)/total.Seconds(), "reminders/s")
}

// idleEnv names the archive the child process of BenchmarkIdleDaemon
// serves; idleWindowEnv its measuring window.
const (
	idleEnv       = "TAFLMAIL_IDLE_ARCHIVE"
	idleWindowEnv = "TAFLMAIL_IDLE_WINDOW"
)

// TestIdleDaemonChild is the daemon of BenchmarkIdleDaemon, in a process
// of its own so that its memory is the daemon's alone: it opens the
// archive, runs Run on an empty mailbox (IDLE that never wakes) with the
// real clock, lets it settle for a second, then measures its CPU time
// (/proc/self/stat utime + stime, clock ticks) over the window and its
// resident memory (/proc/self/status VmRSS, VmHWM), and prints them.
func TestIdleDaemonChild(t *testing.T) {
	path := os.Getenv(idleEnv)
	if path == "" {
		t.Skip("run by BenchmarkIdleDaemon")
	}
	window, err := time.ParseDuration(os.Getenv(idleWindowEnv))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store, err := archive.OpenWith(ctx, path, archive.Options{Exclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	srv, err := referee.New(referee.Options{Address: "tafl@game.test", Store: store, Inbox: newFakeInbox(), Sender: &fakeSender{},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	time.Sleep(time.Second)
	cpu0 := procTicks(t)
	time.Sleep(window)
	cpu1 := procTicks(t)
	rss, hwm := procStatus(t, "VmRSS:"), procStatus(t, "VmHWM:")
	cancel()
	<-done
	fmt.Printf("IDLE ticks=%d rss_kb=%d hwm_kb=%d\n", cpu1-cpu0, rss, hwm)
}

// procTicks returns this process's user + system CPU time in clock ticks
// (fields 14 and 15 of /proc/self/stat).
func procTicks(t *testing.T) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Skip("no /proc/self/stat: ", err)
	}
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return utime + stime
}

// procStatus returns a kB figure of /proc/self/status.
func procStatus(t *testing.T, key string) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status: ", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), key); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// BenchmarkIdleDaemon: an archive of 100,000 running timed games (30d+0d,
// started now: the next timer is 23 days away) served by a daemon with an
// empty mailbox. Each iteration starts the daemon in a process of its own
// (TestIdleDaemonChild) and reports its CPU time over a 10 s idle window
// (cpu-ms/s: milliseconds of CPU per second of wall time) and its
// resident memory (rss-MB, and hwm-MB, the peak).
func BenchmarkIdleDaemon(b *testing.B) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		b.Skip("needs /proc")
	}
	const n = 100000
	window := 10 * time.Second
	path := filepath.Join(b.TempDir(), "idle.db")
	{
		store, err := archive.Open(context.Background(), path)
		if err != nil {
			b.Fatal(err)
		}
		srv, err := referee.New(referee.Options{Address: "tafl@game.test", Store: store, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			b.Fatal(err)
		}
		seedTimedGames(b, srv, store, n, "30d+0d", time.Now().UTC())
		store.Close()
	}
	var ticks, rss, hwm int64
	for b.Loop() {
		cmd := exec.Command(os.Args[0], "-test.run=^TestIdleDaemonChild$", "-test.v")
		cmd.Env = append(os.Environ(), idleEnv+"="+path, idleWindowEnv+"="+window.String())
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("child: %v\n%s", err, out)
		}
		var t, r, h int64
		i := strings.Index(string(out), "IDLE ")
		if i < 0 {
			b.Fatalf("child printed no figures:\n%s", out)
		}
		if _, err := fmt.Sscanf(string(out[i:]), "IDLE ticks=%d rss_kb=%d hwm_kb=%d", &t, &r, &h); err != nil {
			b.Fatalf("child figures: %v\n%s", err, out)
		}
		ticks, rss, hwm = ticks+t, rss+r, hwm+h
	}
	// clock ticks are 10 ms (USER_HZ = 100 on Linux)
	b.ReportMetric(float64(ticks)*10/window.Seconds()/float64(b.N), "cpu-ms/s")
	b.ReportMetric(float64(rss)/1024/float64(b.N), "rss-MB")
	b.ReportMetric(float64(hwm)/1024/float64(b.N), "hwm-MB")
}
