package bot

import (
	"container/list"
	"sync"

	"github.com/heraldbot/herald/knowledge"
)

// entryCache keeps recently ranked entries decoded, so that the entries
// most posts meet (the curated pack) are not read and decoded from SQLite
// for every post. It is a plain LRU bounded by entry count and safe for
// concurrent use.
type entryCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // of int64 row ids, most recent first
	items map[int64]cacheItem
}

type cacheItem struct {
	entry knowledge.Entry
	elem  *list.Element
}

func newEntryCache(max int) *entryCache {
	return &entryCache{max: max, order: list.New(), items: map[int64]cacheItem{}}
}

func (c *entryCache) get(id int64) (knowledge.Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	it, ok := c.items[id]
	if !ok {
		return knowledge.Entry{}, false
	}
	c.order.MoveToFront(it.elem)
	return it.entry, true
}

func (c *entryCache) put(id int64, e knowledge.Entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if it, ok := c.items[id]; ok {
		it.entry = e
		c.items[id] = it
		c.order.MoveToFront(it.elem)
		return
	}
	c.items[id] = cacheItem{entry: e, elem: c.order.PushFront(id)}
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(int64))
	}
}
