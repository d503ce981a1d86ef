package knowledge

import (
	"fmt"
	"strings"
	"testing"
)

// packAnswerer answers posts from the embedded vLLM pack alone, as the
// bot's Answerer does over a store holding only the pack: the index, the
// entries' error templates in the schema, the embedded model chosen for
// a pack.
type packAnswerer struct {
	schema  *Schema
	index   *Index
	entries []Entry
	engine  *Engine
}

func newPackAnswerer(t testing.TB) *packAnswerer {
	t.Helper()
	p, err := BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	return answererOver(p.Schema(), p.Entries, len(p.Entries))
}

// answererOver builds an answerer over entries, the first curated of
// them the pack's, as the bot's Answerer does over a store holding them:
// the index, the entries' error templates in the schema s, and the
// embedded model chosen for that make-up.
func answererOver(s *Schema, entries []Entry, curated int) *packAnswerer {
	b := NewIndexBuilder()
	var ts TemplateSet
	for i := range entries {
		b.Add(int32(i), &entries[i])
		ts.Add(&entries[i])
	}
	s.Templates = append(s.Templates, ts.Templates()...)
	s.Prepare()
	m := DefaultModelFor(Composition{Curated: curated, Imported: len(entries) - curated})
	th := DefaultThresholds()
	th.Reply = m.Reply
	return &packAnswerer{schema: s, index: b.Build(), entries: entries, engine: &Engine{Model: m, Thresholds: th}}
}

func (pa *packAnswerer) answer(p Post) Answer {
	f, _ := Extract(p, pa.schema)
	var cands []Candidate
	for _, h := range pa.index.Search(PostKeys(p, &f), 50, 20) {
		cands = append(cands, Candidate{Entry: pa.entries[h.ID], TextScore: h.Score, KeyScores: h.Kinds})
	}
	return pa.engine.Answer(p, f, cands)
}

// answerPrint is what a post's readers see of an answer: whether Herald
// replies, ignores or stays silent, what it cites, and the entry it
// holds most likely.
func answerPrint(a Answer) string {
	top := ""
	if len(a.Matches) > 0 {
		top = a.Matches[0].ID
	}
	return fmt.Sprintf("decision %s, cites [%s], top %s", a.Decision, strings.Join(a.Cited, " "), top)
}

// TestMetamorphicAnswers holds the answers, not only the facts, to the
// metamorphic rule: what Herald does with a post (reply, stay silent or
// ignore; what it cites; the entry it holds likeliest) must not change
// when only the post's formatting does. Ranking reads the post's words
// as well as its facts, so a rule that only the facts test holds (a
// typographic dash read as "--" in a command, but not in the words a
// flag mention is looked up in) shows here. The lossy perturbations
// (lossyPerturbations) and those that add words (addsWords) are
// measured, not held.
func TestMetamorphicAnswers(t *testing.T) {
	holdAnswers(t, newPackAnswerer(t), metamorphicPosts(t))
}

// holdAnswers holds the answers a knowledge base gives posts to the
// metamorphic rule under every perturbation, each in a parallel subtest,
// and under the title rewrites (titleTypography, toggledTemplate); the
// lossy perturbations are logged, not held.
func holdAnswers(t *testing.T, pa *packAnswerer, posts []metaPost) {
	t.Helper()
	base := make([]string, len(posts))
	for i, post := range posts {
		base[i] = answerPrint(pa.answer(Post{Title: post.title, Body: post.body, Format: FormatMarkdown}))
	}
	for _, pert := range perturbations {
		t.Run(pert.name, func(t *testing.T) {
			t.Parallel()
			changed := 0
			for i, post := range posts {
				body := pert.fn(post.body)
				if pert.name == "cooked-html" && cookingDropsText(post.body, body) {
					continue // the renderer ate characters: see TestMetamorphic
				}
				a, b := base[i], answerPrint(pa.answer(Post{Title: post.title, Body: body}))
				if a == b {
					continue
				}
				changed++
				if lossyPerturbations[pert.name] || addsWords[pert.name] {
					t.Logf("%s: answer changed\n  original: %s\n  %s: %s", post.name, a, pert.name, b)
				} else {
					t.Errorf("%s: answer changed\n  original: %s\n  %s: %s", post.name, a, pert.name, b)
				}
			}
			t.Logf("%d posts, %d answers changed", len(posts), changed)
		})
	}
	t.Run("titles", func(t *testing.T) {
		t.Parallel()
		n := 0
		for i, post := range posts {
			for _, alt := range []string{titleTypography(post.title), toggledTemplate(post.title)} {
				if alt == post.title {
					continue
				}
				n++
				if got := answerPrint(pa.answer(Post{Title: alt, Body: post.body, Format: FormatMarkdown})); got != base[i] {
					t.Errorf("%s: answer changed with the title %q for %q\n  original: %s\n  after:    %s", post.name, alt, post.title, base[i], got)
				}
			}
		}
		t.Logf("%d titles rewritten", n)
	})
}

