package bot

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/discourse/discoursetest"
	"github.com/heraldbot/herald/store"
)

type harness struct {
	t     *testing.T
	forum *discoursetest.Server
	demo  *discoursetest.Demo
	bot   *Bot
	db    *store.DB
}

// newHarness seeds a fake forum and a bot over a real store holding the
// vLLM pack, triaging the seeded topics (backfill).
// newBotClient is the bot's client for a fake forum in tests: no request
// budget and fast retries.
func newBotClient(t *testing.T, forumURL string) *discourse.Client {
	t.Helper()
	c, err := discourse.NewClient(forumURL, discourse.WithAPIKey(discoursetest.BotAPIKey, "herald"),
		discourse.WithRequestBudget(0, 0), discourse.WithRetries(1, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func newHarness(t *testing.T, opts Options) *harness {
	t.Helper()
	forum := discoursetest.New(discoursetest.WithRateLimit(0))
	t.Cleanup(forum.Close)
	demo := forum.Seed("herald")
	forum.AddUser(discoursetest.User{Username: "otherbot", TrustLevel: 1})
	c := newBotClient(t, forum.URL)
	a := newTestAnswerer(t)
	opts.Username = "herald"
	if opts.Backfill == 0 {
		opts.Backfill = 24 * time.Hour
	}
	opts.IgnoreUsers = append(opts.IgnoreUsers, "otherbot")
	b, err := New(c, a.DB, a, opts, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, forum: forum, demo: demo, bot: b, db: a.DB}
}

func (h *harness) cycle() {
	h.t.Helper()
	if err := h.bot.Cycle(context.Background()); err != nil {
		h.t.Fatalf("cycle: %v", err)
	}
}

// botPosts returns the bot's posts in a topic.
func (h *harness) botPosts(topicID int) []discoursetest.Post {
	var out []discoursetest.Post
	for _, p := range h.forum.Posts(topicID) {
		if u := h.forum.User("herald"); u != nil && p.UserID == u.ID {
			out = append(out, p)
		}
	}
	return out
}

func (h *harness) topicByTitle(prefix string) int {
	for id := 1; id < 100; id++ {
		if t, ok := h.forum.TopicByID(id); ok && strings.HasPrefix(t.Title, prefix) {
			return id
		}
	}
	h.t.Fatalf("no topic %q", prefix)
	return 0
}

func TestAutoModeAnswersOnceWithSources(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Mode: ModeAuto})
	h.cycle()
	h.cycle() // a second cycle must not post again
	oom := h.botPosts(h.demo.OOMTopic.ID)
	if len(oom) != 1 {
		t.Fatalf("bot posts in the OOM topic = %d, want 1", len(oom))
	}
	for _, want := range []string{"**From the docs**", "github.com/vllm-project/vllm/issues/51396", "1.6 GiB", "<!-- herald:reply:"} {
		if !strings.Contains(oom[0].Raw, want) {
			t.Errorf("reply lacks %q", want)
		}
	}
	if strings.Contains(oom[0].Cooked, "herald:reply") {
		t.Error("the marker is visible in the cooked post")
	}
	if oom[0].ReplyToPostNumber != 1 {
		t.Errorf("reply_to_post_number = %d", oom[0].ReplyToPostNumber)
	}
	if got := h.botPosts(h.topicByTitle("Grafana")); len(got) != 0 {
		t.Errorf("the bot answered an unrelated question: %q", got[0].Raw)
	}
	if got := h.botPosts(h.topicByTitle("Welcome")); len(got) != 0 {
		t.Error("the bot answered a staff announcement")
	}
	counts, _ := h.db.CountActions(context.Background())
	if counts[store.StateDone] < 2 {
		t.Errorf("action states = %v", counts)
	}
}

func TestShadowModePostsNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{}) // shadow is the default
	before := len(h.forum.Posts(h.demo.OOMTopic.ID))
	h.cycle()
	if got := len(h.forum.Posts(h.demo.OOMTopic.ID)); got != before {
		t.Fatalf("shadow mode posted: %d → %d posts", before, got)
	}
	list, err := h.db.ListActions(context.Background(), store.ActionFilter{States: []string{store.StateShadow}})
	if err != nil || len(list) == 0 {
		t.Fatalf("shadow decisions = %d, %v", len(list), err)
	}
	var r Reply
	if err := json.Unmarshal(list[len(list)-1].Payload, &r); err != nil || !strings.Contains(r.Draft, "**From the docs**") {
		t.Errorf("shadow draft not logged: %v %q", err, r.Draft)
	}
}

