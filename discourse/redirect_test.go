package discourse

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// TestRedirectToAnotherHostKeepsTheKey: a forum that answers with a
// redirect to another host (a domain move, a CDN front end) gets a
// configuration error, and the other host never sees the API key.
func TestRedirectToAnotherHostKeepsTheKey(t *testing.T) {
	t.Parallel()
	var leaked, hits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.Header.Get("Api-Key") != "" || r.Header.Get("Api-Username") != "" {
			leaked.Add(1)
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"latest_posts":[]}`))
	}))
	defer other.Close()
	for _, code := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		forum := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+r.URL.Path, code)
		}))
		c, err := NewClient(forum.URL, WithAPIKey("secret-key", "herald"), WithRequestBudget(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.LatestPosts(context.Background(), 0)
		var re *RedirectError
		if !errors.As(err, &re) {
			t.Errorf("%d: err = %v, want a RedirectError", code, err)
		}
		forum.Close()
	}
	if leaked.Load() != 0 || hits.Load() != 0 {
		t.Errorf("the other host got %d requests, %d with the key", hits.Load(), leaked.Load())
	}
}

// TestRedirectWithinTheForumIsFollowed: a redirect to the same origin
// (a trailing slash, a moved path) is followed.
func TestRedirectWithinTheForumIsFollowed(t *testing.T) {
	t.Parallel()
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/posts.json" {
			http.Redirect(w, r, srv.URL+"/moved/posts.json", http.StatusFound)
			return
		}
		if r.Header.Get("Api-Key") != "k" {
			t.Errorf("the key did not follow a same-origin redirect")
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"latest_posts":[]}`))
	}))
	defer srv.Close()
	c, err := NewClient(srv.URL, WithAPIKey("k", "herald"), WithRequestBudget(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.LatestPosts(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
}

func TestPlainHTTPOnlyOnLoopback(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"http://127.0.0.1:4200", "http://localhost:3000", "http://[::1]:80", "https://forum.example.com"} {
		if _, err := NewClient(u); err != nil {
			t.Errorf("NewClient(%q): %v", u, err)
		}
	}
	for _, u := range []string{"http://forum.example.com", "http://10.0.0.5", "http://127.0.0.1.evil.example"} {
		if _, err := NewClient(u); !errors.Is(err, ErrInsecureURL) {
			t.Errorf("NewClient(%q) = %v, want ErrInsecureURL", u, err)
		}
	}
}
