package main

import (
	"strings"
	"testing"

	"github.com/heraldbot/herald/discourse/discoursetest"
)

func TestSweepAndLearnCommands(t *testing.T) {
	t.Parallel()
	cfg := seededForumConfig(t, discoursetest.BotAPIKey, "bot:\n  mode: queue\nsweeps:\n  unanswered:\n    min_age: 0s\n    allowed_tags: [oom]\n")
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
