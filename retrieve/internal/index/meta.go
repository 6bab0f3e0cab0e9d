package index

import (
	"context"
	"fmt"

	"github.com/blugelabs/bluge"
)

// The commit an index reflects is kept in a metadata document inside the index
// itself, rewritten by every Apply in the same bluge batch as the page
// documents. Bluge applies and persists a batch as one snapshot, so after a
// crash the index holds either the old documents with the old commit or the new
// ones with the new commit, never a mix; a key kept in a side file could not
// promise that. The live documents' field totals (liveTotals) travel with it,
// for the same reason.
//
// The metadata document has no type or text fields, so filters and text
// queries never match it. It does carry a path, one no page can have: ice
// v1.0.0's DocsMatchingTerms dereferences a nil dictionary when a segment lacks
// the field of a delete term, so every document, and hence every segment, must
// hold a path for Apply's deletes by path to be safe.
const (
	metaID          = "\x00pt-index-meta" // cannot collide with a page ID
	metaPath        = "\x00pt-index-meta" // nor with a page path
	fieldMetaCommit = "pt_commit"
)

func metaDoc(commit string, t liveTotals) *bluge.Document {
	d := bluge.NewDocument(metaID)
	d.AddField(bluge.NewKeywordField(fieldPath, metaPath))
	d.AddField(bluge.NewStoredOnlyField(fieldMetaCommit, []byte(commit)))
	d.AddField(bluge.NewStoredOnlyField(fieldStats, t.encode()))
	return d
}

// meta is what the metadata document of a snapshot records.
type meta struct {
	commit string
	exists bool // the document exists (once anything has been applied)
	totals liveTotals
}

// readMeta returns what the metadata document of snapshot r records.
func readMeta(ctx context.Context, r *bluge.Reader) (meta, error) {
	out := meta{totals: newTotals()}
	q := bluge.NewTermQuery(metaID).SetField(fieldID)
	it, err := r.Search(ctx, bluge.NewTopNSearch(1, q))
	if err != nil {
		return out, fmt.Errorf("read index metadata: %w", err)
	}
	m, err := it.Next()
	if err != nil {
		return out, fmt.Errorf("read index metadata: %w", err)
	}
	if m == nil {
		return out, nil
	}
	out.exists = true
	var stats []byte
	err = m.VisitStoredFields(func(field string, value []byte) bool {
		switch field {
		case fieldMetaCommit:
			out.commit = string(value)
		case fieldStats:
			stats = append([]byte(nil), value...)
		}
		return true
	})
	if err != nil {
		return out, fmt.Errorf("read index metadata: %w", err)
	}
	if stats == nil {
		return out, fmt.Errorf("read index metadata: %w: no field totals", ErrCorrupt)
	}
	if out.totals, err = decodeTotals(stats); err != nil {
		return out, fmt.Errorf("read index metadata: %w: %w", ErrCorrupt, err)
	}
	return out, nil
}
