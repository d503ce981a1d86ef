package bench

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/heraldbot/herald/knowledge"
)

// GenerateEntries makes n realistic issue entries by recombining a pack's
// titles, symptoms, flags, platforms and tags with other model names and
// numbers, the way a large tracker repeats the same themes. The same seed
// gives the same entries.
func GenerateEntries(p *knowledge.Pack, n int, seed uint64) []knowledge.Entry {
	r := rand.New(rand.NewPCG(seed, 2))
	models := []string{"llama-3.1-8b", "qwen2.5-72b", "mixtral-8x7b", "deepseek-v3", "gemma-2-27b", "phi-3-mini", "mistral-7b", "yi-34b"}
	out := make([]knowledge.Entry, n)
	for i := range out {
		a := p.Entries[r.IntN(len(p.Entries))]
		c := p.Entries[r.IntN(len(p.Entries))]
		out[i] = knowledge.Entry{
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
	}
	return out
}

// GeneratePosts makes n support posts from a pack: a vllm command using an
// entry's flags, its first symptom as the error with numbers filled in,
// and a version line. They exercise every stage of the pipeline.
func GeneratePosts(p *knowledge.Pack, n int, seed uint64) []knowledge.Post {
	r := rand.New(rand.NewPCG(seed, 3))
	out := make([]knowledge.Post, n)
	for i := range out {
		e := p.Entries[r.IntN(len(p.Entries))]
		var b strings.Builder
		b.WriteString("I'm hitting this and could use help.\n\n```\nvllm serve org/model-7b")
		for _, f := range e.Flags {
			if strings.HasPrefix(f, "--") {
				name, _, _ := strings.Cut(f, " ")
				fmt.Fprintf(&b, " %s %d", name, 1+r.IntN(8))
			}
		}
		b.WriteString("\n```\n\n```\n")
		if len(e.Symptoms) > 0 {
			sym := e.Symptoms[r.IntN(len(e.Symptoms))]
			for strings.Contains(sym, "<N>") {
				sym = strings.Replace(sym, "<N>", fmt.Sprint(r.IntN(4096)), 1)
			}
			b.WriteString(sym)
		}
		fmt.Fprintf(&b, "\n```\nvllm==0.%d.%d on an RTX 4090\n", 4+r.IntN(20), r.IntN(4))
		out[i] = knowledge.Post{Title: e.Title, Body: b.String()}
	}
	return out
}
