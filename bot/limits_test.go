package bot

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/discourse/discoursetest"
)

// A bot account that is not staff meets Discourse's per-user create
// limit (one post per 5 s): the second of two replies due in one cycle is
// refused with a 429; Herald keeps it queued and posts it once the wait
// is over, never twice.
func TestNonStaffBotWaitsOutTheCreateLimit(t *testing.T) {
	t.Parallel()
	clock := discoursetest.NewClock(time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC))
	forum := discoursetest.New(discoursetest.WithRateLimit(0), discoursetest.WithClock(clock.Now))
	t.Cleanup(forum.Close)
	demo := forum.Seed("herald")
	forum.SetStaff("herald", false)
	c, err := discourse.NewClient(forum.URL, discourse.WithAPIKey(discoursetest.BotAPIKey, "herald"),
		discourse.WithRequestBudget(0, 0), discourse.WithRetries(1, time.Millisecond), discourse.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	a := newTestAnswerer(t)
	b, err := New(c, a.DB, a, Options{Username: "herald", Mode: ModeAuto}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.SetClock(clock.Now)
	ctx := context.Background()
	clock.Advance(48 * time.Hour)
	if err := b.Cycle(ctx); err != nil { // first start: history is left alone
		t.Fatal(err)
	}
	oom := forum.Posts(demo.OOMTopic.ID)[0].Raw
	first, _, _ := forum.CreateTopic("bob", demo.Support.ID, "Out of memory with cpu offload on a 16GB card", oom)
	second, _, _ := forum.CreateTopic("alice", demo.Support.ID, "CUDA out of memory although utilization is low", oom+"\n\nSame here on a second machine.")
	clock.Advance(time.Minute)

	var rl *discourse.RateLimitError
	if err := b.Cycle(ctx); err != nil && !errors.As(err, &rl) {
		t.Fatalf("cycle: %v", err)
	}
	posted := func() (int, int) {
		n1, n2 := 0, 0
		bot := forum.User("herald")
		for _, p := range forum.Posts(first.ID) {
			if p.UserID == bot.ID {
				n1++
			}
		}
		for _, p := range forum.Posts(second.ID) {
			if p.UserID == bot.ID {
				n2++
			}
		}
		return n1, n2
	}
	if n1, n2 := posted(); n1+n2 != 1 {
		t.Fatalf("after one cycle: %d + %d replies, want exactly one (the second is rate limited)", n1, n2)
	}
	for range 4 {
		clock.Advance(10 * time.Second)
		if err := b.Cycle(ctx); err != nil && !errors.As(err, &rl) {
			t.Fatalf("cycle: %v", err)
		}
	}
	if n1, n2 := posted(); n1 != 1 || n2 != 1 {
		t.Errorf("after the wait: %d and %d replies, want one in each topic", n1, n2)
	}
}
