package bot

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

const oomPost = "vllm serve --port 8085 google/diffusiongemma-26B-A4B-it --cpu-offload-gb 100 --gpu-memory-utilization 0.1\n\n" +
	"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 968.00 MiB. GPU 0 has a total capacity of 15.98 GiB of which 354.00 MiB is free.\n\nvllm 0.24.0+rocm725"

// actionsFor returns the logged actions of a topic.
func (h *harness) actionsFor(topicID int) []store.Action {
	h.t.Helper()
	acts, err := h.db.ListActions(context.Background(), store.ActionFilter{TopicID: topicID, Limit: 100})
	if err != nil {
		h.t.Fatal(err)
	}
	return acts
}

// TestMentionsObeyEveryRail: a mention in a skip-tagged topic, by a poster
// below the minimum trust level, or inside a private message gets no
// answer and no action, in auto mode where "asked directly" would post.
func TestMentionsObeyEveryRail(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Mode: ModeAuto, SkipTags: []string{"no-bot"}, MinTrustLevel: 2})
	h.cycle() // answers the seeded topics; what follows is new
	tagged, _, err := h.forum.CreateTopic("maria", h.demo.Support.ID, "Tagged topic", "Staff discuss here.", "no-bot")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.forum.Reply("bob", tagged.ID, "@herald what do you think?\n\n"+oomPost, 0); err != nil {
		t.Fatal(err)
	}
	low, _, err := h.forum.CreateTopic("bob", h.demo.Support.ID, "A question from bob", "Does the server support LoRA?")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.forum.Reply("alice", low.ID, "@herald please look at this\n\n"+oomPost, 0); err != nil { // alice is trust level 1
		t.Fatal(err)
	}
	pm, _, err := h.forum.CreatePrivateMessage("bob", "Private question", "@herald can you help?\n\n"+oomPost, "herald")
	if err != nil {
		t.Fatal(err)
	}
	h.cycle()
	h.cycle()
	for name, id := range map[string]int{"skip tag": tagged.ID, "trust level": low.ID, "private message": pm.ID} {
		if got := h.botPosts(id); len(got) != 0 {
			t.Errorf("%s: the bot posted %d times", name, len(got))
		}
		for _, a := range h.actionsFor(id) {
			var r Reply
			_ = json.Unmarshal(a.Payload, &r)
			if r.Trigger != TriggerNewTopic || id == pm.ID {
				// bob's own topic is triaged as a new topic; nothing else
				// may be logged (a private message's must not reach the
				// queue or use the budget).
				t.Errorf("%s: a %s action was logged: %s", name, r.Trigger, a.Reason)
			}
		}
	}
}

// TestRunnerRechecksTagsAndArchetype: an approved reply whose topic was
// tagged no-bot after the decision is skipped, not posted.
func TestRunnerRechecksTagsAndArchetype(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Mode: ModeQueue, SkipTags: []string{"no-bot"}})
	topic, _, err := h.forum.CreateTopic("bob", h.demo.Support.ID, "OOM again", oomPost)
	if err != nil {
		t.Fatal(err)
	}
	h.cycle()
	acts := h.actionsFor(topic.ID)
	if len(acts) != 1 || acts[0].State != store.StatePending {
		t.Fatalf("actions = %+v, want one pending", acts)
	}
	h.forum.SetTags(topic.ID, "no-bot")
	if err := h.db.Transition(context.Background(), acts[0].ID, []string{store.StatePending}, store.StateApproved, "maria", ""); err != nil {
		t.Fatal(err)
	}
	h.cycle()
	if got := h.botPosts(topic.ID); len(got) != 0 {
		t.Errorf("posted into a topic tagged no-bot")
	}
	if a := h.actionsFor(topic.ID)[0]; a.State != store.StateSkipped || !strings.Contains(a.Error+a.Reason+a.Result, "no-bot") {
		t.Errorf("action = %+v, want skipped for the tag", a)
	}
}

