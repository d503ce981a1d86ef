package discourse

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-resty/resty/v2"
	"golang.org/x/time/rate"
)

// Client talks to one Discourse forum. It is safe for concurrent use.
type Client struct {
	base     *url.URL
	http     *resty.Client
	limiter  *rate.Limiter
	retries  int
	backoff  time.Duration
	now      func() time.Time
	maxBody  int64
	username string

	mu           sync.Mutex
	blockedUntil time.Time
	blockCode    string
}

// Option configures a Client.
type Option func(*Client) error

// WithAPIKey authenticates every request with an admin API key acting as
// username. The key is sent only in the Api-Key header.
func WithAPIKey(key, username string) Option {
	return func(c *Client) error {
		if key == "" || username == "" {
			return errors.New("discourse: API key and username must both be set")
		}
		c.http.SetHeader("Api-Key", key)
		c.http.SetHeader("Api-Username", username)
		c.username = username
		return nil
	}
}

// WithTimeout bounds each HTTP request (default 30s).
func WithTimeout(d time.Duration) Option {
	return func(c *Client) error {
		c.http.SetTimeout(d)
		return nil
	}
}

// WithUserAgent sets the User-Agent header.
func WithUserAgent(ua string) Option {
	return func(c *Client) error {
		c.http.SetHeader("User-Agent", ua)
		return nil
	}
}

// WithRequestBudget sets the client-side limit: at most perMinute requests
// in any 60 seconds, of which up to burst may go at once. Discourse shares
// one bucket (60/minute by default) among all API-key traffic on a site,
// so leave room for other integrations. perMinute <= 0 disables the
// limiter.
func WithRequestBudget(perMinute, burst int) Option {
	return func(c *Client) error {
		c.limiter = newBudget(perMinute, burst)
		return nil
	}
}

// newBudget returns a token bucket that refills at (perMinute-burst) a
// minute: a full bucket plus a minute of refill is exactly perMinute, so
// no 60-second window can hold more. The bucket starts empty, so a process
// that restarts (or crashes in a loop) cannot add a fresh burst each time.
func newBudget(perMinute, burst int) *rate.Limiter {
	if perMinute <= 0 {
		return nil
	}
	burst = max(1, min(burst, perMinute-1))
	if perMinute == 1 {
		burst = 1
	}
	refill := float64(max(1, perMinute-burst)) / 60
	l := rate.NewLimiter(rate.Limit(refill), burst)
	l.AllowN(time.Now(), burst)
	return l
}

// WithRetries sets how often a GET is retried after 5xx, timeouts and
// resets, and the base of the exponential backoff (default 3 and 500ms).
func WithRetries(n int, base time.Duration) Option {
	return func(c *Client) error {
		c.retries, c.backoff = n, base
		return nil
	}
}

// WithHTTPClient replaces the underlying HTTP client (its Transport and
// Timeout are used); tests use it to run the fake forum in process.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) error {
		if hc.Transport != nil {
			c.http.SetTransport(hc.Transport)
		}
		if hc.Timeout > 0 {
			c.http.SetTimeout(hc.Timeout)
		}
		return nil
	}
}

// WithClock replaces time.Now, for tests of the 429 block.
func WithClock(now func() time.Time) Option {
	return func(c *Client) error {
		c.now = now
		return nil
	}
}

// DefaultRequestBudget is the default client-side limit: 50 requests a
// minute, leaving a sixth of the site's default 60 for other integrations.
const DefaultRequestBudget = 50

const (
	maxErrorBody   = 64 << 10
	maxSuccessBody = 32 << 20
)

