package knowledge

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestShippedModel checks the embedded model files: each reads, says how
// and with what knowledge base it was fitted, every weight has its
// evidence's sign, and it round-trips.
func TestShippedModel(t *testing.T) {
	t.Parallel()
	for i, m := range EmbeddedModels() {
		if m.FittedOn == "" || m.Method == "" || m.KnowledgeBase == nil {
			t.Errorf("model %d does not say how and with what it was fitted: %+v", i, m)
		}
		for _, f := range Features {
			w := m.Weights[f]
			if s := featureSign(f); s > 0 && w < 0 || s < 0 && w > 0 {
				t.Errorf("model %d: weight %s = %v has the wrong sign", i, f, w)
			}
		}
		var b bytes.Buffer
		if err := m.Write(&b); err != nil {
			t.Fatal(err)
		}
		back, err := ReadModel(&b)
		if err != nil {
			t.Fatal(err)
		}
		if back.Reply != m.Reply || back.Weights[fText] != m.Weights[fText] || *back.KnowledgeBase != *m.KnowledgeBase {
			t.Errorf("model %d: round trip changed the model: %+v vs %+v", i, back, m)
		}
	}
}

// TestDefaultModelFor checks that the embedded model is chosen by the
// knowledge base's make-up: the pack's model for a pack (or an empty
// knowledge base, or a pack with a few learned topics), the imported
// model once imported entries are most of it.
func TestDefaultModelFor(t *testing.T) {
	t.Parallel()
	models := EmbeddedModels()
	if len(models) != 2 || models[0].KnowledgeBase.Imported != 0 || models[1].KnowledgeBase.ImportedShare() < 0.9 {
		t.Fatalf("embedded models: want the pack's (no imports) then one fitted with imports, got %+v, %+v", models[0].KnowledgeBase, models[1].KnowledgeBase)
	}
	for _, tc := range []struct {
		kb   Composition
		want int
	}{
		{Composition{}, 0},
		{Composition{Curated: 63}, 0},
		{Composition{Curated: 63, Imported: 10}, 0},
		{Composition{Curated: 63, Imported: 1139}, 1},
		{Composition{Curated: 5, Imported: 200}, 1},
	} {
		got := DefaultModelFor(tc.kb)
		if got.Reply != models[tc.want].Reply || *got.KnowledgeBase != *models[tc.want].KnowledgeBase {
			t.Errorf("DefaultModelFor(%+v) = the model fitted with %+v, want %+v", tc.kb, *got.KnowledgeBase, *models[tc.want].KnowledgeBase)
		}
	}
}

