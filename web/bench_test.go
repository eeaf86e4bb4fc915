package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/club/clubtest"
	"github.com/taflmail/taflmail/web"
)

// The benchmarks' club: 10 finished round robins of 10 players (90
// games each, matches of two) and 100 casual games, about 1,000
// finished games with up to 60 plies, plus the running and the upcoming
// event of every fixture. Built once per run (docs/performance.md).
var (
	bigOnce sync.Once
	big     *clubtest.Fixture
	bigErr  error
)

func bigClub(b *testing.B) (*clubtest.Fixture, *archive.Store) {
	b.Helper()
	bigOnce.Do(func() {
		dir, err := mkdirTemp()
		if err != nil {
			bigErr = err
			return
		}
		big, bigErr = clubtest.Build(context.Background(), filepath.Join(dir, "big.db"),
			clubtest.Options{Events: 10, EventPlayers: 10, Casual: 100, Seed: 9})
	})
	if bigErr != nil {
		b.Fatal(bigErr)
	}
	s, err := archive.Open(context.Background(), big.Path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return big, s
}

// BenchmarkSite is `taflmail site` on the large club: the snapshot read
// from the archive (load: what the live pages do after a change), and
// with it every page written into an empty directory (build), or into
// the directory of an earlier build (rebuild: every page rendered and
// compared, nothing written).
func BenchmarkSite(b *testing.B) {
	ctx := context.Background()
	f, store := bigClub(b)
	b.Run("load", func(b *testing.B) {
		defer cpuPerOp(b)()
		for b.Loop() {
			if _, err := club.Load(ctx, store, club.LoadOptions{Now: f.Now}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("build", func(b *testing.B) {
		var files int
		defer cpuPerOp(b)()
		for b.Loop() {
			c, err := club.Load(ctx, store, club.LoadOptions{Now: f.Now})
			if err != nil {
				b.Fatal(err)
			}
			st, err := web.Build(ctx, web.NewSite(c, web.Options{}), b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			files = st.Written
		}
		b.ReportMetric(float64(files), "files")
		b.ReportMetric(float64(f.Games), "games")
	})
	b.Run("rebuild", func(b *testing.B) {
		dir := b.TempDir()
		c, err := club.Load(ctx, store, club.LoadOptions{Now: f.Now})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := web.Build(ctx, web.NewSite(c, web.Options{}), dir); err != nil {
			b.Fatal(err)
		}
		defer cpuPerOp(b)()
		for b.Loop() {
			c, err := club.Load(ctx, store, club.LoadOptions{Now: f.Now})
			if err != nil {
				b.Fatal(err)
			}
			st, err := web.Build(ctx, web.NewSite(c, web.Options{}), dir)
			if err != nil || st.Written != 0 {
				b.Fatalf("rebuild wrote %d files, %v", st.Written, err)
			}
		}
	})
}

// BenchmarkLivePage is one request to `serve --http` on the large club:
// a game page, an event page and the index, rendered once per snapshot
// (the first request after a change pays for it: "first"), then served
// from memory ("cached"); "304" is a revalidation with the ETag.
func BenchmarkLivePage(b *testing.B) {
	ctx := context.Background()
	f, store := bigClub(b)
	c, err := club.Load(ctx, store, club.LoadOptions{Now: f.Now})
	if err != nil {
		b.Fatal(err)
	}
	src := web.Source{Load: func(context.Context) (*club.Club, error) { return c, nil }}
	game := c.Events[len(c.Events)-1].Games[0]
	for _, page := range []struct{ name, path string }{
		{"game", "/games/" + game.ID + ".html"}, {"event", "/events/" + f.Finished[0] + ".html"}, {"index", "/"},
	} {
		b.Run(page.name+"/first", func(b *testing.B) {
			for b.Loop() {
				h := web.NewHandler(src, web.HandlerOptions{})
				serve(b, h, page.path, "", http.StatusOK)
			}
		})
		h := web.NewHandler(src, web.HandlerOptions{})
		etag := serve(b, h, page.path, "", http.StatusOK)
		b.Run(page.name+"/cached", func(b *testing.B) {
			for b.Loop() {
				serve(b, h, page.path, "", http.StatusOK)
			}
		})
		b.Run(page.name+"/304", func(b *testing.B) {
			for b.Loop() {
				serve(b, h, page.path, etag, http.StatusNotModified)
			}
		})
	}
}

// cpuPerOp reports the process's CPU time per op (both cores, the
// garbage collector's included) when the returned func runs: on a
// loaded machine the wall time says little.
func cpuPerOp(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64((cpuTime()-start).Milliseconds())/float64(b.N), "cpu-ms/op")
		}
	}
}

// serve makes one request of h and returns the ETag.
func serve(b *testing.B, h http.Handler, path, etag string, want int) string {
	req := httptest.NewRequest("GET", path, nil)
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != want {
		b.Fatalf("GET %s = %d, want %d", path, w.Code, want)
	}
	return w.Header().Get("ETag")
}
