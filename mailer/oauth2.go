package mailer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"

	"github.com/emersion/go-sasl"
)

// Authentication methods of [IMAPConfig].Auth and [SMTPConfig].Auth.
const (
	// AuthPassword logs in with the password: IMAP LOGIN (RFC 9051
	// §6.2.3), SMTP AUTH PLAIN (RFC 4616). The empty string means the same.
	AuthPassword = "password"
	// AuthXOAUTH2 sends an OAuth2 access token with SASL XOAUTH2, the
	// mechanism of Gmail and Microsoft 365 ("The SASL XOAUTH2 Mechanism",
	// developers.google.com/gmail/imap/xoauth2-protocol). Microsoft 365
	// offers no other token mechanism.
	AuthXOAUTH2 = "xoauth2"
	// AuthOAuthBearer sends an OAuth2 access token with SASL OAUTHBEARER
	// (RFC 7628), the standard successor of XOAUTH2, which Gmail offers too.
	AuthOAuthBearer = "oauthbearer"
)

// TokenFunc returns a current OAuth2 access token (RFC 6749 §1.4). The
// Inbox and the Sender call it once before each connection, so a token that
// an outside tool refreshes is picked up without a restart. Its error is
// reported as it is, so it should say where the token was to come from.
type TokenFunc func(ctx context.Context) (string, error)

// oauthMechanism returns the SASL mechanism name of auth, "" for password
// log-in, or an error for an unknown value.
func oauthMechanism(auth string) (string, error) {
	switch auth {
	case "", AuthPassword:
		return "", nil
	case AuthXOAUTH2:
		return "XOAUTH2", nil
	case AuthOAuthBearer:
		return sasl.OAuthBearer, nil
	}
	return "", fmt.Errorf("unknown authentication %q (want %s, %s or %s)", auth, AuthPassword, AuthXOAUTH2, AuthOAuthBearer)
}

// newOAuthClient returns the SASL client of mechanism mech ("XOAUTH2" or
// "OAUTHBEARER") for username and token; addr (host:port) fills the
// OAUTHBEARER host and port fields.
func newOAuthClient(mech, username, token, addr string) *oauthClient {
	if mech == sasl.OAuthBearer {
		opts := &sasl.OAuthBearerOptions{Username: username, Token: token}
		if host, port, err := net.SplitHostPort(addr); err == nil {
			opts.Host = host
			opts.Port, _ = strconv.Atoi(port)
		}
		return &oauthClient{Client: sasl.NewOAuthBearerClient(opts), final: []byte{0x01}}
	}
	return &oauthClient{Client: &xoauth2Client{username: username, token: token}, final: []byte{}}
}

// oauthClient ends a failed token exchange the way both mechanisms ask:
// the server's only challenge is a JSON error (RFC 7628 §3.2.2), which the
// client answers with a dummy response (%x01 for OAUTHBEARER, RFC 7628
// §3.2.3; an empty one for XOAUTH2) so that the server closes the command
// with its failure reply. go-sasl's OAUTHBEARER client returns an error
// instead, which leaves an IMAP AUTHENTICATE command open.
type oauthClient struct {
	sasl.Client
	final  []byte
	status string // the "status" of the server's JSON error, if any
	asked  bool
}

// Next implements sasl.Client.
func (c *oauthClient) Next(challenge []byte) ([]byte, error) {
	if c.asked {
		return nil, errors.New("mailer: OAuth2: server sent a second challenge")
	}
	c.asked = true
	var e sasl.OAuthBearerError
	if json.Unmarshal(challenge, &e) == nil {
		c.status = e.Status
	}
	return c.final, nil
}

// rejection describes the server's JSON error for an error message, "" if
// there was none.
func (c *oauthClient) rejection() string {
	if c.status == "" {
		return ""
	}
	return " (OAuth2 status " + strconv.Quote(c.status) + ")"
}

// xoauth2Client is the client side of SASL XOAUTH2. go-sasl removed
// XOAUTH2 as non-standard, but Microsoft 365 offers no other way to log in
// with a token. The initial response is
// "user=" username ^A "auth=Bearer " token ^A ^A.
type xoauth2Client struct {
	username, token string
}

var _ sasl.Client = (*xoauth2Client)(nil)

// Start implements sasl.Client.
func (c *xoauth2Client) Start() (string, []byte, error) {
	return "XOAUTH2", []byte("user=" + c.username + "\x01auth=Bearer " + c.token + "\x01\x01"), nil
}

// Next implements sasl.Client; oauthClient answers the challenge instead.
func (c *xoauth2Client) Next([]byte) ([]byte, error) { return []byte{}, nil }
