package referee

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
)

// The way out of every mail a spectator or a digest reader gets (issue
// 18 §1, docs/security.md "Consent"): one step, without a key.
//
//   - List-Unsubscribe (RFC 2369) names a mail to the referee whose
//     subject is the command that stops it, "unwatch K7QX2M" or "notify
//     each" (mailtoSubject); the referee reads a subject as a command
//     line when the mail has no text, so a mail program's "unsubscribe"
//     button does it.
//   - With Options.UnsubscribeURL, List-Unsubscribe also names that HTTPS
//     address with the address and the command in its query, and
//     List-Unsubscribe-Post (RFC 8058) says that a POST to it stops the
//     mails at once (one-click): UnsubscribeHandler serves it. RFC 8058
//     wants an HTTPS URI for that, so without the option there is no
//     List-Unsubscribe-Post.
//
// Neither needs a key: stopping mail is what anyone may ask in an
// address's name (a forged "unwatch" does as much), and the address
// starts it again with a confirmed "watch". A POST changes the archive
// and sends no mail.

// oneClick is the List-Unsubscribe-Post field of RFC 8058 §3.1.
const oneClick = "List-Unsubscribe=One-Click"

// UnsubscribeHeaders returns the header fields that let addr stop the
// mails that the command stop ends ("unwatch K7QX2M", "unwatch cup-27",
// "notify each"): List-Unsubscribe, and with Options.UnsubscribeURL the
// one-click URI first and List-Unsubscribe-Post.
func (s *Server) UnsubscribeHeaders(addr, stop string) map[string]string {
	h := map[string]string{"List-Unsubscribe": s.mailtoSubject(stop)}
	if s.Opts.UnsubscribeURL != "" {
		q := url.Values{"a": {addr}, "stop": {stop}}
		h["List-Unsubscribe"] = "<" + s.Opts.UnsubscribeURL + "?" + q.Encode() + ">, " + h["List-Unsubscribe"]
		h["List-Unsubscribe-Post"] = oneClick
	}
	return h
}

// maxUnsubscribeBody bounds the body of a one-click POST, which RFC 8058
// makes "List-Unsubscribe=One-Click".
const maxUnsubscribeBody = 1 << 10

// unsubscribePage is what a GET of the one-click URI shows (a person
// who opened the link in a browser): the question, and a button that
// POSTs. A GET itself changes nothing (RFC 8058 §3.2: link checkers
// fetch links).
var unsubscribePage = template.Must(template.New("unsubscribe").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>taflmail</title></head>
<body><form method="post"><p>Stop the mails to {{.Address}} that "{{.Stop}}" ends?</p>
<input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Stop them</button></form></body></html>
`))

// UnsubscribeHandler serves the one-click URI of Options.UnsubscribeURL
// (RFC 8058): a POST whose query names an address (a) and the command
// that stops its mails (stop: "unwatch ID" or "notify each") carries the
// command out for that address and answers 200; a GET shows a page with
// a button that POSTs; any other request, or a query that names no
// address or no such command, is answered 400 (405 for other methods)
// and changes nothing. It sends no mail.
func (s *Server) UnsubscribeHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		addr, stop, cmd, err := readUnsubscribe(r.URL.Query())
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_ = unsubscribePage.Execute(w, struct{ Address, Stop string }{addr, stop})
			return
		case http.MethodPost:
		default:
			w.Header().Set("Allow", "GET, HEAD, POST")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		_, _ = io.Copy(io.Discard, http.MaxBytesReader(w, r.Body, maxUnsubscribeBody))
		if err := s.stopMails(r.Context(), addr, cmd); err != nil {
			s.Log.Error("one-click unsubscribe failed", "address", addr, "stop", stop, "err", err)
			http.Error(w, "please try again later", http.StatusServiceUnavailable)
			return
		}
		s.Log.Info("one-click unsubscribe", "address", addr, "stop", stop)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintf(w, "Done: %s gets no more of these mails.\n", addr)
	})
}

// readUnsubscribe reads the query of a one-click URI: the address a
// (lower case) and the command stop, which must be "unwatch" with an id
// or "notify each".
func readUnsubscribe(q url.Values) (addr, stop string, cmd grammar.Command, err error) {
	a, err := mail.ParseAddress(q.Get("a"))
	if err != nil || len(q.Get("a")) > grammar.MaxAddressLength {
		return "", "", nil, errors.New("no address")
	}
	stop = q.Get("stop")
	if len(stop) > 100 {
		return "", "", nil, errors.New("no command that stops mails")
	}
	cmd, err = grammar.ParseCommand("unsubscribe", 1, stop)
	switch c := cmd.(type) {
	case *grammar.UnwatchCommand:
		if err == nil && c.Target != nil {
			return strings.ToLower(a.Address), stop, cmd, nil
		}
	case *grammar.NotifyCommand:
		if err == nil && c.Each != "" && c.At == nil {
			return strings.ToLower(a.Address), stop, cmd, nil
		}
	}
	return "", "", nil, errors.New("no command that stops mails")
}

// stopMails carries out for addr the command cmd of a one-click POST in a
// change of its own: "unwatch ID" ends addr's watching of the game ID
// and its following of the tournament ID, whichever it does; "notify
// each" ends addr's digest. Nothing else changes, nothing is mailed.
func (s *Server) stopMails(ctx context.Context, addr string, cmd grammar.Command) error {
	var change archive.Change
	switch c := cmd.(type) {
	case *grammar.UnwatchCommand:
		change.Writes = []archive.Write{archive.WatchWrite{Unwatch: []archive.Spectator{
			{GameID: strings.ToUpper(c.Target.ID), Address: addr},
			{TournamentID: strings.ToLower(c.Target.ID), Address: addr},
		}}}
	case *grammar.NotifyCommand:
		p, err := s.GamePort().Player(ctx, addr)
		if errors.Is(err, archive.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if !p.Digest {
			return nil
		}
		p.Digest, p.DigestAt, p.DigestZone, p.DigestDue = false, 0, "", time.Time{}
		change.Players = []archive.Player{*p}
	}
	return s.recordPort().Commit(ctx, change)
}
