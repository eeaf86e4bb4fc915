package devstack_test

import (
	"context"
	"testing"

	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/mailer/devstack"
)

// TestStopStartSMTP: a stopped SMTP server refuses connections while the
// stack's address stays; started again it takes mail on that address,
// and the stack closes cleanly after.
func TestStopStartSMTP(t *testing.T) {
	stack, err := devstack.Start("taflmail.test", map[string]string{"alice": "pw"})
	if err != nil {
		t.Fatal(err)
	}
	defer stack.Close()
	addr := stack.SMTPAddr()
	sender := mailer.NewSender(mailer.SMTPConfig{Addr: addr, Security: mailer.SecurityNone})
	send := func() error {
		return sender.Send(context.Background(), "bob@taflmail.test", []string{"alice@taflmail.test"},
			[]byte("From: bob@taflmail.test\r\nTo: alice@taflmail.test\r\nSubject: hi\r\n\r\nhi\r\n"))
	}
	if err := stack.StopSMTP(); err != nil {
		t.Fatal(err)
	}
	if err := send(); err == nil {
		t.Fatal("Send to a stopped SMTP server = nil")
	}
	if err := stack.StartSMTP(); err != nil {
		t.Fatal(err)
	}
	if got := stack.SMTPAddr(); got != addr {
		t.Errorf("SMTPAddr after StartSMTP = %s, want %s as before", got, addr)
	}
	if err := send(); err != nil {
		t.Fatalf("Send after StartSMTP = %v", err)
	}
	if err := stack.StartSMTP(); err != nil {
		t.Errorf("StartSMTP while running = %v, want nil (nothing to do)", err)
	}
	msgs, err := stack.Messages("alice")
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 1 {
		t.Errorf("alice has %d messages, want the one sent after the restart", len(msgs))
	}
	if err := stack.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
}
