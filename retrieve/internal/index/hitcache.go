package index

import (
	"fmt"
	"slices"
	"sync"
)

// hitCache keeps the hits of recent searches of the index's current
// content. A long-running server answers the same questions again (agents
// grounding on one task, each asking what the others asked), and a search
// of an unchanged index is a function of its query. Apply moves the
// generation on, before and after it writes, and empties the cache; a
// search that overlapped an Apply is not kept.
type hitCache struct {
	mu    sync.Mutex
	gen   uint64 // odd while an Apply is writing
	hits  map[string][]Hit
	bytes int
}

// maxCachedHitBytes bounds the text the cache holds (bodies, titles,
// summaries); past it, the cache starts again empty.
const maxCachedHitBytes = 16 << 20

// generation is the cache's generation, read before a search.
func (c *hitCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// get returns a copy of the hits kept for key at generation gen.
func (c *hitCache) get(gen uint64, key string) ([]Hit, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen || gen%2 == 1 {
		return nil, false
	}
	hs, ok := c.hits[key]
	return slices.Clone(hs), ok
}

// put keeps hits for key when no Apply began since gen was read.
func (c *hitCache) put(gen uint64, key string, hits []Hit) {
	size := len(key)
	for _, h := range hits {
		size += len(h.ID) + len(h.Path) + len(h.Title) + len(h.Heading) + len(h.Summary) + len(h.Body) + 128
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen || gen%2 == 1 || size > maxCachedHitBytes/8 {
		return
	}
	if c.hits == nil || c.bytes+size > maxCachedHitBytes {
		c.hits, c.bytes = map[string][]Hit{}, 0
	}
	if _, ok := c.hits[key]; !ok {
		c.hits[key] = slices.Clone(hits)
		c.bytes += size
	}
}

// applying marks the start or the end of an Apply: the content changes.
func (c *hitCache) applying() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.hits, c.bytes = nil, 0
}

// changed marks content that changed outside an Apply (Add): the cache
// is emptied and the generation moves on by two, so that a search that
// overlapped the change is not kept and concurrent Adds never leave the
// generation odd.
func (c *hitCache) changed() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen += 2
	c.hits, c.bytes = nil, 0
}

// closing empties the cache for good: the generation stays odd, so that
// a search after Close reaches the index and is told it is closed.
func (c *hitCache) closing() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen%2 == 0 {
		c.gen++
	}
	c.hits, c.bytes = nil, 0
}

// key is what a search's hits depend on besides the index's content.
func (q Query) key() string {
	return fmt.Sprintf("%q|%q|%q|%q|%d|%v|%v|%v", q.Text, q.Types, q.Paths, q.ExcludeStatus, q.Limit, q.Fields, q.OmitBody, q.exact)
}
