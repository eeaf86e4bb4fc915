package health

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/taflmail/taflmail/mailer"
)

var now = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

// get asks m's /healthz and returns the status and the decoded body.
func get(t *testing.T, m *Monitor) (int, Report) {
	t.Helper()
	rec := httptest.NewRecorder()
	m.HealthHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	var r Report
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
		t.Fatalf("body %q: %v", rec.Body.String(), err)
	}
	return rec.Code, r
}

func TestHealthz(t *testing.T) {
	good := mailer.IMAPStatus{LoggedIn: true, LastLogin: now.Add(-time.Hour), LastPoll: now.Add(-30 * time.Second)}
	relay := mailer.SMTPStatus{LastContact: now.Add(-time.Hour)}
	cases := []struct {
		name       string
		imap       *mailer.IMAPStatus
		smtp       mailer.SMTPStatus
		code       int
		imapOK     bool
		smtpOK     bool
		imapReason string
		smtpReason string
	}{
		{name: "healthy", imap: &good, smtp: relay, code: 200, imapOK: true, smtpOK: true},
		{name: "no inbox yet", smtp: relay, code: 503, smtpOK: true, imapReason: "not connected yet"},
		{name: "not logged in", imap: &mailer.IMAPStatus{LastPoll: now.Add(-time.Minute), LastError: "NO [AUTHENTICATIONFAILED]"},
			smtp: relay, code: 503, smtpOK: true, imapReason: "not logged in"},
		{name: "poll too old", imap: &mailer.IMAPStatus{LoggedIn: true, LastPoll: now.Add(-10 * time.Minute)},
			smtp: relay, code: 503, smtpOK: true, imapReason: "last poll 10m0s ago"},
		{name: "relay failing", imap: &good, smtp: mailer.SMTPStatus{LastDelivery: now.Add(-time.Hour), LastError: "dial tcp: refused", LastErrorAt: now},
			code: 503, imapOK: true, smtpReason: "relay failing"},
		{name: "relay failed just after a delivery", imap: &good,
			smtp: mailer.SMTPStatus{LastDelivery: now.Add(-time.Minute), LastError: "dial tcp: refused", LastErrorAt: now}, code: 200, imapOK: true, smtpOK: true},
		{name: "relay log-in rejected", imap: &good, smtp: mailer.SMTPStatus{LastContact: now.Add(-time.Minute), AuthRejections: 1, LastError: "535"},
			code: 503, imapOK: true, smtpReason: "log-in rejected"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := New(Options{Now: func() time.Time { return now }})
			if c.imap != nil {
				st := *c.imap
				m.SetInbox(func() mailer.IMAPStatus { return st })
			}
			m.SetSender(func() mailer.SMTPStatus { return c.smtp })
			code, r := get(t, m)
			if code != c.code || r.IMAP.OK != c.imapOK || r.SMTP.OK != c.smtpOK ||
				r.IMAP.Problem != c.imapReason || r.SMTP.Problem != c.smtpReason {
				t.Errorf("got %d %+v, want %d imap ok=%v %q, smtp ok=%v %q", code, r, c.code, c.imapOK, c.imapReason, c.smtpOK, c.smtpReason)
			}
			if want := map[bool]string{true: "ok", false: "failing"}[c.code == 200]; r.Status != want {
				t.Errorf("status %q, want %q", r.Status, want)
			}
		})
	}
}

