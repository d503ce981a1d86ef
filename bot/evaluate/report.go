package evaluate

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/heraldbot/herald/bench"
	"github.com/heraldbot/herald/knowledge"
)

// Options say how Measure cross-validates.
type Options struct {
	// Folds is the number of cross-validation folds; 0 scores only the
	// shipped model.
	Folds int
	// Seed seeds the stratified fold split.
	Seed uint64
	// Repeats cross-validates again with the seeds after Seed, to show
	// how much the held-out figures move with the split alone; 0 or 1
	// means once.
	Repeats int
	// BySource holds out the posts of each source together
	// (bench.SourceFolds) instead of a stratified split; there is one
	// such split, so Seed and Repeats do not apply.
	BySource bool
	Fit      bench.FitOptions
}

// reliabilityEdges are the confidence buckets of the reliability table.
var reliabilityEdges = []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0001}

// Column is one column of the report's table.
type Column struct {
	Name   string
	Report bench.Report
}

// Report is what Measure found.
type Report struct {
	// N is the number of cases.
	N int
	// Columns are held-out, in-sample and shipped with folds, else only
	// shipped; the first is the headline.
	Columns     []Column
	Baseline    bench.Report
	Reliability []bench.Bucket
	Drafts      DraftStats
	// CV is the cross-validation (with Folds > 0).
	CV bench.CrossValidation
	// Repeated are the held-out reports of every split (with Repeats >
	// 1), the headline's first, RepeatedGaps their calibration gaps and
	// RepeatedInSample the in-sample reports of the same splits (whose
	// thresholds were fitted in each split's inner folds).
	Repeated         []bench.Report
	RepeatedGaps     []float64
	RepeatedInSample []bench.Report
	// AtAllReply is the held-out report decided at the reply threshold
	// fitted on all cases (bench.CrossValidation.AtAllReply), and
	// RepeatedAtAllReply the same for every split.
	AtAllReply         bench.Report
	RepeatedAtAllReply []bench.Report
	// PooledReliability is the reliability of every split's held-out
	// confidences together (bench.PoolBuckets).
	PooledReliability []bench.Bucket
	Options           Options
	// Shipped are the thresholds of the shipped model.
	Shipped knowledge.Thresholds
}

// Measure scores the run: the held-out, in-sample and shipped columns,
// the BM25 baseline, reliability of the headline column and the lengths
// of the composed replies.
func (r *Run) Measure(ctx context.Context, o Options) (*Report, error) {
	base, err := r.baseline(ctx)
	if err != nil {
		return nil, err
	}
	schema := r.Answerer.Schema()
	th := r.Answerer.Engine.Thresholds
	rep := &Report{N: len(r.Cases), Baseline: bench.Score(r.Cases, base, schema), Options: o, Shipped: th}
	shipped := make([]bench.Result, len(r.Predictions))
	for i, p := range r.Predictions {
		shipped[i] = p.Result(nil, th)
	}
	headline := shipped
	if o.Folds > 0 {
		name := fmt.Sprintf("held-out (%d folds)", o.Folds)
		if o.BySource {
			rep.CV = r.CrossValidateBySource(o.Folds, o.Fit)
			name = fmt.Sprintf("held-out (%d by source)", o.Folds)
		} else {
			rep.CV = r.CrossValidate(o.Folds, o.Seed, o.Fit)
		}
		headline = rep.CV.HeldOut
		rep.AtAllReply = bench.Score(r.Cases, rep.CV.AtAllReply, schema)
		rep.Columns = append(rep.Columns,
			Column{name, bench.Score(r.Cases, rep.CV.HeldOut, schema)},
			Column{"in-sample", bench.Score(r.Cases, rep.CV.InSample, schema)})
		var splits [][]bench.Bucket
		for i := 0; i < o.Repeats && o.Repeats > 1 && !o.BySource; i++ {
			cv := rep.CV
			if i > 0 {
				cv = r.CrossValidate(o.Folds, o.Seed+uint64(i), o.Fit)
			}
			rel := bench.Reliability(r.Cases, cv.HeldOut, reliabilityEdges)
			splits = append(splits, rel)
			rep.Repeated = append(rep.Repeated, bench.Score(r.Cases, cv.HeldOut, schema))
			rep.RepeatedGaps = append(rep.RepeatedGaps, bench.CalibrationGap(rel))
			rep.RepeatedInSample = append(rep.RepeatedInSample, bench.Score(r.Cases, cv.InSample, schema))
			rep.RepeatedAtAllReply = append(rep.RepeatedAtAllReply, bench.Score(r.Cases, cv.AtAllReply, schema))
		}
		rep.PooledReliability = bench.PoolBuckets(splits)
	}
	rep.Columns = append(rep.Columns, Column{"shipped model", bench.Score(r.Cases, shipped, schema)})
	rep.Reliability = bench.Reliability(r.Cases, headline, reliabilityEdges)
	rep.Drafts = r.drafts()
	return rep, nil
}

