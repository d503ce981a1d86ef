package admin_test

import (
	"context"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/heraldbot/herald/bot"
	"github.com/heraldbot/herald/bot/admin"
	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/discourse/discoursetest"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

var screenshots = flag.String("screenshots", "", "save the browser test's screenshots in this folder (e.g. ../../docs/screenshots)")

func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("skipping the browser test: no chromium on PATH (CI installs Debian's chromium; apt-get install -y chromium)")
	return ""
}

// TestBrowserReviewFlow drives headless Chromium: a moderator logs in
// through the fake forum's DiscourseConnect, edits and approves a draft,
// and the bot's next cycle posts it; a regular user is refused.
func TestBrowserReviewFlow(t *testing.T) {
	t.Parallel()
	exe := chromium(t)
	ctx := context.Background()

	forum := discoursetest.New(discoursetest.WithSSOSecret(ssoSecret), discoursetest.WithRateLimit(0))
	t.Cleanup(forum.Close)
	demo := forum.Seed("herald")
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	p, _ := knowledge.BuiltinPack("vllm")
	if err := db.SaveSchema(ctx, p.Name, p.Schema()); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpsertEntries(ctx, p.Entries, nil); err != nil {
		t.Fatal(err)
	}
	ans, err := bot.NewAnswerer(ctx, db, "herald")
	if err != nil {
		t.Fatal(err)
	}
	client, _ := discourse.NewClient(forum.URL, discourse.WithAPIKey(discoursetest.BotAPIKey, "herald"), discourse.WithRequestBudget(0, 0))
	b, err := bot.New(client, db, ans, bot.Options{Username: "herald", Mode: bot.ModeQueue, Backfill: 24 * time.Hour}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Cycle(ctx); err != nil { // drafts wait for staff
		t.Fatal(err)
	}

	mux := http.NewServeMux()
	pageSrv := httptest.NewServer(mux)
	t.Cleanup(pageSrv.Close)
	page, err := admin.New(admin.Config{DB: db, ForumURL: forum.URL, BaseURL: pageSrv.URL, Categories: map[int]string{1: "Support", 2: "Staff"},
		Connect: &discourse.Connect{ForumURL: forum.URL, Secret: ssoSecret, Nonces: db}})
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/admin/", page.Handler())

	newBrowser := func() (context.Context, context.CancelFunc) {
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.UserDataDir(t.TempDir()),
			chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true), chromedp.Flag("disable-quic", true), chromedp.WindowSize(1280, 900))
		actx, cancelA := chromedp.NewExecAllocator(ctx, opts...)
		bctx, cancelB := chromedp.NewContext(actx)
		tctx, cancelT := context.WithTimeout(bctx, 60*time.Second)
		return tctx, func() { cancelT(); cancelB(); cancelA() }
	}
	shot := func(name string, buf []byte) {
		dir := *screenshots
		if dir == "" {
			dir = t.TempDir()
		}
		if err := os.WriteFile(filepath.Join(dir, name), buf, 0o644); err != nil {
			t.Error(err)
		}
	}

	// A moderator reviews, edits and approves.
	bctx, cancel := newBrowser()
	defer cancel()
	edited := "**Checked by staff:** your `--cpu-offload-gb` is ignored on 0.24 (#51396); upgrade to 0.29.0 or newer."
	step := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("browser, %s: %v", what, err)
		}
	}
	// Every page records the Content-Security-Policy violations it causes
	// (inline styles its own CSP blocks among them); the test reads them.
	_, err = chromedp.Call(bctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{
		Source: `window.__csp = []; document.addEventListener("securitypolicyviolation", e => window.__csp.push(e.violatedDirective + " " + (e.blockedURI || e.sample || "")));`})
	step("watch for CSP violations", err)
	cspViolations := func(where string) {
		t.Helper()
		got, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`window.__csp || []`))
		step("read CSP violations", err)
		if len(got) > 0 {
			t.Errorf("%s: the page violates its own CSP: %q", where, got)
		}
	}
	step("log in", chromedp.Do(bctx,
		chromedp.Navigate(pageSrv.URL+"/admin/"),
		chromedp.WaitVisible(chromedp.ID("username")),
		chromedp.SendKeys(chromedp.ID("username"), "maria"),
		chromedp.Click(chromedp.ID("login")),
		chromedp.WaitVisible(chromedp.CSS("table")),
	))
	cspViolations("queue")
	queuePNG, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
	step("screenshot the queue", err)
	step("open a draft", chromedp.Do(bctx,
		chromedp.Click(chromedp.Search(`//a[contains(., "Running out of memory")]`)),
		chromedp.WaitVisible(chromedp.ID("draft")),
	))
	cspViolations("draft")
	draftPNG, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
	step("screenshot the draft", err)
	step("edit and approve", chromedp.Do(bctx,
		chromedp.SetValue(chromedp.ID("draft"), edited),
		chromedp.Click(chromedp.ID("approve")),
		chromedp.WaitVisible(chromedp.CSS(".notice")),
	))
	state, err := chromedp.Run(bctx, chromedp.Text(chromedp.ID("state")))
	step("read the state", err)
	shot("queue.png", queuePNG)
	shot("draft.png", draftPNG)

	if state != store.StateApproved {
		t.Fatalf("state after approval = %q", state)
	}
	if err := b.Cycle(ctx); err != nil { // the runner posts the approved draft
		t.Fatal(err)
	}
	var posted []discoursetest.Post
	for _, p := range forum.Posts(demo.OOMTopic.ID) {
		if p.UserID == forum.User("herald").ID {
			posted = append(posted, p)
		}
	}
	if len(posted) != 1 || !strings.Contains(posted[0].Raw, "Checked by staff") {
		t.Fatalf("posted = %+v", posted)
	}

	// A regular user is refused.
	actx, cancel2 := newBrowser()
	defer cancel2()
	step("log in as alice", chromedp.Do(actx,
		chromedp.Navigate(pageSrv.URL+"/admin/"),
		chromedp.WaitVisible(chromedp.ID("username")),
		chromedp.SendKeys(chromedp.ID("username"), "alice"),
		chromedp.Click(chromedp.ID("login")),
		chromedp.WaitVisible(chromedp.CSS("main")),
	))
	body, err := chromedp.Run(actx, chromedp.Text(chromedp.CSS("main")))
	step("read the refusal", err)
	if !strings.Contains(body, "only the forum's staff") {
		t.Errorf("alice sees: %q", body)
	}
}
