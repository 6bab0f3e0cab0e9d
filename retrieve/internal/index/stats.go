package index

import (
	"context"

	"github.com/blugelabs/bluge"
	"github.com/blugelabs/bluge/search"
	"github.com/blugelabs/bluge/search/searcher"
)

// TermStats is how common the terms of a question are in the body field: how
// many Docs hold each term (DF) out of how many Docs have a body at all (N),
// of which Pages are whole pages (type "page"). Callers weigh evidence by
// rarity with it, e.g. to tell a question whose rare words the space lacks
// from one it answers.
type TermStats struct {
	N     uint64
	Pages uint64
	DF    map[string]uint64
}

// Stats returns the body-field document frequency of each of terms (already
// analysed, as Terms returns them), over live Docs only, as BM25's own
// statistics are (livestats.go). It reads only term dictionaries and is
// cheap.
func (ix *Index) Stats(ctx context.Context, terms []string) (_ TermStats, err error) {
	defer guardFaults()()
	defer recoverCorrupt(&err)
	r, release, err := ix.reader()
	if err != nil {
		return TermStats{}, readErr("index stats", err)
	}
	defer release()
	q := &statsQuery{cache: &ix.snaps, terms: terms, out: TermStats{DF: make(map[string]uint64, len(terms))}}
	it, err := r.Search(ctx, bluge.NewTopNSearch(1, q))
	if err != nil {
		return TermStats{}, readErr("index stats", err)
	}
	if _, err := it.Next(); err != nil {
		return TermStats{}, readErr("index stats", err)
	}
	return q.out, q.err
}

// statsQuery matches nothing; building its searcher records the statistics,
// since only a searcher sees bluge's segment-level reader.
type statsQuery struct {
	cache *snapCache
	terms []string
	out   TermStats
	err   error
}

func (q *statsQuery) Searcher(r search.Reader, opts search.SearcherOptions) (search.Searcher, error) {
	cs, err := q.cache.collection(r, fieldBody)
	if err != nil {
		return nil, err
	}
	q.out.N = cs.DocumentCount()
	q.out.Pages = cs.parts["page"]
	for _, t := range q.terms {
		if q.out.DF[t], err = q.cache.partDocFreq(r, t, fieldBody); err != nil {
			return nil, err
		}
	}
	return searcher.NewMatchNoneSearcher(r, opts)
}
