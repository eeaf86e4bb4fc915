package mailer

import (
	"strings"
	"testing"
)

// TestAuthenticated checks which Authentication-Results fields count
// (RFC 8601 §5: only those of the configured authserv-id, and of those
// the topmost) and what counts as an aligned pass (relaxed alignment by
// organizational domain, as DMARC, RFC 7489 §3.1).
func TestAuthenticated(t *testing.T) {
	const id = "mx.game.test"
	tests := []struct {
		name    string
		from    string
		results []string // top first, as in the mail
		authID  string   // "" means id
		want    bool
	}{
		{"dkim-pass", "alice@player.test", []string{id + "; dkim=pass header.d=player.test header.s=s1; spf=fail"}, "", true},
		{"spf-pass", "alice@player.test", []string{id + "; spf=pass smtp.mailfrom=alice@player.test"}, "", true},
		{"spf-pass-domain-only", "alice@player.test", []string{id + "; spf=pass smtp.mailfrom=player.test"}, "", true},
		{"dmarc-pass", "alice@player.test", []string{id + "; dmarc=pass (p=none dis=none) header.from=player.test"}, "", true},
		{"dkim-signer-subdomain", "alice@player.test", []string{id + "; dkim=pass header.d=mail.player.test"}, "", true},
		{"dkim-signer-parent", "alice@eu.player.test", []string{id + "; dkim=pass header.d=player.test"}, "", true},
		{"dkim-header-i-only", "alice@player.test", []string{id + "; dkim=pass header.i=@player.test"}, "", true},
		{"dkim-under-multi-label-suffix", "alice@example.co.uk", []string{id + "; dkim=pass header.d=example.co.uk"}, "", true},
		{"dkim-unaligned", "alice@player.test", []string{id + "; dkim=pass header.d=evil.test"}, "", false},
		{"dkim-public-suffix", "alice@example.co.uk", []string{id + "; dkim=pass header.d=co.uk"}, "", false},
		{"dkim-other-org-same-suffix", "alice@example.co.uk", []string{id + "; dkim=pass header.d=evil.co.uk"}, "", false},
		{"dkim-suffix-trick", "alice@player.test", []string{id + "; dkim=pass header.d=evilplayer.test"}, "", false},
		{"spf-unaligned", "alice@player.test", []string{id + "; spf=pass smtp.mailfrom=bounces@lists.example.org"}, "", false},
		{"dmarc-unaligned", "alice@player.test", []string{id + "; dmarc=pass header.from=evil.test"}, "", false},
		{"all-fail", "alice@player.test", []string{id + "; dkim=fail header.d=player.test; spf=softfail smtp.mailfrom=player.test"}, "", false},
		{"none", "alice@player.test", nil, "", false},
		{"from-without-domain", "no-domain", []string{id + "; dkim=pass header.d=player.test"}, "", false},
		{"quoted-local-part", `"a@evil.test"@player.test`, []string{id + "; dkim=pass header.d=player.test"}, "", true},

		// Whose field it is.
		{"wrong-authserv-id", "alice@player.test", []string{"mx.evil.test; dkim=pass header.d=player.test"}, "", false},
		{"authserv-id-case", "alice@player.test", []string{"MX.Game.TEST; dkim=pass header.d=player.test"}, "", true},
		{"authserv-id-version", "alice@player.test", []string{id + " 1; dkim=pass header.d=player.test"}, "", true},
		{"authserv-id-comment", "alice@player.test", []string{id + " (Postfix; amavis); spf=pass smtp.mailfrom=player.test"}, "", true},
		{"authserv-id-prefix", "alice@player.test", []string{id + ".evil.test; dkim=pass header.d=player.test"}, "", false},
		{"no-authserv-id-configured", "alice@player.test", []string{id + "; dkim=pass header.d=player.test"}, "-", false},
		{"forged-below-real", "alice@player.test", []string{
			id + "; dkim=none; spf=softfail smtp.mailfrom=alice@player.test",
			id + "; dkim=pass header.d=player.test", // written by the forger, left in place by the MTA
		}, "", false},
		{"real-pass-forged-fail-below", "alice@player.test", []string{
			id + "; dkim=pass header.d=player.test",
			id + "; dkim=fail header.d=player.test",
		}, "", true},
		{"forged-above-real-other-id", "alice@player.test", []string{
			"mx.evil.test; dkim=pass header.d=player.test",
			id + "; spf=fail smtp.mailfrom=player.test",
		}, "", false},
		{"other-id-above-real-pass", "alice@player.test", []string{
			"relay.example.net; spf=fail smtp.mailfrom=player.test",
			id + "; dkim=pass header.d=player.test",
		}, "", true},

		// Comments.
		{"opendkim-comment", "alice@player.test", []string{id + "; dkim=pass (2048-bit key; unprotected) header.d=player.test header.i=@player.test header.b=Xy12; spf=fail (domain of forwarder.example does not designate 203.0.113.7) smtp.mailfrom=forwarder.example"}, "", true},
		{"pass-inside-comment", "alice@player.test", []string{id + "; spf=fail (dkim=pass header.d=player.test) smtp.mailfrom=evil.test"}, "", false},
		{"nested-comment", "alice@player.test", []string{id + "; spf=fail (a (b; dkim=pass header.d=player.test) c) smtp.mailfrom=evil.test"}, "", false},
		{"folded", "alice@player.test", []string{id + ";\r\n\tdkim=none (message not signed);\r\n\tspf=pass smtp.mailfrom=alice@player.test"}, "", true},
		{"paren-in-quoted-string", "alice@player.test", []string{id + "; dkim=pass header.b=\"x(y\" header.d=player.test"}, "", true},
		{"header-d-in-comment", "alice@player.test", []string{id + "; dkim=pass (header.d=player.test) header.d=evil.test"}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			authID := id
			switch tt.authID {
			case "-":
				authID = ""
			case "":
			default:
				authID = tt.authID
			}
			m := &Message{From: tt.from, AuthenticationResults: tt.results}
			if got := Authenticated(m, authID); got != tt.want {
				t.Errorf("Authenticated(From %s, %q, %q) = %v, want %v", tt.from, strings.Join(tt.results, " | "), authID, got, tt.want)
			}
		})
	}
}

// TestOrganizationalDomain: the registrable domain of an address by the
// Public Suffix List, lower case; a public suffix or an unknown name as
// it is; nothing without "@".
func TestOrganizationalDomain(t *testing.T) {
	for addr, want := range map[string]string{
		"bob@mail.example.org":      "example.org",
		"Bob@Example.ORG":           "example.org",
		"x@a.b.example.co.uk":       "example.co.uk",
		"s1@strangers.test":         "strangers.test",
		"s1@eu.strangers.test":      "strangers.test",
		`"a@b"@mail.player.test`:    "player.test",
		"root@localhost":            "localhost",
		"x@co.uk":                   "co.uk",
		"no-at-sign.example.org":    "",
		"trailing-dot@example.org.": "example.org",
	} {
		if got := OrganizationalDomain(addr); got != want {
			t.Errorf("OrganizationalDomain(%q) = %q, want %q", addr, got, want)
		}
	}
}