// TestHealthzRelayReachableThenDeferring (issue 21 §1) follows one
// outage of the relay through /healthz, 15 minutes of
// health.smtp_max_failing: a reply deferred because the relay is away
// is tolerated for the window, then fails; a probe that reaches the
// relay makes it healthy again, "reachable" and not delivering; the
// retry it triggers is deferred by a relay that takes the log-in but
// not the mail (a full mailbox), and /healthz fails at once, for the
// failing time still counts from the first deferral; a second probe is
// not asked for (the relay answered), and only a delivery ends it.
func TestHealthzRelayReachableThenDeferring(t *testing.T) {
	t0 := now.Add(-time.Hour)
	var st mailer.SMTPStatus
	at := t0
	m := New(Options{Now: func() time.Time { return at }})
	m.SetInbox(func() mailer.IMAPStatus { return mailer.IMAPStatus{LoggedIn: true, LastPoll: at} })
	m.SetSender(func() mailer.SMTPStatus { return st })
	step := func(what string, when time.Time, wantCode int, wantProblem, wantNote string, wantProbe bool) {
		t.Helper()
		at = when
		code, r := get(t, m)
		if code != wantCode || r.SMTP.Problem != wantProblem || r.SMTP.Note != wantNote {
			t.Errorf("%s: /healthz = %d smtp %+v, want %d problem %q note %q", what, code, r.SMTP, wantCode, wantProblem, wantNote)
		}
		if got := NeedsProbe(st, when); got != wantProbe {
			t.Errorf("%s: NeedsProbe = %v, want %v", what, got, wantProbe)
		}
	}
	delivered := t0.Add(-time.Hour)
	st = mailer.SMTPStatus{LastDelivery: delivered, LastContact: delivered}
	step("delivering", t0, 200, "", "", false)

	// the relay is away: the reply is deferred at t0
	st.LastError, st.LastErrorAt = "mailer: send (temporary): connection refused", t0
	st.LastFailedDelivery, st.FailingSince = t0, t0
	step("deferred a minute ago", t0.Add(time.Minute), 200, "", "", true)
	step("deferred 16 minutes ago", t0.Add(16*time.Minute), 503, "relay failing", "", true)

	// a probe reaches it 20 minutes in: healthy, but only reachable
	probe := t0.Add(20 * time.Minute)
	st.LastContact, st.LastError, st.LastErrorAt = probe, "", time.Time{}
	step("probed", probe, 200, "", "reachable, last delivery failed at "+t0.UTC().Format(time.RFC3339), false)

	// the retry it made due is deferred after AUTH: 452, mailbox full
	retry := probe.Add(time.Second)
	st.LastContact, st.LastError, st.LastErrorAt = retry, "mailer: send (temporary, 452): mailbox full", retry
	st.LastFailedDelivery = retry
	step("retry deferred", retry, 503, "relay failing", "", false)
	step("an hour on", retry.Add(time.Hour), 503, "relay failing", "", false)

	// a delivery, and the failing time is over
	ok := retry.Add(2 * time.Hour)
	st.LastDelivery, st.LastContact, st.LastError, st.LastErrorAt, st.FailingSince = ok, ok, "", time.Time{}, time.Time{}
	step("delivered again", ok, 200, "", "", false)
	st.LastError, st.LastErrorAt, st.LastFailedDelivery, st.FailingSince = "452", ok.Add(time.Minute), ok.Add(time.Minute), ok.Add(time.Minute)
	step("away again, in the window", ok.Add(2*time.Minute), 200, "", "", true)
}

// TestHealthzProbeWithinWindow: a probe that reaches the relay soon
// after the failure does not restart the failing time; the retry that
// fails leaves the window counted from the first deferral.
func TestHealthzProbeWithinWindow(t *testing.T) {
	t0 := now
	st := mailer.SMTPStatus{LastError: "refused", LastErrorAt: t0, LastFailedDelivery: t0, FailingSince: t0}
	at := t0
	m := New(Options{Now: func() time.Time { return at }})
	m.SetInbox(func() mailer.IMAPStatus { return mailer.IMAPStatus{LoggedIn: true, LastPoll: at} })
	m.SetSender(func() mailer.SMTPStatus { return st })
	st.LastContact, st.LastError, st.LastErrorAt = t0.Add(time.Minute), "", time.Time{}
	// the retry fails again at once, this time before the relay answers
	st.LastError, st.LastErrorAt, st.LastFailedDelivery = "refused", t0.Add(time.Minute+time.Second), t0.Add(time.Minute+time.Second)
	at = t0.Add(10 * time.Minute)
	if code, r := get(t, m); code != 200 || r.SMTP.Note != "" {
		t.Errorf("10 minutes in: %d %+v, want 200 without a note", code, r.SMTP)
	}
	at = t0.Add(15*time.Minute + time.Second)
	if code, r := get(t, m); code != 503 || r.SMTP.Problem != "relay failing" {
		t.Errorf("15 minutes after the first deferral: %d %+v, want 503 relay failing", code, r.SMTP)
	}
}

// TestNeedsProbe: a relay is probed while its last attempt failed before
// it answered, and after rejected log-ins only once their pause is over.
func TestNeedsProbe(t *testing.T) {
	for _, c := range []struct {
		name string
		st   mailer.SMTPStatus
		want bool
	}{
		{"never tried", mailer.SMTPStatus{}, false},
		{"delivering", mailer.SMTPStatus{LastDelivery: now, LastContact: now}, false},
		{"away at start", mailer.SMTPStatus{LastError: "refused", LastErrorAt: now}, true},
		{"away after a contact", mailer.SMTPStatus{LastContact: now.Add(-time.Hour), LastError: "refused", LastErrorAt: now}, true},
		{"mail deferred after AUTH", mailer.SMTPStatus{LastContact: now, LastError: "452", LastErrorAt: now, FailingSince: now}, false},
		{"log-in rejected, pause on", mailer.SMTPStatus{LastError: "535", LastErrorAt: now.Add(-time.Minute), AuthRejections: 1, NextAuth: now.Add(time.Minute)}, false},
		{"log-in rejected, pause over", mailer.SMTPStatus{LastError: "535", LastErrorAt: now.Add(-time.Minute), AuthRejections: 1, NextAuth: now}, true},
	} {
		if got := NeedsProbe(c.st, now); got != c.want {
			t.Errorf("%s: NeedsProbe = %v, want %v", c.name, got, c.want)
		}
	}
}
