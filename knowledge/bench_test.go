package knowledge

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// BenchmarkExtract measures extraction per post over the test posts.
func BenchmarkExtract(b *testing.B) {
	s := vllmSchema(b)
	var posts []Post
	for _, p := range testPosts(b) {
		posts = append(posts, Post{Body: p.body})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Extract(posts[i%len(posts)], s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRank measures ranking the whole vLLM pack for the seed post.
func BenchmarkRank(b *testing.B) {
	post, f, cands := rankFixture(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Rank(post, &f, cands, DefaultModel())
	}
}

// BenchmarkRankWarm is BenchmarkRank with one memo across posts, as the
// Engine keeps it: the entries' titles and symptoms are prepared once.
func BenchmarkRankWarm(b *testing.B) {
	post, f, cands := rankFixture(b)
	var memo symptomMemo
	m := DefaultModel()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rank(&memo, post, &f, cands, m)
	}
}

// rankFixture is a post, its facts and every pack entry as a candidate.
func rankFixture(b *testing.B) (Post, Facts, []Candidate) {
	b.Helper()
	p, err := BuiltinPack("vllm")
	if err != nil {
		b.Fatal(err)
	}
	post := readPostFile(b, "oom-rocm-offload.md")
	f, _ := Extract(post, p.Schema())
	cands := make([]Candidate, len(p.Entries))
	for i, e := range p.Entries {
		cands[i] = Candidate{Entry: e, TextScore: float64(i % 7)}
	}
	return post, f, cands
}

// hostileShapes are 256 KiB bodies of the shapes that cost CommonMark
// parsers quadratic time, beside an ordinary log of the same size.
func hostileShapes() map[string]string {
	const n = MaxPostBytes
	return map[string]string{
		"ordinary-log":    strings.Repeat("INFO 05-12 10:00:00 [core.py:42] step 12 took 0.3 s on GPU 0\n", n/62),
		"nested-quotes":   strings.Repeat(">", n),
		"nested-quotes-2": strings.Repeat("> ", n/2),
		"emphasis-runs":   strings.Repeat("*a_ ", n/4),
		"open-links":      strings.Repeat("[a](b", n/5),
		"open-brackets":   strings.Repeat("[", n),
		"backticks":       strings.Repeat("`a", n/2),
		"link-refs":       strings.Repeat("[x]: y\n", n/7),
		"nested-lists":    strings.Repeat("- ", n/2),
		// Discourse [code] tags: none closed, and nested to the bottom.
		"bbcode-open":   strings.Repeat("[code]\n", n/7),
		"bbcode-nested": strings.Repeat("[code]\n", n/16) + strings.Repeat("[/code]\n", n/16),
		// Lists of quoted options without a key, none closed
		// (argvLists, listCommands' exec forms).
		"quoted-items": strings.Repeat("\"--a\", \"b\", \\\n", n/12),
		"open-lists":   "```\n" + strings.Repeat("[\"python\", \"-m\n", n/16) + "```\n",
		// A command followed by lines that each read as the rest of it
		// cut by a terminal's wrap (joinTerminalWraps).
		"wrapped-command": "```\nvllm serve " + strings.Repeat("m", 60) + "\n" + strings.Repeat("x --a\n", n/6) + "```\n",
	}
}

// BenchmarkHostileShapes reads each shape; compare each with
// ordinary-log, which is what any post of that size costs.
func BenchmarkHostileShapes(b *testing.B) {
	s := vllmSchema(b)
	for name, body := range hostileShapes() {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				_, _ = Extract(Post{Body: body}, s)
			}
		})
	}
}

// BenchmarkTemplates extracts a long log against the pack's error
// templates plus n more, as a large knowledge base's imported issues
// give (about one template per eleven issues on the vLLM corpus). The
// cost per post should not grow with n: a line is tried only against
// the templates whose needle it holds. Compare each n with n=0 in the
// same run.
func BenchmarkTemplates(b *testing.B) {
	p, err := BuiltinPack("vllm")
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		w := make([]byte, 4+r.IntN(8))
		for i := range w {
			w[i] = byte('a' + r.IntN(26))
		}
		return string(w)
	}
	var extra []ErrorTemplate
	for range 10_000 {
		ws := make([]string, 8)
		for j := range ws {
			ws[j] = word()
		}
		extra = append(extra, ErrorTemplate{Class: "ValueError", Message: strings.Join(ws, " ") + "."})
	}
	post := Post{Title: "log", Body: strings.Repeat("INFO 05-12 10:00:00 [core.py:42] step 12 took 0.3 s on GPU 0, memory 12.5 GiB of 80 GiB used\n", 2000)}
	for _, n := range []int{0, 1_000, 10_000} {
		b.Run(fmt.Sprintf("templates=%d", n), func(b *testing.B) {
			s := p.Schema()
			s.Templates = append(s.Templates, extra[:n]...)
			s.Prepare()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := Extract(post, s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
