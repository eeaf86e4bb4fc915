package mailer

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"syscall"
	"time"
)

// connectError is a failure to reach a server or to get its greeting, in
// words that say what happened and which setting to look at (trial report
// §9.2: a refused connection at start is not a "lost" one, and a TLS
// mismatch names the security setting). For IMAP it wraps ErrConnection,
// so that Reconnect retries it; for both it wraps the cause.
type connectError struct {
	msg   string
	cause error
	imap  bool
}

func (e *connectError) Error() string { return e.msg }

// Unwrap returns ErrConnection (IMAP only) and the cause.
func (e *connectError) Unwrap() []error {
	if e.imap {
		return []error{ErrConnection, e.cause}
	}
	return []error{e.cause}
}

// dialFailure describes err, the failure to connect to the proto ("IMAP"
// or "SMTP") server at addr with the security setting security; key is
// the configuration section ("imap", "smtp") whose keys the hints name.
func dialFailure(proto, key, addr, security string, err error) *connectError {
	e := &connectError{cause: err, imap: proto == "IMAP"}
	var rh tls.RecordHeaderError
	var dns *net.DNSError
	var errno syscall.Errno
	var ne net.Error
	switch {
	case errors.As(err, &rh):
		e.msg = fmt.Sprintf("the %s server at %s does not answer in TLS: check %s.security (%q is for a port that speaks TLS from the first byte, such as %s; use %q or %q for a plain port such as %s)",
			proto, addr, key, SecurityTLS, tlsPort(proto), SecurityStartTLS, SecurityNone, plainPort(proto))
	case errors.As(err, &dns):
		e.msg = fmt.Sprintf("cannot connect to the %s server at %s: no address for host %s (%s): check %s.addr", proto, addr, dns.Name, dns.Err, key)
	case errors.As(err, &errno):
		e.msg = fmt.Sprintf("cannot connect to the %s server at %s: %v: is it running, and are host and port in %s.addr right?", proto, addr, errno, key)
	case errors.As(err, &ne) && ne.Timeout():
		e.msg = fmt.Sprintf("cannot connect to the %s server at %s: no answer in time: check %s.addr and the network", proto, addr, key)
	default:
		e.msg = fmt.Sprintf("cannot connect to the %s server at %s: %v", proto, addr, err)
	}
	return e
}

// greetingTimeout describes a server that took a connection but sent no
// greeting within d: most often a port that expects TLS from the first
// byte, reached without it.
func greetingTimeout(proto, key, addr, security string, d time.Duration, err error) *connectError {
	msg := fmt.Sprintf("no %s greeting from %s within %v", proto, addr, d)
	if security != SecurityTLS {
		msg += fmt.Sprintf(": if the port expects TLS from the first byte (such as %s), set %s.security to %q", tlsPort(proto), key, SecurityTLS)
	}
	return &connectError{msg: msg, cause: err, imap: proto == "IMAP"}
}

// tlsPort and plainPort name the usual ports of proto, for hints.
func tlsPort(proto string) string {
	if proto == "IMAP" {
		return "993"
	}
	return "465"
}

func plainPort(proto string) string {
	if proto == "IMAP" {
		return "143"
	}
	return "587"
}
