package bot

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/heraldbot/herald/importer"
	"github.com/heraldbot/herald/knowledge"
)

// TestSeedPostWithCorpus imports the 1,143 real vLLM issues of
// ../shared/kb-corpus beside the pack and checks Herald stays precise:
// the seed post still cites the curated sources, and posts about nothing
// known still get no reply.
func TestSeedPostWithCorpus(t *testing.T) {
	t.Parallel()
	path := filepath.Join("..", "..", "shared", "kb-corpus", "vllm-issues.json")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("skipping: %s not available (it sits beside the repository in the dev environment): %v", path, err)
	}
	f.Close()
	a := newTestAnswerer(t)
	st, err := importer.Import(context.Background(), a.DB, path, importer.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Inserted < 1000 || st.Kept == 0 {
		t.Errorf("corpus import: %+v; want >1000 new and the curated ids kept", st)
	}
	ans, n := answerSeedPost(t, a)
	if ans.Decision != knowledge.DecisionReply || n < 2 || !slices.Contains(seedSources, ans.Cited[0]) { // see TestSeedPost
		t.Errorf("with the corpus: decision %s, cited %v (%d of 4 expected)", ans.Decision, ans.Cited, n)
	}
	for _, name := range []string{"unrelated-question.md", "go-panic.md", "rust-panic.md", "announcement.md"} {
		c := testCaseNamed(t, name)
		ans, err := a.Answer(context.Background(), knowledge.Post{Title: c.title, Body: c.body})
		if err != nil {
			t.Fatal(err)
		}
		if ans.Decision == knowledge.DecisionReply {
			t.Errorf("%s: replied citing %v with the corpus imported; want silence", name, ans.Cited)
		}
	}
}
