// Package config is taflmail's configuration: one typed, validated [Config]
// filled from, in rising precedence, the defaults, a YAML file, TAFLMAIL_*
// environment variables and command-line flags.
//
// Every setting has one key, and the key gives the other names: key
// imap.poll_interval is the YAML entry poll_interval in section imap, the
// environment variable TAFLMAIL_IMAP_POLL_INTERVAL and the flag
// --imap-poll-interval. docs/configuration.md lists them all.
//
// Passwords are of type [Secret], which prints as "********" through fmt,
// log/slog and encoding/json; they come from a password_file or from the
// environment, never from a flag. OAuth2 access tokens are never part of
// the Config: [IMAP.Token] and [SMTP.Token] run the configured command or
// read the configured file each time a connection needs one.
package config

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"time"
)

// Config is the whole configuration of the daemon.
type Config struct {
	IMAP    IMAP    `mapstructure:"imap"`
	SMTP    SMTP    `mapstructure:"smtp"`
	Archive Archive `mapstructure:"archive"`
	Server  Server  `mapstructure:"server"`
	Clock   Clock   `mapstructure:"clock"`
	Engine  Engine  `mapstructure:"engine"`
	HTTP    HTTP    `mapstructure:"http"`
	Health  Health  `mapstructure:"health"`
	Log     Log     `mapstructure:"log"`
}

// IMAP is where moves arrive.
type IMAP struct {
	Addr               string        `mapstructure:"addr" help:"IMAP server as host:port, e.g. imap.example.org:993"`
	Username           string        `mapstructure:"username" help:"IMAP login name"`
	Auth               string        `mapstructure:"auth" help:"how to log in to IMAP: password, or an OAuth2 access token with xoauth2 or oauthbearer"`
	Password           Secret        `mapstructure:"password" help:"IMAP password; from password_file or TAFLMAIL_IMAP_PASSWORD, never a flag"`
	PasswordFile       string        `mapstructure:"password_file" help:"file holding the IMAP password; one trailing newline is dropped"`
	OAuth2TokenCommand string        `mapstructure:"oauth2_token_command" help:"shell command that prints an OAuth2 access token, run before each IMAP connection"`
	OAuth2TokenFile    string        `mapstructure:"oauth2_token_file" help:"file holding an OAuth2 access token, read before each IMAP connection"`
	Security           string        `mapstructure:"security" help:"connection security: none, starttls or tls"`
	TLSCAFile          string        `mapstructure:"tls_ca_file" help:"PEM file of the certificate authorities trusted for the IMAP server instead of the system's, e.g. a private CA; empty trusts the system's"`
	TLSServerName      string        `mapstructure:"tls_server_name" help:"name the IMAP server's certificate must carry; empty for the host of imap.addr"`
	AllowInsecure      bool          `mapstructure:"allow_insecure" help:"allow security none towards a host that is not this machine, sending the log-in in clear text"`
	Mailbox            string        `mapstructure:"mailbox" help:"mailbox the moves arrive in"`
	ProcessedMailbox   string        `mapstructure:"processed_mailbox" help:"mailbox handled mails are moved to, flagged \\Seen; created if missing; empty means Processed"`
	PollInterval       time.Duration `mapstructure:"poll_interval" help:"time between two looks at the mailbox, e.g. 1m"`
	MaxMailBytes       int64         `mapstructure:"max_mail_bytes" help:"mails larger than this many bytes are refused unread"`
}

