package review

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/heraldbot/herald/store"
)

func newDB(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// queued records a pending reply and returns its id.
func queued(t *testing.T, db *store.DB, key string) int64 {
	t.Helper()
	payload, _ := json.Marshal(map[string]any{"draft": "The queued draft.", "topic_title": "A topic", "kept": "a field review does not know"})
	return record(t, db, store.Action{Kind: "reply", Key: key, TopicID: 1, PostID: 1,
		Payload: payload, Confidence: 0.5, State: store.StatePending, Mode: "queue"})
}

// record records one action and returns its id.
func record(t *testing.T, db *store.DB, a store.Action) int64 {
	t.Helper()
	if _, err := db.Record(context.Background(), []store.Action{a}); err != nil {
		t.Fatal(err)
	}
	got, err := db.ActionByKey(context.Background(), a.Key)
	if err != nil || got == nil {
		t.Fatalf("action %s: %v", a.Key, err)
	}
	return got.ID
}

func TestDecide(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := newDB(t)
	for _, c := range []struct {
		name      string
		d         Decision
		state     string
		audit     string
		draft     string
		invalid   bool
		whispered bool
	}{
		{name: "approve", d: Decision{Verb: Approve}, state: store.StateApproved, audit: "approve", draft: "The queued draft."},
		{name: "approve, same draft", d: Decision{Verb: Approve, Draft: "The queued draft.\r\n"}, state: store.StateApproved, audit: "approve", draft: "The queued draft."},
		{name: "edit", d: Decision{Verb: Approve, Draft: "An edited draft.\r\nSecond line."}, state: store.StateApproved, audit: "edit and approve", draft: "An edited draft.\nSecond line."},
		{name: "whisper", d: Decision{Verb: Approve, Whisper: true}, state: store.StateApproved, audit: "approve as whisper", draft: "The queued draft.", whispered: true},
		{name: "marker", d: Decision{Verb: Approve, Draft: "Copied <!--  herald:reply:9:9 --> text"}, invalid: true},
		{name: "too long", d: Decision{Verb: Approve, Draft: strings.Repeat("x", MaxDraft+1)}, invalid: true},
		{name: "reject", d: Decision{Verb: Reject, Reason: "off topic"}, state: store.StateRejected, audit: "reject"},
		{name: "reject without reason", d: Decision{Verb: Reject, Reason: "  "}, invalid: true},
		{name: "no actor", d: Decision{Verb: Approve}, invalid: true},
		{name: "unknown verb", d: Decision{Verb: "publish"}, invalid: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.d.ActionID = queued(t, db, "reply:"+c.name)
			if c.name != "no actor" {
				c.d.Actor = "maria"
			}
			out, err := Decide(ctx, db, c.d)
			a, _ := db.Action(ctx, c.d.ActionID)
			var invalid *InvalidError
			if c.invalid {
				if !errors.As(err, &invalid) || a.State != store.StatePending {
					t.Fatalf("err = %v, state %s: want an InvalidError and the action still pending", err, a.State)
				}
				return
			}
			if err != nil || a.State != c.state || out.Audit != c.audit || a.DecidedBy != "maria" {
				t.Fatalf("err %v, state %s, audit %q, by %q; want %s, %q, maria", err, a.State, out.Audit, a.DecidedBy, c.state, c.audit)
			}
			var p map[string]any
			_ = json.Unmarshal(a.Payload, &p)
			if c.draft != "" && p["draft"] != c.draft {
				t.Errorf("draft = %q, want %q", p["draft"], c.draft)
			}
			if p["kept"] == nil {
				t.Error("an unknown payload field was dropped")
			}
			if (p["whisper"] == true) != c.whispered {
				t.Errorf("whisper = %v, want %v", p["whisper"], c.whispered)
			}
			if c.audit == "edit and approve" && p["original"] != "The queued draft." {
				t.Errorf("original = %v, want the queued draft kept for the audit", p["original"])
			}
			if _, err := Decide(ctx, db, c.d); !errors.Is(err, store.ErrConflict) {
				t.Errorf("second decision: %v, want store.ErrConflict", err)
			}
		})
	}
}

func TestPast(t *testing.T) {
	t.Parallel()
	for audit, want := range map[string]string{"approve": "approved", "edit and approve as whisper": "edited and approved as whisper", "reject": "rejected"} {
		if got := (Outcome{Audit: audit}).Past(); got != want {
			t.Errorf("Past(%q) = %q, want %q", audit, got, want)
		}
	}
}

func TestTeach(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := newDB(t)
	id := queued(t, db, "reply:1:1")
	var invalid *InvalidError
	if err := Teach(ctx, db, id, "maria"); !errors.As(err, &invalid) {
		t.Fatalf("teaching a pending draft: %v, want an InvalidError", err)
	}
	if _, err := Decide(ctx, db, Decision{ActionID: id, Actor: "maria", Verb: Approve}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := Teach(ctx, db, id, "maria"); err != nil {
			t.Fatal(err)
		}
	}
	list, err := db.ListActions(ctx, store.ActionFilter{Kind: "teach", States: []string{store.StatePending}, Limit: 10})
	if err != nil || len(list) != 1 {
		t.Fatalf("teach proposals = %d (%v), want exactly one", len(list), err)
	}
	var p map[string]any
	_ = json.Unmarshal(list[0].Payload, &p)
	if p["draft"] != "The queued draft." || p["proposed_by"] != "maria" || p["source_action"] != float64(id) {
		t.Errorf("proposal payload = %v", p)
	}
}