func TestUncertainTopicIsQueued(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Mode: ModeAuto, AutoPost: 1.01}) // above any confidence
	h.cycle()
	if got := h.botPosts(h.demo.OOMTopic.ID); len(got) != 0 {
		t.Fatal("posted below the auto-post confidence")
	}
	pending, err := h.db.ListActions(context.Background(), store.ActionFilter{States: []string{store.StatePending}})
	if err != nil || len(pending) == 0 {
		t.Fatalf("pending = %d, %v", len(pending), err)
	}
	// Staff approve the first: the next cycle posts it.
	if err := h.db.Transition(context.Background(), pending[0].ID, []string{store.StatePending}, store.StateApproved, "maria", ""); err != nil {
		t.Fatal(err)
	}
	h.cycle()
	if got := h.botPosts(pending[0].TopicID); len(got) != 1 {
		t.Errorf("approved draft posted %d times", len(got))
	}
}

func TestFirstStartBeginsAtNewestPost(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Mode: ModeAuto, Backfill: -1})
	h.bot.opts.Backfill = 0
	h.cycle()
	if got := h.botPosts(h.demo.OOMTopic.ID); len(got) != 0 {
		t.Fatal("the bot answered history on its first start")
	}
	_, _, err := h.forum.CreateTopic("bob", h.demo.Support.ID, "OOM with --cpu-offload-gb on ROCm 0.24",
		"vllm serve google/diffusiongemma-26B-A4B-it --cpu-offload-gb 64 --gpu-memory-utilization 0.2\n\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 15.98 GiB of which 100.00 MiB is free.\n\nvllm 0.24.0+rocm725")
	if err != nil {
		t.Fatal(err)
	}
	h.cycle()
	if got := h.botPosts(h.topicByTitle("OOM with --cpu-offload-gb")); len(got) != 1 {
		t.Errorf("new topic after the first start: %d bot posts", len(got))
	}
}

func TestMentionFollowUpInALongThread(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Mode: ModeAuto})
	h.cycle()
	first := h.botPosts(h.demo.OOMTopic.ID)
	if len(first) != 1 {
		t.Fatalf("initial reply: %d", len(first))
	}
	for i := 0; i < 24; i++ {
		if _, err := h.forum.Reply("bob", h.demo.OOMTopic.ID, "Same problem on my side, subscribing to this thread. Any news?", 0); err != nil {
			t.Fatal(err)
		}
	}
	ask, err := h.forum.Reply("alice", h.demo.OOMTopic.ID, "@herald This just seems to be a bug related to DiffusionGemma. Similarly large models with the same settings work fine.", first[0].PostNumber)
	if err != nil {
		t.Fatal(err)
	}
	h.cycle()
	h.cycle()
	got := h.botPosts(h.demo.OOMTopic.ID)
	if len(got) != 2 {
		t.Fatalf("bot posts after the mention = %d, want 2", len(got))
	}
	follow := got[1]
	if follow.ReplyToPostNumber != ask.PostNumber {
		t.Errorf("follow-up replies to post %d, want %d", follow.ReplyToPostNumber, ask.PostNumber)
	}
	if !strings.Contains(follow.Raw, "specific to `google/diffusiongemma-26B-A4B-it`") {
		t.Errorf("follow-up ignores what the asker said:\n%s", follow.Raw)
	}
	// It does not repeat the first reply's sources.
	for _, m := range linkRE.FindAllStringSubmatch(first[0].Raw, -1) {
		if strings.Contains(follow.Raw, "("+m[1]+")") {
			t.Errorf("follow-up repeats %s", m[1])
		}
	}
}

func TestOtherBotsAreIgnored(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Mode: ModeAuto})
	h.cycle()
	topic, _, err := h.forum.CreateTopic("otherbot", h.demo.Support.ID, "Automated report: OOM on nightly CI",
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.00 GiB is free. @herald please triage")
	if err != nil {
		t.Fatal(err)
	}
	h.cycle()
	h.cycle()
	if got := h.botPosts(topic.ID); len(got) != 0 {
		t.Errorf("the bot answered another bot: %d posts", len(got))
	}
}

func TestPauseStopsPostingWithinOneCycle(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Mode: ModeAuto})
	ctx := context.Background()
	if err := h.db.SetSetting(ctx, "paused", "true"); err != nil {
		t.Fatal(err)
	}
	h.cycle()
	if got := h.botPosts(h.demo.OOMTopic.ID); len(got) != 0 {
		t.Fatal("posted while paused")
	}
	if err := h.db.SetSetting(ctx, "paused", "false"); err != nil {
		t.Fatal(err)
	}
	h.cycle()
	if got := h.botPosts(h.demo.OOMTopic.ID); len(got) != 1 {
		t.Errorf("after resume: %d posts", len(got))
	}
}

