package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/heraldbot/herald/bench"
	"github.com/heraldbot/herald/bot"
	"github.com/heraldbot/herald/knowledge"
)

func cmdBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("bench needs a subcommand: cases, semeval, speed, soak")
	}
	switch args[0] {
	case "cases":
		return benchCases(ctx, args[1:], stdout, stderr)
	case "semeval":
		return benchSemEval(ctx, args[1:], stdout, stderr)
	case "speed":
		return benchSpeed(ctx, args[1:], stdout, stderr)
	case "soak":
		return benchSoak(ctx, args[1:], stdout, stderr)
	}
	return usagef("unknown bench subcommand %q", args[0])
}

// benchCases scores Herald and the plain BM25 baseline on labelled cases.
func benchCases(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench cases", stderr)
	kbPath := fs.String("kb", "", "knowledge base (default: the embedded packs)")
	asJSON := fs.Bool("json", false, "print JSON")
	perCase := fs.Bool("per-case", false, "also print one row per case")
	folds := fs.Int("folds", 5, "cross-validation folds for the held-out figures (0: in-sample only)")
	seed := fs.Uint64("seed", 1, "seed of the stratified fold split")
	o := fitFlags(fs)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("bench cases takes one FILE")
	}
	run, err := answerCases(ctx, pos[0], *kbPath)
	if err != nil {
		return err
	}
	defer run.close()
	cases, db, a, preds := run.cases, run.db, run.a, run.preds
	var herald, base []bench.Result
	for _, c := range cases {
		cands, err := db.SearchText(ctx, c.Title+"\n"+c.Body, 10)
		if err != nil {
			return fmt.Errorf("case %s baseline: %w", c.ID, err)
		}
		b := bench.Result{CaseID: c.ID, Decision: knowledge.DecisionAbstain}
		for _, cd := range cands {
			b.Ranked = append(b.Ranked, cd.Entry.ID)
		}
		if len(b.Ranked) > 0 { // the baseline answers everything it finds
			b.Decision = knowledge.DecisionReply
			b.Cited = b.Ranked[:min(3, len(b.Ranked))]
		}
		base = append(base, b)
	}
	bl := bench.Score(cases, base, a.Schema())
	// The columns: held-out (thresholds fitted on the other folds), in
	// sample (fitted on all cases), and the shipped defaults.
	type column struct {
		name string
		rep  bench.Report
	}
	var cols []column
	var cv bench.CrossValidation
	if *folds > 0 {
		cv = bench.CrossValidate(preds, *folds, *seed, a.Engine.Thresholds, *o)
		herald = cv.HeldOut
		cols = append(cols,
			column{fmt.Sprintf("held-out (%d folds)", *folds), bench.Score(cases, cv.HeldOut, a.Schema())},
			column{"in-sample", bench.Score(cases, cv.InSample, a.Schema())})
	}
	shipped := make([]bench.Result, len(preds))
	for i, p := range preds {
		shipped[i] = p.Result(nil, a.Engine.Thresholds)
	}
	if *folds == 0 {
		herald = shipped
	}
	cols = append(cols, column{"shipped model", bench.Score(cases, shipped, a.Schema())})
	h := cols[0].rep
	rel := bench.Reliability(cases, herald, []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0001})
	if *asJSON {
		if !*perCase {
			for i := range cols {
				cols[i].rep.Cases = nil
			}
			bl.Cases = nil
		}
		out := map[string]any{"herald": h, "baseline": bl, "reliability": rel}
		if *folds > 0 {
			out["in_sample"] = cols[1].rep
			out["shipped"] = cols[2].rep
			out["fold_models"] = cv.Models
			out["in_sample_model"] = cv.All
		}
		return writeJSON(stdout, out)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%d cases\t", len(cases))
	for _, c := range cols {
		fmt.Fprintf(tw, "%s\t", c.name)
	}
	fmt.Fprintf(tw, "baseline (BM25)\t\n")
	row := func(name string, get func(bench.Report) float64) {
		fmt.Fprintf(tw, "%s\t", name)
		for _, c := range cols {
			fmt.Fprintf(tw, "%.1f\t", get(c.rep))
		}
		fmt.Fprintf(tw, "%.1f\t\n", get(bl))
	}
	row(fmt.Sprintf("strict hit@1 %% (n=%d)", h.StrictN), func(r bench.Report) float64 { return r.StrictHit1 })
	row("strict hit@3 %", func(r bench.Report) float64 { return r.StrictHit3 })
	row("strict MRR %", func(r bench.Report) float64 { return r.StrictMRR })
	row(fmt.Sprintf("lenient hit@3 %% (n=%d)", h.LenientN), func(r bench.Report) float64 { return r.LenientHit3 })
	row("abstain cases silent %", func(r bench.Report) float64 { return r.AbstainSilentPct })
	row("not-support ignored %", func(r bench.Report) float64 { return r.NotSupportIgnoredPct })
	row("support cases silent %", func(r bench.Report) float64 { return r.SupportSilentPct })
	fmt.Fprintf(tw, "wrong-post %%\t")
	for _, c := range cols {
		fmt.Fprintf(tw, "%.1f (%d/%d)\t", c.rep.WrongPostPct, c.rep.WrongPosts, c.rep.Replies)
	}
	fmt.Fprintf(tw, "%.1f (%d/%d)\t\n", bl.WrongPostPct, bl.WrongPosts, bl.Replies)
	fmt.Fprintf(tw, "extraction %%\t")
	for _, c := range cols {
		fmt.Fprintf(tw, "%.1f\t", c.rep.ExtractPct)
	}
	fmt.Fprintf(tw, "-\t\n")
	fields := make([]string, 0, len(h.Fields))
	for k := range h.Fields {
		fields = append(fields, k)
	}
	slices.Sort(fields)
	for _, k := range fields {
		fmt.Fprintf(tw, "  %s\t", k)
		for _, c := range cols {
			fs := c.rep.Fields[k]
			fmt.Fprintf(tw, "%.1f (%d/%d, %d wrong)\t", fs.Pct, fs.Right, fs.Total, fs.Wrong)
		}
		fmt.Fprintf(tw, "\t\n")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if *folds > 0 {
		var replies, floors []string
		for _, m := range cv.Models {
			replies = append(replies, fmt.Sprintf("%.3f", m.Reply))
			floors = append(floors, fmt.Sprintf("%.3f", m.QueueFloor))
		}
		fmt.Fprintf(stdout, "\nfitted per fold for ≤ %.0f%% wrong posts and ≥ %.0f%% useful drafts: reply %s, queue floor %s; on all cases %.3f and %.3f (shipped %.3f)\n",
			o.TargetWrong, o.UsefulDrafts, strings.Join(replies, " "), strings.Join(floors, " "), cv.All.Reply, cv.All.QueueFloor, a.Engine.Thresholds.Reply)
		fmt.Fprintln(stdout, "extraction has no fitted parameters, so its held-out and in-sample figures are the same by construction")
	}
	if n, med, most, unsafe := draftLengths(a, preds); n > 0 {
		fmt.Fprintf(stdout, "\nreplies and drafts composed for the %d posts with a structured match: median %d characters, longest %d; %d not inert\n", n, med, most, unsafe)
	}
	fmt.Fprintln(stdout, "\nreliability (posts not ignored; support with labels, abstain, not-support): confidence → staff accept the top match")
	for _, b := range rel {
		fmt.Fprintf(stdout, "  [%.2f, %.2f)  n=%-3d accepted=%-3d %5.1f%%  mean confidence %5.1f%%\n", b.Low, math.Min(b.High, 1), b.N, b.Correct, b.Pct, b.MeanConf)
	}
	if *perCase {
		fmt.Fprintln(stdout)
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "CASE\tCATEGORY\tDECISION\tCONF\tSTRICT\tLENIENT\tWRONG\tEXTRACTION MISSED")
		for _, c := range h.Cases {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%.3f\t%d\t%d\t%v\t%s\n", c.ID, c.Category, c.Decision, c.Confidence, c.Rank, c.Lenient, c.Wrong, strings.Join(c.Missed, ","))
		}
		return tw.Flush()
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
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

	db, _, cleanup, err := openTempDB(ctx, "herald-semeval-")
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
	db, path, cleanup, err := openTempDB(ctx, "herald-speed-")
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

// draftLengths composes the reply or draft each prediction would get and
// reports how many there are, their median and longest length, and how
// many ReplyProblems finds anything in.
func draftLengths(a *bot.Answerer, preds []bench.Prediction) (n, median, longest, unsafe int) {
	var lens []int
	for _, p := range preds {
		cited := knowledge.Citations(p.Matches, a.Engine.Thresholds, a.Engine.Thresholds.MaxCitations, nil)
		if len(cited) == 0 {
			continue
		}
		r := knowledge.Compose(&p.Facts, cited, a.Engine.Compose)
		lens = append(lens, len(r))
		if len(knowledge.ReplyProblems(r, knowledge.CitedURLs(cited))) > 0 {
			unsafe++
		}
	}
	if len(lens) == 0 {
		return 0, 0, 0, 0
	}
	slices.Sort(lens)
	return len(lens), lens[len(lens)/2], lens[len(lens)-1], unsafe
}
