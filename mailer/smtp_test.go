package mailer

import (
	"bufio"
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"
)

// scriptedSMTP is a one-connection SMTP server on loopback that answers each
// command from a script and records what the client wrote, as go-smtp's own
// client tests compare transcripts.
type scriptedSMTP struct {
	addr string
	got  chan []string // the client's lines, when the connection ends
}

// startScripted serves one connection: greeting, then for each line the
// client sends, the next reply of replies ("" = read the DATA body up to
// ".", then reply with the next entry).
func startScripted(t *testing.T, greeting string, replies map[string]string) *scriptedSMTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &scriptedSMTP{addr: ln.Addr().String(), got: make(chan []string, 1)}
	go func() {
		defer ln.Close()
		conn, err := ln.Accept()
		if err != nil {
			s.got <- nil
			return
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		var lines []string
		defer func() { s.got <- lines }()
		br := bufio.NewReader(conn)
		write := func(reply string) { conn.Write([]byte(strings.ReplaceAll(reply, "\n", "\r\n") + "\r\n")) }
		write(greeting)
		if !strings.HasPrefix(greeting, "220") {
			return
		}
		inData := false
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimRight(line, "\r\n")
			lines = append(lines, line)
			if inData {
				if line == "." {
					inData = false
					write(replies["."])
				}
				continue
			}
			verb := strings.ToUpper(strings.SplitN(line, " ", 2)[0])
			if strings.HasPrefix(verb, "MAIL") || strings.HasPrefix(verb, "RCPT") {
				verb = strings.ToUpper(line[:4])
			}
			reply, ok := replies[verb]
			if !ok {
				reply = "250 OK"
			}
			write(reply)
			if verb == "DATA" && strings.HasPrefix(reply, "354") {
				inData = true
			}
			if verb == "QUIT" || strings.HasPrefix(reply, "421") {
				return
			}
		}
	}()
	return s
}

func TestSendTranscript(t *testing.T) {
	srv := startScripted(t, "220 mx.test ESMTP", map[string]string{
		"EHLO": "250-mx.test\n250-AUTH PLAIN\n250 8BITMIME",
		"AUTH": "235 2.7.0 OK",
		"DATA": "354 go ahead",
		".":    "250 2.0.0 queued",
		"QUIT": "221 bye",
	})
	s := NewSender(SMTPConfig{Addr: srv.addr, Security: SecurityNone, Username: "game", Password: "pw", HeloName: "referee.taflmail.test"})
	raw := []byte("Subject: x\r\n\r\n.leading dot\r\nend\r\n")
	if err := s.Send(context.Background(), "game@taflmail.test", []string{"a@example.org", "b@example.org"}, raw); err != nil {
		t.Fatalf("Send = %v", err)
	}
	want := []string{
		"EHLO referee.taflmail.test",
		"AUTH PLAIN AGdhbWUAcHc=", // "\x00game\x00pw"
		"MAIL FROM:<game@taflmail.test> BODY=8BITMIME",
		"RCPT TO:<a@example.org>",
		"RCPT TO:<b@example.org>",
		"DATA",
		"Subject: x",
		"",
		"..leading dot", // dot-stuffed (RFC 5321 §4.5.2)
		"end",
		".",
		"QUIT",
	}
	got := <-srv.got
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("client wrote:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestSendErrorClasses(t *testing.T) {
	tests := []struct {
		name      string
		greeting  string
		replies   map[string]string
		cfg       SMTPConfig
		temporary bool
		code      int
		enhanced  string
	}{
		{"greeting 421", "421 4.3.2 busy", nil, SMTPConfig{}, true, 421, "4.3.2"},
		{"rcpt 452", "220 ok", map[string]string{"RCPT": "452 4.2.2 mailbox full"}, SMTPConfig{}, true, 452, "4.2.2"},
		{"rcpt 550", "220 ok", map[string]string{"RCPT": "550 5.1.1 no such user"}, SMTPConfig{}, false, 550, "5.1.1"},
		{"data 554", "220 ok", map[string]string{"DATA": "354 go", ".": "554 5.7.1 spam"}, SMTPConfig{}, false, 554, "5.7.1"},
		{"no enhanced code", "220 ok", map[string]string{"MAIL": "451 try later"}, SMTPConfig{}, true, 451, ""},
		// a rejected log-in is the credentials' fault, not the mail's: the
		// mail waits until they are fixed (issue 21)
		{"auth 535", "220 ok", map[string]string{"EHLO": "250-x\n250 AUTH PLAIN", "AUTH": "535 5.7.8 bad"}, SMTPConfig{Username: "u", Password: "p"}, true, 535, "5.7.8"},
		{"no auth offered", "220 ok", nil, SMTPConfig{Username: "u", Password: "p"}, false, 0, ""},
		{"no starttls offered", "220 ok", nil, SMTPConfig{Security: SecurityStartTLS}, false, 0, ""},
		{"unknown security", "220 ok", nil, SMTPConfig{Security: "ssl3"}, false, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := startScripted(t, tt.greeting, tt.replies)
			cfg := tt.cfg
			cfg.Addr = srv.addr
			if cfg.Security == "" {
				cfg.Security = SecurityNone
			}
			err := NewSender(cfg).Send(context.Background(), "a@x.test", []string{"b@x.test"}, []byte("Subject: x\r\n\r\nx\r\n"))
			var se *SendError
			if !errors.As(err, &se) {
				t.Fatalf("Send = %v, want *SendError", err)
			}
			if se.Temporary != tt.temporary || se.Code != tt.code || se.EnhancedCode != tt.enhanced {
				t.Errorf("Send = %v: Temporary %v Code %d EnhancedCode %q; want %v %d %q", err, se.Temporary, se.Code, se.EnhancedCode, tt.temporary, tt.code, tt.enhanced)
			}
			if se.Unwrap() == nil || !strings.HasPrefix(se.Error(), "mailer: send") {
				t.Errorf("Error() = %q, Unwrap() = %v", se.Error(), se.Unwrap())
			}
		})
	}
}

