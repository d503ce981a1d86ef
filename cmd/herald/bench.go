package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/heraldbot/herald/bench"
	"github.com/heraldbot/herald/bot"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

func cmdBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("bench needs a subcommand: cases")
	}
	switch args[0] {
	case "cases":
		return benchCases(ctx, args[1:], stdout, stderr)
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
	cases, a, preds := run.cases, run.a, run.preds
	base, err := baselineResults(ctx, run.db, cases)
	if err != nil {
		return err
	}
	bl := bench.Score(cases, base, a.Schema())
	// The columns: held-out (thresholds fitted on the other folds), in
	// sample (fitted on all cases), and the shipped defaults.
	var herald []bench.Result
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
		out := map[string]any{"herald": h, "baseline": bl, "reliability": rel, "calibration_gap": bench.CalibrationGap(rel)}
		if *folds > 0 {
			out["in_sample"] = cols[1].rep
			out["shipped"] = cols[2].rep
			out["fold_models"] = cv.Models
			out["in_sample_model"] = cv.All
		}
		return writeJSON(stdout, out)
	}
	if err := printCaseTable(stdout, len(cases), cols, bl); err != nil {
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
	fmt.Fprintf(stdout, "  calibration gap (hit rate vs confidence, weighted by posts): %.1f points\n", bench.CalibrationGap(rel))
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

// column is one column of the bench cases table.
type column struct {
	name string
	rep  bench.Report
}

// baselineResults ranks each case with plain BM25 over the knowledge
// base; the baseline answers everything it finds.
func baselineResults(ctx context.Context, db *store.DB, cases []bench.Case) ([]bench.Result, error) {
	var base []bench.Result
	for _, c := range cases {
		cands, err := db.SearchText(ctx, c.Title+"\n"+c.Body, 10)
		if err != nil {
			return nil, fmt.Errorf("case %s baseline: %w", c.ID, err)
		}
		b := bench.Result{CaseID: c.ID, Decision: knowledge.DecisionAbstain}
		for _, cd := range cands {
			b.Ranked = append(b.Ranked, cd.Entry.ID)
		}
		if len(b.Ranked) > 0 {
			b.Decision = knowledge.DecisionReply
			b.Cited = b.Ranked[:min(3, len(b.Ranked))]
		}
		base = append(base, b)
	}
	return base, nil
}

// printCaseTable prints the figures of each column beside the baseline.
func printCaseTable(stdout io.Writer, n int, cols []column, bl bench.Report) error {
	h := cols[0].rep
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%d cases\t", n)
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
	return tw.Flush()
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
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
