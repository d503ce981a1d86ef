package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/heraldbot/herald/store"
)

func TestQueueCLI(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "h.db")
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	for i, key := range []string{"reply:1:1", "reply:2:2"} {
		payload, _ := json.Marshal(map[string]any{"topic_title": "Topic " + key, "draft": "the draft", "topic_id": i + 1})
		if _, err := db.Record(context.Background(), []store.Action{{Kind: "reply", Key: key, TopicID: i + 1, PostID: i + 1,
			Payload: payload, Confidence: 0.5, State: store.StatePending, Mode: "queue"}}); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	out, _, err := runCmd(t, "", "queue", "list", "--db", path)
	if err != nil || strings.Count(out, "pending") != 2 {
		t.Fatalf("list: %q %v", out, err)
	}
	if _, _, err := runCmd(t, "", "queue", "approve", "1", "--db", path); err == nil {
		t.Error("approve without --as succeeded")
	}
	out, _, err = runCmd(t, "an edited draft, checked by staff", "queue", "edit", "1", "--db", path, "--as", "maria", "--file", "-")
	if err != nil || !strings.Contains(out, "edited and approved by maria") {
		t.Fatalf("edit: %q %v", out, err)
	}
	if _, _, err := runCmd(t, "", "queue", "approve", "1", "--db", path, "--as", "maria"); err == nil || !strings.Contains(err.Error(), "not pending") {
		t.Errorf("second approval: %v", err)
	}
	if _, _, err := runCmd(t, "", "queue", "reject", "2", "--db", path, "--as", "maria"); err == nil {
		t.Error("reject without a reason succeeded")
	}
	if _, _, err := runCmd(t, "", "queue", "reject", "2", "--db", path, "--as", "maria", "--reason", "off topic"); err != nil {
		t.Fatal(err)
	}
	out, _, err = runCmd(t, "", "queue", "show", "1", "--db", path)
	if err != nil || !strings.Contains(out, "an edited draft") || !strings.Contains(out, `"decided_by": "cli:maria"`) {
		t.Errorf("show: %q %v", out, err)
	}
	out, _, err = runCmd(t, "", "history", "--db", path)
	if err != nil || !strings.Contains(out, "off topic") || !strings.Contains(out, "approved") {
		t.Errorf("history: %q %v", out, err)
	}
}
