package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/mailer/devstack"
)

// TestQuotedLocalPartGetsReplies plays through devstack with a player whose
// address has a quoted local part, `"john doe …"@taflmail.test`: his
// challenge is confirmed and bob's accept reaches him, so the referee
// replies to the address he wrote (issue 8 §4: the quotes were lost and no
// reply could be written), both to the sender of a mail and from the
// address stored in the game.
func TestQuotedLocalPartGetsReplies(t *testing.T) {
	stack, err := devstack.Start("", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stack.Close() })
	const password = "secret"
	sys := &mailSystem{
		name: "devstack", imapAddr: stack.IMAPAddr(), smtpAddr: stack.SMTPAddr(), domain: stack.Domain(), password: password,
		newUser: func(t testing.TB, prefix string) string {
			u := randomName(prefix)
			if err := stack.AddUser(u, password); err != nil {
				t.Fatal(err)
			}
			return u
		},
		wait: 30 * time.Second,
	}
	ref := newReferee(t, sys)
	ref.start()
	john := newPlayer(t, sys, "john doe ")
	john.name, john.addr = "john", stack.Address(john.user)
	if !strings.HasPrefix(john.addr, `"john doe `) {
		t.Fatalf("stack.Address(%q) = %s, want a quoted local part", john.user, john.addr)
	}
	bob := newPlayer(t, sys, "bob")

	john.send(t, ref.addr, "a game?", "new brandubh with "+bob.addr+" as attackers", nil)
	confirm := john.next(t)
	if confirm.From != ref.addr || !strings.Contains(confirm.Text, bob.addr) {
		t.Fatalf("john's first mail: From %s, text:\n%s", confirm.From, confirm.Text)
	}
	if len(confirm.To) != 1 || confirm.To[0] != john.addr {
		t.Errorf("the confirmation went To %q, want %s", confirm.To, john.addr)
	}
	invite := bob.next(t)
	if !strings.Contains(invite.Text, john.addr+" challenges you") {
		t.Fatalf("bob's invitation does not name %s:\n%s", john.addr, invite.Text)
	}
	bob.send(t, ref.addr, "", "accept", invite)
	bob.next(t)
	accepted := john.next(t) // addressed from the game's row in the archive
	if !strings.Contains(accepted.Text, "Brandubh") || len(accepted.To) != 1 || accepted.To[0] != john.addr {
		t.Errorf("john's second mail: To %q, text:\n%s", accepted.To, accepted.Text)
	}

	// The game's row holds the sendable address.
	ref.stop()
	games, err := ref.archive().GamesOf(context.Background(), john.addr)
	if err != nil || len(games) != 1 || games[0].Attackers != john.addr {
		t.Errorf("GamesOf(%s) = %v, %v; want one game with him as the attackers", john.addr, games, err)
	}
}
