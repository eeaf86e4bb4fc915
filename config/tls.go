package config

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"io"
	"os"
)

// maxCAFileBytes bounds a tls_ca_file: a bundle of every public CA is
// about 200 KiB.
const maxCAFileBytes = 4 << 20

// TLSConfig returns the TLS settings for the IMAP connection:
// imap.tls_ca_file's certificates as the only trusted roots, and
// imap.tls_server_name as the name the certificate must carry; nil when
// neither is set (the system's roots and the host of imap.addr). It
// reads the CA file at each call (Load calls it once to check the file);
// errors are [*KeyError]s naming imap.tls_ca_file.
func (c IMAP) TLSConfig() (*tls.Config, error) {
	return tlsConfig("imap", c.TLSCAFile, c.TLSServerName)
}

// TLSConfig returns the TLS settings for the SMTP connection, from
// smtp.tls_ca_file and smtp.tls_server_name, as [IMAP.TLSConfig] does.
func (c SMTP) TLSConfig() (*tls.Config, error) {
	return tlsConfig("smtp", c.TLSCAFile, c.TLSServerName)
}

func tlsConfig(section, caFile, serverName string) (*tls.Config, error) {
	if caFile == "" && serverName == "" {
		return nil, nil
	}
	cfg := &tls.Config{ServerName: serverName}
	if caFile != "" {
		pool, err := readCAFile(caFile)
		if err != nil {
			return nil, &KeyError{Key: section + ".tls_ca_file", Problem: err.Error()}
		}
		cfg.RootCAs = pool
	}
	return cfg, nil
}

// readCAFile reads a PEM file of CA certificates (at most
// maxCAFileBytes). A file without a certificate in it, or with a
// certificate block that does not parse, is an error.
func readCAFile(file string) (*x509.CertPool, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	text, err := io.ReadAll(io.LimitReader(f, maxCAFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(text) > maxCAFileBytes {
		return nil, fmt.Errorf("%s holds more than %d bytes", file, maxCAFileBytes)
	}
	pool := x509.NewCertPool()
	n := 0
	for rest := text; ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%s: certificate %d: %v", file, n+1, err)
		}
		pool.AddCert(cert)
		n++
	}
	if n == 0 {
		return nil, fmt.Errorf("%s holds no PEM certificate (-----BEGIN CERTIFICATE-----)", file)
	}
	return pool, nil
}
