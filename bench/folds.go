package bench

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/heraldbot/herald/knowledge"
)

// Prediction is what Herald's fitted parts work from for one case: the
// facts and the ranked matches, computed once. Deciding again with other
// thresholds needs nothing else, so fitting is cheap and pure.
type Prediction struct {
	Case    Case
	Facts   knowledge.Facts
	Matches []knowledge.Match
	// Ignored is the engine's finding that the post is not a support
	// question (knowledge.IsSupportQuestion), made once when the post was
	// answered: no model or threshold changes it.
	Ignored bool
}

// Result decides a prediction with model m (nil: the prediction's own
// ranking) and thresholds t.
func (p Prediction) Result(m *knowledge.Model, t knowledge.Thresholds) Result {
	matches := p.Matches
	if m != nil {
		matches = m.Rescore(slices.Clone(p.Matches))
	}
	d, conf, cited := knowledge.DecisionIgnore, 0.0, []knowledge.Match(nil)
	if !p.Ignored {
		d, conf, cited = knowledge.DecideQuestion(&p.Facts, matches, t)
	}
	r := Result{CaseID: p.Case.ID, Facts: &p.Facts, Decision: d, Confidence: conf}
	for _, m := range matches {
		r.Ranked = append(r.Ranked, m.ID)
	}
	for _, m := range cited {
		r.Cited = append(r.Cited, m.ID)
	}
	return r
}

// lenient returns a case's acceptable ids: its answers and topic matches.
func (c Case) lenient() []string {
	return append(append([]string(nil), c.Answers...), c.TopicMatch...)
}

// accepts reports whether staff would accept entry id as the answer to
// the case: a support post's answer or topic match.
func (c Case) accepts(id string) bool {
	return c.Category == Support && (slices.Contains(c.Answers, id) || slices.Contains(c.TopicMatch, id))
}

// FitOptions are the targets a model is fitted for.
type FitOptions struct {
	// L2 is the ridge on the feature weights, pulling them towards Prior
	// (nil: towards zero).
	L2    float64
	Prior map[string]float64
	// TargetWrong is the wrong-post rate, in percent, the reply threshold
	// aims at; UsefulDrafts the share, in percent, of queued drafts whose
	// top three hold a fitting entry that the queue floor aims at.
	TargetWrong, UsefulDrafts float64
	// Listwise fits the weights by a conditional logit over each post's
	// candidates (knowledge.FitRankWeights) instead of a pointwise
	// logistic regression.
	Listwise bool
	// InnerSeed seeds the first of the inner splits the thresholds are
	// chosen on (0: innerSeed); the others follow it. Refitting with other
	// seeds shows how steady the thresholds are on the posts at hand.
	InnerSeed uint64
}

// DefaultFitOptions: the hand-set weights as the prior with a ridge of 5
// (see knowledge.PriorWeights), 5% wrong posts, half the queued drafts
// useful. The ridge was picked among 1, 5, 20 and 50 by the held-out
// strict hit@1 of the 95 vllm-dev posts (60.0 at 5; 55.0, 50.0, 50.0 at
// the others), so that figure is a little optimistic. Remeasured at
// ff65761 with the corpus and docs over ten splits (support posts
// answered, wrong posts): 2 gave 40.7% at 5.3%, 5 47.5% at 3.6%, 10
// 48.4% at 2.3%, 20 42.8% at 4.2%; 5 and 10 are a post apart, and a
// ridge chosen inside each fit by the cross-fitted log-loss of the top
// match among 2, 5, 10 and 20 (a build not kept) gave 49.7% at 5.4%
// with a worse calibration (pooled gap 8.2 against 5.3), so the fixed 5
// stays. The fixed ridges rerun with `bench cases --l2 N --repeats 10`.
func DefaultFitOptions() FitOptions {
	return FitOptions{L2: 5, Prior: knowledge.PriorWeights(), TargetWrong: 5, UsefulDrafts: 50}
}

// innerFolds is how many folds FitModel's own cross-validation uses to
// choose the thresholds on confidences the fitted weights have not seen.
const innerFolds = 5

