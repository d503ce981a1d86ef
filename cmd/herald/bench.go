package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/heraldbot/herald/bench"
	"github.com/heraldbot/herald/bot/evaluate"
	"github.com/heraldbot/herald/importer"
)

func cmdBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("bench needs a subcommand: cases")
	}
	switch args[0] {
	case "cases":
		return benchCases(ctx, args[1:], stdout, stderr)
	}
	return usagef("unknown bench subcommand %q", args[0])
}

// benchCases is `herald bench cases FILE`: Herald and the plain BM25
// baseline on labelled cases, held-out on folds.
func benchCases(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench cases", stderr)
	kbPath := fs.String("kb", "", "knowledge base (default: the embedded packs)")
	fs.StringVar(kbPath, "db", "", "the same as --kb (the name kb fit uses)")
	asJSON := fs.Bool("json", false, "print JSON")
	perCase := fs.Bool("per-case", false, "also print one row per case")
	o := evaluate.Options{}
	fs.IntVar(&o.Folds, "folds", 5, "cross-validation folds for the held-out figures (0: in-sample only)")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the stratified fold split")
	fs.IntVar(&o.Repeats, "repeats", 1, "cross-validate with this many seeds from --seed and print the spread of the held-out figures")
	fs.BoolVar(&o.BySource, "by-source", false, "hold out the posts of each source (a repository, a site) together instead of a stratified split")
	fitFlags(fs, &o.Fit)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("bench cases takes one FILE")
	}
	if o.BySource && o.Repeats > 1 {
		return usagef("--by-source makes one split; --repeats does not apply")
	}
	return withCases(ctx, pos[0], *kbPath, stderr, func(run *evaluate.Run) error {
		rep, err := run.Measure(ctx, o)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(stdout, rep.JSON(*perCase))
		}
		return rep.WriteText(stdout, *perCase)
	})
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
	var o bench.FitOptions
	fitFlags(fs, &o)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("kb fit takes one CASES.jsonl file")
	}
	return withCases(ctx, pos[0], *dbPath, stderr, func(run *evaluate.Run) error {
		if *folds > 0 {
			fmt.Fprintln(stderr, run.Summary(run.CrossValidate(*folds, 1, o), *folds))
		}
		m := run.Fit(o, pos[0])
		fmt.Fprintf(stderr, "fitted: reply at confidence %.3f, queue floor %.3f\n", m.Reply, m.QueueFloor)
		if *out == "" {
			return m.Write(stdout)
		}
		f, err := os.Create(*out)
		if err != nil {
			return fmt.Errorf("kb fit: %w", err)
		}
		if err := m.Write(f); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("kb fit: %w", err)
		}
		fmt.Fprintf(stderr, "wrote %s; set knowledge.model to it in the config\n", *out)
		return nil
	})
}

// withCases answers the cases at path against the knowledge base at kb
// ("" for the embedded packs) and runs fn on the result.
func withCases(ctx context.Context, path, kb string, stderr io.Writer, fn func(*evaluate.Run) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("cases: %w", err)
	}
	cases, err := bench.ReadCases(f)
	f.Close()
	if err != nil {
		return err
	}
	db, closeDB, err := importer.OpenKB(ctx, kb, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	run, err := evaluate.Answer(ctx, db, cases)
	if err != nil {
		return err
	}
	return fn(run)
}

// fitFlags sets o to the default fitting targets and adds flags for
// them to fs.
func fitFlags(fs *flag.FlagSet, o *bench.FitOptions) {
	*o = bench.DefaultFitOptions()
	fs.Float64Var(&o.TargetWrong, "target-wrong", o.TargetWrong, "wrong-post rate in percent the reply threshold aims at")
	fs.Float64Var(&o.UsefulDrafts, "useful-drafts", o.UsefulDrafts, "share in percent of queued drafts with a fitting entry the queue floor aims at")
	fs.Float64Var(&o.L2, "l2", o.L2, "ridge on the feature weights, towards the hand-set prior")
	fs.BoolVar(&o.Listwise, "listwise", o.Listwise, "fit the weights by a conditional logit over each post's candidates instead of a pointwise logistic regression")
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
