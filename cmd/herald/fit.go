package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/heraldbot/herald/store"

	"github.com/heraldbot/herald/bench"
	"github.com/heraldbot/herald/bot"
	"github.com/heraldbot/herald/knowledge"
)

// predictCases answers every case once with every candidate kept, so that
// a model can be refitted and the cases decided again without the store.
func predictCases(ctx context.Context, a *bot.Answerer, cases []bench.Case) ([]bench.Prediction, error) {
	a.Engine.MaxMatches = a.Candidates + a.Curated
	preds := make([]bench.Prediction, 0, len(cases))
	for _, c := range cases {
		ans, err := a.Answer(ctx, knowledge.Post{Title: c.Title, Body: c.Body})
		if err != nil {
			return nil, fmt.Errorf("case %s: %w", c.ID, err)
		}
		preds = append(preds, bench.Prediction{Case: c, Facts: ans.Facts, Matches: ans.Matches})
	}
	return preds, nil
}

// loadModel reads the model file of knowledge.model; "" is the embedded
// model.
func loadModel(path string) (*knowledge.Model, error) {
	if path == "" {
		return knowledge.DefaultModel(), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("knowledge.model: %w", err)
	}
	defer f.Close()
	m, err := knowledge.ReadModel(f)
	if err != nil {
		return nil, fmt.Errorf("knowledge.model %s: %w", path, err)
	}
	return m, nil
}

// caseRun is a labelled cases file answered once against a knowledge base.
type caseRun struct {
	cases []bench.Case
	db    *store.DB
	a     *bot.Answerer
	preds []bench.Prediction
	close func()
}

// answerCases reads the cases at path and answers them against the
// knowledge base at kb ("" for the embedded packs); close releases it.
func answerCases(ctx context.Context, path, kb string) (*caseRun, error) {
	cases, err := readCasesFile(path)
	if err != nil {
		return nil, err
	}
	db, cleanup, err := openKB(ctx, kb)
	if err != nil {
		return nil, err
	}
	a, err := bot.NewAnswerer(ctx, db, "herald")
	if err != nil {
		cleanup()
		return nil, err
	}
	preds, err := predictCases(ctx, a, cases)
	if err != nil {
		cleanup()
		return nil, err
	}
	return &caseRun{cases: cases, db: db, a: a, preds: preds, close: cleanup}, nil
}

// fitFlags adds the fitting targets to fs.
func fitFlags(fs *flag.FlagSet) *bench.FitOptions {
	o := bench.DefaultFitOptions()
	fs.Float64Var(&o.TargetWrong, "target-wrong", o.TargetWrong, "wrong-post rate in percent the reply threshold aims at")
	fs.Float64Var(&o.UsefulDrafts, "useful-drafts", o.UsefulDrafts, "share in percent of queued drafts with a fitting entry the queue floor aims at")
	fs.Float64Var(&o.L2, "l2", o.L2, "ridge on the feature weights, towards the hand-set prior")
	return &o
}

// readCasesFile reads a labelled cases file.
func readCasesFile(path string) ([]bench.Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cases: %w", err)
	}
	defer f.Close()
	return bench.ReadCases(f)
}

// cmdFit is `herald kb fit CASES.jsonl`: it fits the engine's model (the
// evidence weights, the confidence calibration, the reply threshold and
// the queue floor) on a forum's own labelled posts, reports the held-out
// figures of cross-validation, and writes the model for `knowledge.model`.
func cmdFit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("kb fit", stderr)
	dbPath := fs.String("db", "", "knowledge base (default: the embedded packs)")
	out := fs.String("out", "", "write the model here (default: standard output)")
	folds := fs.Int("folds", 5, "cross-validation folds for the held-out report (0: none)")
	o := fitFlags(fs)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("kb fit takes one CASES.jsonl file")
	}
	run, err := answerCases(ctx, pos[0], *dbPath)
	if err != nil {
		return err
	}
	defer run.close()
	cases, a, preds := run.cases, run.a, run.preds
	if *folds > 0 {
		cv := bench.CrossValidate(preds, *folds, 1, a.Engine.Thresholds, *o)
		h := bench.Score(cases, cv.HeldOut, nil)
		in := bench.Score(cases, cv.InSample, nil)
		fmt.Fprintf(stderr, "%d cases, %d folds, held-out (in-sample): support posts answered %.1f%% (%.1f%%), wrong posts %.1f%% of %d (%.1f%% of %d), strict hit@1 %.1f (%.1f), lenient hit@3 %.1f (%.1f)\n",
			len(cases), *folds, 100-h.SupportSilentPct, 100-in.SupportSilentPct, h.WrongPostPct, h.Replies, in.WrongPostPct, in.Replies,
			h.StrictHit1, in.StrictHit1, h.LenientHit3, in.LenientHit3)
	}
	m := bench.FitModel(preds, a.Engine.Thresholds, *o)
	m.FittedOn = fmt.Sprintf("%s: %d cases (%s)", pos[0], len(cases), countCategories(cases))
	fmt.Fprintf(stderr, "fitted: reply at confidence %.3f, queue floor %.3f\n", m.Reply, m.QueueFloor)
	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return fmt.Errorf("kb fit: %w", err)
		}
		defer f.Close()
		w = f
	}
	if err := m.Write(w); err != nil {
		return err
	}
	if *out != "" {
		fmt.Fprintf(stderr, "wrote %s; set knowledge.model to it in the config\n", *out)
	}
	return nil
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
	return joinComma(slices.Clip(parts))
}

func joinComma(parts []string) string {
	s := ""
	for i, p := range parts {
		if i > 0 {
			s += ", "
		}
		s += p
	}
	return s
}
