package digest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/correspondence"
	"github.com/taflmail/taflmail/server/internal/msgid"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/server/internal/zones"
)

// The daily digest (issue 12, "one mail a day"; docs/commands.md
// "Notifications", docs/clock.md "The daily digest"). A player who wrote
// "notify digest 07:30" (cmd_notify.go) gets no mail for an opponent's
// ply: the notes that only bring that news (the ply, the position, a
// conditional answer played for him, his conditional moves cancelled by
// it) are held back (held), and once a day, at 07:30 UTC (or in the
// time zone he named, "notify digest 07:30 Europe/Berlin";
// digest_zone.go), one mail lists every running game where it is his
// move, each with its tag line and key, the opponent's last ply, the
// clocks, the board and a message the opponent left. Everything else
// reaches him at once as before: results, draw offers and their answers,
// takeback requests, reminders before a deadline, invitations, leave,
// and every answer to his own mails. Each digest names the way back to
// a mail per move, "notify each", as List-Unsubscribe (unsubscribe.go).
//
// The digest's timer is the player's row (archive.Player.DigestDue): the
// scheduler finds it with Store.DueDigests and commits the digest mail
// with the move of the timer to the next day (an archive.DigestsSent write) in
// one transaction, so a restart neither loses nor repeats a digest. A
// daemon that was down past the time sends the missed digest once when it
// is back, then keeps the time of day. In a zone with summer time the
// timer moves by 23 or 25 hours on the days the clocks change, so the
// digest keeps its local time (zones.Next).

// maxDigestEntries bounds, in bytes, the text of the digest's full
// entries (board, clocks, last ply, tag line); the games that do not fit
// get one line each with their tag, up to referee.MaxReplyText in all,
// then a count. With the headers the digest stays under
// referee.MaxReplyBytes (the core's limits.go) however many games a
// player has.
const maxDigestEntries = referee.MaxReplyText - 8<<10

// held reports whether note n is held back for the daily digest: it goes
// to a player other than the sender who chose the digest, about a game
// still running, and holds nothing but the news of a ply (tellNews).
// A message waiting for its recipient is not delivered with a held note
// (deliverMessages): it waits for the digest.
func held(ss *referee.Session, n *referee.Note) bool {
	if n.To == ss.From || n.Routine == 0 || n.Routine != len(n.Sections) ||
		n.Game == nil || n.Game.Game.Status != archive.Active {
		return false
	}
	return digestOn(ss, n.To)
}

// digestOn reports whether addr chose "notify digest".
func digestOn(ss *referee.Session, addr string) bool {
	if p, ok := ss.Players[addr]; ok {
		return p.Digest
	}
	p, err := ss.StoredPlayer(addr)
	if err != nil {
		ss.NoteReadErr(err)
		return false
	}
	return p.Digest
}

// runDigests sends every digest due at Options.Now, earliest first, and
// returns how many it committed. Before a digest it reads the inbox up to
// the digest's time (as before a deadline, Decision C4): a move the player
// sent before then is played, not listed. It stops at the first failure
// and returns it: the digests not sent stay due.
func runDigests(s *referee.Server, ctx context.Context) (int, error) {
	sent := 0
	seen := map[string]bool{}
	for ctx.Err() == nil {
		now := s.Opts.Now()
		due, err := s.DigestPort().DueDigests(ctx, now, referee.TimerBatch)
		if err != nil || len(due) == 0 {
			return sent, err
		}
		if !s.InboxReadTo(due[len(due)-1].Due) {
			if err := s.ReadInbox(ctx); err != nil {
				return sent, err
			}
			continue
		}
		progress := false
		for _, d := range due {
			key := d.Address + "\x00" + d.Due.String()
			if seen[key] {
				continue
			}
			seen[key], progress = true, true
			did, err := sendDigest(s, ctx, d, now)
			if err != nil {
				return sent, err
			}
			if did {
				sent++
			}
		}
		if !progress {
			s.Log.Error("digests stay due after they were sent", "count", len(due), "first", due[0].Address)
			return sent, nil
		}
	}
	return sent, ctx.Err()
}

// sendDigest composes the digest d and commits it with the move of its
// timer, deciding again when a game or the player changed meanwhile. It
// reports whether the timer moved now: false when the digest was
// committed before (archive.ErrDuplicate) or the player changed the
// setting since it was read.
func sendDigest(s *referee.Server, ctx context.Context, d archive.DigestDue, now time.Time) (bool, error) {
	games := 0
	// the digest's seed seeds the Message-ID, so a repeat after a crash
	// writes the same mail
	return s.Transact(ctx, referee.DigestCause(d.Address, d.Due, now), referee.Steps{
		Decide: func(ss *referee.Session, change *archive.Change) (referee.Verdict, error) {
			var v referee.Verdict
			var err error
			v, games, err = decideDigest(s, ss, change, d)
			return v, err
		},
		Committed: func(change archive.Change) {
			sent, _ := archive.WriteOf[archive.DigestsSent](&change)
			s.Log.Info("digest", "to", d.Address, "due", d.Due, "games", games, "next", sent[0].Next)
		},
	})
}

