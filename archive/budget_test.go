package archive

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// TestMailBudgetCounts: CountMails selects by the budget a mail was
// counted in and by the sender's domain (any case), and Commit refuses a
// budget it does not know (issue 18 §2).
func TestMailBudgetCounts(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	s, err := OpenWith(ctx, filepath.Join(t.TempDir(), "b.db"), Options{Now: func() time.Time { return at }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, x := range []struct {
		from, domain string
		budget       MailBudget
		replies      int
	}{
		{"a@junk.test", "junk.test", JunkBudget, 1},
		{"b@mx.junk.test", "Junk.Test", JunkBudget, 1},
		{"c@junk.test", "junk.test", JunkBudget, 0}, // held back: not answered
		{"d@junk.test", "junk.test", CommandBudget, 1},
		{"e@other.test", "other.test", ConfirmationBudget, 1},
		{"f@other.test", "other.test", NoBudget, 1},
	} {
		id := string(rune('a' + i))
		c := Change{Mail: ProcessedMail{MessageID: id, From: x.from, Disposition: "applied", At: at.Add(time.Duration(i) * time.Minute),
			Budget: x.budget, Domain: x.domain}}
		for r := 0; r < x.replies; r++ {
			c.Outbox = append(c.Outbox, OutboxMail{MessageID: id + "-r", From: "tafl@game.test", To: []string{x.from}, Raw: []byte("x")})
		}
		if err := s.Commit(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		f    MailFilter
		want int
	}{
		{"junk answered", MailFilter{Budget: JunkBudget, AnsweredOnly: true}, 2},
		{"junk", MailFilter{Budget: JunkBudget}, 3},
		{"junk of junk.test answered", MailFilter{Budget: JunkBudget, Domain: "JUNK.test", AnsweredOnly: true}, 2},
		{"commands of junk.test", MailFilter{Budget: CommandBudget, Domain: "junk.test"}, 1},
		{"junk of other.test", MailFilter{Budget: JunkBudget, Domain: "other.test"}, 0},
		{"every budget of other.test", MailFilter{Domain: "other.test"}, 2},
		{"junk since the third", MailFilter{Budget: JunkBudget, Since: at.Add(2 * time.Minute)}, 1},
	} {
		if got, err := s.CountMails(ctx, c.f); err != nil || got != c.want {
			t.Errorf("%s: CountMails = %d, %v; want %d", c.name, got, err, c.want)
		}
	}
	m, err := s.Mail(ctx, "b")
	if err != nil || m.Budget != JunkBudget || m.Domain != "junk.test" {
		t.Errorf("Mail(b) = budget %q, domain %q, %v; want junk, junk.test", m.Budget, m.Domain, err)
	}
	err = s.Commit(ctx, Change{Mail: ProcessedMail{MessageID: "z", From: "z@x.test", Disposition: "applied", Budget: "spam"}})
	if !errors.Is(err, ErrInvalid) {
		t.Errorf("Commit with budget spam = %v, want ErrInvalid", err)
	}
}

// TestMigrateMailBudget upgrades an archive of the schema before
// *_mail_budget.sql: a keyless mail recorded before counts as junk, a
// keyed one in no budget, and each gets the domain after its "@".
func TestMigrateMailBudget(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "before.db")
	s := openBefore(t, path, "_mail_budget.sql", 9)
	if _, err := s.db.Exec(`INSERT INTO processed_mails (message_id, sender, disposition, at, authenticated, replies) VALUES
('k', 'alice@player.test', 'applied', '2026-11-29T12:00:00.000000000Z', 1, 2),
('s', 'x@Strangers.test', 'applied', '2026-11-29T12:01:00.000000000Z', 0, 1)`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for id, want := range map[string]ProcessedMail{
		"k": {Budget: NoBudget, Domain: "player.test"},
		"s": {Budget: JunkBudget, Domain: "strangers.test"},
	} {
		m, err := s.Mail(ctx, id)
		if err != nil || m.Budget != want.Budget || m.Domain != want.Domain {
			t.Errorf("after the migration Mail(%s) = budget %q, domain %q, %v; want %q, %q", id, m.Budget, m.Domain, err, want.Budget, want.Domain)
		}
	}
	if n, err := s.CountMails(ctx, MailFilter{Budget: JunkBudget, Domain: "strangers.test", AnsweredOnly: true}); err != nil || n != 1 {
		t.Errorf("junk of strangers.test after the migration = %d, %v; want 1", n, err)
	}
}

// TestEngineGames counts the running games against the engine by level:
// not those between people, not finished or invited ones.
func TestEngineGames(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	s, err := OpenWith(ctx, filepath.Join(t.TempDir(), "e.db"), Options{Now: func() time.Time { return at }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.EngineGames(ctx)
	if err != nil || len(got) != 0 {
		t.Fatalf("EngineGames of an empty archive = %v, %v; want none", got, err)
	}
	var games []*Game
	for i, x := range []struct {
		level  int
		status GameStatus
	}{{5, Active}, {5, Active}, {1, Active}, {3, Finished}, {0, Active}, {0, Invited}} {
		g := &Game{ID: "G0000" + string(rune('0'+i)), Variant: "brandubh", Attackers: "engine@taflmail.invalid", Defenders: "p@player.test",
			Challenger: "p@player.test", Status: x.status, EngineLevel: x.level, CreatedAt: at, StartedAt: at}
		if x.level == 0 {
			g.Attackers = "q@player.test"
		}
		if x.status == Finished {
			g.Result, g.Reason = "defenders", "resignation"
		}
		games = append(games, g)
	}
	if err := s.Commit(ctx, Change{Games: games}); err != nil {
		t.Fatal(err)
	}
	got, err = s.EngineGames(ctx)
	if err != nil || len(got) != 2 || got[5] != 2 || got[1] != 1 {
		t.Errorf("EngineGames = %v, %v; want map[1:1 5:2]", got, err)
	}
}
