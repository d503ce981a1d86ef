package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/heraldbot/herald/bench"
	"github.com/heraldbot/herald/bot/evaluate"
	"github.com/heraldbot/herald/github"
	"github.com/heraldbot/herald/importer"
	"github.com/heraldbot/herald/knowledge"
)

func cmdBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("bench needs a subcommand: cases, facts")
	}
	switch args[0] {
	case "cases":
		return benchCases(ctx, args[1:], stdout, stderr)
	case "facts":
		return benchFacts(ctx, args[1:], stdout, stderr)
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

// benchFacts is `herald bench facts FILE`: the facts Herald reads from
// every post of a `gh issue list --json` file or a cases file, one JSON
// line each ({"id": …, "facts": …}), so that two builds' readings of the
// same posts can be compared with diff: how many posts a change to
// reading moved, and how.
func benchFacts(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench facts", stderr)
	kbPath := fs.String("kb", "", "knowledge base whose schema reads the posts (default: the embedded packs)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("bench facts takes one FILE")
	}
	posts, err := readPosts(pos[0])
	if err != nil {
		return err
	}
	a, closeKB, err := openAnswerer(ctx, *kbPath, "herald", stderr)
	if err != nil {
		return err
	}
	defer closeKB()
	enc := json.NewEncoder(stdout)
	for _, p := range posts {
		if err := ctx.Err(); err != nil {
			return err
		}
		f, err := knowledge.Extract(p.post, a.Schema())
		if err != nil && !errors.Is(err, knowledge.ErrTruncated) {
			return fmt.Errorf("bench facts: %s: %w", p.id, err)
		}
		if err := enc.Encode(struct {
			ID    string          `json:"id"`
			Facts knowledge.Facts `json:"facts"`
		}{p.id, f}); err != nil {
			return fmt.Errorf("bench facts: %w", err)
		}
	}
	return nil
}

// idPost is a post with the id bench facts prints it under.
type idPost struct {
	id   string
	post knowledge.Post
}

// readPosts reads a `gh issue list --json` file (a JSON array) or a cases
// file (JSON lines).
func readPosts(path string) ([]idPost, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("bench facts: %w", err)
	}
	var out []idPost
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '[' {
		issues, _, err := github.ParseIssueList(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		for _, is := range issues {
			out = append(out, idPost{is.URL, knowledge.Post{Title: is.Title, Body: is.Body}})
		}
		return out, nil
	}
	cases, err := bench.ReadCases(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	for _, c := range cases {
		out = append(out, idPost{c.ID, knowledge.Post{Title: c.Title, Body: c.Body}})
	}
	return out, nil
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
		m, err := run.Fit(o, pos[0])
		if err != nil {
			return fmt.Errorf("kb fit: %w", err)
		}
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
	fs.Uint64Var(&o.InnerSeed, "inner-seed", o.InnerSeed, "seed of the first inner split the thresholds are chosen on (0: the default); refit with others to see how steady the thresholds are")
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