// decideDigest works out the digest d in session ss without writing: in
// change the timer's move to the next day and the digest mail unless no
// game waits for the player (transact collects the games whose waiting
// message it delivers), and how many games it lists. Nothing is to be
// committed when the player's setting changed since d was read.
func decideDigest(s *referee.Server, ss *referee.Session, change *archive.Change, d archive.DigestDue) (referee.Verdict, int, error) {
	p, err := s.GamePort().Player(ss.Ctx, d.Address)
	if errors.Is(err, archive.ErrNotFound) {
		return referee.CommitNothing, 0, nil
	}
	if err != nil {
		return referee.CommitNothing, 0, err
	}
	if !p.Digest || !p.DigestDue.Equal(d.Due) {
		return referee.CommitNothing, 0, nil
	}
	next := zones.Next(p.DigestAt, storedZone(s, p.Address, p.DigestZone), ss.Now)
	change.Writes = append(change.Writes, archive.DigestsSent{{Address: p.Address, Due: d.Due, Next: next}})
	ss.Lang = cmp.Or(p.Language, s.Opts.DefaultLanguage)
	waiting, err := waitingGames(ss, p.Address)
	if err != nil {
		return referee.CommitNothing, 0, err
	}
	if len(waiting) > 0 {
		o, err := Mail(ss, p, waiting)
		if err != nil {
			return referee.CommitNothing, 0, err
		}
		if o != nil {
			change.Outbox = []archive.OutboxMail{*o}
		}
	}
	return referee.CommitCollected, len(waiting), nil // not composed: the digest is its one mail
}

// waitingGames returns the running games where it is address's move,
// each loaded into the session (Session.Table), in the order the archive
// lists them (GamesOf): what a digest lists, and what "notify each" hands
// over when it ends the digest (sayWaiting). Its error is the archive's
// or the loading's.
func waitingGames(ss *referee.Session, address string) ([]*referee.Table, error) {
	gs, err := ss.Server.GamePort().GamesOf(ss.Ctx, address)
	if err != nil {
		return nil, err
	}
	var waiting []*referee.Table
	for _, g := range gs {
		if g.Status != archive.Active {
			continue
		}
		t, err := ss.Table(g.ID)
		if err != nil {
			return nil, err
		}
		if t.ToMove() == referee.SideOf(t.Game, address) {
			waiting = append(waiting, t)
		}
	}
	return waiting, nil
}

// Mail writes the digest of player p listing ts, the games where it
// is p's move: an introduction, then per game its entry (digestEntry) and
// the message its opponent left, which is delivered (cleared from the
// game) — as many entries as fit into maxDigestEntries bytes, most urgent
// first; the other games one line each with their tag, then a count when
// even those do not fit into referee.MaxReplyText. nil when the mail cannot be
// written (logged).
func Mail(ss *referee.Session, p *archive.Player, ts []*referee.Table) (*archive.OutboxMail, error) {
	s, lang, addr := ss.Server, ss.Lang, p.Address
	digestOrder(ss, ts)
	var b strings.Builder
	b.WriteString(referee.Tr(lang, "greeting") + "\n\n")
	b.WriteString(referee.Tr(lang, "digest.intro", digestTime(lang, p.DigestAt, p.DigestZone)) + "\n\n")
	full := 0
	for _, t := range ts {
		entry := digestEntry(ss, addr, lang, t)
		side := referee.SideOf(t.Game, addr)
		msg := correspondence.MessageTo(t.Game, side)
		text := ""
		if *msg != "" && !correspondence.MessagesOff(ss, addr) {
			text = referee.Tr(lang, "message.heading", referee.OpponentOf(t.Game, addr)) + "\n\n" + referee.Indent(*msg) + "\n\n"
		}
		if b.Len()+len(entry)+len(text) > maxDigestEntries {
			break
		}
		b.WriteString(entry)
		b.WriteString(text)
		if *msg != "" {
			*msg, t.Changed = "", true
		}
		full++
	}
	if rest := ts[full:]; len(rest) > 0 {
		b.WriteString(referee.Trn(lang, "digest.more", len(rest), len(rest)) + "\n")
		for i, t := range rest {
			line := fmt.Sprintf("  [taflmail %s %s]  %s\n", t.Game.ID, referee.TokenOf(t.Game, addr),
				referee.Tr(lang, "digest.line", referee.VariantTitle(lang, t.Variant), referee.OpponentOf(t.Game, addr), t.MoveNumber()))
			if b.Len()+len(line) > referee.MaxReplyText {
				b.WriteString("  " + referee.Tr(lang, "digest.rest", len(rest)-i) + "\n")
				break
			}
			b.WriteString(line)
		}
		b.WriteString("\n")
	}
	b.WriteString(referee.Tr(lang, "signature") + "\n")
	subject := referee.Tr(lang, "digest.subject", len(ts))
	if len(ts) == 1 {
		subject = referee.Tr(lang, "digest.subject.one")
	}
	o := mailer.Outgoing{
		MessageID: msgid.Reply(ss.Cause.Seed, 0, addr, "", "", s.Opts.Domain),
		From:      fmt.Sprintf("%s <%s>", s.Opts.Name, s.Opts.Address),
		To:        []string{addr},
		Subject:   subject,
		Body:      b.String(),
		Flowed:    true, // wrapped at 76, boards and tables as built (mailer.Preformatted)
		Date:      ss.Now,
		Headers:   s.UnsubscribeHeaders(addr, "notify each"), // the way out of the digest, without a key
	}
	o.Headers[referee.LoopHeader] = "digest"
	raw, err := o.Bytes()
	if err != nil {
		s.Log.Warn("digest not sent: it cannot be written", "to", addr, "err", err)
		return nil, nil
	}
	if len(raw) > referee.MaxReplyBytes {
		// cannot happen while maxReplyText holds; never send it anyway
		s.Log.Error("digest not sent: it would exceed the limit", "to", addr, "bytes", len(raw))
		return nil, nil
	}
	return &archive.OutboxMail{MessageID: o.MessageID, From: s.Opts.Address, To: []string{addr}, Raw: raw}, nil
}
