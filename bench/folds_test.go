package bench

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/heraldbot/herald/knowledge"
)

func TestFoldsStratifiedAndReproducible(t *testing.T) {
	t.Parallel()
	var cases []Case
	for i := range 20 {
		cat := Support
		switch {
		case i%5 == 0:
			cat = Abstain
		case i%5 == 1:
			cat = NotSupport
		}
		cases = append(cases, Case{ID: string(rune('a' + i)), Category: cat})
	}
	a, b := Folds(cases, 4, 7), Folds(cases, 4, 7)
	if !slices.EqualFunc(a, b, slices.Equal[[]int]) {
		t.Fatalf("same seed, different folds: %v vs %v", a, b)
	}
	seen := map[int]bool{}
	for _, f := range a {
		if len(f) != 5 {
			t.Errorf("fold %v has %d cases, want 5", f, len(f))
		}
		counts := map[string]int{}
		for _, i := range f {
			if seen[i] {
				t.Errorf("case %d in two folds", i)
			}
			seen[i] = true
			counts[cases[i].Category]++
		}
		if counts[Abstain] != 1 || counts[NotSupport] != 1 || counts[Support] != 3 {
			t.Errorf("fold %v not stratified: %v", f, counts)
		}
	}
	if len(seen) != len(cases) {
		t.Errorf("%d cases in folds, want %d", len(seen), len(cases))
	}
}

// pred builds a support prediction whose one match has the given score,
// confidence score/(score+2.5), and id.
func pred(id, cat, top string, score float64, label string) Prediction {
	return Prediction{
		Case:  Case{ID: id, Category: cat, Title: "vllm serve fails", Body: "error: it fails", Answers: []string{label}},
		Facts: knowledge.Facts{Errors: []knowledge.ErrorInfo{{Type: "ValueError"}}},
		Matches: []knowledge.Match{{ID: top, Score: score, Confidence: score / (score + 2.5), Structured: true,
			Evidence: map[string]float64{"signature": score / 10}}},
	}
}

// TestSourceFoldsHoldOutEachPlace: every post of a place lands in one
// fold, every case in exactly one fold, the biggest place alone when it
// is bigger than a fold, and the split is the same every time.
func TestSourceFoldsHoldOutEachPlace(t *testing.T) {
	t.Parallel()
	var cases []Case
	add := func(n int, source string) {
		for range n {
			cases = append(cases, Case{ID: fmt.Sprint(len(cases)), Category: Support, Source: source})
		}
	}
	add(6, "https://github.com/vllm-project/vllm/issues/1")
	add(2, "https://github.com/InternLM/lmdeploy/issues/2")
	add(2, "https://github.com/InternLM/lmdeploy/pull/3")
	add(1, "https://discuss.vllm.ai/t/topic/4")
	add(1, "vLLM forum thread \"Running out of memory\"")
	folds := SourceFolds(cases, 3)
	if !slices.Equal(folds[0], []int{0, 1, 2, 3, 4, 5}) {
		t.Errorf("fold 0 = %v; want the six vllm posts alone", folds[0])
	}
	seen := map[int]int{}
	for f, fold := range folds {
		for _, i := range fold {
			if _, dup := seen[i]; dup {
				t.Fatalf("case %d in two folds", i)
			}
			seen[i] = f
		}
	}
	if len(seen) != len(cases) {
		t.Fatalf("%d of %d cases in a fold", len(seen), len(cases))
	}
	for i := range cases {
		for j := range cases {
			if cases[i].SourceGroup() == cases[j].SourceGroup() && seen[i] != seen[j] {
				t.Errorf("cases %d and %d of %s in folds %d and %d", i, j, cases[i].SourceGroup(), seen[i], seen[j])
			}
		}
	}
	if g := cases[7].SourceGroup(); g != "InternLM/lmdeploy" {
		t.Errorf("group of an issue = %q, want the repository", g)
	}
	if !slices.EqualFunc(folds, SourceFolds(cases, 3), slices.Equal[[]int]) {
		t.Error("two splits of the same cases differ")
	}
}

