package index

import (
	"context"
	"slices"
	"strings"

	"github.com/blugelabs/bluge"
)

// Lookup returns up to limit Docs of type typ whose Expands hold any of
// terms, unranked, in order of id (so that the Docs kept do not depend on
// the order they were applied in). It serves small dictionaries kept beside
// the text (the acronyms a space defines), which are found by exact terms
// rather than scored.
func (ix *Index) Lookup(ctx context.Context, typ string, terms []string, limit int) (_ []Doc, err error) {
	defer guardFaults()()
	defer recoverCorrupt(&err)
	if len(terms) == 0 || limit <= 0 {
		return nil, nil
	}
	either := bluge.NewBooleanQuery().SetMinShould(1)
	for _, t := range terms {
		either.AddShould(termQuery{term: t, field: fieldExpands})
	}
	q := bluge.NewBooleanQuery().AddMust(either).AddMust(termQuery{term: typ, field: fieldType})
	r, release, err := ix.reader()
	if err != nil {
		return nil, readErr("look up index", err)
	}
	defer release()
	it, err := r.Search(ctx, bluge.NewAllMatches(q))
	if err != nil {
		return nil, readErr("look up index", err)
	}
	hits, err := collectHits(it, false)
	if err != nil {
		return nil, readErr("look up index", err)
	}
	slices.SortFunc(hits, func(a, b Hit) int { return strings.Compare(a.ID, b.ID) })
	docs := make([]Doc, min(len(hits), limit, MaxLimit))
	for i := range docs {
		docs[i] = hits[i].Doc
	}
	return docs, nil
}
