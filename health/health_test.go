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
