package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// manifestName is the file in a built site's directory that lists the
// files Build wrote, one path a line, so that a later Build removes
// those the site no longer has (a game that became private, say) and
// never touches anything else.
const manifestName = ".taflmail-site"

// BuildStats says what Build did: how many files it wrote (new or
// changed), left as they were, and removed.
type BuildStats struct {
	Written, Unchanged, Removed int
}

// Build writes every page of the site into dir (made if missing) as
// static files: index.html, events/…, games/…, players/…, 404.html. A
// file whose content is what the page renders is left alone, so
// re-running Build on an unchanged club writes nothing and a server's
// caches stay warm; each changed file is replaced whole (written beside
// and renamed). Files of an earlier Build that the site no longer has
// are removed (the manifest .taflmail-site lists what Build wrote);
// other files in dir are never touched. Pages are rendered by one
// goroutine per core (GOMAXPROCS). It stops at the first error.
func Build(ctx context.Context, s *Site, dir string) (BuildStats, error) {
	var st BuildStats
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return st, err
	}
	old := readManifest(dir)
	paths := append(s.Paths(), "404.html")
	if err := writePages(ctx, s, dir, paths, &st); err != nil {
		return st, err
	}
	if err := removeStale(dir, old, paths, &st); err != nil {
		return st, err
	}
	slices.Sort(paths)
	if _, err := writeIfChanged(filepath.Join(dir, manifestName), []byte(strings.Join(paths, "\n")+"\n")); err != nil {
		return st, err
	}
	return st, nil
}

// pageWriter renders pages of a site and writes them into a directory,
// for the workers of writePages: it counts the files in st and keeps the
// first error, both under mu.
type pageWriter struct {
	site     *Site
	dir      string
	mu       sync.Mutex
	st       *BuildStats
	firstErr error
}

// fail keeps err unless an earlier error is kept.
func (w *pageWriter) fail(err error) {
	w.mu.Lock()
	if w.firstErr == nil {
		w.firstErr = err
	}
	w.mu.Unlock()
}

// failed tells whether an error is kept.
func (w *pageWriter) failed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.firstErr != nil
}

// page renders, under ctx, the page at path p ("404.html": the not-found page) and
// writes it unless the file holds it already, counting it as written or
// unchanged; an error of the rendering (naming p) or of the file is kept
// with fail.
func (w *pageWriter) page(ctx context.Context, p string) {
	var data []byte
	var err error
	if p == "404.html" {
		data = w.site.NotFound("")
	} else if data, err = w.site.Render(ctx, p, ""); err != nil {
		w.fail(fmt.Errorf("web: %s: %w", p, err))
		return
	}
	changed, err := writeIfChanged(filepath.Join(w.dir, filepath.FromSlash(p)), data)
	if err != nil {
		w.fail(err)
		return
	}
	w.mu.Lock()
	if changed {
		w.st.Written++
	} else {
		w.st.Unchanged++
	}
	w.mu.Unlock()
}

// writePages renders and writes the pages paths of s into dir, by one
// worker per core (GOMAXPROCS), counting the files in st. It hands out
// no more pages after the first error or the end of ctx, and returns
// that error (ctx's when there is none).
func writePages(ctx context.Context, s *Site, dir string, paths []string, st *BuildStats) error {
	w := &pageWriter{site: s, dir: dir, st: st}
	next := make(chan string)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				w.page(ctx, p)
			}
		}()
	}
	for _, p := range paths {
		if w.failed() || ctx.Err() != nil {
			break
		}
		next <- p
	}
	close(next)
	wg.Wait()
	if w.firstErr == nil {
		w.firstErr = ctx.Err()
	}
	return w.firstErr
}

// removeStale removes from dir the files of an earlier Build, old (as
// its manifest lists them), that are not among paths, counting them in
// st; a manifest path that could leave dir (safePath) and a file already
// gone are passed over. It fails at the first file it cannot remove.
func removeStale(dir string, old, paths []string, st *BuildStats) error {
	keep := map[string]bool{}
	for _, p := range paths {
		keep[p] = true
	}
	for _, p := range old {
		if keep[p] || !safePath(p) {
			continue
		}
		err := os.Remove(filepath.Join(dir, filepath.FromSlash(p)))
		if err == nil {
			st.Removed++
		} else if !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// readManifest returns the paths an earlier Build wrote into dir.
func readManifest(dir string) []string {
	b, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return nil
	}
	return strings.Fields(string(b))
}

// safePath reports whether a manifest's path stays inside the site's
// directory.
func safePath(p string) bool {
	return p != "" && !strings.HasPrefix(p, "/") && !slices.Contains(strings.Split(p, "/"), "..") && !strings.Contains(p, `\`)
}

// writeIfChanged writes data to name unless the file holds it already,
// and reports whether it wrote. A file that exists is replaced whole:
// written beside and renamed, so a web server never serves half of it.
func writeIfChanged(name string, data []byte) (bool, error) {
	old, err := os.ReadFile(name)
	if err == nil && bytes.Equal(old, data) {
		return false, nil
	}
	if errors.Is(err, os.ErrNotExist) {
		// a new file: written in place (a half-written one differs from
		// the page, so the next Build writes it again)
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return false, err
		}
		return true, os.WriteFile(name, data, 0o644)
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), ".tmp-*")
	if err != nil {
		return false, err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return false, err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return false, err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return false, err
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		os.Remove(tmp.Name())
		return false, err
	}
	return true, nil
}
