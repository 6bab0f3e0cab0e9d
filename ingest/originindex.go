package ingest

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// originIndex maps the source pages of a space at one commit to the
// origin each records. It is derived data, kept in the space's state
// directory and brought up to a newer head from the tree diff, so that
// finding the page of a file reads only the sources changed since the last
// ingest; deleting it costs one slower ingest.
type originIndex struct {
	Version int               `json:"version"`
	Commit  wiki.Rev          `json:"commit"`
	Origins map[string]string `json:"origins"` // source page → recorded origin
}

const (
	originIndexVersion = 1
	originIndexFile    = "origins.json"
)

// loadOrigins returns the origin index of s at head, updated and saved.
func loadOrigins(ctx context.Context, s *wiki.Space, head wiki.Rev) (map[string]string, error) {
	file := filepath.Join(s.StateDir(), originIndexFile)
	ix := readOrigins(file)
	if ix.Commit == head && ix.Origins != nil {
		return ix.Origins, nil
	}
	var changed []wiki.Entry
	var err error
	if ix.Commit != "" {
		changed, err = changedSources(ctx, s, ix.Commit, head)
	}
	if ix.Commit == "" || err != nil {
		ix = originIndex{Origins: map[string]string{}}
		changed, err = s.List(ctx, head, sourcesDir)
		if err != nil {
			return nil, err
		}
	}
	if err := ix.apply(ctx, s, changed); err != nil {
		return nil, err
	}
	ix.Version, ix.Commit = originIndexVersion, head
	saveOrigins(file, ix)
	return ix.Origins, nil
}

// readOrigins reads the saved index; a missing, damaged or older one reads
// as empty.
func readOrigins(file string) originIndex {
	var ix originIndex
	if data, err := os.ReadFile(file); err == nil {
		if json.Unmarshal(data, &ix) != nil || ix.Version != originIndexVersion || ix.Origins == nil {
			ix = originIndex{} // damaged or of another format: rebuilt
		}
	}
	return ix
}

// apply brings the index over the changed source files: each is dropped,
// and read again when it still exists.
func (ix *originIndex) apply(ctx context.Context, s *wiki.Space, changed []wiki.Entry) error {
	for _, e := range changed {
		delete(ix.Origins, e.Path)
		if e.Blob == "" || !strings.HasSuffix(e.Path, ".md") {
			continue
		}
		raw, err := s.ReadBlob(ctx, e.Blob)
		if err != nil {
			return err
		}
		if pg, err := content.Parse(e.Path, raw); err == nil && pg.Meta.Kind == content.KindSource && pg.Meta.Provenance.Origin != "" {
			ix.Origins[e.Path] = pg.Meta.Provenance.Origin
		}
	}
	return nil
}

// keepOrigins carries the saved index from base over the commit a batch
// made on it, from the pages the batch wrote: the next ingest then finds
// it current and need not diff the trees of the two commits, which costs
// a read of every changed directory (at 10,000 pages, a third of an
// ingest's CPU). An index saved at another commit is left for that diff.
func keepOrigins(ctx context.Context, s *wiki.Space, base wiki.Rev, res *wiki.Result) {
	if base == "" || res == nil || res.Commit == "" || res.Unchanged || res.Proposal != "" {
		return
	}
	file := filepath.Join(s.StateDir(), originIndexFile)
	ix := readOrigins(file)
	if ix.Commit != base || ix.Origins == nil {
		return
	}
	var changed []wiki.Entry
	for _, w := range res.Pages {
		if strings.HasPrefix(w.Path, sourcesDir) {
			changed = append(changed, wiki.Entry{Path: w.Path, Blob: w.Revision})
		}
	}
	if ix.apply(ctx, s, changed) != nil {
		return
	}
	ix.Commit = wiki.Rev(res.Commit)
	saveOrigins(file, ix)
}

// changedSources lists the source files that differ between two commits,
// with their blob at to ("" when deleted).
func changedSources(ctx context.Context, s *wiki.Space, from, to wiki.Rev) ([]wiki.Entry, error) {
	fcs, err := s.Diff(ctx, from, to)
	if err != nil {
		return nil, err
	}
	var out []wiki.Entry
	for _, fc := range fcs {
		if strings.HasPrefix(fc.Path, sourcesDir) {
			out = append(out, wiki.Entry{Path: fc.Path, Blob: fc.To})
		}
	}
	return out, nil
}

// saveOrigins writes the index through a temporary file and a rename, so a
// reader never sees half of it. A failure only costs a later rebuild.
func saveOrigins(file string, ix originIndex) {
	_ = wiki.WriteStateFile(file, func(w io.Writer) error { return json.NewEncoder(w).Encode(ix) })
}
