package main

// The developer benchmarks: SemEval text ranking, speed and cost, and
// the soak. They are not part of the product binary (admins measure their
// own packs with `herald bench cases`); run them with
//
//	go test -tags sqlite_fts5 -run '^$' -bench 'SemEval|Speed|Soak' -benchtime 1x ./cmd/herald
//
// (or `make bench`), passing their settings after -args, for example
// -args -speed.sizes=1000,10000 -speed.posts=100.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/heraldbot/herald/bench"
	"github.com/heraldbot/herald/bot"
	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/discourse/discoursetest"
	"github.com/heraldbot/herald/importer"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

var (
	semevalDir  = flag.String("semeval.dir", "../../../shared/bench/semeval-cqa-subtaskB", "BenchmarkSemEval: the SemEval-2016 subtask B folder")
	semevalRun  = flag.String("semeval.run", "", "BenchmarkSemEval: also write the ranking to FILE")
	speedSizes  = flag.String("speed.sizes", "1000,10000,100000", "BenchmarkSpeed: comma-separated knowledge-base sizes")
	speedPosts  = flag.Int("speed.posts", 200, "BenchmarkSpeed: posts per size")
	soakTopics  = flag.Int("soak.topics", 10000, "BenchmarkSoak: topics")
	soakReplies = flag.Int("soak.replies", 50000, "BenchmarkSoak: replies")
	soakBatch   = flag.Int("soak.batch", 100, "BenchmarkSoak: topics per batch")
)

