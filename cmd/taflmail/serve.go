package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/url"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/config"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server"
)

// newServeCommand returns `taflmail serve`: the mail referee daemon.
func newServeCommand() *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the mail referee: read moves from IMAP, answer by SMTP",
		Long: `serve connects to the configured IMAP inbox, waits for mail (IDLE where
the server offers it, polling otherwise), plays the commands and moves it
finds, and answers by SMTP. It runs until interrupted (Ctrl-C or SIGTERM).

With --http ADDR (http.addr) it also answers HTTP on ADDR with the club's
web pages (events, crosstables, games, players, ratings; docs/web.md),
read-only from the archive, and with /healthz and /metrics for your
monitoring (docs/operations.md); listen on loopback behind a reverse
proxy (":8080" without a host is loopback only).

Configuration comes from --config FILE (YAML), TAFLMAIL_* environment
variables and flags; see docs/configuration.md and 'taflmail config check'.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f := cmd.Flags().Lookup("http"); f != nil && f.Changed {
				// --http ADDR is --http-addr ADDR (http.addr)
				if err := cmd.Flags().Set("http-addr", f.Value.String()); err != nil {
					return err
				}
			}
			// The configuration comes back even when it is not valid: its
			// log settings, as far as they are right, say how to report it.
			cfg, err := loadConfig(cmd.Flags(), file)
			logger := newLogger(cfg.Log, cmd.ErrOrStderr())
			if err != nil {
				return fatal(logger, cfg.Log, err)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if err := serve(ctx, cfg, logger); err != nil {
				return fatal(logger, cfg.Log, err)
			}
			logger.Info("taflmail stopped", "cause", context.Cause(ctx).Error())
			return nil
		},
	}
	cmd.Flags().StringVar(&file, "config", "", "YAML configuration file")
	cmd.Flags().String("http", "", "serve the club's web pages, /healthz and /metrics on this host:port, e.g. 127.0.0.1:8080 (the same as --http-addr; docs/web.md, docs/operations.md)")
	config.RegisterFlags(cmd.Flags())
	return cmd
}

// loadConfig loads and validates the configuration; problems are a
// *configError listing every key at fault.
func loadConfig(flags *pflag.FlagSet, file string) (config.Config, error) {
	cfg, err := config.Load(nil, flags, file)
	if err == nil {
		err = cfg.Validate()
	}
	if err != nil {
		return cfg, &configError{fmt.Errorf("configuration:\n%w", err)}
	}
	return cfg, nil
}

// startError marks a failure of serve's start that a restart cannot cure
// as a *configError: a rejected log-in (mailer.ErrAuth,
// mailer.ErrSMTPAuth), a certificate that does not verify
// (mailer.ErrCertificate) or a mistake of the configuration the mail
// servers found (mailer.ErrConfig). Anything else, a server that cannot
// be reached, a token command that failed, stays a plain error (status
// 1), after which systemd starts the daemon again.
func startError(err error) error {
	if errors.Is(err, mailer.ErrAuth) || errors.Is(err, mailer.ErrSMTPAuth) || errors.Is(err, mailer.ErrConfig) || errors.Is(err, mailer.ErrCertificate) {
		return &configError{err}
	}
	return err
}

// newLogger builds the slog logger of the configuration: the level and
// format of log (info and text where they are not valid). Durations are
// written in seconds, a number (issue 21 §7: JSON wrote nanoseconds).
func newLogger(c config.Log, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(c.Level))
	opts := &slog.HandlerOptions{Level: level, ReplaceAttr: inSeconds}
	if c.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// inSeconds writes a duration as seconds, to the millisecond: retry_in=90,
// "down_for":0.25.
func inSeconds(_ []string, a slog.Attr) slog.Attr {
	if a.Value.Kind() == slog.KindDuration {
		return slog.Float64(a.Key, math.Round(a.Value.Duration().Seconds()*1000)/1000)
	}
	return a
}

// fatal reports the error that stops serve. With log.format json it is
// one JSON line of the log ("taflmail stopped", level ERROR, err and
// exit_status), so that a log collector sees it like every other line,
// and main prints nothing more; with text it is main's plain
// "taflmail: …" message, as for any command.
func fatal(logger *slog.Logger, c config.Log, err error) error {
	if c.Format != "json" {
		return err
	}
	code := exitFailure
	if errors.As(err, new(*configError)) {
		code = exitConfig
	}
	logger.Error("taflmail stopped", "err", err.Error(), "exit_status", code)
	return &loggedError{err: err}
}

// serve opens the archive, dials IMAP, and runs the referee until ctx
// ends.
func serve(ctx context.Context, cfg config.Config, logger *slog.Logger) error {
	store, err := openServeArchive(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer store.Close()
	var hs *httpServer
	if cfg.HTTP.Addr != "" {
		if hs, err = startHTTP(ctx, cfg, store, logger); err != nil {
			return err
		}
		defer hs.Close()
	}
	ic, err := imapConfig(cfg)
	if err != nil {
		return &configError{err}
	}
	sc, err := smtpConfig(cfg)
	if err != nil {
		return &configError{err}
	}
	ic.Logger = logger
	sender, err := startSender(ctx, cfg, sc, store, hs, logger)
	if err != nil {
		return err
	}
	inbox, err := mailer.DialInbox(ctx, ic)
	if err != nil {
		if ctx.Err() != nil {
			// stopped while dialling (SIGTERM during the start): a clean
			// stop, not a failure to report and restart after
			logger.Info("stopped before IMAP was dialled", "cause", context.Cause(ctx).Error())
			return nil
		}
		return startError(err)
	}
	defer inbox.Close()
	srv, err := startReferee(cfg, store, inbox, sender, hs, logger)
	if err != nil {
		return err
	}
	// A relay that is away is checked until it answers; its deferred
	// replies then go out at once (issue 21 §1).
	defer startSMTPProbe(ctx, cfg, store, sender, srv, logger)()
	logger.Info("taflmail serving", "address", cfg.Server.Address, "imap", cfg.IMAP.Addr, "smtp", cfg.SMTP.Addr, "archive", cfg.Archive.Path)
	return srv.Run(ctx)
}

// openServeArchive opens the archive of cfg for serve, exclusively: a
// second daemon on it refuses to start (docs/operations.md). It logs a
// created or migrated schema, and releases the outbox claims a stopped
// process left, so that their mails are sent again. It fails when the
// archive is locked (an error that says so, wrapping
// archive.ErrLocked) or cannot be opened or written; the caller closes
// the store returned.
func openServeArchive(ctx context.Context, cfg config.Config, logger *slog.Logger) (*archive.Store, error) {
	store, err := archive.OpenWith(ctx, cfg.Archive.Path, archive.Options{Exclusive: true})
	if errors.Is(err, archive.ErrLocked) {
		return nil, fmt.Errorf("another taflmail serve is running on this archive; stop it first or give this one its own archive.path: %w", err)
	}
	if err != nil {
		return nil, err
	}
	switch m := store.Migration(); {
	case m.From == 0:
		logger.Info("archive created", "path", cfg.Archive.Path, "schema", m.To)
	case m.From < m.To:
		logger.Info("archive migrated", "path", cfg.Archive.Path, "from", m.From, "to", m.To, "took", m.Took)
	}
	// Holding the lock, no other sender is alive: claims left in the
	// outbox are a dead process's, so their mails are sent again now.
	if n, err := store.ReleaseClaims(ctx); err != nil {
		store.Close()
		return nil, err
	} else if n > 0 {
		logger.Warn("outbox claims of a stopped process released; those mails are sent again", "count", n)
	}
	return store, nil
}

// startSender makes the SMTP sender of sc and asks the relay once: a
// rejected log-in or a setting it refuses stops serve (a *configError,
// as a bad IMAP log-in does); a relay that is away is only logged, its
// replies waiting in the outbox. When the relay answers, the deferred
// replies that are due go out now, before IMAP is dialled, also when the
// IMAP server is away and serve stops (issue 21 §8), so that each
// restart drains them. hs, when not nil, monitors the sender.
func startSender(ctx context.Context, cfg config.Config, sc mailer.SMTPConfig, store *archive.Store, hs *httpServer, logger *slog.Logger) (*mailer.Sender, error) {
	sender := mailer.NewSender(sc)
	if hs != nil {
		hs.Monitor.SetSender(sender.Status)
	}
	if err := sender.Check(ctx); err != nil {
		if err := startError(err); errors.As(err, new(*configError)) {
			return nil, err
		}
		logger.Warn("SMTP server not reachable at start; replies wait in the outbox", "smtp", cfg.SMTP.Addr, "err", err)
	} else if early, err := server.New(serverOptions(cfg, store, nil, sender, logger)); err == nil {
		early.FlushOutbox(ctx)
	}
	return sender, nil
}

// startReferee makes the referee of cfg on store, inbox and sender,
// observed by hs's monitor when hs is not nil, and mounts the
// unsubscribe page when cfg asks for one. It fails when server.New or
// mountUnsubscribe does.
func startReferee(cfg config.Config, store *archive.Store, inbox *mailer.Inbox, sender *mailer.Sender, hs *httpServer, logger *slog.Logger) (*server.Server, error) {
	opts := serverOptions(cfg, store, inbox, sender, logger)
	if hs != nil {
		opts.Observer = hs.Monitor
	}
	srv, err := server.New(opts)
	if err != nil {
		return nil, err
	}
	if hs != nil {
		hs.Monitor.SetInbox(inbox.Status)
		hs.Monitor.SetEngineQueue(srv.EngineQueue)
	}
	if cfg.Server.UnsubscribeURL != "" {
		if err := mountUnsubscribe(hs, cfg, srv, logger); err != nil {
			return nil, err
		}
	}
	return srv, nil
}

// mountUnsubscribe adds the one-click unsubscribe of
// server.unsubscribe_url (RFC 8058, server.UnsubscribeHandler) to the
// HTTP listener hs (http.addr), at the URL's path, beside the web pages;
// the HTTPS proxy in front forwards that path to it. It fails without a
// listener (Validate requires http.addr).
func mountUnsubscribe(hs *httpServer, cfg config.Config, srv *server.Server, logger *slog.Logger) error {
	u, err := url.Parse(cfg.Server.UnsubscribeURL) // validated
	if err != nil {
		return err
	}
	if hs == nil || u.Path == "" || u.Path == "/" {
		return fmt.Errorf("server.unsubscribe_url %q needs http.addr and a path", cfg.Server.UnsubscribeURL)
	}
	hs.Mux.Handle(u.Path, srv.UnsubscribeHandler())
	logger.Info("one-click unsubscribe served", "http", hs.Addr.String(), "path", u.Path)
	return nil
}

// imapConfig is the mailer's IMAP configuration of cfg; the error is one
// of reading imap.tls_ca_file.
func imapConfig(cfg config.Config) (mailer.IMAPConfig, error) {
	c := mailer.IMAPConfig{
		Addr: cfg.IMAP.Addr, Username: cfg.IMAP.Username, Password: cfg.IMAP.Password.Reveal(),
		Auth: cfg.IMAP.Auth, Security: cfg.IMAP.Security, AllowInsecure: cfg.IMAP.AllowInsecure,
		Mailbox: cfg.IMAP.Mailbox, ProcessedMailbox: cfg.IMAP.ProcessedMailbox, PollInterval: cfg.IMAP.PollInterval,
	}
	if cfg.IMAP.UsesOAuth2() {
		c.Token = cfg.IMAP.Token
	}
	var err error
	c.TLSConfig, err = cfg.IMAP.TLSConfig()
	return c, err
}

// smtpConfig is the mailer's SMTP configuration of cfg; the error is one
// of reading smtp.tls_ca_file.
func smtpConfig(cfg config.Config) (mailer.SMTPConfig, error) {
	c := mailer.SMTPConfig{
		Addr: cfg.SMTP.Addr, Username: cfg.SMTP.Username, Password: cfg.SMTP.Password.Reveal(),
		Auth: cfg.SMTP.Auth, Security: cfg.SMTP.Security, AllowInsecure: cfg.SMTP.AllowInsecure,
		HeloName: cfg.SMTP.HeloName,
	}
	if cfg.SMTP.UsesOAuth2() {
		c.Token = cfg.SMTP.Token
	}
	var err error
	c.TLSConfig, err = cfg.SMTP.TLSConfig()
	return c, err
}

func serverOptions(cfg config.Config, store *archive.Store, inbox server.Inbox, sender server.Sender, logger *slog.Logger) server.Options {
	perHour := cfg.Server.ErrorRepliesPerHour
	if perHour == 0 {
		perHour = -1 // config: 0 sends none; server: negative sends none
	}
	junk := cfg.Server.JunkRepliesPer10m
	if junk == 0 {
		junk = -1 // config: 0 answers none; server: negative answers none
	}
	leaveDays := cfg.Clock.LeaveDays
	if leaveDays == 0 {
		leaveDays = -1 // config: 0 allows none; server: negative allows none
	}
	// Validate has checked the lists; an empty one is an empty, non-nil
	// list: no reminders
	reminders, _ := config.ParseDurations(cfg.Clock.Reminders)
	untimed, _ := config.ParseDurations(cfg.Clock.UntimedReminders)
	expiry, _ := config.ParseExpiry(cfg.Server.InvitationExpiry) // validated; "never" is negative
	engineGames := cfg.Engine.GamesPerPlayer
	if engineGames == 0 {
		engineGames = -1 // config: 0 switches engine games off; server: negative does
	}
	grace := cfg.Clock.ArrivalGrace
	if grace == 0 {
		grace = -1 // config: 0 waits for nothing; server: negative does
	}
	replyHold := cfg.Engine.ReplyHold
	if replyHold == 0 {
		replyHold = -1 // config: 0 never waits; server: negative does
	}
	attachment := cfg.Server.MaxAttachmentBytes
	if attachment == 0 {
		attachment = -1 // config: 0 attaches nothing; server: negative does
	}
	return server.Options{
		Address: cfg.Server.Address, Name: cfg.Server.Name, Domain: cfg.Server.Domain,
		Mailbox: cfg.IMAP.Mailbox, Store: store, Inbox: inbox, Sender: sender, Logger: logger,
		MaxMailBytes: cfg.IMAP.MaxMailBytes, ErrorRepliesPerHour: perHour,
		JunkReplies: junk, DomainReplies: cfg.Server.DomainRepliesPer10m,
		DefaultLanguage: cfg.Server.DefaultLanguage, RecordsDir: cfg.Archive.RecordsDir,
		RequireAuthResults: cfg.Server.RequireAuthResults, AuthservID: cfg.Server.AuthservID,
		LeaveDays: leaveDays, Reminders: reminders, UntimedReminders: untimed, ArrivalGrace: grace,
		EngineThink: cfg.Engine.Think, EngineSearches: cfg.Engine.Searches,
		EngineTableBytes: cfg.Engine.TableMiB << 20, EngineGames: engineGames, EngineMaxGames: cfg.Engine.MaxGames,
		EngineReplyHold:  replyHold,
		InvitationExpiry: expiry, MaxAttachmentBytes: attachment,
		UnsubscribeURL:       cfg.Server.UnsubscribeURL,
		MaxTournamentPlayers: cfg.Server.MaxTournamentPlayers,
	}
}
