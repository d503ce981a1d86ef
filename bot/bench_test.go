package bot

import (
	"context"
	"fmt"
	"testing"

	"github.com/heraldbot/herald/bench"
	"github.com/heraldbot/herald/knowledge"
)

// BenchmarkAnswer measures the whole pipeline (extract, search, rank,
// decide, compose) per post against knowledge bases of growing size.
func BenchmarkAnswer(b *testing.B) {
	var posts []knowledge.Post
	for _, c := range testCases(b) {
		posts = append(posts, knowledge.Post{Title: c.title, Body: c.body})
	}
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			if n > 10_000 && testing.Short() {
				b.Skip("skipping 100k entries in -short mode")
			}
			p, err := knowledge.BuiltinPack("vllm")
			if err != nil {
				b.Fatal(err)
			}
			a := newTestAnswerer(b, bench.GenerateEntries(p, n, 1)...)
			ctx := context.Background()
			// The baseline in the same run: plain BM25 over the post's
			// text, no extraction, ranking or composition.
			b.Run("baseline-bm25", func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					p := posts[i%len(posts)]
					if _, err := a.DB.SearchText(ctx, p.Title+"\n"+p.Body, 10); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("herald", func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if _, err := a.Answer(ctx, posts[i%len(posts)]); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
