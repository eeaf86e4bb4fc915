package main

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/taflmail/taflmail/mailer"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// freePort returns a loopback port nothing listens on just now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// TestLoopbackExample follows docs/configuration.md, "Example: loopback
// testing", word for word (trial report §12: it did not work): the demo's
// mail system alone on the ports the example names (here moved to free
// ones), `taflmail serve` with the example's YAML and password, and a
// "help" from alice gets its answer.
func TestLoopbackExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(doc)
	i := strings.Index(section, "## Example: loopback testing")
	if i < 0 {
		t.Fatal("configuration.md has no section \"Example: loopback testing\"")
	}
	section = section[i:]
	if j := strings.Index(section[3:], "\n## "); j >= 0 {
		section = section[:j+3]
	}
	blocks := regexp.MustCompile("(?s)```(yaml|sh)\n(.*?)```").FindAllStringSubmatch(section, -1)
	var yaml, demoLine, serveLine string
	for _, b := range blocks {
		switch {
		case b[1] == "yaml":
			yaml = b[2]
		case strings.Contains(b[2], "taflmail demo"):
			demoLine = strings.TrimSpace(b[2])
		case strings.Contains(b[2], "taflmail serve"):
			serveLine = strings.TrimSpace(b[2])
		}
	}
	if yaml == "" || demoLine == "" || serveLine == "" {
		t.Fatalf("the section lacks the YAML, the demo command or the serve command:\n%s", section)
	}
	const imapPort, smtpPort = "1143", "1025"
	if !strings.Contains(yaml, "127.0.0.1:"+imapPort) || !strings.Contains(yaml, "127.0.0.1:"+smtpPort) || !strings.Contains(demoLine, imapPort) {
		t.Fatalf("the example does not use ports %s and %s", imapPort, smtpPort)
	}
	ip, sp := strconv.Itoa(freePort(t)), strconv.Itoa(freePort(t))
	dir := t.TempDir()
	yaml = strings.NewReplacer(imapPort, ip, smtpPort, sp, `"tmp/`, `"`+dir+`/`).Replace(yaml)

	// taflmail demo --serve … as the example says, in process.
	demoArgs := strings.Fields(strings.NewReplacer(imapPort, ip, smtpPort, sp).Replace(demoLine))[1:]
	var out syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	demoDone := make(chan error, 1)
	go func() {
		root := NewRootCommand()
		root.SetArgs(demoArgs)
		root.SetOut(&out)
		root.SetErr(&out)
		demoDone <- root.ExecuteContext(ctx)
	}()
	defer func() {
		cancel()
		if err := <-demoDone; err != nil {
			t.Errorf("taflmail %q = %v", demoArgs, err)
		}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "IMAP server") {
		if time.Now().After(deadline) {
			t.Fatalf("taflmail %q printed no banner in 10 s:\n%s", demoArgs, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(out.String(), "127.0.0.1:"+ip) {
		t.Fatalf("the demo does not say it listens on port %s:\n%s", ip, out.String())
	}

	// TAFLMAIL_IMAP_PASSWORD=… taflmail serve --config taflmail.test.yaml
	m := regexp.MustCompile(`TAFLMAIL_IMAP_PASSWORD=(\S+)`).FindStringSubmatch(serveLine)
	if m == nil {
		t.Fatalf("the serve command sets no TAFLMAIL_IMAP_PASSWORD: %q", serveLine)
	}
	t.Setenv("TAFLMAIL_IMAP_PASSWORD", m[1])
	cfg, err := loadConfig(nil, writeConfig(t, yaml))
	if err != nil {
		t.Fatalf("the example's configuration: %v", err)
	}
	var logs syncBuffer
	serveDone := make(chan error, 1)
	sctx, stop := context.WithCancel(ctx)
	go func() { serveDone <- serve(sctx, cfg, slog.New(slog.NewTextHandler(&logs, nil))) }()
	defer func() {
		stop()
		if err := <-serveDone; err != nil {
			t.Errorf("serve = %v; log:\n%s", err, logs.String())
		}
	}()

	// alice mails the referee "help" and gets an answer.
	o := &mailer.Outgoing{MessageID: "loopback-help@taflmail.test", From: "alice@taflmail.test", To: []string{cfg.Server.Address}, Subject: "hello", Body: "help\n",
		Headers: map[string]string{"Auto-Submitted": "no"}} // a person writes, as a mail client does
	raw, err := o.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	send := mailer.NewSender(mailer.SMTPConfig{Addr: "127.0.0.1:" + sp, Security: mailer.SecurityNone})
	if err := send.Send(ctx, "alice@taflmail.test", []string{cfg.Server.Address}, raw); err != nil {
		t.Fatalf("alice's mail: %v", err)
	}
	in, err := mailer.DialInbox(ctx, mailer.IMAPConfig{Addr: "127.0.0.1:" + ip, Username: "alice", Password: demoPassword, Security: mailer.SecurityNone, ProcessedMailbox: "Read"})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	deadline = time.Now().Add(20 * time.Second)
	for {
		msgs, _, err := in.Fetch(ctx, 0, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(msgs) > 0 {
			if msgs[0].From != cfg.Server.Address || msgs[0].InReplyTo != o.MessageID {
				t.Errorf("alice got %q from %s in reply to %q", msgs[0].Subject, msgs[0].From, msgs[0].InReplyTo)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no answer to alice within 20 s; serve's log:\n%s\ndemo:\n%s", logs.String(), out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
