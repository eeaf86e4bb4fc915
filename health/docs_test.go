package health

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/mailer"
)

// metricName is a taflmail metric's name as the documentation writes it.
var metricName = regexp.MustCompile(`\btaflmail_[a-z0-9_]+`)

// TestDocumentedMetrics: every taflmail_* name the documentation uses
// (the table and the alert rules of docs/operations.md, any other page)
// is a metric /metrics serves, and every metric served is in
// docs/operations.md, so an alert rule copied from the docs never
// watches a name that does not exist.
func TestDocumentedMetrics(t *testing.T) {
	m := New(Options{Version: "v0", Now: func() time.Time { return now },
		Outbox: func(context.Context) (int, time.Time, error) { return 0, time.Time{}, nil },
		Timers: func(context.Context, time.Time, time.Duration) (int, int, error) { return 0, 0, nil }})
	m.SetInbox(func() mailer.IMAPStatus { return mailer.IMAPStatus{LoggedIn: true, LastPoll: now} })
	m.SetSender(func() mailer.SMTPStatus { return mailer.SMTPStatus{} })
	m.SetEngineQueue(func() int { return 0 })
	fams, err := m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{}
	for _, f := range fams {
		served[f.GetName()] = true
	}

	pages, err := filepath.Glob("../docs/*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no docs: %v", err)
	}
	documented := map[string][]string{} // name → pages
	for _, page := range append(pages, "../README.md") {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range metricName.FindAllString(string(text), -1) {
			// a histogram's series are its name with _bucket, _sum, _count
			for _, suffix := range []string{"_bucket", "_sum", "_count"} {
				if base, ok := strings.CutSuffix(name, suffix); ok && served[base] {
					name = base
				}
			}
			if !slices.Contains(documented[name], page) {
				documented[name] = append(documented[name], page)
			}
		}
	}
	for name, where := range documented {
		if !served[name] {
			t.Errorf("%s names %s, which /metrics does not serve", strings.Join(where, ", "), name)
		}
	}
	for name := range served {
		if strings.HasPrefix(name, "taflmail_") && !slices.Contains(documented[name], "../docs/operations.md") {
			t.Errorf("/metrics serves %s, which docs/operations.md does not list", name)
		}
	}
}