func TestSendGuards(t *testing.T) {
	var se *SendError
	err := NewSender(SMTPConfig{Addr: "192.0.2.1:25", Security: SecurityNone, Username: "u", Password: "p"}).
		Send(context.Background(), "a@x.test", []string{"b@x.test"}, nil)
	if !errors.As(err, &se) || se.Temporary {
		t.Errorf("Send(AUTH in clear to a remote host) = %v, want a permanent refusal", err)
	}
	err = NewSender(SMTPConfig{Addr: "127.0.0.1:1"}).Send(context.Background(), "a@x.test", nil, nil)
	if !errors.As(err, &se) || se.Temporary {
		t.Errorf("Send(no recipients) = %v, want a permanent error", err)
	}

	// A server that never answers: ctx ends the attempt, temporarily.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		if c, err := ln.Accept(); err == nil {
			defer c.Close()
			time.Sleep(3 * time.Second)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = NewSender(SMTPConfig{Addr: ln.Addr().String(), Security: SecurityNone}).Send(ctx, "a@x.test", []string{"b@x.test"}, nil)
	if !errors.As(err, &se) || !se.Temporary || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Send(silent server) = %v, want temporary, wrapping DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Send(silent server) took %v despite a 300ms context", d)
	}
}

func TestBackoff(t *testing.T) {
	minD, maxD := 100*time.Millisecond, time.Second
	for n := range 70 {
		nominal := maxD
		if n < 4 { // 100, 200, 400, 800 ms
			nominal = minD << n
		}
		for range 20 {
			d := backoff(n, minD, maxD)
			if d < nominal/2 || d > nominal {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", n, d, nominal/2, nominal)
			}
		}
	}
}

// TestSendAuthPause: after a rejected log-in the Sender makes no new
// attempt until the pause has passed, fails at once with a temporary
// error that says so, and notes the rejections in Status; the pause
// doubles with each rejection in a row (issue 21: a wrong password tried
// once per outbox mail gets the account locked).
func TestSendAuthPause(t *testing.T) {
	replies := map[string]string{"EHLO": "250-x\n250 AUTH PLAIN", "AUTH": "535 5.7.8 bad credentials"}
	srv := startScripted(t, "220 ok", replies)
	s := NewSender(SMTPConfig{Addr: srv.addr, Security: SecurityNone, Username: "u", Password: "wrong", AuthRetryMinDelay: time.Hour})
	send := func() error {
		return s.Send(context.Background(), "a@x.test", []string{"b@x.test"}, []byte("Subject: x\r\n\r\nx\r\n"))
	}
	err := send()
	var se *SendError
	if !errors.As(err, &se) || !se.Temporary || se.Code != 535 || !errors.Is(err, ErrSMTPAuth) {
		t.Fatalf("Send with a wrong password = %v, want a temporary 535 wrapping ErrSMTPAuth", err)
	}
	if got := <-srv.got; len(got) < 2 || !strings.HasPrefix(got[1], "AUTH PLAIN") {
		t.Errorf("first Send wrote %q, want EHLO and AUTH", got)
	}
	st := s.Status()
	if st.AuthRejections != 1 || !strings.Contains(st.LastError, "535 5.7.8 bad credentials") || !st.LastContact.IsZero() {
		t.Errorf("Status after a rejection = %+v", st)
	}
	if wait := st.NextAuth.Sub(st.LastErrorAt); wait != time.Hour {
		t.Errorf("next log-in %v after the rejection, want 1h", wait)
	}

	// The scripted server took its one connection; a second Send that
	// dialled would fail with "connection refused", not with this.
	err = send()
	if !errors.As(err, &se) || !se.Temporary || !errors.Is(err, ErrSMTPAuth) ||
		!strings.Contains(err.Error(), "SMTP login rejected 1 times in a row") || !strings.Contains(err.Error(), "not trying again before") {
		t.Fatalf("Send during the pause = %v, want a temporary refusal naming the pause", err)
	}
	if st := s.Status(); st.AuthRejections != 1 {
		t.Errorf("a Send during the pause counted as a rejection: %+v", st)
	}

	// With a pause too short to matter, each Send logs in again, and the
	// pause doubles.
	for n := 1; n <= 3; n++ {
		srv := startScripted(t, "220 ok", replies)
		s2 := NewSender(SMTPConfig{Addr: srv.addr, Security: SecurityNone, Username: "u", Password: "wrong", AuthRetryMinDelay: time.Nanosecond})
		s2.status = SMTPStatus{AuthRejections: n - 1}
		if err := send2(s2); !errors.Is(err, ErrSMTPAuth) {
			t.Fatalf("Send %d = %v, want ErrSMTPAuth", n, err)
		}
		st := s2.Status()
		if want := time.Nanosecond << (n - 1); st.AuthRejections != n || st.NextAuth.Sub(st.LastErrorAt) != want {
			t.Errorf("after rejection %d: %d rejections, pause %v; want %d, %v", n, st.AuthRejections, st.NextAuth.Sub(st.LastErrorAt), n, want)
		}
	}
}

