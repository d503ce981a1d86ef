package github

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeGitHub serves 250 issues in pages of 100 with an ETag, and can
// answer the first request with a rate limit.
type fakeGitHub struct {
	mu        sync.Mutex
	requests  int
	limitOnce string // "primary" or "secondary"
	state     string // state of issue 1
}

func (f *fakeGitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests++
	if r.Header.Get("Authorization") != "Bearer t0ken" {
		http.Error(w, `{"message":"Bad credentials"}`, http.StatusUnauthorized)
		return
	}
	switch f.limitOnce {
	case "primary":
		f.limitOnce = ""
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(time.Date(2026, 11, 30, 12, 0, 5, 0, time.UTC).Unix(), 10))
		http.Error(w, `{"message":"API rate limit exceeded"}`, http.StatusForbidden)
		return
	case "secondary":
		f.limitOnce = ""
		w.Header().Set("Retry-After", "3")
		http.Error(w, `{"message":"secondary rate limit"}`, http.StatusForbidden)
		return
	case "far":
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(time.Date(2026, 11, 30, 13, 0, 0, 0, time.UTC).Unix(), 10))
		http.Error(w, `{"message":"API rate limit exceeded"}`, http.StatusForbidden)
		return
	}
	etag := `"v-` + f.state + `"`
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	if page == 0 {
		page = 1
	}
	var out []map[string]any
	for n := (page-1)*100 + 1; n <= min(page*100, 250); n++ {
		state := "open"
		if n == 1 {
			state = f.state
		}
		out = append(out, map[string]any{"number": n, "title": fmt.Sprintf("[Bug]: issue %d", n), "body": "RuntimeError: boom",
			"html_url": fmt.Sprintf("https://github.com/o/r/issues/%d", n), "url": "https://api.github.com/repos/o/r/issues/1",
			"state": state, "labels": []map[string]any{{"name": "bug"}}, "updated_at": "2026-11-01T00:00:00Z"})
	}
	if page*100 < 250 {
		w.Header().Set("Link", fmt.Sprintf(`<http://%s%s?page=%d&per_page=100&state=all>; rel="next", <http://%s/x?page=3>; rel="last"`, r.Host, r.URL.Path, page+1, r.Host))
	}
	w.Header().Set("ETag", etag)
	_ = json.NewEncoder(w).Encode(out)
}

func newTestClient(t *testing.T, f *fakeGitHub) (*Client, *[]time.Duration) {
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c := NewClient(srv.URL, "t0ken", srv.Client())
	var slept []time.Duration
	c.Now = func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }
	c.Sleep = func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }
	return c, &slept
}

func TestPagingAndETag(t *testing.T) {
	t.Parallel()
	f := &fakeGitHub{state: "open"}
	c, _ := newTestClient(t, f)
	ctx := context.Background()
	res, err := c.ListIssues(ctx, "o/r", ListOptions{Labels: []string{"bug"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Issues) != 250 || res.Pages != 3 || res.ETag == "" {
		t.Fatalf("issues %d pages %d etag %q", len(res.Issues), res.Pages, res.ETag)
	}
	if res.Issues[0].URL != "https://github.com/o/r/issues/1" || res.Issues[0].State != "OPEN" || res.Issues[0].Labels[0] != "bug" {
		t.Errorf("issue = %+v", res.Issues[0])
	}
	before := f.requests
	again, err := c.ListIssues(ctx, "o/r", ListOptions{Labels: []string{"bug"}, ETag: res.ETag})
	if err != nil || !again.NotModified || f.requests != before+1 {
		t.Fatalf("revalidation: %+v %v (%d requests)", again, err, f.requests-before)
	}
	f.state = "closed" // the issue closed upstream: the ETag changes
	changed, err := c.ListIssues(ctx, "o/r", ListOptions{ETag: res.ETag})
	if err != nil || changed.NotModified || changed.Issues[0].State != "CLOSED" {
		t.Fatalf("after a change: %+v %v", changed, err)
	}
}

func TestRateLimits(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"primary", "secondary"} {
		f := &fakeGitHub{state: "open", limitOnce: kind}
		c, slept := newTestClient(t, f)
		res, err := c.ListIssues(context.Background(), "o/r", ListOptions{})
		if err != nil || len(res.Issues) != 250 {
			t.Fatalf("%s: %v", kind, err)
		}
		want := 5 * time.Second
		if kind == "secondary" {
			want = 3 * time.Second
		}
		if len(*slept) != 1 || (*slept)[0] != want {
			t.Errorf("%s: slept %v, want [%s]", kind, *slept, want)
		}
	}
	f := &fakeGitHub{state: "open", limitOnce: "far"}
	c, _ := newTestClient(t, f)
	_, err := c.ListIssues(context.Background(), "o/r", ListOptions{})
	var rl *RateLimitError
	if !errors.As(err, &rl) {
		t.Errorf("far reset: %v", err)
	}
	if _, err := c.ListIssues(context.Background(), "not a repo", ListOptions{}); err == nil {
		t.Error("bad repo accepted")
	}
}

// ParseIssueList reads gh's issue list, labels as objects or strings,
// and skips rows it cannot use.
func TestParseIssueList(t *testing.T) {
	t.Parallel()
	src := `[{"number": 9367, "title": "[Bug]: --cpu-offload-gb flag not honored", "body": "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB\nvllm serve m --cpu-offload-gb 10", "url": "https://github.com/vllm-project/vllm/issues/9367", "state": "CLOSED", "labels": [{"name": "bug"}, {"name": "rocm"}]},
	{"number": 2, "title": "x", "body": "", "url": "not a url", "state": "OPEN", "labels": ["usage"]}]`
	issues, skipped, err := ParseIssueList(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(issues) != 1 || skipped != 1 {
		t.Fatalf("got %d issues, %d skipped; want 1 and 1", len(issues), skipped)
	}
	is := issues[0]
	if is.Repo != "vllm-project/vllm" || is.Number != 9367 || is.State != "CLOSED" || !strings.HasPrefix(is.Body, "torch.OutOfMemoryError") {
		t.Errorf("issue = %+v", is)
	}
	if !slices.Equal(is.Labels, []string{"bug", "rocm"}) {
		t.Errorf("labels %v, want bug and rocm (objects read as names)", is.Labels)
	}
	if _, _, err := ParseIssueList(strings.NewReader("{")); err == nil {
		t.Error("malformed JSON accepted")
	}
}

// FuzzParseIssueList: an issue file never panics the reader; every issue
// it returns has its repository and a title.
func FuzzParseIssueList(f *testing.F) {
	f.Add(`[{"number": 1, "title": "t", "body": "b", "url": "https://github.com/o/r/issues/1", "state": "OPEN", "labels": [{"name": "bug"}, "rocm"]}]`)
	f.Add(`[{"number": 2, "title": "", "url": "x"}]`)
	f.Fuzz(func(t *testing.T, src string) {
		issues, _, err := ParseIssueList(strings.NewReader(src))
		if err != nil {
			return
		}
		for _, is := range issues {
			if is.Repo == "" || strings.TrimSpace(is.Title) == "" {
				t.Fatalf("returned an issue without repository or title: %+v", is)
			}
		}
	})
}
