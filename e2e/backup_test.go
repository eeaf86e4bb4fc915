package e2e

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
)

// TestGameByMailBackupRestore (issue 21 §5): a backup is taken while a
// move is being handled, the referee plays on without it, and then the
// backup is restored as docs/operations.md says: stopped, the backup in
// place of the archive with the old -wal and -shm removed, the mails the
// backup does not know moved back from Processed to the INBOX. The
// restarted referee reads them again and applies each once, the players
// get those answers a second time, and the game is played to its end.
func TestGameByMailBackupRestore(t *testing.T) {
	t.Parallel()
	eachSystem(t, func(t *testing.T, sys *mailSystem) {
		ctx := context.Background()
		m := newMatch(t, sys)
		m.ref.start()
		m.challenge()
		m.ply(0)
		m.ply(1)
		m.sendPly(2) // the backup runs while the referee handles ply 3
		backup := t.TempDir() + "/taflmail-backup.db"
		live, err := archive.OpenWith(ctx, m.ref.dbPath, archive.Options{Existing: true})
		if err != nil {
			t.Fatal(err)
		}
		info, err := live.Backup(ctx, backup, false)
		live.Close()
		if err != nil {
			t.Fatalf("Backup while serving: %v", err)
		}
		m.both("ply "+brandubhEscape[2], brandubhEscape[2])
		m.ply(3)
		answer4 := map[*player]string{m.alice: m.last[m.alice].MessageID, m.bob: m.last[m.bob].MessageID}
		m.idle()
		m.ref.stop()

		// the restore
		data, err := os.ReadFile(backup)
		if err != nil {
			t.Fatal(err)
		}
		// as docs/operations.md restores: the old file moved aside, its
		// -wal and -shm removed, the copy written as a new file (a new
		// inode: SQLite shares its locks and wal-index per inode within a
		// process, so a copy written into the old file would meet any of
		// the old file's state this process still holds)
		if err := os.Rename(m.ref.dbPath, m.ref.dbPath+".broken"); err != nil {
			t.Fatal(err)
		}
		for _, ext := range []string{"-wal", "-shm"} {
			if err := os.Remove(m.ref.dbPath + ext); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(m.ref.dbPath, data, 0o600); err != nil {
			t.Fatal(err)
		}
		restored := m.ref.archive()
		g, err := restored.Game(ctx, m.id)
		if err != nil {
			t.Fatalf("game %s in the restored archive: %v (backup %+v)", m.id, err, info)
		}
		if n := len(g.Plies); n != 2 && n != 3 {
			t.Fatalf("the backup holds %d plies, want 2 or 3 (taken during ply 3)", n)
		}
		var lost []string // mails the backup does not know, in order
		for _, id := range m.toReferee {
			done, err := restored.Processed(ctx, id, "")
			if err != nil {
				t.Fatal(err)
			}
			if !done {
				lost = append(lost, id)
			}
		}
		// A backup taken while a reply was being sent holds that reply's
		// claim; serve releases such claims at start (the referee of
		// these tests is server.Run alone, so the test does it).
		if _, err := restored.ReleaseClaims(ctx); err != nil {
			t.Fatal(err)
		}
		// The replies the backup holds as not yet sent go out again at the
		// restart beside the answers rebuilt from the lost mails, and a
		// real relay may deliver them in another order than they were
		// handed to it: each player's loop below waits for those too, not
		// only for the answer to ply 4.
		pending, err := restored.Outbox(ctx, archive.Pending)
		if err != nil {
			t.Fatal(err)
		}
		resent := map[string]map[string]bool{} // address → Message-IDs
		for _, o := range pending {
			for _, to := range o.To {
				to = strings.ToLower(to)
				if resent[to] == nil {
					resent[to] = map[string]bool{}
				}
				resent[to][o.MessageID] = true
			}
		}
		restored.Close()
		if want := len(brandubhEscape[:4]) - len(g.Plies); len(lost) != want {
			t.Fatalf("%d mails unknown to the backup, want %d (the plies after it)", len(lost), want)
		}
		sys.moveToInbox(t, m.ref.user, lost)

		m.ref.start()
		// Each player gets the answers again, rebuilt from the restored
		// archive: the same mails with the same Message-IDs, so a mail
		// client shows each once. A reply the backup holds as not yet
		// sent (the copy was taken between its delivery and its record)
		// comes again too; nothing new comes before the answer to ply 4.
		// A real relay delivers the answers in any order (seen in CI with
		// Postfix: the answer to ply 4 before the one to ply 3), so each
		// player waits for every answer to a lost mail (the last
		// len(lost) mails it got before the restore: one per ply mail)
		// and for every re-sent reply, whatever their order.
		for _, p := range []*player{m.alice, m.bob} {
			want := map[string]bool{}
			for id := range resent[strings.ToLower(p.addr)] {
				want[id] = true
			}
			for _, r := range p.received[len(p.received)-len(lost):] {
				want[r.MessageID] = true
			}
			if !want[answer4[p]] {
				t.Fatalf("%s's last %d mails before the restore do not hold the answer to ply 4 %s", p.name, len(lost), answer4[p])
			}
			for seen4 := false; !seen4 || len(want) > 0; {
				got := p.nextAgain(t)
				if !p.hadBefore(got.MessageID) {
					t.Fatalf("%s got a new mail after the restore, before the answer to ply 4 again:\n%s", p.name, got.Text)
				}
				delete(want, got.MessageID)
				if got.MessageID == answer4[p] {
					m.last[p], seen4 = got, true
				}
			}
		}
		for i := 4; i < len(brandubhEscape); i++ {
			m.ply(i)
		}
		m.idle()
		m.ref.stop()

		st := m.ref.archive()
		g, err = st.Game(ctx, m.id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != archive.Finished || g.Result != "defenders" || len(g.Plies) != len(brandubhEscape) {
			t.Fatalf("after the restore the game is %s, %q, %d plies; want finished, defenders, %d", g.Status, g.Result, len(g.Plies), len(brandubhEscape))
		}
		for i, p := range g.Plies {
			if move := fromTo.FindString(p.Move); move != brandubhEscape[i] || p.MessageID != m.plyMail[i] {
				t.Errorf("ply %d stored as %q from %s; want %s from %s", i+1, p.Move, p.MessageID, brandubhEscape[i], m.plyMail[i])
			}
		}
		for _, status := range []archive.OutboxStatus{archive.Pending, archive.Failed} {
			if left, err := st.Outbox(ctx, status); err != nil || len(left) != 0 {
				t.Errorf("%d %s mails in the outbox (%v), want none", len(left), status, err)
			}
		}
	})
}

// moveToInbox moves the mails with these Message-IDs from the referee's
// Processed folder back to its INBOX, as an operator does after
// restoring a backup.
func (sys *mailSystem) moveToInbox(t *testing.T, user string, messageIDs []string) {
	t.Helper()
	c, err := imapclient.DialInsecure(sys.imapAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(user, sys.password).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select(mailer.DefaultProcessedMailbox, nil).Wait(); err != nil {
		t.Fatal(err)
	}
	var uids imap.UIDSet
	for _, id := range messageIDs {
		data, err := c.UIDSearch(&imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Message-ID", Value: id}}}, nil).Wait()
		if err != nil {
			t.Fatal(err)
		}
		found := data.AllUIDs()
		if len(found) != 1 {
			t.Fatalf("%d mails with Message-ID %s in Processed, want 1", len(found), id)
		}
		uids.AddNum(found[0])
	}
	if _, err := c.Move(uids, "INBOX").Wait(); err != nil {
		t.Fatalf("moving %d mails back to the INBOX: %v", len(messageIDs), err)
	}
	_ = c.Logout().Wait()
}

// nextAgain is next for a mail the player may have had before: the
// referee answering a mail again after a restore.
func (p *player) nextAgain(t testing.TB) *mailer.Message {
	t.Helper()
	before := p.received
	p.received = nil
	m := p.next(t)
	p.received = append(before, m)
	return m
}

// hadBefore reports whether the player got a mail with this Message-ID
// before the last one.
func (p *player) hadBefore(messageID string) bool {
	for _, r := range p.received[:len(p.received)-1] {
		if r.MessageID == messageID {
			return true
		}
	}
	return false
}