func send2(s *Sender) error {
	return s.Send(context.Background(), "a@x.test", []string{"b@x.test"}, []byte("Subject: x\r\n\r\nx\r\n"))
}

// TestSenderStatus: a delivered mail is noted with the relay's contact
// and clears an earlier failure; a refused recipient is contact without
// delivery.
func TestSenderStatus(t *testing.T) {
	ok := startScripted(t, "220 ok", map[string]string{"EHLO": "250-x\n250 AUTH PLAIN", "AUTH": "235 ok", "DATA": "354 go", ".": "250 queued"})
	s := NewSender(SMTPConfig{Addr: ok.addr, Security: SecurityNone, Username: "u", Password: "p"})
	s.status = SMTPStatus{LastError: "earlier", LastErrorAt: time.Now(), AuthRejections: 2}
	if err := send2(s); err != nil {
		t.Fatalf("Send = %v", err)
	}
	st := s.Status()
	if st.LastDelivery.IsZero() || st.LastContact.IsZero() || st.LastError != "" || st.AuthRejections != 0 || !st.NextAuth.IsZero() {
		t.Errorf("Status after a delivery = %+v", st)
	}
	refused := startScripted(t, "220 ok", map[string]string{"RCPT": "550 5.1.1 no such user"})
	s = NewSender(SMTPConfig{Addr: refused.addr, Security: SecurityNone})
	if err := send2(s); err == nil {
		t.Fatal("Send to a refused recipient = nil")
	}
	st = s.Status()
	if !st.LastDelivery.IsZero() || st.LastContact.IsZero() || !strings.Contains(st.LastError, "550") || !st.FailingSince.IsZero() {
		t.Errorf("Status after a refused recipient = %+v, want a failure that is not the relay failing", st)
	}
}

// TestSenderFailingSince: a deferred mail starts the relay's failing
// time; a Check that reaches the relay afterwards notes the contact but
// leaves that time; only a delivery clears it.
func TestSenderFailingSince(t *testing.T) {
	full := startScripted(t, "220 ok", map[string]string{"DATA": "354 go", ".": "452 4.2.2 mailbox full"})
	s := NewSender(SMTPConfig{Addr: full.addr, Security: SecurityNone})
	if err := send2(s); err == nil {
		t.Fatal("Send to a full mailbox = nil")
	}
	st := s.Status()
	if st.FailingSince.IsZero() || !st.LastFailedDelivery.Equal(st.FailingSince) || st.LastContact.After(st.LastFailedDelivery) {
		t.Fatalf("Status after a deferred mail = %+v, want failing since it", st)
	}
	since := st.FailingSince
	s.cfg.Addr = startScripted(t, "220 ok", nil).addr
	if err := s.Check(context.Background()); err != nil {
		t.Fatalf("Check = %v", err)
	}
	st = s.Status()
	if !st.FailingSince.Equal(since) || !st.LastContact.After(st.LastFailedDelivery) || st.LastError != "" {
		t.Errorf("Status after a Check = %+v, want the contact noted and still failing since %v", st, since)
	}
	s.cfg.Addr = startScripted(t, "220 ok", map[string]string{"DATA": "354 go", ".": "250 queued"}).addr
	if err := send2(s); err != nil {
		t.Fatalf("Send = %v", err)
	}
	if st = s.Status(); !st.FailingSince.IsZero() || st.LastDelivery.Before(st.LastFailedDelivery) {
		t.Errorf("Status after a delivery = %+v, want no longer failing", st)
	}
}

func TestAuthRetryDelay(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want time.Duration
	}{
		{0, 0}, {1, time.Minute}, {2, 2 * time.Minute}, {5, 16 * time.Minute}, {6, 30 * time.Minute}, {7, 30 * time.Minute}, {100, 30 * time.Minute},
	} {
		if got := AuthRetryDelay(tt.n, DefaultAuthRetryMinDelay, DefaultAuthRetryMaxDelay); got != tt.want {
			t.Errorf("AuthRetryDelay(%d) = %v, want %v", tt.n, got, tt.want)
		}
	}
}