func TestReadModelRejects(t *testing.T) {
	t.Parallel()
	for name, in := range map[string]string{
		"unknown feature": `{"version":1,"weights":{"nope":1},"reply":0.9,"queue_floor":0.1}`,
		"unknown key":     `{"version":1,"weights":{},"reply":0.9,"queue_floor":0.1,"x":1}`,
		"version":         `{"version":2,"weights":{},"reply":0.9,"queue_floor":0.1}`,
		"floor above":     `{"version":1,"weights":{},"reply":0.5,"queue_floor":0.6}`,
		"not json":        `{`,
	} {
		if _, err := ReadModel(strings.NewReader(in)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestFitWeightsLearnsAndKeepsSigns(t *testing.T) {
	t.Parallel()
	// Relevant candidates carry a signature; the irrelevant ones carry
	// flags more often, which would give flags a negative weight.
	var ex []Example
	for i := range 200 {
		rel := i%4 == 0
		ev := map[string]float64{}
		if rel {
			ev[fSignature] = 1
		}
		if !rel || i%8 == 0 {
			ev[fFlags] = 1
		}
		ex = append(ex, Example{Evidence: ev, Relevant: rel})
	}
	w, _ := FitWeights(ex, 0.1, nil)
	if w[fSignature] <= 1 {
		t.Errorf("signature weight %v, want clearly positive", w[fSignature])
	}
	if w[fFlags] < 0 {
		t.Errorf("flags weight %v: evidence for a match must not count against it", w[fFlags])
	}
	// With no data a feature stays at its prior.
	w, _ = FitWeights(ex, 1, map[string]float64{fModel: 0.7})
	if w[fModel] != 0.7 {
		t.Errorf("model weight %v, want the prior 0.7 for a feature no candidate carries", w[fModel])
	}
}

func TestFitCalibration(t *testing.T) {
	t.Parallel()
	var scores, margins, others []float64
	var right []bool
	for i := range 100 {
		s := float64(i%10) - 5
		scores = append(scores, s)
		margins = append(margins, 0)
		others = append(others, 0)
		right = append(right, s > 0 && i%3 != 0)
	}
	c := FitCalibration(scores, margins, others, right, 0.01)
	m := &Model{Calibration: c}
	// A logistic fit with an intercept is calibrated in the large: its
	// mean probability is the observed rate; and it rises with the score.
	sum, n := 0.0, 0
	for i, s := range scores {
		sum += m.Probability(s, margins[i], 0)
		if right[i] {
			n++
		}
	}
	if mean, rate := sum/float64(len(scores)), float64(n)/float64(len(scores)); mean < rate-0.01 || mean > rate+0.01 {
		t.Errorf("mean probability %.3f, observed rate %.3f", mean, rate)
	}
	if lo, hi := m.Probability(-4, 0, 0), m.Probability(4, 0, 0); lo >= hi || lo > 0.1 {
		t.Errorf("calibration %+v: p(-4) = %.3f, p(4) = %.3f", c, lo, hi)
	}
}

// Posts about another engine whose top matches were wrong make such a
// post's confidence lower than its score alone says; posts about another
// engine whose matches were right never make it higher (the coefficient
// keeps its sign).
func TestCalibrationOtherEngine(t *testing.T) {
	t.Parallel()
	fit := func(othersRight bool) Calibration {
		var scores, margins, others []float64
		var right []bool
		for i := range 120 {
			s := float64(i%6) - 2
			other := 0.0
			if i%4 == 0 {
				other = 1
			}
			scores = append(scores, s)
			margins = append(margins, 0)
			others = append(others, other)
			if other == 1 {
				right = append(right, othersRight)
			} else {
				right = append(right, s > 0 && i%5 != 0)
			}
		}
		return FitCalibration(scores, margins, others, right, 1)
	}
	c := fit(false)
	if c.OtherEngine >= -0.5 {
		t.Errorf("other engines' posts always wrong: coefficient %.3f, want clearly negative", c.OtherEngine)
	}
	m := &Model{Calibration: c}
	if about, not := m.Probability(2, 0, 1), m.Probability(2, 0, 0); about >= not {
		t.Errorf("p(another engine's post) = %.3f, p(this package's) = %.3f at the same score", about, not)
	}
	if c := fit(true); c.OtherEngine != 0 {
		t.Errorf("other engines' posts always right: coefficient %.3f, want held at 0", c.OtherEngine)
	}
}

// A match only word overlap supports is calibrated by TextCalibration
// when the model has one, and at half the structured calibration when it
// does not (model files written before it existed, and fits on too few
// posts with such a top match: the shipped models, once a shared topic
// tag counted as structured evidence, see bench.calibrate).
func TestTextCalibration(t *testing.T) {
	t.Parallel()
	m := DefaultModel()
	m.Recalibration = nil // the Platt stage alone
	ms := []Match{{ID: "a", Evidence: map[string]float64{fText: 1}}}
	old := *m
	old.TextCalibration = nil
	got := old.Rescore(slices.Clone(ms))[0]
	if want := round3(0.5 * old.Probability(got.Score, got.Score-old.Bias, 0)); got.Confidence != want {
		t.Errorf("without a text calibration: confidence %.3f, want half the structured one, %.3f", got.Confidence, want)
	}
	fitted := *m
	fitted.TextCalibration = &Calibration{Slope: 0, Margin: 0, Intercept: 0}
	if got := fitted.Rescore(slices.Clone(ms))[0]; got.Confidence != 0.5 {
		t.Errorf("with a flat text calibration: confidence %.3f, want 0.5", got.Confidence)
	}
}

// TestFitRankWeightsComparesWithinPosts: within every post the relevant
// candidate has a signature match; across posts, posts whose candidates
// are docs pages have their answer among them more often. A conditional
// logit learns the within-post evidence and keeps the signs; its scores
// stay probabilities of relevance.
func TestFitRankWeightsComparesWithinPosts(t *testing.T) {
	t.Parallel()
	var ex []Example
	for g := range 60 {
		docs := 0.0
		if g%2 == 0 {
			docs = 1
		}
		for c := range 5 {
			rel := c == g%5
			ev := map[string]float64{fDocs: docs, fText: float64(c) / 4}
			if rel {
				ev[fSignature] = 0.9
			}
			if c == 4 {
				ev[fPlatformMiss] = 1
			}
			if g%3 == 0 && rel {
				ev[fPlatformMiss] = 1 // some answers are on another platform
			}
			ex = append(ex, Example{Evidence: ev, Relevant: rel && g%4 != 3, Group: g})
		}
	}
	w, bias := FitRankWeights(ex, 0.1, nil)
	if w[fSignature] <= 1 {
		t.Errorf("signature weight %v, want clearly positive", w[fSignature])
	}
	if w[fPlatformMiss] > 0 {
		t.Errorf("platform_miss weight %v: evidence against a match must not count for it", w[fPlatformMiss])
	}
	m := &Model{Weights: w, Bias: bias}
	hit := 0
	for g := range 60 {
		best, bestScore := -1, math.Inf(-1)
		for c := range 5 {
			if s := m.Score(ex[g*5+c].Evidence); s > bestScore {
				best, bestScore = c, s
			}
		}
		if best == g%5 {
			hit++
		}
	}
	if hit < 55 {
		t.Errorf("the relevant candidate ranks first in %d of 60 posts", hit)
	}
	// Relevance stays a probability: about a sixth of all candidates are
	// relevant, and the mean of sigmoid(score) says so.
	sum := 0.0
	for _, e := range ex {
		sum += sigmoid(m.Score(e.Evidence))
	}
	if mean := sum / float64(len(ex)); mean < 0.1 || mean > 0.25 {
		t.Errorf("mean relevance %.3f, want near the share of relevant candidates (0.15)", mean)
	}
}

// TestLoneMatchMargin: a match the index returned alone is measured
// against an entry with no evidence, not given a fixed lead. A post of a
// few words whose only candidate fits poorly (a curated entry sharing a
// topic and one symptom word, relevance about 0.06) stays below the
// reply threshold, as it would beside any competitor.
func TestLoneMatchMargin(t *testing.T) {
	t.Parallel()
	for _, m := range EmbeddedModels() {
		weak := Match{ID: "weak", Structured: true, Evidence: map[string]float64{"curated": 1, "key_symptom": 1, "key_topic": 1, "text": 1, "topic": 1}}
		lone := m.Rescore([]Match{weak})[0]
		if lone.Relevance > 0.2 {
			t.Fatalf("the weak match's relevance is %.3f; the test wants a poor fit", lone.Relevance)
		}
		t.Logf("model fitted with imported share %.2f: lone poor match relevance %.3f, confidence %.3f, reply threshold %.3f",
			m.KnowledgeBase.ImportedShare(), lone.Relevance, lone.Confidence, m.Reply)
		if lone.Confidence >= m.Reply {
			t.Errorf("a lone poor match is answered: confidence %.3f ≥ reply threshold %.3f", lone.Confidence, m.Reply)
		}
		beside := m.Rescore([]Match{weak, {ID: "z-nothing", Structured: true, Evidence: map[string]float64{}}})
		if beside[0].ID != "weak" || beside[0].Confidence != lone.Confidence {
			t.Errorf("alone %.3f, beside an entry with no evidence %+v: want the same confidence", lone.Confidence, beside[0])
		}
	}
}

// TestPlatformUnstated: for a post on another platform than CUDA, an
// issue that names no platform carries platform_unstated (evidence
// against it, most such issues being CUDA reports); one that names the
// post's platform, a docs page, and any entry for a CUDA post or a post
// whose platform is unknown do not.
func TestPlatformUnstated(t *testing.T) {
	t.Parallel()
	unstated := Entry{ID: "u", Kind: KindIssue, Title: "Failed to build from source", Symptoms: []string{"build fails"}}
	xpu := Entry{ID: "x", Kind: KindIssue, Title: "XPU build fails", Symptoms: []string{"build fails"}, Platforms: []string{"xpu"}}
	docs := Entry{ID: "d", Kind: KindDocs, Title: "Installation", Symptoms: []string{"build fails"}}
	cands := []Candidate{{Entry: unstated, TextScore: 1}, {Entry: xpu, TextScore: 1}, {Entry: docs, TextScore: 1}}
	post := Post{Title: "build fails", Body: "The build fails."}
	for _, tc := range []struct {
		platform string
		want     map[string]bool // entry id → carries the feature
	}{
		{"xpu", map[string]bool{"u": true, "x": false, "d": false}},
		{"rocm", map[string]bool{"u": true, "x": false, "d": false}},
		{"cuda", map[string]bool{"u": false, "x": false, "d": false}},
		{"", map[string]bool{"u": false, "x": false, "d": false}},
	} {
		f := Facts{Platform: tc.platform}
		for _, m := range Rank(post, &f, cands, EmbeddedModels()[1]) {
			if got := m.Evidence[fPlatformUnstated] > 0; got != tc.want[m.ID] {
				t.Errorf("post on %q, entry %s: platform_unstated %v, want %v", tc.platform, m.ID, got, tc.want[m.ID])
			}
		}
	}
	if w := EmbeddedModels()[1].Weights[fPlatformUnstated]; w > 0 {
		t.Errorf("platform_unstated weight %v: evidence against a match must not count for it", w)
	}
}
