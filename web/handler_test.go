package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/web"
)

// TestHandler: the live pages answer GET and HEAD with validators and
// 304 for a request that has them, in the browser's language, 404 for
// no page and 405 for anything that would write; a changed stamp loads
// a new snapshot, an unchanged one does not.
func TestHandler(t *testing.T) {
	f, store, _ := fixture(t)
	var loads, stamp atomic.Int64
	h := web.NewHandler(web.Source{
		Load: func(ctx context.Context) (*club.Club, error) {
			loads.Add(1)
			return club.Load(ctx, store, club.LoadOptions{Now: f.Now, JoinAddress: joinAddress})
		},
		Stamp: func(context.Context) (string, error) { return string(rune('a' + stamp.Load())), nil },
	}, web.HandlerOptions{Site: web.Options{Title: "Tafl Club"}, Check: 1})
	srv := httptest.NewServer(h)
	defer srv.Close()
	get := func(method, path string, hdr ...string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	r := get("GET", "/")
	etag, mod := r.Header.Get("ETag"), r.Header.Get("Last-Modified")
	if r.StatusCode != 200 || etag == "" || mod == "" || r.Header.Get("Content-Language") != "en" || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET / = %d, headers %v", r.StatusCode, r.Header)
	}
	if r := get("GET", "/index.html", "If-None-Match", etag); r.StatusCode != http.StatusNotModified {
		t.Errorf("GET with If-None-Match = %d, want 304", r.StatusCode)
	}
	if r := get("GET", "/index.html", "If-Modified-Since", mod); r.StatusCode != http.StatusNotModified {
		t.Errorf("GET with If-Modified-Since = %d, want 304", r.StatusCode)
	}
	de := get("GET", "/", "Accept-Language", "fr;q=1, de-CH;q=0.8, en;q=0.5")
	if de.Header.Get("Content-Language") != "de" || de.Header.Get("ETag") == etag {
		t.Errorf("German page: language %q, ETag %q (English %q)", de.Header.Get("Content-Language"), de.Header.Get("ETag"), etag)
	}
	if r := get("HEAD", "/ratings.html"); r.StatusCode != 200 || r.Header.Get("ETag") == "" {
		t.Errorf("HEAD = %d", r.StatusCode)
	}
	for _, p := range []string{"/games/" + f.Private[0] + ".html", "/games/" + f.Hidden[0] + ".tafl", "/nope", "/../../etc/passwd", "/players/x.html"} {
		if r := get("GET", p); r.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", p, r.StatusCode)
		}
	}
	for _, m := range []string{"POST", "PUT", "DELETE"} {
		if r := get(m, "/"); r.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s / = %d, want 405", m, r.StatusCode)
		}
	}
	if n := loads.Load(); n != 1 {
		t.Errorf("%d loads with an unchanged stamp, want 1", n)
	}
	stamp.Add(1)
	get("GET", "/")
	if n := loads.Load(); n != 2 {
		t.Errorf("%d loads after the stamp changed, want 2", n)
	}
	if r := get("GET", "/games/"+f.Hidden[0]+".html"); r.StatusCode != 404 {
		t.Errorf("hidden game = %d", r.StatusCode)
	}
}

// TestLanguage: Accept-Language picks the supported language of the
// highest weight.
func TestLanguage(t *testing.T) {
	for in, want := range map[string]string{"": "en", "de": "de", "de-AT, en;q=0.9": "de", "en-GB,de;q=0.5": "en", "fr": "en",
		"de;q=0, en;q=0.1": "en", "de;q=0.9, en;q=0.95": "en", "*": "en", "de;q=abc, en;q=0.1": "en"} {
		if got := web.Language(in); got != want {
			t.Errorf("Language(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTexts: both languages have every text, with the same verbs.
func TestTexts(t *testing.T) {
	for _, k := range web.TextKeys("en") {
		if !web.HasText("de", k) || web.Verbs("en", k) != web.Verbs("de", k) {
			t.Errorf("text %q: German missing or verbs differ", k)
		}
	}
	if len(web.TextKeys("de")) != len(web.TextKeys("en")) {
		t.Errorf("%d German texts, %d English", len(web.TextKeys("de")), len(web.TextKeys("en")))
	}
}
