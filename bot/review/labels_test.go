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

// replyIn records a reply to topic's first post in state, like draftFor,
// and returns its id.
func replyIn(t *testing.T, db *store.DB, topic int, state string) int64 {
	t.Helper()
	id := draftFor(t, db, topic, "queue")
	if state != store.StatePending {
		if err := db.Transition(context.Background(), id, []string{store.StatePending}, state, "", "test"); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

// TestJudgeSilentAndPosted: staff's judgement of a reply Herald kept
// silent on, logged in shadow mode or posted makes a labelled post of it,
// without moving the reply; a later judgement replaces an earlier one;
// silent replies nobody judged are no label and are not counted as
// decisions that said nothing.
func TestJudgeSilentAndPosted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := newDB(t)
	if _, err := db.UpsertEntries(ctx, []knowledge.Entry{{ID: "o/r#12", Kind: "issue", URL: "https://github.com/o/r/issues/12", Title: "Twelve", Source: "test"}}, nil); err != nil {
		t.Fatal(err)
	}
	judge := func(id int64, d Decision) {
		t.Helper()
		d.ActionID, d.Actor, d.Verb = id, "maria", Judge
		o, err := Decide(ctx, db, d)
		if err != nil || o.Past() != "judged" {
			t.Fatalf("action %d: %q %v", id, o.Past(), err)
		}
	}
	silent := replyIn(t, db, 1, store.StateDropped)
	judge(silent, Decision{Fits: []string{"o/r#12"}})
	shadow := replyIn(t, db, 2, store.StateShadow)
	judge(shadow, Decision{Fits: []string{"o/r#12"}})
	judge(shadow, Decision{NothingFits: true}) // replaces the first judgement
	posted := draftFor(t, db, 3, "auto")
	judge(posted, Decision{NotSupport: true})
	replyIn(t, db, 4, store.StateDropped) // silent, never judged

	cases, st, err := Labels(ctx, db, func(topic, post int) string { return fmt.Sprintf("https://forum.example/t/%d/%d", topic, post) })
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bench.Case{
		"topic-1-post-1": {Category: bench.Support, Answers: []string{"o/r#12"}},
		"topic-2-post-1": {Category: bench.Abstain},
		"topic-3-post-1": {Category: bench.NotSupport},
	}
	if len(cases) != len(want) || st != (LabelStats{Support: 1, Abstain: 1, NotSupport: 1}) {
		t.Errorf("%d cases, stats %+v; want 3 (one of each) and no unjudged decision", len(cases), st)
	}
	for _, c := range cases {
		if w, ok := want[c.ID]; !ok || c.Category != w.Category || !slices.Equal(c.Answers, w.Answers) {
			t.Errorf("%s: %s %v; want %s %v", c.ID, c.Category, c.Answers, w.Category, w.Answers)
		}
	}
	for id, state := range map[int64]string{silent: store.StateDropped, shadow: store.StateShadow, posted: store.StateDone} {
		a, err := db.Action(ctx, id)
		if err != nil || a.State != state || a.DecidedBy != "" {
			t.Errorf("action %d: %+v %v; a judgement moved it", id, a, err)
		}
	}
	audit, err := db.Audit(ctx, shadow)
	if err != nil || len(audit) != 2 || audit[1].Verb != "judge" || audit[1].Actor != "maria" ||
		audit[1].Detail != "nothing in the knowledge base answers it" || audit[0].Detail != "answered by o/r#12" {
		t.Errorf("audit of the judged shadow reply: %+v %v", audit, err)
	}
}

// TestJudgeRefused: a judgement is given of a finished reply only, says
// exactly one thing, and names entries the knowledge base holds; nothing
// changes when it is refused.
func TestJudgeRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := newDB(t)
	tag := record(t, db, store.Action{Kind: action.KindTag, Key: "tag:9", TopicID: 9, Payload: []byte(`{"topic_id":9}`), State: store.StateDone, Mode: "auto"})
	for _, tc := range []struct {
		name string
		id   int64
		d    Decision
	}{
		{"pending: judged with its rejection", replyIn(t, db, 20, store.StatePending), Decision{NothingFits: true}},
		{"approved: on its way", replyIn(t, db, 21, store.StateApproved), Decision{NothingFits: true}},
		{"says nothing", replyIn(t, db, 22, store.StateDropped), Decision{}},
		{"says two things", replyIn(t, db, 23, store.StateDropped), Decision{NothingFits: true, NotSupport: true}},
		{"an entry not in the knowledge base", replyIn(t, db, 24, store.StateDropped), Decision{Fits: []string{"no/such#1"}}},
		{"blank entry ids", replyIn(t, db, 25, store.StateDropped), Decision{Fits: []string{" ", ""}}},
		{"not a reply", tag, Decision{NothingFits: true}},
	} {
		before, _ := db.Action(ctx, tc.id)
		tc.d.ActionID, tc.d.Actor, tc.d.Verb = tc.id, "maria", Judge
		_, err := Decide(ctx, db, tc.d)
		var invalid *InvalidError
		after, _ := db.Action(ctx, tc.id)
		if !errors.As(err, &invalid) || after.State != before.State || string(after.Payload) != string(before.Payload) {
			t.Errorf("%s: err %v, state %s → %s; want an InvalidError and nothing changed", tc.name, err, before.State, after.State)
		}
	}
	// Approving takes no judgement.
	if _, err := Decide(ctx, db, Decision{ActionID: replyIn(t, db, 26, store.StatePending), Actor: "maria", Verb: Approve, NotSupport: true}); err == nil {
		t.Error("an approval took a judgement")
	}
}
