package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/mailer/devstack"
)

// TestRefereeSkipsUnfetchableMail: a stranger's mail that the IMAP server
// cannot serve (every FETCH of it drops the connection, as imapmemserver
// did for the mail of the trial report §2) lies first in the referee's
// INBOX. The referee must still answer a player's mail that came after it,
// record the bad one as ignored (unreadable) and move it to Processed,
// instead of retrying it for ever.
func TestRefereeSkipsUnfetchableMail(t *testing.T) {
	t.Parallel()
	s, err := devstack.Start("", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	sys := devSystemOf(s)
	ref := newReferee(t, sys)
	bad := "From: mallory@elsewhere.test\r\nTo: " + ref.addr + "\r\nSubject: stuck\r\nMessage-ID: <stuck@elsewhere.test>\r\n\r\nvariants\r\n"
	if err := s.Deliver(ref.user, []byte(bad)); err != nil {
		t.Fatal(err)
	}
	if err := s.FailFetch(ref.user, 1, true); err != nil { // the INBOX's first mail
		t.Fatal(err)
	}
	ref.start()
	alice := newPlayer(t, sys, "alice")
	alice.send(t, ref.addr, "help", "help", nil)
	if reply := alice.next(t); !strings.Contains(reply.Text, "new") {
		t.Errorf("alice's help got %q, want the help text", reply.Text)
	}

	sys.eventually(t, func() string {
		if n := len(sys.mailbox(t, ref.user, "INBOX")); n != 0 {
			return "the referee's INBOX still holds mails"
		}
		if n := len(sys.mailbox(t, ref.user, mailer.DefaultProcessedMailbox)); n != 2 {
			return "Processed does not hold both mails"
		}
		return ""
	})
	mails, err := ref.archive().Mails(context.Background(), archive.MailFilter{Disposition: "ignored"})
	if err != nil {
		t.Fatal(err)
	}
	if len(mails) != 1 || !strings.Contains(mails[0].Reason, "unreadable") || !strings.Contains(mails[0].Reason, "could not be fetched") {
		t.Errorf("ignored mails = %+v, want the unfetchable one, unreadable", mails)
	}
}
