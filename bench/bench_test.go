package bench

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/heraldbot/herald/knowledge"
)

func str(s string) *string { return &s }

func vllmSchema(t *testing.T) *knowledge.Schema {
	t.Helper()
	p, err := knowledge.BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	return p.Schema()
}

func TestScoreToyCases(t *testing.T) {
	t.Parallel()
	cases := []Case{
		{ID: "s1", Category: Support, Answers: []string{"a"}, TopicMatch: []string{"b"}},
		{ID: "s2", Category: Support, Answers: []string{"x"}},
		{ID: "s3", Category: Support, TopicMatch: []string{"t"}}, // lenient only
		{ID: "s4", Category: Support},                            // no labels: never wrong, not in hit rates
		{ID: "ab", Category: Abstain},
		{ID: "ns", Category: NotSupport},
	}
	results := []Result{
		{CaseID: "s1", Ranked: []string{"b", "a", "c"}, Cited: []string{"b"}, Decision: knowledge.DecisionReply},
		{CaseID: "s2", Ranked: []string{"c", "d", "e", "x"}, Cited: []string{"c", "d"}, Decision: knowledge.DecisionReply},
		{CaseID: "s3", Ranked: []string{"t"}, Decision: knowledge.DecisionAbstain},
		{CaseID: "s4", Ranked: nil, Cited: []string{"z"}, Decision: knowledge.DecisionReply},
		{CaseID: "ab", Ranked: []string{"q"}, Cited: []string{"q"}, Decision: knowledge.DecisionReply},
		// "ns" has no result at all: silence.
	}
	r := Score(cases, results, nil)
	check := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 0.01 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	// Strict: s1 rank 2, s2 rank 4 → hit@1 0/2, hit@3 1/2, MRR (1/2+1/4)/2.
	check("strict_hit1", r.StrictHit1, 0)
	check("strict_hit3", r.StrictHit3, 50)
	check("strict_mrr", r.StrictMRR, 37.5)
	// Lenient: s1 rank 1, s2 rank 4, s3 rank 1 → 2/3.
	check("lenient_hit3", r.LenientHit3, 66.67)
	check("abstain_silent_pct", r.AbstainSilentPct, 0)
	check("not_support_ignored_pct", r.NotSupportIgnoredPct, 0) // silence is not ignoring
	// Replies: s1 (right), s2 (wrong: c, d not labelled), s4 (no labels), ab (wrong).
	if r.Replies != 4 || r.WrongPosts != 2 {
		t.Errorf("replies %d wrong %d, want 4 and 2", r.Replies, r.WrongPosts)
	}
	check("wrong_post_pct", r.WrongPostPct, 50)
	check("support_silent_pct", r.SupportSilentPct, 25)
	if r.Fields != nil {
		t.Errorf("fields scored for a system without facts: %v", r.Fields)
	}
}

func TestScoreEmpty(t *testing.T) {
	t.Parallel()
	r := Score(nil, nil, nil)
	if r.StrictHit3 != 0 || r.WrongPostPct != 0 || r.Replies != 0 {
		t.Errorf("empty report = %+v", r)
	}
}

func TestScoreExtraction(t *testing.T) {
	t.Parallel()
	s := vllmSchema(t)
	c := Case{ID: "e", Category: Support, Expect: Expect{
		Command:   str("vllm serve m/x -tp 2 --enforce-eager --chat-template 't.jinja'"),
		Flags:     map[string]any{"-tp": "2", "--enforce-eager": true, "--chat-template": "'t.jinja'"},
		Exception: str("ValueError"),
		Versions:  map[string]string{"vllm": "0.8.3"},
		Platform:  str("unknown"),
		Model:     str("M/X (from the command)"),
	}}
	f, _ := knowledge.Extract(knowledge.Post{Body: "```\nvllm serve m/x --tensor_parallel_size=2 --enforce-eager --chat-template t.jinja\nValueError: boom\n```\nvllm==0.8.3"}, s)
	r := Score([]Case{c}, []Result{{CaseID: "e", Facts: &f}}, s)
	if r.ExtractPct != 100 {
		t.Errorf("extraction = %v%%, fields %+v, missed %v", r.ExtractPct, r.Fields, r.Cases[0].Missed)
	}
	f.Platform = "cuda"
	f.Errors = nil
	r = Score([]Case{c}, []Result{{CaseID: "e", Facts: &f}}, s)
	if got := r.Cases[0].Missed; strings.Join(got, ",") != "exception,platform" {
		t.Errorf("missed = %v, want exception,platform", got)
	}
}

