package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

func TestRecordIsIdempotentAndMovesCursorTogether(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := mustOpen(t)
	a := Action{Kind: "reply", Key: "reply:1:1", TopicID: 1, PostID: 1, Payload: json.RawMessage(`{"draft":"x"}`), State: StateApproved, Mode: "auto"}
	n, err := db.Record(ctx, []Action{a}, CursorUpdate{"posts", 10})
	if err != nil || n != 1 {
		t.Fatalf("record: %d, %v", n, err)
	}
	a.State = StatePending // a replay of the same trigger must not change it
	n, err = db.Record(ctx, []Action{a}, CursorUpdate{"posts", 5})
	if err != nil || n != 0 {
		t.Fatalf("replay: %d, %v", n, err)
	}
	c, ok, err := db.Cursor(ctx, "posts")
	if err != nil || !ok || c != 10 {
		t.Errorf("cursor = %d %v %v; it must never move back", c, ok, err)
	}
	list, err := db.ListActions(ctx, ActionFilter{States: []string{StateApproved}})
	if err != nil || len(list) != 1 || list[0].State != StateApproved {
		t.Fatalf("actions = %+v, %v", list, err)
	}
	// A failing insert rolls the cursor back with it.
	ctx2, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := db.Record(ctx2, []Action{{Kind: "reply", Key: "reply:2:2", Payload: json.RawMessage(`{}`), State: StateApproved, Mode: "auto"}}, CursorUpdate{"posts", 20}); err == nil {
		t.Fatal("record with a cancelled context succeeded")
	}
	if c, _, _ := db.Cursor(ctx, "posts"); c != 10 {
		t.Errorf("cursor moved to %d without its action", c)
	}
}

func TestTransitionsAndConcurrentApprovals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := mustOpen(t)
	if _, err := db.Record(ctx, []Action{{Kind: "reply", Key: "k", TopicID: 3, PostID: 9, Payload: json.RawMessage(`{}`), State: StatePending, Mode: "queue"}}); err != nil {
		t.Fatal(err)
	}
	list, _ := db.ListActions(ctx, ActionFilter{})
	id := list[0].ID
	if err := db.UpdatePayload(ctx, id, json.RawMessage(`{"draft":"edited"}`)); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var ok, conflict int
	var mu sync.Mutex
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := db.Transition(ctx, id, []string{StatePending}, StateApproved, "maria", "")
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case errors.Is(err, ErrConflict):
				conflict++
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if ok != 1 || conflict != 7 {
		t.Fatalf("%d approvals and %d conflicts, want 1 and 7", ok, conflict)
	}
	if err := db.UpdatePayload(ctx, id, json.RawMessage(`{}`)); !errors.Is(err, ErrConflict) {
		t.Errorf("editing an approved action: %v", err)
	}
	n, err := db.StartAction(ctx, id)
	if err != nil || n != 1 {
		t.Fatalf("start: %d %v", n, err)
	}
	if n, err = db.StartAction(ctx, id); err != nil || n != 2 {
		t.Fatalf("restart after a crash: %d %v", n, err)
	}
	if err := db.FinishAction(ctx, id, StateDone, "post:77", ""); err != nil {
		t.Fatal(err)
	}
	a, err := db.Action(ctx, id)
	if err != nil || a.State != StateDone || a.Result != "post:77" || a.DecidedBy != "maria" || string(a.Payload) != `{"draft":"edited"}` {
		t.Fatalf("action = %+v, %v", a, err)
	}
	total, inTopic, err := db.DoneSince(ctx, "reply", time.Time{}, 3)
	if err != nil || total != 1 || inTopic != 1 {
		t.Errorf("done since: %d %d %v", total, inTopic, err)
	}
	if err := db.SetSetting(ctx, "paused", "true"); err != nil {
		t.Fatal(err)
	}
	if v, _ := db.Setting(ctx, "paused"); v != "true" {
		t.Errorf("setting = %q", v)
	}
}

// TestAnnotateOnlyOverWhatWasRead: a judgement replaces the payload it was
// made on, in one of the states given, with its audit record; of two made
// on the same payload at once exactly one lands, and a refused one writes
// no audit.
func TestAnnotateOnlyOverWhatWasRead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := mustOpen(t)
	old := json.RawMessage(`{"draft":""}`)
	if _, err := db.Record(ctx, []Action{{Kind: "reply", Key: "k", TopicID: 3, PostID: 9, Payload: old, State: StateDropped, Mode: "auto"}}); err != nil {
		t.Fatal(err)
	}
	list, _ := db.ListActions(ctx, ActionFilter{})
	id := list[0].ID
	if err := db.Annotate(ctx, id, []string{StateDone}, old, []byte(`{"nothing_fits":true}`), "maria", "judge", "x"); !errors.Is(err, ErrConflict) {
		t.Errorf("annotating a dropped action as if done: %v; want ErrConflict", err)
	}
	if err := db.Annotate(ctx, id, nil, old, []byte(`{}`), "maria", "judge", "x"); err == nil {
		t.Error("annotating in no state succeeded")
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = db.Annotate(ctx, id, []string{StateDropped}, old, fmt.Appendf(nil, `{"fits":["e%d"]}`, i), "staff", "judge", "fits")
		}()
	}
	wg.Wait()
	landed := 0
	for _, err := range errs {
		switch {
		case err == nil:
			landed++
		case !errors.Is(err, ErrConflict):
			t.Errorf("annotate: %v", err)
		}
	}
	a, err := db.Action(ctx, id)
	audit, _ := db.Audit(ctx, id)
	if landed != 1 || err != nil || a.State != StateDropped || len(audit) != 1 || audit[0].Verb != "judge" {
		t.Errorf("%d of two landed; action %+v %v, audit %+v; want one, still dropped, one audit record", landed, a, err, audit)
	}
}
