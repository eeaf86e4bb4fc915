package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/config"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/mailer/devstack"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/server"
)

// demoGame is the Copenhagen game the demo's two players play through the
// mail servers, attackers' ply first. The defenders clear the c-file
// (d6, e6 and then the defender that went to c6 step aside), the king runs
// f6-c6-c1 and escapes to the corner a1 on ply 12 (RULES.md §1.6.1). It was
// composed for the demo; TestDemoGameIsLegal replays it through the engine.
var demoGame = []string{
	"h1-h3", "d6-d9",
	"k5-i5", "e6-c6",
	"i5-i3", "c6-c8",
	"a8-a9", "f6-c6",
	"h3-h4", "c6-c1",
	"k7-j7", "c1-a1",
}

// newDemoCommand returns `taflmail demo`: a whole game by mail on an
// in-memory mail system, or (--serve) that mail system for people to play.
func newDemoCommand() *cobra.Command {
	var (
		keep      bool
		verbose   bool
		timed     bool
		timeout   time.Duration
		noReferee bool
		imapPort  int
		smtpPort  int
	)
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Play a whole Copenhagen game by mail on a built-in mail server",
		Long: `demo starts an IMAP and an SMTP server in this process on 127.0.0.1, the
referee against them, and two scripted players, alice and bob, who play a
complete Copenhagen game by mail: a challenge, its acceptance and twelve
plies until the king escapes to a corner. It prints the mails as they flow
and the final board. Nothing leaves this machine.

With --clock the game is timed (1d+0d): alice makes one move, bob one,
then alice stops answering and the referee's clock runs 14,400 times
faster than real time, four hours a second. She is reminded when less
than 12 hours are left and loses on time when her day is up, six seconds
later; both players get the result and the record.

With --serve it instead keeps the servers and the referee running and
prints how to connect any mail client to them, so you can play against a
second account yourself. --imap-port and --smtp-port fix the ports (0, the
default, lets the system choose), and --no-referee starts the mail servers
alone, so that 'taflmail serve' can be the referee on the account tafl
(docs/configuration.md, "Example: loopback testing").`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			for _, p := range []struct {
				flag string
				port int
			}{{"imap-port", imapPort}, {"smtp-port", smtpPort}} {
				if p.port < 0 || p.port > 65535 {
					return usageErrorf(cmd, "--%s %d: want a port from 1 to 65535, or 0 for any", p.flag, p.port)
				}
				if cmd.Flags().Changed(p.flag) && !keep {
					return usageErrorf(cmd, "--%s goes with --serve", p.flag)
				}
			}
			if noReferee && !keep {
				return usageErrorf(cmd, "--no-referee goes with --serve")
			}
			if keep {
				return demoServe(ctx, cmd.OutOrStdout(), demoSetup{imapPort: imapPort, smtpPort: smtpPort, noReferee: noReferee})
			}
			if timeout <= 0 {
				return usageErrorf(cmd, "--timeout %v: the time must be more than 0, e.g. --timeout 2m", timeout)
			}
			ctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			var err error
			if timed {
				err = demoClock(ctx, cmd.OutOrStdout(), verbose)
			} else {
				err = demoPlay(ctx, cmd.OutOrStdout(), verbose)
			}
			if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return fmt.Errorf("the demo game had not ended after %v (--timeout); give it more time, e.g. --timeout 2m", timeout)
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&keep, "serve", false, "keep the mail servers and the referee running for your own mail client")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "print every mail in full")
	cmd.Flags().BoolVar(&timed, "clock", false, "play a timed game on a fast clock: a reminder, then a loss on time")
	cmd.Flags().DurationVar(&timeout, "timeout", 2*time.Minute, "give up, saying so, when the game has not ended by then (more than 0)")
	cmd.Flags().BoolVar(&noReferee, "no-referee", false, "with --serve: run the mail servers only, for your own 'taflmail serve'")
	cmd.Flags().IntVar(&imapPort, "imap-port", 0, "with --serve: the IMAP server's port on 127.0.0.1 (0: any free one)")
	cmd.Flags().IntVar(&smtpPort, "smtp-port", 0, "with --serve: the SMTP server's port on 127.0.0.1 (0: any free one)")
	return cmd
}

