package evaluate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/heraldbot/herald/bench"
	"github.com/heraldbot/herald/importer"
	"github.com/heraldbot/herald/store"
)

// toyCases are written for this test (not real posts): one support post
// whose labelled entry is in the embedded pack, one release note.
var toyCases = []bench.Case{
	{ID: "T1", Category: bench.Support, Title: "OOM with --cpu-offload-gb on 0.24",
		Body:    "vllm serve google/gemma-3-27b-it --cpu-offload-gb 40\n\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n\nvllm 0.24.0",
		Answers: []string{"vllm-project/vllm#9367"}},
	{ID: "T2", Category: bench.NotSupport, Title: "vLLM 0.25.0 released",
		Body: "We are happy to announce the release of vLLM 0.25.0 with new features. See the release notes."},
}

func answered(t *testing.T) *Run {
	t.Helper()
	return answeredCases(t, toyCases)
}

// answeredCases answers cases against a fresh knowledge base holding the
// embedded packs and what the sources import (importer.Import's).
func answeredCases(t *testing.T, cases []bench.Case, sources ...importSource) *Run {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "kb.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := importer.ImportBuiltins(ctx, db); err != nil {
		t.Fatal(err)
	}
	for _, src := range sources {
		if _, err := importer.Import(ctx, db, src.path, src.opts, nil); err != nil {
			t.Fatal(err)
		}
	}
	run, err := Answer(ctx, db, cases)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// importSource is a file or folder importer.Import reads.
type importSource struct {
	path string
	opts importer.Options
}

// TestMeasureScoresBesideTheBaseline: the report has the shipped column
// and the BM25 baseline of the same run, finds the labelled entry, and
// prints and encodes the same figures.
func TestMeasureScoresBesideTheBaseline(t *testing.T) {
	t.Parallel()
	run := answered(t)
	if len(run.Predictions) != len(toyCases) {
		t.Fatalf("%d predictions for %d cases", len(run.Predictions), len(toyCases))
	}
	rep, err := run.Measure(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.N != 2 || len(rep.Columns) != 1 || rep.Columns[0].Name != "shipped model" {
		t.Fatalf("report: %d cases, columns %+v", rep.N, rep.Columns)
	}
	h := rep.Columns[0].Report
	if h.StrictN != 1 || h.StrictHit3 != 100 {
		t.Errorf("strict n=%d hit@3=%.1f; want the labelled entry in the top three", h.StrictN, h.StrictHit3)
	}
	if rep.Baseline.Replies != 2 {
		t.Errorf("baseline replied to %d posts; it answers everything it finds", rep.Baseline.Replies)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text, true); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2 cases", "baseline (BM25)", "calibration gap", "T1", "T2"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	js := rep.JSON(false)
	if js["herald"].(bench.Report).Cases != nil || js["in_sample"] != nil {
		t.Errorf("JSON without folds or per-case rows: %v", js)
	}
	if len(rep.Columns[0].Report.Cases) != 2 {
		t.Error("JSON dropped the report's own per-case rows")
	}
}

// TestFitNamesItsCases: with enough posts of both outcomes (the toy
// support post five times, with the two offload issues the pack ranks
// first as fitting, and five times labelled abstain, where its top match
// is then wrong) the fit gives a model that says what it was fitted on.
func TestFitNamesItsCases(t *testing.T) {
	t.Parallel()
	var cases []bench.Case
	for i := range 5 {
		right, none := toyCases[0], toyCases[0]
		right.ID, none.ID = fmt.Sprintf("S%d", i), fmt.Sprintf("A%d", i)
		right.TopicMatch = []string{"vllm-project/vllm#51396"}
		none.Category, none.Answers = bench.Abstain, nil
		cases = append(cases, right, none)
	}
	m, err := answeredCases(t, cases).Fit(bench.DefaultFitOptions(), "toy.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if m.FittedOn != "toy.jsonl: 10 cases (5 support, 5 abstain)" {
		t.Errorf("FittedOn = %q", m.FittedOn)
	}
	if m.Reply <= 0 || m.Reply > 1.5 {
		t.Errorf("reply threshold %v", m.Reply)
	}
}

// TestFitRefusesOneSidedCases: two toy cases cannot calibrate a
// confidence; the fit says so, with the counts, and gives no model.
func TestFitRefusesOneSidedCases(t *testing.T) {
	t.Parallel()
	run := answered(t)
	m, err := run.Fit(bench.DefaultFitOptions(), "toy.jsonl")
	var oe *bench.OutcomeError
	if m != nil || !errors.As(err, &oe) || !strings.Contains(err.Error(), "toy.jsonl") {
		t.Fatalf("fit on two cases: model %v, error %v; want an OutcomeError naming the file", m, err)
	}
	if oe.Accepted+oe.Rejected > 2 {
		t.Errorf("counted %d accepted and %d rejected top matches of two cases", oe.Accepted, oe.Rejected)
	}
}

// TestMeasureRepeatsSplits: with repeats, the report keeps one held-out
// report per split, the headline's first, and prints their spread.
func TestMeasureRepeatsSplits(t *testing.T) {
	t.Parallel()
	run := answered(t)
	rep, err := run.Measure(context.Background(), Options{Folds: 2, Seed: 1, Repeats: 3, Fit: bench.DefaultFitOptions()})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Repeated) != 3 || len(rep.Columns) != 3 {
		t.Fatalf("%d repeated reports, %d columns; want 3 and 3", len(rep.Repeated), len(rep.Columns))
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "held-out over 3 splits (seeds 1–3)") {
		t.Errorf("no spread in:\n%s", text.String())
	}
	if len(rep.RepeatedInSample) != 3 || !strings.Contains(text.String(), "in-sample − held-out answered") {
		t.Errorf("%d in-sample reports; no answered gap in:\n%s", len(rep.RepeatedInSample), text.String())
	}
	pooled := 0
	for _, b := range rep.PooledReliability {
		pooled += b.N
	}
	single := 0
	for _, b := range bench.Reliability(run.Cases, rep.CV.HeldOut, reliabilityEdges) {
		single += b.N
	}
	if pooled != 3*single || !strings.Contains(text.String(), "reliability of the 3 splits' held-out confidences pooled") {
		t.Errorf("pooled %d posts, want 3×%d; text:\n%s", pooled, single, text.String())
	}
}

