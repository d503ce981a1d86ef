package knowledge

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestExtractRefs reads the entries a post names the ways posts name them.
// The sentences are retold from real posts: vllm#10589 (bare numbers in a
// sentence), hkust-nlp/simpleRL-reason#73 (an issue's address),
// vllm#12378 ("recorded my issue in #13815"), vllm#14992 (a git log with
// pull-request numbers, fenced and not).
func TestExtractRefs(t *testing.T) {
	tests := []struct {
		name, title, body string
		format            Format
		want              []string
	}{
		{name: "bare numbers in a sentence",
			body: "I have already gone through #9874 #10395 #10398 and it still fails.",
			want: []string{"#9874", "#10395", "#10398"}},
		{name: "an issue's address in a sentence",
			body: "It persists in newer releases, see https://github.com/vllm-project/vllm/issues/14404.",
			want: []string{"vllm-project/vllm#14404"}},
		{name: "a pull request's address, a Markdown link and a short reference",
			body: "Fixed by [this PR](https://github.com/vllm-project/vllm/pull/12345/files) (also vllm-project/vllm#678).",
			want: []string{"vllm-project/vllm#12345", "vllm-project/vllm#678"}},
		{name: "a number in the title",
			title: "Still broken after #13815", body: "Same error.",
			want: []string{"#13815"}},
		{name: "a Discourse topic and a docs page",
			body: "Like https://discuss.vllm.ai/t/oom-with-offload/1234/5 says, and the docs at https://docs.vllm.ai/en/latest/usage/troubleshooting/ too.",
			want: []string{"discuss.vllm.ai/t/1234", "docs.vllm.ai/en/latest/usage/troubleshooting"}},
		{name: "links glued to CJK text",
			body: "请看 https://docs.vllm.ai/en/latest/usage/troubleshooting/，尤其是检查脚本；按照https://github.com/vllm-project/vllm/issues/14404里面的教程",
			want: []string{"docs.vllm.ai/en/latest/usage/troubleshooting", "vllm-project/vllm#14404"}},
		{name: "code blocks name nothing",
			body: "```\n5eeabc2a (HEAD -> main) [Bugfix] Fix bnb quantization (#14950)\n```\nIt fails.",
			want: nil},
		{name: "an unfenced git log line names nothing",
			body: "git log says\n5eeabc2a (HEAD -> main) [Bugfix] Fix bnb quantization (#14950)",
			want: nil},
		{name: "a C++ stack frame names nothing",
			body: "frame #123: c10::Error::Error(...) + 0x8f",
			want: nil},
		{name: "small numbers count things",
			body: "GPU #1 hangs on attempt #3 of #42.",
			want: nil},
		{name: "an anchor, an entity and a colour are not numbers",
			body: "See page#section and &#1234; and color #ffffff and issue#1234x.\n    max_model_len=4096*2,  #4096*2",
			want: nil},
		{name: "machine text pasted without fences names nothing",
			body: "curl https://example.com/v1/chat/completions -d '{}'\n" +
				"API_URL = \"https://api-inference.huggingface.co/models/mistralai/Mistral-7B-Instruct-v0.2\"\n" +
				"ERROR 02-10 09:39:12 [engine.py:458] ValueError: VLLM_PORT appears to be a URI, check the warning in: https://docs.vllm.ai/en/stable/serving/env_vars.html",
			want: nil},
		{name: "the poster's own servers are no entries",
			body: "It fails at http://localhost:8000/v1/completions, at http://10.0.0.5:8000/v1 and at http://gpu-box:8000/health.",
			want: nil},
		{name: "cooked HTML keeps its links and oneboxes",
			format: FormatHTML,
			body: `<p>See <a href="https://github.com/vllm-project/vllm/issues/10395">this issue</a>.</p>` +
				`<aside class="onebox githubissue" data-onebox-src="https://github.com/vllm-project/vllm/issues/10398"><p>title</p></aside>`,
			want: []string{"vllm-project/vllm#10395", "vllm-project/vllm#10398"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Extract(Post{Title: tc.title, Body: tc.body, Format: tc.format}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(f.Refs, tc.want) {
				t.Errorf("refs = %q, want %q", f.Refs, tc.want)
			}
		})
	}
}

func TestExtractRefsIsBounded(t *testing.T) {
	// Every reference distinct, so that only the bound keeps the list short.
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "see #%d and https://github.com/a/b/issues/%d\n\n", 1000+i, i+1)
	}
	f, err := Extract(Post{Body: b.String()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Refs) != maxRefs {
		t.Errorf("%d refs, want the bound, %d", len(f.Refs), maxRefs)
	}
}

