package health

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/taflmail/taflmail/mailer"
)

func TestMetrics(t *testing.T) {
	pending := 2
	m := New(Options{Version: "v1.2.3", Now: func() time.Time { return now },
		Outbox: func(context.Context) (int, time.Time, error) { return pending, now.Add(-90 * time.Second), nil },
		Timers: func(context.Context, time.Time, time.Duration) (int, int, error) { return 3, 1, nil }})
	m.SetInbox(func() mailer.IMAPStatus {
		return mailer.IMAPStatus{LoggedIn: true, LastPoll: now.Add(-20 * time.Second), Reconnects: 4}
	})
	m.SetEngineQueue(func() int { return 5 })
	m.MailHandled("applied")
	m.MailHandled("applied")
	m.MailHandled("refused")
	m.ReplySent()
	m.ReplyDeferred()
	m.EngineThought(1500 * time.Millisecond)

	rec := httptest.NewRecorder()
	m.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(rec.Body.String()))
	if err != nil {
		t.Fatalf("exposition does not parse: %v\n%s", err, rec.Body.String())
	}
	gauge := func(name string) float64 {
		f, ok := families[name]
		if !ok || len(f.Metric) != 1 {
			t.Fatalf("%s missing or not one series", name)
		}
		mt := f.Metric[0]
		switch {
		case mt.Gauge != nil:
			return mt.Gauge.GetValue()
		case mt.Counter != nil:
			return mt.Counter.GetValue()
		}
		t.Fatalf("%s is neither gauge nor counter", name)
		return 0
	}
	for name, want := range map[string]float64{
		"taflmail_outbox_pending": 2, "taflmail_outbox_oldest_age_seconds": 90, "taflmail_timers_due": 3,
		"taflmail_timers_late": 1, "taflmail_engine_queue_length": 5, "taflmail_imap_reconnects_total": 4,
		"taflmail_imap_last_poll_age_seconds": 20, "taflmail_imap_logged_in": 1, "taflmail_replies_sent_total": 1,
		"taflmail_replies_deferred_total": 1, "taflmail_build_info": 1,
	} {
		if got := gauge(name); got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if got := testutil.ToFloat64(m.mails.WithLabelValues("applied")); got != 2 {
		t.Errorf("applied mails = %v, want 2", got)
	}
	if n := families["taflmail_engine_think_seconds"].Metric[0].Histogram.GetSampleCount(); n != 1 {
		t.Errorf("think time samples = %d, want 1", n)
	}
	pending = 0
	if err := testutil.GatherAndCompare(m.reg, strings.NewReader(`# HELP taflmail_outbox_pending Mails waiting in the outbox, due or waiting for a retry.
# TYPE taflmail_outbox_pending gauge
taflmail_outbox_pending 0
`), "taflmail_outbox_pending"); err != nil {
		t.Error(err)
	}
}