// demoSetup is how demo --serve starts its world.
type demoSetup struct {
	imapPort, smtpPort int  // 0: any free port
	noReferee          bool // the mail servers only
}

// demoWorld is the running demo: the mail stack, the archive and the
// referee.
type demoWorld struct {
	stack *devstack.Stack
	store *archive.Store
	srv   *server.Server
	inbox *mailer.Inbox
	dir   string
	stop  context.CancelFunc
	done  chan error
}

const demoPassword = "tafl"

// demoClockOptions make the demo world's referee run on another clock:
// now is its clock (also the archive's), waitCap bounds its waits for
// mail in real time, and arrivalOnRead times each mail when the referee
// reads it rather than by the IMAP server's real INTERNALDATE, which a
// fast clock would leave far behind.
type demoClockOptions struct {
	now           func() time.Time
	waitCap       time.Duration
	arrivalOnRead bool
}

// startDemoWorld starts the in-memory mail stack with the given users, an
// archive in a temporary folder, and the referee as tafl@taflmail.test
// (unless setup.noReferee).
func startDemoWorld(ctx context.Context, users []string, logger *slog.Logger, setup demoSetup) (*demoWorld, error) {
	return startDemoWorldClock(ctx, users, logger, setup, demoClockOptions{})
}

// startDemoWorldClock is startDemoWorld on the clock of co.
func startDemoWorldClock(ctx context.Context, users []string, logger *slog.Logger, setup demoSetup, co demoClockOptions) (*demoWorld, error) {
	u := map[string]string{"tafl": demoPassword}
	for _, name := range users {
		u[name] = demoPassword
	}
	listen := func(port int) string { return fmt.Sprintf("127.0.0.1:%d", port) }
	stack, err := devstack.StartOptions(devstack.Options{
		Domain: "taflmail.test", Users: u, IMAPAddr: listen(setup.imapPort), SMTPAddr: listen(setup.smtpPort),
	})
	if err != nil {
		return nil, err
	}
	w := &demoWorld{stack: stack, done: make(chan error, 1)}
	if setup.noReferee {
		return w, nil
	}
	if w.dir, err = os.MkdirTemp("", "taflmail-demo-"); err != nil {
		w.close()
		return nil, err
	}
	if w.store, err = archive.OpenWith(ctx, filepath.Join(w.dir, "taflmail.db"), archive.Options{Now: co.now}); err != nil {
		w.close()
		return nil, err
	}
	if w.inbox, err = mailer.DialInbox(ctx, mailer.IMAPConfig{Addr: stack.IMAPAddr(), Username: "tafl", Password: demoPassword, Security: mailer.SecurityNone, Logger: logger}); err != nil {
		w.close()
		return nil, err
	}
	sender := mailer.NewSender(mailer.SMTPConfig{Addr: stack.SMTPAddr(), Security: mailer.SecurityNone, HeloName: "taflmail.test"})
	var inbox server.Inbox = w.inbox
	if co.arrivalOnRead {
		inbox = readTimedInbox{w.inbox}
	}
	waitCap := time.Second // see demoPlayer.next
	if co.waitCap > 0 {
		waitCap = co.waitCap
	}
	// the demo's referee keeps challenges as long as a served one by
	// default (server.invitation_expiry), also with --serve
	expiry, err := config.ParseExpiry(config.Default().Server.InvitationExpiry)
	if err != nil {
		w.close()
		return nil, err
	}
	w.srv, err = server.New(server.Options{
		Address: stack.Address("tafl"), Store: w.store, Inbox: inbox, Sender: sender, Logger: logger,
		RecordsDir: filepath.Join(w.dir, "records"),
		WaitCap:    waitCap, Now: co.now, InvitationExpiry: expiry,
	})
	if err != nil {
		w.close()
		return nil, err
	}
	runCtx, cancel := context.WithCancel(ctx)
	w.stop = cancel
	go func() { w.done <- w.srv.Run(runCtx) }()
	return w, nil
}

// close stops the referee, then the servers, and removes the archive.
func (w *demoWorld) close() {
	if w.stop != nil {
		w.stop()
		<-w.done
		w.stop = nil
	}
	if w.inbox != nil {
		w.inbox.Close()
	}
	if w.store != nil {
		w.store.Close()
	}
	if w.stack != nil {
		w.stack.Close()
	}
	if w.dir != "" {
		os.RemoveAll(w.dir)
	}
}

