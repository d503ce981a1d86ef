package bot

import (
	"testing"

	"github.com/heraldbot/herald/knowledge"
)

func TestEntryCacheEvictsLeastRecent(t *testing.T) {
	t.Parallel()
	c := newEntryCache(2)
	c.put(1, knowledge.Entry{ID: "a"})
	c.put(2, knowledge.Entry{ID: "b"})
	if _, ok := c.get(1); !ok { // 1 is now the most recent
		t.Fatal("entry 1 missing")
	}
	c.put(3, knowledge.Entry{ID: "c"})
	if _, ok := c.get(2); ok {
		t.Error("entry 2 should have been evicted")
	}
	for _, id := range []int64{1, 3} {
		if _, ok := c.get(id); !ok {
			t.Errorf("entry %d evicted", id)
		}
	}
	c.put(3, knowledge.Entry{ID: "c2"})
	if e, _ := c.get(3); e.ID != "c2" {
		t.Errorf("update lost: %q", e.ID)
	}
}