func TestFitReplyMeetsTarget(t *testing.T) {
	t.Parallel()
	// High scores are right, low scores wrong: the fitted threshold must
	// sit between them.
	preds := []Prediction{
		pred("1", Support, "a", 10, "a"),
		pred("2", Support, "b", 8, "b"),
		pred("3", Support, "x", 1, "c"),
		pred("4", Support, "y", 0.5, "d"),
	}
	base := knowledge.DefaultThresholds()
	th := FitReply(preds, nil, base, 5)
	hi := knowledge.Confidence(preds[1].Matches[0])
	lo := knowledge.Confidence(preds[2].Matches[0])
	if th <= lo || th > hi {
		t.Fatalf("threshold %.3f, want in (%.3f, %.3f]", th, lo, hi)
	}
	// Nothing is right: never reply.
	wrong := []Prediction{pred("1", Support, "x", 10, "a")}
	if th := FitReply(wrong, nil, base, 5); th <= 1 {
		t.Errorf("threshold %.3f for all-wrong cases, want one that never replies", th)
	}
}

func TestCrossValidateHoldsOut(t *testing.T) {
	t.Parallel()
	var preds []Prediction
	for i := range 10 {
		preds = append(preds, pred(string(rune('a'+i)), Support, "a", 10, "a"))
	}
	cases := make([]Case, len(preds))
	for i, p := range preds {
		cases[i] = p.Case
	}
	cv := CrossValidate(preds, Folds(cases, 5, 1), knowledge.DefaultThresholds(), DefaultFitOptions())
	if len(cv.Models) != 5 || len(cv.HeldOut) != 10 || len(cv.InSample) != 10 {
		t.Fatalf("fitted %d, held-out %d, in-sample %d", len(cv.Models), len(cv.HeldOut), len(cv.InSample))
	}
	for _, r := range cv.HeldOut {
		if r.CaseID == "" || r.Decision != knowledge.DecisionReply {
			t.Errorf("held-out result %+v, want a reply", r)
		}
	}
}

// textPred is a labelled support prediction whose only match is
// supported by word overlap alone.
func textPred(id string, overlap float64, right bool) Prediction {
	label := "other"
	if right {
		label = "e1"
	}
	return Prediction{
		Case:  Case{ID: id, Category: Support, Title: "vllm serve fails", Body: "error: it fails", Answers: []string{label}},
		Facts: knowledge.Facts{Errors: []knowledge.ErrorInfo{{Type: "ValueError"}}},
		Matches: []knowledge.Match{{ID: "e1", Structured: false,
			Evidence: map[string]float64{"text": overlap}}},
	}
}

// Matches that only word overlap supports get a calibration of their own,
// fitted on the posts whose top match is one, once there are enough of
// them with both outcomes; otherwise none (the model halves the
// structured one).
func TestCalibrateFitsWordOverlapTops(t *testing.T) {
	t.Parallel()
	m := knowledge.DefaultModel()
	scorer := func(int) *knowledge.Model { return m }
	var preds []Prediction
	for i := range 16 {
		overlap := float64(i) / 4
		preds = append(preds, textPred(string(rune('a'+i)), overlap, i >= 8))
	}
	_, text, _ := calibrate(preds, scorer)
	if text == nil {
		t.Fatal("no text calibration from 16 posts with both outcomes")
	}
	low := m.Score(map[string]float64{"text": 0.25})
	high := m.Score(map[string]float64{"text": 3.5})
	// Each post's one match is measured against an entry with no
	// evidence (knowledge.Model.Margins).
	pLow := 1 / (1 + math.Exp(-(text.Slope*low + text.Margin*(low-m.Bias) + text.Intercept)))
	pHigh := 1 / (1 + math.Exp(-(text.Slope*high + text.Margin*(high-m.Bias) + text.Intercept)))
	if !(pHigh > 0.5 && pLow < 0.5) {
		t.Errorf("text calibration %+v: p(low overlap) %.2f, p(high overlap) %.2f; want high overlap likely, low unlikely", *text, pLow, pHigh)
	}
	// Below minTextCalibration such posts, or with one outcome only, the
	// word-overlap tops are calibrated with all the others: the text
	// calibration is the one fitted on every top match together.
	var structured []Prediction
	for i := range 20 {
		top := "e1"
		if i%3 == 0 {
			top = "other"
		}
		structured = append(structured, pred(fmt.Sprint("s", i), Support, top, float64(i%7), "e1"))
	}
	var allWrong []Prediction
	for i := range 12 {
		allWrong = append(allWrong, textPred(string(rune('a'+i)), float64(i)/4, false))
	}
	for name, few := range map[string][]Prediction{"too few": preds[:minTextCalibration-1], "one outcome": allWrong} {
		all := slices.Concat(structured, few)
		_, text, _ := calibrate(all, scorer)
		var asStructured []Prediction
		for _, p := range all {
			p.Matches = slices.Clone(p.Matches)
			p.Matches[0].Structured = true
			asStructured = append(asStructured, p)
		}
		pooled, _, _ := calibrate(asStructured, scorer)
		if text == nil || *text != pooled {
			t.Errorf("%s: text calibration %+v, want the pooled one %+v", name, text, pooled)
		}
	}
	if _, text, _ := calibrate(structured, scorer); text != nil {
		t.Errorf("a text calibration %+v with no word-overlap top match", *text)
	}
}