// FitModel fits a model on labelled predictions: feature weights by
// logistic regression over every candidate of every post that is a support
// question (a candidate is relevant when it is a labelled entry; abstain
// and not-support posts have none), a Platt calibration of the top
// structured match of each post against whether staff would accept it;
// then the reply threshold and the queue floor for the targets, chosen on
// held-out confidences: each post decided by weights and a calibration
// fitted without it (innerFolds-fold cross-validation).
func FitModel(preds []Prediction, base knowledge.Thresholds, o FitOptions) *knowledge.Model {
	model, _ := fitModel(preds, base, o)
	return model
}

// FitChecked is FitModel for a model to ship: when the sample its
// calibration is fitted on holds fewer than minOutcomePosts top matches
// of either outcome, it gives an *OutcomeError and no model.
func FitChecked(preds []Prediction, base knowledge.Thresholds, o FitOptions) (*knowledge.Model, error) {
	model, sample := fitModel(preds, base, o)
	if sample.Accepted < minOutcomePosts || sample.Rejected < minOutcomePosts {
		return nil, &sample
	}
	return model, nil
}

// fitModel is FitModel, and the outcomes of the out-of-fold top matches
// its calibration was fitted on.
func fitModel(preds []Prediction, base knowledge.Thresholds, o FitOptions) (*knowledge.Model, OutcomeError) {
	model := fitScoring(preds, o)
	cases := make([]Case, len(preds))
	for i, p := range preds {
		cases[i] = p.Case
	}
	// Out-of-fold scores: each post scored by weights fitted without it.
	// The calibration is fitted on them, so that a confidence means what
	// it says on posts the weights did not see.
	seed := o.InnerSeed
	if seed == 0 {
		seed = innerSeed
	}
	inner := Folds(cases, innerFolds, seed)
	foldOf := innerModels(preds, inner, o)
	var sample OutcomeError
	model.Calibration, model.TextCalibration, sample = calibrate(preds, func(i int) *knowledge.Model { return foldOf[i] })
	model.Recalibration = recalibrate(preds, foldOf, model.Calibration, model.TextCalibration, nil)
	// The thresholds are chosen on confidences no part of which was
	// fitted on the post (crossFitted). They used to be chosen on the
	// confidences the final calibration and recalibration give the same
	// posts, and fitted themselves to them: an isotonic recalibration maps
	// each run of its sample to the run's own hit rate, and the lowest
	// threshold that keeps that sample under the target sat just above
	// its first wrong post. On the 95 vllm-dev posts that put the reply
	// threshold at 0.550, where the held-out posts of cross-validation at
	// 0.55 to 0.6 were right 44% of the time (pooled over ten splits) and
	// the folds' own thresholds were 0.66 to 0.85. One split's
	// cross-fitted confidences still left the threshold to the split, so
	// each threshold is the median of innerRepeats splits' (see
	// innerSeed).
	repeats := [][]Prediction{crossFitted(preds, inner, foldOf)}
	for r := 1; r < innerRepeats; r++ {
		split := Folds(cases, innerFolds, seed+uint64(r))
		repeats = append(repeats, crossFitted(preds, split, innerModels(preds, split, o)))
	}
	replies := make([]float64, len(repeats))
	for r, oof := range repeats {
		replies[r] = FitReply(oof, nil, base, o.TargetWrong)
	}
	model.Reply = median(replies)
	floors := make([]float64, len(repeats))
	for r, oof := range repeats {
		floors[r] = FitQueueFloor(oof, nil, base, model.Reply, o.UsefulDrafts)
	}
	model.QueueFloor = median(floors)
	model.Method = weightsMethod(o) + fmt.Sprintf("; Platt calibrations of the top match on its score, its margin and whether the post is about another engine, one for structured matches and one for matches only word overlap supports, then an isotonic recalibration of their out-of-fold probabilities; reply threshold and queue floor each the median of those chosen for the target wrong-post rate and share of useful drafts on the held-out confidences of %d splits into %d folds, each fold calibrated and recalibrated by fits on the others", innerRepeats, innerFolds)
	return model, sample
}

