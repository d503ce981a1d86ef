package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/heraldbot/herald/bench"
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

// TestQueueLabels: a rejection that says what fits is written out as a
// labelled post `herald kb fit` reads, with the forum's address as its
// source; one that says nothing is counted, not written.
func TestQueueLabels(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "h.db")
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	for i, key := range []string{"reply:1:1", "reply:2:1", "reply:3:1", "reply:4:1", "reply:5:1"} {
		payload, _ := json.Marshal(map[string]any{"topic_title": "Topic " + key, "draft": "the draft", "topic_id": i + 1,
			"post_number": 1, "question": "vllm serve m fails"})
		state := store.StatePending
		if i >= 3 {
			state = store.StateDropped // Herald kept silent on topics 4 and 5
		}
		if _, err := db.Record(context.Background(), []store.Action{{Kind: "reply", Key: key, TopicID: i + 1, PostID: i + 1,
			Payload: payload, Confidence: 0.5, State: state, Mode: "queue"}}); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	if _, _, err := runCmd(t, "", "queue", "reject", "1", "--db", path, "--as", "maria", "--reason", "wrong", "--nothing-fits"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "", "queue", "reject", "2", "--db", path, "--as", "maria", "--reason", "wrong", "--fits", "no/such#1"); err == nil ||
		!strings.Contains(err.Error(), `no knowledge entry "no/such#1"`) {
		t.Errorf("a rejection naming a missing entry: %v", err)
	}
	if _, _, err := runCmd(t, "", "queue", "approve", "2", "--db", path, "--as", "maria", "--nothing-fits"); err == nil {
		t.Error("an approval took --nothing-fits")
	}
	if _, _, err := runCmd(t, "", "queue", "reject", "3", "--db", path, "--as", "maria", "--reason", "too long"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "", "queue", "judge", "1", "--db", path, "--as", "maria", "--not-support", "--nothing-fits"); err == nil {
		t.Error("a judgement saying two things was taken")
	}
	stdout, _, err := runCmd(t, "", "queue", "judge", "4", "--db", path, "--as", "maria", "--not-support")
	if err != nil || !strings.Contains(stdout, "action 4 judged by maria") {
		t.Fatalf("judging a silent post: %q %v", stdout, err)
	}
	out := filepath.Join(dir, "labels.jsonl")
	_, stderr, err := runCmd(t, "", "queue", "labels", "--db", path, "--out", out, "--forum", "https://forum.example/")
	if err != nil || !strings.Contains(stderr, "2 labelled posts: 0 answered by the knowledge base, 1 by nothing in it, 1 not support questions; 1 decisions said nothing") {
		t.Fatalf("labels: %q %v", stderr, err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases, err := bench.ReadCases(f)
	if err != nil || len(cases) != 2 || cases[0].Category != bench.NotSupport || cases[0].Source != "https://forum.example/t/4/1" ||
		cases[1].Category != bench.Abstain || cases[1].Source != "https://forum.example/t/1/1" || cases[1].Body != "vllm serve m fails" {
		t.Errorf("labels file: %+v %v", cases, err)
	}
}
