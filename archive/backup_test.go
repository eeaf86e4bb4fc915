package archive_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/taflmail/taflmail/archive"
)

// TestBackup: the copy is a private archive with what was committed,
// Open takes it as it is, an existing file is not overwritten unless
// asked, and a copy taken while commits go on holds a whole number of
// them (issue 21 §5).
func TestBackup(t *testing.T) {
	s, _, _ := openStore(t)
	ctx := context.Background()
	if err := s.Commit(ctx, archive.Change{Mail: mail("m1@x", "G1"), Games: []*archive.Game{newGame("G1")}}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	copyPath := filepath.Join(dir, "nightly.db")
	info, err := s.Backup(ctx, copyPath, false)
	if err != nil {
		t.Fatalf("Backup = %v", err)
	}
	fi, err := os.Stat(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	if mode := fi.Mode().Perm(); mode != 0o600 {
		t.Errorf("backup mode %v, want 0600", mode)
	}
	if info.Path != copyPath || info.Bytes != fi.Size() || info.Games != 1 || info.Schema < 9 {
		t.Errorf("Backup = %+v (size %d)", info, fi.Size())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("backup directory holds %v, want only the copy", entries)
	}
	if _, err := s.Backup(ctx, copyPath, false); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Backup onto an existing file = %v, want fs.ErrExist", err)
	}
	if err := s.Commit(ctx, archive.Change{Mail: mail("m2@x", "G2"), Games: []*archive.Game{newGame("G2")}}); err != nil {
		t.Fatal(err)
	}
	if info, err := s.Backup(ctx, copyPath, true); err != nil || info.Games != 2 {
		t.Errorf("Backup(replace) = %+v, %v; want 2 games", info, err)
	}

	// the copy opens as an archive of its own, games and all
	restored, err := archive.OpenWith(ctx, copyPath, archive.Options{Existing: true})
	if err != nil {
		t.Fatalf("opening the copy: %v", err)
	}
	g, err := restored.Game(ctx, "G2")
	if err != nil || g.AttackerToken != "at-G2" {
		t.Errorf("game G2 in the copy = %+v, %v", g, err)
	}
	if done, err := restored.Processed(ctx, "m1@x", ""); err != nil || !done {
		t.Errorf("the copy does not know mail m1@x: %v", err)
	}
	restored.Close()

	// while commits go on, each copy holds the games of a prefix of them
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 3; i < 60; i++ {
			id := fmt.Sprintf("G%d", i)
			if err := s.Commit(ctx, archive.Change{Mail: mail("m"+id+"@x", id), Games: []*archive.Game{newGame(id)}}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for i := range 5 {
		p := filepath.Join(dir, fmt.Sprintf("during-%d.db", i))
		info, err := s.Backup(ctx, p, false)
		if err != nil {
			t.Fatalf("Backup during commits = %v", err)
		}
		c, err := archive.OpenWith(ctx, p, archive.Options{Existing: true})
		if err != nil {
			t.Fatal(err)
		}
		for n := 1; n <= info.Games; n++ {
			if _, err := c.Game(ctx, fmt.Sprintf("G%d", n)); err != nil {
				t.Errorf("copy %d of %d games lacks G%d: %v", i, info.Games, n, err)
			}
		}
		c.Close()
	}
	wg.Wait()
}
