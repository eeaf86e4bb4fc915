package mailer

import (
	"crypto/tls"
	"crypto/x509"
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
	cert  bool // the certificate did not verify: wraps ErrCertificate
}

func (e *connectError) Error() string { return e.msg }

// Unwrap returns ErrConnection (IMAP only), ErrCertificate (a
// certificate that does not verify) and the cause.
func (e *connectError) Unwrap() []error {
	errs := []error{e.cause}
	if e.imap {
		errs = append(errs, ErrConnection)
	}
	if e.cert {
		errs = append(errs, ErrCertificate)
	}
	return errs
}

// ErrCertificate is wrapped when the server's TLS certificate does not
// verify: signed by an authority not trusted (the system's roots, or
// IMAPConfig/SMTPConfig TLSConfig.RootCAs), for another name, or
// expired. The message names the setting to look at (tls_ca_file,
// tls_server_name). It is a connection error all the same: the Inbox's
// Reconnect retries it and a Send fails temporarily, since a server's
// certificate gets renewed.
var ErrCertificate = errors.New("TLS certificate does not verify")

// dialFailure describes err, the failure to connect to the proto ("IMAP"
// or "SMTP") server at addr with the security setting security; key is
// the configuration section ("imap", "smtp") whose keys the hints name.
func dialFailure(proto, key, addr, security string, err error) *connectError {
	e := &connectError{cause: err, imap: proto == "IMAP"}
	var rh tls.RecordHeaderError
	var dns *net.DNSError
	var errno syscall.Errno
	var ne net.Error
	var unknown x509.UnknownAuthorityError
	var name x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	switch {
	case errors.As(err, &unknown):
		e.msg = fmt.Sprintf("the %s server at %s presented a certificate that does not verify (%v): if it comes from your own CA, set %s.tls_ca_file to that CA's PEM file",
			proto, addr, unknown, key)
		e.cert = true
	case errors.As(err, &name):
		e.msg = fmt.Sprintf("the %s server at %s presented a certificate that does not verify (%v): set %s.tls_server_name to the name the certificate is for",
			proto, addr, name, key)
		e.cert = true
	case errors.As(err, &invalid):
		e.msg = fmt.Sprintf("the %s server at %s presented a certificate that does not verify (%v): the server's certificate must be renewed, or the clock of this machine is wrong",
			proto, addr, invalid)
		e.cert = true
	case errors.As(err, &verify):
		e.msg = fmt.Sprintf("the %s server at %s presented a certificate that does not verify (%v): check %s.tls_ca_file and %s.tls_server_name",
			proto, addr, verify.Err, key, key)
		e.cert = true
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

// hungUp describes a server that closed the connection before its
// greeting: most often a port that expects TLS from the first byte,
// reached without it, that gave up waiting for a TLS handshake.
func hungUp(proto, key, addr, security string, err error) *connectError {
	msg := fmt.Sprintf("the %s server at %s closed the connection without a greeting (%v)", proto, addr, err)
	if security != SecurityTLS {
		msg += fmt.Sprintf(": if the port expects TLS from the first byte (such as %s), set %s.security to %q", tlsPort(proto), key, SecurityTLS)
	}
	return &connectError{msg: msg, cause: err, imap: proto == "IMAP"}
}

// answersInTLS describes a server that answered a plain connection with a
// TLS record.
func answersInTLS(proto, key, addr string) *connectError {
	return &connectError{
		msg:   fmt.Sprintf("the %s server at %s speaks TLS from the first byte: set %s.security to %q", proto, addr, key, SecurityTLS),
		cause: errors.New("TLS record on a plain connection"), imap: proto == "IMAP",
	}
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