// TestFitCheckedNeedsBothOutcomes: a model to ship needs posts of both
// outcomes; twelve posts whose top matches are all right (as the first
// twelve vllm-dev posts are) give a model that holds everything certain,
// so they are refused.
func TestFitCheckedNeedsBothOutcomes(t *testing.T) {
	t.Parallel()
	posts := func(right, wrong int) []Prediction {
		var ps []Prediction
		for i := range right {
			ps = append(ps, pred(fmt.Sprint("r", i), Support, "a", 5, "a"))
		}
		for i := range wrong {
			ps = append(ps, pred(fmt.Sprint("w", i), Support, "x", 5, "a"))
		}
		// Not answerable: no labels, so no outcome.
		return append(ps, Prediction{Case: Case{ID: "u", Category: Support}, Matches: []knowledge.Match{{ID: "a"}}})
	}
	base, o := knowledge.DefaultThresholds(), DefaultFitOptions()
	var oe *OutcomeError
	if m, err := FitChecked(posts(12, 0), base, o); m != nil || !errors.As(err, &oe) || oe.Accepted != 12 || oe.Rejected != 0 {
		t.Errorf("twelve right, none wrong: model %v, %v", m, err)
	}
	if _, err := FitChecked(posts(9, 4), base, o); !errors.As(err, &oe) || oe.Rejected != 4 {
		t.Errorf("four wrong: %v", err)
	}
	if m, err := FitChecked(posts(5, 5), base, o); m == nil || err != nil {
		t.Errorf("five of each: model %v, %v", m, err)
	}
}

// TestFitModelInnerSeed: InnerSeed 0 is the default inner seed, so a
// refit with neither gives the model shipped; another seed chooses the
// thresholds on other inner splits and still fits a model.
func TestFitModelInnerSeed(t *testing.T) {
	t.Parallel()
	var preds []Prediction
	for i := range 30 {
		top, score := "a", float64(2+i%9)
		if i%4 == 0 {
			top = "b" // a wrong top match
		}
		preds = append(preds, pred(fmt.Sprint(i), Support, top, score, "a"))
	}
	o := DefaultFitOptions()
	def := FitModel(preds, knowledge.DefaultThresholds(), o)
	o.InnerSeed = innerSeed
	same := FitModel(preds, knowledge.DefaultThresholds(), o)
	if !reflect.DeepEqual(def, same) {
		t.Errorf("InnerSeed 0 fitted %+v, InnerSeed %d %+v", def, innerSeed, same)
	}
	o.InnerSeed = innerSeed + 100
	other := FitModel(preds, knowledge.DefaultThresholds(), o)
	if other.Reply <= 0 || other.Reply > 1.01 || !strings.Contains(other.Method, "5 splits into 5 folds") {
		t.Errorf("seed %d: reply %v, method %q", o.InnerSeed, other.Reply, other.Method)
	}
	// The calibration is fitted on the first inner split's out-of-fold
	// scores, so a fit that ignored the seed would give the same model.
	if reflect.DeepEqual(def, other) {
		t.Errorf("InnerSeed %d fitted the same model as the default seed: the seed is not used", o.InnerSeed)
	}
}