// SMTP is how replies leave.
type SMTP struct {
	Addr               string `mapstructure:"addr" help:"SMTP submission server as host:port, e.g. smtp.example.org:465"`
	Username           string `mapstructure:"username" help:"SMTP login name; empty sends without AUTH"`
	Auth               string `mapstructure:"auth" help:"how to log in to SMTP: password, or an OAuth2 access token with xoauth2 or oauthbearer"`
	Password           Secret `mapstructure:"password" help:"SMTP password; from password_file or TAFLMAIL_SMTP_PASSWORD, never a flag"`
	PasswordFile       string `mapstructure:"password_file" help:"file holding the SMTP password; one trailing newline is dropped"`
	OAuth2TokenCommand string `mapstructure:"oauth2_token_command" help:"shell command that prints an OAuth2 access token, run before each SMTP connection"`
	OAuth2TokenFile    string `mapstructure:"oauth2_token_file" help:"file holding an OAuth2 access token, read before each SMTP connection"`
	Security           string `mapstructure:"security" help:"connection security: none, starttls or tls"`
	TLSCAFile          string `mapstructure:"tls_ca_file" help:"PEM file of the certificate authorities trusted for the SMTP server instead of the system's, e.g. a private CA; empty trusts the system's"`
	TLSServerName      string `mapstructure:"tls_server_name" help:"name the SMTP server's certificate must carry; empty for the host of smtp.addr"`
	AllowInsecure      bool   `mapstructure:"allow_insecure" help:"allow security none with smtp.username towards a host that is not this machine, sending the log-in in clear text"`
	HeloName           string `mapstructure:"helo_name" help:"name given in EHLO; empty for server.domain"`
}

// Archive is where games are kept.
type Archive struct {
	Path       string `mapstructure:"path" help:"SQLite file of the archive, relative to the working directory"`
	RecordsDir string `mapstructure:"records_dir" help:"directory for finished games' records; empty writes none"`
}

// Server is the game server's identity and manners.
type Server struct {
	Address              string `mapstructure:"address" help:"the game server's own mail address (required)"`
	Name                 string `mapstructure:"name" help:"display name in the From header of replies"`
	Domain               string `mapstructure:"domain" help:"domain for Message-IDs; empty for the domain of server.address"`
	ErrorRepliesPerHour  int    `mapstructure:"error_replies_per_hour" help:"at most this many error replies to one sender per hour; 0 sends none"`
	JunkRepliesPer10m    int    `mapstructure:"junk_replies_per_10m" help:"at most this many replies per 10 minutes to mails that carry neither a player's key nor a valid command (junk), all senders together; 0 answers none; challenges, joins and confirmations never count"`
	DomainRepliesPer10m  int    `mapstructure:"domain_replies_per_10m" help:"at most this many replies per 10 minutes to keyless mails from the addresses of one domain, junk and valid commands each counted apart; confirmations carrying their key never count"`
	RequireAuthResults   bool   `mapstructure:"require_auth_results" help:"accept only mails whose Authentication-Results header shows the sender authenticated"`
	AuthservID           string `mapstructure:"authserv_id" help:"authserv-id of your receiving mail server: only its Authentication-Results fields are read; required with require_auth_results"`
	DefaultLanguage      string `mapstructure:"default_language" help:"reply language for players who chose none: en or de"`
	InvitationExpiry     string `mapstructure:"invitation_expiry" help:"how long a challenge waits for an answer, in whole days such as \"14d\", before it expires and the challenger is told; never lets challenges wait for ever"`
	MaxAttachmentBytes   int64  `mapstructure:"max_attachment_bytes" help:"largest file, in bytes before base64, the referee attaches to a mail (a finished tournament's records); larger records are not mailed, the mail says the director has them; 0 attaches none"`
	MaxTournamentPlayers int    `mapstructure:"max_tournament_players" help:"most players a tournament may have: tournament create refuses a longer list, join refuses entries beyond it; from 3 to 1000"`
	UnsubscribeURL       string `mapstructure:"unsubscribe_url" help:"HTTPS address of the one-click unsubscribe (RFC 8058) that spectators' mails and digests name, e.g. https://tafl.example.org/unsubscribe; serve answers it at its path on http.addr, behind your HTTPS proxy; empty: they name only the mail that stops them"`
}

