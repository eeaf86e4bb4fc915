package config_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"github.com/taflmail/taflmail/config"
)

// minimal is the least a valid configuration file says.
const minimal = `
imap:
  addr: imap.example.org:993
  username: games@example.org
smtp:
  addr: smtp.example.org:465
server:
  address: games@example.org
`

// writeFile writes text into a file in a temporary directory.
func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// load runs Load with a new viper and a flag set from RegisterFlags,
// parsed from args.
func load(t *testing.T, file string, args ...string) (config.Config, error) {
	t.Helper()
	fs := pflag.NewFlagSet("taflmail", pflag.ContinueOnError)
	config.RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("Parse(%q) = %v", args, err)
	}
	return config.Load(viper.New(), fs, file)
}

func TestDefault(t *testing.T) {
	d := config.Default()
	for _, tc := range []struct {
		key       string
		got, want any
	}{
		{"imap.mailbox", d.IMAP.Mailbox, "INBOX"},
		{"imap.processed_mailbox", d.IMAP.ProcessedMailbox, "Processed"},
		{"imap.poll_interval", d.IMAP.PollInterval, time.Minute},
		{"imap.max_mail_bytes", d.IMAP.MaxMailBytes, int64(25 << 20)},
		{"imap.security", d.IMAP.Security, "tls"},
		{"imap.auth", d.IMAP.Auth, "password"},
		{"smtp.auth", d.SMTP.Auth, "password"},
		{"archive.path", d.Archive.Path, "taflmail.db"},
		{"archive.records_dir", d.Archive.RecordsDir, "records"},
		{"server.name", d.Server.Name, "taflmail"},
		{"server.error_replies_per_hour", d.Server.ErrorRepliesPerHour, 5},
		{"server.junk_replies_per_10m", d.Server.JunkRepliesPer10m, 60},
		{"server.domain_replies_per_10m", d.Server.DomainRepliesPer10m, 20},
		{"engine.max_games", d.Engine.MaxGames, 0},
		{"engine.reply_hold", d.Engine.ReplyHold, 30 * time.Second},
		{"server.require_auth_results", d.Server.RequireAuthResults, false},
		{"server.authserv_id", d.Server.AuthservID, ""},
		{"server.default_language", d.Server.DefaultLanguage, "en"},
		{"server.max_attachment_bytes", d.Server.MaxAttachmentBytes, int64(5 << 20)},
		{"log.level", d.Log.Level, "info"},
		{"log.format", d.Log.Format, "text"},
	} {
		if tc.got != tc.want {
			t.Errorf("Default %s = %v, want %v", tc.key, tc.got, tc.want)
		}
	}
}

// TestPrecedence sets a few keys of each type in more and more layers: the
// highest layer set wins (flag > env > file > default).
func TestPrecedence(t *testing.T) {
	type layers struct{ file, env, flag string }
	for _, tc := range []struct {
		key, section, field string
		def                 string
		values              layers
		get                 func(config.Config) string
	}{
		{"imap.addr", "imap", "addr", "imap.example.org:993", layers{"file.example:993", "env.example:993", "flag.example:993"},
			func(c config.Config) string { return c.IMAP.Addr }},
		{"imap.poll_interval", "imap", "poll_interval", "1m0s", layers{"2m0s", "3m0s", "4m0s"},
			func(c config.Config) string { return c.IMAP.PollInterval.String() }},
		{"imap.max_mail_bytes", "imap", "max_mail_bytes", "26214400", layers{"2048", "4096", "8192"},
			func(c config.Config) string { return fmt.Sprint(c.IMAP.MaxMailBytes) }},
		{"server.error_replies_per_hour", "server", "error_replies_per_hour", "5", layers{"6", "7", "0"},
			func(c config.Config) string { return fmt.Sprint(c.Server.ErrorRepliesPerHour) }},
		{"server.junk_replies_per_10m", "server", "junk_replies_per_10m", "60", layers{"10", "20", "0"},
			func(c config.Config) string { return fmt.Sprint(c.Server.JunkRepliesPer10m) }},
		{"server.require_auth_results", "server", "require_auth_results", "false", layers{"true", "false", "true"},
			func(c config.Config) string { return fmt.Sprint(c.Server.RequireAuthResults) }},
		{"imap.processed_mailbox", "imap", "processed_mailbox", "Processed", layers{"Done", "Archive", "Handled"},
			func(c config.Config) string { return c.IMAP.ProcessedMailbox }},
		{"server.authserv_id", "server", "authserv_id", "", layers{"mx1.example.org", "mx2.example.org", "mx3.example.org"},
			func(c config.Config) string { return c.Server.AuthservID }},
		{"server.max_attachment_bytes", "server", "max_attachment_bytes", "5242880", layers{"1048576", "0", "67108864"},
			func(c config.Config) string { return fmt.Sprint(c.Server.MaxAttachmentBytes) }},
	} {
		env := "TAFLMAIL_" + strings.ToUpper(strings.ReplaceAll(tc.key, ".", "_"))
		flag := "--" + strings.NewReplacer(".", "-", "_", "-").Replace(tc.key)
		// The file adds the key to its section of minimal (the first line
		// after "section:").
		file := minimal
		if tc.key != "imap.addr" {
			file = strings.Replace(file, tc.section+":\n", tc.section+":\n  "+tc.field+": "+tc.values.file+"\n", 1)
		} else {
			file = strings.Replace(file, "imap.example.org:993", tc.values.file, 1)
		}
		for _, step := range []struct {
			name string
			file string
			env  bool
			flag bool
			want string
		}{
			{"default", minimal, false, false, tc.def},
			{"file", file, false, false, tc.values.file},
			{"env", file, true, false, tc.values.env},
			{"flag", file, true, true, tc.values.flag},
			{"flag without env", file, false, true, tc.values.flag},
		} {
			t.Run(tc.key+"/"+step.name, func(t *testing.T) {
				t.Setenv("TAFLMAIL_IMAP_PASSWORD", "pw")
				if tc.key == "server.require_auth_results" {
					// Validate wants an authserv-id with it
					t.Setenv("TAFLMAIL_SERVER_AUTHSERV_ID", "mx.example.org")
				}
				if step.env {
					t.Setenv(env, tc.values.env)
				}
				var args []string
				if step.flag {
					args = []string{flag + "=" + tc.values.flag}
				}
				c, err := load(t, writeFile(t, "taflmail.yaml", step.file), args...)
				if err != nil {
					t.Fatalf("Load = %v", err)
				}
				if got := tc.get(c); got != step.want {
					t.Errorf("%s = %q, want %q", tc.key, got, step.want)
				}
			})
		}
	}
}

