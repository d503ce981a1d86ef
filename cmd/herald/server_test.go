package main

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/heraldbot/herald/discourse/discoursetest"
)

func TestHTTPServerLimits(t *testing.T) {
	srv := newHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "too large", http.StatusRequestEntityTooLarge)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	if srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.WriteTimeout <= 0 || srv.IdleTimeout <= 0 || srv.MaxHeaderBytes <= 0 {
		t.Fatalf("a limit is unset: %+v", srv)
	}
	ts := httptest.NewUnstartedServer(srv.Handler)
	ts.Config = srv
	ts.Start()
	defer ts.Close()
	resp, err := http.Post(ts.URL, "application/octet-stream", bytes.NewReader(make([]byte, maxBodyBytes+1)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a %d-byte body got %d, want 413", maxBodyBytes+1, resp.StatusCode)
	}
}

func TestAdminBaseURL(t *testing.T) {
	for _, tt := range []struct{ listen, base, cert, want string }{
		{":8080", "", "", "http://localhost:8080"},
		{"0.0.0.0:8080", "", "", "http://localhost:8080"},
		{"127.0.0.1:9000", "", "", "http://127.0.0.1:9000"},
		{":8443", "", "c.pem", "https://localhost:8443"},
		{":8080", "https://herald.example.org/", "", "https://herald.example.org"},
	} {
		var c Config
		c.HTTP.Listen, c.Admin.BaseURL, c.HTTP.TLSCert = tt.listen, tt.base, tt.cert
		if got := adminBaseURL(&c); got != tt.want {
			t.Errorf("adminBaseURL(%q, %q) = %q, want %q", tt.listen, tt.base, got, tt.want)
		}
	}
}

// TestAdminLinkChecksTheUser: a login link is only made for someone the
// forum knows as staff or as a member of admin.groups.
func TestAdminLinkChecksTheUser(t *testing.T) {
	cfg := seededForumConfig(t, discoursetest.BotAPIKey, "admin:\n  groups: [support-team]\n")
	for user, ok := range map[string]bool{"maria": true, "admin": true, "alice": false, "nobody": false} {
		out, _, err := runCmd(t, "", "admin-link", "--config", cfg, "--as", user, "--ttl", (5 * time.Minute).String())
		if ok != (err == nil) || ok && !strings.Contains(out, "/admin/auth/link?t=") {
			t.Errorf("admin-link --as %s: %q, %v (want allowed: %v)", user, out, err, ok)
		}
	}
}

// TestRunRefusesARejectedKey: `herald run` with a key the forum rejects
// stops at start with an error naming the setting.
func TestRunRefusesARejectedKey(t *testing.T) {
	cfg := seededForumConfig(t, "not-the-key", "knowledge:\n  sources: []\nhttp:\n  listen: 127.0.0.1:0\n")
	_, _, err := runCmd(t, "", "run", "--config", cfg)
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Field != "discourse.api_key" {
		t.Errorf("run with a rejected key: %v, want a ValidationError on discourse.api_key", err)
	}
}

// seededForumConfig starts a seeded fake forum for the test and writes a
// config file that points Herald at it with apiKey, a database in a
// temporary folder, and extra YAML; it returns the file's path.
func seededForumConfig(t *testing.T, apiKey, extra string) string {
	t.Helper()
	forum := discoursetest.New(discoursetest.WithRateLimit(0))
	t.Cleanup(forum.Close)
	forum.Seed("herald")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	conf := "discourse:\n  url: " + forum.URL + "\n  api_key: " + apiKey + "\n  username: herald\nstore:\n  path: " +
		filepath.Join(dir, "h.db") + "\n" + extra
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	return cfg
}
