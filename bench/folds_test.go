package bench

import (
	"math"
	"slices"
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
	cv := CrossValidate(preds, 5, 1, knowledge.DefaultThresholds(), DefaultFitOptions())
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
	_, text := calibrate(preds, scorer)
	if text == nil {
		t.Fatal("no text calibration from 16 posts with both outcomes")
	}
	low := m.Score(map[string]float64{"text": 0.25})
	high := m.Score(map[string]float64{"text": 3.5})
	pLow := 1 / (1 + math.Exp(-(text.Slope*low + text.Margin*10 + text.Intercept)))
	pHigh := 1 / (1 + math.Exp(-(text.Slope*high + text.Margin*10 + text.Intercept)))
	if !(pHigh > 0.5 && pLow < 0.5) {
		t.Errorf("text calibration %+v: p(low overlap) %.2f, p(high overlap) %.2f; want high overlap likely, low unlikely", *text, pLow, pHigh)
	}
	if _, text := calibrate(preds[:minTextCalibration-1], scorer); text != nil {
		t.Errorf("a text calibration from %d posts; want none below %d", minTextCalibration-1, minTextCalibration)
	}
	var allWrong []Prediction
	for i := range 12 {
		allWrong = append(allWrong, textPred(string(rune('a'+i)), float64(i)/4, false))
	}
	if _, text := calibrate(allWrong, scorer); text != nil {
		t.Error("a text calibration from 12 posts of one outcome")
	}
}
