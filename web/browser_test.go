package web_test

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/web"
)

// chromium returns Debian's Chromium (or TAFLMAIL_CHROMIUM). Without one
// the browser test skips, except under CI=true, where .ci/run installs
// it and its absence is a failure.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("TAFLMAIL_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "/usr/bin/chromium"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium: .ci/run installs Debian's chromium package; CI runs the browser test")
	}
	t.Skip("no chromium on this machine (apt-get install chromium, or set TAFLMAIL_CHROMIUM)")
	return ""
}

// shotDir is where the screenshots go: TAFLMAIL_SCREENSHOTS, else the
// test's artifact directory (go test -artifacts -outputdir DIR keeps it).
func shotDir(t *testing.T) string {
	if d := os.Getenv("TAFLMAIL_SCREENSHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.ArtifactDir()
}

// TestBrowser drives a real headless Chromium through the live pages as
// a visitor would: the index, an event, a game stepped through with the
// keyboard and the step links, the same game with JavaScript off, a
// player's page, at a desktop and a phone width, light and dark, English
// and German, saving a screenshot of each for a reviewer.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no browser")
	}
	exe := chromium(t)
	f, store, c := fixture(t)
	h := web.NewHandler(web.Source{Load: func(ctx context.Context) (*club.Club, error) {
		return club.Load(ctx, store, club.LoadOptions{Now: f.Now, JoinAddress: joinAddress})
	}}, web.HandlerOptions{Site: web.Options{Title: "Tafl Club"}})
	srv := httptest.NewServer(h)
	defer srv.Close()
	dir := shotDir(t)
	t.Logf("screenshots in %s", dir)

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.UserDataDir(t.TempDir()),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("hide-scrollbars", true),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	// the first Run starts the browser; a timeout only around each step
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}

	// the game to step through: a finished tournament game with plies
	var game *club.Game
	for _, g := range c.Games {
		if g.Finished() && g.Plies > 20 && (game == nil || g.Event != nil && game.Event == nil) {
			game = g
		}
	}
	if game == nil {
		t.Fatal("no finished game with plies")
	}
	var ada *club.Player
	for _, p := range c.Players {
		if p.Name == "Ada Lovelace" {
			ada = p
		}
	}
	step := func() (context.Context, context.CancelFunc) { return context.WithTimeout(ctx, time.Minute) }
	do := func(what string, as ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		sctx, cancel := step()
		defer cancel()
		if err := chromedp.Do(sctx, as...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	str := func(what string, a chromedp.Action[string]) string {
		t.Helper()
		sctx, cancel := step()
		defer cancel()
		v, err := chromedp.Run(sctx, a)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return v
	}
	attr := func(sel, name string) string {
		t.Helper()
		sctx, cancel := step()
		defer cancel()
		v, err := chromedp.Run(sctx, chromedp.AttributeValue(sel, name))
		if err != nil {
			t.Fatalf("attribute %s of %s: %v", name, sel, err)
		}
		return v.Value
	}
	num := func(expr string) int {
		t.Helper()
		sctx, cancel := step()
		defer cancel()
		v, err := chromedp.Run(sctx, chromedp.Evaluate[int](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	shot := func(name string) {
		t.Helper()
		sctx, cancel := step()
		defer cancel()
		buf, err := chromedp.Run(sctx, chromedp.FullScreenshot(100)) // quality 100: PNG
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name+".png"), buf, 0o644)
		}
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
	}
	size := func(w, h int64, mobile bool) chromedp.Action[chromedp.Void] {
		if mobile {
			return chromedp.EmulateViewport(w, h, chromedp.EmulateMobile, chromedp.EmulatePortrait, chromedp.EmulateScale(2))
		}
		return chromedp.EmulateViewport(w, h)
	}
	scheme := func(s string) {
		t.Helper()
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: s}}}); err != nil {
			t.Fatal(err)
		}
	}
	key := func(k string) chromedp.Action[chromedp.Void] { return chromedp.KeyEvent(k) }

	// the index, desktop, light
	scheme("light")
	do("index", size(1280, 900, false), chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible("#events"))
	text := str("index text", chromedp.Text("main"))
	shot("index-desktop-light")
	for _, want := range []string{"Running events", "Spring Open 2027", "Taking entries", "Summer Brandubh 2027", "join summer-2027", "Recent results", "Ada Lovelace"} {
		if !strings.Contains(text, want) {
			t.Errorf("the index does not show %q", want)
		}
	}
	if lang := attr("html", "lang"); lang != "en" || strings.Contains(text, "@example.org") {
		t.Errorf("index: lang %q, or an address shown", lang)
	}

	// an event, reached by its link: the crosstable, one row per player
	do("event", chromedp.Click(`a[href="events/`+f.Finished[0]+`.html"]`, chromedp.NodeVisible), chromedp.WaitVisible("table.crosstable"))
	if n := num(`document.querySelectorAll("table.crosstable tbody tr").length`); n != 4 {
		t.Errorf("the crosstable shows %d rows, want 4", n)
	}
	shot("event-desktop-light")

	// a game: the board at the last ply, stepped with keys and links
	last := strconv.Itoa(gameLastPly(t, c, game))
	do("game", chromedp.Navigate(srv.URL+"/games/"+game.ID+".html"), chromedp.WaitVisible("#board"), chromedp.WaitVisible("#steps"))
	if ply := attr("#board", "data-ply"); ply != last {
		t.Errorf("the board opens at ply %s, want the last, %s", ply, last)
	}
	shot("game-desktop-light")
	do("Home", key(kb.Home))
	if ply, pieces, caption := attr("#board", "data-ply"), num(`document.querySelectorAll("#pieces use").length`), str("caption", chromedp.Text("#caption")); ply != "0" || pieces != 37 || caption != "Start position" {
		t.Errorf("after Home: ply %s, %d pieces (want Copenhagen's 37), caption %q", ply, pieces, caption)
	}
	do("ArrowRight", key(kb.ArrowRight), key(kb.ArrowRight))
	if ply, caption, cur := attr("#board", "data-ply"), str("caption", chromedp.Text("#caption")), attr("#ply-2", "class"); ply != "2" || !strings.HasPrefix(caption, "After ply 2 (defenders)") || !strings.Contains(cur, "cur") {
		t.Errorf("after two ArrowRight: ply %s, caption %q, row class %q", ply, caption, cur)
	}
	if n := num(`document.getElementById("last-to").getAttribute("visibility") === "hidden" ? 0 : 1`); n != 1 {
		t.Error("the last ply's square is not marked")
	}
	shot("game-ply2-desktop-light")
	do("ArrowLeft", key(kb.ArrowLeft))
	if ply := attr("#board", "data-ply"); ply != "1" {
		t.Errorf("after ArrowLeft: ply %s, want 1", ply)
	}
	do("End link", chromedp.Click("#go-last", chromedp.NodeVisible))
	if ply := attr("#board", "data-ply"); ply != last {
		t.Errorf("after the End link: ply %s, want %s", ply, last)
	}
	do("move link", chromedp.Click("#ply-5 a", chromedp.NodeVisible))
	if ply := attr("#board", "data-ply"); ply != "5" {
		t.Errorf("after the link of ply 5: ply %s", ply)
	}

	// a player's page with the rating plot; the rating list
	do("player", chromedp.Navigate(srv.URL+"/players/"+ada.ID+".html"), chromedp.WaitVisible("svg.plot"))
	if h1, dots := str("h1", chromedp.Text("h1")), num(`document.querySelectorAll("svg.plot circle.dot").length`); h1 != "Ada Lovelace" || dots != len(ada.Ratings[0].History) {
		t.Errorf("player page: %q with %d dots, want %d", h1, dots, len(ada.Ratings[0].History))
	}
	shot("player-desktop-light")
	do("ratings", chromedp.Navigate(srv.URL+"/ratings.html"), chromedp.WaitVisible("table.ratings"))
	shot("ratings-desktop-light")

	// a phone, light and dark
	for _, s := range []string{"light", "dark"} {
		scheme(s)
		do("phone "+s, size(390, 844, true), chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible("#events"))
		shot("index-phone-" + s)
		if bg := str("background", chromedp.Evaluate[string](`getComputedStyle(document.body).backgroundColor`)); (bg == "rgb(23, 20, 15)") != (s == "dark") {
			t.Errorf("%s scheme: background %s", s, bg)
		}
		do("phone game "+s, chromedp.Navigate(srv.URL+"/games/"+game.ID+".html"), chromedp.WaitVisible("#board"))
		if w := num(`Math.round(document.getElementById("board").getBoundingClientRect().width)`); w > 390 || w < 300 {
			t.Errorf("on a phone the board is %d px wide", w)
		}
		shot("game-phone-" + s)
		do("phone event "+s, chromedp.Navigate(srv.URL+"/events/"+f.Running+".html"), chromedp.WaitVisible("#games"))
		shot("event-phone-" + s)
	}
	do("desktop dark", size(1280, 900, false), chromedp.Navigate(srv.URL+"/games/"+game.ID+".html"), chromedp.WaitVisible("#board"))
	shot("game-desktop-dark")
	scheme("light")

	// German, by Accept-Language
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": "de-DE,de;q=0.9"}}); err != nil {
		t.Fatal(err)
	}
	do("german", chromedp.Navigate(srv.URL+"/events/"+f.Finished[0]+".html"), chromedp.WaitVisible("table.crosstable"))
	if lang, main := attr("html", "lang"), str("German text", chromedp.Text("main")); lang != "de" || !strings.Contains(main, "Tabelle") || !strings.Contains(main, "Partien") {
		t.Errorf("German event page: lang %q", lang)
	}
	shot("event-desktop-de")
	if _, err := chromedp.Call(ctx, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{}}); err != nil {
		t.Fatal(err)
	}

	// JavaScript off: the final position and the move list, no step links
	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	// (the DOM domain only: chromedp's visibility checks run scripts)
	do("no script", chromedp.Navigate(srv.URL+"/games/"+game.ID+".html"), chromedp.WaitReady("#board"), chromedp.WaitReady("table.plies"))
	sctx, cancel := step()
	defer cancel()
	hidden, err := chromedp.Run(sctx, chromedp.AttributeValue("#steps", "hidden"))
	if err != nil || !hidden.Exists {
		t.Errorf("with JavaScript off the step links show (hidden %+v, %v)", hidden, err)
	}
	if ply := attr("#board", "data-ply"); ply != "" {
		t.Errorf("with JavaScript off the board was stepped to %q", ply)
	}
	shot("game-desktop-noscript")
}

// gameLastPly is the ply the game page opens at: its plies that the
// replay could play, resignations and time-outs counted.
func gameLastPly(t *testing.T, c *club.Club, g *club.Game) int {
	r, err := c.Record(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	return len(r.Game.Plies)
}
