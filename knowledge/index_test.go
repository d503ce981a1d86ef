package knowledge

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestIndexSearchKeepsCuratedAndOrders(t *testing.T) {
	t.Parallel()
	b := NewIndexBuilder()
	// Ten bulk entries share the flag; one curated entry shares it too but
	// scores lower than all of them.
	for i := int32(1); i <= 10; i++ {
		b.Add(i, &Entry{ID: fmt.Sprint(i), Source: "github", Flags: []string{"--cpu-offload-gb"},
			Title: "cpu offload ignored", Tags: []string{"oom"}})
	}
	b.Add(11, &Entry{ID: "c", Source: "pack:vllm", Flags: []string{"--cpu-offload-gb"}})
	b.Add(12, &Entry{ID: "other", Source: "pack:vllm", Flags: []string{"--enforce-eager"}})
	x := b.Build()
	keys := PostKeys(Post{Title: "cpu offload ignored"}, &Facts{
		Commands: []Command{{Program: "vllm", Flags: map[string]string{"--cpu-offload-gb": "10"}}},
		Topics:   []string{"oom"},
	})
	hits := x.Search(keys, 3, 2)
	if len(hits) != 4 {
		t.Fatalf("hits = %+v, want 3 best plus the one matching curated entry", hits)
	}
	if hits[3].ID != 11 {
		t.Errorf("curated entry not kept: %+v", hits)
	}
	if !slices.IsSortedFunc(hits[:3], func(a, b Hit) int {
		if a.Score > b.Score {
			return -1
		}
		if a.Score < b.Score {
			return 1
		}
		return int(a.ID - b.ID)
	}) {
		t.Errorf("top hits not best first: %+v", hits)
	}
	if got := x.Search(nil, 3, 2); len(got) != 0 {
		t.Errorf("no keys gave %v", got)
	}
	var empty *Index
	if got := empty.Search(keys, 3, 3); got != nil {
		t.Errorf("nil index gave %v", got)
	}
}

// TestEntryKeysReadSourceText: a curated entry is found by the words of
// the issue or page it is about, kept from their import.
func TestEntryKeysReadSourceText(t *testing.T) {
	e := Entry{ID: "o/r#1", Title: "Engine fails", Source: "pack:vllm", SourceText: "a zygomorphic kernel failure"}
	if keys := EntryKeys(&e); !slices.Contains(keys, "b:zygomorphic") {
		t.Errorf("keys = %v; want the source text's words", keys)
	}
}

// TestSearchSplitsScoreByKind: a hit's score is the sum of what each kind
// of shared key earned, whatever order the entries were added in.
func TestSearchSplitsScoreByKind(t *testing.T) {
	t.Parallel()
	b := NewIndexBuilder()
	for i := int32(9); i >= 1; i-- { // added out of id order
		b.Add(i, &Entry{ID: fmt.Sprint(i), Source: "github", Title: fmt.Sprintf("unrelated words %d", i)})
	}
	b.Add(10, &Entry{ID: "flag and title", Source: "github", Flags: []string{"--cpu-offload-gb"}, Title: "offload ignored"})
	b.Add(11, &Entry{ID: "title only", Source: "github", Title: "offload ignored"})
	keys := PostKeys(Post{Title: "offload ignored"}, &Facts{
		Commands: []Command{{Program: "vllm", Flags: map[string]string{"--cpu-offload-gb": "10"}}},
	})
	hits := b.Build().Search(keys, 5, 0)
	byID := map[int32]Hit{}
	for _, h := range hits {
		sum := 0.0
		for _, v := range h.Kinds {
			sum += v
		}
		if math.Abs(sum-h.Score) > 1e-9 {
			t.Errorf("hit %d: kinds %v sum to %v, score %v", h.ID, h.Kinds, sum, h.Score)
		}
		byID[h.ID] = h
	}
	flag, title := strings.IndexByte(KeyKinds, 'f'), strings.IndexByte(KeyKinds, 't')
	if h := byID[10]; h.Kinds[flag] == 0 || h.Kinds[title] == 0 {
		t.Errorf("flag-and-title entry: kinds %v", h.Kinds)
	}
	if h := byID[11]; h.Kinds[flag] != 0 || h.Kinds[title] == 0 {
		t.Errorf("title-only entry: kinds %v", h.Kinds)
	}
}