// innerSeed is the seed of the first inner split; innerRepeats how many
// inner splits the thresholds are chosen over, the median of theirs
// (fitModel). With the corpus and docs, the reply threshold fitted on all
// 95 vllm-dev posts from one split was 0.59 to 0.87 over inner seeds 1 to
// 6 (c2a46d5 with this constant edited, a build not kept); the median of
// five splits starting at seeds 17, 1, 7, 30, 50 and 90 (`herald kb fit …
// --inner-seed N`) was 0.79 to 0.87 at ff65761 (the pack alone's 0.90 to
// 0.96, queue floors 0.01 to 0.04), and 0.785 to 0.843 at 160a7b2
// starting at 17 and 1 to 6 (the pack alone's 0.943 to 0.961). Choosing
// on the five splits'
// confidences pooled was as steady with the corpus (0.83 to 0.86) but not
// with the pack alone (0.85 to 1.00), and with ten splits pooled one
// start gave 0.63: the lowest threshold under the target can sit in a
// dip of the pooled curve (builds of those variants, not kept). Five
// splits make `kb fit` on 95 posts take about three seconds.
const (
	innerSeed    = 17
	innerRepeats = 5
)

// median is the middle value of xs (the lower of the middle two for an
// even count, so that it is one of them); xs is reordered.
func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[(len(xs)-1)/2]
}

// innerModels fits the scoring model of each fold of split on the other
// folds, and returns each post's: the one that did not see it.
func innerModels(preds []Prediction, split [][]int, o FitOptions) []*knowledge.Model {
	foldOf := make([]*knowledge.Model, len(preds))
	for _, fold := range split {
		var train []Prediction
		for i, p := range preds {
			if !slices.Contains(fold, i) {
				train = append(train, p)
			}
		}
		m := fitScoring(train, o)
		for _, i := range fold {
			foldOf[i] = m
		}
	}
	return foldOf
}

// crossFitted returns preds rescored as posts no part of whose
// confidence was fitted on them: each fold of split is scored by its
// model in foldOf, and calibrated and recalibrated by fits on the other
// folds' out-of-fold scores.
func crossFitted(preds []Prediction, split [][]int, foldOf []*knowledge.Model) []Prediction {
	out := make([]Prediction, len(preds))
	for _, fold := range split {
		held := make([]bool, len(preds))
		for _, i := range fold {
			held[i] = true
		}
		var rest []Prediction
		var restModels []*knowledge.Model
		for i, p := range preds {
			if !held[i] {
				rest = append(rest, p)
				restModels = append(restModels, foldOf[i])
			}
		}
		c, tc, _ := calibrate(rest, func(i int) *knowledge.Model { return restModels[i] })
		re := recalibrate(preds, foldOf, c, tc, held)
		for _, i := range fold {
			m := *foldOf[i]
			m.Calibration, m.TextCalibration, m.Recalibration = c, tc, re
			out[i] = preds[i]
			out[i].Matches = m.Rescore(slices.Clone(preds[i].Matches))
		}
	}
	return out
}

// recalibrate fits the isotonic recalibration of the out-of-fold
// confidences the calibrations c and tc give the top matches of preds,
// each scored by the inner-fold model that did not see it (foldOf), over
// the posts not held (held nil: all of them).
func recalibrate(preds []Prediction, foldOf []*knowledge.Model, c knowledge.Calibration, tc *knowledge.Calibration, held []bool) *knowledge.Recalibration {
	var ps []float64
	var right []bool
	for i, p := range preds {
		if held != nil && held[i] || !answerable(p) {
			continue
		}
		m := *foldOf[i]
		m.Calibration, m.TextCalibration, m.Recalibration = c, tc, nil
		ms := m.Rescore(slices.Clone(p.Matches))
		if len(ms) == 0 {
			continue
		}
		ps = append(ps, ms[0].Confidence)
		right = append(right, p.Case.accepts(ms[0].ID))
	}
	return knowledge.FitRecalibration(ps, right)
}

