// Package health answers the operator's monitoring (issue 21): /healthz,
// whether the referee reads and sends its mail, and /metrics, its counters
// and queues in the Prometheus exposition format. It reads the mailer's
// statuses and the archive's queues through functions it is given, so it
// imports no package of ours but mailer; the referee's events come in
// through [Monitor]'s methods, which implement server.Observer.
package health

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/taflmail/taflmail/mailer"
)

// Defaults of [Options], and of the configuration keys
// health.imap_max_poll_age, health.smtp_max_failing and
// health.timers_late_after that serve gives them.
const (
	// DefaultMaxPollAge is how old the last successful poll of the inbox
	// may be before /healthz fails: the daemon reads the mailbox at least
	// once a minute (server.Options.WaitCap), so five minutes is several
	// missed rounds.
	DefaultMaxPollAge = 5 * time.Minute
	// DefaultSMTPWindow is how long the relay may fail to take the
	// replies, from its first deferral, before /healthz fails.
	DefaultSMTPWindow = 15 * time.Minute
	// DefaultLateAfter is how long past its due time a timer counts as
	// late in taflmail_timers_late.
	DefaultLateAfter = 5 * time.Minute
)

// Options configure a [Monitor]. Every zero value has a working default;
// a nil function leaves its metric out.
type Options struct {
	// Version is the program's version, the label of taflmail_build_info.
	Version string
	// MaxPollAge is the oldest last poll /healthz accepts, default
	// DefaultMaxPollAge.
	MaxPollAge time.Duration
	// SMTPWindow is how long the relay may fail to deliver
	// (mailer.SMTPStatus.FailingSince) before /healthz fails, and how
	// recent its last delivery or contact must be after a failed check
	// alone; default DefaultSMTPWindow.
	SMTPWindow time.Duration
	// LateAfter is when a due timer counts as late, default
	// DefaultLateAfter.
	LateAfter time.Duration
	// Outbox returns the mails waiting in the outbox and when the oldest
	// was queued (archive.Store.OutboxStats).
	Outbox func(ctx context.Context) (pending int, oldest time.Time, err error)
	// Timers returns the timers due at now and those due before
	// now−late (archive.Store.TimerStats).
	Timers func(ctx context.Context, now time.Time, late time.Duration) (due, behind int, err error)
	// Now is the clock, default time.Now.
	Now func() time.Time
}

// Monitor holds what /healthz and /metrics report. Its zero value is not
// usable; make one with [New]. The inbox, the sender and the engine queue
// are attached when they exist ([Monitor.SetInbox] and the others), as
// serve builds them after the HTTP listener; until the inbox is attached
// /healthz fails.
type Monitor struct {
	opts Options
	reg  *prometheus.Registry

	mu     sync.Mutex
	imap   func() mailer.IMAPStatus
	smtp   func() mailer.SMTPStatus
	engine func() int

	mails    *prometheus.CounterVec
	sent     prometheus.Counter
	deferred prometheus.Counter
	failed   prometheus.Counter
	think    prometheus.Histogram
}