// TestModelFamilyGenerations: a family written with its generation names
// that generation, whatever the separators; a size after a dash or a
// space is not a generation.
func TestModelFamilyGenerations(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		fam, model string
		want       bool
	}{
		{"glm4", "GLM-4.7-Flash", false},
		{"glm4.7", "GLM-4.7-Flash", true},
		{"glm4.7", "zai-org/GLM-4.7", true},
		{"qwen2", "Qwen/Qwen2.5-VL-7B-Instruct", false},
		{"qwen2.5", "Qwen/Qwen2.5-VL-7B-Instruct", true},
		{"qwen3", "Qwen/Qwen3-32B", true},
		{"qwen3", "Qwen3 32B", true},
		{"deepseekv3", "deepseek-ai/DeepSeek-V3.2", false},
		{"deepseekv3", "deepseek-ai/DeepSeek-V3", true},
		{"llama", "meta-llama/Llama-3.1-8B-Instruct", true},
		{"gguf", "unsloth/Qwen3-GGUF", true},
	} {
		got := modelFamilyHit(c.fam, []string{c.model}, postTokens{}) != ""
		if got != c.want {
			t.Errorf("modelFamilyHit(%q, %q) = %v, want %v", c.fam, c.model, got, c.want)
		}
	}
}

// TestTitleCompoundsFindOtherSpellings: names written glued, hyphenated,
// underscored or spaced are one title key. Corpus titles write 31 such
// names glued in one title and in parts in another (TestCorpusTitleClasses) (vllm#41466 "Qwen3Coder", vllm#22975 "qwen3 coder",
// vllm#24072 "Qwen3-coder"; vllm#32895 "gptoss", vllm#22337 "gpt-oss";
// vllm#21438 "multinode", vllm#2406 "Multi-node"), and posts elsewhere
// (club-3090#72, vllm-dev C2-022: "qwen3coder parser").
func TestTitleCompoundsFindOtherSpellings(t *testing.T) {
	t.Parallel()
	titles := map[int32]string{
		1: "Fix Qwen3Coder prev_tool_call_arr double-emission",
		2: "tool calling not parsed for qwen3 coder",
		3: "Fix Qwen3-coder moe tuned config",
		4: "qwen3_coder parser drops arguments",
		5: "Qwen3 VL coder-friendly chat template", // "vl" sits between
	}
	b := NewIndexBuilder()
	for id, title := range titles {
		b.Add(id, &Entry{ID: fmt.Sprint(id), Source: "github", Title: title})
	}
	x := b.Build()
	hits := x.Search(PostKeys(Post{Title: "Streaming goes silent (qwen3coder parser)"}, &Facts{}), 10, 0)
	found := map[int32]bool{}
	for _, h := range hits {
		found[h.ID] = true
	}
	for id := int32(1); id <= 4; id++ {
		if !found[id] {
			t.Errorf("%q not found by a post writing qwen3coder; hits %+v", titles[id], hits)
		}
	}
	if found[5] {
		t.Errorf("%q found: its words are not adjacent", titles[5])
	}

	for _, tc := range []struct {
		title string
		want  []string
		not   []string
	}{
		{"gpt-oss fails on multi-node", []string{"gptoss", "multinode"}, nil},
		{"[Bug]: CUDA graph capture", []string{"cudagraph"}, []string{"bugcuda"}},
		{"the llama 3 model", []string{"llama3"}, []string{"thellama"}},
		{"a b", nil, []string{"ab"}},
	} {
		got := titleCompounds(tc.title)
		for _, w := range tc.want {
			if !got[w] {
				t.Errorf("titleCompounds(%q) = %v, want %q", tc.title, got, w)
			}
		}
		for _, w := range tc.not {
			if got[w] {
				t.Errorf("titleCompounds(%q) has %q", tc.title, w)
			}
		}
	}
}

