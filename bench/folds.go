package bench

import (
	"math/rand/v2"
	"slices"

	"github.com/heraldbot/herald/knowledge"
)

// Prediction is what Herald's fitted parts work from for one case: the
// facts and the ranked matches, computed once. Deciding again with other
// thresholds needs nothing else, so fitting is cheap and pure.
type Prediction struct {
	Case    Case
	Facts   knowledge.Facts
	Matches []knowledge.Match
}

// Result decides a prediction with thresholds t.
func (p Prediction) Result(t knowledge.Thresholds) Result {
	f := p.Facts
	d, conf, cited := knowledge.Decide(p.Case.Title, p.Case.Body, &f, p.Matches, t)
	r := Result{CaseID: p.Case.ID, Facts: &p.Facts, Decision: d, Confidence: conf}
	for _, m := range p.Matches {
		r.Ranked = append(r.Ranked, m.ID)
	}
	for _, m := range cited {
		r.Cited = append(r.Cited, m.ID)
	}
	return r
}

// Folds splits case indexes into k folds stratified by category: each
// category's cases are shuffled with a fixed seed and dealt round-robin,
// so every fold holds about the same mix and the split is reproducible.
func Folds(cases []Case, k int, seed uint64) [][]int {
	if k < 2 {
		k = 2
	}
	byCat := map[string][]int{}
	var cats []string
	for i, c := range cases {
		if _, ok := byCat[c.Category]; !ok {
			cats = append(cats, c.Category)
		}
		byCat[c.Category] = append(byCat[c.Category], i)
	}
	slices.Sort(cats)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	folds := make([][]int, k)
	next := 0
	for _, cat := range cats {
		idx := byCat[cat]
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		for _, i := range idx {
			folds[next%k] = append(folds[next%k], i)
			next++
		}
	}
	for _, f := range folds {
		slices.Sort(f)
	}
	return folds
}

// never is a reply threshold no confidence reaches.
const never = 1.01

// FitReply chooses the reply threshold on labelled predictions: among the
// confidences the cases reach, the lowest one at which the share of wrong
// posts (Score's definition) stays at or under target, which answers the
// most posts within the target. With no threshold under target it returns
// a threshold that never replies. The other thresholds are kept from base.
func FitReply(preds []Prediction, base knowledge.Thresholds, target float64) float64 {
	cands := []float64{never}
	cases := make([]Case, len(preds))
	for i, p := range preds {
		cases[i] = p.Case
		if len(p.Matches) > 0 {
			cands = append(cands, knowledge.Confidence(p.Matches[0]))
		}
	}
	slices.Sort(cands)
	cands = slices.Compact(cands)
	for _, th := range cands {
		if th <= 0 {
			continue
		}
		t := base
		t.Reply = th
		results := make([]Result, len(preds))
		for i, p := range preds {
			results[i] = p.Result(t)
			results[i].Facts = nil // extraction is not what is fitted
		}
		rep := Score(cases, results, nil)
		if rep.Replies == 0 || rep.WrongPostPct <= target {
			return th
		}
	}
	return never
}

// CrossValidation is the outcome of k-fold cross-validation.
type CrossValidation struct {
	// HeldOut holds each case's result decided with the thresholds fitted
	// on the other folds; InSample, with the thresholds fitted on all.
	HeldOut, InSample []Result
	// Fitted is the reply threshold fitted for each fold, and for all
	// cases (InSampleReply).
	Fitted        []float64
	InSampleReply float64
}

// CrossValidate fits the reply threshold on k−1 folds and decides the
// held-out fold with it, for every fold; and fits on all cases for the
// in-sample figures, whose distance from the held-out ones shows overfit.
func CrossValidate(preds []Prediction, k int, seed uint64, base knowledge.Thresholds, target float64) CrossValidation {
	cases := make([]Case, len(preds))
	for i, p := range preds {
		cases[i] = p.Case
	}
	var cv CrossValidation
	cv.HeldOut = make([]Result, len(preds))
	for _, fold := range Folds(cases, k, seed) {
		var train []Prediction
		for i, p := range preds {
			if !slices.Contains(fold, i) {
				train = append(train, p)
			}
		}
		t := base
		t.Reply = FitReply(train, base, target)
		cv.Fitted = append(cv.Fitted, t.Reply)
		for _, i := range fold {
			cv.HeldOut[i] = preds[i].Result(t)
		}
	}
	t := base
	t.Reply = FitReply(preds, base, target)
	cv.InSampleReply = t.Reply
	for _, p := range preds {
		cv.InSample = append(cv.InSample, p.Result(t))
	}
	return cv
}