// TestMentionCapPerUser: one account cannot make the bot answer more than
// MaxMentionsPerUser mentions a day.
func TestMentionCapPerUser(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Mode: ModeAuto, MaxMentionsPerUser: 2, HourlyBudget: 100})
	h.cycle()
	var topics []int
	for i := range 4 {
		topic, _, err := h.forum.CreateTopic("maria", h.demo.Support.ID, "Thread "+string(rune('A'+i)), "Staff notes about the release.")
		if err != nil {
			t.Fatal(err)
		}
		topics = append(topics, topic.ID)
		if _, err := h.forum.Reply("bob", topic.ID, "@herald help please\n\n"+oomPost, 0); err != nil {
			t.Fatal(err)
		}
	}
	h.cycle()
	h.cycle()
	answered := 0
	for _, id := range topics {
		for _, a := range h.actionsFor(id) {
			var r Reply
			_ = json.Unmarshal(a.Payload, &r)
			if r.Trigger == TriggerMention {
				answered++
			}
		}
	}
	if answered != 2 {
		t.Errorf("%d mentions by one user answered, want the cap of 2", answered)
	}
}

// mentionIn posts a reply mentioning the bot with body in a new staff
// topic, runs two cycles and returns the topic and the mention's actions
// with their payloads.
func mentionIn(t *testing.T, h *harness, body string) (int, []store.Action, []Reply) {
	t.Helper()
	h.cycle()
	topic, _, err := h.forum.CreateTopic("maria", h.demo.Support.ID, "Notes", "Staff notes about the release.")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.forum.Reply("bob", topic.ID, body, 0); err != nil {
		t.Fatal(err)
	}
	h.cycle()
	h.cycle()
	var actions []store.Action
	var replies []Reply
	for _, a := range h.actionsFor(topic.ID) {
		var r Reply
		_ = json.Unmarshal(a.Payload, &r)
		if r.Trigger == TriggerMention {
			actions, replies = append(actions, a), append(replies, r)
		}
	}
	if len(actions) != 1 {
		t.Errorf("%d mention actions, want 1", len(actions))
	}
	return topic.ID, actions, replies
}

// TestForcedAnswerBelowTheFloorIsQueued: asked directly on evidence below
// the queue floor, the bot queues its draft for staff instead of posting.
func TestForcedAnswerBelowTheFloorIsQueued(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Mode: ModeAuto, QueueFloor: 0.999999})
	topic, actions, replies := mentionIn(t, h, "@herald is this known?\n\n"+oomPost)
	for i, a := range actions {
		if !draftCites(replies[i].Draft) || a.State != store.StatePending {
			t.Errorf("forced answer at confidence %.3f is %s (cites: %v), want a pending draft with sources", a.Confidence, a.State, draftCites(replies[i].Draft))
		}
	}
	if got := h.botPosts(topic); len(got) != 0 && strings.Contains(got[0].Raw, "](http") {
		t.Errorf("posted a cited answer below the floor")
	}
}

// TestForcedAnswerOffScopeIsQueued: asked directly about another
// engine's problem, the bot queues its draft for staff instead of posting
// the main package's advice.
func TestForcedAnswerOffScopeIsQueued(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Mode: ModeAuto})
	topic, actions, replies := mentionIn(t, h, "@herald is this known? I run lmdeploy, not the other one.\n\n"+strings.ReplaceAll(oomPost, "vllm", "lmdeploy"))
	for i, a := range actions {
		if replies[i].Facts.OtherEngine != "lmdeploy" || a.State != store.StatePending || !strings.Contains(a.Reason, "about lmdeploy") {
			t.Errorf("forced answer about %q is %s (%s), want a pending draft", replies[i].Facts.OtherEngine, a.State, a.Reason)
		}
	}
	if got := h.botPosts(topic); len(got) != 0 {
		t.Errorf("posted about another engine: %q", got[0].Raw)
	}
}