// BenchmarkSemEval ranks the SemEval-2016 Task 3 subtask B dev set with
// Herald's text ranking and prints MAP beside the shipped baselines.
func BenchmarkSemEval(b *testing.B) {
	if _, err := os.Stat(*semevalDir); err != nil {
		b.Skipf("SemEval data not found (%v); set -semeval.dir", err)
	}
	args := []string{*semevalDir}
	if *semevalRun != "" {
		args = append(args, "--run", *semevalRun)
	}
	for b.Loop() {
		if err := benchSemEval(context.Background(), args, os.Stdout, os.Stderr); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSpeed measures answers per second, latency, allocations,
// memory, import rate and database size per knowledge-base size.
func BenchmarkSpeed(b *testing.B) {
	for b.Loop() {
		if err := benchSpeed(context.Background(), []string{"--sizes", *speedSizes, "--posts", strconv.Itoa(*speedPosts)}, os.Stdout, os.Stderr); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSoak lands topics and replies on the fake forum in batches and
// reports the bot's latency and memory.
func BenchmarkSoak(b *testing.B) {
	args := []string{"--topics", strconv.Itoa(*soakTopics), "--replies", strconv.Itoa(*soakReplies), "--batch", strconv.Itoa(*soakBatch)}
	for b.Loop() {
		if err := benchSoak(context.Background(), args, os.Stdout, os.Stderr); err != nil {
			b.Fatal(err)
		}
	}
}

// benchSemEval ranks the SemEval-2016 Task 3 subtask B dev candidates with
// the store's BM25 (Herald's text ranking) and scores it beside the
// baselines shipped with the data.
func benchSemEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench semeval", stderr)
	runOut := fs.String("run", "", "also write the ranking to FILE (qid then candidate ids, best first)")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("bench semeval takes one DIR")
	}
	dir := pos[0]
	qf, err := os.Open(filepath.Join(dir, "dev-subtaskB.jsonl"))
	if err != nil {
		return fmt.Errorf("bench semeval: %w", err)
	}
	defer qf.Close()
	queries, err := bench.ReadSemEvalQueries(qf)
	if err != nil {
		return err
	}
	gf, err := os.Open(filepath.Join(dir, "gold", "SemEval2016-Task3-CQA-QL-dev.xml.subtaskB.relevancy"))
	if err != nil {
		return fmt.Errorf("bench semeval: %w", err)
	}
	defer gf.Close()
	gold, err := bench.ReadGold(gf)
	if err != nil {
		return err
	}

	db, _, cleanup, err := importer.OpenTemp(ctx, "herald-semeval-")
	if err != nil {
		return err
	}
	defer cleanup()
	var entries []knowledge.Entry
	for _, q := range queries {
		for _, c := range q.Candidates {
			entries = append(entries, knowledge.Entry{ID: c.ID, Kind: knowledge.KindTopic, URL: "https://www.qatarliving.com/forum/" + c.ID,
				Title: c.Subject, Body: c.Body, Source: "semeval", Prior: 1})
		}
	}
	if _, err := db.UpsertEntries(ctx, entries, nil); err != nil {
		return err
	}
	run := map[string][]string{}
	for _, q := range queries {
		cands, err := db.SearchText(ctx, q.Subject+"\n"+q.Body, 1000)
		if err != nil {
			return err
		}
		mine := map[string]bool{}
		for _, c := range q.Candidates {
			mine[c.ID] = true
		}
		var order []string
		for _, c := range cands {
			if mine[c.Entry.ID] {
				order = append(order, c.Entry.ID)
			}
		}
		run[q.QID] = order // unranked candidates follow in IR order when scored
	}
	type row struct {
		Name  string             `json:"name"`
		Score bench.SemEvalScore `json:"score"`
	}
	var rows []row
	score := func(name string, r map[string][]string) error {
		s, err := bench.ScoreSemEval(gold, r)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		rows = append(rows, row{name, s})
		return nil
	}
	// Unranked candidates are appended in IR order, as the scorer does for
	// the gold order; make that explicit for Herald's run.
	ir := gold.IRRanking()
	for q, order := range run {
		seen := map[string]bool{}
		for _, c := range order {
			seen[c] = true
		}
		for _, c := range ir[q] {
			if !seen[c] {
				order = append(order, c)
			}
		}
		run[q] = order
	}
	if err := score("herald (FTS5 BM25, porter)", run); err != nil {
		return err
	}
	if err := score("IR baseline (search engine)", ir); err != nil {
		return err
	}
	shipped := []string{filepath.Join(dir, "official-scorer-v2.2-dev", "SemEval2016-Task3-CQA-QL-dev.xml.subtaskB.pred")}
	bm25, _ := filepath.Glob(filepath.Join(dir, "runs", "kunneman2019", "bm25", "dev", "*"))
	shipped = append(shipped, bm25...)
	for _, path := range shipped {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("bench semeval: %w", err)
		}
		r, err := bench.ReadRun(f, gold)
		f.Close()
		if err != nil {
			return err
		}
		name := filepath.Base(path)
		if strings.HasSuffix(name, ".pred") {
			name = "random baseline (organisers)"
		}
		if err := score(name, r); err != nil {
			return err
		}
	}
	if *runOut != "" {
		var b strings.Builder
		for _, q := range gold.Order {
			b.WriteString(q + " " + strings.Join(run[q], " ") + "\n")
		}
		if err := os.WriteFile(*runOut, []byte(b.String()), 0o644); err != nil {
			return fmt.Errorf("bench semeval: %w", err)
		}
	}
	if *asJSON {
		return writeJSON(stdout, rows)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "SemEval-2016 Task 3 B, dev (%d queries)\tMAP\tAvgRec\tMRR\n", rows[0].Score.N)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.2f\n", r.Name, r.Score.MAP, r.Score.AvgRec, r.Score.MRR)
	}
	return tw.Flush()
}

// speedRow is one knowledge-base size of `herald bench speed`.
type speedRow struct {
	KBSize        int     `json:"kb_size"`
	Posts         int     `json:"posts"`
	PostsPerSec   float64 `json:"posts_per_sec"`
	P50ms         float64 `json:"p50_ms"`
	P99ms         float64 `json:"p99_ms"`
	BaselineP50ms float64 `json:"baseline_p50_ms"`
	BaselineP99ms float64 `json:"baseline_p99_ms"`
	RatioP50      float64 `json:"p50_vs_baseline"`
	AllocsPerPost float64 `json:"allocs_per_post"`
	BytesPerPost  float64 `json:"bytes_per_post"`
	PeakRSSMB     float64 `json:"peak_rss_mb"`
	ImportPerSec  float64 `json:"import_entries_per_sec"`
	DBSizeMB      float64 `json:"db_size_mb"`
}