// demoPlayer is a scripted person with a mail account on the demo stack.
type demoPlayer struct {
	name, addr string
	inbox      *mailer.Inbox
	sender     *mailer.Sender
	validity   uint32
	lastUID    uint32
	out        io.Writer
	verbose    bool
}

func newDemoPlayer(ctx context.Context, w *demoWorld, name string, out io.Writer, verbose bool) (*demoPlayer, error) {
	in, err := mailer.DialInbox(ctx, mailer.IMAPConfig{Addr: w.stack.IMAPAddr(), Username: name, Password: demoPassword, Security: mailer.SecurityNone, ProcessedMailbox: "Read"})
	if err != nil {
		return nil, err
	}
	return &demoPlayer{name: name, addr: w.stack.Address(name), inbox: in, out: out, verbose: verbose,
		sender: mailer.NewSender(mailer.SMTPConfig{Addr: w.stack.SMTPAddr(), Security: mailer.SecurityNone, HeloName: "player.test"})}, nil
}

// send mails the referee; re, when not nil, is the mail answered.
func (p *demoPlayer) send(ctx context.Context, referee, body string, re *mailer.Message) error {
	o := mailer.Outgoing{From: p.addr, To: []string{referee}, Subject: "a game?", Body: body + "\n", Date: time.Now(),
		Headers: map[string]string{"Auto-Submitted": "no"}}
	if re != nil {
		o.Subject = "Re: " + re.Subject
		o.InReplyTo = re.MessageID
		o.References = append(append([]string(nil), re.References...), re.MessageID)
		o.Body = body + "\n\nOn " + re.Date.Format("Mon, 2 Jan 2006") + ", taflmail wrote:\n> " + strings.ReplaceAll(strings.TrimSpace(re.Text), "\n", "\n> ") + "\n"
	}
	raw, err := o.Bytes()
	if err != nil {
		return err
	}
	fmt.Fprintf(p.out, "  %-5s -> taflmail  %q\n", p.name, body)
	return p.sender.Send(ctx, p.addr, []string{referee}, raw)
}

