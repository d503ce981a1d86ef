// Package github reads GitHub's wire formats into knowledge.Issue
// values. It reads a repository's issues from the REST API, following
// Link-header paging, revalidating with ETags (a 304 costs no rate
// limit) and obeying the rate-limit headers (it waits for a reset that
// is near and reports one that is far), and it reads the JSON `gh issue
// list --json` prints (ParseIssueList).
//
// Only this package knows those formats; package importer turns the
// issues into entries (knowledge.IssueEntry, with the packs' vocabulary)
// and stores them.
package github

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/heraldbot/herald/knowledge"
)

// Client lists issues. It is safe for concurrent use.
type Client struct {
	base  string
	token string
	http  *http.Client
	// MaxWait is the longest rate-limit wait the client sits out itself
	// (default 60s); longer ones return *RateLimitError.
	MaxWait time.Duration
	// Now and Sleep are replaced in tests.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// NewClient returns a client for the API at base ("" for api.github.com)
// with an optional token (read it from the environment, never a file
// that is committed).
func NewClient(base, token string, hc *http.Client) *Client {
	if base == "" {
		base = "https://api.github.com"
	}
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	return &Client{base: strings.TrimRight(base, "/"), token: token, http: hc, MaxWait: time.Minute, Now: time.Now, Sleep: sleep}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// RateLimitError reports a rate limit whose reset is too far to wait for.
type RateLimitError struct{ Reset time.Time }

func (e *RateLimitError) Error() string {
	return "github: rate limited until " + e.Reset.UTC().Format(time.RFC3339)
}

// ListOptions filter issues.
type ListOptions struct {
	Labels []string
	State  string // open, closed or all (default all)
	Since  time.Time
	// ETag from a previous listing; if nothing changed the result is
	// NotModified and costs no rate limit.
	ETag string
}

// Result is one listing.
type Result struct {
	Issues      []knowledge.Issue
	ETag        string
	NotModified bool
	Pages       int
}

type apiIssue struct {
	Number    int       `json:"number"`
	Title     string    `json:"title"`
	Body      string    `json:"body"`
	HTMLURL   string    `json:"html_url"`
	State     string    `json:"state"`
	UpdatedAt time.Time `json:"updated_at"`
	Labels    []struct {
		Name string `json:"name"`
	} `json:"labels"`
}

var nextRE = regexp.MustCompile(`<([^>]+)>;\s*rel="next"`)

// ListIssues lists a repository's issues (pull requests included, as the
// API returns them), following every page.
func (c *Client) ListIssues(ctx context.Context, repo string, opts ListOptions) (*Result, error) {
	if !regexp.MustCompile(`^[\w.-]+/[\w.-]+$`).MatchString(repo) {
		return nil, fmt.Errorf("github: repository %q is not owner/name", repo)
	}
	q := url.Values{"per_page": {"100"}, "state": {"all"}}
	if opts.State != "" {
		q.Set("state", opts.State)
	}
	if len(opts.Labels) > 0 {
		q.Set("labels", strings.Join(opts.Labels, ","))
	}
	if !opts.Since.IsZero() {
		q.Set("since", opts.Since.UTC().Format(time.RFC3339))
	}
	next := c.base + "/repos/" + repo + "/issues?" + q.Encode()
	res := &Result{}
	for next != "" && res.Pages < 1000 {
		etag := ""
		if res.Pages == 0 {
			etag = opts.ETag
		}
		resp, err := c.get(ctx, next, etag)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusNotModified {
			resp.Body.Close()
			return &Result{ETag: opts.ETag, NotModified: true}, nil
		}
		var page []apiIssue
		err = json.NewDecoder(io.LimitReader(resp.Body, 64<<20)).Decode(&page)
		resp.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("github: decode issues: %w", err)
		}
		if res.Pages == 0 {
			res.ETag = resp.Header.Get("ETag")
		}
		res.Pages++
		for _, is := range page {
			gi := knowledge.Issue{Number: is.Number, Title: is.Title, Body: is.Body, URL: is.HTMLURL,
				State: strings.ToUpper(is.State), UpdatedAt: is.UpdatedAt}
			for _, l := range is.Labels {
				gi.Labels = append(gi.Labels, l.Name)
			}
			res.Issues = append(res.Issues, gi)
		}
		next = ""
		if m := nextRE.FindStringSubmatch(resp.Header.Get("Link")); m != nil {
			next = m[1]
		}
	}
	return res, nil
}

// get sends one request, waiting out rate limits whose reset is near.
func (c *Client) get(ctx context.Context, u, etag string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/vnd.github+json")
		req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
		req.Header.Set("User-Agent", "Herald")
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		resp, err := c.http.Do(req)
		if err != nil {
			return nil, fmt.Errorf("github: %w", err)
		}
		wait, limited := c.rateLimitWait(resp)
		if !limited {
			if resp.StatusCode >= 400 {
				b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
				resp.Body.Close()
				return nil, fmt.Errorf("github: %s: %d %s", req.URL.Path, resp.StatusCode, strings.TrimSpace(string(b)))
			}
			return resp, nil
		}
		resp.Body.Close()
		if wait > c.MaxWait {
			return nil, &RateLimitError{Reset: c.Now().Add(wait)}
		}
		if err := c.Sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
	return nil, errors.New("github: still rate limited after several waits")
}

// rateLimitWait reads GitHub's limits: a 403/429 with Retry-After (the
// secondary limit) or with X-RateLimit-Remaining 0 (the primary one, until
// X-RateLimit-Reset).
func (c *Client) rateLimitWait(resp *http.Response) (time.Duration, bool) {
	if resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusTooManyRequests {
		return 0, false
	}
	if s := resp.Header.Get("Retry-After"); s != "" {
		if n, err := strconv.Atoi(s); err == nil {
			return time.Duration(n) * time.Second, true
		}
	}
	if resp.Header.Get("X-RateLimit-Remaining") == "0" {
		if reset, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64); err == nil {
			return max(time.Second, time.Unix(reset, 0).Sub(c.Now())), true
		}
	}
	return 0, false
}