func TestReliabilityBuckets(t *testing.T) {
	t.Parallel()
	cases := []Case{
		{ID: "1", Category: Support, Answers: []string{"a"}},
		{ID: "2", Category: Support, Answers: []string{"a"}},
		{ID: "3", Category: Support, Answers: []string{"a"}},
		{ID: "4", Category: Abstain},
		{ID: "5", Category: NotSupport},
	}
	results := []Result{
		{CaseID: "1", Confidence: 0.65, Ranked: []string{"a"}},
		{CaseID: "2", Confidence: 0.6, Ranked: []string{"b"}},           // on the edge: belongs to [0.6, 1)
		{CaseID: "3", Confidence: 0.1, Ranked: []string{"b", "c", "a"}}, // the top match is not the labelled one
		{CaseID: "4", Confidence: 0.9, Ranked: []string{"x"}},           // nothing fits an abstain case
		{CaseID: "5", Confidence: 0.95, Decision: knowledge.DecisionIgnore},
	}
	b := Reliability(cases, results, []float64{0, 0.6, 1.0001})
	if b[0].N != 1 || b[0].Correct != 0 || b[1].N != 3 || b[1].Correct != 1 || b[1].Pct != 33.33 || b[1].MeanConf != 71.67 {
		t.Errorf("buckets = %+v", b)
	}
}

// TestPoolBuckets: pooled splits add their counts, weigh each split's
// mean confidence by its posts, and give the interval of one split's
// average count rather than of every post counted once per split.
func TestPoolBuckets(t *testing.T) {
	t.Parallel()
	edges := []float64{0, 0.5, 1.0001}
	a := []Bucket{{Low: 0, High: 0.5, N: 2, Correct: 0, MeanConf: 20}, {Low: 0.5, High: 1.0001, N: 3, Correct: 3, MeanConf: 90}}
	b := []Bucket{{Low: 0, High: 0.5, N: 0}, {Low: 0.5, High: 1.0001, N: 1, Correct: 0, MeanConf: 70}}
	got := PoolBuckets([][]Bucket{a, b})
	if len(got) != len(edges)-1 || got[0].N != 2 || got[0].Pct != 0 || got[0].MeanConf != 20 ||
		got[1].N != 4 || got[1].Correct != 3 || got[1].Pct != 75 || got[1].MeanConf != 85 {
		t.Fatalf("pooled = %+v", got)
	}
	lo, hi := wilson(3, 4)
	if !(got[1].CILow < lo && got[1].CIHigh >= hi) {
		t.Errorf("pooled interval [%.1f, %.1f] is not wider than four independent posts' [%.1f, %.1f]", got[1].CILow, got[1].CIHigh, lo, hi)
	}
	if PoolBuckets(nil) != nil {
		t.Error("no splits pooled to buckets")
	}
}

const toyGold = `Q1 Q1_R1 1 0 true
Q1 Q1_R2 2 0 false
Q1 Q1_R3 3 0 true
Q2 Q2_R1 1 0 false
Q2 Q2_R2 2 0 false
`