// next waits for the next mail from the referee.
func (p *demoPlayer) next(ctx context.Context) (*mailer.Message, error) {
	for {
		msgs, v, err := p.inbox.Fetch(ctx, p.validity, p.lastUID, 0)
		if err != nil {
			return nil, err
		}
		p.validity = v
		if len(msgs) > 0 {
			m := msgs[0]
			p.lastUID = m.UID
			if err := p.inbox.Done(ctx, m.UID); err != nil {
				return nil, err
			}
			fmt.Fprintf(p.out, "  taflmail -> %-5s  %s\n", p.name, m.Subject)
			if p.verbose {
				fmt.Fprintf(p.out, "%s\n", indent(m.Text))
			}
			return m, nil
		}
		// Wait briefly, then look again: the in-memory IMAP server can
		// miss waking an IDLE for mail that lands just as it starts.
		wctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		err = p.inbox.Wait(wctx)
		cancel()
		if err != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
}

func indent(s string) string { return "      | " + strings.ReplaceAll(s, "\n", "\n      | ") }

// demoPlay plays demoGame between alice and bob through the referee.
func demoPlay(ctx context.Context, out io.Writer, verbose bool) error {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	w, err := startDemoWorld(ctx, []string{"alice", "bob"}, logger, demoSetup{})
	if err != nil {
		return err
	}
	defer w.close()
	fmt.Fprintf(out, "taflmail demo: IMAP %s, SMTP %s, referee %s\n\n", w.stack.IMAPAddr(), w.stack.SMTPAddr(), w.stack.Address("tafl"))
	alice, err := newDemoPlayer(ctx, w, "alice", out, verbose)
	if err != nil {
		return err
	}
	defer alice.inbox.Close()
	bob, err := newDemoPlayer(ctx, w, "bob", out, verbose)
	if err != nil {
		return err
	}
	defer bob.inbox.Close()
	referee := w.stack.Address("tafl")

	if err := alice.send(ctx, referee, "new copenhagen with "+bob.addr+" as attackers", nil); err != nil {
		return err
	}
	if _, err := alice.next(ctx); err != nil { // the confirmation
		return err
	}
	invitation, err := bob.next(ctx)
	if err != nil {
		return err
	}
	if err := bob.send(ctx, referee, "accept", invitation); err != nil {
		return err
	}
	last := map[*demoPlayer]*mailer.Message{}
	for _, p := range []*demoPlayer{alice, bob} {
		m, err := p.next(ctx)
		if err != nil {
			return err
		}
		last[p] = m
	}
	for i, move := range demoGame {
		p := alice
		if i%2 == 1 {
			p = bob
		}
		text := fmt.Sprintf("%d. %s", i/2+1, move)
		if i%2 == 1 {
			text = fmt.Sprintf("%d... %s", i/2+1, move)
		}
		if err := p.send(ctx, referee, text, last[p]); err != nil {
			return err
		}
		for _, q := range []*demoPlayer{alice, bob} {
			m, err := q.next(ctx)
			if err != nil {
				return err
			}
			last[q] = m
		}
	}
	final := last[alice].Text
	if !strings.Contains(final, "The game is over") {
		return errors.New("demo: the game did not end as composed; the last mail was:\n" + final)
	}
	games, err := w.store.Games(ctx, archive.GameFilter{})
	if err != nil || len(games) != 1 {
		return fmt.Errorf("demo: archive holds %d games (%v), want 1", len(games), err)
	}
	g, err := w.store.Game(ctx, games[0].ID)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\nGame %s is over after %s: %s (%s).\n\n", g.ID, counted(len(g.Plies), "ply", "plies"), g.Result, g.Reason)
	if err := printFinalBoard(out, g); err != nil {
		return err
	}
	fmt.Fprintf(out, "\nThe record as the referee archived it:\n\n%s", recordFrom(final))
	return nil
}

// printFinalBoard replays the archived game and draws its last position.
func printFinalBoard(out io.Writer, g *archive.Game) error {
	r, err := g.Replay()
	if err != nil {
		return err
	}
	if e := r.Err(); e != nil {
		return fmt.Errorf("demo: the archived game does not replay: %w", e)
	}
	var opts []notation.DiagramOption
	if n := len(r.Plies); n > 0 && r.Plies[n-1].Played {
		last := r.Plies[n-1]
		opts = append(opts, notation.WithLastMove(last.Move), notation.WithCaptures(last.Captures...))
	}
	return notation.WriteASCII(out, r.Final, opts...)
}

// recordFrom cuts the native record out of the referee's final mail.
func recordFrom(text string) string {
	i := strings.Index(text, "[Event ")
	if i < 0 {
		return "(not found)\n"
	}
	rec := text[i:]
	for _, end := range []string{"\n\nClocks (", "\n\n     a"} {
		if j := strings.Index(rec, end); j >= 0 {
			rec = rec[:j+1] // the record ends where the clocks or the board begin
		}
	}
	return rec
}

// demoServe keeps the demo mail system, and unless setup.noReferee the
// referee, running for real mail clients.
func demoServe(ctx context.Context, out io.Writer, setup demoSetup) error {
	logger := slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: slog.LevelInfo}))
	users := []string{"alice", "bob", "carol", "dave"}
	w, err := startDemoWorld(ctx, users, logger, setup)
	if err != nil {
		return err
	}
	defer w.close()
	referee := w.stack.Address("tafl")
	if setup.noReferee {
		referee = fmt.Sprintf("none running: start 'taflmail serve' on the account tafl (password %q) as %s", demoPassword, w.stack.Address("tafl"))
	}
	fmt.Fprintf(out, `taflmail demo mail system is running on this machine only.

  IMAP server  %s   (no TLS, plain password)
  SMTP server  %s   (no TLS, no authentication needed)
  accounts     alice, bob, carol, dave, tafl @taflmail.test, password %q
  referee      %s

Set up two of the accounts in any mail client (user name "alice", server
127.0.0.1 with the ports above, security none), then from alice's account
mail the referee:

  new copenhagen with bob@taflmail.test

Everything is kept in memory and lost when you stop this with Ctrl-C.
`, w.stack.IMAPAddr(), w.stack.SMTPAddr(), demoPassword, referee)
	<-ctx.Done()
	return nil
}