// New returns a Monitor with its metrics registered: the referee's, the
// Go runtime's and the process's.
func New(o Options) *Monitor {
	if o.MaxPollAge <= 0 {
		o.MaxPollAge = DefaultMaxPollAge
	}
	if o.SMTPWindow <= 0 {
		o.SMTPWindow = DefaultSMTPWindow
	}
	if o.LateAfter <= 0 {
		o.LateAfter = DefaultLateAfter
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	m := &Monitor{opts: o, reg: prometheus.NewRegistry()}
	m.mails = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "taflmail_mails_handled_total",
		Help: "Mails the referee decided and recorded, by disposition (applied, refused, ignored, error)."}, []string{"disposition"})
	for _, d := range []string{"applied", "refused", "ignored", "error"} {
		m.mails.WithLabelValues(d) // present at 0 from the start, so rate() sees the first mail
	}
	m.sent = prometheus.NewCounter(prometheus.CounterOpts{Name: "taflmail_replies_sent_total",
		Help: "Outbox mails the SMTP relay took."})
	m.deferred = prometheus.NewCounter(prometheus.CounterOpts{Name: "taflmail_replies_deferred_total",
		Help: "Outbox mails the SMTP relay refused for now; each is retried later."})
	m.failed = prometheus.NewCounter(prometheus.CounterOpts{Name: "taflmail_replies_failed_total",
		Help: "Outbox mails given up for good."})
	m.think = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "taflmail_engine_think_seconds",
		Help:    "Time of each search of the engine opponent, in seconds.",
		Buckets: []float64{0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}})
	build := prometheus.NewGauge(prometheus.GaugeOpts{Name: "taflmail_build_info",
		Help: "Always 1; the label version is the running program's.", ConstLabels: prometheus.Labels{"version": o.Version}})
	build.Set(1)
	m.reg.MustRegister(m.mails, m.sent, m.deferred, m.failed, m.think, build, &stateCollector{m},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// SetInbox attaches the inbox's status (mailer.Inbox.Status).
func (m *Monitor) SetInbox(status func() mailer.IMAPStatus) {
	m.mu.Lock()
	m.imap = status
	m.mu.Unlock()
}

// SetSender attaches the relay's status (mailer.Sender.Status).
func (m *Monitor) SetSender(status func() mailer.SMTPStatus) {
	m.mu.Lock()
	m.smtp = status
	m.mu.Unlock()
}

// SetEngineQueue attaches the length of the engine's queue
// (server.Server.EngineQueue).
func (m *Monitor) SetEngineQueue(length func() int) {
	m.mu.Lock()
	m.engine = length
	m.mu.Unlock()
}

// sources returns the attached functions, nil where none is.
func (m *Monitor) sources() (func() mailer.IMAPStatus, func() mailer.SMTPStatus, func() int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.imap, m.smtp, m.engine
}

// MailHandled counts a recorded mail by its disposition (server.Observer).
func (m *Monitor) MailHandled(disposition string) { m.mails.WithLabelValues(disposition).Inc() }

// ReplySent counts a mail the relay took (server.Observer).
func (m *Monitor) ReplySent() { m.sent.Inc() }

// ReplyDeferred counts a mail the relay refused for now (server.Observer).
func (m *Monitor) ReplyDeferred() { m.deferred.Inc() }

// ReplyFailed counts a mail given up for good (server.Observer).
func (m *Monitor) ReplyFailed() { m.failed.Inc() }

// EngineThought records the time of one engine search (server.Observer).
func (m *Monitor) EngineThought(d time.Duration) { m.think.Observe(d.Seconds()) }

// MetricsHandler serves the metrics in the Prometheus exposition format.
func (m *Monitor) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Part is the health of one side of the referee in /healthz's body.
type Part struct {
	// OK reports the part as working; Problem says why not.
	OK      bool   `json:"ok"`
	Problem string `json:"problem,omitempty"`
	// Note qualifies a part that is OK. For SMTP it is "reachable, last
	// delivery failed at …" (RFC 3339, UTC) while the relay has answered
	// and taken the log-in since its last failed delivery but has taken
	// no mail yet: reachable, not delivering; absent while the relay
	// delivers.
	Note string `json:"note,omitempty"`
	// LastError is the part's last error as the mailer noted it.
	LastError string `json:"last_error,omitempty"`
	// Last is the last success: the last poll of the inbox, the relay's
	// last delivery or contact; absent when none came yet.
	Last *time.Time `json:"last,omitempty"`
}

// Report is /healthz's JSON body.
type Report struct {
	// Status is "ok" when every part is, else "failing".
	Status string `json:"status"`
	IMAP   Part   `json:"imap"`
	SMTP   Part   `json:"smtp"`
}

// Check returns the referee's health at the Monitor's clock: IMAP is
// healthy while logged in and polled within MaxPollAge. SMTP is healthy
// while the relay accepts the log-in and takes the mail; once a delivery
// failed for now (mailer.SMTPStatus.FailingSince), for SMTPWindow from
// that first failure, or while the relay has answered a check
// ([ProbeSMTP]) since the last failed delivery, until the next delivery
// fails. Only a delivery ends the failing time: a relay that takes the
// log-in but defers every mail fails SMTPWindow after the first
// deferral, however often it is checked. A failed check alone (the one
// at start) is tolerated for SMTPWindow after the relay's last delivery
// or contact.
func (m *Monitor) Check() Report {
	now := m.opts.Now()
	imapStatus, smtpStatus, _ := m.sources()
	r := Report{Status: "ok", IMAP: Part{OK: true}, SMTP: Part{OK: true}}
	if imapStatus == nil {
		r.IMAP = Part{Problem: "not connected yet"}
	} else {
		st := imapStatus()
		r.IMAP.LastError, r.IMAP.Last = st.LastError, timePtr(st.LastPoll)
		switch {
		case !st.LoggedIn:
			r.IMAP.OK, r.IMAP.Problem = false, "not logged in"
		case st.LastPoll.IsZero() && now.Sub(st.LastLogin) > m.opts.MaxPollAge:
			r.IMAP.OK, r.IMAP.Problem = false, "never polled"
		case !st.LastPoll.IsZero() && now.Sub(st.LastPoll) > m.opts.MaxPollAge:
			r.IMAP.OK, r.IMAP.Problem = false, "last poll "+now.Sub(st.LastPoll).Round(time.Second).String()+" ago"
		}
	}
	if smtpStatus == nil {
		r.SMTP = Part{Problem: "no sender"}
	} else {
		st := smtpStatus()
		last := st.LastContact
		if st.LastDelivery.After(last) {
			last = st.LastDelivery
		}
		r.SMTP.LastError, r.SMTP.Last = st.LastError, timePtr(last)
		switch {
		case st.AuthRejections > 0:
			r.SMTP.OK, r.SMTP.Problem = false, "log-in rejected"
		case !st.FailingSince.IsZero() && reachable(st):
			r.SMTP.Note = "reachable, last delivery failed at " + st.LastFailedDelivery.UTC().Format(time.RFC3339)
		case !st.FailingSince.IsZero():
			if now.Sub(st.FailingSince) > m.opts.SMTPWindow {
				r.SMTP.OK, r.SMTP.Problem = false, "relay failing"
			}
		case st.LastError != "" && (last.IsZero() || now.Sub(last) > m.opts.SMTPWindow):
			r.SMTP.OK, r.SMTP.Problem = false, "relay failing"
		}
	}
	if !r.IMAP.OK || !r.SMTP.OK {
		r.Status = "failing"
	}
	return r
}

// reachable reports whether the relay answered and took the log-in after
// its last failed delivery, with no failure since: a successful check.
func reachable(st mailer.SMTPStatus) bool {
	return st.LastError == "" && st.LastContact.After(st.LastFailedDelivery)
}

// timePtr is t's address, nil for the zero time.
func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// HealthHandler serves /healthz: [Monitor.Check] as JSON, status 200
// when healthy and 503 when a part fails.
func (m *Monitor) HealthHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		r := m.Check()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		if r.Status != "ok" {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		_ = json.NewEncoder(w).Encode(r)
	})
}

