package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/taflmail/taflmail/config"
	"github.com/taflmail/taflmail/health"
	"github.com/taflmail/taflmail/mailer/devstack"
)

// TestServeHealthEndToEnd (issue 21 §1) runs `taflmail serve --http`
// through the command line against the devstack and watches it as an
// operator's monitoring would: a challenge played by mail moves the
// counters of /metrics (one mail applied, its two replies sent, the
// outbox empty again, the inbox read lately) and /healthz says both
// parts are well; with the SMTP relay stopped, the next reply is
// deferred and, once health.smtp_max_failing has passed since the
// relay's first failure, /healthz answers 503 naming SMTP while IMAP
// stays well; with the relay back, the probe finds it, the deferred
// reply goes out at once and /healthz is well again. Every metric
// docs/operations.md names is in the scrape. Conditions are waited for
// with a deadline, never timed.
func TestServeHealthEndToEnd(t *testing.T) {
	stack, err := devstack.Start("taflmail.test", map[string]string{"games": "pw", "alice": "pw", "bob": "pw", "carol": "pw"})
	if err != nil {
		t.Fatal(err)
	}
	defer stack.Close()
	t.Setenv("TAFLMAIL_IMAP_PASSWORD", "pw")
	file := serveConfig(t, stack.IMAPAddr(), stack.SMTPAddr(), filepath.Join(t.TempDir(), "taflmail.db"))

	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	root := NewRootCommand()
	root.SetArgs([]string{"serve", "--config", file, "--http", "127.0.0.1:0",
		"--health-smtp-max-failing", "1s", "--health-imap-max-poll-age", "1m"})
	root.SetOut(io.Discard)
	root.SetErr(&logs)
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve = %v; log:\n%s", err, logs.String())
		}
	}()

	// waitFor polls cond until it holds, failing the test after a
	// deadline far beyond what any of these steps takes.
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within 30 s; log:\n%s", what, logs.String())
			}
		}
	}
	// the listener's address, from the log line that announces it
	addrRE := regexp.MustCompile(`msg="web pages served" http=(\S+)`)
	var base string
	waitFor("the HTTP listener", func() bool {
		m := addrRE.FindStringSubmatch(logs.String())
		if m != nil {
			base = "http://" + m[1]
		}
		return m != nil
	})
	waitFor("serving", func() bool { return strings.Contains(logs.String(), `msg="taflmail serving"`) })

	get := func(path string) (int, []byte) {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, b
	}
	scrape := func() map[string]*dto.MetricFamily {
		t.Helper()
		code, body := get("/metrics")
		if code != http.StatusOK {
			t.Fatalf("GET /metrics = %d", code)
		}
		parser := expfmt.NewTextParser(model.UTF8Validation)
		fams, err := parser.TextToMetricFamilies(strings.NewReader(string(body)))
		if err != nil {
			t.Fatalf("/metrics does not parse: %v", err)
		}
		return fams
	}
	// value is the one series of name whose labels include labels; a
	// metric that is missing fails the test.
	value := func(fams map[string]*dto.MetricFamily, name string, labels ...string) float64 {
		t.Helper()
		f, ok := fams[name]
		if !ok {
			t.Fatalf("/metrics has no %s", name)
		}
	series:
		for _, m := range f.Metric {
			for i := 0; i+1 < len(labels); i += 2 {
				if !hasLabel(m, labels[i], labels[i+1]) {
					continue series
				}
			}
			switch {
			case m.Counter != nil:
				return m.Counter.GetValue()
			case m.Gauge != nil:
				return m.Gauge.GetValue()
			}
		}
		t.Fatalf("/metrics has no %s%v", name, labels)
		return 0
	}
	healthz := func() (int, health.Report) {
		t.Helper()
		code, body := get("/healthz")
		var r health.Report
		if err := json.Unmarshal(body, &r); err != nil {
			t.Fatalf("/healthz body %q: %v", body, err)
		}
		return code, r
	}

	before := scrape()
	applied0 := value(before, "taflmail_mails_handled_total", "disposition", "applied")
	sent0 := value(before, "taflmail_replies_sent_total")
	deferred0 := value(before, "taflmail_replies_deferred_total")

	// alice challenges bob: one mail applied, a confirmation to alice and
	// an invitation to bob
	challenge := "From: alice@taflmail.test\r\nTo: games@taflmail.test\r\nSubject: game\r\nMessage-ID: <challenge@taflmail.test>\r\n\r\nnew brandubh with bob@taflmail.test\r\n"
	if err := stack.Deliver("games", []byte(challenge)); err != nil {
		t.Fatal(err)
	}
	received := func(user string) int {
		msgs, err := stack.Messages(user)
		if err != nil {
			t.Fatal(err)
		}
		return len(msgs)
	}
	waitFor("the challenge's replies", func() bool { return received("alice") == 1 && received("bob") == 1 })
	var after map[string]*dto.MetricFamily
	waitFor("the outbox emptied", func() bool {
		after = scrape()
		return value(after, "taflmail_outbox_pending") == 0 && value(after, "taflmail_replies_sent_total") == sent0+2
	})
	if got := value(after, "taflmail_mails_handled_total", "disposition", "applied"); got != applied0+1 {
		t.Errorf("applied mails %v → %v, want one more", applied0, got)
	}
	for _, d := range []string{"refused", "ignored", "error"} {
		if b, a := value(before, "taflmail_mails_handled_total", "disposition", d), value(after, "taflmail_mails_handled_total", "disposition", d); a != b {
			t.Errorf("%s mails %v → %v, want unchanged", d, b, a)
		}
	}
	if got := value(after, "taflmail_replies_deferred_total"); got != deferred0 {
		t.Errorf("deferred replies %v → %v, want unchanged", deferred0, got)
	}
	if got := value(after, "taflmail_imap_logged_in"); got != 1 {
		t.Errorf("taflmail_imap_logged_in = %v, want 1", got)
	}
	// read lately: within the threshold /healthz holds it to
	if age := value(after, "taflmail_imap_last_poll_age_seconds"); age < 0 || age > 60 {
		t.Errorf("taflmail_imap_last_poll_age_seconds = %v, want the inbox read within health.imap_max_poll_age (60 s)", age)
	}
	// every metric docs/operations.md names (its table, its alert rules)
	// is in this real scrape
	ops, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range regexp.MustCompile(`\btaflmail_[a-z0-9_]+`).FindAllString(string(ops), -1) {
		if _, ok := after[name]; !ok {
			t.Errorf("docs/operations.md names %s; serve's /metrics has no such metric", name)
		}
	}
	if code, r := healthz(); code != http.StatusOK || r.Status != "ok" || !r.IMAP.OK || !r.SMTP.OK || r.IMAP.Last == nil || r.SMTP.Last == nil {
		t.Errorf("/healthz = %d %+v, want 200 with both parts ok and their last successes", code, r)
	}

	// The relay goes down; carol's question is answered into the outbox,
	// deferred, and /healthz fails on SMTP once the relay's last delivery
	// is older than health.smtp_max_failing (1 s here).
	if err := stack.StopSMTP(); err != nil {
		t.Fatal(err)
	}
	if err := stack.Deliver("games", []byte("From: carol@taflmail.test\r\nTo: games@taflmail.test\r\nSubject: help\r\nMessage-ID: <help@taflmail.test>\r\n\r\nhelp\r\n")); err != nil {
		t.Fatal(err)
	}
	waitFor("the reply deferred", func() bool {
		m := scrape()
		return value(m, "taflmail_replies_deferred_total") == deferred0+1 && value(m, "taflmail_outbox_pending") == 1
	})
	var code int
	var r health.Report
	waitFor("/healthz failing on SMTP", func() bool {
		code, r = healthz()
		return code == http.StatusServiceUnavailable
	})
	if r.Status != "failing" || r.SMTP.OK || r.SMTP.Problem != "relay failing" || r.SMTP.LastError == "" || !r.IMAP.OK {
		t.Errorf("/healthz = %d %+v, want SMTP failing (relay failing, with its error) and IMAP ok", code, r)
	}

	// The relay comes back on its address. The probe (every second here,
	// a third of health.smtp_max_failing but at least a second) reaches
	// it, makes carol's deferred reply due, a minute before its retry,
	// and wakes the referee: the reply goes out, and /healthz is well
	// again, delivering, not merely reachable.
	if err := stack.StartSMTP(); err != nil {
		t.Fatal(err)
	}
	waitFor("carol's deferred reply delivered", func() bool { return received("carol") == 1 })
	waitFor("/healthz well again", func() bool {
		code, r = healthz()
		return code == http.StatusOK
	})
	if r.Status != "ok" || !r.SMTP.OK || r.SMTP.Note != "" || r.SMTP.LastError != "" || r.SMTP.Last == nil {
		t.Errorf("/healthz = %d %+v, want SMTP ok after a delivery, without the note of a relay only reachable", code, r)
	}
	waitFor("the outbox empty again", func() bool {
		m := scrape()
		return value(m, "taflmail_outbox_pending") == 0 && value(m, "taflmail_replies_sent_total") == sent0+3
	})
	// the probe logged the outage twice, as it began and as it ended, and
	// it was the probe that made the reply due
	out := logs.String()
	if n := strings.Count(out, `msg="probing the SMTP relay until it answers"`); n != 1 {
		t.Errorf("%d lines announce the probe, want 1; log:\n%s", n, out)
	}
	if !regexp.MustCompile(`msg="SMTP relay reachable again" down_for=\S+ replies_due_now=1\b`).MatchString(out) ||
		strings.Count(out, `msg="SMTP relay reachable again"`) != 1 {
		t.Errorf("want one line saying the relay is back with carol's reply due now; log:\n%s", out)
	}
}