// Clock is the operator's part of correspondence clocks (CORRESPONDENCE.md
// §3.1, §4.1, Decision C4; docs/clock.md): the yearly leave allowance,
// when players are reminded, and how long past a deadline the referee
// waits for mail stamped before it. Reminder durations are written as in a
// time control, "<n>d<n>h<n>m" ("7d", "12h", "1d12h"); a list separates
// them by commas. ArrivalGrace is a Go duration ("1m", "30s").
type Clock struct {
	LeaveDays        int           `mapstructure:"leave_days" help:"leave days each player may take per calendar year, during which the clocks of their games stand still; 0 allows none"`
	Reminders        string        `mapstructure:"reminders" help:"remind the player to move in a timed game when their remaining time falls below each of these, e.g. \"7d, 2d, 12h\"; empty sends none"`
	UntimedReminders string        `mapstructure:"untimed_reminders" help:"remind the player to move in an untimed game after each of these without a move, e.g. \"7d, 14d, 21d\"; empty sends none"`
	ArrivalGrace     time.Duration `mapstructure:"arrival_grace" help:"how long past a deadline the referee waits before declaring the time-out, so that a move the mail server stamped before the deadline but shows later is played, e.g. 1m; 0 waits for nothing"`
}

// Engine is the engine opponent players challenge by mail (issue 13,
// docs/engine.md): how long it thinks, how many searches run at once and
// how much memory each takes, and how many games one player, and all
// players together, may run against it (issue 18 §3).
type Engine struct {
	Think          time.Duration `mapstructure:"think" help:"the engine's think time per move at level 5, e.g. 10s; the levels below think the same fraction of it as by default (level 4 0.3, level 3 0.1, level 2 0.05, level 1 0.02)"`
	Searches       int           `mapstructure:"searches" help:"engine searches that run at once, each keeping one core busy; further engine moves wait for one to end"`
	TableMiB       int           `mapstructure:"table_mib" help:"transposition table of each engine search in MiB: the engine needs about searches × table_mib MiB"`
	GamesPerPlayer int           `mapstructure:"games_per_player" help:"running games one player may have against the engine; 0 switches games against the engine off"`
	MaxGames       int           `mapstructure:"max_games" help:"running games against the engine in all; 0 lets the engine take games while one move of every game at the new game's level or below fits in searches × 5 minutes of think time"`
	ReplyHold      time.Duration `mapstructure:"reply_hold" help:"how long the reply to a player's move against the engine waits for the engine's answer, so that one mail brings both moves, e.g. 30s; a level that thinks longer gets its reply at once; 0 never waits"`
}

// HTTP is the web listener of `taflmail serve` (issue 20,
// docs/web.md): the club's public pages, served read-only from the
// archive. Off while Addr is empty.
type HTTP struct {
	Addr  string `mapstructure:"addr" help:"host:port on which serve answers HTTP with the club's web pages, /healthz and /metrics, e.g. 127.0.0.1:8080 behind a reverse proxy; without a host (:8080) loopback only, 0.0.0.0:8080 every interface; empty serves none"`
	Title string `mapstructure:"title" help:"the club's name at the top of every web page"`
}