// TestEnvOnly configures the daemon without file or flags.
func TestEnvOnly(t *testing.T) {
	for k, v := range map[string]string{
		"TAFLMAIL_IMAP_ADDR":          "127.0.0.1:1143",
		"TAFLMAIL_IMAP_USERNAME":      "games",
		"TAFLMAIL_IMAP_PASSWORD":      "imap-secret",
		"TAFLMAIL_IMAP_SECURITY":      "none",
		"TAFLMAIL_SMTP_ADDR":          "127.0.0.1:1025",
		"TAFLMAIL_SMTP_SECURITY":      "none",
		"TAFLMAIL_SERVER_ADDRESS":     "games@localhost",
		"TAFLMAIL_LOG_FORMAT":         "json",
		"TAFLMAIL_IMAP_POLL_INTERVAL": "2s",
	} {
		t.Setenv(k, v)
	}
	c, err := config.Load(nil, nil, "")
	if err != nil {
		t.Fatalf("Load = %v", err)
	}
	if c.IMAP.Password.Reveal() != "imap-secret" || c.IMAP.PollInterval != 2*time.Second || c.Log.Format != "json" ||
		c.Server.Domain != "localhost" || c.SMTP.HeloName != "localhost" {
		t.Errorf("Load = %+v", c)
	}
}

func TestPasswordFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	lf, crlf := write("lf", "s3cret \n"), write("crlf", "other\r\n")
	none, empty := write("none", "no-newline"), write("empty", "\n")
	file := writeFile(t, "taflmail.yaml", strings.Replace(strings.Replace(minimal, "smtp:\n", "smtp:\n  username: games@example.org\n  password_file: "+crlf+"\n", 1),
		"imap:\n", "imap:\n  password_file: "+lf+"\n", 1))
	c, err := load(t, file)
	if err != nil {
		t.Fatalf("Load = %v", err)
	}
	if got := c.IMAP.Password.Reveal(); got != "s3cret " {
		t.Errorf("imap password = %q, want %q (trailing newline dropped, spaces kept)", got, "s3cret ")
	}
	if got := c.SMTP.Password.Reveal(); got != "other" {
		t.Errorf("smtp password = %q, want %q", got, "other")
	}

	t.Run("no newline", func(t *testing.T) {
		t.Setenv("TAFLMAIL_IMAP_PASSWORD_FILE", none)
		c, err := load(t, file)
		if err != nil || c.IMAP.Password.Reveal() != "no-newline" {
			t.Errorf("Load = %q, %v", c.IMAP.Password.Reveal(), err)
		}
	})
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"both set", map[string]string{"TAFLMAIL_IMAP_PASSWORD": "x"}, "imap.password_file: set, and so is the password itself: use one"},
		{"missing", map[string]string{"TAFLMAIL_IMAP_PASSWORD_FILE": filepath.Join(dir, "missing")}, "imap.password_file: open " + filepath.Join(dir, "missing") + ": no such file or directory"},
		{"empty", map[string]string{"TAFLMAIL_SMTP_PASSWORD_FILE": empty}, "smtp.password_file: " + empty + " is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			_, err := load(t, file)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestValidate checks the exact text of every problem, one line each.
func TestValidate(t *testing.T) {
	valid := func() config.Config {
		c := config.Default()
		c.IMAP.Addr, c.IMAP.Username, c.IMAP.Password = "imap.example.org:993", "games", "pw"
		c.SMTP.Addr = "smtp.example.org:587"
		c.SMTP.Security = "starttls"
		c.Server.Address, c.Server.Domain = "games@example.org", "example.org"
		return c
	}
	if err := valid().Validate(); err != nil {
		t.Fatalf("Validate(valid) = %v", err)
	}
	for _, edit := range []func(*config.Config){
		func(c *config.Config) { c.IMAP.Addr, c.IMAP.Security = "127.0.0.1:143", "none" },
		func(c *config.Config) { c.IMAP.Addr, c.IMAP.Security = "[::1]:143", "none" },
		func(c *config.Config) { c.IMAP.Addr, c.IMAP.Security = "localhost:143", "none" },
		func(c *config.Config) { c.IMAP.Security, c.IMAP.AllowInsecure = "none", true },
		func(c *config.Config) { c.SMTP.Security = "none" }, // no username: no AUTH
		func(c *config.Config) {
			c.SMTP.Security, c.SMTP.Username, c.SMTP.Password, c.SMTP.AllowInsecure = "none", "u", "pw", true
		},
		func(c *config.Config) { c.IMAP.TLSServerName = "mail.example.org" },
	} {
		c := valid()
		edit(&c)
		if err := c.Validate(); err != nil {
			t.Errorf("Validate(%+v) = %v", c.IMAP, err)
		}
	}
	for _, tc := range []struct {
		name string
		edit func(*config.Config)
		want string
	}{
		{"empty", func(c *config.Config) { *c = config.Config{} }, `imap.addr: required
imap.username: required
imap.auth: must be password, xoauth2 or oauthbearer, not ""
imap.security: must be none, starttls or tls, not ""
imap.mailbox: required
imap.poll_interval: must be at least 1s, not 0s
imap.max_mail_bytes: must be from 1024 (1 KiB) to 1073741824 (1 GiB), not 0
smtp.addr: required
smtp.auth: must be password, xoauth2 or oauthbearer, not ""
smtp.security: must be none, starttls or tls, not ""
archive.path: required
server.address: required
server.domain_replies_per_10m: must be from 1 to 100000, not 0
server.default_language: must be en or de, not ""
server.invitation_expiry: "" is not one duration like 14d, nor "never"
server.max_tournament_players: must be from 3 to 1000, not 0
engine.think: must be from 10ms to 10m, not 0s
engine.searches: must be from 1 to 64, not 0
engine.table_mib: must be from 1 to 4096, not 0
http.title: must be 1 to 80 characters without control characters, not ""
health.imap_max_poll_age: must be from 1s to 24h, not 0s
health.smtp_max_failing: must be from 1s to 24h, not 0s
health.timers_late_after: must be from 1s to 24h, not 0s
log.level: must be debug, info, warn or error, not ""
log.format: must be text or json, not ""`},
		{"security", func(c *config.Config) { c.SMTP.Security = "x" }, `smtp.security: must be none, starttls or tls, not "x"`},
		{"addr without port", func(c *config.Config) { c.IMAP.Addr = "imap.example.org" }, `imap.addr: must be host:port, not "imap.example.org"`},
		{"bad port", func(c *config.Config) { c.SMTP.Addr = "smtp.example.org:smtp" }, `smtp.addr: port must be a number from 1 to 65535, not "smtp"`},
		{"same mailboxes", func(c *config.Config) { c.IMAP.ProcessedMailbox = "INBOX" }, `imap.processed_mailbox: must differ from imap.mailbox "INBOX"`},
		{"smtp password alone", func(c *config.Config) { c.SMTP.Password = "pw" }, `smtp.username: required when a password is set`},
		{"smtp username alone", func(c *config.Config) { c.SMTP.Username = "u" }, `smtp.password: required when smtp.username is set: set smtp.password_file or TAFLMAIL_SMTP_PASSWORD`},
		{"address with name", func(c *config.Config) { c.Server.Address = "Games <games@example.org>" }, `server.address: must be a bare mail address like games@example.org, not "Games <games@example.org>"`},
		{"not an address", func(c *config.Config) { c.Server.Address = "games" }, `server.address: must be a bare mail address like games@example.org, not "games"`},
		{"domain", func(c *config.Config) { c.Server.Domain = "" }, `server.domain: required`},
		{"language", func(c *config.Config) { c.Server.DefaultLanguage = "sv" }, `server.default_language: must be en or de, not "sv"`},
		{"negative replies", func(c *config.Config) { c.Server.ErrorRepliesPerHour = -1 }, `server.error_replies_per_hour: must be 0 or more, not -1`},
		{"negative junk replies", func(c *config.Config) { c.Server.JunkRepliesPer10m = -2 }, `server.junk_replies_per_10m: must be 0 or more, not -2`},
		{"no domain replies", func(c *config.Config) { c.Server.DomainRepliesPer10m = 0 }, `server.domain_replies_per_10m: must be from 1 to 100000, not 0`},
		{"negative engine games", func(c *config.Config) { c.Engine.MaxGames = -1 }, `engine.max_games: must be from 0 (automatic) to 100000, not -1`},
		{"negative reply hold", func(c *config.Config) { c.Engine.ReplyHold = -time.Second }, `engine.reply_hold: must be from 0 (never waits) to 10m, not -1s`},
		{"long reply hold", func(c *config.Config) { c.Engine.ReplyHold = time.Hour }, `engine.reply_hold: must be from 0 (never waits) to 10m, not 1h0m0s`},
		{"negative attachment", func(c *config.Config) { c.Server.MaxAttachmentBytes = -1 }, `server.max_attachment_bytes: must be from 0 to 67108864 (64 MiB), not -1`},
		{"huge attachment", func(c *config.Config) { c.Server.MaxAttachmentBytes = 64<<20 + 1 }, `server.max_attachment_bytes: must be from 0 to 67108864 (64 MiB), not 67108865`},
		{"unsubscribe over http", func(c *config.Config) {
			c.Server.UnsubscribeURL, c.HTTP.Addr = "http://tafl.example.org/u", "127.0.0.1:8080"
		},
			`server.unsubscribe_url: must be an https URL with a path and without query, such as https://tafl.example.org/unsubscribe (RFC 8058 wants HTTPS), not "http://tafl.example.org/u"`},
		{"unsubscribe at the root", func(c *config.Config) {
			c.Server.UnsubscribeURL, c.HTTP.Addr = "https://tafl.example.org/", "127.0.0.1:8080"
		},
			`server.unsubscribe_url: must be an https URL with a path and without query, such as https://tafl.example.org/unsubscribe (RFC 8058 wants HTTPS), not "https://tafl.example.org/"`},
		{"unsubscribe without http", func(c *config.Config) { c.Server.UnsubscribeURL = "https://tafl.example.org/u" },
			`server.unsubscribe_url: needs http.addr: serve answers it there, at its path /u, behind your HTTPS proxy`},
		{"tiny tournaments", func(c *config.Config) { c.Server.MaxTournamentPlayers = 2 }, `server.max_tournament_players: must be from 3 to 1000, not 2`},
		{"huge tournaments", func(c *config.Config) { c.Server.MaxTournamentPlayers = 1001 }, `server.max_tournament_players: must be from 3 to 1000, not 1001`},
		{"fast poll", func(c *config.Config) { c.IMAP.PollInterval = time.Millisecond }, `imap.poll_interval: must be at least 1s, not 1ms`},
		{"helo", func(c *config.Config) { c.SMTP.HeloName = "my host" }, `smtp.helo_name: must be a host name, not "my host"`},
		{"auth results without authserv id", func(c *config.Config) { c.Server.RequireAuthResults = true },
			`server.authserv_id: required when server.require_auth_results is true: the authserv-id your receiving mail server writes first in its Authentication-Results fields, e.g. mx.example.org`},
		{"authserv id with a result", func(c *config.Config) { c.Server.AuthservID = "mx.example.org; spf=pass" },
			`server.authserv_id: must be one word like mx.example.org, not "mx.example.org; spf=pass"`},
		{"imap password missing", func(c *config.Config) { c.IMAP.Password = "" }, `imap.password: required: set imap.password_file or TAFLMAIL_IMAP_PASSWORD`},
		{"unknown auth", func(c *config.Config) { c.IMAP.Auth = "oauth2" }, `imap.auth: must be password, xoauth2 or oauthbearer, not "oauth2"`},
		{"oauth2 without token", func(c *config.Config) { c.IMAP.Auth, c.IMAP.Password = "xoauth2", "" },
			`imap.oauth2_token_command: required when imap.auth is xoauth2: set it or imap.oauth2_token_file`},
		{"oauth2 with two tokens", func(c *config.Config) {
			c.IMAP.Auth, c.IMAP.Password, c.IMAP.OAuth2TokenCommand, c.IMAP.OAuth2TokenFile = "oauthbearer", "", "oauth2l fetch", "/run/token"
		}, `imap.oauth2_token_file: set, and so is imap.oauth2_token_command: use one`},
		{"oauth2 with a password", func(c *config.Config) { c.IMAP.Auth, c.IMAP.OAuth2TokenFile = "xoauth2", "/run/token" },
			`imap.password: not used when imap.auth is xoauth2: remove it (and imap.password_file, TAFLMAIL_IMAP_PASSWORD)`},
		{"blank token command", func(c *config.Config) { c.IMAP.Auth, c.IMAP.Password, c.IMAP.OAuth2TokenCommand = "xoauth2", "", "  " },
			`imap.oauth2_token_command: required when imap.auth is xoauth2: set it or imap.oauth2_token_file`},
		{"token without oauth2", func(c *config.Config) { c.SMTP.OAuth2TokenCommand = "oauth2l fetch" },
			`smtp.oauth2_token_command: only used when smtp.auth is xoauth2 or oauthbearer`},
		{"token file without oauth2", func(c *config.Config) { c.IMAP.OAuth2TokenFile = "/run/token" },
			`imap.oauth2_token_file: only used when imap.auth is xoauth2 or oauthbearer`},
		{"http addr", func(c *config.Config) { c.HTTP.Addr = "localhost" }, `http.addr: must be host:port (127.0.0.1:8080) or empty, not "localhost"`},
		{"http port", func(c *config.Config) { c.HTTP.Addr = "127.0.0.1:http" }, `http.addr: port must be a number from 0 to 65535, not "http"`},
		{"http title", func(c *config.Config) { c.HTTP.Title = "a\nb" }, `http.title: must be 1 to 80 characters without control characters, not "a\nb"`},
		{"health thresholds", func(c *config.Config) {
			c.Health.IMAPMaxPollAge, c.Health.SMTPMaxFailing, c.Health.TimersLateAfter = 500*time.Millisecond, 0, 25*time.Hour
		}, "health.imap_max_poll_age: must be from 1s to 24h, not 500ms\nhealth.smtp_max_failing: must be from 1s to 24h, not 0s\nhealth.timers_late_after: must be from 1s to 24h, not 25h0m0s"},
		{"smtp oauth2 without username", func(c *config.Config) { c.SMTP.Auth, c.SMTP.OAuth2TokenFile = "xoauth2", "/run/token" },
			`smtp.username: required when smtp.auth is xoauth2`},
		// a log-in in clear text goes to this machine only, unless the
		// operator says otherwise (issue 21 §3)
		{"imap none to a remote host", func(c *config.Config) { c.IMAP.Security = "none" },
			`imap.security: none sends the log-in in clear text to imap.example.org: use tls or starttls, or set imap.allow_insecure: true if the network to it is trusted`},
		{"smtp none with AUTH to a remote host", func(c *config.Config) { c.SMTP.Security, c.SMTP.Username, c.SMTP.Password = "none", "u", "pw" },
			`smtp.security: none sends the log-in in clear text to smtp.example.org: use tls or starttls, or set smtp.allow_insecure: true if the network to it is trusted`},
		{"tls settings without tls", func(c *config.Config) {
			c.IMAP.Addr, c.IMAP.Security, c.IMAP.TLSCAFile, c.IMAP.TLSServerName = "127.0.0.1:143", "none", "/etc/ca.pem", "imap.example.org"
		}, "imap.tls_ca_file: only used when imap.security is tls or starttls\nimap.tls_server_name: only used when imap.security is tls or starttls"},
		{"server name with a port", func(c *config.Config) { c.SMTP.TLSServerName = "smtp.example.org:465" },
			`smtp.tls_server_name: must be a host name, not "smtp.example.org:465"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := valid()
			tc.edit(&c)
			err := c.Validate()
			if err == nil {
				t.Fatalf("Validate = nil, want %q", tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("Validate =\n%s\nwant\n%s", err, tc.want)
			}
			var ke *config.KeyError
			if !errors.As(err, &ke) || !strings.HasPrefix(tc.want, ke.Key+": ") {
				t.Errorf("errors.As(*KeyError) = %v", ke)
			}
		})
	}
}

// TestLoadErrors: Load returns the configuration and every problem.
func TestLoadErrors(t *testing.T) {
	c, err := config.Load(nil, nil, "")
	if err == nil || !strings.Contains(err.Error(), "imap.addr: required") || !strings.Contains(err.Error(), "server.address: required") {
		t.Errorf("Load(nothing) = %v, want the missing keys", err)
	}
	if c.IMAP.Mailbox != "INBOX" {
		t.Errorf("Load(nothing) returned %+v, want the defaults despite the error", c)
	}
	for _, tc := range []struct{ name, file, want string }{
		{"unknown key", minimal + "  adress: x\nlogs:\n  level: debug\n", "logs.level: unknown key in "},
		{"unknown key in section", strings.Replace(minimal, "imap:\n", "imap:\n  adr: x\n", 1), "imap.adr: unknown key in "},
		{"renamed key", strings.Replace(minimal, "server:\n", "server:\n  stranger_replies_per_hour: 60\n", 1),
			"server.stranger_replies_per_hour: no longer read in "},
		{"bare number duration", strings.Replace(minimal, "imap:\n", "imap:\n  poll_interval: 60\n", 1), `imap.poll_interval: duration 60 has no unit: write e.g. "60s" or "60m"`},
		{"bad duration", strings.Replace(minimal, "imap:\n", "imap:\n  poll_interval: soon\n", 1), `imap.poll_interval: not a duration like "90s" or "5m": "soon"`},
		{"bad number", strings.Replace(minimal, "imap:\n", "imap:\n  max_mail_bytes: lots\n", 1), `imap.max_mail_bytes: not a whole number: lots`},
		{"fraction", strings.Replace(minimal, "server:\n", "server:\n  error_replies_per_hour: 1.5\n", 1), `server.error_replies_per_hour: not a whole number: 1.5`},
		{"bad bool", strings.Replace(minimal, "server:\n", "server:\n  require_auth_results: yes\n", 1), `server.require_auth_results: not true or false: "yes"`},
		{"two unknown keys", minimal + "  adress: x\nlogs:\n  level: debug\n", "logs.level: unknown key in "},
		{"not YAML", "imap: [", "not valid YAML"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("TAFLMAIL_IMAP_PASSWORD", "pw")
			_, err := load(t, writeFile(t, "taflmail.yaml", tc.file))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load = %v, want an error containing %q", err, tc.want)
			}
		})
	}
	// A key without a value keeps the default.
	t.Setenv("TAFLMAIL_IMAP_PASSWORD", "pw")
	if c, err := load(t, writeFile(t, "taflmail.yaml", strings.Replace(minimal, "smtp:\n", "smtp:\n  security:\n", 1))); err != nil || c.SMTP.Security != "tls" {
		t.Errorf("Load(security:) = %q, %v; want the default tls", c.SMTP.Security, err)
	}
	if _, err := load(t, filepath.Join(t.TempDir(), "missing.yaml")); err == nil {
		t.Error("Load(missing file) = nil error")
	}
}

// TestLoadEveryProblem: unknown keys and values that cannot be decoded do
// not hide the other problems (trial report §5): Load reports every one,
// one per key, and a key whose value could not be decoded is not reported
// a second time by Validate.
func TestLoadEveryProblem(t *testing.T) {
	t.Setenv("TAFLMAIL_IMAP_PASSWORD", "pw")
	file := writeFile(t, "keys.yaml", `
imap:
  adr: imap.example.org:993
  username: games@example.org
  poll_interval: 90
  max_mail_bytes: 10
smtp:
  addr: smtp.example.org
  security: x
server:
  address: not an address
  error_replies_per_hour: -3
  default_language: fr
log:
  level: loud
colour: blue
`)
	c, err := load(t, file)
	if err == nil {
		t.Fatal("Load = nil error")
	}
	want := []string{
		"colour: unknown key in " + file,
		"imap.adr: unknown key in " + file,
		`imap.poll_interval: duration 90 has no unit: write e.g. "90s" or "90m"`,
		"imap.addr: required",
		"imap.max_mail_bytes: ",
		"smtp.addr: must be host:port",
		"smtp.security: must be none, starttls or tls",
		"server.address: ",
		"server.domain: required", // derived from server.address
		"server.error_replies_per_hour: ",
		"server.default_language: ",
		"log.level: ",
	}
	var lines []string
	for _, e := range flatten(err) {
		lines = append(lines, e.Error())
	}
	for _, w := range want {
		n := 0
		for _, l := range lines {
			if strings.HasPrefix(l, w) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("problems starting %q: %d, want 1; all problems:\n%s", w, n, strings.Join(lines, "\n"))
		}
	}
	if len(lines) != len(want) {
		t.Errorf("Load reported %d problems, want %d:\n%s", len(lines), len(want), strings.Join(lines, "\n"))
	}
	if c.IMAP.Username != "games@example.org" || c.IMAP.MaxMailBytes != 10 {
		t.Errorf("Load returned %+v, want the values it could read", c.IMAP)
	}
}

// TestLoadFileTooLarge: a configuration file larger than MaxFileBytes,
// or an endless one, is refused after reading one byte more than it
// (issue 18 §5), as a *FileError that says why.
func TestLoadFileTooLarge(t *testing.T) {
	files := []string{writeFile(t, "taflmail.yaml", "imap:\n"+strings.Repeat("# comment\n", config.MaxFileBytes/10+1))}
	if _, err := os.Stat("/dev/zero"); err == nil {
		files = append(files, "/dev/zero")
	}
	for _, file := range files {
		_, err := load(t, file)
		var fe *config.FileError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), "larger than 1048576 bytes") {
			t.Errorf("Load(%s) = %v, want a *FileError: larger than 1048576 bytes", file, err)
		}
	}
}

// TestLoadFileErrors: a file that is not YAML, or not a mapping of
// sections, is named with the line and said in plain words, not as the
// YAML library's error (trial report §11); it is a *FileError.
func TestLoadFileErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"list", "- imap\n- smtp\n", "line 1: the file must hold sections such as imap: and server:, not a list"},
		{"text", "just some words\n", "line 1: the file must hold sections such as imap: and server:, not a line of text"},
		{"unclosed quote", "imap:\n  addr: \"x\n", "line 2: not valid YAML (found unexpected end of stream): look for an unclosed quote or bracket, or a tab in the indentation"},
		{"bracket", "imap: [", "line 1: not valid YAML (did not find expected node content): look for an unclosed quote or bracket, or a tab in the indentation"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := writeFile(t, "taflmail.yaml", tc.text)
			_, err := load(t, file)
			var fe *config.FileError
			if err == nil || err.Error() != file+": "+tc.want || !errors.As(err, &fe) || fe.File != file {
				t.Errorf("Load = %v, want %q (a *FileError)", err, file+": "+tc.want)
			}
			for _, internal := range []string{"unmarshal", "!!", "interface", "While parsing"} {
				if err != nil && strings.Contains(err.Error(), internal) {
					t.Errorf("Load = %v: shows the YAML library's words %q", err, internal)
				}
			}
		})
	}
	// A section written as one value: said so, rather than "unknown key".
	t.Setenv("TAFLMAIL_IMAP_PASSWORD", "pw")
	_, err := load(t, writeFile(t, "taflmail.yaml", minimal+"log: loud\n"))
	if err == nil || !strings.Contains(err.Error(), "log: is a section: write its keys (log.level, …) indented below it, not one value") {
		t.Errorf("Load(log: loud) = %v, want the section named", err)
	}
}

// flatten lists the problems of an errors.Join tree.
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}

// TestMasking: no way of printing a Config shows a password.
func TestMasking(t *testing.T) {
	t.Setenv("TAFLMAIL_IMAP_PASSWORD", "imap-Pa55")
	t.Setenv("TAFLMAIL_SMTP_PASSWORD", "smtp-Pa55")
	c, err := load(t, writeFile(t, "taflmail.yaml", strings.Replace(minimal, "smtp:\n", "smtp:\n  username: games\n", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if c.IMAP.Password.Reveal() != "imap-Pa55" {
		t.Fatalf("password = %q", c.IMAP.Password.Reveal())
	}
	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("config", "config", c, "imap", c.IMAP, "password", c.SMTP.Password)
	slog.New(slog.NewTextHandler(&logged, nil)).Info("config", "config", c, "imap", c.IMAP, "password", c.SMTP.Password)
	js, _ := json.Marshal(c)
	outputs := map[string]string{
		"String":   c.String(),
		"Masked":   fmt.Sprintf("%+v", c.Masked().IMAP),
		"%v":       fmt.Sprintf("%v", c),
		"%+v":      fmt.Sprintf("%+v", c),
		"%#v":      fmt.Sprintf("%#v", c),
		"%v imap":  fmt.Sprintf("%v", c.IMAP),
		"%+v smtp": fmt.Sprintf("%+v", c.SMTP),
		"%#v smtp": fmt.Sprintf("%#v", c.SMTP),
		"%s pw":    fmt.Sprintf("%s %q %x %d", c.IMAP.Password, c.IMAP.Password, c.IMAP.Password, c.IMAP.Password),
		"slog":     logged.String(),
		"json":     string(js),
	}
	for name, out := range outputs {
		if strings.Contains(out, "Pa55") {
			t.Errorf("%s shows a password:\n%s", name, out)
		}
		if !strings.Contains(out, "********") {
			t.Errorf("%s has no mask:\n%s", name, out)
		}
	}
	if !strings.Contains(c.String(), "  password: \"********\"\n") {
		t.Errorf("String() =\n%s\nwant masked password lines", c.String())
	}
}

// TestStringLoadsBack: String's YAML, loaded again, is the same
// configuration (passwords aside, which it masks).
func TestStringLoadsBack(t *testing.T) {
	t.Setenv("TAFLMAIL_IMAP_PASSWORD", "pw")
	c, err := load(t, writeFile(t, "taflmail.yaml", minimal), "--imap-poll-interval=90s", "--server-name=Tafl \"by\" mail\\", "--log-level=debug")
	if err != nil {
		t.Fatal(err)
	}
	text := c.String()
	back, err := load(t, writeFile(t, "again.yaml", strings.ReplaceAll(text, `"********"`, `""`)))
	if err != nil {
		t.Fatalf("Load(String()) = %v\n%s", err, text)
	}
	back.IMAP.Password = c.IMAP.Password
	if !reflect.DeepEqual(back, c) {
		t.Errorf("loaded back:\n%s\nwant\n%s", back, text)
	}
	want := `imap:
  addr: "imap.example.org:993"
  username: "games@example.org"
  auth: "password"
  password: "********"
  password_file: ""
  oauth2_token_command: ""
  oauth2_token_file: ""
  security: "tls"
  tls_ca_file: ""
  tls_server_name: ""
  allow_insecure: false
  mailbox: "INBOX"
  processed_mailbox: "Processed"
  poll_interval: "1m30s"
  max_mail_bytes: 26214400

smtp:
  addr: "smtp.example.org:465"
  username: ""
  auth: "password"
  password: ""
  password_file: ""
  oauth2_token_command: ""
  oauth2_token_file: ""
  security: "tls"
  tls_ca_file: ""
  tls_server_name: ""
  allow_insecure: false
  helo_name: "example.org"

archive:
  path: "taflmail.db"
  records_dir: "records"

server:
  address: "games@example.org"
  name: "Tafl \"by\" mail\\"
  domain: "example.org"
  error_replies_per_hour: 5
  junk_replies_per_10m: 60
  domain_replies_per_10m: 20
  require_auth_results: false
  authserv_id: ""
  default_language: "en"
  invitation_expiry: "14d"
  max_attachment_bytes: 5242880
  max_tournament_players: 300
  unsubscribe_url: ""

clock:
  leave_days: 30
  reminders: "7d, 2d, 12h"
  untimed_reminders: "7d, 14d, 21d"
  arrival_grace: "1m0s"

engine:
  think: "10s"
  searches: 1
  table_mib: 16
  games_per_player: 3
  max_games: 0
  reply_hold: "30s"

http:
  addr: ""
  title: "taflmail"

health:
  imap_max_poll_age: "5m0s"
  smtp_max_failing: "15m0s"
  timers_late_after: "5m0s"

log:
  level: "debug"
  format: "text"
`
	if text != want {
		t.Errorf("String() =\n%s\nwant\n%s", text, want)
	}
}

// TestStringLoadsBackQuoting: names with YAML's special characters, a
// tab and letters beyond ASCII come back from String's
// double-quoted values as they were.
func TestStringLoadsBackQuoting(t *testing.T) {
	t.Setenv("TAFLMAIL_IMAP_PASSWORD", "pw")
	for _, name := range []string{"Tafl für alle ♔", "a: b # c", "tab\there", `'single' "double" \back`, "- dash", ""} {
		c, err := load(t, writeFile(t, "taflmail.yaml", minimal), "--server-name="+name)
		if err != nil {
			t.Fatal(err)
		}
		text := c.String()
		back, err := load(t, writeFile(t, "again.yaml", strings.ReplaceAll(text, `"********"`, `""`)))
		if err != nil {
			t.Fatalf("Load(String()) for name %q = %v\n%s", name, err, text)
		}
		if back.Server.Name != name {
			t.Errorf("server.name %q loads back as %q from\n%s", name, back.Server.Name, text)
		}
	}
}

func TestRegisterFlags(t *testing.T) {
	fs := pflag.NewFlagSet("taflmail", pflag.ContinueOnError)
	fs.String("log-level", "warn", "defined by the command before")
	config.RegisterFlags(fs)
	for _, k := range config.Keys() {
		f := fs.Lookup(k.Flag)
		switch {
		case k.Flag == "":
			if !strings.HasSuffix(k.Name, ".password") {
				t.Errorf("key %s has no flag", k.Name)
			}
		case f == nil:
			t.Errorf("no flag --%s for %s", k.Flag, k.Name)
		case f.Usage == "":
			t.Errorf("flag --%s has no help", k.Flag)
		case k.Name != "log.level" && f.DefValue != fmt.Sprint(k.Default):
			t.Errorf("flag --%s default %q, want %q", k.Flag, f.DefValue, fmt.Sprint(k.Default))
		}
	}
	for _, name := range []string{"imap-password", "smtp-password"} {
		if fs.Lookup(name) != nil {
			t.Errorf("flag --%s exists; passwords must not be flags", name)
		}
	}
	// The flag the command defined itself is bound all the same.
	t.Setenv("TAFLMAIL_IMAP_PASSWORD", "pw")
	if err := fs.Parse([]string{"--log-level=error"}); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(viper.New(), fs, writeFile(t, "taflmail.yaml", minimal))
	if err != nil || c.Log.Level != "error" {
		t.Errorf("Load = %q, %v; want log.level error", c.Log.Level, err)
	}
}

func TestKeys(t *testing.T) {
	keys := config.Keys()
	if len(keys) != 59 {
		t.Errorf("len(Keys()) = %d, want 59", len(keys))
	}
	k := keys[13] // imap.poll_interval
	want := config.Key{Name: "imap.poll_interval", Env: "TAFLMAIL_IMAP_POLL_INTERVAL", Flag: "imap-poll-interval",
		Help: k.Help, Default: time.Minute, Type: reflect.TypeFor[time.Duration]()}
	if !reflect.DeepEqual(k, want) {
		t.Errorf("Keys()[13] = %+v, want %+v", k, want)
	}
	for _, k := range keys {
		if k.Help == "" {
			t.Errorf("key %s has no help text", k.Name)
		}
	}
}

// TestDocs: docs/configuration.md names every key, variable and flag.
func TestDocs(t *testing.T) {
	doc, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range config.Keys() {
		for _, s := range []string{"`" + k.Name + "`", "`" + k.Env + "`"} {
			if !bytes.Contains(doc, []byte(s)) {
				t.Errorf("docs/configuration.md does not mention %s", s)
			}
		}
		if k.Flag != "" && !bytes.Contains(doc, []byte("`--"+k.Flag+"`")) {
			t.Errorf("docs/configuration.md does not mention `--%s`", k.Flag)
		}
	}
}

// TestHTTPListenAddr (issue 21 §1): an address without a host listens on
// loopback only; a host named, every interface included, is kept.
func TestHTTPListenAddr(t *testing.T) {
	for addr, want := range map[string]string{
		"":               "",
		":8080":          "127.0.0.1:8080",
		":0":             "127.0.0.1:0",
		"0.0.0.0:8080":   "0.0.0.0:8080",
		"[::]:8080":      "[::]:8080",
		"127.0.0.1:8080": "127.0.0.1:8080",
		"tafl.test:80":   "tafl.test:80",
		"localhost":      "",
	} {
		if got := (config.HTTP{Addr: addr}).ListenAddr(); got != want {
			t.Errorf("HTTP{Addr: %q}.ListenAddr() = %q, want %q", addr, got, want)
		}
	}
}