// TestMeasureBySource: the held-out column of a by-source split says so,
// and every case is decided by a model fitted without its source.
func TestMeasureBySource(t *testing.T) {
	t.Parallel()
	cases := slices.Clone(toyCases) // toyCases is shared by parallel tests
	for i := range cases {
		cases[i].Source = fmt.Sprintf("https://github.com/o/r%d/issues/1", i)
	}
	run := answeredCases(t, cases)
	rep, err := run.Measure(context.Background(), Options{Folds: 2, BySource: true, Repeats: 1, Fit: bench.DefaultFitOptions()})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Columns) != 3 || rep.Columns[0].Name != "held-out (2 by source)" {
		t.Fatalf("columns = %+v", rep.Columns)
	}
	if len(rep.CV.Models) != 2 || len(rep.CV.HeldOut) != len(run.Cases) {
		t.Errorf("%d models, %d held-out results", len(rep.CV.Models), len(rep.CV.HeldOut))
	}
}

// TestShippedThresholdHoldsOnHeldOutPosts: the reply threshold fitted on
// all the vllm-dev posts (the one a forum ships), applied to the
// confidences cross-validation gives posts their model did not see,
// keeps the wrong posts near the target: at most the target's share of
// the replies, rounded up, and one post more for the split. Chosen on
// confidences whose isotonic recalibration had been fitted on the same
// posts, the threshold was 0.550 with the corpus and docs imported, and
// the held-out posts above it were wrong 5 times in 45 (seed 1; 11.6%
// over ten splits).
func TestShippedThresholdHoldsOnHeldOutPosts(t *testing.T) {
	t.Parallel()
	shared := filepath.Join("..", "..", "..", "shared")
	casesPath := filepath.Join(shared, "bench", "vllm-dev", "cases.jsonl")
	corpus := filepath.Join(shared, "kb-corpus", "vllm-issues.json")
	docs := filepath.Join(shared, "kb-docs", "vllm")
	data, err := os.ReadFile(casesPath)
	if err != nil {
		t.Skipf("skipping: %s not available (it sits beside the repository in the dev environment): %v", casesPath, err)
	}
	for _, p := range []string{corpus, docs} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("skipping: %s not available: %v", p, err)
		}
	}
	cases, err := bench.ReadCases(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	run := answeredCases(t, cases, importSource{path: corpus},
		importSource{path: docs, opts: importer.Options{DocsBaseURL: "https://docs.vllm.ai/en/latest"}})
	o := bench.DefaultFitOptions()
	cv := run.CrossValidate(5, 1, o)
	at := bench.Score(run.Cases, cv.AtAllReply, run.Answerer.Schema())
	held := bench.Score(run.Cases, cv.HeldOut, run.Answerer.Schema())
	for i := range cv.HeldOut {
		if cv.AtAllReply[i].Confidence != cv.HeldOut[i].Confidence {
			t.Fatalf("case %s: confidence %v at the all-cases threshold, %v held out: not the same fold model", cv.HeldOut[i].CaseID, cv.AtAllReply[i].Confidence, cv.HeldOut[i].Confidence)
		}
	}
	allowed := int(math.Ceil(o.TargetWrong/100*float64(at.Replies))) + 1
	if at.WrongPosts > allowed {
		t.Errorf("at the reply threshold fitted on all posts (%.3f) the held-out posts get %d replies, %d wrong (%.1f%%); want at most %d (the folds' own thresholds: %d of %d)",
			cv.All.Reply, at.Replies, at.WrongPosts, at.WrongPostPct, allowed, held.WrongPosts, held.Replies)
	}
}
