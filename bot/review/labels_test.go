package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/heraldbot/herald/bench"
	"github.com/heraldbot/herald/bot/action"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

// draftFor records a pending reply to topic's first post that cites two
// entries, and returns its id.
func draftFor(t *testing.T, db *store.DB, topic int, mode string) int64 {
	t.Helper()
	r := action.Reply{TopicID: topic, TopicTitle: fmt.Sprintf("Topic %d", topic), PostNumber: 1,
		Question: "vllm serve m --max-model-len 131072 fails with ValueError: KV cache too small",
		Draft:    "Likely the [KV cache limit](https://docs.example/kv/) ([#1](https://github.com/o/r/issues/1)). Mention @herald.",
		Matches: []knowledge.Match{
			{ID: "docs:kv", URL: "https://docs.example/kv"},
			{ID: "o/r#1", URL: "https://github.com/o/r/issues/1"},
			{ID: "o/r#12", URL: "https://github.com/o/r/issues/12"},
		},
		Cited: []string{"docs:kv", "o/r#1"}}
	kind, payload, err := action.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	state := store.StatePending
	if mode == "auto" {
		state = store.StateDone
	}
	return record(t, db, store.Action{Kind: kind, Key: fmt.Sprintf("reply:%d:%s", topic, mode), TopicID: topic, PostID: topic,
		Payload: payload, Confidence: 0.7, State: state, Mode: mode})
}

func TestLabels(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := newDB(t)
	if _, err := db.UpsertEntries(ctx, []knowledge.Entry{{ID: "o/r#12", Kind: "issue", URL: "https://github.com/o/r/issues/12", Title: "Twelve", Source: "test"}}, nil); err != nil {
		t.Fatal(err)
	}
	decide := func(topic int, d Decision) {
		t.Helper()
		d.ActionID, d.Actor = draftFor(t, db, topic, "queue"), "maria"
		if _, err := Decide(ctx, db, d); err != nil {
			t.Fatalf("topic %d: %v", topic, err)
		}
	}
	decide(1, Decision{Verb: Approve})
	decide(2, Decision{Verb: Approve, Draft: "It is the [KV cache limit](https://docs.example/kv). Mention @herald."})
	decide(3, Decision{Verb: Approve, Draft: "Upgrade to the latest release."})
	decide(10, Decision{Verb: Approve, Draft: "Not that one: see [twelve](https://github.com/o/r/issues/12/), and a [blog](https://blog.example/x)."})
	decide(4, Decision{Verb: Reject, Reason: "wrong issue", Fits: []string{"o/r#12", " o/r#12"}})
	decide(5, Decision{Verb: Reject, Reason: "not a vLLM problem", NothingFits: true})
	decide(6, Decision{Verb: Reject, Reason: "too long"})
	draftFor(t, db, 7, "queue") // still pending: no decision yet
	accepted, notAccepted := draftFor(t, db, 8, "auto"), draftFor(t, db, 9, "auto")
	if err := db.RecordOutcome(ctx, accepted, []string{"docs:kv", "o/r#1"}, store.Outcome{Accepted: true}); err != nil {
		t.Fatal(err)
	}
	if err := db.RecordOutcome(ctx, notAccepted, []string{"docs:kv", "o/r#1"}, store.Outcome{Liked: true}); err != nil {
		t.Fatal(err)
	}

	cases, st, err := Labels(ctx, db, func(topic, post int) string { return fmt.Sprintf("https://forum.example/t/%d/%d", topic, post) })
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bench.Case{
		"topic-1-post-1": {Category: bench.Support, Answers: []string{"docs:kv", "o/r#1"}},
		"topic-2-post-1": {Category: bench.Support, Answers: []string{"docs:kv"}}, // the edit dropped #1
		"topic-3-post-1": {Category: bench.Abstain},                               // answered without the knowledge base
		"topic-4-post-1": {Category: bench.Support, Answers: []string{"o/r#12"}},
		"topic-5-post-1": {Category: bench.Abstain},
		"topic-8-post-1": {Category: bench.Support, Answers: []string{"docs:kv", "o/r#1"}},
		// Staff linked an entry the draft did not cite, and a page that is
		// no entry.
		"topic-10-post-1": {Category: bench.Support, Answers: []string{"o/r#12"}},
	}
	if len(cases) != len(want) || st.Support != 5 || st.Abstain != 2 || st.Unjudged != 2 {
		t.Errorf("%d cases, stats %+v; want %d, 5 support, 2 abstain, 2 unjudged (topics 6 and 9)", len(cases), st, len(want))
	}
	for _, c := range cases {
		w, ok := want[c.ID]
		if !ok || c.Category != w.Category || !slices.Equal(c.Answers, w.Answers) {
			t.Errorf("%s: %s %v; want %s %v", c.ID, c.Category, c.Answers, w.Category, w.Answers)
		}
		if c.Source != "https://forum.example/t/"+c.ID[len("topic-"):len(c.ID)-len("-post-1")]+"/1" || c.Body == "" || c.Title == "" {
			t.Errorf("%s: source %q, title %q, body %q", c.ID, c.Source, c.Title, c.Body)
		}
	}
}

// TestRejectJudgement: which entries fit is said with a rejection only,
// not both ways, and only with entries the knowledge base holds; nothing
// is changed when it is refused.
func TestRejectJudgement(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := newDB(t)
	for i, d := range []Decision{
		{Verb: Reject, Reason: "wrong", Fits: []string{"no/such#1"}},
		{Verb: Reject, Reason: "wrong", Fits: []string{"o/r#1"}, NothingFits: true},
		{Verb: Approve, NothingFits: true},
	} {
		d.ActionID, d.Actor = draftFor(t, db, 100+i, "queue"), "maria"
		_, err := Decide(ctx, db, d)
		var invalid *InvalidError
		a, _ := db.Action(ctx, d.ActionID)
		if !errors.As(err, &invalid) || a.State != store.StatePending {
			t.Errorf("%+v: err %v, state %s; want an InvalidError and the draft still pending", d, err, a.State)
		}
		var r action.Reply
		if err := json.Unmarshal(a.Payload, &r); err != nil || r.NothingFits || len(r.Fits) > 0 {
			t.Errorf("%+v: payload changed: %s", d, a.Payload)
		}
	}
}
