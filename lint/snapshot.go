package lint

import (
	"context"
	"fmt"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// snapshot is a space at one revision, indexed for the checks: every
// check resolves links with map lookups, never by rescanning pages.
type snapshot struct {
	files  map[string]string // every file of the space: path → blob
	dirs   map[string]bool   // every directory that holds a file
	pages  []*page           // the .md files, sorted by path
	byPath map[string]*page
	// byWiki maps content.WikiKey of file names and titles to pages; built
	// on the first [[wiki link]] (wikiIndex), which many spaces never have.
	byWiki map[string][]*page
	// catchUp: the spokes and hub here are as a batch will catch them up
	// with pages people changed in git, not as committed.
	catchUp bool
	// parsed is how many blobs load read and parsed (the others' facts
	// were kept from an earlier run).
	parsed int
	// saved are the pages (nil when absent or not a page) and savedBlob
	// the other files that the last overlay replaced, as they are at rev.
	saved     map[string]*page
	savedBlob map[string]string
}

// load reads and parses every page of s at rev, with the spokes and hub
// as a batch on rev leaves them (caught up with pages people changed in
// git: wiki.Space.IndexCatchUp), since the lint batch is that batch. A
// page whose blob facts keeps is not read again; facts, when not nil,
// then keeps those of this revision.
func load(ctx context.Context, s *wiki.Space, rev wiki.Rev, facts *factStore) (*snapshot, error) {
	es, err := s.List(ctx, rev, "")
	if err != nil {
		return nil, err
	}
	snap := &snapshot{files: make(map[string]string, len(es)), dirs: map[string]bool{}, savedBlob: map[string]string{}}
	for _, e := range es {
		snap.files[e.Path] = e.Blob
		snap.addDirs(e.Path)
		if isPage(e.Path) {
			snap.pages = append(snap.pages, &page{path: e.Path, blob: e.Blob})
		}
	}
	slices.SortFunc(snap.pages, func(a, b *page) int { return strings.Compare(a.path, b.path) })
	if snap.parsed, err = parseAll(ctx, s, snap.pages, facts); err != nil {
		return nil, err
	}
	facts.save(snap.pages)
	pending, err := s.IndexCatchUp(ctx, rev)
	if err != nil {
		return nil, err
	}
	snap.index()
	snap.catchUp = len(pending) > 0
	snap.overlay(pending)
	return snap, nil
}

func (snap *snapshot) addDirs(p string) {
	for d := path.Dir(p); d != "." && !snap.dirs[d]; d = path.Dir(d) {
		snap.dirs[d] = true
	}
}

// overlay puts files as a batch will write them into the snapshot (parsed
// on the spot: a few spokes and the hub), in place of those of an earlier
// overlay, which it undoes first: each overlay is relative to rev.
func (snap *snapshot) overlay(files []wiki.PendingFile) {
	if len(files) == 0 && len(snap.saved) == 0 {
		return // nothing to put in, nothing to undo
	}
	var e pageEdit
	snap.undoOverlay(&e)
	if snap.saved == nil {
		snap.saved = map[string]*page{}
	}
	for _, f := range files {
		if _, ok := snap.saved[f.Path]; !ok {
			snap.saved[f.Path] = snap.byPath[f.Path] // nil: absent at rev, or not a page
			if _, ok := snap.files[f.Path]; ok && snap.byPath[f.Path] == nil {
				snap.savedBlob[f.Path] = snap.files[f.Path]
			}
		}
		e.remove(snap, f.Path)
		if f.Deleted {
			continue
		}
		snap.files[f.Path] = wiki.BlobID(f.Data)
		if isPage(f.Path) {
			pg := &page{path: f.Path, blob: wiki.BlobID(f.Data)}
			pg.parse(f.Data)
			pg.pending = f.Data
			e.added = append(e.added, pg)
		}
	}
	e.apply(snap)
	snap.settle()
}

// undoOverlay puts back the files an overlay replaced, as they are at rev;
// overlay, its one caller, applies e and settles the snapshot afterwards.
func (snap *snapshot) undoOverlay(e *pageEdit) {
	if len(snap.saved) == 0 {
		return
	}
	for p, pg := range snap.saved {
		e.remove(snap, p)
		switch {
		case pg != nil:
			snap.files[p] = pg.blob
			e.added = append(e.added, pg)
		case snap.savedBlob[p] != "":
			snap.files[p] = snap.savedBlob[p]
		}
	}
	snap.saved, snap.savedBlob = map[string]*page{}, map[string]string{}
}

// pageEdit is what an overlay changes in the pages: the paths it takes
// out and the pages it puts in, applied to the pages in one pass (one
// pass per file was quadratic in a large space).
type pageEdit struct {
	gone  map[string]bool
	added []*page
}

// remove takes p out of the files now and out of the pages when applied
// (index and dirs are redone by settle).
func (e *pageEdit) remove(snap *snapshot, p string) {
	delete(snap.files, p)
	if e.gone == nil {
		e.gone = map[string]bool{}
	}
	e.gone[p] = true
	e.added = slices.DeleteFunc(e.added, func(x *page) bool { return x.path == p })
}

func (e *pageEdit) apply(snap *snapshot) {
	snap.pages = slices.DeleteFunc(snap.pages, func(x *page) bool { return e.gone[x.path] })
	snap.pages = append(snap.pages, e.added...)
}

// settle sorts the pages and redoes what is derived from the files: the
// folders that hold one, and the page indexes.
func (snap *snapshot) settle() {
	slices.SortFunc(snap.pages, func(a, b *page) int { return strings.Compare(a.path, b.path) })
	snap.dirs = map[string]bool{}
	for p := range snap.files {
		snap.addDirs(p)
	}
	snap.index()
}

// index maps the pages by path (and forgets the names wiki links use,
// wikiIndex builds them again when asked).
func (snap *snapshot) index() {
	snap.byPath = make(map[string]*page, len(snap.pages))
	for _, p := range snap.pages {
		snap.byPath[p.path] = p
	}
	snap.byWiki = nil
}

// wikiIndex returns the pages by the names wiki links use: file name,
// path, the title a path gives and the page's title.
func (snap *snapshot) wikiIndex() map[string][]*page {
	if snap.byWiki != nil {
		return snap.byWiki
	}
	snap.byWiki = map[string][]*page{}
	for _, p := range snap.pages {
		keys := []string{
			content.WikiKey(path.Base(p.path)),
			content.WikiKey(p.path),
			content.WikiKey(content.TitleFromPath(p.path)),
		}
		if p.Meta != nil && p.Meta.Title != "" {
			keys = append(keys, content.WikiKey(p.Meta.Title))
		}
		for i, k := range keys {
			if !slices.Contains(keys[:i], k) {
				snap.byWiki[k] = append(snap.byWiki[k], p)
			}
		}
	}
	return snap.byWiki
}

// isPage reports whether lint looks at a file: Markdown, not hidden, not
// the agents' AGENTS.md.
func isPage(p string) bool {
	return strings.HasSuffix(strings.ToLower(p), ".md") && !strings.HasPrefix(p, ".") && !strings.Contains(p, "/.") && !wiki.IsGuidance(p)
}

// parseAll sets the facts of every page: kept ones from facts, the others
// read in the order the repository stores them and parsed on all cores as
// they are read, once for pages that share a blob. A page's text is
// dropped once parsed, and the reader runs at most a few pages ahead of
// the parsers, so a run holds what the checks need of every page but the
// text of only a few. It returns how many blobs it parsed.
func parseAll(ctx context.Context, s *wiki.Space, pages []*page, facts *factStore) (int, error) {
	same := map[string][]*page{} // by blob, the pages to parse
	var blobs []string
	for _, p := range pages {
		if f := facts.get(p.blob); f != nil {
			p.lintFacts = f
			continue
		}
		if same[p.blob] == nil {
			blobs = append(blobs, p.blob)
		}
		same[p.blob] = append(same[p.blob], p)
	}
	if len(blobs) == 0 {
		return 0, nil
	}
	type job struct {
		pages []*page
		data  []byte
	}
	workers := min(runtime.GOMAXPROCS(0), max(1, len(blobs)/64))
	jobs := make(chan job, 4*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				f := parseFacts(j.pages[0].path, j.data)
				for _, p := range j.pages {
					p.lintFacts = f
				}
			}
		})
	}
	read := make([]bool, len(blobs))
	err := s.ReadBlobs(ctx, blobs, func(i int, data []byte) error {
		read[i] = true
		select {
		case jobs <- job{same[blobs[i]], data}:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	close(jobs)
	wg.Wait()
	if err != nil && ctx.Err() == nil {
		// Name the page that could not be read.
		for i, b := range blobs {
			if read[i] {
				continue
			}
			if _, rerr := s.ReadBlob(ctx, b); rerr != nil {
				return 0, fmt.Errorf("%s: %w", same[b][0].path, rerr)
			}
		}
	}
	return len(blobs), err
}
