package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"syscall"
	"time"

	"github.com/heraldbot/herald/bench"
	"github.com/heraldbot/herald/bot"
	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/discourse/discoursetest"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

// benchSoak feeds an in-process fake forum with topics and replies in
// batches and lets the bot (auto mode) keep up, measuring API requests per
// new post, the time from a batch landing to its replies being posted,
// CPU time per post and peak memory.
func benchSoak(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench soak", stderr)
	topics := fs.Int("topics", 10000, "topics to create")
	replies := fs.Int("replies", 50000, "replies to create")
	batch := fs.Int("batch", 100, "topics per batch (replies are spread evenly)")
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	pack, err := knowledge.BuiltinPack("vllm")
	if err != nil {
		return err
	}
	forum := discoursetest.New(discoursetest.WithRateLimit(0))
	defer forum.Close()
	forum.SeedBasic("herald")
	support := 1
	db, _, cleanup, err := openTempDB(ctx, "herald-soak-")
	if err != nil {
		return err
	}
	defer cleanup()
	if _, err := importPack(ctx, db, pack, nil); err != nil {
		return err
	}
	a, err := bot.NewAnswerer(ctx, db, "herald")
	if err != nil {
		return err
	}
	forum.AddAPIKey("soak-global-key", "")
	client, err := discourse.NewClient(forum.URL, discourse.WithAPIKey("soak-global-key", "herald"), discourse.WithRequestBudget(0, 0))
	if err != nil {
		return err
	}
	b, err := bot.New(client, db, a, bot.Options{Username: "herald", Mode: bot.ModeAuto, HourlyBudget: 1 << 30, MaxPerTopic: 3}, nil, nil)
	if err != nil {
		return err
	}
	if err := b.Cycle(ctx); err != nil { // first start: cursor at the newest post
		return err
	}
	posts := bench.GeneratePosts(pack, 500, 11)
	r := rand.New(rand.NewPCG(5, 9))
	var ru0 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	req0 := forum.TotalRequests()
	var lat []float64
	created, answered := 0, 0
	var topicIDs []int
	start := time.Now()
	perBatch := *replies * *batch / max(1, *topics)
	for done := 0; done < *topics; done += *batch {
		for i := 0; i < *batch && done+i < *topics; i++ {
			p := posts[r.IntN(len(posts))]
			if r.IntN(3) == 0 { // a third are off-topic chatter
				p = knowledge.Post{Title: fmt.Sprintf("Meetup notes %d", done+i), Body: "Thanks everyone for coming to the meetup, slides will follow next week."}
			}
			t, _, err := forum.CreateTopic("alice", support, fmt.Sprintf("%s #%d", p.Title, done+i), p.Body)
			if err != nil {
				return err
			}
			topicIDs = append(topicIDs, t.ID)
			created++
		}
		for i := 0; i < perBatch; i++ {
			if _, err := forum.Reply("bob", topicIDs[r.IntN(len(topicIDs))], "Same here on my machine, following this thread for updates.", 0); err != nil {
				return err
			}
			created++
		}
		t0 := time.Now()
		if err := b.Cycle(ctx); err != nil {
			return err
		}
		lat = append(lat, float64(time.Since(t0).Microseconds())/1000)
	}
	elapsed := time.Since(start)
	var ru1 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	cpu := time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) * time.Nanosecond
	counts, _ := db.CountActions(ctx)
	answered = counts[store.StateDone]
	reqs := forum.TotalRequests() - req0
	fmt.Fprintf(stdout, "soak: %d topics and %d replies in batches of %d topics, bot in auto mode (wall %s)\n", *topics, created-*topics, *batch, elapsed.Round(time.Millisecond))
	fmt.Fprintf(stdout, "replies posted: %d; decisions by state: %v\n", answered, counts)
	fmt.Fprintf(stdout, "API requests: %d (%.3f per new post, %.2f per reply posted)\n", reqs, float64(reqs)/float64(created), float64(reqs)/float64(max(1, answered)))
	fmt.Fprintf(stdout, "batch landed → its replies posted: p50 %.1f ms, p99 %.1f ms (plus the poll interval in production)\n", percentile(lat, 50), percentile(lat, 99))
	fmt.Fprintf(stdout, "CPU time: %s total, %.3f ms per new post (bot and fake forum in one process)\n", cpu.Round(time.Millisecond), float64(cpu.Microseconds())/1000/float64(created))
	fmt.Fprintf(stdout, "peak RSS: %.0f MB\n", peakRSSMB())
	return nil
}
