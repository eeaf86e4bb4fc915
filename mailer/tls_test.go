package mailer_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/mailer/devstack"
)

// tlsStack starts a devstack whose servers present a certificate for
// mail.taflmail.test (and 127.0.0.1 when withIP), signed by a private CA,
// with STARTTLS or, with implicit, TLS from the first byte; it returns
// the stack and a pool holding the CA.
func tlsStack(t *testing.T, implicit, withIP bool) (*devstack.Stack, *x509.CertPool) {
	t.Helper()
	names := []string{"mail.taflmail.test"}
	if withIP {
		names = append(names, "127.0.0.1")
	}
	srv, caPEM, err := devstack.NewTLS(names...)
	if err != nil {
		t.Fatal(err)
	}
	s, err := devstack.StartOptions(devstack.Options{Users: map[string]string{"tafl": "pw"}, TLS: srv, ImplicitTLS: implicit})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		t.Fatal("NewTLS gave no CA certificate")
	}
	return s, pool
}

// TestTLSSettings: IMAP and SMTP, over STARTTLS and implicit TLS, trust a
// private CA given as RootCAs and check the certificate's name given as
// ServerName (imap.tls_ca_file, imap.tls_server_name, …); without them the
// certificate is refused with ErrCertificate and a message naming the
// setting (issue 21 §3).
func TestTLSSettings(t *testing.T) {
	for _, implicit := range []bool{false, true} {
		security := mailer.SecurityStartTLS
		if implicit {
			security = mailer.SecurityTLS
		}
		t.Run(security, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			s, pool := tlsStack(t, implicit, true)
			named, namedPool := tlsStack(t, implicit, false) // no 127.0.0.1 in its certificate
			tests := []struct {
				name      string
				stack     *devstack.Stack
				tlsConfig *tls.Config
				want      string // "" for success
			}{
				{"private CA", s, &tls.Config{RootCAs: pool}, ""},
				{"system roots", s, nil, "set imap.tls_ca_file to that CA's PEM file"},
				{"name not in the certificate", named, &tls.Config{RootCAs: namedPool}, "set imap.tls_server_name to the name the certificate is for"},
				{"server name", named, &tls.Config{RootCAs: namedPool, ServerName: "mail.taflmail.test"}, ""},
			}
			for _, tt := range tests {
				in, err := mailer.DialInbox(ctx, mailer.IMAPConfig{Addr: tt.stack.IMAPAddr(), Username: "tafl", Password: "pw",
					Security: security, TLSConfig: tt.tlsConfig, DialTimeout: 5 * time.Second})
				snd := mailer.NewSender(mailer.SMTPConfig{Addr: tt.stack.SMTPAddr(), Username: "tafl", Password: "pw",
					Security: security, TLSConfig: tt.tlsConfig, Timeout: 5 * time.Second})
				serr := snd.Send(ctx, "tafl@taflmail.test", []string{"tafl@taflmail.test"}, []byte("Subject: x\r\n\r\nx\r\n"))
				if tt.want == "" {
					if err != nil {
						t.Errorf("%s: DialInbox = %v", tt.name, err)
					} else {
						if _, _, err := in.Fetch(ctx, 0, 0, 0); err != nil {
							t.Errorf("%s: Fetch over TLS = %v", tt.name, err)
						}
						in.Close()
					}
					if serr != nil {
						t.Errorf("%s: Send = %v", tt.name, serr)
					}
					continue
				}
				if !errors.Is(err, mailer.ErrCertificate) || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("%s: DialInbox = %v, want ErrCertificate and %q", tt.name, err, tt.want)
				}
				var se *mailer.SendError
				smtpWant := strings.Replace(tt.want, "imap.", "smtp.", 1)
				if !errors.As(serr, &se) || !se.Temporary || !errors.Is(serr, mailer.ErrCertificate) || !strings.Contains(serr.Error(), smtpWant) {
					t.Errorf("%s: Send = %v, want a temporary error wrapping ErrCertificate and %q", tt.name, serr, smtpWant)
				}
			}
		})
	}
}

// hangUpAddr returns a loopback address that accepts connections and
// closes them at once, as some TLS ports do with a client that does not
// start a handshake.
func hangUpAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return ln.Addr().String()
}

