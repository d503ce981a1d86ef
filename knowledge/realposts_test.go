package knowledge

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"
)

// devCase is a labelled post of ../shared/bench/vllm-dev with what these
// tests read.
type devCase struct {
	ID       string `json:"case_id"`
	Category string `json:"category"`
	Title    string `json:"title"`
	Body     string `json:"body"`
}

// devCasesPath is where the labelled vllm-dev posts sit, beside the
// repository in the dev environment.
const devCasesPath = "../../shared/bench/vllm-dev/cases.jsonl"

// sharedFile reads a file of ../shared; ok is false when it is absent.
func sharedFile(t *testing.T, path string) (data []byte, ok bool) {
	t.Helper()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return data, true
}

// devCases reads the 95 labelled vllm-dev posts; ok is false when they
// are absent.
func devCases(t *testing.T) (cases []devCase, ok bool) {
	t.Helper()
	data, ok := sharedFile(t, devCasesPath)
	if !ok {
		return nil, false
	}
	for line := range strings.Lines(string(data)) {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var c devCase
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	return cases, true
}

// readDevCases is devCases, skipping the test when they are absent.
func readDevCases(t *testing.T) []devCase {
	t.Helper()
	cases, ok := devCases(t)
	if !ok {
		t.Skipf("skipping: %s not available (it sits beside the repository in the dev environment)", devCasesPath)
	}
	return cases
}

// TestOtherEngineOnRealPosts measures Facts.OtherEngine on real posts
// (`go test -tags sqlite_fts5 -run TestOtherEngineOnRealPosts -v
// ./knowledge` lists them): every vllm-dev post read as another
// engine's must be one that no vLLM entry answers (abstain or
// not-support), and the corpus, all vLLM issues, may hold at most one
// more misreading than this version makes (#7108 and #9923, which
// compare with sglang and whose stored bodies never say vLLM).
func TestOtherEngineOnRealPosts(t *testing.T) {
	t.Parallel()
	s := vllmSchema(t)
	t.Run("vllm-dev", func(t *testing.T) {
		t.Parallel()
		n := 0
		for _, c := range readDevCases(t) {
			f, _ := Extract(Post{Title: c.Title, Body: c.Body}, s)
			if f.OtherEngine == "" {
				continue
			}
			n++
			t.Logf("%s (%s): %s", c.ID, c.Category, f.OtherEngine)
			if c.Category == "support" {
				t.Errorf("%s, a support post vLLM's entries answer, read as %s's", c.ID, f.OtherEngine)
			}
		}
		t.Logf("%d posts read as another engine's", n)
	})
	t.Run("corpus", func(t *testing.T) {
		t.Parallel()
		issues := readCorpus(t)
		n := 0
		for _, is := range issues {
			f, _ := Extract(Post{Title: is.Title, Body: is.Body}, s)
			if f.OtherEngine != "" {
				n++
				t.Logf("#%d %q: %s", is.Number, is.Title, f.OtherEngine)
			}
		}
		t.Logf("%d of %d vLLM issues read as another engine's", n, len(issues))
		if n > 3 {
			t.Errorf("%d vLLM issues read as another engine's, more than 3", n)
		}
	})
}

// pageChangeTitleRE is a docs issue or pull request that adds or fixes
// a page ("[Doc] Add documentation for GGUF quantization", "[Docs]
// Update …"), which asks nobody for help.
var pageChangeTitleRE = regexp.MustCompile(`(?i)^\s*\[docs?\][:\s]*(?:\[[^\]]*\]\s*)*(add|fix|update|improve|rewrite|refresh|expand|make)\b`)

// TestDocTitlesOnCorpus lists the corpus's `[Doc]` titles read as
// support (`go test -tags sqlite_fts5 -run TestDocTitlesOnCorpus -v
// ./knowledge`): questions and pasted errors. None that adds or fixes a
// page may be among them.
func TestDocTitlesOnCorpus(t *testing.T) {
	t.Parallel()
	s := vllmSchema(t)
	docs, support := 0, 0
	for _, is := range readCorpus(t) {
		if !docTitleRE.MatchString(normalizeText(is.Title)) {
			continue
		}
		docs++
		f, _ := Extract(Post{Title: is.Title, Body: is.Body}, s)
		if !IsSupportQuestion(is.Title, &f, is.Body) {
			continue
		}
		support++
		t.Logf("#%d %q", is.Number, is.Title)
		if pageChangeTitleRE.MatchString(is.Title) {
			t.Errorf("#%d %q changes a page and was read as support", is.Number, is.Title)
		}
	}
	t.Logf("%d of %d [Doc] titles read as support", support, docs)
}

// TestSupportWithoutTemplateTags reads the corpus's labelled issues as a
// forum would show them, without the template's tag, which forum posts
// do not have (`go test -tags sqlite_fts5 -run
// TestSupportWithoutTemplateTags -v ./knowledge` lists the misreadings):
// an issue labelled bug, usage, installation or performance must be read
// as support from its words, commands and errors alone, and one
// labelled a feature request or RFC must not be read as support more
// often than this version does. The floors sit at or just under this
// version's counts, 375 and 15 (the rules were written looking at the
// even-numbered issues of the list; the odd-numbered ones are the
// held-out half).
func TestSupportWithoutTemplateTags(t *testing.T) {
	t.Parallel()
	s := vllmSchema(t)
	type tally struct{ support, ignored int }
	counts := map[string]*tally{"support": {}, "request": {}}
	var oddSupport tally // the held-out half of the support issues
	for i, is := range readCorpus(t) {
		if len(strings.TrimSpace(is.Body)) < 50 {
			continue // the title alone, which a tag-less title rarely decides
		}
		kind := is.kind("bug", "usage", "installation", "performance")
		if kind == "" {
			continue
		}
		title := stripTitleTemplate(is.Title)
		f, _ := Extract(Post{Title: title, Body: is.Body}, s)
		read := IsSupportQuestion(title, &f, is.Body)
		for _, c := range []*tally{counts[kind], &oddSupport} {
			if c == &oddSupport && (kind != "support" || i%2 == 0) {
				continue
			}
			if read {
				c.support++
			} else {
				c.ignored++
			}
		}
		if kind == "support" && !read {
			t.Logf("support read as not: #%d %q", is.Number, title)
		}
		if kind == "request" && read {
			t.Logf("request read as support: #%d %q", is.Number, title)
		}
	}
	sup, req := counts["support"], counts["request"]
	t.Logf("support issues read as support: %d of %d (odd-numbered half %d of %d); feature requests ignored: %d of %d",
		sup.support, sup.support+sup.ignored, oddSupport.support, oddSupport.support+oddSupport.ignored, req.ignored, req.support+req.ignored)
	if sup.support < 382 {
		t.Errorf("%d support issues read as support, fewer than 382", sup.support)
	}
	if req.ignored < 15 {
		t.Errorf("%d feature requests ignored, fewer than 15", req.ignored)
	}
}

// TestRequestTemplatesOnRealPosts reads the vllm-dev posts without their
// title's template tag (`go test -tags sqlite_fts5 -run
// TestRequestTemplatesOnRealPosts -v ./knowledge` lists them): a post
// whose body is a feature-request or RFC template is still no support
// question, and no support or abstain post's body is one.
func TestRequestTemplatesOnRealPosts(t *testing.T) {
	t.Parallel()
	s := vllmSchema(t)
	templated, ignored := 0, 0
	for _, c := range readDevCases(t) {
		if !requestTemplateRE.MatchString(c.Body) {
			continue
		}
		templated++
		if c.Category != "not_support" {
			t.Errorf("%s (%s) has a request template in its body", c.ID, c.Category)
			continue
		}
		title := stripTitleTemplate(c.Title)
		f, _ := Extract(Post{Title: title, Body: c.Body}, s)
		if IsSupportQuestion(title, &f, c.Body) {
			t.Errorf("%s %q, a request template, read as support without its tag", c.ID, title)
		} else {
			ignored++
		}
	}
	t.Logf("%d posts have a request template; %d are ignored without their tag", templated, ignored)
	if templated == 0 {
		t.Error("no vllm-dev post has a request template: the test no longer tests anything")
	}
}
