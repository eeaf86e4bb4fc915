package mailer

import (
	"mime"
	"net/mail"
	"regexp"
	"strings"
	"unicode/utf8"
)

// address is one mailbox of an address field: the address in the form a
// reply can be sent to (see [sendable]) and the decoded display name.
type address struct{ Name, Address string }

// parseAddresses parses an address list (RFC 5322 §3.4) with net/mail,
// decoding RFC 2047 display names in any charset go-message knows. When
// net/mail rejects the list, each mailbox is tried on its own and, failing
// that, read leniently by [lenientMailbox]. Either way the address is what
// stands in the angle brackets: a display name, decoded or not, never
// becomes an address (issue 8 §4).
func parseAddresses(v string) []address {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	if !utf8.ValidString(v) {
		v = decodeWindows1252([]byte(v))
	}
	p := mail.AddressParser{WordDecoder: &mime.WordDecoder{CharsetReader: charsetReader}}
	var out []address
	if list, err := p.ParseList(v); err == nil {
		for _, a := range list {
			if s := sendable(a.Address); s != "" {
				out = append(out, address{Name: cleanName(a.Name), Address: s})
			}
		}
		return out
	}
	for _, mb := range splitMailboxes(v) {
		if a, err := p.Parse(mb); err == nil {
			if s := sendable(a.Address); s != "" {
				out = append(out, address{Name: cleanName(a.Name), Address: s})
			}
			continue
		}
		if a, ok := lenientMailbox(mb); ok {
			out = append(out, a)
		}
	}
	return out
}

// sendable turns the address net/mail returns (local part unquoted, e.g.
// `john doe@example.org`) into the form that can be written into a To field
// or an SMTP path: lower-cased, and with the local part quoted when it is
// not a dot-atom (RFC 5321 §4.1.2, RFC 5322 §3.4.1), e.g.
// `"john doe"@example.org`. A local part quoted without need comes out
// unquoted (`"john"@x` and `john@x` are the same mailbox). It returns ""
// for a string without "@".
//
// Lower-casing the local part is a choice: RFC 5321 §2.4 lets a server
// treat local parts as case-sensitive, but every common mail server
// (Postfix, Exim, Dovecot, Exchange, Gmail) folds case, and one player must
// not become two by the case of his address. docs/security.md says so.
func sendable(addr string) string {
	i := strings.LastIndexByte(addr, '@')
	if i <= 0 || i == len(addr)-1 {
		return ""
	}
	s := (&mail.Address{Address: strings.ToLower(addr)}).String()
	return s[1 : len(s)-1] // String writes "<…>" when Name is empty
}

