package taxonomy

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	Name  string
	Words string
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

// The cache file is a header line naming its format, then one line per
// spoke: blob id, topic name and words, separated by tabs. A file of
// another format is ignored and rebuilt. It is read by every ingest that
// assigns topics, so it is plain lines rather than JSON: at 100,000 pages
// (4,000 spokes, 3 MB) decoding JSON took longer than the rest of the
// topic assignment.
const spokeCacheHeader = "pt spoke-words 3"

// spokeCacheSaveAfter is how many spokes must have been read (not found in
// the file) before it is rewritten.
const spokeCacheSaveAfter = 16

const spokeCacheFile = "spoke-words.txt"

// spokeCacheLegacy is the JSON file of earlier versions, removed when the
// cache is next written.
const spokeCacheLegacy = "spoke-words.json"

// cacheFor returns the space's spoke cache, loaded from its state
// directory once and then kept by the Space for its lifetime.
func cacheFor(s *wiki.Space) *spokeCache {
	return s.Memo("taxonomy.spoke-words", func() any { return loadCache(s.StateDir()) }).(*spokeCache)
}

// loadCache reads the cache file in stateDir; a missing, damaged or older
// one gives an empty cache, rebuilt as spokes are read.
func loadCache(stateDir string) *spokeCache {
	c := &spokeCache{file: filepath.Join(stateDir, spokeCacheFile), entries: map[string]*spokeWords{}}
	data, err := os.ReadFile(c.file)
	if err != nil {
		return c
	}
	text := string(data)
	head, rest, _ := strings.Cut(text, "\n")
	if head != spokeCacheHeader {
		return c
	}
	entries := make(map[string]*spokeWords, strings.Count(rest, "\n"))
	for line := range strings.Lines(rest) {
		blob, after, ok1 := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		name, words, ok2 := strings.Cut(after, "\t")
		if !ok1 || !ok2 || !strings.HasSuffix(line, "\n") {
			return c // cut short: rebuilt as spokes are read
		}
		entries[blob] = &spokeWords{Name: name, Words: words}
	}
	c.entries = entries
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
	blobs := make([]string, 0, len(c.entries))
	for b := range c.entries {
		blobs = append(blobs, b)
	}
	slices.Sort(blobs)
	err := wiki.WriteStateFile(c.file, func(w io.Writer) error {
		fmt.Fprintln(w, spokeCacheHeader) // w is buffered by WriteStateFile
		for _, b := range blobs {
			e := c.entries[b]
			if strings.ContainsAny(b, "\t\n") || strings.ContainsAny(e.Name, "\t\n") || strings.ContainsAny(e.Words, "\t\n") {
				continue // not kept: read again from its spoke
			}
			fmt.Fprintf(w, "%s\t%s\t%s\n", b, e.Name, e.Words)
		}
		return nil
	})
	if err == nil {
		c.missed = 0
		os.Remove(filepath.Join(filepath.Dir(c.file), spokeCacheLegacy))
	}
}