func benchSpeed(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench speed", stderr)
	sizes := fs.String("sizes", "1000,10000,100000", "comma-separated knowledge-base sizes (generated entries beside the pack)")
	nPosts := fs.Int("posts", 200, "posts per size")
	asJSON := fs.Bool("json", false, "print JSON rows")
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	pack, err := knowledge.BuiltinPack("vllm")
	if err != nil {
		return err
	}
	posts := bench.GeneratePosts(pack, *nPosts, 7)
	var rows []speedRow
	for _, field := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil || n < 0 {
			return usagef("--sizes: %q is not a size", field)
		}
		row, err := speedOne(ctx, pack, n, posts)
		if err != nil {
			return err
		}
		rows = append(rows, row)
	}
	if *asJSON {
		return writeJSON(stdout, rows)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kb_size\tposts/s\tp50 ms\tp99 ms\tbaseline p50 ms\tp50 ratio\tallocs/post\tpeak RSS MB\timport/s\tdb MB\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%d\t%.0f\t%.2f\t%.2f\t%.2f\t%.2f×\t%.0f\t%.0f\t%.0f\t%.1f\t\n", r.KBSize, r.PostsPerSec, r.P50ms, r.P99ms,
			r.BaselineP50ms, r.RatioP50, r.AllocsPerPost, r.PeakRSSMB, r.ImportPerSec, r.DBSizeMB)
	}
	return tw.Flush()
}

func speedOne(ctx context.Context, pack *knowledge.Pack, n int, posts []knowledge.Post) (speedRow, error) {
	row := speedRow{KBSize: n, Posts: len(posts)}
	db, path, cleanup, err := importer.OpenTemp(ctx, "herald-speed-")
	if err != nil {
		return row, err
	}
	defer cleanup()
	if err := db.SaveSchema(ctx, pack.Name, pack.Schema()); err != nil {
		return row, err
	}
	entries := append(append([]knowledge.Entry(nil), pack.Entries...), bench.GenerateEntries(pack, n, 1)...)
	start := time.Now()
	if _, err := db.UpsertEntries(ctx, entries, nil); err != nil {
		return row, err
	}
	row.ImportPerSec = float64(len(entries)) / time.Since(start).Seconds()
	for _, f := range []string{path, path + "-wal"} {
		if st, err := os.Stat(f); err == nil {
			row.DBSizeMB += float64(st.Size()) / (1 << 20)
		}
	}
	a, err := bot.NewAnswerer(ctx, db, "herald")
	if err != nil {
		return row, err
	}
	// Warm the page cache and the statement cache before timing.
	for _, p := range posts[:min(10, len(posts))] {
		if _, err := a.Answer(ctx, p); err != nil {
			return row, err
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	mallocs, bytes := ms.Mallocs, ms.TotalAlloc
	lat := make([]float64, 0, len(posts))
	start = time.Now()
	for _, p := range posts {
		t0 := time.Now()
		if _, err := a.Answer(ctx, p); err != nil {
			return row, err
		}
		lat = append(lat, float64(time.Since(t0).Microseconds())/1000)
	}
	total := time.Since(start)
	runtime.ReadMemStats(&ms)
	row.AllocsPerPost = float64(ms.Mallocs-mallocs) / float64(len(posts))
	row.BytesPerPost = float64(ms.TotalAlloc-bytes) / float64(len(posts))
	row.PostsPerSec = float64(len(posts)) / total.Seconds()
	row.P50ms, row.P99ms = percentile(lat, 50), percentile(lat, 99)
	base := make([]float64, 0, len(posts))
	for _, p := range posts {
		t0 := time.Now()
		if _, err := db.SearchText(ctx, p.Title+"\n"+p.Body, 10); err != nil {
			return row, err
		}
		base = append(base, float64(time.Since(t0).Microseconds())/1000)
	}
	row.BaselineP50ms, row.BaselineP99ms = percentile(base, 50), percentile(base, 99)
	if row.BaselineP50ms > 0 {
		row.RatioP50 = row.P50ms / row.BaselineP50ms
	}
	row.PeakRSSMB = peakRSSMB()
	return row, nil
}

func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	slices.Sort(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

// peakRSSMB reads the process's peak resident set size (VmHWM) on Linux;
// elsewhere it returns 0.
func peakRSSMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

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
	db, _, cleanup, err := importer.OpenTemp(ctx, "herald-soak-")
	if err != nil {
		return err
	}
	defer cleanup()
	if _, err := importer.ImportPack(ctx, db, pack, nil); err != nil {
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
