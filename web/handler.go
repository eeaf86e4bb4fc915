package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/taflmail/taflmail/club"
)

// Source gives the live pages their snapshot: Load reads a new one,
// Stamp a short text that changes whenever what Load reads changes (the
// archive's change stamp). Both only read.
type Source struct {
	Load  func(ctx context.Context) (*club.Club, error)
	Stamp func(ctx context.Context) (string, error)
}

// HandlerOptions are the settings of a Handler; the zero value works.
type HandlerOptions struct {
	// Site are the pages' options (Lang is ignored: the browser's
	// Accept-Language chooses).
	Site Options
	// Check is how often at most the archive's stamp is read (1s when
	// 0); MaxAge how old a snapshot may grow before it is read again
	// even when the stamp did not change (a minute when 0), so that the
	// clocks and ratings' RD move on.
	Check, MaxAge time.Duration
	// Logger gets a line for every snapshot that cannot be read; nil
	// for none.
	Logger *slog.Logger
}

// Handler serves the site live: every page of Site.Paths at its path
// ("/" the index), GET and HEAD only, in the language of the request's
// Accept-Language (English or German), with an ETag (a hash of the
// content) and Last-Modified (the snapshot's Modified) and the answers
// 304 to a request that has them. The snapshot is loaded on the first
// request and again when the source's stamp changes; rendered pages are
// kept until then. It never writes: it reads the archive through
// Source. Mount it on a ServeMux beside other handlers (/healthz,
// /metrics).
type Handler struct {
	src Source
	o   HandlerOptions

	mu      sync.Mutex
	cur     *snapshot
	checked time.Time
	now     func() time.Time
}

// snapshot is one loaded club and its rendered pages.
type snapshot struct {
	site   *Site
	stamp  string
	loaded time.Time
	mu     sync.Mutex
	pages  map[[2]string]*rendered
}

// rendered is one page's bytes and validators.
type rendered struct {
	body []byte
	etag string
}

// NewHandler returns the live pages of src.
func NewHandler(src Source, o HandlerOptions) *Handler {
	if o.Check <= 0 {
		o.Check = time.Second
	}
	if o.MaxAge <= 0 {
		o.MaxAge = time.Minute
	}
	return &Handler{src: src, o: o, now: time.Now}
}

// current returns the snapshot to serve, loading a new one when the
// stamp changed or the old one is too old.
func (h *Handler) current(ctx context.Context) (*snapshot, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.now()
	if h.cur != nil && now.Sub(h.checked) < h.o.Check && now.Sub(h.cur.loaded) < h.o.MaxAge {
		return h.cur, nil
	}
	stamp := ""
	if h.src.Stamp != nil {
		s, err := h.src.Stamp(ctx)
		if err != nil {
			if h.cur != nil {
				h.log("archive stamp unreadable; serving the last snapshot", err)
				return h.cur, nil
			}
			return nil, err
		}
		stamp = s
	}
	h.checked = now
	if h.cur != nil && stamp == h.cur.stamp && now.Sub(h.cur.loaded) < h.o.MaxAge {
		return h.cur, nil
	}
	c, err := h.src.Load(ctx)
	if err != nil {
		if h.cur != nil {
			h.log("archive unreadable; serving the last snapshot", err)
			return h.cur, nil
		}
		return nil, err
	}
	h.cur = &snapshot{site: NewSite(c, h.o.Site), stamp: stamp, loaded: now, pages: map[[2]string]*rendered{}}
	return h.cur, nil
}

func (h *Handler) log(msg string, err error) {
	if h.o.Logger != nil {
		h.o.Logger.Warn(msg, "err", err)
	}
}

// page returns the rendered page of path in lang, rendering it once per
// snapshot.
func (s *snapshot) page(ctx context.Context, path, lang string) (*rendered, error) {
	k := [2]string{path, lang}
	s.mu.Lock()
	r := s.pages[k]
	s.mu.Unlock()
	if r != nil {
		return r, nil
	}
	body, err := s.site.Render(ctx, path, lang)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(body)
	r = &rendered{body: body, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
	s.mu.Lock()
	s.pages[k] = r
	s.mu.Unlock()
	return r, nil
}

// ServeHTTP serves one page.
func (h *Handler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	hd := w.Header()
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		http.Error(w, "read-only: GET and HEAD only", http.StatusMethodNotAllowed)
		return
	}
	snap, err := h.current(req.Context())
	if err != nil {
		h.log("archive unreadable", err)
		http.Error(w, "the archive cannot be read just now", http.StatusServiceUnavailable)
		return
	}
	path := strings.TrimPrefix(req.URL.Path, "/")
	if path == "" {
		path = "index.html"
	}
	lang := Language(req.Header.Get("Accept-Language"))
	hd.Set("Vary", "Accept-Language")
	hd.Set("Content-Language", lang)
	r, err := snap.page(req.Context(), path, lang)
	if err == ErrNotFound {
		hd.Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		if req.Method == http.MethodGet {
			w.Write(snap.site.NotFound(lang))
		}
		return
	}
	if err != nil {
		h.log("page unreadable", err)
		http.Error(w, "the page cannot be read just now", http.StatusServiceUnavailable)
		return
	}
	hd.Set("Content-Type", ContentType(path))
	hd.Set("Cache-Control", "public, max-age=30")
	hd.Set("ETag", r.etag)
	mod := snap.site.Club().Modified
	if mod.IsZero() {
		mod = snap.loaded
	}
	// http.ServeContent answers If-None-Match, If-Modified-Since and
	// ranges; the content is served from memory.
	http.ServeContent(w, req, "", mod, bytes.NewReader(r.body))
}

// Language picks the page language of an Accept-Language header
// (RFC 9110 §12.5.4): the supported language with the highest weight,
// English when none is.
func Language(header string) string {
	best, bestQ := Languages[0], -1.0
	for _, part := range strings.Split(header, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				continue
			}
			q = f
		}
		base, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
		for _, l := range Languages {
			if base == l && q > bestQ && q > 0 {
				best, bestQ = l, q
			}
		}
	}
	return best
}
