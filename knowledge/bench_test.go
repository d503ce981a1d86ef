package knowledge

import (
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
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Rank(post, &f, cands, DefaultModel())
	}
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