// TestMetamorphicTitleTemplate toggles the trackers' help-request
// template on every titled post ("[Bug]: " added to a title without a
// template, taken from one that has it): the same post on a forum and
// on GitHub. Its facts may not change (its answer is held by
// TestMetamorphicAnswers' "titles", over the pack and the corpus). A template
// that names a subject ("[Installation]") or a request ("[Feature]")
// says something, and such titles are left alone.
func TestMetamorphicTitleTemplate(t *testing.T) {
	holdTitleFacts(t, "toggled", toggledTemplate)
}

// toggledTemplate is a title with the trackers' help-request template
// added or, when it has one, taken off; a title without one, or with a
// template that says something, comes back as it is.
func toggledTemplate(title string) string {
	switch {
	case title == "":
		return title
	case supportTemplateRE.MatchString(title):
		return supportTemplateRE.ReplaceAllString(title, "")
	case titleTemplateRE.MatchString(title):
		return title
	}
	return "[Bug]: " + title
}

// holdTitleFacts holds the facts of every titled test and dev post to
// the metamorphic rule under rewrite, which returns the title it is given
// when it leaves the post alone; done says what it did to a title, for
// the log. holdAnswers holds their answers under the same rewrites.
func holdTitleFacts(t *testing.T, done string, rewrite func(title string) string) {
	t.Helper()
	s := newPackAnswerer(t).schema // with the entries' error templates, as the bot reads
	posts := metamorphicPosts(t)
	n := 0
	for _, post := range posts {
		alt := rewrite(post.title)
		if alt == post.title {
			continue
		}
		n++
		f0, _ := Extract(Post{Title: post.title, Body: post.body}, s)
		f1, _ := Extract(Post{Title: alt, Body: post.body}, s)
		if a, b := factPrint(f0, s), factPrint(f1, s); a != b {
			t.Errorf("%s: facts changed with the title %q for %q\n--- original\n%s--- after\n%s", post.name, alt, post.title, a, b)
		}
	}
	if n < 20 && len(posts) > 100 {
		t.Errorf("only %d titles %s: the test no longer tests most posts", n, done)
	}
	t.Logf("%d titles %s", n, done)
}

// titleTypography rewrites a title as CJK input methods and word
// processors type it: its leading tags in lenticular brackets, with a
// full-width colon where it has a colon ("【Bug】：", as Chinese posts on
// GitHub and forums write it; "[Misc] Add …" and "[Misc]: …" say
// different things, so a colon is neither added nor dropped), no space
// after the tags (full-width punctuation carries its own spacing, so
// "【Bug】：vLLM …" is how such titles read, and as #18730 and #13122 show,
// people type over the template's space in ASCII too), and no-break
// spaces between the words.
func titleTypography(title string) string {
	if m := titleTemplateRE.FindString(title); m != "" {
		tags := strings.NewReplacer("[", "【", "]", "】", ":", "：").Replace(m)
		title = strings.TrimRight(tags, " ") + title[len(m):]
	}
	return strings.ReplaceAll(title, " ", "\u00a0")
}

