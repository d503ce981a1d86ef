package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/heraldbot/herald/bot"
)

// cmdReplay is `herald replay --from-forum --since DATE --config F`: the
// current knowledge base over past topics, in shadow.
func cmdReplay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("replay", stderr)
	cfgPath := fs.String("config", "config.yaml", "configuration file")
	fromForum := fs.Bool("from-forum", false, "replay the forum's past topics (the only source so far)")
	since := fs.String("since", "", "topics created since this date (YYYY-MM-DD)")
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	if !*fromForum {
		return usagef("replay needs --from-forum")
	}
	t, err := time.Parse("2006-01-02", *since)
	if err != nil {
		return usagef("--since must be a date like 2026-01-31")
	}
	var rep *bot.ReplayReport
	err = withBot(ctx, *cfgPath, stderr, func(b *bot.Bot, _ *Config) error {
		var err error
		rep, err = b.Replay(ctx, t)
		return err
	})
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(rep)
	}
	fmt.Fprintf(stdout, "replayed %d topics since %s (shadow: nothing recorded or posted)\n", rep.Topics, *since)
	fmt.Fprintf(stdout, "  would reply: %d (confidence 0.6–0.7: %d, 0.7–0.8: %d, ≥0.8: %d)\n", rep.Replies, rep.Buckets[0], rep.Buckets[1], rep.Buckets[2])
	fmt.Fprintf(stdout, "  would queue for staff: %d; silent: %d; not support questions: %d\n", rep.Queued, rep.Silent, rep.Ignored)
	fmt.Fprintf(stdout, "  solved topics: %d; of those Herald would answer, its citations agree with the accepted answer in %d and not in %d\n",
		rep.Solved, rep.Agree, rep.Disagree)
	return nil
}