// TestStartTLSAgainstTLSPort: starttls (or none) against a port that
// speaks TLS from the first byte gets the hint to set security to tls,
// not "unexpected EOF" (issue 21 §3): whether the port waits for a
// handshake (devstack with implicit TLS, a Go TLS server) or hangs up.
func TestStartTLSAgainstTLSPort(t *testing.T) {
	s, _ := tlsStack(t, true, true)
	hangUp := hangUpAddr(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, tc := range []struct {
		name, addr, security, want string
	}{
		{"waits", s.IMAPAddr(), mailer.SecurityStartTLS, `no IMAP greeting from ` + s.IMAPAddr() + ` within 300ms: if the port expects TLS from the first byte (such as 993), set imap.security to "tls"`},
		{"waits, none", s.IMAPAddr(), mailer.SecurityNone, `set imap.security to "tls"`},
		{"hangs up", hangUp, mailer.SecurityStartTLS, `the IMAP server at ` + hangUp + ` closed the connection without a greeting (`},
		{"hangs up, hint", hangUp, mailer.SecurityStartTLS, `): if the port expects TLS from the first byte (such as 993), set imap.security to "tls"`},
	} {
		_, err := mailer.DialInbox(ctx, mailer.IMAPConfig{Addr: tc.addr, Username: "tafl", Password: "pw", Security: tc.security, DialTimeout: 300 * time.Millisecond})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, mailer.ErrConnection) {
			t.Errorf("IMAP %s: DialInbox = %v, want ErrConnection and %q", tc.name, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "unexpected EOF") {
			t.Errorf("IMAP %s: DialInbox = %v", tc.name, err)
		}
	}
	for _, tc := range []struct {
		name, addr, want string
	}{
		{"waits", s.SMTPAddr(), `no SMTP greeting from ` + s.SMTPAddr()},
		{"hangs up", hangUp, `the SMTP server at ` + hangUp + ` closed the connection without a greeting`},
	} {
		snd := mailer.NewSender(mailer.SMTPConfig{Addr: tc.addr, Security: mailer.SecurityStartTLS, Timeout: 300 * time.Millisecond})
		err := snd.Send(ctx, "tafl@taflmail.test", []string{"tafl@taflmail.test"}, []byte("Subject: x\r\n\r\nx\r\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `set smtp.security to "tls"`) {
			t.Errorf("SMTP %s: Send = %v, want %q and the hint", tc.name, err, tc.want)
		}
	}
}

// TestAllowInsecure: security none towards a host that is not this
// machine is refused as a configuration mistake, before any connection,
// unless AllowInsecure says the network is trusted.
func TestAllowInsecure(t *testing.T) {
	ctx := context.Background()
	const remote = "192.0.2.1:143" // TEST-NET-1: never routed
	_, err := mailer.DialInbox(ctx, mailer.IMAPConfig{Addr: remote, Username: "u", Password: "p", Security: mailer.SecurityNone, DialTimeout: 200 * time.Millisecond})
	if !errors.Is(err, mailer.ErrConfig) || !strings.Contains(err.Error(), "imap.allow_insecure") {
		t.Errorf("DialInbox(none, remote) = %v, want ErrConfig naming imap.allow_insecure", err)
	}
	_, err = mailer.DialInbox(ctx, mailer.IMAPConfig{Addr: remote, Username: "u", Password: "p", Security: mailer.SecurityNone, AllowInsecure: true, DialTimeout: 200 * time.Millisecond})
	if errors.Is(err, mailer.ErrConfig) || !errors.Is(err, mailer.ErrConnection) {
		t.Errorf("DialInbox(none, remote, AllowInsecure) = %v, want it to try (ErrConnection)", err)
	}
	snd := mailer.NewSender(mailer.SMTPConfig{Addr: "192.0.2.1:587", Username: "u", Password: "p", Security: mailer.SecurityNone, Timeout: 200 * time.Millisecond})
	err = snd.Send(ctx, "a@x.test", []string{"b@x.test"}, nil)
	var se *mailer.SendError
	if !errors.As(err, &se) || se.Temporary || !errors.Is(err, mailer.ErrConfig) {
		t.Errorf("Send(none, AUTH, remote) = %v, want a permanent ErrConfig", err)
	}
	snd = mailer.NewSender(mailer.SMTPConfig{Addr: "192.0.2.1:587", Username: "u", Password: "p", Security: mailer.SecurityNone, AllowInsecure: true, Timeout: 200 * time.Millisecond})
	if err := snd.Send(ctx, "a@x.test", []string{"b@x.test"}, nil); errors.Is(err, mailer.ErrConfig) {
		t.Errorf("Send(none, AUTH, remote, AllowInsecure) = %v, want it to try", err)
	}
}
