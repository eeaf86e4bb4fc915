package mailer

import (
	"strings"

	"github.com/emersion/go-msgauth/authres"
	"golang.org/x/net/publicsuffix"
)

// Authenticated reports whether the receiving mail system vouches for the
// sender of m: whether the Authentication-Results field (RFC 8601) written
// by the authentication service authservID shows one of
//
//   - dkim=pass whose header.d (or, without it, the domain of header.i) is
//     aligned with the From domain,
//   - spf=pass whose smtp.mailfrom (an address or a domain) is aligned,
//   - dmarc=pass whose header.from is aligned (DMARC passes only for an
//     aligned DKIM or SPF pass, RFC 7489 §3.1).
//
// Aligned is relaxed alignment (RFC 7489 §3.1.1): the same organizational
// domain, found with the Public Suffix List (golang.org/x/net/publicsuffix),
// so mail.example.org is aligned with example.org but example.co.uk is not
// aligned with evil.co.uk. A domain the list does not resolve (a public
// suffix itself, "localhost") is aligned only with itself.
//
// Which field counts (RFC 8601 §5): only fields whose authserv-id equals
// authservID (ignoring case), and of those only the topmost. A receiving
// server prepends its own field and must remove copies bearing its
// authserv-id that came from outside; where one survives anyway, it stands
// below the server's own field and is not read. Fields of other
// authserv-ids (the sender's own servers, relays, a forger) are never
// read. Comments, "(…)", are removed before the field is parsed, so a
// "dkim=pass" or ";" inside one counts for nothing.
//
// It returns false when authservID is empty, when m.From has no domain,
// and when no field of authservID is there.
func Authenticated(m *Message, authservID string) bool {
	authservID = strings.TrimSpace(authservID)
	from := domainOf(m.From)
	if authservID == "" || from == "" {
		return false
	}
	for _, raw := range m.AuthenticationResults {
		id, results, _ := authres.Parse(stripComments(raw))
		if !strings.EqualFold(id, authservID) {
			continue
		}
		// The topmost field of our server decides; the results read
		// before a malformed one still count (authres stops there).
		for _, r := range results {
			switch r := r.(type) {
			case *authres.DKIMResult:
				d := r.Domain
				if d == "" {
					d = domainOf(r.Identifier)
				}
				if r.Value == authres.ResultPass && aligned(d, from) {
					return true
				}
			case *authres.SPFResult:
				d := r.From
				if strings.Contains(d, "@") {
					d = domainOf(d)
				}
				if r.Value == authres.ResultPass && aligned(d, from) {
					return true
				}
			case *authres.DMARCResult:
				if r.Value == authres.ResultPass && aligned(r.From, from) {
					return true
				}
			}
		}
		return false
	}
	return false
}

// OrganizationalDomain returns the organizational domain of a mail
// address: the registrable domain of its domain part by the Public Suffix
// List (golang.org/x/net/publicsuffix, as RFC 7489 §3.2 finds it), lower
// case: "example.org" for "bob@mail.example.org", "example.co.uk" for
// "x@a.example.co.uk". A domain the list does not resolve (a public suffix
// itself, "localhost") is returned as it is; an address without "@" gives
// "". The referee's per-domain reply budget counts by it (docs/security.md).
func OrganizationalDomain(addr string) string {
	d := domainOf(addr)
	if d == "" {
		return ""
	}
	if od, err := publicsuffix.EffectiveTLDPlusOne(d); err == nil {
		return od
	}
	return d
}

// domainOf returns the lower-cased domain of an address, the part after
// its last "@" (a quoted local part may hold "@" too), or "".
func domainOf(addr string) string {
	i := strings.LastIndexByte(addr, '@')
	if i < 0 {
		return ""
	}
	return normDomain(addr[i+1:])
}

// normDomain lower-cases a domain and drops quotes, brackets and a
// trailing dot.
func normDomain(d string) string {
	return strings.TrimSuffix(strings.ToLower(strings.Trim(d, " \t\"<>;")), ".")
}

// aligned reports relaxed alignment of domain d with the From domain from:
// the same organizational domain.
func aligned(d, from string) bool {
	d = normDomain(d)
	if d == "" {
		return false
	}
	if d == from {
		return true
	}
	od, err1 := publicsuffix.EffectiveTLDPlusOne(d)
	of, err2 := publicsuffix.EffectiveTLDPlusOne(from)
	return err1 == nil && err2 == nil && od == of
}

// stripComments removes RFC 5322 comments, "(…)", nested or not, from a
// header field value, leaving quoted strings alone. Authentication-Results
// fields carry comments that hold ";" and "=" (OpenDKIM:
// "dkim=pass (2048-bit key; unprotected)"), which authres.Parse would
// otherwise split at.
func stripComments(s string) string {
	var b strings.Builder
	sc := scanner{s: s}
	for i := 0; i < len(s); i++ {
		was := sc.comment > 0
		sc.step(i)
		if !was && sc.comment == 0 { // neither inside nor opening a comment
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
