package discourse_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/discourse/discoursetest"
)

// setup starts a seeded fake forum and a client acting as the bot.
func setup(t *testing.T, opts ...discourse.Option) (*discourse.Client, *discoursetest.Server, *discoursetest.Demo) {
	t.Helper()
	srv := discoursetest.New(discoursetest.WithRateLimit(0))
	t.Cleanup(srv.Close)
	demo := srv.Seed("herald")
	base := []discourse.Option{discourse.WithAPIKey(discoursetest.BotAPIKey, "herald"),
		discourse.WithRequestBudget(0, 0), discourse.WithRetries(3, time.Millisecond)}
	c, err := discourse.NewClient(srv.URL, append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c, srv, demo
}

func TestLatestPostsPagesInclusively(t *testing.T) {
	t.Parallel()
	c, _, _ := setup(t)
	ctx := t.Context()
	posts, err := c.LatestPosts(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(posts) < 4 {
		t.Fatalf("got %d posts", len(posts))
	}
	for i := 1; i < len(posts); i++ {
		if posts[i].ID >= posts[i-1].ID {
			t.Fatalf("not newest first: %d then %d", posts[i-1].ID, posts[i].ID)
		}
	}
	if posts[0].Raw == "" || posts[0].Cooked == "" || posts[0].TopicTitle == "" {
		t.Errorf("post lacks raw, cooked or topic title: %+v", posts[0])
	}
	before, err := c.LatestPosts(ctx, posts[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	if before[0].ID != posts[1].ID {
		t.Errorf("before=%d returned first id %d; the filter is inclusive", posts[1].ID, before[0].ID)
	}
}

func TestTopicsAndPosts(t *testing.T) {
	t.Parallel()
	c, srv, demo := setup(t)
	ctx := t.Context()
	for i := 0; i < 25; i++ {
		if _, err := srv.Reply("bob", demo.OOMTopic.ID, "Same here, following this thread closely. #"+strings.Repeat("x", i), 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.SetTopicTags(ctx, demo.OOMTopic.ID, []string{"oom", "rocm"}); err != nil {
		t.Fatal(err)
	}
	top, err := c.Topic(ctx, demo.OOMTopic.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(top.PostStream.Posts) != 20 || len(top.PostStream.Stream) != 26 {
		t.Fatalf("first chunk %d posts, stream %d ids", len(top.PostStream.Posts), len(top.PostStream.Stream))
	}
	if strings.Join(top.Tags, ",") != "oom,rocm" {
		t.Errorf("tags = %v (objects must decode to names)", top.Tags)
	}
	all, err := c.AllTopicPosts(ctx, top)
	if err != nil || len(all) != 26 {
		t.Fatalf("AllTopicPosts = %d posts, %v", len(all), err)
	}
	if !strings.Contains(all[0].Raw, "vllm serve") {
		t.Errorf("first post raw = %q", all[0].Raw)
	}
	p, err := c.Post(ctx, all[0].ID)
	if err != nil || p.PostNumber != 1 {
		t.Fatalf("Post = %+v, %v", p, err)
	}
	list, err := c.LatestTopics(ctx, discourse.ListOptions{Order: "created"})
	if err != nil || len(list.Topics) == 0 {
		t.Fatalf("LatestTopics = %+v, %v", list, err)
	}
	cats, err := c.Categories(ctx)
	if err != nil || len(cats) != 2 {
		t.Fatalf("Categories = %+v, %v", cats, err)
	}
	ct, err := c.CategoryTopics(ctx, cats[0].Slug, cats[0].ID, discourse.ListOptions{})
	if err != nil || len(ct.Topics) != 4 {
		t.Fatalf("CategoryTopics = %d, %v", len(ct.Topics), err)
	}
	res, err := c.Search(ctx, "gpu-memory-utilization", 1)
	if err != nil || len(res.Topics) == 0 {
		t.Fatalf("Search = %+v, %v", res, err)
	}
	me, err := c.CurrentUser(ctx)
	if err != nil || me.Username != "herald" || !me.Moderator {
		t.Fatalf("CurrentUser = %+v, %v", me, err)
	}
}

func TestCreatePost(t *testing.T) {
	t.Parallel()
	c, srv, demo := setup(t)
	ctx := t.Context()
	body := "Here is what I see in your log: the offloader never ran."
	p, err := c.CreatePost(ctx, discourse.CreatePostRequest{TopicID: demo.OOMTopic.ID, Raw: body, ReplyToPostNumber: 1})
	if err != nil {
		t.Fatal(err)
	}
	if p.PostType != discourse.PostTypeRegular || p.ReplyToPostNumber == nil || *p.ReplyToPostNumber != 1 {
		t.Errorf("created %+v", p)
	}
	// The server memoises identical creates for two minutes: no duplicate.
	again, err := c.CreatePost(ctx, discourse.CreatePostRequest{TopicID: demo.OOMTopic.ID, Raw: body, ReplyToPostNumber: 1})
	if err != nil || again.ID != p.ID {
		t.Errorf("identical create gave %v, %v; want the same post %d", again, err, p.ID)
	}
	w, err := c.CreatePost(ctx, discourse.CreatePostRequest{TopicID: demo.OOMTopic.ID, Raw: "Staff only: this looks like #51396.", Whisper: true})
	if err != nil || w.PostType != discourse.PostTypeWhisper {
		t.Fatalf("whisper = %+v, %v", w, err)
	}
	_, err = c.CreatePost(ctx, discourse.CreatePostRequest{TopicID: demo.OOMTopic.ID, Raw: "too short"})
	var er *discourse.ErrorResponse
	if !errors.As(err, &er) || er.StatusCode != 422 || er.Action != "create_post" || len(er.Errors) == 0 {
		t.Errorf("short post: %v", err)
	}
	// Discourse reports a reply to a missing topic as a failed post
	// (lib/post_creator.rb): 422 {action, errors}, not 404.
	_, err = c.CreatePost(ctx, discourse.CreatePostRequest{TopicID: 99999, Raw: "a reply to a topic that is not there"})
	if !errors.As(err, &er) || er.StatusCode != 422 || er.Action != "create_post" {
		t.Errorf("missing topic: %v", err)
	}
	// Alice's posts need approval: the answer says so.
	srv.User("alice").RequireApproval = true
	alice, _ := discourse.NewClient(srv.URL, discourse.WithAPIKey(discoursetest.AdminAPIKey, "alice"), discourse.WithRequestBudget(0, 0))
	_, err = alice.CreatePost(ctx, discourse.CreatePostRequest{TopicID: demo.OOMTopic.ID, Raw: "Any update on this? Still failing for me."})
	var pe *discourse.PendingError
	if !errors.As(err, &pe) {
		t.Errorf("queued post: %v", err)
	}
	srv.User("alice").RequireApproval = false
	srv.SetClosed(demo.OOMTopic.ID, true)
	_, err = alice.CreatePost(ctx, discourse.CreatePostRequest{TopicID: demo.OOMTopic.ID, Raw: "Replying to a closed topic should fail."})
	if !errors.As(err, &er) || er.StatusCode != 422 {
		t.Errorf("closed topic: %v", err)
	}
	_, err = alice.CreatePost(ctx, discourse.CreatePostRequest{TopicID: demo.OOMTopic.ID, Raw: "Whispering is for staff only, not me.", Whisper: true})
	if !errors.Is(err, discourse.ErrForbidden) {
		t.Errorf("non-staff whisper: %v", err)
	}
}

func TestNotificationsOnMentionAndReply(t *testing.T) {
	t.Parallel()
	c, srv, demo := setup(t)
	ctx := t.Context()
	if _, err := srv.Reply("alice", demo.OOMTopic.ID, "@herald can you take another look? It is DiffusionGemma only.", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Reply("bob", demo.OOMTopic.ID, "Quoting the docs:\n\n```\n@herald is not a mention in code\n```", 0); err != nil {
		t.Fatal(err)
	}
	// Nor in a [code] block, which Discourse renders as one, nested
	// blocks pairing as brackets do.
	if _, err := srv.Reply("bob", demo.OOMTopic.ID, "The log:\n[CODE=text]\n@herald is not a mention here either\n[/code]\n[code]@herald nor here[/code]\n"+
		"[code]\n[code=sh]\n@herald inner\n[/code]\n@herald still inside the outer block\n[/code]", 0); err != nil {
		t.Fatal(err)
	}
	// A [code] line inside a Markdown fence is the fence's code: the
	// fence ends where it ends, and a mention after it is one.
	if _, err := srv.Reply("alice", demo.OOMTopic.ID, "```\n[code]\n```\n@herald the fence above is closed\n[/code]", 0); err != nil {
		t.Fatal(err)
	}
	bot, err := c.CreatePost(ctx, discourse.CreatePostRequest{TopicID: demo.OOMTopic.ID, Raw: "This looks like the known offload issue #51396."})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Reply("alice", demo.OOMTopic.ID, "Thanks, upgrading fixed it for me!", bot.PostNumber); err != nil {
		t.Fatal(err)
	}
	ns, err := c.Notifications(ctx, discourse.NotificationOptions{Unread: true})
	if err != nil {
		t.Fatal(err)
	}
	var types []int
	for _, n := range ns {
		types = append(types, n.NotificationType)
		if n.TopicID != demo.OOMTopic.ID || n.Data.OriginalUsername != "alice" {
			t.Errorf("notification %+v", n)
		}
	}
	if len(ns) != 3 || types[0] != discourse.NotificationReplied || types[1] != discourse.NotificationMentioned || types[2] != discourse.NotificationMentioned {
		t.Fatalf("notification types = %v, want [replied mentioned mentioned] (code does not mention)", types)
	}
	if err := c.MarkNotificationRead(ctx, ns[0].ID); err != nil {
		t.Fatal(err)
	}
	ns, err = c.Notifications(ctx, discourse.NotificationOptions{Unread: true})
	if err != nil || len(ns) != 2 {
		t.Fatalf("after mark-read: %d unread, %v", len(ns), err)
	}
}

func TestAuthErrors(t *testing.T) {
	t.Parallel()
	_, srv, demo := setup(t)
	ctx := t.Context()
	bad, _ := discourse.NewClient(srv.URL, discourse.WithAPIKey("wrong-key-secret-value", "herald"), discourse.WithRequestBudget(0, 0))
	_, err := bad.LatestPosts(ctx, 0)
	if !errors.Is(err, discourse.ErrInvalidKey) {
		t.Fatalf("bad key: %v", err)
	}
	if strings.Contains(err.Error(), "wrong-key-secret-value") {
		t.Errorf("error leaks the key: %v", err)
	}
	// A key bound to the bot cannot act as someone else.
	imp, _ := discourse.NewClient(srv.URL, discourse.WithAPIKey(discoursetest.BotAPIKey, "admin"), discourse.WithRequestBudget(0, 0))
	if _, err := imp.CurrentUser(ctx); !errors.Is(err, discourse.ErrInvalidKey) {
		t.Errorf("impersonation: %v", err)
	}
	anon, _ := discourse.NewClient(srv.URL, discourse.WithRequestBudget(0, 0))
	if _, err := anon.CurrentUser(ctx); !errors.Is(err, discourse.ErrNotFound) {
		t.Errorf("anonymous current user: %v", err)
	}
	if _, err := anon.Topic(ctx, demo.OOMTopic.ID+1000); !errors.Is(err, discourse.ErrNotFound) {
		t.Errorf("missing topic: %v", err)
	}
	if _, err := discourse.NewClient("ftp://x"); err == nil {
		t.Error("bad base URL accepted")
	}
}

func TestRateLimitBlocksWithoutSending(t *testing.T) {
	t.Parallel()
	srv := discoursetest.New(discoursetest.WithRateLimit(3))
	t.Cleanup(srv.Close)
	srv.Seed("herald")
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	c, _ := discourse.NewClient(srv.URL, discourse.WithAPIKey(discoursetest.BotAPIKey, "herald"),
		discourse.WithRequestBudget(0, 0), discourse.WithRetries(0, time.Millisecond),
		discourse.WithClock(func() time.Time { return now }))
	ctx := t.Context()
	for i := 0; i < 3; i++ {
		if _, err := c.LatestPosts(ctx, 0); err != nil {
			t.Fatal(err)
		}
	}
	_, err := c.LatestPosts(ctx, 0)
	var rl *discourse.RateLimitError
	if !errors.As(err, &rl) || rl.Local || rl.Wait <= 0 || rl.Code != "admin_api_key_rate_limit" {
		t.Fatalf("4th call: %v", err)
	}
	sent := srv.Requests("GET /posts.json")
	_, err = c.LatestPosts(ctx, 0)
	if !errors.As(err, &rl) || !rl.Local {
		t.Fatalf("call during the wait: %v", err)
	}
	if got := srv.Requests("GET /posts.json"); got != sent {
		t.Errorf("a call during the wait was sent (%d → %d requests)", sent, got)
	}
	now = now.Add(rl.Until.Sub(now) + time.Second)
	srv.Inject("/posts.json", discoursetest.FaultPlainText429)
	_, err = c.LatestPosts(ctx, 0)
	if !errors.As(err, &rl) || rl.Wait != time.Second || rl.Code != "ip_10_secs_limit" {
		t.Fatalf("plain-text 429: %v", err)
	}
}

func TestGetRetriesTransientFaults(t *testing.T) {
	t.Parallel()
	for _, f := range []discoursetest.Fault{discoursetest.Fault500, discoursetest.Fault502, discoursetest.Fault503,
		discoursetest.FaultTruncated, discoursetest.FaultMalformed, discoursetest.FaultDrop} {
		c, srv, _ := setup(t)
		srv.Inject("/posts.json", f, f)
		if _, err := c.LatestPosts(t.Context(), 0); err != nil {
			t.Errorf("fault %d: %v", f, err)
		}
		if got := srv.Requests("GET /posts.json"); got != 3 {
			t.Errorf("fault %d: %d requests, want 3 (two failures, one success)", f, got)
		}
	}
	c, srv, _ := setup(t)
	srv.Inject("/posts.json", discoursetest.Fault500, discoursetest.Fault500, discoursetest.Fault500, discoursetest.Fault500)
	_, err := c.LatestPosts(t.Context(), 0)
	var er *discourse.ErrorResponse
	if !errors.As(err, &er) || er.StatusCode != 500 {
		t.Errorf("after retries: %v", err)
	}
}

func TestPostIsNeverRetried(t *testing.T) {
	t.Parallel()
	c, srv, demo := setup(t)
	ctx := t.Context()
	srv.Inject("/posts.json", discoursetest.Fault500)
	_, err := c.CreatePost(ctx, discourse.CreatePostRequest{TopicID: demo.OOMTopic.ID, Raw: "A reply the server fails to store."})
	var er *discourse.ErrorResponse
	if !errors.As(err, &er) || er.StatusCode != 500 || srv.Requests("POST /posts.json") != 1 {
		t.Fatalf("500 on POST: %v after %d requests", err, srv.Requests("POST /posts.json"))
	}
	before := len(srv.Posts(demo.OOMTopic.ID))
	srv.Inject("/posts.json", discoursetest.FaultLoseResponse)
	_, err = c.CreatePost(ctx, discourse.CreatePostRequest{TopicID: demo.OOMTopic.ID, Raw: "A reply whose answer is lost on the way back."})
	if !errors.Is(err, discourse.ErrResponseLost) {
		t.Fatalf("lost response: %v", err)
	}
	if got := len(srv.Posts(demo.OOMTopic.ID)); got != before+1 || srv.Requests("POST /posts.json") != 2 {
		t.Errorf("lost response: %d posts (was %d), %d requests", got, before, srv.Requests("POST /posts.json"))
	}
}

func TestSlowResponseTimesOut(t *testing.T) {
	t.Parallel()
	c, srv, _ := setup(t, discourse.WithTimeout(50*time.Millisecond), discourse.WithRetries(1, time.Millisecond))
	srv.SetSlowDelay(10 * time.Second)
	srv.Inject("/latest.json", discoursetest.FaultSlow)
	if _, err := c.LatestTopics(t.Context(), discourse.ListOptions{}); err != nil {
		t.Fatalf("a slow answer then a good one: %v", err)
	}
	srv.Inject("/latest.json", discoursetest.FaultSlow, discoursetest.FaultSlow)
	_, err := c.LatestTopics(t.Context(), discourse.ListOptions{})
	if err == nil || !strings.Contains(err.Error(), "timeout") {
		t.Errorf("two slow answers: %v", err)
	}
}

func TestContextCancelStopsRetries(t *testing.T) {
	t.Parallel()
	c, srv, _ := setup(t, discourse.WithRetries(5, time.Hour))
	srv.Inject("/posts.json", discoursetest.Fault500)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := c.LatestPosts(ctx, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestAcceptAnswer(t *testing.T) {
	t.Parallel()
	c, srv, demo := setup(t)
	ctx := t.Context()
	p, err := srv.Reply("bob", demo.OOMTopic.ID, "Upgrading to 0.29 fixed the offload for me.", 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AcceptAnswer(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	top, err := c.Topic(ctx, demo.OOMTopic.ID)
	if err != nil {
		t.Fatal(err)
	}
	if top.Accepted == nil || top.Accepted.PostNumber != p.PostNumber || top.Accepted.Username != "bob" {
		t.Errorf("accepted = %+v", top.Accepted)
	}
	_ = http.StatusOK
}
