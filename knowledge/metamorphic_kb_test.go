package knowledge

import (
	"fmt"
	"slices"
	"testing"
)

// newCorpusAnswerer answers posts from the embedded vLLM pack and the
// 1,143 corpus issues of ../shared/kb-corpus imported beside it, as the
// bot's Answerer does over a store holding both (an issue the pack
// curates keeps the pack's entry, as the importer keeps it), with the
// embedded model chosen for that make-up. It is the knowledge base the
// headline figures are measured on, but for the docs pages, which only
// the importer reads.
func newCorpusAnswerer(t *testing.T) *packAnswerer {
	t.Helper()
	issues := readCorpus(t)
	p, err := BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	s := p.Schema()
	entries := slices.Clone(p.Entries)
	curated := len(entries)
	kept := map[string]bool{}
	for _, e := range entries {
		kept[e.ID] = true
	}
	for _, is := range issues {
		labels := make([]string, len(is.Labels))
		for i, l := range is.Labels {
			labels[i] = l.Name
		}
		e := IssueEntry(Issue{Repo: "vllm-project/vllm", Number: is.Number, Title: is.Title, Body: is.Body,
			URL: fmt.Sprintf("https://github.com/vllm-project/vllm/issues/%d", is.Number), State: "open", Labels: labels}, &s.Vocabulary)
		if !kept[e.ID] {
			entries = append(entries, e)
		}
	}
	return answererOver(s, entries, curated)
}

// TestMetamorphicAnswersWithCorpus holds the answers of the test and dev
// posts to the metamorphic rule over the pack and the corpus issues, the
// knowledge base Herald is measured with, where a thousand close
// competitors make a small change in a post's words more likely to move
// its answer than over the pack alone (TestMetamorphicAnswers). The
// lossy perturbations are logged, not held. It runs without the race
// detector only (make test's second step): the code it reads through is
// TestMetamorphicAnswers', which -race runs, and a thousand entries under
// -race cost minutes.
func TestMetamorphicAnswersWithCorpus(t *testing.T) {
	t.Parallel()
	skipCorpusAnswers(t)
	holdAnswers(t, newCorpusAnswerer(t), metamorphicPosts(t))
}

// skipCorpusAnswers skips a test that answers posts over the corpus in
// -short mode and under the race detector: make test runs such tests in
// its second step, without it, since a thousand entries under -race cost
// minutes and the code they read through is the pack's, which -race runs.
func skipCorpusAnswers(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping the corpus in -short mode")
	}
	if raceEnabled {
		t.Skip("skipping under -race: make test runs it in its second step, without the race detector")
	}
}
