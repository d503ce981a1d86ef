package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/heraldbot/herald/knowledge"
)

// generateEntries makes n realistic issue entries by recombining the
// vLLM pack's titles, symptoms, flags and platforms with other model names
// and numbers, the way a large tracker repeats the same themes.
func generateEntries(p *knowledge.Pack, n int) []knowledge.Entry {
	r := rand.New(rand.NewPCG(1, 2))
	models := []string{"llama-3.1-8b", "qwen2.5-72b", "mixtral-8x7b", "deepseek-v3", "gemma-2-27b", "phi-3-mini", "mistral-7b", "yi-34b"}
	out := make([]knowledge.Entry, n)
	for i := range out {
		a := p.Entries[r.IntN(len(p.Entries))]
		c := p.Entries[r.IntN(len(p.Entries))]
		e := knowledge.Entry{
			ID:        fmt.Sprintf("gen/repo#%d", i+1),
			Kind:      knowledge.KindIssue,
			URL:       fmt.Sprintf("https://github.com/gen/repo/issues/%d", i+1),
			Title:     fmt.Sprintf("%s with %s (%d)", a.Title, models[r.IntN(len(models))], r.IntN(1000)),
			State:     []string{"open", "closed"}[r.IntN(2)],
			Symptoms:  append(append([]string(nil), a.Symptoms...), c.Symptoms...),
			Flags:     append(append([]string(nil), a.Flags...), c.Flags...),
			Platforms: a.Platforms,
			Tags:      c.Tags,
			Body:      a.Summary + "\n" + strings.Join(c.Symptoms, "\n"),
			Source:    "github",
			Prior:     0.6,
		}
		out[i] = e
	}
	return out
}

// BenchmarkAnswer measures the whole pipeline (extract, search, rank,
// decide, compose) per post against knowledge bases of growing size.
func BenchmarkAnswer(b *testing.B) {
	files, _ := filepath.Glob("../knowledge/testdata/posts/*")
	var posts []knowledge.Post
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		posts = append(posts, knowledge.Post{Title: titles[filepath.Base(f)], Body: string(body)})
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
			a := newTestAnswerer(b, generateEntries(p, n)...)
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
