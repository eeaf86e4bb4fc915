package devstack

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-sasl"
)

// xoauth2 is the name of the SASL XOAUTH2 mechanism, which go-sasl lacks.
const xoauth2 = "XOAUTH2"

// mechanisms are the SASL mechanisms both servers offer.
var mechanisms = []string{sasl.Plain, xoauth2, sasl.OAuthBearer}

// user returns the user a log-in name (local part, or address in the
// stack's domain) names, and its local part; nil if there is none. The
// domain is cut at the last "@", as a local part may hold one.
func (s *Stack) user(name string) (*user, string) {
	local := strings.ToLower(name)
	if i := strings.LastIndexByte(local, '@'); i >= 0 && local[i+1:] == s.domain {
		local = local[:i]
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.users[local], local
}

// checkToken returns the local part of the user name logs in as, if token
// is that user's access token.
func (s *Stack) checkToken(name, token string) (string, bool) {
	u, local := s.user(name)
	if u == nil {
		return "", false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return local, u.token != "" && token == u.token
}

// tokenServer returns the SASL server of mech (XOAUTH2 or OAUTHBEARER;
// nil for any other) that checks the token and then calls login with the
// user's local part. A rejected token, and any other failure, ends the
// exchange with failed, the protocol's "authentication failed" error.
func (s *Stack) tokenServer(mech string, login func(local string) error, failed error) sasl.Server {
	check := func(name, token string) bool {
		local, ok := s.checkToken(name, token)
		return ok && login(local) == nil
	}
	switch mech {
	case xoauth2:
		return &failAs{Server: &xoauth2Server{check: check}, err: failed}
	case sasl.OAuthBearer:
		return &failAs{err: failed, Server: sasl.NewOAuthBearerServer(func(o sasl.OAuthBearerOptions) *sasl.OAuthBearerError {
			if !check(o.Username, o.Token) {
				return &sasl.OAuthBearerError{Status: "invalid_token", Schemes: "bearer"}
			}
			return nil
		})}
	}
	return nil
}

// failAs is a SASL server whose every error is err.
type failAs struct {
	sasl.Server
	err error
}

// Next implements sasl.Server.
func (f *failAs) Next(response []byte) ([]byte, bool, error) {
	challenge, done, err := f.Server.Next(response)
	if err != nil {
		return nil, true, f.err
	}
	return challenge, done, nil
}

// xoauth2Server is the server side of SASL XOAUTH2 as Google describes it
// (developers.google.com/gmail/imap/xoauth2-protocol): the client sends
// "user=" name ^A "auth=Bearer " token ^A ^A; a bad token is answered with
// a JSON error as a challenge, and after the client's (empty) response the
// exchange fails.
type xoauth2Server struct {
	check    func(name, token string) bool
	rejected bool
}

// Next implements sasl.Server.
func (x *xoauth2Server) Next(response []byte) ([]byte, bool, error) {
	if x.rejected {
		return nil, true, errors.New("devstack: XOAUTH2 token rejected") // replaced by failAs
	}
	if response == nil { // no initial response: ask for it
		return []byte{}, false, nil
	}
	var name, token string
	fields := bytes.Split(response, []byte{0x01})
	for _, f := range fields {
		if v, ok := bytes.CutPrefix(f, []byte("user=")); ok {
			name = string(v)
		}
		if v, ok := bytes.CutPrefix(f, []byte("auth=")); ok && len(v) > 7 && strings.EqualFold(string(v[:7]), "bearer ") {
			token = string(v[7:])
		}
	}
	if len(fields) < 3 || name == "" || token == "" || !x.check(name, token) {
		x.rejected = true
		challenge, _ := json.Marshal(sasl.OAuthBearerError{Status: "401", Schemes: "bearer"})
		return challenge, false, nil
	}
	return nil, true, nil
}

// imapSession is the memserver's session with SASL (PLAIN by password,
// XOAUTH2 and OAUTHBEARER by the user's token), APPEND through servable,
// and the failures of Stack.FailFetch.
type imapSession struct {
	imapserver.SessionIMAP4rev2
	stack   *Stack
	conn    *imapserver.Conn
	local   string // the user logged in, "" before
	mailbox string // the mailbox selected, "" when none
}

var _ imapserver.SessionSASL = (*imapSession)(nil)

// Login implements imapserver.Session and remembers the user.
func (is *imapSession) Login(username, password string) error {
	if err := is.SessionIMAP4rev2.Login(username, password); err != nil {
		return err
	}
	is.local = strings.ToLower(username)
	return nil
}

// Select implements imapserver.Session and remembers the mailbox.
func (is *imapSession) Select(name string, options *imap.SelectOptions) (*imap.SelectData, error) {
	data, err := is.SessionIMAP4rev2.Select(name, options)
	is.mailbox = ""
	if err == nil {
		is.mailbox = name
	}
	return data, err
}

// Unselect implements imapserver.Session.
func (is *imapSession) Unselect() error {
	is.mailbox = ""
	return is.SessionIMAP4rev2.Unselect()
}

// Append implements imapserver.Session: a message the server could not
// describe is stored mended or refused with NO (see servable).
func (is *imapSession) Append(mailbox string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if raw, err = servable(raw); err != nil {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeParse, Text: strings.TrimPrefix(err.Error(), "devstack: ")}
	}
	return is.SessionIMAP4rev2.Append(mailbox, bytes.NewReader(raw), options)
}

// Fetch implements imapserver.Session, failing as Stack.FailFetch says.
func (is *imapSession) Fetch(w *imapserver.FetchWriter, numSet imap.NumSet, options *imap.FetchOptions) error {
	if uid, drop := is.stack.failFetch(is.local); uid != 0 && is.mailbox == "INBOX" &&
		(options.BodyStructure != nil || len(options.BodySection) > 0 || len(options.BinarySection) > 0) && holdsUID(numSet, uid) {
		if drop {
			is.conn.NetConn().Close()
			return errors.New("devstack: connection dropped (FailFetch)")
		}
		return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "devstack: injected FETCH failure (FailFetch)"}
	}
	return is.SessionIMAP4rev2.Fetch(w, numSet, options)
}

// holdsUID reports whether numSet is a UID set holding uid, "*" standing
// for any UID from the range's other end on.
func holdsUID(numSet imap.NumSet, uid uint32) bool {
	set, ok := numSet.(imap.UIDSet)
	if !ok {
		return false
	}
	for _, r := range set {
		lo, hi := uint32(r.Start), uint32(r.Stop)
		if lo == 0 || (hi != 0 && hi < lo) {
			lo, hi = hi, lo
		}
		if uid >= lo && (hi == 0 || uid <= hi) {
			return true
		}
	}
	return false
}

// AuthenticateMechanisms implements imapserver.SessionSASL.
func (is *imapSession) AuthenticateMechanisms() []string { return mechanisms }

// Authenticate implements imapserver.SessionSASL. A token log-in logs the
// memserver session in with the user's password, which the memserver
// needs.
func (is *imapSession) Authenticate(mech string) (sasl.Server, error) {
	if mech == sasl.Plain {
		return sasl.NewPlainServer(func(identity, username, password string) error {
			if identity != "" && identity != username {
				return imapserver.ErrAuthFailed
			}
			return is.Login(username, password)
		}), nil
	}
	login := func(local string) error {
		u, _ := is.stack.user(local)
		return is.Login(local, u.password)
	}
	if srv := is.stack.tokenServer(mech, login, imapserver.ErrAuthFailed); srv != nil {
		return srv, nil
	}
	return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "SASL mechanism not supported"}
}