// cleanName makes a decoded display name safe to log and show: one line,
// valid UTF-8, no surrounding white space.
func cleanName(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ", "\t", " ").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// splitMailboxes splits an address list at the commas that stand outside
// quoted strings, comments and angle brackets.
func splitMailboxes(v string) []string {
	var out []string
	start := 0
	sc := scanner{s: maskEncodedWords(v)}
	for i := 0; i < len(v); i++ {
		if sc.step(i) && sc.s[i] == ',' && sc.angle == 0 {
			out = append(out, v[start:i])
			start = i + 1
		}
	}
	return append(out, v[start:])
}

// scanner tracks the syntactic context of an address field byte by byte:
// inside a quoted string, a comment (nested), or angle brackets.
type scanner struct {
	s       string
	quoted  bool
	comment int
	angle   int
	escaped bool
}

// step moves over byte i and reports whether it is plain syntax: outside
// any quoted string and comment, and not part of an escape or of the
// delimiters of either.
func (sc *scanner) step(i int) bool {
	c := sc.s[i]
	switch {
	case sc.escaped:
		sc.escaped = false
		return false
	case (sc.quoted || sc.comment > 0) && c == '\\':
		sc.escaped = true
		return false
	case sc.quoted:
		if c == '"' {
			sc.quoted = false
		}
		return false
	case sc.comment > 0:
		switch c {
		case '(':
			sc.comment++
		case ')':
			sc.comment--
		}
		return false
	case c == '"':
		sc.quoted = true
		return false
	case c == '(':
		sc.comment = 1
		return false
	case c == '<':
		sc.angle++
	case c == '>' && sc.angle > 0:
		sc.angle--
	}
	return true
}

// simpleAddrSpec is an address a broken field may still hold: no white
// space, quotes or specials, one "@".
var simpleAddrSpec = regexp.MustCompile(`^[^\s<>"(),;:\[\]@\\]+@[^\s<>"(),;:\[\]@\\]+$`)

// addrSpecRE finds bare addresses in text without angle brackets.
var addrSpecRE = regexp.MustCompile(`[^\s<>"(),;:\[\]]+@[^\s<>"(),;:\[\]]+`)

// encodedWordRE matches RFC 2047 encoded words, which belong to display
// names and never hold an address or syntax.
var encodedWordRE = regexp.MustCompile(`=\?[^?\s]+\?[bBqQ]\?[^?\s]*\?=`)

// maskEncodedWords replaces every encoded word of v by as many spaces, so
// that the specials a forger puts into one (":", ",", "<", "@") are not
// taken for syntax; offsets stay those of v.
func maskEncodedWords(v string) string {
	return encodedWordRE.ReplaceAllStringFunc(v, func(w string) string { return strings.Repeat(" ", len(w)) })
}

// lenientMailbox reads one mailbox that net/mail rejected. With angle
// brackets, the address is their content (the last pair, a source route
// dropped) and the text before them is the display name. Without angle
// brackets the mailbox, less comments, quoted strings and encoded words,
// must hold exactly one bare address. Anything else yields no address.
func lenientMailbox(mb string) (address, bool) {
	mb = strings.TrimSpace(mb)
	// a group: "name: a@b" — the group name is not part of the mailbox
	sc := scanner{s: maskEncodedWords(mb)}
	for i := 0; i < len(mb); i++ {
		if sc.step(i) && sc.s[i] == ':' && sc.angle == 0 {
			mb = strings.TrimSpace(mb[i+1:])
			break
		}
	}
	mb = strings.TrimSpace(strings.TrimRight(mb, ";"))

	// Find the last angle-addr outside quotes and comments.
	open, close := -1, -1
	var plain strings.Builder // mb without comments and quoted strings
	sc = scanner{s: maskEncodedWords(mb)}
	for i := 0; i < len(mb); i++ {
		if !sc.step(i) {
			continue
		}
		switch {
		case sc.s[i] == '<' && sc.angle == 1:
			open, close = i, -1
		case sc.s[i] == '>' && sc.angle == 0 && open >= 0 && close < 0:
			close = i
		}
		plain.WriteByte(sc.s[i])
	}
	if open >= 0 && close > open {
		inner := strings.TrimSpace(mb[open+1 : close])
		if strings.HasPrefix(inner, "@") { // obsolete source route "@a,@b:local@domain"
			if _, rest, ok := strings.Cut(inner, ":"); ok {
				inner = rest
			}
		}
		var addr string
		if a, err := mail.ParseAddress("<" + inner + ">"); err == nil {
			addr = sendable(a.Address)
		} else if simpleAddrSpec.MatchString(inner) {
			addr = checkedSendable(inner)
		}
		if addr == "" {
			return address{}, false
		}
		name := strings.TrimSpace(mb[:open])
		if len(name) >= 2 && name[0] == '"' && name[len(name)-1] == '"' {
			name = strings.ReplaceAll(name[1:len(name)-1], `\`, "")
		}
		return address{Name: cleanName(decodeHeaderText(name)), Address: addr}, true
	}
	found := addrSpecRE.FindAllString(plain.String(), -1)
	if len(found) != 1 {
		return address{}, false
	}
	addr := strings.Trim(found[0], ".")
	if !simpleAddrSpec.MatchString(addr) {
		return address{}, false
	}
	if addr = checkedSendable(addr); addr == "" {
		return address{}, false
	}
	return address{Address: addr}, true
}

// checkedSendable is sendable for an address found by lenientMailbox,
// or "" when even the sendable form does not parse (a domain such as
// "a..b"): an address no reply can be written to is no address.
func checkedSendable(addr string) string {
	s := sendable(addr)
	if _, err := mail.ParseAddress(s); err != nil {
		return ""
	}
	return s
}
