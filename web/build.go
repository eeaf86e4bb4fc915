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
	// the pages are rendered and written by one worker per core
	var (
		mu       sync.Mutex
		firstErr error
		next     = make(chan string)
		wg       sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
	}
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				var data []byte
				var err error
				if p == "404.html" {
					data = s.NotFound("")
				} else if data, err = s.Render(ctx, p, ""); err != nil {
					fail(fmt.Errorf("web: %s: %w", p, err))
					continue
				}
				changed, err := writeIfChanged(filepath.Join(dir, filepath.FromSlash(p)), data)
				if err != nil {
					fail(err)
					continue
				}
				mu.Lock()
				if changed {
					st.Written++
				} else {
					st.Unchanged++
				}
				mu.Unlock()
			}
		}()
	}
	for _, p := range paths {
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop || ctx.Err() != nil {
			break
		}
		next <- p
	}
	close(next)
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	if firstErr != nil {
		return st, firstErr
	}
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
			return st, err
		}
	}
	slices.Sort(paths)
	if _, err := writeIfChanged(filepath.Join(dir, manifestName), []byte(strings.Join(paths, "\n")+"\n")); err != nil {
		return st, err
	}
	return st, nil
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