// TestForcedAnswerToARefusedCommandLineIsQueued: asked directly about a
// command line the server refused, with a top match that does not speak
// of the refusal (vllm-project/vllm#2235's form: docker's -p after the
// image, read by vLLM as -pp), the bot queues its draft for staff
// instead of posting the Docker page's shared-memory advice.
func TestForcedAnswerToARefusedCommandLineIsQueued(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Mode: ModeAuto})
	topic, actions, replies := mentionIn(t, h, "@herald any idea? Running the docker image on a cloud template I get:\n"+
		"`api_server.py: error: argument --pipeline-parallel-size/-pp: invalid int value: '8000:8000`\n\n"+
		"I followed the [docs](https://docs.vllm.ai/en/latest/serving/deploying_with_docker.html).")
	if len(actions) == 0 {
		t.Fatal("no action for the mention")
	}
	for i, a := range actions {
		if a.State != store.StatePending || !strings.Contains(a.Reason, "command line was refused") {
			t.Errorf("forced answer to a refused command line (top %s) is %s (%s), want a pending draft", firstID(replies[i].Matches), a.State, a.Reason)
		}
	}
	if got := h.botPosts(topic); len(got) != 0 {
		t.Errorf("posted advice that does not speak of the refusal: %q", got[0].Raw)
	}
}

// TestRunnerRefusesANonInertDraft: a draft the bot wrote that is not inert
// (an image, as a broken composer might write) fails instead of posting.
func TestRunnerRefusesANonInertDraft(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Mode: ModeQueue})
	topic, p, err := h.forum.CreateTopic("bob", h.demo.Support.ID, "A topic", "vllm serve fails with an error")
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(Reply{Trigger: TriggerNewTopic, TopicID: topic.ID, PostID: p.ID, PostNumber: 1,
		Draft: "Look: ![](https://tracker.example/p.gif)"})
	ctx := context.Background()
	if _, err := h.db.Record(ctx, []store.Action{{Kind: "reply", Key: ActionKey(topic.ID, p.ID), TopicID: topic.ID, PostID: p.ID,
		Payload: payload, State: store.StateApproved, Mode: "queue"}}); err != nil {
		t.Fatal(err)
	}
	if err := h.bot.RunActions(ctx); err != nil {
		t.Fatal(err)
	}
	if got := h.botPosts(topic.ID); len(got) != 0 {
		t.Fatalf("posted a non-inert draft: %q", got[0].Raw)
	}
	if a := h.actionsFor(topic.ID)[0]; a.State != store.StateFailed {
		t.Errorf("state %s, want failed", a.State)
	}
}

// TestReadinessSaysWhy: /healthz is ready only when the last poll reached
// the forum with the key accepted; otherwise it says why.
func TestReadinessSaysWhy(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Mode: ModeShadow})
	if ok, reason := h.bot.Ready(); ok || !strings.Contains(reason, "not been polled") {
		t.Errorf("before the first poll: %v %q", ok, reason)
	}
	h.cycle()
	if ok, reason := h.bot.Ready(); !ok {
		t.Errorf("after a good poll: not ready: %s", reason)
	}
	a := newTestAnswerer(t)
	wrongKey, err := discourse.NewClient(h.forum.URL, discourse.WithAPIKey("wrong-key", "herald"), discourse.WithRequestBudget(0, 0), discourse.WithRetries(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := New(wrongKey, a.DB, a, Options{Username: "herald"}, nil, nil)
	_ = b.Cycle(context.Background())
	if ok, reason := b.Ready(); ok || !strings.Contains(reason, "rejects the API key") {
		t.Errorf("wrong key: %v %q", ok, reason)
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	url := closed.URL
	closed.Close()
	gone, _ := discourse.NewClient(url, discourse.WithRequestBudget(0, 0), discourse.WithRetries(0, 0))
	b, _ = New(gone, a.DB, a, Options{Username: "herald"}, nil, nil)
	_ = b.Cycle(context.Background())
	if ok, reason := b.Ready(); ok || !strings.Contains(reason, "unreachable") {
		t.Errorf("unreachable forum: %v %q", ok, reason)
	}
}

// firstID is the ID of a reply's top match, or "none".
func firstID(ms []knowledge.Match) string {
	if len(ms) == 0 {
		return "none"
	}
	return ms[0].ID
}
