package tournaments

import (
	"testing"

	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/msgid"
)

// TestEventThreadUsesTheIDRule: the referee reads a tournament back from
// its own Message-IDs with the one rule of tournament ids
// (club.TournamentIDPattern), the rule `taflmail tournament create`
// enforces: an id it made is found, in In-Reply-To or References, and an
// id the rule refuses (ending in "-", one letter, upper case) is not.
func TestEventThreadUsesTheIDRule(t *testing.T) {
	for _, event := range []string{"winter-2027", "cup-27", "ab"} {
		if !club.ValidTournamentID(event) {
			t.Fatalf("%q is no valid id", event)
		}
		id := msgid.Event("seed", "ada@example.org", event, "tafl.test")
		if got := eventOfThread(&mailer.Message{InReplyTo: id}); got != event {
			t.Errorf("In-Reply-To %s: event %q, want %q", id, got, event)
		}
		if got := eventOfThread(&mailer.Message{InReplyTo: "x@y", References: []string{"a@b", id}}); got != event {
			t.Errorf("References …%s: event %q, want %q", id, got, event)
		}
	}
	for _, event := range []string{"cup-", "a", "Winter-2027", "2027-cup"} {
		id := msgid.Event("seed", "ada@example.org", event, "tafl.test")
		if got := eventOfThread(&mailer.Message{InReplyTo: id}); got != "" {
			t.Errorf("In-Reply-To %s: event %q, want none (the id breaks the rule)", id, got)
		}
	}
}
