package taxonomy

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/ptwiki/pt/wiki"
)

// spokeWords is what the taxonomy keeps of one spoke file: its topic name
// and the words that speak for it (the content words of its summary and
// member titles, stemmed, repeats kept, space-separated). It depends only on
// the spoke's bytes, so it is cached by blob id: an ingest into a space of
// 10,000 pages would otherwise read, parse and split into words every one
// of its hundreds of spokes.
type spokeWords struct {
	Name  string `json:"name"`
	Words string `json:"words,omitempty"`
}

// spokeCache maps spoke blob ids to their words, in memory for a
// long-running process (the MCP server) and in the space's state directory
// for the CLI. It is derived data: deleting it costs one slower ingest.
type spokeCache struct {
	mu      sync.Mutex
	file    string
	entries map[string]*spokeWords
	// missed counts the spokes read since the file was last written: the
	// file is rewritten only when enough of them would be read again,
	// since writing it costs more than reading a few spokes.
	missed int
}

// spokeCacheData is the cache file. It carries its format's version: a file
// of another format is ignored and rebuilt.
type spokeCacheData struct {
	Version int                    `json:"version"`
	Spokes  map[string]*spokeWords `json:"spokes"`
}

const spokeCacheVersion = 2

// spokeCacheSaveAfter is how many spokes must have been read (not found in
// the file) before it is rewritten.
const spokeCacheSaveAfter = 16

const spokeCacheFile = "spoke-words.json"

// cacheFor returns the space's spoke cache, loaded from its state
// directory once and then kept by the Space for its lifetime.
func cacheFor(s *wiki.Space) *spokeCache {
	return s.Memo("taxonomy.spoke-words", func() any { return loadCache(s.StateDir()) }).(*spokeCache)
}

// loadCache reads the cache file in stateDir; a missing, damaged or older
// one gives an empty cache, rebuilt as spokes are read.
func loadCache(stateDir string) *spokeCache {
	c := &spokeCache{file: filepath.Join(stateDir, spokeCacheFile), entries: map[string]*spokeWords{}}
	if data, err := os.ReadFile(c.file); err == nil {
		var d spokeCacheData
		if json.Unmarshal(data, &d) == nil && d.Version == spokeCacheVersion && d.Spokes != nil {
			c.entries = d.Spokes
		}
	}
	return c
}

func (c *spokeCache) get(blob string) (*spokeWords, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	w, ok := c.entries[blob]
	return w, ok
}

func (c *spokeCache) put(blob string, w *spokeWords) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[blob] = w
	c.missed++
}

// save forgets the blobs no longer in use and, when enough spokes were read
// since the last write, writes the cache through a temporary file and a
// rename so a reader never sees half of it.
func (c *spokeCache) save(live map[string]bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for b := range c.entries {
		if !live[b] {
			delete(c.entries, b)
		}
	}
	if c.missed < spokeCacheSaveAfter {
		return
	}
	err := wiki.WriteStateFile(c.file, func(w io.Writer) error {
		return json.NewEncoder(w).Encode(spokeCacheData{Version: spokeCacheVersion, Spokes: c.entries})
	})
	if err == nil {
		c.missed = 0
	}
}
