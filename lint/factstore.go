package lint

import (
	"bufio"
	"encoding/gob"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/ptwiki/pt/wiki"
)

// factStore keeps what the checks read of each page by blob id, in the
// space's derived state, so that a lint reads and parses only the pages
// that changed since the last one: after an ingest, a handful. It is
// never the source of truth: a missing, torn or other version's file is
// ignored and the pages are read again.
type factStore struct {
	path string // "" keeps nothing
	old  map[string]*lintFacts
}

// The store's on-disk form is a gob stream: a factsHeader, then the
// facts in chunks of factsChunk, so that neither side holds the whole
// encoded file in memory.
type factsHeader struct {
	// Version says which pt wrote the file: facts extracted by another
	// version (other rules for secrets, another Markdown parser) are
	// not reused.
	Version string
	Blobs   int
}

// factsEntry is the facts of one blob.
type factsEntry struct {
	Blob  string
	Facts *lintFacts
}

const factsChunk = 4096

// lintFactsVersion changes whenever what lintFacts holds, or how it is
// extracted, changes.
const lintFactsVersion = 1

// factsPath is where a space's lint facts are kept.
func factsPath(stateDir string) string { return filepath.Join(stateDir, "lint", "facts.gob") }

// openFactStore reads the store at path ("" for none).
func openFactStore(path string) *factStore {
	st := &factStore{path: path}
	if path == "" {
		return st
	}
	f, err := os.Open(path)
	if err != nil {
		return st
	}
	defer f.Close()
	dec := gob.NewDecoder(bufio.NewReaderSize(f, 64<<10))
	var h factsHeader
	if dec.Decode(&h) != nil || h.Version != factsVersionKey() || h.Blobs < 0 {
		return st
	}
	old := make(map[string]*lintFacts, h.Blobs)
	for len(old) < h.Blobs {
		var chunk []factsEntry
		if dec.Decode(&chunk) != nil || len(chunk) == 0 {
			return st
		}
		for _, e := range chunk {
			if e.Facts == nil || (e.Facts.Meta == nil) == (e.Facts.Invalid == nil) {
				return st // not facts this version writes
			}
			old[e.Blob] = e.Facts
		}
	}
	st.old = old
	return st
}

// get returns the facts kept for blob, nil when there are none.
func (st *factStore) get(blob string) *lintFacts {
	if st == nil {
		return nil
	}
	return st.old[blob]
}

// save keeps the facts of pages, and only theirs, so that the file does
// not grow with the space's history. It writes nothing when they are the
// facts it already holds. The file is written beside and renamed into
// place (wiki.WriteStateFile), so that a crash leaves the old store or the new one; a store
// that cannot be written (a read-only checkout) is not an error, the
// next run reads the pages again.
func (st *factStore) save(pages []*page) {
	if st == nil || st.path == "" {
		return
	}
	cur := make(map[string]*lintFacts, len(pages))
	same := true
	for _, p := range pages {
		if p.pending != nil {
			continue
		}
		cur[p.blob] = p.lintFacts
		if st.old[p.blob] == nil {
			same = false
		}
	}
	if same && len(cur) == len(st.old) {
		return
	}
	if wiki.WriteStateFile(st.path, func(w io.Writer) error { return encodeFacts(w, cur) }) == nil {
		st.old = cur
	}
}

func encodeFacts(w io.Writer, facts map[string]*lintFacts) error {
	enc := gob.NewEncoder(w)
	if err := enc.Encode(factsHeader{Version: factsVersionKey(), Blobs: len(facts)}); err != nil {
		return err
	}
	chunk := make([]factsEntry, 0, factsChunk)
	for blob, f := range facts {
		chunk = append(chunk, factsEntry{blob, f})
		if len(chunk) == factsChunk {
			if err := enc.Encode(chunk); err != nil {
				return err
			}
			chunk = chunk[:0]
		}
	}
	if len(chunk) > 0 {
		return enc.Encode(chunk)
	}
	return nil
}

// factsVersionKey names the facts' format and the pt that extracts them:
// its module version and revision, and for a build without either (a
// development build, a test) the executable's size and time.
func factsVersionKey() string {
	key := fmt.Sprint(lintFactsVersion)
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return key + " " + executableStamp()
	}
	key += " " + bi.Main.Version
	stamped := bi.Main.Version != "" && bi.Main.Version != "(devel)"
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			key += " " + s.Value
			stamped = true
		case "vcs.modified":
			if s.Value == "true" {
				stamped = false
			}
		}
	}
	if !stamped {
		key += " " + executableStamp()
	}
	return key
}

// executableStamp tells one build of the running program from another.
func executableStamp() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d %d", fi.Size(), fi.ModTime().UnixNano())
}
