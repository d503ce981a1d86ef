// Package evaluate measures the answerer on labelled cases, for `herald
// bench cases` and `herald kb fit`: it answers each case once against a
// knowledge base, cross-validates the fitted model on folds, scores the
// held-out, in-sample and shipped decisions beside a plain BM25 baseline
// from the same run, and writes the report.
//
// The held-out column is the headline: each case in it is decided by a
// model fitted without it. Nothing here changes the knowledge base.
package evaluate

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/heraldbot/herald/bench"
	"github.com/heraldbot/herald/bot"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

// Run is a labelled cases file answered once against a knowledge base,
// with every candidate kept, so that models can be fitted and the cases
// decided again without the store.
type Run struct {
	Cases       []bench.Case
	DB          *store.DB
	Answerer    *bot.Answerer
	Predictions []bench.Prediction
}

// Answer answers every case against db.
func Answer(ctx context.Context, db *store.DB, cases []bench.Case) (*Run, error) {
	a, err := bot.NewAnswerer(ctx, db, "herald")
	if err != nil {
		return nil, err
	}
	a.Engine.MaxMatches = a.Candidates + a.Curated
	preds := make([]bench.Prediction, 0, len(cases))
	for _, c := range cases {
		ans, err := a.Answer(ctx, knowledge.Post{Title: c.Title, Body: c.Body})
		if err != nil {
			return nil, fmt.Errorf("case %s: %w", c.ID, err)
		}
		preds = append(preds, bench.Prediction{Case: c, Facts: ans.Facts, Matches: ans.Matches, Ignored: ans.Decision == knowledge.DecisionIgnore})
	}
	return &Run{Cases: cases, DB: db, Answerer: a, Predictions: preds}, nil
}

// Fit fits the model (weights, calibration, reply threshold and queue
// floor) on all the cases, and names what it was fitted on. Cases too
// one-sided to calibrate a confidence on give a *bench.OutcomeError and
// no model.
func (r *Run) Fit(o bench.FitOptions, name string) (*knowledge.Model, error) {
	m, err := bench.FitChecked(r.Predictions, r.Answerer.Engine.Thresholds, o)
	if err != nil {
		return nil, fmt.Errorf("fit on %s: %w", name, err)
	}
	m.FittedOn = fmt.Sprintf("%s: %d cases (%s)", name, len(r.Cases), countCategories(r.Cases))
	kb := r.Answerer.Composition()
	m.KnowledgeBase = &kb
	return m, nil
}

// CrossValidate fits on all folds but one and decides the held-out one,
// for every fold of a stratified split with seed.
func (r *Run) CrossValidate(folds int, seed uint64, o bench.FitOptions) bench.CrossValidation {
	return bench.CrossValidate(r.Predictions, bench.Folds(r.Cases, folds, seed), r.Answerer.Engine.Thresholds, o)
}

// CrossValidateBySource is CrossValidate with the posts of each source
// held out together (bench.SourceFolds).
func (r *Run) CrossValidateBySource(folds int, o bench.FitOptions) bench.CrossValidation {
	return bench.CrossValidate(r.Predictions, bench.SourceFolds(r.Cases, folds), r.Answerer.Engine.Thresholds, o)
}

// Summary is the one-line held-out (in-sample) summary `kb fit` prints.
func (r *Run) Summary(cv bench.CrossValidation, folds int) string {
	h := bench.Score(r.Cases, cv.HeldOut, nil)
	in := bench.Score(r.Cases, cv.InSample, nil)
	at := bench.Score(r.Cases, cv.AtAllReply, nil)
	return fmt.Sprintf("%d cases, %d folds, held-out (in-sample): support posts answered %.1f%% (%.1f%%), wrong posts %.1f%% of %d (%.1f%% of %d), strict hit@1 %.1f (%.1f), lenient hit@3 %.1f (%.1f); held out at the reply threshold fitted on all cases (%.3f): answered %.1f%%, wrong posts %.1f%% of %d",
		len(r.Cases), folds, 100-h.SupportSilentPct, 100-in.SupportSilentPct, h.WrongPostPct, h.Replies, in.WrongPostPct, in.Replies,
		h.StrictHit1, in.StrictHit1, h.LenientHit3, in.LenientHit3, cv.All.Reply, 100-at.SupportSilentPct, at.WrongPostPct, at.Replies)
}

// countCategories summarises cases by category: "69 support, 15 abstain".
func countCategories(cases []bench.Case) string {
	n := map[string]int{}
	for _, c := range cases {
		n[c.Category]++
	}
	var parts []string
	for _, cat := range []string{bench.Support, bench.Abstain, bench.NotSupport} {
		if n[cat] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[cat], cat))
		}
	}
	return strings.Join(parts, ", ")
}

// baseline ranks each case with plain BM25 over the knowledge base; the
// baseline answers everything it finds.
func (r *Run) baseline(ctx context.Context) ([]bench.Result, error) {
	var base []bench.Result
	for _, c := range r.Cases {
		cands, err := r.DB.SearchText(ctx, c.Title+"\n"+c.Body, 10)
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

// DraftStats describe the replies or drafts composed for the posts with a
// citable match.
type DraftStats struct {
	N, Median, Longest int
	// NotInert counts those knowledge.ReplyProblems finds anything in.
	NotInert int
}

// drafts composes the reply or draft each prediction would get.
func (r *Run) drafts() DraftStats {
	e := &r.Answerer.Engine
	var lens []int
	var st DraftStats
	for _, p := range r.Predictions {
		cited := knowledge.Citations(p.Matches, e.Thresholds, nil)
		if len(cited) == 0 {
			continue
		}
		reply := knowledge.Compose(&p.Facts, cited, e.Compose)
		lens = append(lens, len(reply))
		if len(knowledge.ReplyProblems(reply, knowledge.CitedURLs(cited))) > 0 {
			st.NotInert++
		}
	}
	if len(lens) == 0 {
		return st
	}
	slices.Sort(lens)
	st.N, st.Median, st.Longest = len(lens), lens[len(lens)/2], lens[len(lens)-1]
	return st
}
