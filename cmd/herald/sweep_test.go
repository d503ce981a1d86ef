package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/heraldbot/herald/discourse/discoursetest"
)

func TestSweepAndLearnCommands(t *testing.T) {
	t.Parallel()
	forum := discoursetest.New(discoursetest.WithRateLimit(0))
	t.Cleanup(forum.Close)
	forum.Seed("herald")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	yaml := fmt.Sprintf("discourse:\n  url: %s\n  api_key: %s\n  requests_per_minute: 6000\nbot:\n  mode: queue\nstore:\n  path: %s\nsweeps:\n  unanswered:\n    min_age: 0s\n    allowed_tags: [oom]\n",
		forum.URL, discoursetest.BotAPIKey, filepath.Join(dir, "h.db"))
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCmd(t, "", "sweep", "--once", "--dry-run", "--config", cfg)
	if err != nil || !strings.Contains(out, "## Herald digest") || !strings.Contains(out, "Running out of memory") {
		t.Fatalf("dry run: %v\n%s", err, out)
	}
	list, _, _ := runCmd(t, "", "queue", "list", "--config", cfg)
	if strings.Contains(list, "pending") {
		t.Errorf("a dry run queued drafts:\n%s", list)
	}
	out, _, err = runCmd(t, "", "sweep", "--once", "--config", cfg)
	if err != nil || !strings.Contains(out, "drafts queued") {
		t.Fatalf("sweep: %v\n%s", err, out)
	}
	list, _, _ = runCmd(t, "", "queue", "list", "--config", cfg)
	if !strings.Contains(list, "pending") {
		t.Errorf("the sweep queued nothing:\n%s", list)
	}
	out, _, err = runCmd(t, "", "kb", "learn", "--since", "2020-01-01", "--config", cfg)
	if err != nil || !strings.Contains(out, "proposed") {
		t.Errorf("kb learn: %v %s", err, out)
	}
	if _, _, err := runCmd(t, "", "sweep", "--config", cfg); err == nil {
		t.Error("sweep without --once ran")
	}
}
