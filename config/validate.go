package config

import (
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// MaxAttachmentLimit is the largest server.max_attachment_bytes allowed:
// 64 MiB, about 88 MB in base64, more than mail providers accept in one
// mail (commonly 25 MB or less).
const MaxAttachmentLimit = 64 << 20

// MaxTournamentPlayersLimit is the largest server.max_tournament_players
// allowed: the largest start measured (1,000 players, 999,000 games in
// matches; docs/performance.md).
const MaxTournamentPlayersLimit = 1000

// KeyError is one problem with one setting.
type KeyError struct {
	Key     string // e.g. "imap.addr"
	Problem string // e.g. "required"
}

// Error returns "key: problem".
func (e *KeyError) Error() string { return e.Key + ": " + e.Problem }

// Validate checks every setting and returns all problems joined with
// errors.Join, each a [*KeyError] naming its key, or nil. It expects the
// passwords already read (Load does that). The sections are checked in
// the order imap, smtp, archive, server, clock, engine, http, health, log,
// and the problems keep that order.
func (c Config) Validate() error {
	var p problems
	c.validateIMAP(&p)
	c.validateSMTP(&p)
	p.required("archive.path", c.Archive.Path)
	c.validateServer(&p)
	c.validateClock(&p)
	c.validateEngine(&p)
	c.validateHTTP(&p)
	c.validateHealth(&p)
	p.oneOf("log.level", c.Log.Level, "debug", "info", "warn", "error")
	p.oneOf("log.format", c.Log.Format, "text", "json")
	return errors.Join(p.errs...)
}

// problems collects the [*KeyError]s Validate finds, in the order found.
type problems struct {
	errs []error
}

// bad records that key has the problem format (a fmt.Sprintf format with
// args).
func (p *problems) bad(key, format string, args ...any) {
	p.errs = append(p.errs, &KeyError{Key: key, Problem: fmt.Sprintf(format, args...)})
}

// required records "required" for key when value is empty or blank, and
// reports whether value was there.
func (p *problems) required(key, value string) bool {
	if strings.TrimSpace(value) == "" {
		p.bad(key, "required")
		return false
	}
	return true
}

// hostPort checks that the required value of key is host:port with a
// host and a port from 1 to 65535, recording at most one problem.
func (p *problems) hostPort(key, value string) {
	if !p.required(key, value) {
		return
	}
	host, port, err := net.SplitHostPort(value)
	if err != nil || host == "" {
		p.bad(key, "must be host:port, not %q", value)
		return
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		p.bad(key, "port must be a number from 1 to 65535, not %q", port)
	}
}

// oneOf records a problem naming the allowed values (two or more) when
// value of key is none of them.
func (p *problems) oneOf(key, value string, allowed ...string) {
	if !slices.Contains(allowed, value) {
		list := strings.Join(allowed[:len(allowed)-1], ", ") + " or " + allowed[len(allowed)-1]
		p.bad(key, "must be %s, not %q", list, value)
	}
}

// security checks a security setting: none, starttls or tls.
func (p *problems) security(key, value string) { p.oneOf(key, value, "none", "starttls", "tls") }

// tlsKeys checks the TLS settings of section, whose log-in goes over
// addr when login is set: they are for a TLS connection, and a
// connection without TLS carries a log-in only to this machine unless
// allow_insecure says otherwise.
func (p *problems) tlsKeys(section, addr, sec, caFile, serverName string, allowInsecure, login bool) {
	key := func(name string) string { return section + "." + name }
	if sec == "none" {
		for _, k := range []struct{ name, value string }{{"tls_ca_file", caFile}, {"tls_server_name", serverName}} {
			if k.value != "" {
				p.bad(key(k.name), "only used when %s is tls or starttls", key("security"))
			}
		}
		host, _, err := net.SplitHostPort(addr)
		if err == nil && host != "" && login && !allowInsecure && !isLoopback(host) {
			p.bad(key("security"), "none sends the log-in in clear text to %s: use tls or starttls, or set %s: true if the network to it is trusted", host, key("allow_insecure"))
		}
	}
	if strings.ContainsAny(serverName, " \t\r\n/:@") {
		p.bad(key("tls_server_name"), "must be a host name, not %q", serverName)
	}
}

// validateIMAP checks the imap section into p.
func (c Config) validateIMAP(p *problems) {
	p.hostPort("imap.addr", c.IMAP.Addr)
	p.required("imap.username", c.IMAP.Username)
	auth("imap", c.IMAP.Auth, c.IMAP.Password, c.IMAP.OAuth2TokenCommand, c.IMAP.OAuth2TokenFile, p.bad)
	if c.IMAP.Auth == AuthPassword && c.IMAP.Password == "" {
		p.bad("imap.password", "required: set imap.password_file or TAFLMAIL_IMAP_PASSWORD")
	}
	p.security("imap.security", c.IMAP.Security)
	p.tlsKeys("imap", c.IMAP.Addr, c.IMAP.Security, c.IMAP.TLSCAFile, c.IMAP.TLSServerName, c.IMAP.AllowInsecure, true)
	p.required("imap.mailbox", c.IMAP.Mailbox)
	if c.IMAP.ProcessedMailbox != "" && c.IMAP.ProcessedMailbox == c.IMAP.Mailbox {
		p.bad("imap.processed_mailbox", "must differ from imap.mailbox %q", c.IMAP.Mailbox)
	}
	if c.IMAP.PollInterval < time.Second {
		p.bad("imap.poll_interval", "must be at least 1s, not %v", c.IMAP.PollInterval)
	}
	if c.IMAP.MaxMailBytes < 1<<10 || c.IMAP.MaxMailBytes > 1<<30 {
		p.bad("imap.max_mail_bytes", "must be from 1024 (1 KiB) to 1073741824 (1 GiB), not %d", c.IMAP.MaxMailBytes)
	}
}

// validateSMTP checks the smtp section into p: the log-in needs a user
// name and a password together (or a token source for OAuth2).
func (c Config) validateSMTP(p *problems) {
	p.hostPort("smtp.addr", c.SMTP.Addr)
	auth("smtp", c.SMTP.Auth, c.SMTP.Password, c.SMTP.OAuth2TokenCommand, c.SMTP.OAuth2TokenFile, p.bad)
	switch {
	case c.SMTP.UsesOAuth2() && c.SMTP.Username == "":
		p.bad("smtp.username", "required when smtp.auth is %s", c.SMTP.Auth)
	case c.SMTP.Auth != AuthPassword:
	case c.SMTP.Username == "" && c.SMTP.Password != "":
		p.bad("smtp.username", "required when a password is set")
	case c.SMTP.Username != "" && c.SMTP.Password == "":
		p.bad("smtp.password", "required when smtp.username is set: set smtp.password_file or TAFLMAIL_SMTP_PASSWORD")
	}
	p.security("smtp.security", c.SMTP.Security)
	p.tlsKeys("smtp", c.SMTP.Addr, c.SMTP.Security, c.SMTP.TLSCAFile, c.SMTP.TLSServerName, c.SMTP.AllowInsecure, c.SMTP.Username != "")
	if strings.ContainsAny(c.SMTP.HeloName, " \t\r\n") {
		p.bad("smtp.helo_name", "must be a host name, not %q", c.SMTP.HeloName)
	}
}

// validateServer checks the server section into p: the address and
// domain mail is sent from, the reply limits, the authserv-id, and the
// limits on attachments and tournaments.
func (c Config) validateServer(p *problems) {
	if p.required("server.address", c.Server.Address) {
		if a, err := mail.ParseAddress(c.Server.Address); err != nil || a.Name != "" || a.Address != c.Server.Address {
			p.bad("server.address", "must be a bare mail address like games@example.org, not %q", c.Server.Address)
		}
	}
	if strings.ContainsAny(c.Server.Name, "\r\n") {
		p.bad("server.name", "must be one line")
	}
	if c.Server.Address != "" && c.Server.Domain == "" {
		p.bad("server.domain", "required")
	} else if strings.ContainsAny(c.Server.Domain, "@ \t\r\n<>") {
		p.bad("server.domain", "must be a domain name, not %q", c.Server.Domain)
	}
	if c.Server.ErrorRepliesPerHour < 0 {
		p.bad("server.error_replies_per_hour", "must be 0 or more, not %d", c.Server.ErrorRepliesPerHour)
	}
	if c.Server.JunkRepliesPer10m < 0 {
		p.bad("server.junk_replies_per_10m", "must be 0 or more, not %d", c.Server.JunkRepliesPer10m)
	}
	if c.Server.DomainRepliesPer10m < 1 || c.Server.DomainRepliesPer10m > 100000 {
		p.bad("server.domain_replies_per_10m", "must be from 1 to 100000, not %d", c.Server.DomainRepliesPer10m)
	}
	if c.Server.RequireAuthResults && strings.TrimSpace(c.Server.AuthservID) == "" {
		p.bad("server.authserv_id", "required when server.require_auth_results is true: the authserv-id your receiving mail server "+
			"writes first in its Authentication-Results fields, e.g. mx.example.org")
	} else if strings.ContainsAny(c.Server.AuthservID, " \t\r\n;()\"") {
		p.bad("server.authserv_id", "must be one word like mx.example.org, not %q", c.Server.AuthservID)
	}
	p.oneOf("server.default_language", c.Server.DefaultLanguage, "en", "de")
	if _, err := ParseExpiry(c.Server.InvitationExpiry); err != nil {
		p.bad("server.invitation_expiry", "%v", err)
	}
	if c.Server.MaxAttachmentBytes < 0 || c.Server.MaxAttachmentBytes > MaxAttachmentLimit {
		p.bad("server.max_attachment_bytes", "must be from 0 to %d (64 MiB), not %d", int64(MaxAttachmentLimit), c.Server.MaxAttachmentBytes)
	}
	c.validateUnsubscribeURL(p)
	if c.Server.MaxTournamentPlayers < 3 || c.Server.MaxTournamentPlayers > MaxTournamentPlayersLimit {
		p.bad("server.max_tournament_players", "must be from 3 to %d, not %d", MaxTournamentPlayersLimit, c.Server.MaxTournamentPlayers)
	}
}

// validateUnsubscribeURL checks server.unsubscribe_url into p when set:
// an https URL with a path and no query or fragment, which needs http.addr
// because serve answers it there.
func (c Config) validateUnsubscribeURL(p *problems) {
	if c.Server.UnsubscribeURL == "" {
		return
	}
	u, err := url.Parse(c.Server.UnsubscribeURL)
	switch {
	case err != nil || u.Scheme != "https" || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.Path == "" || u.Path == "/":
		p.bad("server.unsubscribe_url", "must be an https URL with a path and without query, such as https://tafl.example.org/unsubscribe (RFC 8058 wants HTTPS), not %q", c.Server.UnsubscribeURL)
	case c.HTTP.Addr == "":
		p.bad("server.unsubscribe_url", "needs http.addr: serve answers it there, at its path %s, behind your HTTPS proxy", u.Path)
	}
}

// validateClock checks the clock section into p.
func (c Config) validateClock(p *problems) {
	if c.Clock.LeaveDays < 0 || c.Clock.LeaveDays > 366 {
		p.bad("clock.leave_days", "must be from 0 to 366, not %d", c.Clock.LeaveDays)
	}
	if _, err := ParseDurations(c.Clock.Reminders); err != nil {
		p.bad("clock.reminders", "%v", err)
	}
	if _, err := ParseDurations(c.Clock.UntimedReminders); err != nil {
		p.bad("clock.untimed_reminders", "%v", err)
	}
	if c.Clock.ArrivalGrace < 0 || c.Clock.ArrivalGrace > time.Hour {
		p.bad("clock.arrival_grace", "must be from 0 to 1h, not %v", c.Clock.ArrivalGrace)
	}
}

// validateEngine checks the engine section's ranges into p.
func (c Config) validateEngine(p *problems) {
	if c.Engine.Think < 10*time.Millisecond || c.Engine.Think > 10*time.Minute {
		p.bad("engine.think", "must be from 10ms to 10m, not %v", c.Engine.Think)
	}
	if c.Engine.Searches < 1 || c.Engine.Searches > 64 {
		p.bad("engine.searches", "must be from 1 to 64, not %d", c.Engine.Searches)
	}
	if c.Engine.TableMiB < 1 || c.Engine.TableMiB > 4096 {
		p.bad("engine.table_mib", "must be from 1 to 4096, not %d", c.Engine.TableMiB)
	}
	if c.Engine.GamesPerPlayer < 0 || c.Engine.GamesPerPlayer > 100 {
		p.bad("engine.games_per_player", "must be from 0 to 100, not %d", c.Engine.GamesPerPlayer)
	}
	if c.Engine.MaxGames < 0 || c.Engine.MaxGames > 100000 {
		p.bad("engine.max_games", "must be from 0 (automatic) to 100000, not %d", c.Engine.MaxGames)
	}
	if c.Engine.ReplyHold < 0 || c.Engine.ReplyHold > 10*time.Minute {
		p.bad("engine.reply_hold", "must be from 0 (never waits) to 10m, not %v", c.Engine.ReplyHold)
	}
}

// validateHTTP checks the http section into p: an empty or host:port
// address (port 0 picks one) and a one-line title of 1 to 80 characters.
func (c Config) validateHTTP(p *problems) {
	if a := c.HTTP.Addr; a != "" {
		if _, port, err := net.SplitHostPort(a); err != nil {
			p.bad("http.addr", "must be host:port (127.0.0.1:8080) or empty, not %q", a)
		} else if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
			p.bad("http.addr", "port must be a number from 0 to 65535, not %q", port)
		}
	}
	if t := c.HTTP.Title; strings.TrimSpace(t) == "" || len([]rune(t)) > 80 || strings.ContainsFunc(t, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		p.bad("http.title", "must be 1 to 80 characters without control characters, not %q", t)
	}
}