func TestRunnerRechecksTheLiveTopic(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Mode: ModeAuto, AutoPost: 1.01}) // above any confidence
	ctx := context.Background()
	h.cycle() // everything queued
	pending, _ := h.db.ListActions(ctx, store.ActionFilter{States: []string{store.StatePending}, Oldest: true})
	if len(pending) < 2 {
		t.Fatalf("pending = %d", len(pending))
	}
	h.forum.SetClosed(pending[0].TopicID, true)
	h.forum.DeleteTopic(pending[1].TopicID)
	for _, a := range pending[:2] {
		if err := h.db.Transition(ctx, a.ID, []string{store.StatePending}, store.StateApproved, "maria", ""); err != nil {
			t.Fatal(err)
		}
	}
	h.cycle()
	for _, a := range pending[:2] {
		got, _ := h.db.Action(ctx, a.ID)
		if got.State != store.StateSkipped {
			t.Errorf("action on a closed/deleted topic: %s (%s)", got.State, got.Error)
		}
	}
}

func TestLostResponseIsNotPostedTwice(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Mode: ModeAuto})
	h.forum.Inject("/posts.json", discoursetest.FaultLoseResponse)
	_ = h.bot.Cycle(context.Background()) // the first POST's answer is lost
	h.cycle()
	h.cycle()
	if got := h.botPosts(h.demo.OOMTopic.ID); len(got) != 1 {
		t.Errorf("bot posts = %d, want exactly 1", len(got))
	}
}

func TestQuietForumCostsOneRequestPerCycle(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Mode: ModeAuto})
	h.cycle()
	h.cycle()
	before := h.forum.TotalRequests()
	h.cycle()
	if got := h.forum.TotalRequests() - before; got != 1 {
		t.Errorf("a quiet cycle sent %d requests, want 1", got)
	}
}

func TestPerCategoryThreshold(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Mode: ModeAuto})
	h.bot.opts.CategoryAutoPost = map[int]float64{h.demo.Support.ID: 1.01} // above any confidence
	h.cycle()
	if got := h.botPosts(h.demo.OOMTopic.ID); len(got) != 0 {
		t.Error("posted below the category's auto-post confidence")
	}
}

// TestFirstStartOnAnEmptyForum: a bot first started on a forum with no
// posts answers the forum's first topic, also across a restart.
func TestFirstStartOnAnEmptyForum(t *testing.T) {
	t.Parallel()
	forum := discoursetest.New(discoursetest.WithRateLimit(0))
	defer forum.Close()
	forum.SeedBasic("herald")
	forum.AddAPIKey(discoursetest.BotAPIKey, "herald")
	a := newTestAnswerer(t)
	opts := Options{Username: "herald", Mode: ModeAuto}
	b, err := New(newBotClient(t, forum.URL), a.DB, a, opts, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := b.Cycle(ctx); err != nil {
		t.Fatal(err)
	}
	// A restart between the empty first poll and the first topic.
	b, err = New(newBotClient(t, forum.URL), a.DB, a, opts, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	topic, _, err := forum.CreateTopic("bob", 1, "Out of memory on a 16 GB card",
		"vllm serve google/diffusiongemma-26B-A4B-it --cpu-offload-gb 100 --gpu-memory-utilization 0.1\n\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 968.00 MiB. GPU 0 has a total capacity of 15.98 GiB of which 354.00 MiB is free.\n\nvllm 0.24.0+rocm725")
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Cycle(ctx); err != nil {
		t.Fatal(err)
	}
	acts, err := a.DB.ListActions(ctx, store.ActionFilter{TopicID: topic.ID})
	if err != nil || len(acts) != 1 {
		t.Fatalf("the forum's first topic got %d decisions (%v), want 1", len(acts), err)
	}
}

// An action of a kind this version does not know (written by a newer
// Herald sharing the database, say) fails with the reason kept instead of
// being taken for a reply.
func TestUnknownKindFails(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Mode: ModeAuto})
	ctx := context.Background()
	if _, err := h.db.Record(ctx, []store.Action{{Kind: "future-kind", Key: "future:1", TopicID: h.demo.OOMTopic.ID,
		Payload: []byte(`{"draft":"x"}`), State: store.StateApproved}}); err != nil {
		t.Fatal(err)
	}
	before := len(h.forum.Posts(h.demo.OOMTopic.ID))
	if err := h.bot.RunActions(ctx); err != nil {
		t.Fatal(err)
	}
	a, err := h.db.ActionByKey(ctx, "future:1")
	if err != nil || a.State != store.StateFailed || !strings.Contains(a.Error, "unknown action kind") {
		t.Fatalf("action = %+v, %v; want failed with the reason", a, err)
	}
	if got := len(h.forum.Posts(h.demo.OOMTopic.ID)); got != before {
		t.Errorf("posts %d → %d: an unknown kind wrote to the forum", before, got)
	}
}
