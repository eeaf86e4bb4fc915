package mailer

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// relay is a loopback SMTP server for Session tests that takes any number
// of connections, one after the other, and records what each client
// wrote. It accepts every message unless told otherwise: after perConn
// messages on one connection it answers the next MAIL with limitReply
// (and hangs up after a 421), the recipient refuse gets 550, and with
// silentDot it reads a message whose body holds "no reply" and hangs up
// without answering.
type relay struct {
	addr       string
	perConn    int    // messages taken per connection; 0 for no limit
	limitReply string // the answer to MAIL past perConn
	refuse     string // a recipient refused with 550
	idleDrop   bool   // hang up after each message, as a relay that drops idle connections

	mu    sync.Mutex
	conns [][]string // each connection's lines from the client
	taken []string   // the messages' bodies, in the order taken
}

func startRelay(t *testing.T, r *relay) *relay {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	r.addr = ln.Addr().String()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			r.mu.Lock()
			r.conns = append(r.conns, nil)
			i := len(r.conns) - 1
			r.mu.Unlock()
			r.serve(conn, i)
		}
	}()
	return r
}

// serve answers connection number i until the client leaves or the relay
// hangs up.
func (r *relay) serve(conn net.Conn, i int) {
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(conn)
	write := func(reply string) { conn.Write([]byte(strings.ReplaceAll(reply, "\n", "\r\n") + "\r\n")) }
	write("220 relay.test ESMTP")
	taken := 0
	var body []string
	inData := false
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		r.mu.Lock()
		r.conns[i] = append(r.conns[i], line)
		r.mu.Unlock()
		if inData {
			if line != "." {
				body = append(body, line)
				continue
			}
			inData = false
			text := strings.Join(body, "\n")
			if strings.Contains(text, "no reply") {
				return
			}
			r.mu.Lock()
			r.taken = append(r.taken, text)
			r.mu.Unlock()
			taken++
			write("250 2.0.0 queued")
			if r.idleDrop {
				return
			}
			continue
		}
		verb := strings.ToUpper(strings.SplitN(line, " ", 2)[0])
		switch {
		case verb == "EHLO":
			write("250-relay.test\n250 8BITMIME")
		case verb == "MAIL" && r.perConn > 0 && taken >= r.perConn:
			write(r.limitReply)
			if strings.HasPrefix(r.limitReply, "421") {
				return
			}
		case verb == "RCPT" && r.refuse != "" && strings.Contains(line, "<"+r.refuse+">"):
			write("550 5.1.1 no such user")
		case verb == "DATA":
			write("354 go ahead")
			inData, body = true, nil
		case verb == "QUIT":
			write("221 bye")
			return
		default:
			write("250 OK")
		}
	}
}

// lines returns the lines of every connection, in order.
func (r *relay) lines() [][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([][]string, len(r.conns))
	for i, c := range r.conns {
		out[i] = append([]string(nil), c...)
	}
	return out
}

// bodies returns the messages the relay took, in order.
func (r *relay) bodies() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.taken...)
}

// verbs counts the lines of connection c that start with verb.
func verbs(c []string, verb string) int {
	n := 0
	for _, l := range c {
		if strings.HasPrefix(l, verb) {
			n++
		}
	}
	return n
}

// msg is the raw message number i of a session test.
func msg(i int) []byte { return fmt.Appendf(nil, "Subject: %d\r\n\r\nmessage %d\r\n", i, i) }

// TestSessionOneConnection: a session sends its messages over one
// connection, one EHLO and one QUIT for all, each message in its own
// transaction; Status notes the deliveries.
func TestSessionOneConnection(t *testing.T) {
	r := startRelay(t, &relay{})
	s := NewSender(SMTPConfig{Addr: r.addr, Security: SecurityNone, HeloName: "referee.test"})
	ss := s.Session()
	for i := range 5 {
		if err := ss.Send(context.Background(), "ref@x.test", []string{fmt.Sprintf("p%d@x.test", i)}, msg(i)); err != nil {
			t.Fatalf("Send %d = %v", i, err)
		}
	}
	if err := ss.Close(); err != nil {
		t.Fatalf("Close = %v", err)
	}
	waitFor(t, func() bool { c := r.lines(); return len(c) == 1 && verbs(c[0], "QUIT") == 1 })
	c := r.lines()[0]
	if verbs(c, "EHLO") != 1 || verbs(c, "MAIL FROM") != 5 || verbs(c, "DATA") != 5 || verbs(c, "RSET") != 0 {
		t.Errorf("one connection wrote %q, want one EHLO, five transactions, QUIT", c)
	}
	if st := s.Status(); st.LastDelivery.IsZero() || st.LastError != "" {
		t.Errorf("Status = %+v, want a delivery", st)
	}
	err := ss.Send(context.Background(), "ref@x.test", []string{"p@x.test"}, msg(9))
	var se *SendError
	if !errors.As(err, &se) || !se.Temporary || !errors.Is(err, ErrSessionClosed) {
		t.Errorf("Send after Close = %v, want a temporary ErrSessionClosed", err)
	}
}

