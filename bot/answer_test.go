package bot

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

var update = flag.Bool("update", false, "rewrite golden files")

// newTestAnswerer opens a real database in a temporary directory holding
// the embedded vLLM pack and any extra entries.
func newTestAnswerer(tb testing.TB, extra ...knowledge.Entry) *Answerer {
	tb.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(tb.TempDir(), "kb.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	p, err := knowledge.BuiltinPack("vllm")
	if err != nil {
		tb.Fatal(err)
	}
	if err := db.SaveSchema(ctx, p.Name, p.Schema()); err != nil {
		tb.Fatal(err)
	}
	if _, err := db.UpsertEntries(ctx, append(p.Entries, extra...), nil); err != nil {
		tb.Fatal(err)
	}
	a, err := NewAnswerer(ctx, db, "herald")
	if err != nil {
		tb.Fatal(err)
	}
	a.SetModel(testModel())
	return a
}

// testModel is the shipped model with the thresholds these tests were
// written for (reply 0.6, queue floor 0.45). The bot's tests exercise its
// mechanics (posting once, rails, the queue), which must not change when
// the model is refitted; the fitted thresholds are measured by
// `herald bench cases --folds`, and TestShippedModel checks the shipped
// file itself.
func testModel() *knowledge.Model {
	m := knowledge.DefaultModel()
	m.Reply, m.QueueFloor = 0.6, 0.45
	return m
}

// seedSources are the sources staff expect a reply to the DiffusionGemma
// post to cite (issue 2): CacheConfig, #9367, #32653 and #51396.
var seedSources = []string{"https://docs.vllm.ai/en/stable/api/vllm/config/cache/", "vllm-project/vllm#9367", "vllm-project/vllm#32653", "vllm-project/vllm#51396"}

// answerSeedPost answers examples/oom-rocm-offload.md and returns the
// answer and how many of seedSources it cites.
func answerSeedPost(t *testing.T, a *Answerer) (knowledge.Answer, int) {
	t.Helper()
	body, err := os.ReadFile("../examples/oom-rocm-offload.md")
	if err != nil {
		t.Fatal(err)
	}
	ans, err := a.Answer(context.Background(), knowledge.Post{Title: testCaseNamed(t, "oom-rocm-offload.md").title, Body: string(body)})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, id := range seedSources {
		if slices.Contains(ans.Cited, id) {
			n++
		}
	}
	return ans, n
}

// TestAnswerGolden answers every test case (knowledge/testdata/cases)
// and checks what the case expects.
func TestAnswerGolden(t *testing.T) {
	t.Parallel()
	a := newTestAnswerer(t)
	for _, c := range testCases(t) {
		t.Run(c.name, func(t *testing.T) {
			ans, err := a.Answer(context.Background(), knowledge.Post{Title: c.title, Body: c.body})
			if err != nil {
				t.Fatal(err)
			}
			// What is pinned: whether the post is a support question, that
			// nothing is claimed for the posts nothing fits, that the right
			// entries are found (cited, or among the top three), and the text
			// staff would see: the reply, or the draft queued when the
			// model is not sure enough to post. The reply threshold is
			// fitted data; bench measures it, not this test.
			switch c.decision {
			case knowledge.DecisionIgnore:
				if ans.Decision != knowledge.DecisionIgnore {
					t.Errorf("decision = %s, want ignore", ans.Decision)
				}
			case knowledge.DecisionAbstain:
				if ans.Decision == knowledge.DecisionReply {
					t.Errorf("replied at confidence %.3f to a post nothing fits; top matches: %s", ans.Confidence, topIDs(ans))
				}
			default:
				if ans.Decision == knowledge.DecisionIgnore {
					t.Errorf("a support question was ignored")
				}
			}
			draft := a.Draft(ans, 0)
			cited := knowledge.Citations(ans.Matches, a.Engine.Thresholds, nil)
			if ans.Decision == knowledge.DecisionIgnore || c.decision == knowledge.DecisionAbstain {
				draft, cited = ans.Reply, nil
			}
			var citedIDs []string
			for _, m := range cited {
				citedIDs = append(citedIDs, m.ID)
			}
			top3 := ans.Matches[:min(3, len(ans.Matches))]
			for _, id := range c.cites {
				if !slices.Contains(citedIDs, id) && !slices.ContainsFunc(top3, func(m knowledge.Match) bool { return m.ID == id }) {
					t.Errorf("%s neither cited nor in the top three: %s", id, topIDs(ans))
				}
			}
			for _, p := range knowledge.ReplyProblems(draft, knowledge.CitedURLs(cited)) {
				t.Errorf("reply is not inert: %s", p)
			}
			if c.ranked != "" && !slices.ContainsFunc(top3, func(m knowledge.Match) bool { return m.ID == c.ranked }) {
				t.Errorf("%s not among the top three matches: %s", c.ranked, topIDs(ans))
			}
			got := fmt.Sprintf("decision: %s\nconfidence: %.3f\ncited: %s\n\n%s", ans.Decision, ans.Confidence, strings.Join(citedIDs, " "), draft)
			if *update {
				writeGolden(t, c, got)
				return
			}
			if c.golden == "" {
				t.Fatalf("%s has no reply.golden section (run go test -tags sqlite_fts5 ./bot -update to write it)", c.file)
			}
			if !sameText(got, c.golden) {
				t.Errorf("reply differs from %s (run with -update after checking the change):\n--- got\n%s\n--- want\n%s", c.file, got, c.golden)
			}
		})
	}
}

func topIDs(a knowledge.Answer) string {
	var s []string
	for i, m := range a.Matches {
		if i == 5 {
			break
		}
		s = append(s, fmt.Sprintf("%s(%.2f)", m.ID, m.Score))
	}
	return strings.Join(s, " ")
}

// TestSeedPost is the acceptance check of issue 2: the DiffusionGemma post
// yields its facts and a reply whose first citation is one of the four
// sources staff named, citing at least two of them.
//
// Issue 2 asked for three of the four, which the hand-set weights of the
// time met: they had been tuned on this post. Since issue 11 the weights
// are fitted on the 95 dev posts; they rank the CacheConfig page and
// #51396 first and #9367 and #32653 (CPU offload not helping) below the
// citation bar, and do better on held-out posts (strict hit@1 40 → 60).
func TestSeedPost(t *testing.T) {
	t.Parallel()
	ans, n := answerSeedPost(t, newTestAnswerer(t))
	if n < 2 || len(ans.Cited) == 0 || !slices.Contains(seedSources, ans.Cited[0]) {
		t.Errorf("reply cites %v: %d of the four expected sources, want at least 2, the first among them", ans.Cited, n)
	}
	for _, s := range []string{"1.6 GiB (0.1 × 15.98 GiB)", "15.09 GiB", "**From the docs**", "`@herald`", "0.29.0"} {
		if !strings.Contains(ans.Reply, s) {
			t.Errorf("reply lacks %q:\n%s", s, ans.Reply)
		}
	}
	if ans.Facts.Versions["vllm"] != "0.24.0+rocm725" || ans.Facts.Platform != "rocm" {
		t.Errorf("facts: versions %v platform %q", ans.Facts.Versions, ans.Facts.Platform)
	}
}

// TestReloadBesideAnswer runs what the cron jobs do (Reload after learning,
// outcomes and GitHub refreshes) beside the poll loop's Answer calls; under
// -race it fails if they share anything mutable.
func TestReloadBesideAnswer(t *testing.T) {
	t.Parallel()
	a := newTestAnswerer(t)
	body, err := os.ReadFile("../examples/oom-rocm-offload.md")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				if w == 0 {
					if err := a.Reload(ctx); err != nil {
						errs <- err
					}
					continue
				}
				ans, err := a.Answer(ctx, knowledge.Post{Title: testCaseNamed(t, "oom-rocm-offload.md").title, Body: string(body)})
				if err != nil {
					errs <- err
				} else if len(ans.Matches) == 0 {
					errs <- fmt.Errorf("no matches while reloading")
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestAnswerCarriesKeyEvidence: the index's score split by kind of key
// reaches ranking through the Answerer, so the model's key_* weights are
// applied to what the index found.
func TestAnswerCarriesKeyEvidence(t *testing.T) {
	t.Parallel()
	a := newTestAnswerer(t)
	ans, err := a.Answer(context.Background(), knowledge.Post{Title: "OOM with --cpu-offload-gb on 0.24",
		Body: "vllm serve google/gemma-3-27b-it --cpu-offload-gb 40\n\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n\nvllm 0.24.0"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Matches) == 0 {
		t.Fatal("no matches")
	}
	for _, k := range []string{"key_flag", "key_exception"} {
		if ans.Matches[0].Evidence[k] == 0 {
			t.Errorf("top match %s has no %s evidence: %v", ans.Matches[0].ID, k, ans.Matches[0].Evidence)
		}
	}
}

// TestImportedSymptomsNameClasses: a message pasted without its class
// (a log line) is read with the class an imported issue's symptom gives
// it, as a pack entry's symptom would.
func TestImportedSymptomsNameClasses(t *testing.T) {
	post := knowledge.Post{
		Title: "Is the Tesla P40 not supported?",
		Body:  "Running the image gives `ERROR 04-29 21:35:55 [engine.py:448] Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla P40 GPU has compute capability 6.1.`",
	}
	issue := knowledge.IssueEntry(knowledge.Issue{Repo: "o/r", Number: 7, URL: "https://github.com/o/r/issues/7",
		Title: "[Bug]: ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has compute capability 7.5."}, nil)
	for _, tt := range []struct {
		name  string
		extra []knowledge.Entry
		want  string
	}{
		{"pack alone", nil, ""},
		{"with the issue", []knowledge.Entry{issue}, "ValueError"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := newTestAnswerer(t, tt.extra...)
			ans, err := a.Answer(context.Background(), post)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if len(ans.Facts.Errors) > 0 {
				got = ans.Facts.Errors[0].Type
				if !ans.Facts.Errors[0].Inferred {
					t.Errorf("error %+v not marked inferred", ans.Facts.Errors[0])
				}
			}
			if got != tt.want {
				t.Errorf("error class = %q, want %q (errors %+v)", got, tt.want, ans.Facts.Errors)
			}
		})
	}
}

// TestAnswererChoosesModelByKnowledgeBase checks that an Answerer decides
// with the embedded model fitted with a knowledge base made like its own:
// the pack's model over the pack, the imported model once bulk-imported
// issues outnumber the pack, and a model set by SetModel over either.
func TestAnswererChoosesModelByKnowledgeBase(t *testing.T) {
	t.Parallel()
	models := knowledge.EmbeddedModels()
	pack := newTestAnswerer(t)
	fresh, err := NewAnswerer(context.Background(), pack.DB, "herald")
	if err != nil {
		t.Fatal(err)
	}
	if kb := fresh.Composition(); kb.Imported != 0 || kb.Curated == 0 {
		t.Errorf("pack alone: composition %+v", kb)
	}
	if got := fresh.Model(); *got.KnowledgeBase != *models[0].KnowledgeBase || fresh.Engine.Thresholds.Reply != models[0].Reply {
		t.Errorf("pack alone: model fitted with %+v, reply %.3f; want the pack's model", *got.KnowledgeBase, fresh.Engine.Thresholds.Reply)
	}

	var issues []knowledge.Entry
	for i := range 200 {
		issues = append(issues, knowledge.Entry{
			ID: fmt.Sprintf("example/repo#%d", i+1), Kind: knowledge.KindIssue, Source: "github:example/repo",
			Title: fmt.Sprintf("[Bug]: crash number %d", i+1), URL: fmt.Sprintf("https://github.com/example/repo/issues/%d", i+1),
		})
	}
	imported := newTestAnswerer(t, issues...)
	fresh, err = NewAnswerer(context.Background(), imported.DB, "herald")
	if err != nil {
		t.Fatal(err)
	}
	if kb := fresh.Composition(); kb.Imported != 200 {
		t.Errorf("with 200 issues: composition %+v", kb)
	}
	if got := fresh.Model(); *got.KnowledgeBase != *models[1].KnowledgeBase || fresh.Engine.Thresholds.Reply != models[1].Reply {
		t.Errorf("with 200 issues: model fitted with %+v, reply %.3f; want the imported model", *got.KnowledgeBase, fresh.Engine.Thresholds.Reply)
	}
	fresh.SetModel(models[0])
	if fresh.Model() != models[0] || fresh.Engine.Thresholds.Reply != models[0].Reply {
		t.Error("SetModel did not replace the chosen model")
	}
}