// fitScoring fits the weights and the calibration of a model.
func fitScoring(preds []Prediction, o FitOptions) *knowledge.Model {
	var ex []knowledge.Example
	for g, p := range preds {
		if !answerable(p) {
			continue
		}
		for _, m := range p.Matches {
			ex = append(ex, knowledge.Example{Evidence: m.Evidence, Relevant: p.Case.accepts(m.ID), Group: g})
		}
	}
	model := &knowledge.Model{Version: 1, Reply: 1, Calibration: knowledge.Calibration{Slope: 1}}
	if o.Listwise {
		model.Weights, model.Bias = knowledge.FitRankWeights(ex, o.L2, o.Prior)
	} else {
		model.Weights, model.Bias = knowledge.FitWeights(ex, o.L2, o.Prior)
	}
	model.Calibration, model.TextCalibration, _ = calibrate(preds, func(int) *knowledge.Model { return model })
	return model
}

// calibrate fits the calibrations of the top match of each answerable
// prediction, scored by scorer(i), against whether staff would accept it:
// one over the posts whose top match is structured, one over those whose
// top match only word overlap supports. When fewer than
// minTextCalibration posts, or posts of only one outcome, have such a top
// match, a calibration of their own cannot be fitted, and theirs is the
// one fitted on every top match together; with none at all it is nil.
// It also counts the sample's outcomes.
func calibrate(preds []Prediction, scorer func(i int) *knowledge.Model) (knowledge.Calibration, *knowledge.Calibration, OutcomeError) {
	var structured, text topSample
	for i, p := range preds {
		if !answerable(p) {
			continue
		}
		m := scorer(i)
		ms := m.Rescore(slices.Clone(p.Matches))
		if len(ms) == 0 {
			continue
		}
		s := &structured
		if !ms[0].Structured {
			s = &text
		}
		s.scores = append(s.scores, ms[0].Score)
		s.margins = append(s.margins, m.Margins(ms)[0])
		s.others = append(s.others, ms[0].Evidence[knowledge.OtherEngineEvidence])
		s.right = append(s.right, p.Case.accepts(ms[0].ID))
	}
	c := structured.fit()
	accepted := structured.hits() + text.hits()
	sample := OutcomeError{Accepted: accepted, Rejected: len(structured.right) + len(text.right) - accepted}
	switch hits := text.hits(); {
	case len(text.right) == 0:
		return c, nil, sample
	case len(text.right) < minTextCalibration || hits == 0 || hits == len(text.right):
		pooled := topSample{
			scores:  slices.Concat(structured.scores, text.scores),
			margins: slices.Concat(structured.margins, text.margins),
			others:  slices.Concat(structured.others, text.others),
			right:   slices.Concat(structured.right, text.right),
		}.fit()
		return c, &pooled, sample
	}
	t := text.fit()
	return c, &t, sample
}

// topSample is what a calibration is fitted on: each post's top match's
// score, margin and other_engine evidence, and whether staff would
// accept it.
type topSample struct {
	scores, margins, others []float64
	right                   []bool
}

func (s topSample) fit() knowledge.Calibration {
	return knowledge.FitCalibration(s.scores, s.margins, s.others, s.right, calibrationRidge)
}

// hits counts the accepted top matches.
func (s topSample) hits() int {
	n := 0
	for _, r := range s.right {
		if r {
			n++
		}
	}
	return n
}

// calibrationRidge is the L2 penalty on the calibration's slope and
// margin coefficients. A Platt fit of three parameters on the fifty-odd
// top matches of a forum's labelled posts, unpenalised, drives the
// confident end of the scale towards 1: with 0.01 (at commit 587e196) the
// held-out top bucket of the 95 vllm-dev posts said 97.5% and was right
// 90% of the time. It was picked among 0.01, 0.3, 1, 3 and 10 by the
// held-out calibration gap of `herald bench cases --repeats 10`, with
// the corpus and with the pack alone, at eb03c51 (11.9/13.5, 10.6/13.5,
// 9.9/13.9, 9.8/12.3, 11.4/12.8 points; later features moved them); the
// differences are about what the split alone moves, and this choice
// makes the gap a little optimistic.
const calibrationRidge = 3