func TestWithoutFenceInfo(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"text\n```json\n{}\n```\n", "text\n```\n{}\n```\n"},
		{"~~~ python\nx = 1\n~~~", "~~~\nx = 1\n~~~"},
		{"> ```bash\n> vllm serve m\n> ```", "> ```\n> vllm serve m\n> ```"},
		{"no fences, a `span` and ``two``", "no fences, a `span` and ``two``"},
		{"```\nbare\n```", "```\nbare\n```"},
	} {
		if got := withoutFenceInfo(c.in); got != c.want {
			t.Errorf("withoutFenceInfo(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestPostKeysReadParserFamilies: a parser option's value is no model of
// the post's, but names the family it runs, so the post's candidates are
// found by it as by a model (vllm-dev C2-017, C2-030, C2-033).
func TestPostKeysReadParserFamilies(t *testing.T) {
	t.Parallel()
	p, err := BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	post := Post{Body: "```\nvllm serve /models/m --enable-auto-tool-choice --tool-call-parser glm45\n```\nNo tool calls come back."}
	f, err := Extract(post, p.Schema())
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(f.Models, "glm45") {
		t.Errorf("models = %q: a parser read as a model", f.Models)
	}
	if keys := PostKeys(post, &f); !slices.Contains(keys, "m:glm45") {
		t.Errorf("keys = %q, want the parser's family m:glm45", keys)
	}
}

// TestFlagAtItsDefaultIsNoEvidence: a command that sets a flag to the
// value it has anyway ("--tensor-parallel-size 1", pasted with its
// default) does not use what the flag turns on, so an entry keyed on the
// flag gains nothing from it; set otherwise, or keyed on that value, it
// does.
func TestFlagAtItsDefaultIsNoEvidence(t *testing.T) {
	p, err := BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	s := p.Schema()
	entry := Entry{ID: "e", Kind: KindIssue, Title: "Tensor parallel hangs", Flags: []string{"--tensor-parallel-size"}}
	pinned := Entry{ID: "p", Kind: KindIssue, Title: "Single GPU run", Flags: []string{"--tensor-parallel-size 1"}}
	for _, c := range []struct {
		value      string
		want, pins bool
	}{
		{"1", false, true},
		{"2", true, false},
	} {
		body := "```\nvllm serve m --tensor-parallel-size " + c.value + "\n```"
		f, err := Extract(Post{Title: "t", Body: body}, s)
		if err != nil {
			t.Fatal(err)
		}
		ms := Rank(Post{Title: "t", Body: body}, &f, []Candidate{{Entry: entry, TextScore: 1}, {Entry: pinned, TextScore: 1}}, DefaultModel())
		got := map[string]bool{}
		for _, m := range ms {
			got[m.ID] = m.Evidence[fFlags] > 0
		}
		if got["e"] != c.want || got["p"] != c.pins {
			t.Errorf("--tensor-parallel-size %s: flag evidence %v, want e=%v p=%v", c.value, got, c.want, c.pins)
		}
	}
}

// TestQuotedHeadOfAnError: a post that quotes an error by the head of its
// message (a title cut to fit: getainode/ainode#34, corpus #39774) has the
// error of an entry that gives the whole message, when the class is the
// same and the head is long enough to say which error it heads.
func TestQuotedHeadOfAnError(t *testing.T) {
	p, err := BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	s := p.Schema()
	entry := Entry{ID: "e", Kind: KindIssue, Title: "Engine dies at start",
		Symptoms: []string{"RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}"}}
	for _, c := range []struct {
		title string
		want  bool
	}{
		{"RuntimeError: Engine core initialization failed.", true},
		{"RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}", true},
		// Too short to say which error it heads.
		{"RuntimeError: initialization failed", false},
		// Another class.
		{"ValueError: Engine core initialization failed.", false},
		// Words the entry's message does not have.
		{"RuntimeError: Engine core initialization failed: CUDA driver too old", false},
	} {
		post := Post{Title: c.title, Body: "It fails at start."}
		f, err := Extract(post, s)
		if err != nil {
			t.Fatal(err)
		}
		ms := Rank(post, &f, []Candidate{{Entry: entry, TextScore: 1}}, DefaultModel())
		if got := ms[0].Evidence[fSignature] > 0; got != c.want {
			t.Errorf("%q: signature evidence %v (%v), want %v", c.title, got, ms[0].Evidence, c.want)
		}
	}
}