// NewClient returns a client for the forum at baseURL.
func NewClient(baseURL string, opts ...Option) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("discourse: base URL %q must be an absolute http(s) URL", baseURL)
	}
	if u.Scheme == "http" && !IsLoopback(u.Hostname()) {
		return nil, fmt.Errorf("%w (got %s)", ErrInsecureURL, u.Redacted())
	}
	c := &Client{
		base:    u,
		http:    resty.New().SetBaseURL(u.String()).SetTimeout(30 * time.Second).SetDisableWarn(true).SetRedirectPolicy(sameOrigin(u)),
		retries: 3,
		backoff: 500 * time.Millisecond,
		now:     time.Now,
		maxBody: maxSuccessBody,
	}
	c.http.SetHeader("Accept", "application/json")
	c.http.SetHeader("User-Agent", "Herald (+https://github.com/heraldbot/herald)")
	c.limiter = newBudget(DefaultRequestBudget, 5)
	for _, o := range opts {
		if err := o(c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// maxRedirects bounds redirects within the forum's own origin.
const maxRedirects = 5

// sameOrigin follows redirects only within the forum's scheme and host:
// Go's client would carry the Api-Key and Api-Username headers to any
// host a redirect names.
func sameOrigin(base *url.URL) resty.RedirectPolicy {
	return resty.RedirectPolicyFunc(func(req *http.Request, via []*http.Request) error {
		if req.URL.Scheme != base.Scheme || !strings.EqualFold(req.URL.Host, base.Host) {
			return &RedirectError{From: base.Scheme + "://" + base.Host, To: req.URL.Scheme + "://" + req.URL.Host}
		}
		if len(via) >= maxRedirects {
			return fmt.Errorf("discourse: more than %d redirects", maxRedirects)
		}
		return nil
	})
}

// IsLoopback reports whether host (a name or an address, no port) is the
// local machine: localhost, 127.0.0.0/8 or ::1.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Username returns the API username, or "".
func (c *Client) Username() string { return c.username }

// BaseURL returns the forum's base URL.
func (c *Client) BaseURL() string { return c.base.String() }

// request describes one API call.
type request struct {
	method string
	path   string
	query  url.Values
	form   url.Values
	json   any
}

// do sends r and decodes a 2xx JSON body into out (if not nil). It applies
// the limiter, the 429 block, retries for GETs and error decoding.
func (c *Client) do(ctx context.Context, r request, out any) error {
	attempts := 1
	if r.method == http.MethodGet {
		attempts += c.retries
	}
	var last error
	for i := 0; i < attempts; i++ {
		if i > 0 {
			if err := sleep(ctx, c.backoffFor(i)); err != nil {
				return err
			}
		}
		err := c.once(ctx, r, out)
		if err == nil || !retryable(err) || r.method != http.MethodGet {
			return err
		}
		last = err
	}
	return last
}

func (c *Client) backoffFor(attempt int) time.Duration {
	d := c.backoff << (attempt - 1)
	if d > 30*time.Second {
		d = 30 * time.Second
	}
	// Full jitter: a random wait in [d/2, d).
	return d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
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

// transientError marks failures worth retrying for a GET.
type transientError struct{ err error }

func (e *transientError) Error() string { return e.err.Error() }
func (e *transientError) Unwrap() error { return e.err }

func retryable(err error) bool {
	var t *transientError
	if errors.As(err, &t) {
		return true
	}
	var er *ErrorResponse
	return errors.As(err, &er) && er.StatusCode >= 500
}

func (c *Client) once(ctx context.Context, r request, out any) error {
	c.mu.Lock()
	until, code := c.blockedUntil, c.blockCode
	c.mu.Unlock()
	if now := c.now(); now.Before(until) {
		return &RateLimitError{Wait: until.Sub(now), Until: until, Code: code, Local: true}
	}
	if c.limiter != nil {
		if err := c.limiter.Wait(ctx); err != nil {
			return fmt.Errorf("discourse: %s %s: waiting for the request budget: %w", r.method, r.path, err)
		}
	}
	req := c.http.R().SetContext(ctx).SetDoNotParseResponse(true)
	if r.query != nil {
		req.SetQueryParamsFromValues(r.query)
	}
	switch {
	case r.form != nil:
		req.SetFormDataFromValues(r.form)
	case r.json != nil:
		req.SetHeader("Content-Type", "application/json").SetBody(r.json)
	}
	resp, err := req.Execute(r.method, r.path)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var re *RedirectError
		if errors.As(err, &re) {
			return re // configuration, not a passing fault: no retry
		}
		// Strip the URL (it is ours, but never risk echoing a query)
		// and keep the cause.
		return &transientError{fmt.Errorf("discourse: %s %s: %w", r.method, r.path, unwrapURLError(err))}
	}
	body := resp.RawBody()
	defer body.Close()
	status := resp.StatusCode()
	if status >= 200 && status < 300 {
		if out == nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(body, maxErrorBody))
			return nil
		}
		data, err := io.ReadAll(io.LimitReader(body, c.maxBody+1))
		if err != nil {
			return &transientError{fmt.Errorf("discourse: %s %s: read body: %w", r.method, r.path, err)}
		}
		if int64(len(data)) > c.maxBody {
			return fmt.Errorf("discourse: %s %s: response larger than %d bytes", r.method, r.path, c.maxBody)
		}
		if err := json.Unmarshal(data, out); err != nil {
			// A truncated or malformed body on a GET is worth another try.
			return &transientError{fmt.Errorf("discourse: %s %s: decode response: %w", r.method, r.path, err)}
		}
		return nil
	}
	data, _ := io.ReadAll(io.LimitReader(body, maxErrorBody))
	if status == http.StatusTooManyRequests {
		rl := parseRateLimit(resp.Header(), data)
		rl.Until = c.now().Add(rl.Wait)
		c.mu.Lock()
		if rl.Until.After(c.blockedUntil) {
			c.blockedUntil, c.blockCode = rl.Until, rl.Code
		}
		c.mu.Unlock()
		return rl
	}
	er := &ErrorResponse{Method: r.method, Path: r.path, StatusCode: status}
	var e struct {
		Errors    []string `json:"errors"`
		ErrorType string   `json:"error_type"`
		Action    string   `json:"action"`
	}
	if len(bytes.TrimSpace(data)) > 0 && json.Unmarshal(data, &e) == nil {
		er.Errors, er.ErrorType, er.Action = e.Errors, e.ErrorType, e.Action
	}
	return er
}

// defaultRateLimitWait is used when a 429 names no wait at all.
const defaultRateLimitWait = 60 * time.Second

// parseRateLimit reads the wait from Retry-After, else from the JSON
// extras.wait_seconds, else a fixed minute; the plain-text 429 of the
// per-IP limiter carries only the header.
func parseRateLimit(h http.Header, body []byte) *RateLimitError {
	rl := &RateLimitError{Code: h.Get("Discourse-Rate-Limit-Error-Code")}
	if s := strings.TrimSpace(h.Get("Retry-After")); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n >= 0 {
			rl.Wait = time.Duration(n) * time.Second
			return rl
		}
		if t, err := http.ParseTime(s); err == nil {
			rl.Wait = max(0, time.Until(t))
			return rl
		}
	}
	var e struct {
		Extras struct {
			WaitSeconds float64 `json:"wait_seconds"`
		} `json:"extras"`
	}
	if json.Unmarshal(body, &e) == nil && e.Extras.WaitSeconds > 0 {
		rl.Wait = time.Duration(e.Extras.WaitSeconds * float64(time.Second))
		return rl
	}
	rl.Wait = defaultRateLimitWait
	return rl
}

// unwrapURLError drops *url.Error's URL from transport errors.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		var ne net.Error
		if errors.As(ue.Err, &ne) && ne.Timeout() {
			return fmt.Errorf("timeout: %w", ue.Err)
		}
		return ue.Err
	}
	return err
}
