package knowledge

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkExtract measures extraction per post over the test posts.
func BenchmarkExtract(b *testing.B) {
	s := vllmSchema(b)
	files, _ := filepath.Glob("testdata/posts/*")
	var posts []Post
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		posts = append(posts, Post{Body: string(body)})
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
		Rank(&f, post.Body, cands, DefaultModel())
	}
}