// hasLabel reports whether m carries the label name=value.
func hasLabel(m *dto.Metric, name, value string) bool {
	for _, l := range m.Label {
		if l.GetName() == name && l.GetValue() == value {
			return true
		}
	}
	return false
}

// TestHealthDefaults: the configuration's thresholds default to the
// health package's, which its documentation gives.
func TestHealthDefaults(t *testing.T) {
	h := config.Default().Health
	if h.IMAPMaxPollAge != health.DefaultMaxPollAge || h.SMTPMaxFailing != health.DefaultSMTPWindow || h.TimersLateAfter != health.DefaultLateAfter {
		t.Errorf("config.Default().Health = %+v, want health's defaults %v, %v, %v", h,
			health.DefaultMaxPollAge, health.DefaultSMTPWindow, health.DefaultLateAfter)
	}
}

// serveConfig writes the configuration file of a serve test: the
// devstack's user games on imapAddr (password from
// TAFLMAIL_IMAP_PASSWORD) and a relay without AUTH on smtpAddr, both in
// clear text on loopback, the archive at db; the server is
// games@taflmail.test.
func serveConfig(t *testing.T, imapAddr, smtpAddr, db string) string {
	t.Helper()
	return serveConfigMailbox(t, imapAddr, "INBOX", smtpAddr, db)
}

// serveConfigMailbox is serveConfig reading the IMAP folder mailbox.
func serveConfigMailbox(t *testing.T, imapAddr, mailbox, smtpAddr, db string) string {
	t.Helper()
	return writeConfig(t, fmt.Sprintf(`imap:
  addr: %q
  username: games
  security: none
  mailbox: %q
smtp:
  addr: %q
  security: none
archive:
  path: %q
server:
  address: games@taflmail.test
`, imapAddr, mailbox, smtpAddr, db))
}