// stateCollector reads the queues and the mailer's statuses at each
// scrape.
type stateCollector struct{ m *Monitor }

var (
	descOutbox     = prometheus.NewDesc("taflmail_outbox_pending", "Mails waiting in the outbox, due or waiting for a retry.", nil, nil)
	descOutboxAge  = prometheus.NewDesc("taflmail_outbox_oldest_age_seconds", "Age of the oldest mail waiting in the outbox, in seconds; 0 when none waits.", nil, nil)
	descTimersDue  = prometheus.NewDesc("taflmail_timers_due", "Timers (reminders, deadlines, engine turns) due and not yet fired.", nil, nil)
	descTimersLate = prometheus.NewDesc("taflmail_timers_late", "Due timers that should have fired more than health.timers_late_after (default 5 minutes) ago.", nil, nil)
	descEngineQ    = prometheus.NewDesc("taflmail_engine_queue_length", "Engine turns waiting for a search slot.", nil, nil)
	descReconnects = prometheus.NewDesc("taflmail_imap_reconnects_total", "Successful IMAP log-ins after the first.", nil, nil)
	descLoggedIn   = prometheus.NewDesc("taflmail_imap_logged_in", "1 while the IMAP session is logged in, else 0.", nil, nil)
	descPollAge    = prometheus.NewDesc("taflmail_imap_last_poll_age_seconds", "Seconds since the last successful read of the inbox.", nil, nil)
	descSMTPAuth   = prometheus.NewDesc("taflmail_smtp_auth_rejections", "SMTP log-ins the relay rejected since the last accepted one.", nil, nil)
	descScrapeErr  = prometheus.NewDesc("taflmail_archive_read_errors", "1 when the archive could not be read for this scrape, else 0.", nil, nil)
)

// Describe implements prometheus.Collector.
func (c *stateCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descOutbox, descOutboxAge, descTimersDue, descTimersLate, descEngineQ,
		descReconnects, descLoggedIn, descPollAge, descSMTPAuth, descScrapeErr} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *stateCollector) Collect(ch chan<- prometheus.Metric) {
	m := c.m
	now := m.opts.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	gauge := func(d *prometheus.Desc, v float64) { ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v) }
	readErr := 0.0
	if m.opts.Outbox != nil {
		if n, oldest, err := m.opts.Outbox(ctx); err != nil {
			readErr = 1
		} else {
			age := 0.0
			if !oldest.IsZero() {
				age = max(now.Sub(oldest).Seconds(), 0)
			}
			gauge(descOutbox, float64(n))
			gauge(descOutboxAge, age)
		}
	}
	if m.opts.Timers != nil {
		if due, late, err := m.opts.Timers(ctx, now, m.opts.LateAfter); err != nil {
			readErr = 1
		} else {
			gauge(descTimersDue, float64(due))
			gauge(descTimersLate, float64(late))
		}
	}
	gauge(descScrapeErr, readErr)
	imapStatus, smtpStatus, engine := m.sources()
	if engine != nil {
		gauge(descEngineQ, float64(engine()))
	}
	if imapStatus != nil {
		st := imapStatus()
		ch <- prometheus.MustNewConstMetric(descReconnects, prometheus.CounterValue, float64(st.Reconnects))
		in := 0.0
		if st.LoggedIn {
			in = 1
		}
		gauge(descLoggedIn, in)
		if !st.LastPoll.IsZero() {
			gauge(descPollAge, max(now.Sub(st.LastPoll).Seconds(), 0))
		}
	}
	if smtpStatus != nil {
		gauge(descSMTPAuth, float64(smtpStatus().AuthRejections))
	}
}