// minOutcomePosts is the fewest labelled posts of each outcome, a top
// match staff would accept and one they would not, that a model to ship
// is fitted on (FitChecked). The calibration's intercept is not
// penalised, so with none of one outcome it runs to the edge of the
// scale: the first twelve vllm-dev posts, whose top matches were all
// right, gave a model that held every post 0.999 likely and so would
// reply to anything. Five of each is the least that pins it to more than
// a couple of posts; a forum that has fewer labels keeps the embedded
// model.
const minOutcomePosts = 5

// OutcomeError reports labelled posts too one-sided to fit a calibrated
// confidence on (FitChecked): the out-of-fold top matches the calibration
// is fitted on, by outcome.
type OutcomeError struct {
	Accepted, Rejected int // posts whose top match staff would, and would not, accept
}

func (e *OutcomeError) Error() string {
	return fmt.Sprintf("the labelled posts give %d top matches staff would accept and %d they would not; "+
		"a calibrated confidence needs at least %d of each: label more posts, among them posts Herald "+
		"answers wrongly and posts nothing in the knowledge base answers (abstain), or keep the embedded model",
		e.Accepted, e.Rejected, minOutcomePosts)
}

// minTextCalibration is the fewest posts with a word-overlap top match
// that a calibration of their own is fitted on (see calibrate).
const minTextCalibration = 10

