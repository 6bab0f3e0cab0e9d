package ingest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
)

// spokeWords is what the taxonomy keeps of one spoke file: its topic name
// and the text that speaks for it. It depends only on the spoke's bytes, so
// it is cached by blob id: an ingest into a space of 10,000 pages would
// otherwise read and parse every one of its hundreds of spokes.
type spokeWords struct {
	Name    string   `json:"name"`
	Summary string   `json:"summary,omitempty"`
	Members []string `json:"members,omitempty"`
}

// spokeCache maps spoke blob ids to their words, in memory for a
// long-running process (the MCP server) and in the space's state directory
// for the CLI. It is derived data: deleting it costs one slower ingest.
type spokeCache struct {
	mu      sync.Mutex
	file    string
	entries map[string]spokeWords
	dirty   bool
}

var spokeCaches sync.Map // state dir → *spokeCache

const spokeCacheFile = "spoke-words.json"

func cacheFor(stateDir string) *spokeCache {
	if c, ok := spokeCaches.Load(stateDir); ok {
		return c.(*spokeCache)
	}
	c := &spokeCache{file: filepath.Join(stateDir, spokeCacheFile), entries: map[string]spokeWords{}}
	if data, err := os.ReadFile(c.file); err == nil {
		_ = json.Unmarshal(data, &c.entries) // a damaged cache is rebuilt
	}
	actual, _ := spokeCaches.LoadOrStore(stateDir, c)
	return actual.(*spokeCache)
}

func (c *spokeCache) get(blob string) (spokeWords, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	w, ok := c.entries[blob]
	return w, ok
}

func (c *spokeCache) put(blob string, w spokeWords) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[blob] = w
	c.dirty = true
}

// save writes the cache, keeping only the blobs still in use, through a
// temporary file and a rename so a reader never sees half of it.
func (c *spokeCache) save(live map[string]bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.dirty && len(c.entries) == len(live) {
		return
	}
	for b := range c.entries {
		if !live[b] {
			delete(c.entries, b)
		}
	}
	data, err := json.Marshal(c.entries)
	if err != nil || os.MkdirAll(filepath.Dir(c.file), 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(c.file), spokeCacheFile+".*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), c.file) != nil {
		os.Remove(tmp.Name())
		return
	}
	c.dirty = false
}
