package server

import (
	"github.com/taflmail/taflmail/server/internal/referee"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestUnsubscribeHeaders: every spectator's mail (of a game, of a
// tournament) and every digest carries List-Unsubscribe (RFC 2369), a
// mail whose subject stops it; with Options.UnsubscribeURL also the
// one-click HTTPS URI first and List-Unsubscribe-Post (RFC 8058). A mail
// to the referee with that subject and no text stops the mails.
func TestUnsubscribeHeaders(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.confirmed(watcher, "watch "+id, nil)
	spec := to(t, h.reply(alice, "d1-e1"), watcher)
	if u := spec.Header["List-Unsubscribe"]; len(u) != 1 || u[0] != "<mailto:tafl@game.test?subject=unwatch%20"+id+">" {
		t.Errorf("without a URL: List-Unsubscribe = %q", u)
	}
	if p := spec.Header["List-Unsubscribe-Post"]; len(p) != 0 {
		t.Errorf("without an HTTPS URI: List-Unsubscribe-Post = %q", p)
	}

	h.srv.Opts.UnsubscribeURL = "https://tafl.example.org/unsubscribe"
	spec = to(t, h.reply(bob, "d3-f3"), watcher)
	want := "<https://tafl.example.org/unsubscribe?a=carol%40watch.test&stop=unwatch+" + id + ">, <mailto:tafl@game.test?subject=unwatch%20" + id + ">"
	if u := spec.Header["List-Unsubscribe"]; len(u) != 1 || u[0] != want {
		t.Errorf("List-Unsubscribe = %q, want %q", u, want)
	}
	if p := spec.Header["List-Unsubscribe-Post"]; len(p) != 1 || p[0] != "List-Unsubscribe=One-Click" {
		t.Errorf("List-Unsubscribe-Post = %q", p)
	}

	// the digest: its way out is "notify each"
	h.deliver(bob, "x", "notify digest 07:30", nil)
	h.reply(alice, "d2-f2xf3")
	h.now = h.now.Add(24 * time.Hour)
	if _, err := h.srv.RunTimers(h.ctx()); err != nil {
		t.Fatal(err)
	}
	h.srv.FlushOutbox(h.ctx())
	digest := h.last(bob)
	if x := digest.msg.Header["X-Taflmail"]; len(x) != 1 || x[0] != "digest" {
		t.Fatalf("the last mail to bob is no digest: %s", digest.msg.Subject)
	}
	if u := digest.msg.Header["List-Unsubscribe"]; len(u) != 1 || !strings.Contains(u[0], "stop=notify+each") || !strings.Contains(u[0], "subject=notify%20each") {
		t.Errorf("the digest's List-Unsubscribe = %q", u)
	}
	if p := digest.msg.Header["List-Unsubscribe-Post"]; len(p) != 1 {
		t.Errorf("the digest's List-Unsubscribe-Post = %q", p)
	}

	// the mailto: a mail with the subject and no text
	mustContain(t, "mailto", to(t, h.deliver(watcher, "unwatch "+id, "", nil), watcher).Text, referee.Tr(referee.English, "watch.stopped", id))
	if sp := h.spectatorsOf(id); len(sp) != 0 {
		t.Errorf("spectators after the List-Unsubscribe mail: %+v", sp)
	}
}

// TestOneClickUnsubscribe: a POST to the one-click URI of a spectator's
// mail ends the watching at once and sends nothing; a GET changes
// nothing; the URI of a digest ends the digest; a query that names no
// address or a command that does not stop mails is refused.
func TestOneClickUnsubscribe(t *testing.T) {
	h := newHarness(t)
	h.srv.Opts.UnsubscribeURL = "https://tafl.example.org/unsubscribe"
	id := startBrandubh(t, h)
	h.confirmed(watcher, "watch "+id, nil)
	h.createEvent("cup-27", []string{"p1@player.test", "p2@player.test", "p3@player.test"}, nil)
	h.confirmed(viewer, "watch cup-27", nil)
	spec := to(t, h.reply(alice, "d1-e1"), watcher)
	u := spec.Header["List-Unsubscribe"][0]
	uri := u[1:strings.Index(u, ">")]
	handler := h.srv.UnsubscribeHandler()
	do := func(method, uri, body string) *httptest.ResponseRecorder {
		t.Helper()
		r := httptest.NewRequest(method, uri, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		w := httptest.NewRecorder()
		before := len(h.outbox())
		handler.ServeHTTP(w, r)
		if n := len(h.outbox()) - before; n != 0 {
			t.Errorf("%s %s queued %d mails", method, uri, n)
		}
		return w
	}
	if w := do(http.MethodGet, uri, ""); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `method="post"`) || len(h.spectatorsOf(id)) != 1 {
		t.Fatalf("GET: %d %q, %d spectators; want the page and no change", w.Code, w.Body.String(), len(h.spectatorsOf(id)))
	}
	if w := do(http.MethodPost, uri, "List-Unsubscribe=One-Click"); w.Code != http.StatusOK {
		t.Fatalf("POST: %d %s", w.Code, w.Body.String())
	}
	if sp := h.spectatorsOf(id); len(sp) != 0 {
		t.Errorf("spectators after the one-click POST: %+v", sp)
	}
	ev := "https://tafl.example.org/unsubscribe?" + url.Values{"a": {viewer}, "stop": {"unwatch cup-27"}}.Encode()
	if w := do(http.MethodPost, ev, "List-Unsubscribe=One-Click"); w.Code != http.StatusOK {
		t.Fatalf("POST for the tournament: %d %s", w.Code, w.Body.String())
	}
	if sp, _ := h.store.TournamentSpectators(h.ctx(), "cup-27"); len(sp) != 0 {
		t.Errorf("tournament spectators after the one-click POST: %+v", sp)
	}

	h.deliver(bob, "x", "notify digest 07:30", nil)
	dg := "https://tafl.example.org/unsubscribe?" + url.Values{"a": {"Bob@Player.test"}, "stop": {"notify each"}}.Encode()
	if w := do(http.MethodPost, dg, ""); w.Code != http.StatusOK || h.player(bob).Digest {
		t.Errorf("POST notify each: %d, digest %v", w.Code, h.player(bob).Digest)
	}
	for _, q := range []url.Values{
		{"a": {"nobody"}, "stop": {"unwatch " + id}},
		{"a": {watcher}, "stop": {"watch " + id}},
		{"a": {watcher}, "stop": {"notify digest 07:30"}},
		{"a": {watcher}, "stop": {"unwatch"}},
		{"a": {watcher}},
	} {
		if w := do(http.MethodPost, "https://tafl.example.org/unsubscribe?"+q.Encode(), ""); w.Code != http.StatusBadRequest {
			t.Errorf("POST %v: %d, want 400", q, w.Code)
		}
	}
	if w := do(http.MethodPut, uri, ""); w.Code != http.StatusMethodNotAllowed {
		t.Errorf("PUT: %d, want 405", w.Code)
	}
}

// TestUnsubscribeURLChecked: New refuses an UnsubscribeURL that is not
// https, has no path or has a query.
func TestUnsubscribeURLChecked(t *testing.T) {
	h := newHarness(t)
	for _, bad := range []string{"http://tafl.example.org/u", "https://tafl.example.org/u?x=1", "tafl.example.org/u", "https:///u", "https://tafl.example.org/"} {
		o := h.srv.Opts
		o.UnsubscribeURL = bad
		if _, err := referee.New(o); err == nil {
			t.Errorf("New with UnsubscribeURL %q: no error", bad)
		}
	}
}
