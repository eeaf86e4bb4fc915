package config_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/config"
)

// caPEM returns a self-signed CA certificate in PEM.
func caPEM(t *testing.T) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "club CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// TestTLSConfig: tls_ca_file becomes the only trusted roots and
// tls_server_name the name checked; Load reports a CA file that is
// missing or holds no certificate under its key (issue 21 §3).
func TestTLSConfig(t *testing.T) {
	if cfg, err := (config.IMAP{}).TLSConfig(); cfg != nil || err != nil {
		t.Errorf("TLSConfig() of no settings = %v, %v; want nil, nil", cfg, err)
	}
	ca := writeFile(t, "ca.pem", "a comment before\n"+string(caPEM(t)))
	cfg, err := config.SMTP{TLSCAFile: ca, TLSServerName: "mail.club.test"}.TLSConfig()
	if err != nil || cfg == nil || cfg.RootCAs == nil || cfg.ServerName != "mail.club.test" {
		t.Fatalf("TLSConfig() = %+v, %v", cfg, err)
	}
	if cfg.RootCAs.Equal(x509.NewCertPool()) {
		t.Error("RootCAs holds no certificate")
	}

	t.Setenv("TAFLMAIL_IMAP_PASSWORD", "pw")
	for _, tc := range []struct{ name, file, want string }{
		{"missing", "/nonexistent/ca.pem", "imap.tls_ca_file: open /nonexistent/ca.pem: no such file or directory"},
		{"no certificate", writeFile(t, "key.pem", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"), "holds no PEM certificate"},
		{"broken certificate", writeFile(t, "bad.pem", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"), "certificate 1:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := load(t, writeFile(t, "taflmail.yaml", minimal), "--imap-tls-ca-file", tc.file)
			var ke *config.KeyError
			if !errors.As(err, &ke) || ke.Key != "imap.tls_ca_file" || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load = %v, want imap.tls_ca_file: …%s", err, tc.want)
			}
		})
	}
	if _, err := load(t, writeFile(t, "taflmail.yaml", minimal), "--imap-tls-ca-file", ca); err != nil {
		t.Errorf("Load with a good CA file = %v", err)
	}
}
