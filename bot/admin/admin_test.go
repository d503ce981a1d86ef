package admin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/heraldbot/herald/bot/admin"
	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/discourse/discoursetest"
	"github.com/heraldbot/herald/store"
)

const ssoSecret = "admin-test-connect-secret"

type env struct {
	t     *testing.T
	forum *discoursetest.Server
	db    *store.DB
	page  *httptest.Server
	clock time.Time
	id    int64       // a pending draft
	log   *syncWriter // what the admin server logs
}

// syncWriter is a log sink the server's handlers write to while a test
// reads it.
type syncWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, clock: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), log: &syncWriter{}}
	e.forum = discoursetest.New(discoursetest.WithSSOSecret(ssoSecret), discoursetest.WithRateLimit(0))
	t.Cleanup(e.forum.Close)
	demo := e.forum.Seed("herald")
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.Now = func() time.Time { return e.clock }
	e.db = db
	mux := http.NewServeMux()
	e.page = httptest.NewServer(mux)
	t.Cleanup(e.page.Close)
	srv, err := admin.New(admin.Config{DB: db, ForumURL: e.forum.URL, BaseURL: e.page.URL, Groups: []string{"support-team"},
		Connect: &discourse.Connect{ForumURL: e.forum.URL, Secret: ssoSecret, Nonces: db, Now: func() time.Time { return e.clock }},
		Now:     func() time.Time { return e.clock }, Log: slog.New(slog.NewTextHandler(e.log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/admin/", srv.Handler())
	payload, _ := json.Marshal(map[string]any{"trigger": "new_topic", "topic_id": demo.OOMTopic.ID, "topic_title": demo.OOMTopic.Title,
		"category_id": demo.Support.ID, "post_number": 1, "asker": "alice", "draft": "**What I see:** an OOM.\n\nSources: …",
		"question": "vllm serve … <script>alert(1)</script> ![x](https://evil.example/x.png)", "confidence": 0.55,
		"matches": []map[string]any{{"id": "vllm-project/vllm#51396", "url": "https://github.com/vllm-project/vllm/issues/51396", "title": "offload", "score": 3.2, "reasons": []string{"the command sets --cpu-offload-gb 100"}}},
		"facts":   map[string]any{"platform": "rocm"}, "some_future_field": 7})
	if _, err := db.Record(context.Background(), []store.Action{{Kind: "reply", Key: "reply:1:1", TopicID: demo.OOMTopic.ID, PostID: 1,
		Payload: payload, Confidence: 0.55, State: store.StatePending, Mode: "auto", Reason: "confidence 0.55 below auto-post 0.60"}}); err != nil {
		t.Fatal(err)
	}
	list, _ := db.ListActions(context.Background(), store.ActionFilter{})
	e.id = list[0].ID
	return e
}

// browser is an HTTP client with cookies that follows redirects.
// browser is a client with its own cookies and its own connections
// (discoursetest.Client).
func browser(t *testing.T) *http.Client {
	t.Helper()
	c := discoursetest.Client(t.Cleanup)
	c.Jar, _ = cookiejar.New(nil)
	return c
}

func get(t *testing.T, c *http.Client, u string) (int, string) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// login goes through DiscourseConnect on the fake forum as username.
func (e *env) login(c *http.Client, username string) (int, string) {
	e.t.Helper()
	resp, err := c.Get(e.page.URL + "/admin/login") // → forum login form
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	next := strings.TrimPrefix(resp.Request.URL.String(), e.forum.URL)
	resp, err = c.PostForm(e.forum.URL+"/session/login", url.Values{"username": {username}, "next": {next}})
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

func TestLoginQueueAndApprove(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := browser(t)
	status, body := e.login(c, "maria") // a moderator
	if status != 200 || !strings.Contains(body, "Running out of memory") || !strings.Contains(body, "vllm-project/vllm#51396") {
		t.Fatalf("queue after login: %d\n%s", status, body)
	}
	status, body = get(t, c, fmt.Sprintf("%s/admin/actions/%d", e.page.URL, e.id))
	if status != 200 {
		t.Fatalf("draft view: %d", status)
	}
	if strings.Contains(body, "<script>") || strings.Contains(body, "evil.example/x.png\"") && strings.Contains(body, "<img") {
		t.Errorf("the post is not rendered safely:\n%s", body)
	}
	// The decision sits above the post, the facts are a table of words
	// (no JSON escapes), and nothing relies on inline styles the CSP blocks.
	if a, p := strings.Index(body, `id="approve"`), strings.Index(body, "<h3>The post</h3>"); a < 0 || p < 0 || a > p {
		t.Errorf("the Approve button (at %d) is not above the post (at %d)", a, p)
	}
	if !strings.Contains(body, `<table class="facts">`) || strings.Contains(body, `\u003c`) || strings.Contains(body, `style="`) {
		t.Errorf("facts not a readable table, or an inline style:\n%s", body)
	}
	m := csrfRE.FindStringSubmatch(body)
	if m == nil {
		t.Fatal("no CSRF token on the draft page")
	}
	edited := "**What I see:** an OOM; I checked it myself.\n\nSources: …"
	resp, err := c.PostForm(fmt.Sprintf("%s/admin/actions/%d/approve", e.page.URL, e.id), url.Values{"csrf": {m[1]}, "draft": {edited}})
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("approve: %v %v", resp, err)
	}
	resp.Body.Close()
	a, _ := e.db.Action(context.Background(), e.id)
	var p map[string]any
	_ = json.Unmarshal(a.Payload, &p)
	if a.State != store.StateApproved || a.DecidedBy != "maria" || p["draft"] != edited || p["original"] == nil || p["some_future_field"] == nil {
		t.Errorf("after approve: state %s by %s, payload %v", a.State, a.DecidedBy, p)
	}
	audit, _ := e.db.Audit(context.Background(), e.id)
	if len(audit) != 1 || audit[0].Verb != "edit and approve" {
		t.Errorf("audit = %+v", audit)
	}
	// The history shows the change.
	_, body = get(t, c, e.page.URL+"/admin/history")
	if !strings.Contains(body, "maria") || !strings.Contains(body, "yes") {
		t.Errorf("history lacks the decision:\n%s", body)
	}
}

func TestSecurityHeadersAndCookies(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := browser(t)
	e.login(c, "admin")
	resp, err := c.Get(e.page.URL + "/admin/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	h := resp.Header
	if !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") || h.Get("X-Frame-Options") != "DENY" || h.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("headers = %v", h)
	}
	// The session cookie's attributes, from a fresh login link.
	link, _ := admin.NewLoginLink(context.Background(), e.db, e.page.URL+"/admin", "admin", time.Minute)
	nf := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err = nf.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	sc := resp.Header.Get("Set-Cookie")
	for _, want := range []string{"herald_session=", "HttpOnly", "SameSite=Lax", "Path=/admin"} {
		if !strings.Contains(sc, want) {
			t.Errorf("Set-Cookie %q lacks %s", sc, want)
		}
	}
}

func TestNonStaffIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := browser(t)
	status, body := e.login(c, "alice")
	if status != http.StatusForbidden || !strings.Contains(body, "only the forum") {
		t.Fatalf("alice: %d %s", status, body)
	}
	// Asking for the queue goes round the forum again and is refused again.
	status, body = get(t, c, e.page.URL+"/admin/")
	if status != http.StatusForbidden || strings.Contains(body, "review</a>") {
		t.Fatalf("queue for alice: %d", status)
	}
	resp, err := c.PostForm(fmt.Sprintf("%s/admin/actions/%d/approve", e.page.URL, e.id), url.Values{"csrf": {"x"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("approve without a session: %d", resp.StatusCode)
	}
}

func TestGroupMemberIsAllowed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.forum.AddUser(discoursetest.User{Username: "sam", Groups: []string{"support-team"}, TrustLevel: 2})
	status, body := e.login(browser(t), "sam")
	if status != 200 || !strings.Contains(body, "Queue") {
		t.Errorf("group member: %d", status)
	}
}

func TestForgedReplayedAndExpiredPayloads(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := browser(t)
	// Capture a genuine callback URL without following it.
	noFollow := &http.Client{Jar: c.Jar, Transport: c.Transport, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if strings.Contains(req.URL.Path, "/admin/auth/callback") {
			return http.ErrUseLastResponse
		}
		return nil
	}}
	resp, _ := noFollow.Get(e.page.URL + "/admin/login")
	resp.Body.Close()
	next := strings.TrimPrefix(resp.Request.URL.String(), e.forum.URL)
	resp, err := noFollow.PostForm(e.forum.URL+"/session/login", url.Values{"username": {"admin"}, "next": {next}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	callback := resp.Header.Get("Location")
	if !strings.Contains(callback, "/admin/auth/callback?") {
		t.Fatalf("no callback: %q", callback)
	}
	cu, _ := url.Parse(callback)
	q := cu.Query()

	forged, sig := discourse.EncodePayload("not-the-secret-000", url.Values{"nonce": {"n"}, "username": {"admin"}, "external_id": {"1"}, "admin": {"true"}})
	status, body := get(t, browser(t), e.page.URL+"/admin/auth/callback?"+url.Values{"sso": {forged}, "sig": {sig}}.Encode())
	if status != http.StatusForbidden || !strings.Contains(body, "forged") {
		t.Errorf("forged: %d", status)
	}
	tampered := url.Values{"sso": {q.Get("sso")[:len(q.Get("sso"))-4] + "AAAA"}, "sig": {q.Get("sig")}}
	if status, _ := get(t, browser(t), e.page.URL+"/admin/auth/callback?"+tampered.Encode()); status != http.StatusForbidden {
		t.Errorf("tampered: %d", status)
	}
	// Expired: the nonce lives 10 minutes.
	e.clock = e.clock.Add(11 * time.Minute)
	if status, _ := get(t, browser(t), callback); status != http.StatusForbidden {
		t.Errorf("expired: %d", status)
	}
	// And once used (or expired), it is gone: a replay fails too.
	e.clock = e.clock.Add(-11 * time.Minute)
	if status, _ := get(t, browser(t), callback); status != http.StatusForbidden {
		t.Errorf("replayed: %d", status)
	}
}

func TestCSRF(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := browser(t)
	e.login(c, "maria")
	for name, form := range map[string]url.Values{"missing": {}, "wrong": {"csrf": {"deadbeef"}}} {
		resp, err := c.PostForm(fmt.Sprintf("%s/admin/actions/%d/approve", e.page.URL, e.id), form)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s CSRF token: %d", name, resp.StatusCode)
		}
	}
	if a, _ := e.db.Action(context.Background(), e.id); a.State != store.StatePending {
		t.Errorf("state changed without a valid token: %s", a.State)
	}
	resp, err := c.Get(fmt.Sprintf("%s/admin/actions/%d/approve", e.page.URL, e.id))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET approve: %d", resp.StatusCode)
	}
}

func TestConcurrentApprovalsYieldOneApproval(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	clients := []*http.Client{browser(t), browser(t), browser(t), browser(t)}
	tokens := make([]string, len(clients))
	for i, c := range clients {
		e.login(c, "admin")
		_, body := get(t, c, fmt.Sprintf("%s/admin/actions/%d", e.page.URL, e.id))
		tokens[i] = csrfRE.FindStringSubmatch(body)[1]
	}
	var wg sync.WaitGroup
	codes := make([]int, len(clients))
	for i, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			nf := &http.Client{Jar: c.Jar, Transport: c.Transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			resp, err := nf.PostForm(fmt.Sprintf("%s/admin/actions/%d/approve", e.page.URL, e.id), url.Values{"csrf": {tokens[i]}})
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			codes[i] = resp.StatusCode
		}()
	}
	wg.Wait()
	ok, conflict := 0, 0
	for _, code := range codes {
		switch code {
		case http.StatusSeeOther:
			ok++
		case http.StatusConflict:
			conflict++
		}
	}
	if ok != 1 || conflict != len(clients)-1 {
		t.Errorf("codes = %v: want one approval and the rest conflicts", codes)
	}
	audit, _ := e.db.Audit(context.Background(), e.id)
	if len(audit) != 1 {
		t.Errorf("audit has %d entries", len(audit))
	}
}

func TestRejectTeachAndLoginLink(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	link, err := admin.NewLoginLink(context.Background(), e.db, e.page.URL+"/admin", "admin", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	c := browser(t)
	status, body := get(t, c, link)
	if status != 200 || !strings.Contains(body, "Queue") {
		t.Fatalf("login link: %d", status)
	}
	if status, _ := get(t, browser(t), link); status != http.StatusForbidden {
		t.Errorf("reused login link: %d", status)
	}
	_, body = get(t, c, fmt.Sprintf("%s/admin/actions/%d", e.page.URL, e.id))
	tok := csrfRE.FindStringSubmatch(body)[1]
	resp, err := c.PostForm(fmt.Sprintf("%s/admin/actions/%d/reject", e.page.URL, e.id), url.Values{"csrf": {tok}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("reject without a reason: %d", resp.StatusCode)
	}
	resp, _ = c.PostForm(fmt.Sprintf("%s/admin/actions/%d/teach", e.page.URL, e.id), url.Values{"csrf": {tok}})
	resp.Body.Close()
	if resp.StatusCode != http.StatusConflict {
		t.Errorf("teaching a pending draft: %d", resp.StatusCode)
	}
	if !strings.Contains(body, `name="nothing_fits"`) || !strings.Contains(body, `name="fits"`) {
		t.Error("the reject form asks nothing of what answers the post")
	}
	resp, _ = c.PostForm(fmt.Sprintf("%s/admin/actions/%d/reject", e.page.URL, e.id), url.Values{"csrf": {tok}, "reason": {"wrong diagnosis"},
		"nothing_fits": {"1"}})
	resp.Body.Close()
	if a, _ := e.db.Action(context.Background(), e.id); a.State != store.StateRejected || a.Reason != "wrong diagnosis" ||
		!strings.Contains(string(a.Payload), `"nothing_fits":true`) {
		t.Errorf("after reject: %+v, payload %s", a, a.Payload)
	}
	// A posted reply can be taught: a proposal joins the queue.
	_ = e.db.FinishAction(context.Background(), e.id, store.StateDone, "post:9", "")
	resp, _ = c.PostForm(fmt.Sprintf("%s/admin/actions/%d/teach", e.page.URL, e.id), url.Values{"csrf": {tok}})
	resp.Body.Close()
	props, _ := e.db.ListActions(context.Background(), store.ActionFilter{Kind: "teach", States: []string{store.StatePending}})
	if len(props) != 1 {
		t.Errorf("teach proposals = %d", len(props))
	}
	// A pending draft is judged with its rejection; a posted reply can be
	// judged afterwards, which labels it and leaves it posted.
	if strings.Contains(body, "/judge") {
		t.Error("a pending draft's page offers a judgement of its own")
	}
	_, body = get(t, c, fmt.Sprintf("%s/admin/actions/%d", e.page.URL, e.id))
	if !strings.Contains(body, fmt.Sprintf("/actions/%d/judge", e.id)) || !strings.Contains(body, `name="not_support"`) {
		t.Error("a posted reply's page offers no judgement")
	}
	resp, _ = c.PostForm(fmt.Sprintf("%s/admin/actions/%d/judge", e.page.URL, e.id), url.Values{"csrf": {tok}})
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a judgement that says nothing: %d", resp.StatusCode)
	}
	resp, _ = c.PostForm(fmt.Sprintf("%s/admin/actions/%d/judge", e.page.URL, e.id), url.Values{"csrf": {tok}, "not_support": {"1"}})
	resp.Body.Close()
	if a, _ := e.db.Action(context.Background(), e.id); resp.StatusCode != http.StatusOK || a.State != store.StateDone ||
		!strings.Contains(string(a.Payload), `"not_support":true`) || strings.Contains(string(a.Payload), `"nothing_fits":true`) {
		t.Errorf("after judging: %d, %+v, payload %s", resp.StatusCode, a, a.Payload)
	}
	if _, body = get(t, c, fmt.Sprintf("%s/admin/actions/%d", e.page.URL, e.id)); !strings.Contains(body, "Labelled: not a support question.") {
		t.Error("the page does not show the judgement")
	}
	if _, body = get(t, c, e.page.URL+"/admin/history"); !strings.Contains(body, "<td>not a support question</td>") {
		t.Error("the history does not show which posts are labelled")
	}
	// Logout ends the session.
	resp, _ = c.PostForm(e.page.URL+"/admin/logout", url.Values{"csrf": {tok}})
	resp.Body.Close()
	nf := &http.Client{Jar: c.Jar, Transport: c.Transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, _ = nf.Get(e.page.URL + "/admin/")
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Errorf("after logout: %d", resp.StatusCode)
	}
}

func TestQueueScalesTo10000Drafts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var batch []store.Action
	for i := 0; i < 10000; i++ {
		batch = append(batch, store.Action{Kind: "reply", Key: fmt.Sprintf("reply:9:%d", i), TopicID: 9, PostID: i,
			Payload: json.RawMessage(`{"topic_title":"t","category_id":1,"draft":"d"}`), Confidence: 0.5, State: store.StatePending, Mode: "queue"})
	}
	if _, err := e.db.Record(context.Background(), batch); err != nil {
		t.Fatal(err)
	}
	c := browser(t)
	e.login(c, "admin")
	status, body := get(t, c, e.page.URL+"/admin/?state=pending&category=1&min=0.4")
	if status != 200 || strings.Count(body, "review</a>") != 50 || !strings.Contains(body, "Older") {
		t.Errorf("first page: %d, %d rows", status, strings.Count(body, "review</a>"))
	}
	if !strings.Contains(body, "pending <b>10001</b>") {
		t.Errorf("counts missing")
	}
}

// TestLoginStartsAreRateLimited: starting logins (each writes a nonce) is
// limited; the page answers 429 with Retry-After past the burst.
func TestLoginStartsAreRateLimited(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	limited := 0
	for range admin.LoginBurst + 10 {
		resp, err := noFollow.Get(e.page.URL + "/admin/login")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests {
			limited++
			if resp.Header.Get("Retry-After") == "" {
				t.Error("429 without Retry-After")
			}
		}
	}
	if limited < 5 {
		t.Errorf("%d of %d login starts limited, want at least 5", limited, admin.LoginBurst+10)
	}
	if n, err := e.db.PendingNonces(context.Background()); err != nil || n > admin.LoginBurst+2 {
		t.Errorf("%d nonces stored, %v", n, err)
	}
}

// TestDamagedPayloadDoesNotTakeTheQueueDown: a row whose payload is not
// JSON (written by hand, or damaged) is listed and viewable, empty, and
// the drafts beside it are still reviewable.
func TestDamagedPayloadDoesNotTakeTheQueueDown(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	if _, err := e.db.Record(ctx, []store.Action{{Kind: "reply", Key: "reply:2:1", TopicID: 2, PostID: 2,
		Payload: []byte("{not json"), Confidence: 0.5, State: store.StatePending, Mode: "auto", Reason: "hand-written row"}}); err != nil {
		t.Fatal(err)
	}
	list, err := e.db.ListActions(ctx, store.ActionFilter{})
	if err != nil || len(list) != 2 {
		t.Fatalf("actions: %d, %v", len(list), err)
	}
	var damaged int64
	for _, a := range list {
		if a.Key == "reply:2:1" {
			damaged = a.ID
		}
	}
	c := browser(t)
	status, body := e.login(c, "maria")
	if status != 200 || !strings.Contains(body, "vllm-project/vllm#51396") || !strings.Contains(body, "hand-written row") {
		t.Fatalf("queue with a damaged row: %d\n%s", status, body)
	}
	if status, _ := get(t, c, fmt.Sprintf("%s/admin/actions/%d", e.page.URL, damaged)); status != 200 {
		t.Errorf("damaged row's page: %d", status)
	}
	if status, _ := get(t, c, e.page.URL+"/admin/history"); status != 200 {
		t.Errorf("history with a damaged row: %d", status)
	}
	if !strings.Contains(e.log.String(), "undecodable action payload") {
		t.Errorf("the damaged row was not logged:\n%s", e.log.String())
	}
}