// validateHealth checks into p that each health threshold is from 1s to
// 24h.
func (c Config) validateHealth(p *problems) {
	for _, k := range []struct {
		name  string
		value time.Duration
	}{{"health.imap_max_poll_age", c.Health.IMAPMaxPollAge}, {"health.smtp_max_failing", c.Health.SMTPMaxFailing},
		{"health.timers_late_after", c.Health.TimersLateAfter}} {
		if k.value < time.Second || k.value > 24*time.Hour {
			p.bad(k.name, "must be from 1s to 24h, not %v", k.value)
		}
	}
}

// auth checks the log-in settings of section (imap or smtp): the method,
// and that an OAuth2 method has exactly one token source and no password,
// while the password method has no token source.
func auth(section, method string, password Secret, command, file string, bad func(key, format string, args ...any)) {
	key := func(name string) string { return section + "." + name }
	switch method {
	case AuthPassword:
		if strings.TrimSpace(command) != "" {
			bad(key("oauth2_token_command"), "only used when %s is %s or %s", key("auth"), AuthXOAUTH2, AuthOAuthBearer)
		}
		if file != "" {
			bad(key("oauth2_token_file"), "only used when %s is %s or %s", key("auth"), AuthXOAUTH2, AuthOAuthBearer)
		}
	case AuthXOAUTH2, AuthOAuthBearer:
		hasCommand := strings.TrimSpace(command) != ""
		switch {
		case !hasCommand && file == "":
			bad(key("oauth2_token_command"), "required when %s is %s: set it or %s", key("auth"), method, key("oauth2_token_file"))
		case hasCommand && file != "":
			bad(key("oauth2_token_file"), "set, and so is %s: use one", key("oauth2_token_command"))
		}
		if password != "" {
			bad(key("password"), "not used when %s is %s: remove it (and %s, TAFLMAIL_%s_PASSWORD)",
				key("auth"), method, key("password_file"), strings.ToUpper(section))
		}
	default:
		bad(key("auth"), "must be %s, %s or %s, not %q", AuthPassword, AuthXOAUTH2, AuthOAuthBearer, method)
	}
}

// isLoopback reports whether host names this machine: "localhost" or a
// loopback address (127.0.0.0/8, ::1).
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