// TestSessionRejectedMessage: a refused recipient fails its own message
// for good, the session sends RSET and the next message goes over the
// same connection.
func TestSessionRejectedMessage(t *testing.T) {
	r := startRelay(t, &relay{refuse: "gone@x.test"})
	ss := NewSender(SMTPConfig{Addr: r.addr, Security: SecurityNone}).Session()
	defer ss.Close()
	ctx := context.Background()
	if err := ss.Send(ctx, "ref@x.test", []string{"a@x.test"}, msg(1)); err != nil {
		t.Fatalf("Send 1 = %v", err)
	}
	err := ss.Send(ctx, "ref@x.test", []string{"gone@x.test"}, msg(2))
	var se *SendError
	if !errors.As(err, &se) || se.Temporary || se.Code != 550 {
		t.Fatalf("Send to a refused recipient = %v, want a permanent 550", err)
	}
	if err := ss.Send(ctx, "ref@x.test", []string{"b@x.test"}, msg(3)); err != nil {
		t.Fatalf("Send 3 = %v", err)
	}
	c := r.lines()
	if len(c) != 1 || verbs(c[0], "RSET") != 1 || verbs(c[0], "MAIL FROM") != 3 {
		t.Errorf("connections %q, want one, with RSET after the refusal", c)
	}
	if got := strings.Join(r.bodies(), "|"); !strings.Contains(got, "message 1") || !strings.Contains(got, "message 3") || strings.Contains(got, "message 2") {
		t.Errorf("relay took %q, want messages 1 and 3", got)
	}
}

// TestSessionConnectionLimit: a relay that takes perConn messages a
// connection and then answers 421 (and hangs up), or a 4xx and stays, or
// drops each connection after a message: the session connects anew and
// sends the message that met the limit there, so that every message is
// taken exactly once.
func TestSessionConnectionLimit(t *testing.T) {
	for _, tt := range []struct {
		name  string
		relay *relay
		conns int
	}{
		{"421", &relay{perConn: 2, limitReply: "421 4.7.0 too many messages, closing connection"}, 3},
		{"452", &relay{perConn: 2, limitReply: "452 4.5.3 too many messages in this session"}, 3},
		{"idle drop", &relay{idleDrop: true}, 5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := startRelay(t, tt.relay)
			s := NewSender(SMTPConfig{Addr: r.addr, Security: SecurityNone})
			ss := s.Session()
			for i := range 5 {
				if err := ss.Send(context.Background(), "ref@x.test", []string{"p@x.test"}, msg(i)); err != nil {
					t.Fatalf("Send %d = %v", i, err)
				}
			}
			ss.Close()
			var want []string
			for i := range 5 {
				want = append(want, fmt.Sprintf("Subject: %d\n\nmessage %d", i, i))
			}
			if got := r.bodies(); strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("relay took %q, want each message once, in order", got)
			}
			if c := r.lines(); len(c) != tt.conns {
				t.Errorf("%d connections, want %d", len(c), tt.conns)
			}
			if st := s.Status(); st.LastError != "" || !st.FailingSince.IsZero() {
				t.Errorf("Status = %+v, want no failure noted for a limit met and passed", st)
			}
		})
	}
}

// TestSessionLimitOnFreshConnection: a temporary reply on a connection
// opened for the message is the message's own outcome: it is not sent
// again, and the error is Send's.
func TestSessionLimitOnFreshConnection(t *testing.T) {
	scripted := startScripted(t, "220 ok", map[string]string{"MAIL": "451 4.3.0 try later"})
	s := NewSender(SMTPConfig{Addr: scripted.addr, Security: SecurityNone})
	ss := s.Session()
	err := ss.Send(context.Background(), "ref@x.test", []string{"p@x.test"}, msg(1))
	var se *SendError
	if !errors.As(err, &se) || !se.Temporary || se.Code != 451 {
		t.Fatalf("Send = %v, want a temporary 451", err)
	}
	ss.Close()
	got := <-scripted.got
	if verbs(got, "MAIL") != 1 {
		t.Errorf("client wrote %q, want one MAIL", got)
	}
	if st := s.Status(); st.FailingSince.IsZero() || !strings.Contains(st.LastError, "451") {
		t.Errorf("Status = %+v, want the deferral noted as Send notes it", st)
	}
}