// TestMetamorphicTitleTypography holds facts to the metamorphic rule for
// the title (answers: TestMetamorphicAnswers' "titles"): a title typed with lenticular
// brackets, a full-width colon and no-break spaces is the same title.
// Every feature that reads the title must read it through normalizeText
// (the title-pair feature once read the raw title, so "【Bug】" stayed a
// word of it and moved the share of words an entry's title has).
func TestMetamorphicTitleTypography(t *testing.T) {
	holdTitleFacts(t, "rewritten", titleTypography)
}

// TestMetamorphicCorpusAnswers holds the answers to the metamorphic rule
// on the 1,143 real GitHub issues of ../shared/kb-corpus, posts no rule
// was written from, as TestMetamorphicCorpus holds their facts: what
// Herald does with each over the pack must not change when only its
// formatting does. The lossy perturbations are counted, not held. Under
// the race detector every thirty-second issue is read (make test runs
// all of them without it).
func TestMetamorphicCorpusAnswers(t *testing.T) {
	t.Parallel()
	issues := corpusUnderTest(t, 32)
	pa := newPackAnswerer(t)
	base := make([]string, len(issues))
	for i, is := range issues {
		base[i] = answerPrint(pa.answer(Post{Title: is.Title, Body: is.Body, Format: FormatMarkdown}))
	}
	for _, pert := range perturbations {
		changed := 0
		for i, is := range issues {
			got := answerPrint(pa.answer(Post{Title: is.Title, Body: pert.fn(is.Body)}))
			if got == base[i] {
				continue
			}
			changed++
			if !lossyPerturbations[pert.name] && !addsWords[pert.name] {
				t.Errorf("%s: issue #%d %q: answer changed\n  original: %s\n  after:    %s", pert.name, is.Number, is.Title, base[i], got)
			}
		}
		t.Logf("%s: %d of %d answers changed", pert.name, changed, len(issues))
	}
	// The title typed as CJK input methods type it (titleTypography).
	retitled := forEachRetitled(issues, func(i int, alt string) {
		is := issues[i]
		if got := answerPrint(pa.answer(Post{Title: alt, Body: is.Body, Format: FormatMarkdown})); got != base[i] {
			t.Errorf("title typography: issue #%d %q: answer changed\n  original: %s\n  after:    %s", is.Number, is.Title, base[i], got)
		}
	})
	t.Logf("title typography: %d titles rewritten", retitled)
}

// forEachRetitled calls f with the index and the rewritten title of each
// issue whose title titleTypography changes, and returns how many it did.
func forEachRetitled(issues []corpusIssue, f func(i int, alt string)) int {
	n := 0
	for i, is := range issues {
		if alt := titleTypography(is.Title); alt != is.Title {
			n++
			f(i, alt)
		}
	}
	return n
}

// TestTemplateSetReadsCUDAErrors holds the CUDA-error templates an entry
// gives: a CUDA error alone, inside the exception that carries it, and
// under the importer's "cuda-error:" spelling each give the message as a
// cuda-error template, while other device errors (CUBLAS statuses) give
// none, since titles do not quote them without their head.
func TestTemplateSetReadsCUDAErrors(t *testing.T) {
	e := Entry{ID: "x", Symptoms: []string{
		"CUDA error: no kernel image is available for execution on the device",
		"RuntimeError: CUDA error: misaligned address in the attention kernel",
		"cuda-error: an illegal memory access was encountered",
		"CUBLAS_STATUS_NOT_SUPPORTED when calling cublasGemmEx",
	}}
	var ts TemplateSet
	ts.Add(&e)
	var got []string
	for _, tpl := range ts.Templates() {
		if tpl.Class == "cuda-error" {
			got = append(got, tpl.Message)
		}
	}
	want := []string{
		"no kernel image is available for execution on the device",
		"misaligned address in the attention kernel",
		"an illegal memory access was encountered",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("cuda-error templates:\n got %q\nwant %q", got, want)
	}
}