// ListenAddr is the host:port serve listens on for Addr: Addr itself, but
// with 127.0.0.1 for an empty host (":8080"), so that turning the
// listener on exposes /metrics and /healthz to nobody else by default
// (issue 21 §1); every interface must be asked for by name (0.0.0.0:8080,
// [::]:8080). Empty when Addr is empty or not host:port (Validate refuses
// those).
func (h HTTP) ListenAddr() string {
	host, port, err := net.SplitHostPort(h.Addr)
	if h.Addr == "" || err != nil {
		return ""
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// Health is when /healthz on http.addr calls the referee failing and
// when taflmail_timers_late on /metrics counts a timer as late (issue 21
// §1, docs/operations.md "Health and metrics"). Each is a Go duration
// from 1s to 24h.
type Health struct {
	IMAPMaxPollAge  time.Duration `mapstructure:"imap_max_poll_age" help:"/healthz fails when the inbox was last read longer ago than this, or than three imap.poll_interval if that is longer, e.g. 5m"`
	SMTPMaxFailing  time.Duration `mapstructure:"smtp_max_failing" help:"/healthz fails when the SMTP relay has failed to take the replies for longer than this since its first deferral, e.g. 15m; a relay away is probed every minute or every third of this; a rejected log-in fails at once"`
	TimersLateAfter time.Duration `mapstructure:"timers_late_after" help:"a due timer (reminder, deadline, engine turn) not fired this long after its time counts in taflmail_timers_late, e.g. 5m"`
}

// Log is what the daemon writes about itself.
type Log struct {
	Level  string `mapstructure:"level" help:"least severe level logged: debug, info, warn or error"`
	Format string `mapstructure:"format" help:"log line format: text or json"`
}

// Default returns the configuration before any file, variable or flag.
// It does not validate: imap.addr, imap.username, the passwords, smtp.addr
// and server.address have no default.
func Default() Config {
	return Config{
		IMAP: IMAP{
			Auth:             AuthPassword,
			Security:         "tls",
			Mailbox:          "INBOX",
			ProcessedMailbox: "Processed",
			PollInterval:     time.Minute,
			MaxMailBytes:     25 << 20, // 25 MiB; only the text parts are fetched

		},
		SMTP: SMTP{
			Auth:     AuthPassword,
			Security: "tls",
		},
		Archive: Archive{
			Path:       "taflmail.db",
			RecordsDir: "records",
		},
		Server: Server{
			Name:                "taflmail",
			ErrorRepliesPerHour: 5,
			JunkRepliesPer10m:   60,
			DomainRepliesPer10m: 20,
			DefaultLanguage:     "en",
			InvitationExpiry:    "14d",
			// 5 MiB is about 6.9 MB in base64: under Postfix's default
			// message_size_limit (10,240,000 bytes) with room for the text
			MaxAttachmentBytes: 5 << 20,
			// a round robin of 300 in matches is 89,700 games, started in
			// about two minutes (docs/performance.md)
			MaxTournamentPlayers: 300,
		},
		Clock: Clock{
			LeaveDays:        30,
			Reminders:        "7d, 2d, 12h",
			UntimedReminders: "7d, 14d, 21d",
			ArrivalGrace:     time.Minute,
		},
		Engine: Engine{
			Think:          10 * time.Second,
			Searches:       1,
			TableMiB:       16,
			GamesPerPlayer: 3,
			ReplyHold:      30 * time.Second,
		},
		HTTP: HTTP{
			Title: "taflmail",
		},
		// health.Default*: several missed rounds of a daemon that reads
		// its mailbox at least once a minute; a relay failing for a
		// quarter of an hour; a timer five minutes behind
		Health: Health{
			IMAPMaxPollAge:  5 * time.Minute,
			SMTPMaxFailing:  15 * time.Minute,
			TimersLateAfter: 5 * time.Minute,
		},
		Log: Log{
			Level:  "info",
			Format: "text",
		},
	}
}

// Secret is a password. It prints as "********" (or "" when empty) through
// fmt, log/slog and encoding, so that logging a Config never leaks it; use
// [Secret.Reveal] where the password itself is needed.
type Secret string

// mask is what a non-empty secret prints as.
const mask = "********"

// Reveal returns the password.
func (s Secret) Reveal() string { return string(s) }

// String returns "********", or "" for an empty secret.
func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return mask
}

// Format prints the masked text for every verb, %#v and %q included.
func (s Secret) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		fmt.Fprintf(f, "%q", s.String())
		return
	}
	io.WriteString(f, s.String())
}

// LogValue masks the secret in log/slog output.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// MarshalText masks the secret in encoding/json and other encoders.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Masked returns a copy of c whose passwords are replaced by "********"
// (empty ones stay empty), safe to print or send anywhere.
func (c Config) Masked() Config {
	c.IMAP.Password = Secret(c.IMAP.Password.String())
	c.SMTP.Password = Secret(c.SMTP.Password.String())
	return c
}

// String returns the configuration as YAML, in the layout of the
// configuration file, with passwords masked. The output loads back with
// [Load] (passwords aside).
func (c Config) String() string { return marshalYAML(c.Masked()) }

// GoString is String, so that %#v does not print the passwords either.
func (c Config) GoString() string { return c.String() }