// TestSessionLostReply: the connection breaks after the message's last
// line, before the relay's answer: the relay may hold the message, so the
// session does not send it again (the error is temporary, for the
// outbox's retry, as Send's); the next message goes over a new
// connection.
func TestSessionLostReply(t *testing.T) {
	r := startRelay(t, &relay{})
	ss := NewSender(SMTPConfig{Addr: r.addr, Security: SecurityNone}).Session()
	defer ss.Close()
	ctx := context.Background()
	if err := ss.Send(ctx, "ref@x.test", []string{"p@x.test"}, msg(1)); err != nil {
		t.Fatalf("Send 1 = %v", err)
	}
	err := ss.Send(ctx, "ref@x.test", []string{"p@x.test"}, []byte("Subject: 2\r\n\r\nno reply\r\n"))
	var se *SendError
	if !errors.As(err, &se) || !se.Temporary {
		t.Fatalf("Send with its reply lost = %v, want a temporary error", err)
	}
	if err := ss.Send(ctx, "ref@x.test", []string{"p@x.test"}, msg(3)); err != nil {
		t.Fatalf("Send 3 = %v", err)
	}
	c := r.lines()
	if len(c) != 2 || verbs(c[0], "DATA") != 2 || verbs(c[1], "DATA") != 1 {
		t.Errorf("connections %q, want the lost message written once, then a new connection", c)
	}
}

// TestSessionAuthPause: a session whose log-in is rejected fails as Send
// does (temporary, ErrSMTPAuth), and its next Send during the pause makes
// no new attempt.
func TestSessionAuthPause(t *testing.T) {
	srv := startScripted(t, "220 ok", map[string]string{"EHLO": "250-x\n250 AUTH PLAIN", "AUTH": "535 5.7.8 bad credentials"})
	s := NewSender(SMTPConfig{Addr: srv.addr, Security: SecurityNone, Username: "u", Password: "wrong", AuthRetryMinDelay: time.Hour})
	ss := s.Session()
	defer ss.Close()
	for i := range 2 {
		err := ss.Send(context.Background(), "ref@x.test", []string{"p@x.test"}, msg(i))
		var se *SendError
		if !errors.As(err, &se) || !se.Temporary || !errors.Is(err, ErrSMTPAuth) {
			t.Fatalf("Send %d = %v, want a temporary ErrSMTPAuth", i, err)
		}
		if i == 1 && !strings.Contains(err.Error(), "not trying again before") {
			t.Errorf("Send during the pause = %v, want it to name the pause", err)
		}
	}
	if st := s.Status(); st.AuthRejections != 1 {
		t.Errorf("Status = %+v, want one rejection", st)
	}
}

// TestSessionContext: a relay that stops answering in the middle of a
// session: ctx ends the Send, temporarily, and the next Send connects
// anew rather than reading the old connection.
func TestSessionContext(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 4)
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			go func() {
				defer conn.Close()
				br := bufio.NewReader(conn)
				conn.Write([]byte("220 ok\r\n"))
				for {
					line, err := br.ReadString('\n')
					if err != nil {
						return
					}
					if strings.HasPrefix(line, "EHLO") {
						conn.Write([]byte("250 ok\r\n"))
					} // MAIL and the rest: silence
				}
			}()
		}
	}()
	ss := NewSender(SMTPConfig{Addr: ln.Addr().String(), Security: SecurityNone}).Session()
	defer ss.Close()
	for i := range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := ss.Send(ctx, "ref@x.test", []string{"p@x.test"}, msg(i))
		cancel()
		var se *SendError
		if !errors.As(err, &se) || !se.Temporary || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Send %d to a silent relay = %v, want temporary, wrapping DeadlineExceeded", i, err)
		}
	}
	if n := len(accepted); n != 2 {
		t.Errorf("%d connections, want one per Send once the first was given up", n)
	}
}

// waitFor polls ok for up to two seconds.
func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); !ok(); {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