// JSON is the report as `bench cases --json` prints it; perCase keeps
// each case's row. The report itself is left as it is.
func (rep *Report) JSON(perCase bool) map[string]any {
	cols := slices.Clone(rep.Columns)
	bl := rep.Baseline
	if !perCase {
		for i := range cols {
			cols[i].Report.Cases = nil
		}
		bl.Cases = nil
	}
	out := map[string]any{"herald": cols[0].Report, "baseline": bl, "reliability": rep.Reliability,
		"calibration_gap": bench.CalibrationGap(rep.Reliability)}
	if rep.Options.Folds > 0 {
		out["in_sample"] = cols[1].Report
		atAll := rep.AtAllReply
		if !perCase {
			atAll.Cases = nil
		}
		out["held_out_at_all_cases_reply"] = atAll
		out["shipped"] = cols[2].Report
		out["fold_models"] = rep.CV.Models
		out["in_sample_model"] = rep.CV.All
	}
	if len(rep.Repeated) > 0 {
		out["repeated_held_out"] = withoutCases(rep.Repeated, perCase)
		out["repeated_calibration_gaps"] = rep.RepeatedGaps
		out["repeated_in_sample"] = withoutCases(rep.RepeatedInSample, perCase)
		out["repeated_at_all_cases_reply"] = withoutCases(rep.RepeatedAtAllReply, perCase)
		out["pooled_reliability"] = rep.PooledReliability
		out["pooled_calibration_gap"] = bench.CalibrationGap(rep.PooledReliability)
	}
	return out
}

// withoutCases returns reports without their per-case rows unless
// perCase keeps them; the reports themselves are left as they are.
func withoutCases(reports []bench.Report, perCase bool) []bench.Report {
	out := slices.Clone(reports)
	if !perCase {
		for i := range out {
			out[i].Cases = nil
		}
	}
	return out
}

