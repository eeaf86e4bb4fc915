package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/web"
)

// siteOptions are the flags of `taflmail site`.
type siteOptions struct {
	out, lang, title, namesKey string
	withdrawn                  []string
}

// defaultNamesKey is where `site` keeps the pseudonym key of record
// files when --names-key is not given.
const defaultNamesKey = "taflmail-site.key"

// newSiteCommand returns `taflmail site`.
func newSiteCommand() *cobra.Command {
	var (
		o    siteOptions
		file string
	)
	cmd := &cobra.Command{
		Use:   "site --out DIR [--lang en|de] [RECORDS...]",
		Short: "Write the club's web pages as a static site",
		Long: `site writes the club's public web pages into DIR as files any web server
(or a browser, from the disk) can show: index.html with the events,
recent results and rating lists; events/ID.html with the crosstables (the
numbers of 'taflmail standings') and the games by round, and
events/ID/feed.xml, an Atom feed of the results; games/ID.html with the
board at every ply and the record as .tafl, .otg and .csv; players/ and
ratings.html. docs/web.md shows them.

Without RECORDS the pages come from the archive (archive.path, as
'taflmail games' reads it; the running 'taflmail serve' may hold it);
'join' lines name server.address. With RECORDS they come from record
files, read as 'taflmail standings' reads them: records with the same
Event tag form an event, --withdrawn names who withdrew (Decision T3).

No page shows a mail address or a key, nor a private game: players
appear under their public names, the name they chose by mail ('name Ada
Lovelace') or a pseudonym derived with a secret key from their address.
For record files that key is kept in --names-key (made on first use,
mode 0600; never inside DIR, since whoever has it can test addresses
against the pseudonyms); keep it to keep the same pseudonyms.

Running site again rewrites only the files whose content changed and
removes the files of pages the club no longer has (from its own list,
DIR/.taflmail-site); other files in DIR are left alone.

Exit status: 0 when the site was written from every record; 1 when a
record could not be used (reported on stderr; the site has the rest) or
writing failed; 2 on usage errors.`,
		Example: `  taflmail site --out /var/www/club --config /etc/taflmail.yaml
  taflmail site --out winter-cup --lang de --withdrawn dave@example.org winter-cup.tafl`,
		Args:         cobra.ArbitraryArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSite(cmd, o, file, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.out, "out", "", "directory to write the site into (required)")
	f.StringVar(&o.lang, "lang", "en", "language of the pages: en or de")
	f.StringVar(&o.title, "title", "", "the club's name on the pages (default http.title)")
	f.StringVar(&o.namesKey, "names-key", defaultNamesKey, "file holding the pseudonym key for record files (made if missing)")
	f.StringArrayVar(&o.withdrawn, "withdrawn", nil, "with RECORDS: a player who withdrew or was removed (repeatable; Decision T3)")
	f.String("now", "", "act as if it were this instant (RFC 3339; for tests)")
	_ = f.MarkHidden("now")
	addConfigFlags(cmd, &file)
	return cmd
}

func runSite(cmd *cobra.Command, o siteOptions, file string, args []string) error {
	if o.out == "" {
		return usageErrorf(cmd, "--out DIR is required: the directory to write the site into")
	}
	if !slices.Contains(web.Languages, o.lang) {
		return usageErrorf(cmd, "--lang %q: want en or de", o.lang)
	}
	if len(args) == 0 && len(o.withdrawn) > 0 {
		return usageErrorf(cmd, "--withdrawn is for RECORDS: the archive knows who withdrew")
	}
	now, err := commandNow(cmd)
	if err != nil {
		return err
	}
	cfg, err := loadConfigLoose(cmd, file)
	if err != nil {
		return err
	}
	title := o.title
	if title == "" {
		title = cfg.HTTP.Title
	}
	ctx := cmd.Context()
	var (
		c   *club.Club
		bad bool
	)
	if len(args) == 0 {
		store, err := openArchive(ctx, cmd, file)
		if err != nil {
			return err
		}
		defer store.Close()
		if c, err = club.Load(ctx, store, club.LoadOptions{Now: now, JoinAddress: cfg.Server.Address}); err != nil {
			return err
		}
	} else {
		games, badFiles, err := readRecordFiles(cmd, args)
		if err != nil {
			return err
		}
		key, err := namesKey(cmd, o.namesKey, o.out)
		if err != nil {
			return err
		}
		var problems []error
		c, problems, err = club.FromRecords(games, key, o.withdrawn, now)
		reportProblems(cmd.ErrOrStderr(), problems)
		var np *club.NotAPlayerError
		if errors.As(err, &np) {
			return usageErrorf(cmd, "--withdrawn %q: not a player of any event in the records", np.Player)
		}
		if err != nil {
			return err
		}
		bad = badFiles || len(problems) > 0
	}
	st, err := web.Build(ctx, web.NewSite(c, web.Options{Title: title, Lang: o.lang}), o.out)
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "site %s: %s, %s, %s; %s written, %d unchanged, %d removed\n",
		o.out, counted(len(c.Events), "event", "events"), counted(len(c.Games), "game", "games"), counted(len(c.Players), "player", "players"),
		counted(st.Written, "file", "files"), st.Unchanged, st.Removed)
	if bad {
		return errUnusableRecords
	}
	return nil
}

// namesKey reads the pseudonym key of record files from name, making a
// new random one (32 bytes, written in hex, mode 0600) when the file
// does not exist. A key file inside the site's directory out is refused:
// it would be published with the pages.
func namesKey(cmd *cobra.Command, name, out string) ([]byte, error) {
	absKey, err1 := filepath.Abs(name)
	absOut, err2 := filepath.Abs(out)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(absOut, absKey); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, usageErrorf(cmd, "--names-key %s is inside --out %s: it would be published with the pages; keep it elsewhere", name, out)
		}
	}
	data, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) {
		key := make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return nil, err
		}
		if err := os.WriteFile(name, []byte(hex.EncodeToString(key)+"\n"), 0o600); err != nil {
			return nil, fmt.Errorf("cannot keep the pseudonym key: %w", err)
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "made a new pseudonym key in %s: keep it (and keep it private) to keep the same pseudonyms\n", name)
		return key, nil
	}
	if err != nil {
		return nil, readError(cmd, err)
	}
	key, err := hex.DecodeString(strings.TrimSpace(string(data)))
	if err != nil || len(key) < 16 {
		return nil, usageErrorf(cmd, "--names-key %s does not hold a key (at least 32 hex digits); remove it to make a new one", name)
	}
	return key, nil
}
