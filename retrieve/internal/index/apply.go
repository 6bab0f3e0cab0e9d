package index

import (
	"context"
	"fmt"

	"github.com/blugelabs/bluge"
	blugeindex "github.com/blugelabs/bluge/index"
)

// Doc is one unit of retrieval as the caller flattened it: a whole page, one
// section of a page, or a topic spoke. The index never looks inside a page; it
// stores what it is given and returns it with hits.
type Doc struct {
	ID       string   // unique key: "pages/x.md" for a whole page, "pages/x.md#anchor" for a section
	Path     string   // the page path; every Doc of a path is replaced or deleted together
	Type     string   // "page" | "section" | "spoke": what kind of unit
	PageKind string   // source, source_summary, page, synthesis, topic, ...
	Title    string   // searched with the "title" boost
	Heading  string   // section heading path, e.g. "Install > Linux"; searched
	Anchor   string   // stored only
	Topics   []string // searched
	Summary  string   // searched
	Body     string   // searched
	Revision string   // git blob id the Doc was read at, stored for citations
	Status   string   // active, stale, ...; filtered by Query.ExcludeStatus
	Family   string   // near-duplicate family key chosen by the caller (may be empty)
	Inlinks  int      // authority signal chosen by the caller, stored only
	Ord      int      // section order within the page, stored only
	Acronym  string   // an "acronym" Doc's short form and long form, tab-separated, stored only
	Expands  []string // exact terms an "acronym" Doc is found by (Lookup), not stored
}

// pathTerm selects every document of a page path, for deletes.
type pathTerm string

func (p pathTerm) Field() string { return fieldPath }
func (p pathTerm) Term() []byte  { return []byte(p) }

// Apply brings the index to commit in one atomic, durable bluge batch: every
// Doc of each path in deletePaths and of each path that appears in upsert is
// deleted, upsert is inserted, and commit is recorded. After a crash the index
// holds either all of it or none of it, with the matching commit.
//
// Its cost depends on the size of the change, not of the index. ctx is checked
// before the batch starts; a batch in progress is not interrupted.
func (ix *Index) Apply(ctx context.Context, commit string, upsert []Doc, deletePaths []string) (err error) {
	// bluge reads the existing segments while it builds a batch (to
	// delete what it replaces): damage there is corruption too.
	defer guardFaults()()
	defer recoverCorrupt(&err)
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("apply %s to index: %w", commit, err)
	}
	b, err := buildBatch(upsert, deletePaths, true)
	if err != nil {
		return fmt.Errorf("apply %s to index: %w", commit, err)
	}

	ix.applyMu.Lock()
	defer ix.applyMu.Unlock()
	ix.hits.applying()
	defer ix.hits.applying()
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	switch {
	case ix.closed:
		return fmt.Errorf("apply %s to index: %w", commit, ErrClosed)
	case ix.ro != nil:
		return fmt.Errorf("apply %s to index: %w", commit, ErrReadOnly)
	}
	// The totals are read from the snapshot this batch follows: applies
	// are serialized, so nothing comes between.
	r, err := ix.w.Reader()
	if err != nil {
		return fmt.Errorf("apply %s to index: %w", commit, err)
	}
	totals, err := nextTotals(ctx, r, &ix.pending, b.paths, b.ids, b.lens)
	r.Close()
	if err != nil {
		return fmt.Errorf("apply %s to index: %w", commit, err)
	}
	b.Update(bluge.Identifier(metaID), metaDoc(commit, totals))
	if err := ix.w.Batch(b.Batch); err != nil {
		return fmt.Errorf("apply %s to index: %w", commit, err)
	}
	ix.pending.reset()
	ix.setCommit(commit)
	return nil
}

// batch is a bluge batch with what the live totals need: the paths and ids
// it deletes and the field lengths of the documents it inserts.
type batch struct {
	*blugeindex.Batch
	paths, ids []string
	lens       [][]fieldLen
}

// buildBatch returns the batch that deletes deletePaths and inserts
// upsert; with replace, each Doc first deletes every document of its path
// and of its id, without, the Docs must be new to the index.
func buildBatch(upsert []Doc, deletePaths []string, replace bool) (*batch, error) {
	b := &batch{Batch: bluge.NewBatch()}
	deleted := map[string]bool{}
	deletePath := func(p string) {
		if !deleted[p] {
			deleted[p] = true
			b.Delete(pathTerm(p))
			b.paths = append(b.paths, p)
		}
	}
	for _, p := range deletePaths {
		if p == "" || p == metaPath {
			return nil, fmt.Errorf("delete %q: invalid path", p)
		}
		deletePath(p)
	}
	ids := make(map[string]bool, len(upsert))
	an := newDocAnalyser()
	for _, d := range upsert {
		switch {
		case d.ID == "" || d.ID == metaID:
			return nil, fmt.Errorf("doc %q of %s: invalid id", d.ID, d.Path)
		case d.Path == "" || d.Path == metaPath:
			return nil, fmt.Errorf("doc %s: invalid path %q", d.ID, d.Path)
		case ids[d.ID]:
			return nil, fmt.Errorf("doc %s: duplicate id in one apply", d.ID)
		}
		ids[d.ID] = true
		bd, lens := blugeDoc(d, an)
		b.lens = append(b.lens, lens)
		if !replace {
			b.Insert(bd)
			continue
		}
		deletePath(d.Path)
		// Update also deletes by id, so that an id that moved to another path
		// stays unique.
		b.Update(bluge.Identifier(d.ID), bd)
		b.ids = append(b.ids, d.ID)
	}
	return b, nil
}