// WriteText writes the report for people; perCase adds one row per case.
func (rep *Report) WriteText(w io.Writer, perCase bool) error {
	if err := rep.writeTable(w); err != nil {
		return err
	}
	if o := rep.Options; o.Folds > 0 {
		var replies, floors []string
		for _, m := range rep.CV.Models {
			replies = append(replies, fmt.Sprintf("%.3f", m.Reply))
			floors = append(floors, fmt.Sprintf("%.3f", m.QueueFloor))
		}
		fmt.Fprintf(w, "\nfitted per fold for ≤ %.0f%% wrong posts and ≥ %.0f%% useful drafts: reply %s, queue floor %s; on all cases %.3f and %.3f (shipped %.3f)\n",
			o.Fit.TargetWrong, o.Fit.UsefulDrafts, strings.Join(replies, " "), strings.Join(floors, " "), rep.CV.All.Reply, rep.CV.All.QueueFloor, rep.Shipped.Reply)
		a := rep.AtAllReply
		fmt.Fprintf(w, "held out at the reply threshold fitted on all cases (%.3f): support answered %.1f%%, wrong posts %.1f%% (%d/%d)\n",
			rep.CV.All.Reply, 100-a.SupportSilentPct, a.WrongPostPct, a.WrongPosts, a.Replies)
		fmt.Fprintln(w, "extraction has no fitted parameters, so its held-out and in-sample figures are the same by construction")
	}
	if len(rep.Repeated) > 1 {
		rep.writeRepeats(w)
	}
	if d := rep.Drafts; d.N > 0 {
		fmt.Fprintf(w, "\nreplies and drafts composed for the %d posts with a structured match: median %d characters, longest %d; %d not inert\n", d.N, d.Median, d.Longest, d.NotInert)
	}
	writeReliability(w, "reliability (posts not ignored; support with labels, abstain, not-support): confidence → staff accept the top match", rep.Reliability)
	if !perCase {
		return nil
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CASE\tCATEGORY\tDECISION\tCONF\tSTRICT\tLENIENT\tWRONG\tEXTRACTION MISSED")
	for _, c := range rep.Columns[0].Report.Cases {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.3f\t%d\t%d\t%v\t%s\n", c.ID, c.Category, c.Decision, c.Confidence, c.Rank, c.Lenient, c.Wrong, strings.Join(c.Missed, ","))
	}
	return tw.Flush()
}

// writeReliability prints a reliability table under its title, each
// bucket's hit rate beside its mean confidence, and how many buckets are
// within ten points of their confidence.
func writeReliability(w io.Writer, title string, buckets []bench.Bucket) {
	fmt.Fprintln(w, "\n"+title)
	within10, consistent, filled := 0, 0, 0
	for _, b := range buckets {
		mark := ""
		if b.N > 0 {
			filled++
			if math.Abs(b.Pct-b.MeanConf) <= 10 {
				within10++
			}
			if b.Consistent() {
				consistent++
			} else {
				mark = "  confidence outside the interval"
			}
		}
		fmt.Fprintf(w, "  [%.2f, %.2f)  n=%-3d accepted=%-3d %5.1f%% (95%% interval %5.1f–%5.1f)  mean confidence %5.1f%%%s\n",
			b.Low, math.Min(b.High, 1), b.N, b.Correct, b.Pct, b.CILow, b.CIHigh, b.MeanConf, mark)
	}
	fmt.Fprintf(w, "  calibration gap (hit rate vs confidence, weighted by posts): %.1f points; %d of %d buckets within 10 points, %d of %d with their confidence inside the hit rate's 95%% interval\n",
		bench.CalibrationGap(buckets), within10, filled, consistent, filled)
}

// writeTable prints the figures of each column beside the baseline.
func (rep *Report) writeTable(w io.Writer) error {
	cols, bl := rep.Columns, rep.Baseline
	h := cols[0].Report
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%d cases\t", rep.N)
	for _, c := range cols {
		fmt.Fprintf(tw, "%s\t", c.Name)
	}
	fmt.Fprintf(tw, "baseline (BM25)\t\n")
	row := func(name string, get func(bench.Report) float64) {
		fmt.Fprintf(tw, "%s\t", name)
		for _, c := range cols {
			fmt.Fprintf(tw, "%.1f\t", get(c.Report))
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
		fmt.Fprintf(tw, "%.1f (%d/%d)\t", c.Report.WrongPostPct, c.Report.WrongPosts, c.Report.Replies)
	}
	fmt.Fprintf(tw, "%.1f (%d/%d)\t\n", bl.WrongPostPct, bl.WrongPosts, bl.Replies)
	fmt.Fprintf(tw, "extraction %%\t")
	for _, c := range cols {
		fmt.Fprintf(tw, "%.1f\t", c.Report.ExtractPct)
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
			fs := c.Report.Fields[k]
			fmt.Fprintf(tw, "%.1f (%d/%d, %d wrong)\t", fs.Pct, fs.Right, fs.Total, fs.Wrong)
		}
		fmt.Fprintf(tw, "\t\n")
	}
	return tw.Flush()
}

// writeRepeats prints the mean and range of the held-out figures over the
// repeated splits.
func (rep *Report) writeRepeats(w io.Writer) {
	fmt.Fprintf(w, "\nheld-out over %d splits (seeds %d–%d): mean [min, max]\n", len(rep.Repeated), rep.Options.Seed, rep.Options.Seed+uint64(len(rep.Repeated))-1)
	gap := func(i int) float64 { return rep.RepeatedGaps[i] }
	for _, m := range []struct {
		name string
		get  func(i int) float64
	}{
		{"calibration gap", gap},
		{"support answered %", func(i int) float64 { r := rep.Repeated[i]; return 100 - r.SupportSilentPct }},
		{"wrong-post %", func(i int) float64 { r := rep.Repeated[i]; return r.WrongPostPct }},
		{"wrong posts", func(i int) float64 { r := rep.Repeated[i]; return float64(r.WrongPosts) }},
		{"strict hit@1 %", func(i int) float64 { r := rep.Repeated[i]; return r.StrictHit1 }},
		{"strict hit@3 %", func(i int) float64 { r := rep.Repeated[i]; return r.StrictHit3 }},
		{"lenient hit@3 %", func(i int) float64 { r := rep.Repeated[i]; return r.LenientHit3 }},
		{"abstain silent %", func(i int) float64 { r := rep.Repeated[i]; return r.AbstainSilentPct }},
		{"not-support ignored %", func(i int) float64 { r := rep.Repeated[i]; return r.NotSupportIgnoredPct }},
		{"in-sample answered %", func(i int) float64 { r := rep.RepeatedInSample[i]; return 100 - r.SupportSilentPct }},
		{"at all-cases threshold: answered %", func(i int) float64 { r := rep.RepeatedAtAllReply[i]; return 100 - r.SupportSilentPct }},
		{"at all-cases threshold: wrong %", func(i int) float64 { r := rep.RepeatedAtAllReply[i]; return r.WrongPostPct }},
		{"in-sample − held-out answered", func(i int) float64 {
			return rep.Repeated[i].SupportSilentPct - rep.RepeatedInSample[i].SupportSilentPct
		}},
	} {
		lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
		for i := range rep.Repeated {
			v := m.get(i)
			lo, hi, sum = math.Min(lo, v), math.Max(hi, v), sum+v
		}
		fmt.Fprintf(w, "  %-34s %5.1f [%5.1f, %5.1f]\n", m.name, sum/float64(len(rep.Repeated)), lo, hi)
	}
	writeReliability(w, fmt.Sprintf("reliability of the %d splits' held-out confidences pooled (intervals for one split's average count per bucket)", len(rep.Repeated)), rep.PooledReliability)
}