func TestCanonicalRef(t *testing.T) {
	for in, want := range map[string]string{
		"https://github.com/vllm-project/vllm/issues/10395":             "vllm-project/vllm#10395",
		"https://github.com/VLLM-Project/vllm/pull/10395/files#diff-1":  "vllm-project/vllm#10395",
		"http://www.github.com/vllm-project/vllm/discussions/7":         "vllm-project/vllm#7",
		"https://github.com/vllm-project/vllm/blob/main/vllm/config.py": "github.com/vllm-project/vllm/blob/main/vllm/config.py",
		"https://discuss.vllm.ai/t/slug/321":                            "discuss.vllm.ai/t/321",
		"https://discuss.vllm.ai/t/321":                                 "discuss.vllm.ai/t/321",
		"https://docs.vllm.ai/en/latest/serving/x.html?q=1#frag":        "docs.vllm.ai/en/latest/serving/x.html",
		"https://docs.vllm.ai/":                                         "",
		"ftp://example.com/a":                                           "",
		"not a url":                                                     "",
	} {
		if got := canonicalRef(in); got != want {
			t.Errorf("canonicalRef(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestNamedEntryIsFoundAndWeighed: an entry the post names becomes a
// candidate though it shares no other key with the post, and carries the
// named feature; an entry of another repository with the same number is
// named only by the bare number.
func TestNamedEntryIsFoundAndWeighed(t *testing.T) {
	entries := []Entry{
		{ID: "vllm-project/vllm#10395", URL: "https://github.com/vllm-project/vllm/issues/10395", Title: "Streaming parser drops arguments"},
		{ID: "other/repo#10395", URL: "https://github.com/other/repo/issues/10395", Title: "Unrelated"},
		{ID: "vllm-project/vllm#1", URL: "https://github.com/vllm-project/vllm/issues/1", Title: "Tool call streaming broken"},
	}
	b := NewIndexBuilder()
	for i := range entries {
		b.Add(int32(i+1), &entries[i])
	}
	x := b.Build()
	for _, tc := range []struct {
		body  string
		named []string
	}{
		{"Tool call streaming broken again; see https://github.com/vllm-project/vllm/issues/10395.", []string{"vllm-project/vllm#10395"}},
		{"Tool call streaming broken again; I went through #10395.", []string{"vllm-project/vllm#10395", "other/repo#10395"}},
	} {
		p := Post{Title: "Tool call streaming", Body: tc.body}
		f, err := Extract(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		hits := x.Search(PostKeys(p, &f), 1, 0)
		var cands []Candidate
		for _, h := range hits {
			cands = append(cands, Candidate{Entry: entries[h.ID-1], TextScore: h.Score})
		}
		var named []string
		for _, m := range Rank(p, &f, cands, DefaultModel()) {
			if m.Evidence[fNamed] > 0 {
				named = append(named, m.ID)
				if !m.Structured {
					t.Errorf("%s: a named match is structured evidence", m.ID)
				}
			}
		}
		slices.Sort(named)
		slices.Sort(tc.named)
		if !slices.Equal(named, tc.named) {
			t.Errorf("%q: named %q, want %q", tc.body, named, tc.named)
		}
	}
}

func FuzzCanonicalRef(f *testing.F) {
	for _, s := range []string{"https://github.com/a/b/issues/1", "https://x.y/t/s/2/3", "http://[::1]:80/a", "https://a/%zz", "https://github.com/a/b/pull/99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := canonicalRef(s)
		if strings.ContainsAny(r, " \t\n") {
			t.Errorf("canonicalRef(%q) = %q holds white space", s, r)
		}
		if len(r) > len(s)+len("/t/") {
			t.Errorf("canonicalRef(%q) = %q is longer than its input", s, r)
		}
	})
}