// answerable reports whether a prediction can teach the model: a post the
// engine treats as a question, whose right answers are known (labelled
// support) or known not to exist (abstain, not-support).
func answerable(p Prediction) bool {
	return !p.Ignored && (p.Case.Category != Support || len(p.Case.lenient()) > 0)
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

// SourceFolds splits case indexes into k folds by where the posts come
// from (Case.SourceGroup): all the posts of one place are held out
// together, so that a fold's model has seen nothing of the place it is
// measured on. Places are dealt largest first to the fold with the fewest
// cases, ties by name, so the split is reproducible; a place with more
// than a k-th of the cases makes its fold larger than the others.
func SourceFolds(cases []Case, k int) [][]int {
	if k < 2 {
		k = 2
	}
	byGroup := map[string][]int{}
	var groups []string
	for i, c := range cases {
		g := c.SourceGroup()
		if _, ok := byGroup[g]; !ok {
			groups = append(groups, g)
		}
		byGroup[g] = append(byGroup[g], i)
	}
	slices.SortFunc(groups, func(a, b string) int {
		if d := len(byGroup[b]) - len(byGroup[a]); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	folds := make([][]int, k)
	for _, g := range groups {
		smallest := 0
		for f := range folds {
			if len(folds[f]) < len(folds[smallest]) {
				smallest = f
			}
		}
		folds[smallest] = append(folds[smallest], byGroup[g]...)
	}
	for _, f := range folds {
		slices.Sort(f)
	}
	return folds
}

// never is a reply threshold no confidence reaches.
const never = 1.01

// candidateThresholds are the confidences the predictions' matches reach
// under model m, ascending, and never.
func candidateThresholds(preds []Prediction, m *knowledge.Model) []float64 {
	cands := []float64{never}
	for _, p := range preds {
		ms := p.Matches
		if m != nil {
			ms = m.Rescore(slices.Clone(p.Matches))
		}
		if len(ms) > 0 && ms[0].Confidence > 0 {
			cands = append(cands, ms[0].Confidence)
		}
	}
	slices.Sort(cands)
	return slices.Compact(cands)
}

// FitReply chooses the reply threshold on labelled predictions: among the
// confidences the cases reach, the lowest one at which the share of wrong
// posts (Score's definition) stays at or under target percent, which
// answers the most posts within the target. With no threshold under
// target it returns a threshold that never replies.
func FitReply(preds []Prediction, m *knowledge.Model, base knowledge.Thresholds, target float64) float64 {
	cases := make([]Case, len(preds))
	for i, p := range preds {
		cases[i] = p.Case
	}
	for _, th := range candidateThresholds(preds, m) {
		t := base
		t.Reply = th
		results := make([]Result, len(preds))
		for i, p := range preds {
			results[i] = p.Result(m, t)
			results[i].Facts = nil // extraction is not what is fitted
		}
		rep := Score(cases, results, nil)
		if rep.Replies == 0 || rep.WrongPostPct <= target {
			return th
		}
	}
	return never
}

// FitQueueFloor chooses the least confidence at which an unsure post is
// queued for staff: the lowest floor below the reply threshold at which
// at least target percent of the queued drafts hold a fitting entry in
// their top three; the reply threshold itself when none does.
func FitQueueFloor(preds []Prediction, m *knowledge.Model, base knowledge.Thresholds, reply, target float64) float64 {
	type draft struct {
		conf   float64
		useful bool
	}
	var drafts []draft
	for _, p := range preds {
		if !answerable(p) {
			continue
		}
		ms := p.Matches
		if m != nil {
			ms = m.Rescore(slices.Clone(p.Matches))
		}
		if len(ms) == 0 || ms[0].Confidence >= reply {
			continue
		}
		useful := slices.ContainsFunc(ms[:min(3, len(ms))], func(x knowledge.Match) bool { return p.Case.accepts(x.ID) })
		drafts = append(drafts, draft{ms[0].Confidence, useful})
	}
	floor := reply
	for _, th := range candidateThresholds(preds, m) {
		if th >= reply {
			break
		}
		n, good := 0, 0
		for _, d := range drafts {
			if d.conf >= th {
				n++
				if d.useful {
					good++
				}
			}
		}
		if n > 0 && 100*float64(good)/float64(n) >= target {
			return min(th, floor)
		}
	}
	return floor
}

// CrossValidation is the outcome of k-fold cross-validation.
type CrossValidation struct {
	// HeldOut holds each case's result decided with the model fitted on
	// the other folds; InSample, with the model fitted on all cases.
	HeldOut, InSample []Result
	// AtAllReply holds each case decided as in HeldOut but at the reply
	// threshold fitted on all cases (All.Reply), the one a forum ships:
	// how the shipped threshold fares on confidences of posts their
	// model did not see. Far more wrong posts here than in HeldOut means
	// the threshold fitted on all cases is lower than the folds' evidence
	// supports.
	AtAllReply []Result
	// Models are the models fitted for each fold; All the one fitted on
	// every case.
	Models []*knowledge.Model
	All    *knowledge.Model
}

// CrossValidate fits the model on all folds but one and decides the
// held-out fold with it, for every fold (folds as Folds or SourceFolds
// make them); and fits on all cases for the in-sample figures, whose
// distance from the held-out ones shows overfit.
func CrossValidate(preds []Prediction, folds [][]int, base knowledge.Thresholds, o FitOptions) CrossValidation {
	var cv CrossValidation
	cv.HeldOut = make([]Result, len(preds))
	for _, fold := range folds {
		var train []Prediction
		for i, p := range preds {
			if !slices.Contains(fold, i) {
				train = append(train, p)
			}
		}
		m := FitModel(train, base, o)
		cv.Models = append(cv.Models, m)
		t := base
		t.Reply = m.Reply
		for _, i := range fold {
			cv.HeldOut[i] = preds[i].Result(m, t)
		}
	}
	cv.All = FitModel(preds, base, o)
	t := base
	t.Reply = cv.All.Reply
	for _, p := range preds {
		cv.InSample = append(cv.InSample, p.Result(cv.All, t))
	}
	cv.AtAllReply = make([]Result, len(preds))
	for f, fold := range folds {
		for _, i := range fold {
			cv.AtAllReply[i] = preds[i].Result(cv.Models[f], t)
		}
	}
	return cv
}

// weightsMethod says how the weights were fitted, for Model.Method.
func weightsMethod(o FitOptions) string {
	if o.Listwise {
		return "conditional logit over each post's candidates (L2 ridge on weights towards the prior; scaled to relevance by a logistic fit of every candidate)"
	}
	return "logistic regression over the named evidence of each candidate (L2 ridge on weights)"
}
