package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/heraldbot/herald/discourse/discoursetest"
	"github.com/heraldbot/herald/service"
)

func TestPauseResume(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "h.db")
	out, _, err := runCmd(t, "", "pause", "--db", db)
	if err != nil || !strings.Contains(out, "paused") {
		t.Fatalf("pause: %q %v", out, err)
	}
	out, _, err = runCmd(t, "", "resume", "--db", db)
	if err != nil || !strings.Contains(out, "resumed") {
		t.Fatalf("resume: %q %v", out, err)
	}
}

// TestDemoForumOnlyKeepsState starts `herald demo --forum-only` with a
// state file, posts to it, stops it, and starts it again.
func TestDemoForumOnlyKeepsState(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "forum.json")
	start := func() (string, context.CancelFunc, chan error) {
		ctx, cancel := context.WithCancel(context.Background())
		pr, pw := io.Pipe()
		done := make(chan error, 1)
		go func() {
			done <- run(ctx, []string{"demo", "--forum-only", "--state", state, "--api-key", "global-key-123456"}, strings.NewReader(""), pw, io.Discard)
			pw.Close()
		}()
		line, err := bufio.NewReader(pr).ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		go func() { _, _ = io.Copy(io.Discard, pr) }()
		return strings.TrimSpace(strings.TrimPrefix(line, "forum: ")), cancel, done
	}
	url, cancel, done := start()
	req, _ := http.NewRequest(http.MethodPost, url+"/posts.json", strings.NewReader("title=Persisted+topic+title&category=1&raw=This+topic+must+survive+a+restart+of+the+forum."))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Api-Key", "global-key-123456")
	req.Header.Set("Api-Username", "alice")
	client := discoursetest.Client(t.Cleanup)
	resp, err := client.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("create topic: %v %v", resp, err)
	}
	resp.Body.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	url, cancel, done = start()
	defer func() { cancel(); <-done }()
	resp, err = client.Get(url + "/latest.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), "Persisted topic title") {
		t.Errorf("topic lost across restart: %s", body)
	}
}

// TestAdminLinkChecksTheUser: a login link is only made for someone the
// forum knows as staff or as a member of admin.groups.
func TestAdminLinkChecksTheUser(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	cfg := seededForumConfig(t, "not-the-key", "knowledge:\n  sources: []\nhttp:\n  listen: 127.0.0.1:0\n")
	_, _, err := runCmd(t, "", "run", "--config", cfg)
	var ve *service.ValidationError
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
	conf := "discourse:\n  url: " + forum.URL + "\n  api_key: " + apiKey + "\n  username: herald\n  requests_per_minute: 6000\nstore:\n  path: " +
		filepath.Join(dir, "h.db") + "\n" + extra
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	return cfg
}
