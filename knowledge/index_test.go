package knowledge

import (
	"fmt"
	"slices"
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
