package bot

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/discourse/discoursetest"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

// TestCrashChild is the bot process of TestCrashSafety; it runs only when
// that test starts it, and cycles until it is killed.
func TestCrashChild(t *testing.T) {
	t.Parallel()
	if os.Getenv("HERALD_CRASH_CHILD") != "1" {
		t.Skip("run by TestCrashSafety")
	}
	ctx := context.Background()
	db, err := store.Open(ctx, os.Getenv("HERALD_CRASH_DB"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewAnswerer(ctx, db, "herald")
	if err != nil {
		t.Fatal(err)
	}
	a.SetModel(testModel())
	c, err := discourse.NewClient(os.Getenv("HERALD_CRASH_FORUM"), discourse.WithAPIKey(discoursetest.BotAPIKey, "herald"),
		discourse.WithRequestBudget(crashBudget, 50), discourse.WithRetries(1, time.Millisecond), discourse.WithTimeout(300*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(c, db, a, Options{Username: "herald", Mode: ModeAuto, Backfill: 24 * time.Hour, MaxPerTopic: 5, HourlyBudget: 10000, MaxMentionsPerUser: 10000}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("HERALD_CHILD_READY")
	for {
		_ = b.Cycle(ctx) // errors (injected faults) are retried next cycle
		fmt.Println("HERALD_CHILD_CYCLE")
	}
}

// crashBudget is the request budget of the crashing bot, and the fake
// forum's shared API limit: restarts must not push the bot over it.
const crashBudget = 3000

var crashTopics = []struct{ title, body string }{
	{"OOM with --cpu-offload-gb on ROCm", "vllm serve google/diffusiongemma-26B-A4B-it --cpu-offload-gb 64 --gpu-memory-utilization 0.2\n\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 15.98 GiB of which 100.00 MiB is free.\n\nvllm 0.24.0+rocm725"},
	{"KV cache too small on an A10G", "```\nvllm serve mistralai/Mistral-7B-Instruct-v0.2\nValueError: The model's max seq len (32768) is larger than the maximum number of tokens that can be stored in KV cache (16816).\n```"},
	{"Dashboard colours in Grafana", "Which colour scheme do people use for their latency dashboards? Just curious what looks best."},
	{"auto tool choice error", "openai.BadRequestError: Error code: 400 - {'message': '\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'}\n\n`vllm serve THUDM/glm-4-9b-chat`"},
}

// TestCrashSafety kills the bot with SIGKILL at random moments — including
// between a successful POST and its recording — across 200 runs, with
// 5xx, 429s and timeouts injected, while new topics and mentions arrive.
// Afterwards every topic an uninterrupted run answers has exactly one bot
// reply, the others none, and every mention got its one answer.
func TestCrashSafety(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	runs := 200
	ctx := context.Background()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "bot.db")
	seedDB(t, dbPath)

	forum := discoursetest.New(discoursetest.WithRateLimit(crashBudget))
	t.Cleanup(forum.Close)
	demo := forum.Seed("herald")
	r := rand.New(rand.NewPCG(42, 7))
	var mu sync.Mutex
	var child *exec.Cmd
	killOnCreate := false
	killedAfterPost := 0
	forum.SetAfterCreate(func(p discoursetest.Post) {
		mu.Lock()
		defer mu.Unlock()
		if killOnCreate && child != nil && child.Process != nil {
			_ = child.Process.Signal(syscall.SIGKILL) // posted, not yet recorded
			killedAfterPost++
		}
	})
	type mention struct{ topic, post int }
	var mentions []mention // each owed exactly one answer
	lastTopic := demo.OOMTopic.ID
	for run := 0; run < runs; run++ {
		if run%5 == 0 {
			tp := crashTopics[(run/5)%len(crashTopics)]
			topic, _, err := forum.CreateTopic("alice", demo.Support.ID, fmt.Sprintf("%s (%d)", tp.title, run), tp.body)
			if err != nil {
				t.Fatal(err)
			}
			lastTopic = topic.ID
		}
		if run%17 == 3 {
			p, err := forum.Reply("bob", lastTopic, fmt.Sprintf("@herald does this also apply to 0.25? (%d)", run), 0)
			if err != nil {
				t.Fatal(err)
			}
			mentions = append(mentions, mention{lastTopic, p.ID})
		}
		switch r.IntN(6) {
		case 0:
			forum.Inject("", discoursetest.Fault500, discoursetest.Fault502)
		case 1:
			forum.Inject("/posts.json", discoursetest.FaultPlainText429)
		case 2:
			forum.SetSlowDelay(time.Second)
			forum.Inject("", discoursetest.FaultSlow)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
		cmd.Env = append(os.Environ(), "HERALD_CRASH_CHILD=1", "HERALD_CRASH_DB="+dbPath, "HERALD_CRASH_FORUM="+forum.URL)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		killOnCreate = r.IntN(3) == 0
		child = cmd
		if err := cmd.Start(); err != nil {
			mu.Unlock()
			t.Fatal(err)
		}
		mu.Unlock()
		// Start the clock once the child is up (start-up time varies,
		// under -race most of all), then kill it within 300 ms.
		sc := bufio.NewScanner(out)
		for sc.Scan() && sc.Text() != "HERALD_CHILD_READY" {
		}
		// A run meant to die between a POST and its recording that had
		// nothing to post dies after its first whole cycle.
		lastKill := killOnCreate
		go func() {
			for sc.Scan() {
				if lastKill && sc.Text() == "HERALD_CHILD_CYCLE" {
					_ = cmd.Process.Signal(syscall.SIGKILL)
				}
			}
			_, _ = io.Copy(io.Discard, out)
		}()
		// A run meant to die between a POST and its recording gets time
		// to reach the POST however loaded the machine is; the others die
		// at a random point of their first 300 ms.
		wait := time.Duration(r.IntN(300)) * time.Millisecond
		if killOnCreate {
			wait = 3 * time.Second
		}
		timer := time.AfterFunc(wait, func() { _ = cmd.Process.Signal(syscall.SIGKILL) })
		_ = cmd.Wait()
		timer.Stop()
		mu.Lock()
		child = nil
		mu.Unlock()
	}
	forum.SetAfterCreate(nil)

	// Finish without interruptions: cycle until nothing is left to do.
	db, err := store.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	a, err := NewAnswerer(ctx, db, "herald")
	if err != nil {
		t.Fatal(err)
	}
	a.SetModel(testModel())
	if n := forum.RateLimited(); n > 0 {
		t.Errorf("the crashing bot exceeded its request budget: %d requests refused by the forum", n)
	}
	c, _ := discourse.NewClient(forum.URL, discourse.WithAPIKey(discoursetest.BotAPIKey, "herald"), discourse.WithRequestBudget(crashBudget, 50), discourse.WithRetries(2, time.Millisecond))
	b, _ := New(c, db, a, Options{Username: "herald", Mode: ModeAuto, Backfill: 24 * time.Hour, MaxPerTopic: 5, HourlyBudget: 10000, MaxMentionsPerUser: 10000}, nil, nil)
	for i := 0; i < 5; i++ {
		if err := b.Cycle(ctx); err != nil {
			t.Fatalf("final cycle: %v", err)
		}
	}
	if n := forum.RateLimited(); n > 0 {
		t.Errorf("the bot exceeded its request budget: %d requests refused by the forum", n)
	}
	left, _ := db.ListActions(ctx, store.ActionFilter{States: []string{store.StateApproved, store.StateSending}})
	if len(left) > 0 {
		t.Fatalf("%d actions still unfinished", len(left))
	}

	// The reference: what an uninterrupted bot decides for each first post.
	ref := referenceDecisions(t, forum)
	bot := forum.User("herald")
	answered, silent := 0, 0
	for id := 1; ; id++ {
		topic, ok := forum.TopicByID(id)
		if !ok {
			break
		}
		var replies, mentionReplies int
		for _, p := range forum.Posts(id) {
			if p.UserID == bot.ID {
				if strings.Contains(p.Raw, fmt.Sprintf("<!-- herald:reply:%d:", id)) && p.ReplyToPostNumber == 1 {
					replies++
				} else {
					mentionReplies++
				}
			}
		}
		want := 0
		if ref[id] {
			want = 1
		}
		if replies != want {
			t.Errorf("topic %d %q: %d bot replies to the first post, want %d", id, topic.Title, replies, want)
		}
		if want == 1 {
			answered++
		} else {
			silent++
		}
	}
	// Each mention got exactly one answer.
	for _, m := range mentions {
		n := 0
		for _, p := range forum.Posts(m.topic) {
			if p.UserID == bot.ID && strings.Contains(p.Raw, fmt.Sprintf("reply:%d:%d -->", m.topic, m.post)) {
				n++
			}
		}
		if n != 1 {
			a, _ := db.ListActions(ctx, store.ActionFilter{TopicID: m.topic})
			t.Errorf("mention %d in topic %d answered %d times, want 1 (actions: %+v)", m.post, m.topic, n, a)
		}
	}
	t.Logf("%d runs (%d killed between a successful POST and its recording): %d topics answered once, %d left alone, %d mentions answered once; %d requests, none over the %d/minute budget",
		runs, killedAfterPost, answered, silent, len(mentions), forum.TotalRequests(), crashBudget)
	if killedAfterPost == 0 {
		t.Error("no run was killed between a POST and its recording")
	}
}

// seedDB imports the embedded pack into a fresh database at path.
func seedDB(t *testing.T, path string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p, err := knowledge.BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SaveSchema(ctx, p.Name, p.Schema()); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpsertEntries(ctx, p.Entries, nil); err != nil {
		t.Fatal(err)
	}
}

// referenceDecisions runs the engine, as an uninterrupted auto-mode bot
// would, over every topic's first post and reports which it answers.
func referenceDecisions(t *testing.T, forum *discoursetest.Server) map[int]bool {
	a := newTestAnswerer(t)
	out := map[int]bool{}
	for id := 1; ; id++ {
		topic, ok := forum.TopicByID(id)
		if !ok {
			return out
		}
		posts := forum.Posts(id)
		if len(posts) == 0 || forum.User("herald").ID == posts[0].UserID {
			continue
		}
		ans, err := a.Answer(context.Background(), knowledge.Post{Title: topic.Title, Body: posts[0].Raw})
		if err != nil {
			t.Fatal(err)
		}
		out[id] = ans.Decision == knowledge.DecisionReply && ans.Confidence >= a.Engine.Thresholds.Reply
	}
}
