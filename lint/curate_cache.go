package lint

import (
	"bytes"
	"encoding/gob"
	"io"
	"os"
	"sync"

	"github.com/ptwiki/pt/wiki"
)

// factsCache keeps each page's curation facts by blob id in the space's
// derived state, so that a page unchanged since the last run is not read
// again. It is never the source of truth: a missing, torn or older cache
// is ignored and rebuilt.
type factsCache struct {
	path     string // "" keeps nothing on disk
	mu       sync.Mutex
	old      map[string]*pageFacts
	cur      map[string]*pageFacts
	verdicts map[string]verdict // model verdicts by finding id and revisions
	used     map[string]verdict
	dirty    bool
}

// cacheFile is the cache's on-disk form.
type cacheFile struct {
	Version  int
	Pages    map[string]*pageFacts
	Verdicts map[string]verdict
}

// openFactsCache reads the cache at path ("" for none).
func openFactsCache(path string) *factsCache {
	c := &factsCache{path: path, old: map[string]*pageFacts{}, cur: map[string]*pageFacts{},
		verdicts: map[string]verdict{}, used: map[string]verdict{}}
	if path == "" {
		return c
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return c
	}
	var f cacheFile
	if gob.NewDecoder(bytes.NewReader(data)).Decode(&f) != nil || f.Version != factsVersion {
		return c
	}
	if f.Pages != nil {
		c.old = f.Pages
	}
	if f.Verdicts != nil {
		c.verdicts = f.Verdicts
	}
	return c
}

func (c *factsCache) get(blob string) *pageFacts {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.old[blob]
}

// put records the facts of a blob of this run; the cache saved keeps only
// the blobs of this run, so it does not grow with history.
func (c *factsCache) put(blob string, f *pageFacts) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.old[blob]; !ok {
		c.dirty = true
	}
	c.cur[blob] = f
}

func (c *factsCache) verdict(key string) (verdict, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.verdicts[key]
	if ok {
		c.used[key] = v
	}
	return v, ok
}

func (c *factsCache) putVerdict(key string, v verdict) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.used[key] = v
	c.dirty = true
}

// save writes the cache when it changed: to a temporary file renamed over
// the old one, so that a crash leaves the old cache or the new one. A
// cache that cannot be written (a read-only checkout) is not an error:
// the next run reads the pages again.
func (c *factsCache) save() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.path == "" || (!c.dirty && len(c.cur) == len(c.old)) {
		return
	}
	_ = wiki.WriteStateFile(c.path, func(w io.Writer) error {
		return gob.NewEncoder(w).Encode(cacheFile{Version: factsVersion, Pages: c.cur, Verdicts: c.used})
	})
}
