package mailer_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/mailer/devstack"
)

// TestSessionDevstack: a Session logs in once and delivers a round of
// replies over one connection to the devstack's mailboxes; a deferral
// (451) of a message on that connection sends it again on a new one,
// and a refusal (554) fails that message alone, the next going on over
// the same connection. Every message arrives once.
func TestSessionDevstack(t *testing.T) {
	var traffic syncBuffer
	s, err := devstack.StartOptions(devstack.Options{Users: map[string]string{"tafl": "secret", "alice": "pw", "bob": "pw"}, Debug: &traffic})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ss := mailer.NewSender(mailer.SMTPConfig{Addr: s.SMTPAddr(), Security: mailer.SecurityNone, Username: "tafl", Password: "secret"}).Session()
	ctx := context.Background()
	send := func(i int, to string) error {
		o := mailer.Outgoing{MessageID: fmt.Sprintf("r%d@taflmail.test", i), From: s.Address("tafl"), To: []string{s.Address(to)},
			Subject: fmt.Sprintf("reply %d", i), Body: "your move\n"}
		raw, err := o.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		return ss.Send(ctx, s.Address("tafl"), []string{s.Address(to)}, raw)
	}
	for i := range 4 {
		if err := send(i, []string{"alice", "bob"}[i%2]); err != nil {
			t.Fatalf("Send %d = %v", i, err)
		}
	}
	s.FailNextSMTP(451)
	if err := send(4, "alice"); err != nil {
		t.Fatalf("Send after a deferral on the kept connection = %v, want it sent on a new one", err)
	}
	s.FailNextSMTP(554)
	var se *mailer.SendError
	if err := send(5, "bob"); !errors.As(err, &se) || se.Temporary || se.Code != 554 {
		t.Fatalf("Send refused = %v, want a permanent 554", err)
	}
	if err := send(6, "bob"); err != nil {
		t.Fatalf("Send after a refusal = %v", err)
	}
	if err := ss.Close(); err != nil {
		t.Fatalf("Close = %v", err)
	}
	if n := strings.Count(traffic.String(), "AUTH PLAIN A"); n != 2 {
		t.Errorf("%d log-ins for 7 messages, want 2 (one more after the deferral)", n)
	}
	for user, want := range map[string][]string{"alice": {"reply 0", "reply 2", "reply 4"}, "bob": {"reply 1", "reply 3", "reply 6"}} {
		msgs, err := s.Messages(user)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range msgs {
			got = append(got, m.Subject)
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s's INBOX holds %q, want %q", user, got, want)
		}
	}
}