func TestScoreSemEvalToy(t *testing.T) {
	t.Parallel()
	g, err := ReadGold(strings.NewReader(toyGold))
	if err != nil {
		t.Fatal(err)
	}
	// Q1 ranked R3, R2, R1: AP = (1/1 + 2/3)/2; RR = 1. Q2 has no relevant
	// candidate: AP = RR = 0 and it still counts.
	s, err := ScoreSemEval(g, map[string][]string{"Q1": {"Q1_R3", "Q1_R2", "Q1_R1"}, "Q2": {"Q2_R2"}})
	if err != nil {
		t.Fatal(err)
	}
	wantMAP := 100 * ((1.0 + 2.0/3) / 2) / 2
	if math.Abs(s.MAP-wantMAP) > 1e-9 || math.Abs(s.MRR-50) > 1e-9 {
		t.Errorf("MAP %v MRR %v, want %v and 50", s.MAP, s.MRR, wantMAP)
	}
	// Ties in the official format keep gold order: R1 before R3.
	run, err := ReadRun(strings.NewReader("Q1 Q1_R3 0 1.0 true\nQ1 Q1_R1 0 1.0 true\nQ1 Q1_R2 0 2.0 false\nQ2 Q2_R1 0 0 false\n"), g)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(run["Q1"], " "); got != "Q1_R2 Q1_R1 Q1_R3" {
		t.Errorf("tie order = %s", got)
	}
	if _, err := ScoreSemEval(g, map[string][]string{"Q1": nil}); err == nil {
		t.Error("a run missing a query was scored")
	}
}

// TestScoreSemEvalReproducesOfficial checks the scorer against the
// organisers' published dev baselines (../shared/bench).
func TestScoreSemEvalReproducesOfficial(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "shared", "bench", "semeval-cqa-subtaskB")
	gf, err := os.Open(filepath.Join(dir, "gold", "SemEval2016-Task3-CQA-QL-dev.xml.subtaskB.relevancy"))
	if err != nil {
		t.Skipf("skipping: SemEval data not available beside the repository: %v", err)
	}
	defer gf.Close()
	g, err := ReadGold(gf)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ScoreSemEval(g, g.IRRanking())
	if err != nil {
		t.Fatal(err)
	}
	if fmt2(s.MAP) != "71.35" || fmt2(s.AvgRec) != "86.11" || fmt2(s.MRR) != "76.67" {
		t.Errorf("IR baseline = %.2f/%.2f/%.2f, want 71.35/86.11/76.67", s.MAP, s.AvgRec, s.MRR)
	}
	rf, err := os.Open(filepath.Join(dir, "official-scorer-v2.2-dev", "SemEval2016-Task3-CQA-QL-dev.xml.subtaskB.pred"))
	if err != nil {
		t.Fatal(err)
	}
	defer rf.Close()
	run, err := ReadRun(rf, g)
	if err != nil {
		t.Fatal(err)
	}
	s, err = ScoreSemEval(g, run)
	if err != nil {
		t.Fatal(err)
	}
	if fmt2(s.MAP) != "55.95" || fmt2(s.AvgRec) != "73.23" || fmt2(s.MRR) != "62.23" {
		t.Errorf("random baseline = %.2f/%.2f/%.2f, want 55.95/73.23/62.23", s.MAP, s.AvgRec, s.MRR)
	}
}

func fmt2(x float64) string { return strconv.FormatFloat(math.Round(x*100)/100, 'f', 2, 64) }

func TestCalibrationGap(t *testing.T) {
	t.Parallel()
	got := CalibrationGap([]Bucket{{N: 10, Pct: 40, MeanConf: 10}, {N: 30, Pct: 50, MeanConf: 50}})
	if got != 7.5 { // (10·30 + 30·0) / 40
		t.Errorf("gap = %v, want 7.5", got)
	}
	if CalibrationGap(nil) != 0 {
		t.Error("gap of no posts is not 0")
	}
}

// TestWilsonInterval checks the 95% interval against values computed by
// hand from the Wilson score formula.
func TestWilsonInterval(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{{4, 10, 16.8, 68.7}, {10, 11, 62.3, 98.4}, {0, 5, 0, 43.4}, {0, 0, 0, 100}} {
		lo, hi := wilson(c.k, c.n)
		if lo != c.lo || hi != c.hi {
			t.Errorf("wilson(%d, %d) = %.1f–%.1f, want %.1f–%.1f", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
	if !(Bucket{N: 10, Correct: 4, MeanConf: 20, CILow: 16.8, CIHigh: 68.7}).Consistent() ||
		(Bucket{N: 10, Correct: 4, MeanConf: 7, CILow: 16.8, CIHigh: 68.7}).Consistent() {
		t.Error("Consistent does not test the mean confidence against the interval")
	}
}
